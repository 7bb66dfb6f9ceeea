function r = arg(x)
%ARG  Phase angle of a real fmad object (as angle).
  r = angle(x);
end
