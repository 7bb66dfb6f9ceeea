function v = base_value(a)
% The innermost double value (nested fmad objects stripped), for comparisons
% and for choosing branches such as the element selected by max.
  while isa(a, 'fmad')
    a = a.value;
  end
  v = a;
end
