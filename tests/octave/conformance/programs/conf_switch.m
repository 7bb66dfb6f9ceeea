function r = conf_switch(x)
% conformance: program scalar zero negscalar row
% switch on numbers and strings.
  switch numel(x)
    case 1
      kind = 'one';
    case {2, 3, 4, 5}
      kind = 'few';
    otherwise
      kind = 'many';
  end
  switch kind
    case 'one'
      r = x * 10;
    case {'few', 'many'}
      r = sum(x);
  end
  if strcmp(kind, 'one') && x > 0
    r = r + 1;
  end
end
