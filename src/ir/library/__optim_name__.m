function name = __optim_name__(name, caller)
% __OPTIM_NAME__  For msad's optimset and optimget: without arguments, the options Octave's solvers
%   know (Octave 7's __all_opts__); else the canonical spelling of the option a name stands for, matched
%   as Octave does (case-insensitive, a unique prefix included). An unknown name warns as Octave does
%   and is returned as given; an ambiguous prefix warns and is returned as given.
  known = {'AutoScaling', 'ComplexEqn', 'Display', 'FinDiffType', 'FunValCheck', 'GradObj', 'Jacobian', ...
           'MaxFunEvals', 'MaxIter', 'OutputFcn', 'TolFun', 'TolX', 'TypicalX', 'Updating'};
  if nargin == 0
    name = known;
    return;
  end
  hits = strncmpi(known, name, length(name));
  if sum(hits) == 1
    name = known{hits};
  elseif ~any(hits)
    warning('%s: unrecognized option: %s', caller, name);
  else
    warning('%s: ambiguous option: %s', caller, name);
  end
end
