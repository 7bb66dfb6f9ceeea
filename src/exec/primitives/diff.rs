//! `diff(x, order, dim)`: differences of any order along a dimension, linear, so its derivative is the
//! same differencing of the derivative rows.

use super::elementwise::numeric;
use super::slices::{Slices, dim_argument, first_non_singleton};
use super::{IntegerArgs, Linearity, Forward, Primitive, general, runtime};
use crate::diag::Result;
use crate::exec::deriv::{Deriv, RowOperator};
use crate::exec::value::{Array, Value};

pub(super) fn entries() -> Vec<Primitive> {
    vec![general("diff", eval_diff, forward_diff).linear(Linearity::Additive).integers(IntegerArgs::KeepClass)]
}

/// What `diff` computes: the `order`-th difference along `dim`, or an empty 0x0 result.
enum Plan {
    Along { order: usize, dim: usize },
    Empty,
}

/// Octave's choice of order and dimension. With no DIM and an order at least the working dimension's
/// length, Octave moves on to the following dimensions and returns the difference of the *original*
/// array along the last one it reaches; this reproduces it.
fn plan(args: &[&Value]) -> Result<Plan> {
    super::check_arity("diff", args, 1, 3)?;
    let order = match args.get(1).map(|v| numeric("diff", v)).transpose()?.as_deref().map(|a| a.data.as_slice()) {
        None | Some([]) => 1,
        Some([k]) if *k >= 0.0 && k.fract() == 0.0 => *k as usize,
        Some(_) => return Err(runtime("diff: order K must be a non-negative integer scalar or []")),
    };
    let dims = args[0].dims();
    if let Some(dim) = args.get(2) {
        return Ok(Plan::Along { order, dim: dim_argument("diff", dim)? });
    }
    let mut dim = first_non_singleton(&dims);
    if dims[dim] > order {
        return Ok(Plan::Along { order, dim });
    }
    if dims[dim] == 1 {
        return Ok(Plan::Empty);
    }
    let (mut remaining, mut last) = (order as isize, (order as isize, dim));
    while remaining > 0 {
        if dim == dims.len() {
            last = (remaining, dim - 1);
            remaining = 0;
        } else if dims[dim] == 1 {
            dim += 1;
        } else {
            let step = dims[dim] as isize - 1;
            last = (step, dim);
            remaining -= step;
            dim += 1;
        }
    }
    Ok(Plan::Along { order: last.0.max(0) as usize, dim: last.1 })
}

/// The first difference along `dim` of an array of `dims` as a row operator, and the result dims.
fn first_difference(dims: &[usize], dim: usize) -> (RowOperator, Vec<usize>) {
    let input = Slices::new(dims, dim);
    let out_dims = input.dims_with_len(input.len.saturating_sub(1));
    let output = Slices::new(&out_dims, dim);
    let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    for r in 0..out_dims.iter().product() {
        let (s, k) = output.locate(r);
        op.src.extend([input.index(s, k + 1), input.index(s, k)]);
        op.coef.extend([1.0, -1.0]);
        op.ptr.push(op.src.len());
    }
    (op, out_dims)
}

/// Applies the planned differences through `step(operator, rows)`, returning the result dims.
fn difference(args: &[&Value], mut step: impl FnMut(&RowOperator)) -> Result<Vec<usize>> {
    let (order, dim) = match plan(args)? {
        Plan::Along { order, dim } => (order, dim),
        Plan::Empty => {
            step(&RowOperator { ptr: vec![0], src: vec![], coef: vec![] });
            return Ok(vec![0, 0]);
        }
    };
    let mut dims = args[0].dims();
    for _ in 0..order {
        let (op, out_dims) = first_difference(&dims, dim);
        step(&op);
        dims = out_dims;
    }
    Ok(dims)
}

fn eval_diff(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let mut x = numeric("diff", args[0])?.data.clone();
    let dims = difference(args, |op| {
        x = (0..op.rows()).map(|r| (op.ptr[r]..op.ptr[r + 1]).map(|t| op.coef[t] * x[op.src[t]]).sum()).collect();
    })?;
    Ok(vec![Value::Double(Array::new(dims, x))])
}

fn forward_diff(fw: &Forward) -> Result<Deriv> {
    let mut d = fw.derivs[0].clone();
    difference(fw.inputs, |op| d = d.apply(op))?;
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, SHAPES, check, matrix, value};

    #[test]
    fn differences_match_finite_differences() {
        let mut rng = Random::new(12);
        for (m, n) in SHAPES.into_iter().chain([(0, 0), (0, 3)]) {
            let x = rng.matrix(m, n);
            check("diff", &[x.clone()], &[0]);
            for order in [0.0, 1.0, 2.0, 3.0, 6.0] {
                check("diff", &[x.clone(), matrix(1, 1, &[order])], &[0]);
                for dim in [1.0, 2.0] {
                    check("diff", &[x.clone(), matrix(1, 1, &[order]), matrix(1, 1, &[dim])], &[0]);
                }
            }
        }
    }

    #[test]
    fn shapes_follow_octave() {
        let dims = |x: &[f64], rows: usize, args: &[f64]| {
            let mut all = vec![matrix(rows, x.len() / rows.max(1), x)];
            all.extend(args.iter().map(|&a| matrix(1, 1, &[a])));
            let v = value("diff", &all, 1).remove(0);
            (v.dims(), v.numeric().unwrap().data.clone())
        };
        assert_eq!(dims(&[1.0, 2.0, 4.0, 8.0, 16.0], 1, &[2.0]), (vec![1, 3], vec![1.0, 2.0, 4.0]));
        assert_eq!(dims(&[1.0, 2.0, 3.0], 1, &[5.0]), (vec![1, 0], vec![]));
        assert_eq!(dims(&[5.0], 1, &[]), (vec![0, 0], vec![]));
        // [1 2 3; 4 5 7] with order 3: Octave returns diff(x, 2, 2) = [0; 1].
        assert_eq!(dims(&[1.0, 4.0, 2.0, 5.0, 3.0, 7.0], 2, &[3.0]), (vec![2, 1], vec![0.0, 1.0]));
        assert_eq!(dims(&[], 0, &[]).0, vec![0, 0]);
        let empty = |rows: usize, cols: usize, order: f64| {
            value("diff", &[matrix(rows, cols, &[]), matrix(1, 1, &[order])], 1).remove(0).dims()
        };
        assert_eq!((empty(0, 3, 1.0), empty(0, 3, 2.0), empty(1, 0, 1.0)), (vec![0, 1], vec![0, 2], vec![1, 0]));
    }
}
