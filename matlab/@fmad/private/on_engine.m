function [z, done] = on_engine(name, a, b)
% The builtin NAME of the operands A (and B) computed by msad_eval's own
% kernel and forward rule through msad_apply, so that fmad and msad_eval
% share one rule set. DONE is false where the method's .m rule decides:
% msad_apply is not built, an operand is a nested fmad (second
% derivatives), msad_apply does not take the operands (sparse or complex
% values, integers), the operation raises an error (the .m rule raises it
% as Octave does) or a partial is infinite (the .m rule keeps the
% directions the operand does not depend on zero). The methods call it
% where benches/octave/bench_fmad_engine.sh finds it faster: elementwise
% functions of small or sparse derivative blocks, products, quotients,
% powers, atan2 and hypot (for sums, differences, mod and rem the .m rule,
% one vectorised operation or none on the derivative block, was as fast).
  persistent available
  if isempty(available)
    available = exist('msad_apply', 'file') == 3;
  end
  z = a;
  done = false;
  if ~available
    return
  end
  if isa(a, 'fmad')
    av = a.value;
    ad = a.derivs;
    if isa(av, 'fmad')
      return
    end
  else
    av = a;
    ad = [];
  end
  if nargin < 3
    if numel(ad) > 2e4 && ~issparse(ad)
      return                        % one vectorised .m operation is faster
    end
    [zv, zd, done] = msad_apply(name, av, ad);
  else
    if isa(b, 'fmad')
      bv = b.value;
      bd = b.derivs;
      if isa(bv, 'fmad')
        return
      end
      z = b;
    else
      bv = b;
      bd = [];
    end
    [zv, zd, done] = msad_apply(name, av, ad, bv, bd);
  end
  if done
    z.value = zv;
    z.derivs = zd;
  end
end
