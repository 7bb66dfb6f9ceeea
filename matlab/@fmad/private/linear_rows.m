function rows = linear_rows(sz, subs)
% Linear indices (a column) of the elements that A(subs{:}) selects from an
% array A of size SZ, in the column-major order of the result.
  if numel(subs) == 1
    s = subs{1};
    if ischar(s)                     % A(:)
      rows = (1:prod(sz))';
    elseif islogical(s)
      rows = find(s(:));
    else
      rows = s(:);
    end
  elseif numel(subs) == 2 && isnumeric(subs{1}) && isnumeric(subs{2}) ...
      && numel(subs{1}) == 1 && numel(subs{2}) == 1
    rows = subs{1} + sz(1) * (subs{2} - 1);
  else
    positions = reshape(1:prod(sz), sz);
    positions = positions(subs{:});
    rows = positions(:);
  end
end
