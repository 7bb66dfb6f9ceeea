function [z, done] = on_engine(name, varargin)
% The builtin NAME of the operands computed by msad_eval's own kernel and
% forward rule through msad_apply, so that fmad and msad_eval share one
% rule set. DONE is false where the method's .m rule decides: msad_apply is
% not built, an operand is a nested fmad (second derivatives), msad_apply
% does not take the operands (sparse or complex values, integers), the
% operation raises an error (the .m rule raises it as Octave does) or a
% partial is infinite (the .m rule keeps the directions the operand does
% not depend on zero) or one operand's derivatives are full and the other's
% sparse (the .m rule's sum is full). The methods call it where
% benches/octave/bench_fmad_engine.sh finds it faster with the same bits:
% elementwise products, quotients and powers, atan2, hypot, max and min of
% two operands, and sums along a dimension with elements before it (sum(X,
% 2)). The rest
% keep their .m rules: elementwise functions (sin, exp, ...), sums along
% the first dimension, differences, mod and rem cost the same or less (one
% MEX call costs what the .m rule's few vectorised operations do); indexing,
% assignment, concatenation, reshape, transposes, cumsum and the max/min
% reductions cost more at large n (the MEX copies the derivative block in
% and out where the .m rule indexes it once); matrix products, solves,
% prod, cumprod, dot and norm are faster through msad_apply but differ in
% the last bits (another order of the sums and products).
  persistent available
  if isempty(available)
    available = exist('msad_apply', 'file') == 3;
  end
  z = [];
  done = false;
  if ~available
    return
  end
  args = cell(1, 2 * numel(varargin));   % each operand's value and derivatives ([]: constant)
  sparse_derivs = [];
  for k = 1:numel(varargin)
    operand = varargin{k};
    if isa(operand, 'fmad')
      if isa(operand.value, 'fmad') || (~isempty(sparse_derivs) && sparse_derivs ~= issparse(operand.derivs))
        return                        % nested, or full and sparse blocks (whose sum is full)
      end
      sparse_derivs = issparse(operand.derivs);
      z = operand;
      args{2 * k - 1} = operand.value;
      args{2 * k} = operand.derivs;
    else
      args{2 * k - 1} = operand;
    end
  end
  [zv, zd, done] = msad_apply(name, args{:});
  if done
    z.value = zv;
    z.derivs = zd;
  end
end
