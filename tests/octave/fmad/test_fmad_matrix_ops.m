% Matrix operations with fmad objects against central differences: products
% with constant and active factors, \ and / (active matrix, active right
% side), inv, det, integer matrix powers, transposes, kron, diag, trace.
fmadtest_setup;
A0 = [4 1 0.5; 0.3 3 1; 0.2 0.1 2];
b0 = [1; -2; 0.5];
C = [1 2; 0 1; 3 -1];
p0 = [A0(:); b0];                            % 12 unknowns: A then b
% check(name, op): the Jacobian of p -> op(A, b) by fmad and by differences
on_parameters = @(op) @(p) op(reshape(p(1:9), 3, 3), p(10:12));
check = @(name, op) fmadtest_check(getinternalderivs(feval(on_parameters(op), fmad(p0, eye(12)))), ...
                                   fd_jacobian(on_parameters(op), p0), 1e-7, name);
check('A * b', @(A, b) A * b);
check('A * C (constant right)', @(A, b) reshape(A * C, [], 1));
check('C'' * A (constant left)', @(A, b) reshape(C' * A, [], 1));
check('b'' * A * b', @(A, b) b' * A * b);
check('A * A'' both active', @(A, b) reshape(A * A', [], 1));
check('A \ b', @(A, b) A \ b);
check('A \ C (active A)', @(A, b) reshape(A \ C, [], 1));
check('b'' / A', @(A, b) (b' / A)');
check('inv(A)', @(A, b) reshape(inv(A), [], 1));
check('det(A)', @(A, b) det(A));
check('A^3', @(A, b) reshape(A^3, [], 1));
check('A^-2', @(A, b) reshape(A^-2, [], 1));
check('kron(A, C)', @(A, b) reshape(kron(A, C), [], 1));
check('kron(b, A)', @(A, b) reshape(kron(b, A), [], 1));
check('diag and trace', @(A, b) [diag(A); trace(A); reshape(diag(b, 1), [], 1)]);
check('sparse(i, j, v) assembly, duplicates summed', ...
      @(A, b) reshape(full(sparse([1 2 2 3], [1 1 1 2], [b; A(2, 2)], 3, 2)), [], 1));
check('full and sparse storage', @(A, b) reshape(full(sparse(A) * b), [], 1));
check('transposes', @(A, b) reshape(A.' * A' + b * b', [], 1));

% A constant matrix solve shares one solve between value and derivatives.
x = fmad(b0, eye(3));
fmadtest_check(getinternalderivs(A0 \ x), inv(A0), 1e-14, 'constant A \ x');
fmadtest_check(getinternalderivs(x' / A0), inv(A0)', 1e-14, 'constant x'' / A');
S = sparse(A0);
y = S \ fmad(b0, speye(3));
fmadtest_check(getinternalderivs(y), inv(A0), 1e-14, 'sparse A \ sparse-seeded x');
x = sparse(fmad(A0, eye(9)));
if ~issparse(getvalue(x)) || ~issparse(getinternalderivs(x)) || issparse(getinternalderivs(full(x)))
  error('sparse()/full() of an fmad object did not convert value and derivatives');
end
