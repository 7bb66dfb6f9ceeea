//! `[f, e] = log2(x)`: mantissa and exponent, `x = f .* 2.^e` with `|f|` in [0.5, 1) (f = x, e = 0
//! for 0, Inf and NaN). `log2` names this entry for calls with more than one output; with one, it is
//! the elementwise logarithm.

use super::elementwise::numeric;
use super::{Derivative, Forward, Kernel, Linearity, Prim, Primitive, check_arity};
use crate::diag::Result;
use crate::value::deriv::{Deriv, RowMap, combine};
use crate::value::{Array, Value};

pub(super) fn entries() -> Vec<Primitive> {
    let derivative = Derivative::Outputs { rule: forward_mantissa, differentiable: |k| k == 0 };
    // f is x times a constant between the jumps of e.
    vec![Primitive::new(Prim::Log2Parts, Kernel::General { eval: eval_parts, derivative }).linear(Linearity::PiecewiseLinear)]
}

fn eval_parts(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("log2", args, 1, 1)?;
    let x = numeric("log2", args[0])?;
    let (f, e): (Vec<f64>, Vec<f64>) = x.data.iter().map(|&x| split(x)).unzip();
    Ok(vec![Value::Double(Array::new(x.dims.clone(), f)), Value::Double(Array::new(x.dims.clone(), e))])
}

/// `(f, e)` with `x = f * 2^e`, `|f|` in [0.5, 1), as C's frexp.
fn split(x: f64) -> (f64, f64) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0.0);
    }
    // Subnormals are scaled into the normal range first, their exponent field being zero.
    let (normal, shift) = if x.abs() < f64::MIN_POSITIVE { (x * 2f64.powi(54), -54) } else { (x, 0) };
    const EXPONENT: u64 = 0x7ff << 52;
    let bits = normal.to_bits();
    let e = ((bits & EXPONENT) >> 52) as i32 - 1022 + shift;
    (f64::from_bits((bits & !EXPONENT) | (1022 << 52)), e as f64)
}

/// `df = 2^-e dx`: the derivative where e is constant (everywhere but at the powers of two, where f
/// jumps, and 0).
fn forward_mantissa(fw: &Forward, _: usize) -> Result<Deriv> {
    let x = numeric("log2", fw.inputs[0])?;
    let scale: Vec<f64> = x.data.iter().map(|&x| 2f64.powf(-split(x).1)).collect();
    Ok(combine(&[(&scale, fw.derivs[0], &RowMap::Identity)], scale.len()))
}
