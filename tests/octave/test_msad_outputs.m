function test_msad_outputs()
% The call's outputs as Octave receives them (the MEX hands f and J over as Octave values, and frees
% what it keeps of them on the next call): the compressed sparse J stores exactly the entries
% sparse(full(J)) stores, value-dependent zeros included; outputs of earlier calls stay valid and
% independent of later calls and of unloading the MEX; f keeps its shape.
  y = brusselator_init(50);
  [~, ~] = msad_eval(@brusselator_rhs_vec, y);   % detection; the calls below are compressed
  y(5) = 0;                                      % u_3 = 0: J(5,6) = u_3^2 vanishes
  [f, J] = msad_eval(@brusselator_rhs_vec, y);
  assert(issparse(J) && isa(J, 'double') && isreal(J), 'J: %s, sparse %d', class(J), issparse(J));
  [expected, f0] = cs_jacobian(@brusselator_rhs_vec, y);
  assert(expected(5, 6) == 0, 'the point has no value-dependent zero');
  assert(isequal(f, f0), 'f differs from Octave''s f');
  check_jacobian(J, expected, 1e-12, 'compressed J');
  assert(nnz(J) == nnz(sparse(full(J))), 'J stores %d entries, sparse(full(J)) %d', nnz(J), nnz(sparse(full(J))));
  assert(nzmax(J) == nnz(J), 'J has room for %d entries, holds %d', nzmax(J), nnz(J));
  assert(isequal(spones(J), spones(sparse(expected))), 'J''s entries are not those of the complex-step J');

  % Earlier outputs are the caller's own: changing one does not reach later calls, later calls do
  % not change it, and unloading the MEX does not free it.
  kept = full(J);
  J(1, 1) = 42;
  [~, again] = msad_eval(@brusselator_rhs_vec, y);
  assert(again(1, 1) ~= 42 && isequal(full(again), kept), 'a later J is not what the earlier call returned');
  [~, other] = msad_eval(@brusselator_rhs_vec, brusselator_init(50));
  assert(~isequal(full(other), kept) && isequal(full(again), kept), 'a later call changed an earlier J');
  clear msad_eval
  assert(isequal(full(again), kept) && isequal(f, f0), 'unloading the MEX changed its outputs');

  % f's shape and class: a scalar, a 3-D array, an empty array (with and without J).
  s = msad_eval(@(x) sum(x .^ 2), [1; 2; 3]);
  assert(isequal(s, 14) && isscalar(s), 'scalar f');
  [block, dblock] = msad_eval(@(x) zeros(2, 3, 4) + x, 2);
  assert(isequal(block, 2 * ones(2, 3, 4)) && isequal(full(dblock), ones(24, 1)), '3-D f');
  [empty, dempty] = msad_eval(@(x) x(1:0), [1; 2]);
  assert(isempty(empty) && isequal(size(dempty), [0 2]), 'empty f: %s, J %s', ...
         mat2str(size(empty)), mat2str(size(dempty)));
end
