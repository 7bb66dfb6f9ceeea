function problem = fmadtest_check_builtin_case(name, kind, spec, x0)
% Checks one row of fmadtest_builtin_cases at the point X0; PROBLEM is ''
% when fmad behaves as the row says, else what went wrong.
  x = fmad(x0, eye(numel(x0)));
  problem = '';
  try
    switch kind
      case {'derivative', 'first derivative'}
        check_derivative(spec, x, x0);
      case 'value'
        result = spec(x);
        expected = spec(x0);
        if isa(result, 'fmad') || ~strcmp(class(result), class(expected)) ...
           || ~isequal(result, expected)
          error('fmadtest:mismatch', 'gives %s, expected %s', ...
                describe(result), describe(expected));
        end
      case 'error'
        [identifier, call] = spec{:};
        check_error(call, x, identifier, name);
    end
  catch err
    problem = sprintf('%s (%s, %s): [%s] %s', name, kind, func2str_of(spec), ...
                      err.identifier, strtok(err.message, "\n"));
  end
end

function check_derivative(f, x, x0)
  y = f(x);
  expected = f(x0);
  if isa(y, 'fmad')
    value = getvalue(y);
    J = getinternalderivs(y);
  else
    value = y;                         % a piecewise constant function
    J = zeros(numel(y), numel(x0));
  end
  if ~isa(value, 'double')
    error('fmadtest:class', 'the value is a %s, expected double', class(value));
  end
  fmadtest_check(value, expected, 1e-14, 'value');
  fmadtest_check(J, fd_jacobian(f, x0), 1e-7, 'derivatives vs central differences');
end

function check_error(call, x, identifier, name)
  try
    result = call(x);  %#ok<NASGU> (one output, as in y = f(x))
  catch err
    if ~strcmp(err.identifier, identifier)
      rethrow(err);
    end
    if strcmp(identifier, 'msad:fmad:unsupported') ...
       && (isempty(strfind(err.message, name)) || isempty(strfind(err.message, 'msad_eval')))
      error('fmadtest:message', 'the message "%s" should name %s and suggest msad_eval', ...
            err.message, name);
    end
    return
  end
  error('fmadtest:noError', 'no error, expected %s', identifier);
end

function text = describe(v)
  text = sprintf('%s %s', class(v), mat2str(size(v)));
  if ~isa(v, 'fmad') && (isnumeric(v) || islogical(v) || ischar(v)) && numel(v) <= 8
    text = [text ' ' mat2str(v)];
  end
end

function text = func2str_of(spec)
  if iscell(spec)
    spec = spec{end};
  end
  text = func2str(spec);
end
