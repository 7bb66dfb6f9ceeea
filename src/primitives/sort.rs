//! `sort` along a dimension, ascending or descending, with the permutation as second result. Stable as
//! in Octave; NaN goes last ascending and first descending. The derivative follows the permutation, so
//! its sparsity pattern is the one at the current point (a pattern valid for every point would couple
//! each slice densely).

use super::elementwise::numeric;
use super::slices::{Slices, dim_argument, first_non_singleton};
use super::{Forward, IntegerArgs, Linearity, PatternRule, Prim, Primitive, general, runtime};
use crate::diag::Result;
use crate::value::deriv::{Deriv, RowMap};
use crate::value::{Array, Value};
use std::cmp::Ordering;

primitive_names! {
    Sort = "sort",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        general(Prim::Sort, eval_sort, forward_sort)
            .linear(Linearity::PiecewiseLinear)
            .integers(IntegerArgs::KeepClass)
            .pattern(PatternRule::Selection(sorting_permutation)),
    ]
}

/// Slices and direction from `sort(x)`, `sort(x, dim)`, `sort(x, mode)`, `sort(x, dim, mode)`.
fn options(args: &[&Value]) -> Result<(Slices, bool)> {
    super::check_arity("sort", args, 1, 3)?;
    let dims = args[0].dims();
    let mut dim = first_non_singleton(&dims);
    let mut descending = false;
    for arg in &args[1..] {
        match arg.as_string().map(|s| s.to_lowercase()) {
            Some(mode) if mode == "ascend" => descending = false,
            Some(mode) if mode == "descend" => descending = true,
            Some(_) => return Err(runtime("sort: MODE must be either \"ascend\" or \"descend\"")),
            None => dim = dim_argument("sort", arg)?,
        }
    }
    Ok((Slices::new(&dims, dim), descending))
}

/// Octave's sort order of two elements, NaN last (first when descending); `ordered` compares two that
/// are not NaN, ascending.
pub(super) fn sort_order(a_nan: bool, b_nan: bool, descending: bool, ordered: impl FnOnce() -> Ordering) -> Ordering {
    let ascending = match (a_nan, b_nan) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => ordered(),
    };
    if descending { ascending.reverse() } else { ascending }
}

/// For every element of the result, the linear index of the input element it holds.
fn permutation(slices: &Slices, x: &[f64], descending: bool) -> Vec<usize> {
    let order = |a: f64, b: f64| sort_order(a.is_nan(), b.is_nan(), descending, || a.partial_cmp(&b).expect("not NaN"));
    let mut source = vec![0; x.len()];
    let mut slice: Vec<usize> = Vec::with_capacity(slices.len);
    for s in 0..slices.count() {
        slice.clear();
        slice.extend((0..slices.len).map(|k| slices.index(s, k)));
        // A stable sort keeps equal elements in their original order.
        slice.sort_by(|&i, &j| order(x[i], x[j]));
        for (k, &i) in slice.iter().enumerate() {
            source[slices.index(s, k)] = i;
        }
    }
    source
}

fn eval_sort(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (slices, descending) = options(args)?;
    let x = numeric("sort", args[0])?;
    let source = permutation(&slices, &x.data, descending);
    let sorted = source.iter().map(|&i| x.data[i]).collect();
    let positions = source.iter().map(|&i| slices.locate(i).1 as f64 + 1.0).collect();
    Ok(vec![Value::Double(Array::new(x.dims.clone(), sorted)), Value::Double(Array::new(x.dims.clone(), positions))])
}

/// The element each sorted position takes: what decides the derivative's pattern.
fn sorting_permutation(args: &[&Value]) -> Result<Vec<usize>> {
    let (slices, descending) = options(args)?;
    Ok(permutation(&slices, &numeric("sort", args[0])?.data, descending))
}

fn forward_sort(fw: &Forward) -> Result<Deriv> {
    let (slices, descending) = options(fw.inputs)?;
    let x = numeric("", fw.inputs[0])?;
    let source = permutation(&slices, &x.data, descending);
    Ok(fw.derivs[0].gather(&RowMap::Gather(source), x.data.len()))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, SHAPES, check, matrix, value};
    use crate::value::Value;

    #[test]
    fn sorting_matches_finite_differences() {
        let mut rng = Random::new(10);
        for (m, n) in SHAPES.into_iter().chain([(0, 0), (0, 3)]) {
            let x = rng.matrix(m, n);
            check("sort", std::slice::from_ref(&x), &[0]);
            check("sort", &[x.clone(), Value::string("descend")], &[0]);
            for dim in [1.0, 2.0, 3.0] {
                check("sort", &[x.clone(), matrix(1, 1, &[dim]), Value::string("descend")], &[0]);
            }
        }
    }

    #[test]
    fn order_and_indices_follow_octave() {
        let nan = f64::NAN;
        let x = matrix(1, 5, &[3.0, nan, 1.0, 3.0, nan]);
        let up = value("sort", std::slice::from_ref(&x), 2);
        assert_eq!(up[1].numeric().unwrap().data, vec![3.0, 1.0, 4.0, 2.0, 5.0]);
        let down = value("sort", &[x, Value::string("descend")], 2);
        assert_eq!(down[1].numeric().unwrap().data, vec![2.0, 5.0, 1.0, 4.0, 3.0]);
    }
}
