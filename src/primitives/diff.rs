//! `diff(x, order, dim)`: differences of any order along a dimension, linear, so its derivative is the
//! same differencing of the derivative rows.

use super::elementwise::numeric;
use super::slices::{Slices, dim_argument, first_non_singleton};
use super::{Forward, IntegerArgs, Linearity, Prim, Primitive, general, runtime};
use crate::diag::Result;
use crate::value::buffers;
use crate::value::deriv::{DenseDeriv, Deriv, RowOperator};
use crate::value::{Array, Value};

primitive_names! {
    Diff = "diff",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![general(Prim::Diff, eval_diff, forward_diff).linear(Linearity::Additive).integers(IntegerArgs::KeepClass)]
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

/// The planned first differences, each as the slices of its input (the dims before that step and the
/// dimension it differences), and the result dims.
fn steps(args: &[&Value]) -> Result<(Vec<Slices>, Vec<usize>)> {
    let (order, dim) = match plan(args)? {
        Plan::Along { order, dim } => (order, dim),
        Plan::Empty => return Ok((vec![], vec![0, 0])),
    };
    let mut dims = args[0].dims();
    // Past the dimension's length every difference is empty: `diff(x, 1e12)` takes as many steps.
    let order = order.min(Slices::new(&dims, dim).len);
    let mut steps = Vec::with_capacity(order);
    for _ in 0..order {
        let input = Slices::new(&dims, dim);
        dims = input.dims_with_len(input.len.saturating_sub(1));
        steps.push(input);
    }
    Ok((steps, dims))
}

/// The first difference of `x`, `columns` columns of an array sliced as `input` (a value, or a dense
/// derivative block): element k of a slice is `x(k + 1) - x(k)`, as Octave computes it.
fn difference_step(x: &[f64], columns: usize, input: &Slices) -> Vec<f64> {
    let (before, len) = (input.before, input.len);
    let mut out = buffers::take(before * len.saturating_sub(1) * input.after * columns);
    if before > 0 && len > 1 {
        for block in x.chunks_exact(before * len) {
            let (lower, upper) = (&block[..before * (len - 1)], &block[before..]);
            out.extend(upper.iter().zip(lower).map(|(b, a)| b - a));
        }
    }
    out
}

/// `x` (`columns` columns of the argument's size) after the planned differences into `result_dims`.
fn differences(x: &[f64], columns: usize, steps: &[Slices], result_dims: &[usize]) -> Vec<f64> {
    let Some((first, rest)) = steps.split_first() else {
        let mut copy = buffers::take(x.len());
        copy.extend_from_slice(&x[..result_dims.iter().product::<usize>() * columns]);
        return copy;
    };
    let mut data = difference_step(x, columns, first);
    for input in rest {
        let next = difference_step(&data, columns, input);
        buffers::give(std::mem::replace(&mut data, next));
    }
    data
}

/// The first difference along `input`'s dimension as a row operator (for sparse derivative rows).
fn difference_operator(input: &Slices) -> RowOperator {
    let output = Slices::new(&input.dims_with_len(input.len.saturating_sub(1)), input.dim);
    let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    for r in 0..output.before * output.len * output.after {
        let (s, k) = output.locate(r);
        op.src.extend([input.index(s, k + 1), input.index(s, k)]);
        op.coef.extend([1.0, -1.0]);
        op.ptr.push(op.src.len());
    }
    op
}

fn eval_diff(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let x = numeric("diff", args[0])?;
    let (steps, dims) = steps(args)?;
    let data = differences(&x.data, 1, &steps, &dims);
    Ok(vec![Value::Double(Array::new(dims, data))])
}

fn forward_diff(fw: &Forward) -> Result<Deriv> {
    let (steps, dims) = steps(fw.inputs)?;
    Ok(match fw.derivs[0] {
        Deriv::Dense(d) => {
            let data = differences(&d.data, d.nd, &steps, &dims);
            Deriv::Dense(DenseDeriv { rows: dims.iter().product(), nd: d.nd, data })
        }
        d if dims.contains(&0) => d.apply(&RowOperator { ptr: vec![0], src: vec![], coef: vec![] }),
        d => steps.iter().fold(d.clone(), |d, input| d.apply(&difference_operator(input))),
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, SHAPES, check, matrix, value};
    use crate::value::Value;

    #[test]
    fn differences_match_finite_differences() {
        let mut rng = Random::new(12);
        for (m, n) in SHAPES.into_iter().chain([(0, 0), (0, 3)]) {
            let x = rng.matrix(m, n);
            check("diff", std::slice::from_ref(&x), &[0]);
            for order in [0.0, 1.0, 2.0, 3.0, 6.0] {
                check("diff", &[x.clone(), matrix(1, 1, &[order])], &[0]);
                for dim in [1.0, 2.0] {
                    check("diff", &[x.clone(), matrix(1, 1, &[order]), matrix(1, 1, &[dim])], &[0]);
                }
            }
        }
    }

    /// The dense kernel and the row operator (sparse rows) give the same bits on any derivative block.
    #[test]
    fn dense_and_sparse_derivative_rows_agree_bit_for_bit() {
        use crate::primitives::Forward;
        use crate::value::deriv::{DenseDeriv, Deriv, SparseDeriv};
        let mut rng = Random::new(5);
        for (m, n) in SHAPES.into_iter().chain([(0, 3), (5, 6)]) {
            let x = rng.matrix(m, n);
            let nd = 3;
            let block = DenseDeriv { rows: m * n, nd, data: (0..m * n * nd).map(|_| rng.next()).collect() };
            let sparse = SparseDeriv::from_csr(
                m * n,
                nd,
                (0..=m * n).map(|r| r * nd).collect(),
                (0..m * n).flat_map(|_| 0..nd).collect(),
                (0..m * n).flat_map(|r| (0..nd).map(move |j| (r, j))).map(|(r, j)| block.get(r, j)).collect(),
            );
            for args in [vec![], vec![2.0], vec![1.0, 2.0], vec![3.0, 1.0], vec![0.0]] {
                let mut all = vec![x.clone()];
                all.extend(args.iter().map(|&a| matrix(1, 1, &[a])));
                let inputs: Vec<&Value> = all.iter().collect();
                let output = value("diff", &all, 1).remove(0);
                let rule = |d: Deriv| {
                    let derivs: Vec<&Deriv> = std::iter::once(&d).chain(args.iter().map(|_| &Deriv::Zero)).collect();
                    super::forward_diff(&Forward { inputs: &inputs, derivs: &derivs, output: &output }).unwrap()
                };
                let rows = output.numel();
                let (dense, from_sparse) = (rule(Deriv::Dense(block.clone())), rule(Deriv::Sparse(sparse.clone())));
                let bits = |d: &Deriv| d.to_dense(rows, nd).data.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&dense), bits(&from_sparse), "diff of {m}x{n} with {args:?}");
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
        let empty =
            |rows: usize, cols: usize, order: f64| value("diff", &[matrix(rows, cols, &[]), matrix(1, 1, &[order])], 1).remove(0).dims();
        assert_eq!((empty(0, 3, 1.0), empty(0, 3, 2.0), empty(1, 0, 1.0)), (vec![0, 1], vec![0, 2], vec![1, 0]));
    }
}
