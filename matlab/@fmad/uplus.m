function x = uplus(x)
%UPLUS  +x for fmad objects.

end
