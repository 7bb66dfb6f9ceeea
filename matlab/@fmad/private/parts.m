function [v, d, active] = parts(a)
% Value and derivatives of an operand; a constant has D = [] and ACTIVE false.
  active = isa(a, 'fmad');
  if active
    v = a.value;
    d = a.derivs;
  else
    v = a;
    d = [];
  end
end
