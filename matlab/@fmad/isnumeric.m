function r = isnumeric(~)
%ISNUMERIC  True: an fmad object stands for a double array, so code that
%   checks its input with isnumeric runs on it unchanged.
  r = true;
end
