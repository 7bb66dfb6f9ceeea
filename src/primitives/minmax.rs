//! `max` and `min`: along a dimension (`max(x)`, `max(x, [], dim)`, with the index as second result)
//! and elementwise between two arrays with implicit expansion.
//!
//! As in Octave, NaN is ignored unless a whole slice (or both operands) is NaN, and ties go to the
//! first extreme element (along a dimension) or to the first operand (elementwise). The derivative is
//! that of the chosen element; sparse blocks keep every candidate's entries (with coefficient 0), so the
//! sparsity pattern holds whichever element wins.

use super::elementwise::{broadcast_dims, nonconformant, numeric, row_maps};
use super::slices::{Slices, working_dim};
use super::{Forward, IntegerArgs, Linearity, Prim, Primitive, general, runtime};
use crate::diag::Result;
use crate::value::deriv::{Deriv, RowMap, RowOperator, combine};
use crate::value::{Array, Value};
use std::borrow::Cow;

primitive_names! {
    Max = "max",
    Min = "min",
}

#[derive(Clone, Copy)]
enum Extreme {
    Max,
    Min,
}

impl Extreme {
    fn name(self) -> &'static str {
        match self {
            Extreme::Max => "max",
            Extreme::Min => "min",
        }
    }
    /// Whether `candidate` beats `best` (strictly: ties keep the earlier element).
    fn beats(self, candidate: f64, best: f64) -> bool {
        match self {
            Extreme::Max => candidate > best,
            Extreme::Min => candidate < best,
        }
    }
    /// Whether the elementwise result takes `b` rather than `a`.
    fn takes_second(self, a: f64, b: f64) -> bool {
        !b.is_nan() && (a.is_nan() || self.beats(b, a))
    }
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        general(Prim::Max, |a, n| eval(Extreme::Max, a, n), |fw| forward(Extreme::Max, fw))
            .linear(Linearity::PiecewiseLinear)
            .integers(IntegerArgs::KeepClass),
        general(Prim::Min, |a, n| eval(Extreme::Min, a, n), |fw| forward(Extreme::Min, fw))
            .linear(Linearity::PiecewiseLinear)
            .integers(IntegerArgs::KeepClass),
    ]
}

/// Slices along the working dimension (`max(x)` or `max(x, [], dim)`) and the result dims: a length-0
/// dimension stays 0, as in Octave.
fn along(op: Extreme, args: &[&Value]) -> Result<(Slices, Vec<usize>)> {
    let dims = args[0].dims();
    let slices = Slices::new(&dims, working_dim(op.name(), &dims, args.get(2).copied())?);
    let out_dims = slices.dims_with_len(slices.len.min(1));
    Ok((slices, out_dims))
}

/// Position of each slice's extreme element: the first one, ignoring NaN unless all are NaN.
fn winners(op: Extreme, slices: &Slices, x: &[f64]) -> Vec<usize> {
    let slice_winner = |s: usize| {
        let mut best: Option<usize> = None;
        for k in 0..slices.len {
            let v = x[slices.index(s, k)];
            if !v.is_nan() && best.is_none_or(|b| op.beats(v, x[slices.index(s, b)])) {
                best = Some(k);
            }
        }
        best.unwrap_or(0)
    };
    if slices.len == 0 { vec![] } else { (0..slices.count()).map(slice_winner).collect() }
}

fn eval(op: Extreme, args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    super::check_arity(op.name(), args, 1, 3)?;
    if args.len() == 2 {
        if nargout > 1 {
            return Err(runtime(format!("{}: a second output needs the form {0}(x, [], dim)", op.name())));
        }
        let (dims, a, b, maps) = pairwise(op, args)?;
        let out = (0..dims.iter().product())
            .map(|k| {
                let (x, y) = (a.data[maps.0.source(k)], b.data[maps.1.source(k)]);
                if op.takes_second(x, y) { y } else { x }
            })
            .collect();
        return Ok(vec![Value::Double(Array::new(dims, out))]);
    }
    let (slices, out_dims) = along(op, args)?;
    let x = numeric(op.name(), args[0])?;
    let best = winners(op, &slices, &x.data);
    let values = best.iter().enumerate().map(|(s, &k)| x.data[slices.index(s, k)]).collect();
    let positions = best.iter().map(|&k| k as f64 + 1.0).collect();
    Ok(vec![Value::Double(Array::new(out_dims.clone(), values)), Value::Double(Array::new(out_dims, positions))])
}

/// Result dims, both operands and the element of each operand every result element reads.
type Pairwise<'v> = (Vec<usize>, Cow<'v, Array<f64>>, Cow<'v, Array<f64>>, (RowMap, RowMap));

fn pairwise<'v>(op: Extreme, args: &[&'v Value]) -> Result<Pairwise<'v>> {
    let (a, b) = (numeric(op.name(), args[0])?, numeric(op.name(), args[1])?);
    let dims = broadcast_dims(&a.dims, &b.dims).ok_or_else(|| nonconformant(op.name(), &a.dims, &b.dims))?;
    let maps = row_maps(&a.dims, &b.dims, &dims);
    Ok((dims, a, b, maps))
}

fn forward(op: Extreme, fw: &Forward) -> Result<Deriv> {
    if fw.inputs.len() == 2 {
        let (dims, a, b, maps) = pairwise(op, fw.inputs)?;
        let n: usize = dims.iter().product();
        let second: Vec<f64> = (0..n).map(|k| op.takes_second(a.data[maps.0.source(k)], b.data[maps.1.source(k)]) as u8 as f64).collect();
        let first: Vec<f64> = second.iter().map(|s| 1.0 - s).collect();
        return Ok(combine(&[(&first, fw.derivs[0], &maps.0), (&second, fw.derivs[1], &maps.1)], n));
    }
    let (slices, _) = along(op, fw.inputs)?;
    let x = numeric("", fw.inputs[0])?;
    let mut selection = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    for (s, best) in winners(op, &slices, &x.data).into_iter().enumerate() {
        for k in 0..slices.len {
            selection.src.push(slices.index(s, k));
            selection.coef.push(if k == best { 1.0 } else { 0.0 });
        }
        selection.ptr.push(selection.src.len());
    }
    Ok(fw.derivs[0].apply(&selection))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, SHAPES, check, jacobian, matrix, value};

    #[test]
    fn extremes_along_dimensions_match_finite_differences() {
        let mut rng = Random::new(8);
        for (m, n) in SHAPES.into_iter().chain([(0, 0), (0, 3), (2, 0)]) {
            let x = rng.matrix(m, n);
            for name in ["max", "min"] {
                check(name, std::slice::from_ref(&x), &[0]);
                for dim in [1.0, 2.0, 3.0] {
                    check(name, &[x.clone(), matrix(0, 0, &[]), matrix(1, 1, &[dim])], &[0]);
                }
            }
        }
    }

    #[test]
    fn elementwise_extremes_match_finite_differences() {
        let mut rng = Random::new(9);
        for (m, n) in SHAPES {
            for name in ["max", "min"] {
                let (a, b) = (rng.matrix(m, n), rng.matrix(m, n));
                for active in [&[0][..], &[1], &[0, 1]] {
                    check(name, &[a.clone(), b.clone()], active);
                    check(name, &[a.clone(), rng.matrix(1, 1)], active);
                    check(name, &[rng.matrix(m, 1), rng.matrix(1, n)], active);
                }
            }
        }
    }

    #[test]
    fn nan_is_ignored_and_ties_take_the_first() {
        let nan = f64::NAN;
        let [m, i] = <[_; 2]>::try_from(value("max", &[matrix(1, 4, &[nan, 2.0, 5.0, 5.0])], 2)).unwrap();
        assert_eq!((m.numeric().unwrap().data[0], i.numeric().unwrap().data[0]), (5.0, 3.0));
        let [m, i] = <[_; 2]>::try_from(value("min", &[matrix(1, 2, &[nan, nan])], 2)).unwrap();
        assert!(m.numeric().unwrap().data[0].is_nan() && i.numeric().unwrap().data[0] == 1.0);
        let m = value("max", &[matrix(1, 2, &[nan, 1.0]), matrix(1, 2, &[3.0, nan])], 1).remove(0);
        assert_eq!(m.numeric().unwrap().data, vec![3.0, 1.0]);
        // At a tie the derivative is the first operand's.
        assert_eq!(jacobian("max", &[matrix(1, 1, &[2.0]), matrix(1, 1, &[2.0])], &[0, 1]), vec![1.0, 0.0]);
        assert_eq!(jacobian("min", &[matrix(1, 3, &[2.0, 1.0, 1.0])], &[0]), vec![0.0, 1.0, 0.0]);
    }
}
