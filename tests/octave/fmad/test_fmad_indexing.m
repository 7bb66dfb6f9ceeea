% Indexing and shape functions of fmad objects: subscripts with end, ':',
% logical masks, 2-D and linear indexing, reshape, repmat, concatenation
% of rows/columns/pages, size queries, and the errors for '.' and double().
fmadtest_setup;
X0 = reshape(1:12, 3, 4) / 10;
X = fmad(X0, speye(12));
ids = reshape(1:12, 3, 4);                   % which input each element is
expect_rows = @(Y, idx) fmadtest_check(getinternalderivs(Y), ...
                                       sparse(1:numel(idx), idx(:)', 1, numel(idx), 12), 0, ...
                                       'selected derivative rows');
expect_rows(X(2, 3), ids(2, 3));
expect_rows(X(end, :), ids(end, :));
expect_rows(X(:, end-1:end), ids(:, end-1:end));
expect_rows(X(:), ids(:));
expect_rows(X(7), ids(7));
expect_rows(X([1 3], [4 2]), ids([1 3], [4 2]));
expect_rows(X(X0 > 0.55), ids(X0 > 0.55));
expect_rows(X(logical([1 0 1]), :), ids(logical([1 0 1]), :));
expect_rows(X(end), ids(end));
expect_rows(X', ids');
expect_rows(X.', ids.');
expect_rows(reshape(X, 4, 3), reshape(ids, 4, 3));
expect_rows(repmat(X(1, 1:2), 2, 2), repmat(ids(1, 1:2), 2, 2));
expect_rows([X(1, :); X(3, :)], [ids(1, :); ids(3, :)]);
expect_rows([X(:, 1), X(:, 4)], [ids(:, 1), ids(:, 4)]);
expect_rows(cat(3, X(1:2, 1:2), X(2:3, 3:4)), cat(3, ids(1:2, 1:2), ids(2:3, 3:4)));
expect_rows(permute(cat(3, X(:, 1:2), X(:, 3:4)), [3 1 2]), permute(cat(3, ids(:, 1:2), ids(:, 3:4)), [3 1 2]));
expect_rows(diag(X(1:3, 1:3)), diag(ids(1:3, 1:3)));
fmadtest_check(getinternalderivs([X(1, 1:2), 5, X(2, 1)]), ...
               sparse([1 2 4], [ids(1, 1:2), ids(2, 1)], 1, 4, 12), 0, 'a constant in a concatenation');

% Size queries follow the value.
[r, c] = size(X);
if ~isequal([r, c], [3 4]) || size(X, 2) ~= 4 || numel(X) ~= 12 || length(X) ~= 4 ...
    || ndims(X) ~= 2 || isempty(X) || ~isempty(X([])) || ~isscalar(X(1)) ...
    || ~isvector(X(:, 1)) || ~isrow(X(1, :)) || ~iscolumn(X(:, 1))
  error('size queries of an fmad object disagree with its value');
end

% Field access and conversion to double are errors with a clear message.
try
  X.value;
  error('fmadtest:noError', 'field access did not fail');
catch err
  if ~strcmp(err.identifier, 'fmad:badIndex'), rethrow(err); end
end
try
  double(X);
  error('fmadtest:noError', 'double() did not fail');
catch err
  if ~strcmp(err.identifier, 'fmad:double'), rethrow(err); end
end
