//! Reductions along a dimension (`sum`, `mean`, `cumsum`). All are linear, so their forward rule is the
//! same reduction applied to every derivative column.

use super::elementwise::numeric;
use super::reverse::{Adjoints, Reverse, by_column};
use super::slices::{Slices, working_dim};
use super::{Forward, IntegerArgs, Linearity, Prim, Primitive, general, sparse_deriv};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{DenseDeriv, Deriv, RowOperator};
use crate::value::{Array, Value};

primitive_names! {
    Sum = "sum",
    Mean = "mean",
    Cumsum = "cumsum",
}

#[derive(Clone, Copy)]
enum Reduction {
    Sum,
    Mean,
    CumSum,
}

impl Reduction {
    fn prim(self) -> Prim {
        match self {
            Reduction::Sum => Prim::Sum,
            Reduction::Mean => Prim::Mean,
            Reduction::CumSum => Prim::Cumsum,
        }
    }
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        general(Prim::Sum, |a, _| eval(Reduction::Sum, a), |fw| forward(Reduction::Sum, fw))
            .linear(Linearity::Additive)
            .vjp(|rv| reverse(Reduction::Sum, rv))
            .integers(IntegerArgs::ClassFree),
        general(Prim::Mean, |a, _| eval(Reduction::Mean, a), |fw| forward(Reduction::Mean, fw))
            .linear(Linearity::Additive)
            .vjp(|rv| reverse(Reduction::Mean, rv))
            .integers(IntegerArgs::ClassFree),
        general(Prim::Cumsum, |a, _| eval(Reduction::CumSum, a), |fw| forward(Reduction::CumSum, fw))
            .linear(Linearity::Additive)
            .vjp(|rv| reverse(Reduction::CumSum, rv))
            .integers(IntegerArgs::ClassFree),
    ]
}

/// The slices a reduction works on and its result dims.
pub(super) struct Plan {
    pub slices: Slices,
    pub out_dims: Vec<usize>,
}

/// Slices along `DIM` (`args[1]`, default the first non-singleton dimension). Reductions (`cumulative`
/// false) shrink that dimension to 1; they see `0x0` as `0x1`, as Octave does (`sum([]) = 0`,
/// `sum([], 1)` is 1x1, `sum([], 3)` is 0x1).
pub(super) fn plan(prim: Prim, args: &[&Value], cumulative: bool) -> Result<Plan> {
    let name = prim.name();
    let args = without_type_option(prim, args)?;
    super::check_arity(name, args, 1, 2)?;
    let mut dims = args[0].dims();
    if !cumulative && dims == [0, 0] {
        dims = vec![0, 1];
    }
    let slices = Slices::new(&dims, working_dim(name, &dims, args.get(1).copied())?);
    let out_dims = if cumulative { dims } else { slices.dims_with_len(1) };
    Ok(Plan { slices, out_dims })
}

/// `sum(..., 'double')`, and `sum(..., 'native')` of a double array (median.m's), are the plain sum:
/// the arguments without the option. 'native' of integers or logicals keeps their class in Octave,
/// which msad does not do.
fn is_type_option(v: &Value) -> bool {
    matches!(v.as_string().as_deref(), Some("double" | "native"))
}

fn without_type_option<'a, 'v>(prim: Prim, args: &'a [&'v Value]) -> Result<&'a [&'v Value]> {
    let Some((last, before)) = args.split_last().filter(|(last, before)| prim == Prim::Sum && !before.is_empty() && is_type_option(last))
    else {
        return Ok(args);
    };
    if last.as_string().as_deref() == Some("native") && !matches!(before[0], Value::Double(_) | Value::Sparse(_)) {
        return Err(Diagnostic::new(ErrorKind::Unsupported, format!("sum(..., 'native') of a {} array", before[0].class_name()))
            .with_hint("msad supports 'native' for double arrays only; convert with double() first"));
    }
    Ok(before)
}

fn scale(op: Reduction, len: usize) -> f64 {
    if matches!(op, Reduction::Mean) { 1.0 / len as f64 } else { 1.0 }
}

fn eval(op: Reduction, args: &[&Value]) -> Result<Vec<Value>> {
    let p = plan(op.prim(), args, matches!(op, Reduction::CumSum))?;
    if let (Reduction::Sum, Value::Sparse(a)) = (op, args[0]) {
        // Sparse as in Octave, along the first two dimensions.
        let dim = if p.out_dims[0] == 1 && a.nrows() != 1 {
            Some(1)
        } else if p.out_dims.get(1) == Some(&1) && a.ncols() != 1 {
            Some(2)
        } else {
            None
        };
        if let Some(dim) = dim {
            return Ok(vec![Value::Sparse(sparse_deriv::sparse_sum(a, dim))]);
        }
    }
    let x = numeric(op.prim().name(), args[0])?;
    let s = &p.slices;
    let n: usize = p.out_dims.iter().product();
    let mut out = vec![0.0; n];
    for slice in 0..s.count() {
        // A running sum starts at -0 so that cumsum(-0) is -0, as in Octave; sum(-0) is +0.
        let mut acc = if let Reduction::CumSum = op { -0.0 } else { 0.0 };
        for k in 0..s.len {
            acc += x.data[s.index(slice, k)];
            if let Reduction::CumSum = op {
                out[s.index(slice, k)] = acc;
            }
        }
        match op {
            Reduction::Sum => out[slice] = acc,
            // sum / n as Octave's mean.m computes it (a product with 1/n can differ in the last bit);
            // an empty slice gives 0 / 0 = NaN.
            Reduction::Mean => out[slice] = acc / s.len as f64,
            Reduction::CumSum => {}
        }
    }
    Ok(vec![Value::Double(Array::new(p.out_dims, out))])
}

/// The reduction as a row operator: each output row sums its input rows (scaled for `mean`).
fn operator(op: Reduction, p: &Plan) -> RowOperator {
    let s = &p.slices;
    let mut out = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    let rows: usize = p.out_dims.iter().product();
    for r in 0..rows {
        // Output rows in column-major order of the result; each sums the first `terms` of its slice.
        let (slice, terms) = match op {
            Reduction::CumSum => {
                let (slice, k) = s.locate(r);
                (slice, k + 1)
            }
            // Result element r reduces slice r.
            _ => (r, s.len),
        };
        for k in 0..terms {
            out.src.push(s.index(slice, k));
            out.coef.push(scale(op, s.len));
        }
        out.ptr.push(out.src.len());
    }
    out
}

fn forward(op: Reduction, fw: &Forward) -> Result<Deriv> {
    let p = plan(op.prim(), fw.inputs, matches!(op, Reduction::CumSum))?;
    Ok(match (op, fw.derivs[0]) {
        (Reduction::CumSum, Deriv::Dense(d)) => Deriv::Dense(running_sums(d, &p.slices)),
        (_, d) => d.apply(&operator(op, &p)),
    })
}

/// `cumsum`'s rule on a dense block: each row adds the sum before it in its slice, linear in the
/// slice's length (the row operator lists every earlier row: quadratic), adding in the operator's
/// order.
fn running_sums(d: &DenseDeriv, s: &Slices) -> DenseDeriv {
    let mut out = d.clone();
    for j in 0..out.nd {
        let column = out.column_mut(j);
        for slice in 0..s.count() {
            for k in 1..s.len {
                column[s.index(slice, k)] += column[s.index(slice, k - 1)];
            }
        }
    }
    out
}

/// Reverse rule of `sum`, `mean` and `cumsum`: the first operand's adjoint, the others' none.
fn reverse(op: Reduction, rv: &Reverse) -> Result<Adjoints> {
    by_column(rv, |adjoint| {
        let first = rv.wanted[0].then(|| adjoint_of_first(op, rv.inputs, adjoint)).transpose()?;
        Ok(std::iter::once(first).chain(std::iter::repeat(None)).take(rv.inputs.len()).collect())
    })
}

/// The transposed reduction applied to the result's adjoint: the adjoint of the first input.
fn adjoint_of_first(op: Reduction, inputs: &[&Value], result_adjoint: &[f64]) -> Result<Vec<f64>> {
    let p = &plan(op.prim(), inputs, matches!(op, Reduction::CumSum))?.slices;
    let scale = if matches!(op, Reduction::Mean) { 1.0 / p.len as f64 } else { 1.0 };
    let mut out = vec![0.0; p.before * p.len * p.after];
    for a in 0..p.after {
        for b in 0..p.before {
            let source = |k: usize| b + p.before * (k + p.len * a);
            match op {
                // Each element feeds every later partial sum: a reversed cumulative sum.
                Reduction::CumSum => {
                    let mut acc = 0.0;
                    for k in (0..p.len).rev() {
                        acc += result_adjoint[source(k)];
                        out[source(k)] = acc;
                    }
                }
                Reduction::Sum | Reduction::Mean => {
                    let g = result_adjoint[b + p.before * a] * scale;
                    (0..p.len).for_each(|k| out[source(k)] = g);
                }
            }
        }
    }
    Ok(out)
}
