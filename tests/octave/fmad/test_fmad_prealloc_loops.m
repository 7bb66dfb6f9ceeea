% Outputs filled by indexed assignment in loops: the preallocation idioms
% (zeros/ones 'like', an explicit fmad of zeros), growth of an undefined
% variable, 2-D targets, deletion, and promotion of a double left side.
fmadtest_setup;
n = 8;
x0 = linspace(0.5, 2, n)';
x = fmad(x0, speye(n));
J_hand = spdiags([-ones(n,1), 2*x0, ones(n,1)], [-1 0 1], n, n);
J_hand(1, n) = -1;                          % periodic neighbour of y(1)

% y = zeros(n, 1, 'like', x)
y = zeros(n, 1, 'like', x);
for i = 1:n
  left = mod(i - 2, n) + 1;
  y(i) = x(i)^2 - x(left);
  if i < n
    y(i) = y(i) + x(i + 1);
  end
end
fmadtest_check(getinternalderivs(y), J_hand, 1e-15, 'zeros(..., ''like'', x)');
if ~issparse(getinternalderivs(y))
  error('preallocation with ''like'' lost the sparse storage of x');
end

% y = fmad(zeros(n, 1), zeros(n, nd)) and a scalar loop with end
y = fmad(zeros(n, 1), zeros(n, n));
for i = 1:n
  y(end - i + 1) = 3 * x(i);
end
fmadtest_check(getinternalderivs(y), 3 * fliplr(eye(n)), 1e-15, 'fmad(zeros, zeros)');

% ones(..., 'like', x) then a constant assignment keeps zero derivatives
y = ones(2, n, 'like', x);
y(1, :) = x';
y(2, 3) = 7;
fmadtest_check(getvalue(y), [x0'; ones(1, n)] + [zeros(1, n); 0 0 6 zeros(1, n-3)], 0, 'ones like value');
fmadtest_check(getinternalderivs(y), kron(eye(n), [1; 0]), 0, 'ones like derivatives');

% An undefined variable grows (Octave and MATLAB call fmad's subsasgn)
clear grown
for i = 1:n
  grown(i) = sin(x(i));
end
if ~isequal(size(grown), [1 n])
  error('grown array has size %s', mat2str(size(grown)));
end
fmadtest_check(getinternalderivs(grown), diag(cos(x0)), 1e-15, 'growing an undefined variable');

% Growth beyond the current size fills with zero value and derivatives
z = x(1:2);
z(5) = x(3) * 2;
fmadtest_check(getvalue(z), [x0(1:2); 0; 0; 2*x0(3)], 0, 'growth value');
fmadtest_check(getinternalderivs(z)(5, 3), 2, 0, 'growth derivative');
fmadtest_check(getinternalderivs(z)(3:4, :), sparse(2, n), 0, 'growth fill');

% Deletion
z(3:4) = [];
fmadtest_check(getinternalderivs(z), [1 0 0; 0 1 0; 0 0 2] * speye(3, n), 0, 'deletion');

% A double left side with an fmad right side (how MATLAB dispatches
% y = zeros(n,1); y(i) = x(i)^2; Octave cannot assign an object into a
% double array, so the call is made explicitly here).
w = subsasgn(zeros(n, 1), substruct('()', {3}), x(3)^2);
fmadtest_check(getvalue(w), [0; 0; x0(3)^2; zeros(n-3, 1)], 0, 'promoted double value');
fmadtest_check(getinternalderivs(w), sparse(3, 3, 2*x0(3), n, n), 1e-15, 'promoted double derivatives');
disp('test_fmad_prealloc_loops: ok');
