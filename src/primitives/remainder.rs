//! `mod` and `rem`: elementwise with implicit expansion, Octave's conventions for zero divisors, signs
//! and quotients within rounding of an integer.
//!
//! Derivatives, piecewise (the jumps where x/y crosses an integer have none): d/dx = 1 and
//! d/dy = -floor(x/y) for `mod`, -fix(x/y) for `rem`; with y = 0, `mod(x, 0) = x` gives (1, 0).

use super::elementwise::{eval_binary, forward_binary};
use super::{Derivative, IntegerArgs, Kernel, Linearity, PatternRule, Prim, Primitive, runtime};
use crate::diag::Result;
use crate::value::Value;

primitive_names! {
    Mod = "mod",
    Rem = "rem",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        Primitive::new(
            Prim::Mod,
            Kernel::General {
                eval: |a, _| eval(Prim::Mod, modulo, a),
                derivative: Derivative::Rule(|fw| forward_binary(Prim::Mod, |x, y, _| quotient_partials(x, y, f64::floor), fw)),
            },
        )
        .linear(Linearity::PiecewiseLinear)
        .integers(IntegerArgs::KeepClass)
        .pattern(PatternRule::Structural),
        Primitive::new(
            Prim::Rem,
            Kernel::General {
                eval: |a, _| eval(Prim::Rem, remainder, a),
                derivative: Derivative::Rule(|fw| forward_binary(Prim::Rem, |x, y, _| quotient_partials(x, y, f64::trunc), fw)),
            },
        )
        .linear(Linearity::PiecewiseLinear)
        .integers(IntegerArgs::KeepClass)
        .pattern(PatternRule::Structural),
    ]
}

/// Octave takes real numbers only: logical and char arguments are errors.
fn eval(prim: Prim, f: fn(f64, f64) -> f64, args: &[&Value]) -> Result<Vec<Value>> {
    if let Some(v) = args.iter().find(|v| !matches!(v, Value::Double(_) | Value::Sparse(_))) {
        return Err(runtime(format!("{}: wrong type argument '{}'", prim.name(), v.class_name())));
    }
    eval_binary(prim, f, None, args)
}

fn quotient_partials(x: f64, y: f64, round: fn(f64) -> f64) -> (f64, f64) {
    if y == 0.0 { (1.0, 0.0) } else { (1.0, -round(x / y)) }
}

/// `x - y * round(x / y)` with the quotient taken as an integer when it is within rounding of one
/// (so that `mod(5.1, 0.1)` is 0); infinite or NaN operands give NaN.
fn reduced(x: f64, y: f64, round: fn(f64) -> f64) -> f64 {
    if !x.is_finite() || !y.is_finite() {
        return f64::NAN;
    }
    let q = x / y;
    let nearest = q.round();
    if y.fract() != 0.0 && ((q - nearest) / nearest).abs() < f64::EPSILON {
        return 0.0;
    }
    x - y * round(q)
}

/// `mod(x, y)`: the sign of y (but `mod(x, x)` is +0); `mod(x, 0)` is x.
fn modulo(x: f64, y: f64) -> f64 {
    if y == 0.0 {
        return x;
    }
    signed(reduced(x, y, f64::floor), y, x == y)
}

/// `rem(x, y)`: the sign of x (but `rem(x, x)` is +0); `rem(x, 0)` is NaN.
fn remainder(x: f64, y: f64) -> f64 {
    if y == 0.0 {
        return f64::NAN;
    }
    signed(reduced(x, y, f64::trunc), x, x == y)
}

fn signed(r: f64, sign_of: f64, equal_operands: bool) -> f64 {
    if r.is_nan() || equal_operands { r } else { r.abs().copysign(sign_of) }
}
