//! Elementwise functions and operators with MATLAB's implicit expansion, and their generic forward rules.

use super::{Forward, Kernel, Primitive, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::exec::deriv::{Deriv, RowMap, combine};
use crate::exec::value::{Array, Value, normalize_dims};
use std::borrow::Cow;

fn unary(name: &'static str, f: fn(f64) -> f64, df: fn(f64, f64) -> f64) -> Primitive {
    Primitive { name, kernel: Kernel::Unary { f, df: Some(df), domain: None } }
}

fn unary_on(name: &'static str, f: fn(f64) -> f64, df: fn(f64, f64) -> f64, domain: fn(f64) -> bool) -> Primitive {
    Primitive { name, kernel: Kernel::Unary { f, df: Some(df), domain: Some(domain) } }
}

fn piecewise_constant(name: &'static str, f: fn(f64) -> f64) -> Primitive {
    Primitive { name, kernel: Kernel::Unary { f, df: None, domain: None } }
}

fn binary(name: &'static str, f: fn(f64, f64) -> f64, partials: fn(f64, f64, f64) -> (f64, f64)) -> Primitive {
    Primitive { name, kernel: Kernel::Binary { f, partials, complex_result: None } }
}

fn predicate(name: &'static str, f: fn(f64, f64) -> bool) -> Primitive {
    Primitive { name, kernel: Kernel::Predicate(f) }
}

/// MATLAB's `sign`, also the derivative of `abs` (0 at 0); sign(-0) is +0 and sign(NaN) NaN.
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else if x == 0.0 {
        0.0
    } else {
        x
    }
}

/// `asinh` as the C library computes it: for huge |x|, sqrt(x^2 + 1) overflows in the textbook
/// formula that Rust's `asinh` uses, so log(2|x|) = log|x| + log 2 directly.
fn asinh(x: f64) -> f64 {
    if x.abs() > 2f64.powi(28) { (x.abs().ln() + std::f64::consts::LN_2).copysign(x) } else { x.asinh() }
}

/// MATLAB's `round`: halves away from zero.
fn round_half_away(x: f64) -> f64 {
    x.round()
}

/// Octave makes `a.^b` complex when a base is negative and its exponent is not an integer it can
/// raise to (a fraction, NaN, an infinity, or beyond the int range): msad must then refuse.
fn power_is_complex(a: f64, b: f64) -> bool {
    let integer_exponent = b.fract() == 0.0 && b <= i32::MAX as f64;
    a < 0.0 && !integer_exponent
}

/// `a.^b`; squares (the common case) by one correctly rounded product instead of `pow`.
fn power(a: f64, b: f64) -> f64 {
    if b == 2.0 { a * a } else { a.powf(b) }
}

fn power_partials(a: f64, b: f64, z: f64) -> (f64, f64) {
    let da = if b == 0.0 {
        0.0
    } else if b == 2.0 {
        2.0 * a
    } else {
        b * a.powf(b - 1.0)
    };
    // d/db a^b = a^b log(a); for a == 0 the limit along b > 0 is 0.
    let db = if a == 0.0 { 0.0 } else { z * a.ln() };
    (da, db)
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        unary("uminus", |x| -x, |_, _| -1.0),
        unary("uplus", |x| x, |_, _| 1.0),
        // msad's values are real: these are what they are on the real line.
        unary("real", |x| x, |_, _| 1.0),
        unary("conj", |x| x, |_, _| 1.0),
        piecewise_constant("imag", |_| 0.0),
        unary("cbrt", f64::cbrt, |_, y| 1.0 / (3.0 * y * y)),
        unary("sin", f64::sin, |x, _| x.cos()),
        unary("cos", f64::cos, |x, _| -x.sin()),
        unary("tan", f64::tan, |_, y| 1.0 + y * y),
        unary("exp", f64::exp, |_, y| y),
        unary("expm1", f64::exp_m1, |x, _| x.exp()),
        unary_on("log", f64::ln, |x, _| 1.0 / x, |x| x >= 0.0 || x.is_nan()),
        unary_on("log2", f64::log2, |x, _| 1.0 / (x * std::f64::consts::LN_2), |x| x >= 0.0 || x.is_nan()),
        unary_on("log10", f64::log10, |x, _| 1.0 / (x * std::f64::consts::LN_10), |x| x >= 0.0 || x.is_nan()),
        unary_on("log1p", f64::ln_1p, |x, _| 1.0 / (1.0 + x), |x| x >= -1.0 || x.is_nan()),
        unary_on("sqrt", f64::sqrt, |_, y| 0.5 / y, |x| x >= 0.0 || x.is_nan()),
        unary("abs", f64::abs, |x, _| sign(x)),
        unary_on("asin", f64::asin, |x, _| 1.0 / (1.0 - x * x).sqrt(), |x| x.abs() <= 1.0 || x.is_nan()),
        unary_on("acos", f64::acos, |x, _| -1.0 / (1.0 - x * x).sqrt(), |x| x.abs() <= 1.0 || x.is_nan()),
        unary("atan", f64::atan, |x, _| 1.0 / (1.0 + x * x)),
        unary("sinh", f64::sinh, |x, _| x.cosh()),
        unary("cosh", f64::cosh, |x, _| x.sinh()),
        unary("tanh", f64::tanh, |_, y| 1.0 - y * y),
        unary("asinh", asinh, |x, _| 1.0 / (x * x + 1.0).sqrt()),
        unary_on("acosh", f64::acosh, |x, _| 1.0 / (x * x - 1.0).sqrt(), |x| x >= 1.0 || x.is_nan()),
        unary_on("atanh", f64::atanh, |x, _| 1.0 / (1.0 - x * x), |x| x.abs() <= 1.0 || x.is_nan()),
        piecewise_constant("floor", f64::floor),
        piecewise_constant("ceil", f64::ceil),
        piecewise_constant("round", round_half_away),
        piecewise_constant("fix", f64::trunc),
        piecewise_constant("sign", sign),
        binary("plus", |a, b| a + b, |_, _, _| (1.0, 1.0)),
        binary("minus", |a, b| a - b, |_, _, _| (1.0, -1.0)),
        binary("times", |a, b| a * b, |a, b, _| (b, a)),
        binary("rdivide", |a, b| a / b, |_, b, z| (1.0 / b, -z / b)),
        binary("ldivide", |a, b| b / a, |a, _, z| (-z / a, 1.0 / a)),
        Primitive {
            name: "power",
            kernel: Kernel::Binary { f: power, partials: power_partials, complex_result: Some(power_is_complex) },
        },
        binary("atan2", f64::atan2, |a, b, _| {
            let r = a * a + b * b;
            (b / r, -a / r)
        }),
        binary("hypot", f64::hypot, |a, b, z| (a / z, b / z)),
        predicate("eq", |a, b| a == b),
        predicate("ne", |a, b| a != b),
        predicate("lt", |a, b| a < b),
        predicate("le", |a, b| a <= b),
        predicate("gt", |a, b| a > b),
        predicate("ge", |a, b| a >= b),
        predicate("and", |a, b| a != 0.0 && b != 0.0),
        predicate("or", |a, b| a != 0.0 || b != 0.0),
    ]
}

pub(super) fn numeric<'v>(name: &str, v: &'v Value) -> Result<Cow<'v, Array<f64>>> {
    v.numeric().ok_or_else(|| runtime(format!("{name}: wrong type argument '{}'", v.class_name())))
}

fn complex_result(name: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("{name}: the result is complex for these inputs"))
        .with_hint("msad does not support complex values yet; keep the argument in the real domain")
}

pub(super) fn eval_unary(
    name: &str,
    f: fn(f64) -> f64,
    domain: Option<fn(f64) -> bool>,
    args: &[&Value],
) -> Result<Vec<Value>> {
    super::check_arity(name, args, 1, 1)?;
    if let Some(s) = super::sparse::elementwise(name, args) {
        return Ok(vec![Value::Sparse(s)]);
    }
    let x = numeric(name, args[0])?;
    if let Some(inside) = domain {
        if !x.data.iter().all(|&v| inside(v)) {
            return Err(complex_result(name));
        }
    }
    Ok(vec![Value::Double(x.map(|&v| f(v)))])
}

/// Result dims of implicit expansion (each dim equal, or 1 in one operand).
pub fn broadcast_dims(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let n = a.len().max(b.len());
    let dim = |d: &[usize], i: usize| d.get(i).copied().unwrap_or(1);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (x, y) = (dim(a, i), dim(b, i));
        out.push(if x == y || y == 1 {
            x
        } else if x == 1 {
            y
        } else {
            return None;
        });
    }
    Some(normalize_dims(out))
}

/// For each operand, which of its elements each output element reads.
pub fn row_maps(a: &[usize], b: &[usize], out: &[usize]) -> (RowMap, RowMap) {
    (row_map(a, out), row_map(b, out))
}

fn row_map(dims: &[usize], out: &[usize]) -> RowMap {
    let numel: usize = dims.iter().product();
    if normalize_dims(dims.to_vec()) == out {
        return RowMap::Identity;
    }
    if numel == 1 {
        return RowMap::Scalar;
    }
    let total: usize = out.iter().product();
    let mut map = Vec::with_capacity(total);
    let mut sub = vec![0usize; out.len()];
    for _ in 0..total {
        let mut idx = 0;
        let mut stride = 1;
        for (i, &s) in sub.iter().enumerate() {
            let d = dims.get(i).copied().unwrap_or(1);
            if d != 1 {
                idx += s * stride;
            }
            stride *= d;
        }
        map.push(idx);
        for (i, s) in sub.iter_mut().enumerate() {
            *s += 1;
            if *s < out[i] {
                break;
            }
            *s = 0;
        }
    }
    RowMap::Gather(map)
}

struct Expanded<'v> {
    a: Cow<'v, Array<f64>>,
    b: Cow<'v, Array<f64>>,
    dims: Vec<usize>,
    maps: (RowMap, RowMap),
}

fn expand<'v>(name: &str, args: &[&'v Value]) -> Result<Expanded<'v>> {
    super::check_arity(name, args, 2, 2)?;
    let (a, b) = (numeric(name, args[0])?, numeric(name, args[1])?);
    let dims = broadcast_dims(&a.dims, &b.dims).ok_or_else(|| {
        runtime(format!(
            "operator {name}: nonconformant arguments (op1 is {}, op2 is {})",
            dims_text(&a.dims),
            dims_text(&b.dims)
        ))
    })?;
    let maps = row_maps(&a.dims, &b.dims, &dims);
    Ok(Expanded { a, b, dims, maps })
}

pub fn dims_text(dims: &[usize]) -> String {
    dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x")
}

/// Calls `f(k, a, b)` for every output element k and its operand pair; one loop per map kind, so the
/// common same-shape and scalar-operand cases run over slices without per-element dispatch.
fn for_each_pair(e: &Expanded, mut f: impl FnMut(usize, f64, f64)) {
    let (a, b) = (&e.a.data[..], &e.b.data[..]);
    match (&e.maps.0, &e.maps.1) {
        (RowMap::Identity, RowMap::Identity) => a.iter().zip(b).enumerate().for_each(|(k, (&x, &y))| f(k, x, y)),
        (RowMap::Identity, RowMap::Scalar) => a.iter().enumerate().for_each(|(k, &x)| f(k, x, b[0])),
        (RowMap::Scalar, RowMap::Identity) => b.iter().enumerate().for_each(|(k, &y)| f(k, a[0], y)),
        (ma, mb) => (0..e.dims.iter().product()).for_each(|k| f(k, a[ma.source(k)], b[mb.source(k)])),
    }
}

fn zip_with<T: Clone>(e: &Expanded, f: impl Fn(f64, f64) -> T) -> Array<T> {
    let mut data = Vec::with_capacity(e.dims.iter().product());
    for_each_pair(e, |_, x, y| data.push(f(x, y)));
    Array::new(e.dims.clone(), data)
}

pub(super) fn eval_binary(
    name: &str,
    f: fn(f64, f64) -> f64,
    complex: Option<fn(f64, f64) -> bool>,
    args: &[&Value],
) -> Result<Vec<Value>> {
    if let Some(s) = super::sparse::elementwise(name, args) {
        return Ok(vec![Value::Sparse(s)]);
    }
    let e = expand(name, args)?;
    if let Some(is_complex) = complex {
        let mut any_complex = false;
        for_each_pair(&e, |_, x, y| any_complex |= is_complex(x, y));
        if any_complex {
            return Err(complex_result(name));
        }
    }
    Ok(vec![Value::Double(zip_with(&e, f))])
}

pub(super) fn eval_predicate(name: &str, f: fn(f64, f64) -> bool, args: &[&Value]) -> Result<Vec<Value>> {
    let e = expand(name, args)?;
    let logical_operands = matches!(name, "and" | "or");
    if logical_operands && e.a.data.iter().chain(&e.b.data).any(|x| x.is_nan()) {
        return Err(runtime("invalid conversion from NaN to logical value"));
    }
    Ok(vec![Value::Logical(zip_with(&e, f))])
}

pub(super) fn forward_unary(df: fn(f64, f64) -> f64, fw: &Forward) -> Result<Deriv> {
    let x = numeric("", fw.inputs[0])?;
    let y = numeric("", fw.output)?;
    let coefs: Vec<f64> = x.data.iter().zip(&y.data).map(|(&x, &y)| df(x, y)).collect();
    Ok(combine(&[(&coefs, fw.derivs[0], &RowMap::Identity)], coefs.len()))
}

pub(super) fn forward_binary(partials: fn(f64, f64, f64) -> (f64, f64), fw: &Forward) -> Result<Deriv> {
    let e = expand("", fw.inputs)?;
    let z = numeric("", fw.output)?;
    let n = z.data.len();
    let (mut ca, mut cb) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for_each_pair(&e, |k, x, y| {
        let (da, db) = partials(x, y, z.data[k]);
        ca.push(da);
        cb.push(db);
    });
    Ok(combine(&[(&ca, fw.derivs[0], &e.maps.0), (&cb, fw.derivs[1], &e.maps.1)], n))
}
