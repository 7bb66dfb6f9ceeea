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

% A double left side with an fmad right side: MATLAB calls fmad's subsasgn
% with the double (made explicit here); Octave converts the double through
% the glue fmad builds with mkoctfile (fmad_octave_assign.cc).
w = subsasgn(zeros(n, 1), substruct('()', {3}), x(3)^2);
fmadtest_check(getvalue(w), [0; 0; x0(3)^2; zeros(n-3, 1)], 0, 'promoted double value');
fmadtest_check(getinternalderivs(w), sparse(3, 3, 2*x0(3), n, n), 1e-15, 'promoted double derivatives');
try
  w = zeros(n, 1);
  for i = 1:n
    w(i) = x(i)^2;
  end
catch err
  error('fmadtest:promotion', ['y = zeros(n,1); y(i) = <fmad> failed (%s); was the ' ...
        'Octave glue built (warning fmad:noAssignmentPromotion)?'], err.message);
end
fmadtest_check(getinternalderivs(w), spdiags(2*x0, 0, n, n), 1e-15, 'zeros(n,1) filled in a loop');
w = 0;                                       % a scalar, a range, a logical left side
w(2) = x(1);
r = 1:3;
r(2) = x(2);
b = false(1, 2);
b(1) = x(3);
fmadtest_check([getinternalderivs(w); getinternalderivs(r); getinternalderivs(b)], ...
               sparse([2 4 6], [1 2 3], 1, 7, n), 0, 'promotion of scalar, range and logical arrays');
A = zeros(2);
A(:, 2) = [x(1); 5];
fmadtest_check(getinternalderivs(A), sparse(3, 1, 1, 4, n), 0, 'column assignment into zeros(2)');
q = zeros(2);
q(1, 2) = 4;                                 % plain numeric assignment is untouched
if ~isa(q, 'double') || ~isequal(q, [0 4; 0 0])
  error('plain double assignment changed by the fmad glue');
end
