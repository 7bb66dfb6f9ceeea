//! Reductions along a dimension (`sum`, `mean`, `cumsum`). All are linear, so their forward rule is the
//! same reduction applied to every derivative column.

use super::elementwise::numeric;
use super::{Derivative, Forward, Kernel, Primitive, runtime};
use crate::diag::Result;
use crate::exec::deriv::{Deriv, RowOperator};
use crate::exec::value::{Array, Value, normalize_dims};

#[derive(Clone, Copy)]
enum Reduction {
    Sum,
    Mean,
    CumSum,
}

pub(super) fn entries() -> Vec<Primitive> {
    fn entry(name: &'static str, eval: super::EvalFn, rule: super::ForwardFn) -> Primitive {
        Primitive { name, kernel: Kernel::General { eval, derivative: Derivative::Rule(rule) } }
    }
    vec![
        entry("sum", |a, _| eval(Reduction::Sum, a), |fw| forward(Reduction::Sum, fw)),
        entry("mean", |a, _| eval(Reduction::Mean, a), |fw| forward(Reduction::Mean, fw)),
        entry("cumsum", |a, _| eval(Reduction::CumSum, a), |fw| forward(Reduction::CumSum, fw)),
    ]
}

/// The reduction's geometry: `x` seen as `before x len x after` around dimension `dim`.
struct Plan {
    before: usize,
    len: usize,
    after: usize,
    out_dims: Vec<usize>,
}

fn plan(op: Reduction, args: &[&Value]) -> Result<Plan> {
    let name = match op {
        Reduction::Sum => "sum",
        Reduction::Mean => "mean",
        Reduction::CumSum => "cumsum",
    };
    super::check_arity(name, args, 1, 2)?;
    if matches!(op, Reduction::Mean) && matches!(args[0], Value::Char(_)) {
        return Err(runtime("mean: X must be a numeric vector or matrix"));
    }
    // Reductions see [] as 0x1: sum([]) is 0, sum([], 2) is 0x1.
    let dims = if matches!(op, Reduction::CumSum) || args[0].dims() != [0, 0] { args[0].dims() } else { vec![0, 1] };
    let dim = match args.get(1) {
        Some(d) => {
            let d = numeric(name, d)?;
            match (op, d.data.first()) {
                // sum and cumsum read DIM as an integer, dropping any fraction; mean wants an integer.
                (Reduction::Mean, Some(&k)) if k >= 1.0 && k.fract() == 0.0 => k as usize - 1,
                (Reduction::Sum | Reduction::CumSum, Some(&k)) if k >= 1.0 => k as usize - 1,
                _ => return Err(runtime(format!("{name}: DIM must be a valid dimension"))),
            }
        }
        // mean: the first dimension longer than 1; the others: the first non-singleton one.
        None if matches!(op, Reduction::Mean) => dims.iter().position(|&d| d > 1).unwrap_or(0),
        None => dims.iter().position(|&d| d != 1).unwrap_or(0),
    };
    let size = |i: usize| dims.get(i).copied().unwrap_or(1);
    let before = (0..dim).map(size).product();
    let len = size(dim);
    let after = dims.iter().skip(dim + 1).product();
    let mut out_dims = dims.clone();
    if !matches!(op, Reduction::CumSum) {
        out_dims.resize(out_dims.len().max(dim + 1), 1);
        out_dims[dim] = 1;
    }
    Ok(Plan { before, len, after, out_dims: normalize_dims(out_dims) })
}

/// Applies the reduction to one column-major buffer laid out as `x`.
fn reduce(op: Reduction, p: &Plan, x: &[f64], out: &mut [f64]) {
    for a in 0..p.after {
        for b in 0..p.before {
            let source = |k: usize| b + p.before * (k + p.len * a);
            if let Reduction::CumSum = op {
                // Running sums start from the first element, so cumsum(-0) is -0 as in Octave.
                let mut acc = None;
                for k in 0..p.len {
                    let sum = acc.map_or(x[source(k)], |acc: f64| acc + x[source(k)]);
                    out[source(k)] = sum;
                    acc = Some(sum);
                }
            } else {
                let sum: f64 = (0..p.len).fold(0.0, |acc, k| acc + x[source(k)]);
                // mean divides (0/0 is NaN for empty slices) rather than scaling by 1/n, as Octave does.
                out[b + p.before * a] = if matches!(op, Reduction::Mean) { sum / p.len as f64 } else { sum };
            }
        }
    }
}

fn eval(op: Reduction, args: &[&Value]) -> Result<Vec<Value>> {
    let p = plan(op, args)?;
    let x = numeric("sum", args[0])?;
    let n: usize = p.out_dims.iter().product();
    let mut out = vec![0.0; n];
    reduce(op, &p, &x.data, &mut out);
    Ok(vec![Value::Double(Array::new(p.out_dims, out))])
}

/// The reduction as a row operator: each output row sums its input rows (scaled for `mean`).
fn operator(op: Reduction, p: &Plan) -> RowOperator {
    let scale = if matches!(op, Reduction::Mean) { 1.0 / p.len as f64 } else { 1.0 };
    let source = |b: usize, k: usize, a: usize| b + p.before * (k + p.len * a);
    let mut out = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    let mut push_row = |rows: &mut dyn Iterator<Item = usize>| {
        for r in rows {
            out.src.push(r);
            out.coef.push(scale);
        }
        out.ptr.push(out.src.len());
    };
    // Output rows in column-major order of the result.
    match op {
        Reduction::CumSum => {
            for a in 0..p.after {
                for k in 0..p.len {
                    for b in 0..p.before {
                        push_row(&mut (0..=k).map(|kk| source(b, kk, a)));
                    }
                }
            }
        }
        Reduction::Sum | Reduction::Mean => {
            for a in 0..p.after {
                for b in 0..p.before {
                    push_row(&mut (0..p.len).map(|k| source(b, k, a)));
                }
            }
        }
    }
    out
}

fn forward(op: Reduction, fw: &Forward) -> Result<Deriv> {
    let p = plan(op, fw.inputs)?;
    Ok(fw.derivs[0].apply(&operator(op, &p)))
}
