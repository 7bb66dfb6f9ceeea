function d = internal_form(dx, value)
% Converts a user-supplied derivative seed DX for VALUE into the internal
% numel(VALUE) x nd matrix (see fmad for the accepted forms).
  m = numel(value);
  if size(dx, 1) == m && ndims(dx) == 2
    d = dx;                          % internal form: identity, compressed seed
  elseif numel(dx) == m
    d = reshape(dx, m, 1);           % one direction shaped like the value
  elseif ~issparse(dx) && ~isa(dx, 'fmad') && m > 0 && mod(numel(dx), m) == 0 ...
      && leading_size_matches(size(dx), size(value))
    d = reshape(dx, m, numel(dx) / m);  % external form [size(value) nd]
  else
    error('fmad:badInput', ...
          'fmad: derivatives of size %s do not fit a value of size %s', ...
          mat2str(size(dx)), mat2str(size(value)));
  end
  if ~isa(d, 'fmad') && ~issparse(d)
    d = full(double(d));             % eye(n) is a special diagonal type in Octave
  end
end

function ok = leading_size_matches(dsize, vsize)
  % The external form drops trailing singleton dimensions of the value
  % (a 3x1 value with 2 directions is 3x1x2, a 1x1 value gives 1x1xnd or 1xnd).
  k = find(vsize ~= 1, 1, 'last');
  if isempty(k)
    ok = true;
    return
  end
  ok = numel(dsize) > k && isequal(dsize(1:k), vsize(1:k));
end
