function r = isfloat(~)
%ISFLOAT  True: an fmad object stands for a double array.
  r = true;
end
