//! `find`: positions of non-zero elements, `[k] = find(x)`, `[i, j] = find(x)`, `[i, j, v] = find(x)`,
//! limited to the first or last `n`. Indices have no derivative; the values `v` are elements of x, so
//! theirs gathers x's rows.

use super::elementwise::numeric;
use super::{Derivative, Forward, Kernel, PatternRule, Prim, Primitive, check_arity, runtime};
use crate::diag::Result;
use crate::primitives::index::gather_value;
use crate::value::deriv::{Deriv, RowMap};
use crate::value::{Array, Value};

primitive_names! {
    Find = "find",
}

pub(super) fn entries() -> Vec<Primitive> {
    let derivative = Derivative::Outputs { rule: forward_values, differentiable: |k| k == 2 };
    vec![Primitive::new(Prim::Find, Kernel::General { eval: eval_find, derivative }).pattern(PatternRule::Selection(hits))]
}

/// The non-zeros of x that `find` selects, in order.
fn hits(args: &[&Value]) -> Result<Vec<usize>> {
    let values = numeric("find", args[0])?;
    let mut hits: Vec<usize> = (0..values.data.len()).filter(|&k| values.data[k] != 0.0).collect();
    if let Some((n, from_end)) = limit(args)? {
        if from_end {
            hits.drain(..hits.len().saturating_sub(n));
        } else {
            hits.truncate(n);
        }
    }
    Ok(hits)
}

/// Output 3, `v = x(hits)`: x's derivative rows at the hits.
fn forward_values(fw: &Forward, _output: usize) -> Result<Deriv> {
    let hits = hits(fw.inputs)?;
    let rows = hits.len();
    Ok(fw.derivs[0].gather(&RowMap::Gather(hits), rows))
}

/// How many non-zeros to find, and from which end.
fn limit(args: &[&Value]) -> Result<Option<(usize, bool)>> {
    let Some(n) = args.get(1) else { return Ok(None) };
    let n = match numeric("find", n)?.data.as_slice() {
        [n] if *n >= 0.0 && n.fract() == 0.0 => *n as usize,
        _ => return Err(runtime("find: N must be a non-negative integer")),
    };
    let from_end = match args.get(2).map(|d| d.as_string()) {
        None => false,
        Some(Some(d)) if d == "first" => false,
        Some(Some(d)) if d == "last" => true,
        Some(_) => return Err(runtime("find: DIRECTION must be \"first\" or \"last\"")),
    };
    Ok(Some((n, from_end)))
}

fn eval_find(args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    check_arity("find", args, 1, 3)?;
    let x = args[0];
    let dims = x.dims();
    let hits = hits(args)?;
    let limit = limit(args)?;
    // A row vector gives rows, anything else columns; nothing found in a scalar or [] is [], except
    // that a logical [] without N gives 0x1 (Octave's logical path).
    let logical_path = matches!(x, Value::Logical(_)) && limit.is_none();
    let shape = |n: usize| match dims.as_slice() {
        [1, 1] | [0, 0] if n == 0 && !(logical_path && dims == [0, 0]) => vec![0, 0],
        [1, _] => vec![1, n],
        _ => vec![n, 1],
    };
    let indices = |f: &dyn Fn(usize) -> usize| Value::Double(Array::new(shape(hits.len()), hits.iter().map(|&k| f(k) as f64).collect()));
    let rows = dims[0].max(1);
    Ok(match nargout {
        0 | 1 => vec![indices(&|k| k + 1)],
        _ => {
            let mut out = vec![indices(&|k| k % rows + 1), indices(&|k| k / rows + 1)];
            if nargout > 2 {
                out.push(gather_value(x, shape(hits.len()), &hits)?);
            }
            out
        }
    })
}
