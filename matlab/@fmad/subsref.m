function varargout = subsref(x, s)
%SUBSREF  Indexing x(i), x(i,j,...) of fmad objects (':', end, logical masks).
%   Field and cell indexing are errors: use getvalue / getinternalderivs.
%   (varargout: Octave asks for numel(x) outputs of x.name, and the error
%   below must be the one the user sees.)
  if ~strcmp(s(1).type, '()')
    error('fmad:badIndex', ['fmad: ''%s'' indexing is not supported; use ' ...
          'getvalue(x) and getinternalderivs(x)'], s(1).type);
  end
  subs = s(1).subs;
  value = x.value;
  derivs = x.derivs;
  if numel(subs) == 1 && isnumeric(subs{1})
    rows = subs{1};                  % linear indexing: the common case
  else
    rows = linear_rows(size(value), subs);
  end
  r = x;
  if isa(value, 'fmad') || isa(derivs, 'fmad')
    r.value = take(value, subs{:});
    r.derivs = take(derivs, rows, ':');
  else
    r.value = value(subs{:});
    r.derivs = derivs(rows, :);
  end
  if numel(s) > 1
    r = subsref(r, s(2:end));
  end
  varargout{1} = r;
end
