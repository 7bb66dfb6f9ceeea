function r = not(x)
%NOT  ~x on the value of an fmad object.
  r = ~base_value(x);
end
