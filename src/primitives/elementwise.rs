//! Elementwise functions and operators with MATLAB's implicit expansion, and their generic forward rules.

use super::{Forward, IntegerArgs, Kernel, Linearity, Prim, Primitive, Reads, RuleReads, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::buffers;
use crate::value::deriv::{Coef, DenseDeriv, Deriv, RowMap, combine, combine_into, combine_terms};
use crate::value::small_list::Dims;
use crate::value::{Array, Complex64, Value, normalize_dims};
use std::borrow::Cow;
use std::f64::consts::{LN_2, LN_10, LOG10_E};

primitive_names! {
    Uminus = "uminus",
    Uplus = "uplus",
    Real = "real",
    Conj = "conj",
    Imag = "imag",
    Cbrt = "cbrt",
    Sin = "sin",
    Cos = "cos",
    Tan = "tan",
    Sec = "sec",
    Csc = "csc",
    Cot = "cot",
    Exp = "exp",
    Expm1 = "expm1",
    Log = "log",
    Log2 = "log2",
    Log10 = "log10",
    Log1p = "log1p",
    Sqrt = "sqrt",
    Abs = "abs",
    Asin = "asin",
    Acos = "acos",
    Atan = "atan",
    Sinh = "sinh",
    Cosh = "cosh",
    Tanh = "tanh",
    Asinh = "asinh",
    Acosh = "acosh",
    Atanh = "atanh",
    Erf = "erf",
    Floor = "floor",
    Ceil = "ceil",
    Round = "round",
    Fix = "fix",
    Sign = "sign",
    Plus = "plus",
    Minus = "minus",
    Times = "times",
    Rdivide = "rdivide",
    Ldivide = "ldivide",
    Power = "power",
    Atan2 = "atan2",
    Hypot = "hypot",
    Eq = "eq",
    Ne = "ne",
    Lt = "lt",
    Le = "le",
    Gt = "gt",
    Ge = "ge",
    And = "and",
    Or = "or",
    Log2Parts = "[f, e] = log2",
}

type C = Complex64;

type Partial = fn(f64, f64) -> f64;

// Complex kernels whose branch cuts follow Octave's C++ library (the records' complex facets).

/// As glibc's clog10.
fn complex_log10(z: C) -> C {
    C::new(z.norm().log10(), LOG10_E * z.arg())
}

/// Octave conjugates asin and acos of reals above 1 (MATLAB's sign of the imaginary part).
fn complex_asin(z: C) -> C {
    if z.im == 0.0 && z.re > 1.0 { z.asin().conj() } else { z.asin() }
}

fn complex_acos(z: C) -> C {
    if z.im == 0.0 && z.re > 1.0 { z.acos().conj() } else { z.acos() }
}

/// Signed zeros on the cuts as C99: acosh(conj z) = conj(acosh z), atanh(±0 ± 0i) = ±0 ± 0i.
fn complex_acosh(z: C) -> C {
    if z.im.is_sign_negative() { z.conj().acosh().conj() } else { z.acosh() }
}

/// `1 / w` as Octave's `1 ./ w` (C++'s complex division: 0 at an infinite `w`, as in `sec(1 + 1000i)`).
fn reciprocal(w: C) -> C {
    super::complex::divide(C::new(1.0, 0.0), w)
}

fn complex_atanh(z: C) -> C {
    if z.re == 0.0 && z.im == 0.0 { z } else { z.atanh() }
}

/// `f` with its first and second derivatives, both at `(x, f(x))`.
fn unary(prim: Prim, f: fn(f64) -> f64, df: Partial, d2f: Partial) -> Primitive {
    Primitive::new(prim, Kernel::Unary { f, df: Some(df), d2f, domain: None })
}

fn unary_on(prim: Prim, f: fn(f64) -> f64, df: Partial, d2f: Partial, domain: fn(f64) -> bool) -> Primitive {
    Primitive::new(prim, Kernel::Unary { f, df: Some(df), d2f, domain: Some(domain) })
}

fn piecewise_constant(prim: Prim, f: fn(f64) -> f64) -> Primitive {
    Primitive::new(prim, Kernel::Unary { f, df: None, d2f: |_, _| 0.0, domain: None })
}

/// An elementwise binary entry: `f` for scalars, and its loop over expanded operands compiled with `f`
/// inlined (a call through a function pointer per element would cost more than the arithmetic);
/// `second` gives the second partials `(d2z/da2, d2z/dadb, d2z/db2)` at `(a, b, z)`.
macro_rules! binary {
    ($name:expr, $f:expr, $partials:expr, $second:expr) => {
        binary!($name, $f, $partials, $second, None)
    };
    ($name:expr, $f:expr, $partials:expr, $second:expr, $complex:expr) => {
        Primitive::new(
            $name,
            Kernel::Binary {
                f: $f,
                pairs: |e| zip_with(e, $f),
                update: |own, position, other, map| update_with(own, position, other, map, $f),
                partials: $partials,
                second: $second,
                complex_result: $complex,
            },
        )
    };
}

/// Second partials of `a` and `b` that no second-order term reads: linear operations.
fn linear(_: f64, _: f64, _: f64) -> (f64, f64, f64) {
    (0.0, 0.0, 0.0)
}

fn predicate(prim: Prim, f: fn(f64, f64) -> bool) -> Primitive {
    Primitive::new(prim, Kernel::Predicate(f))
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

/// The derivative of `erf`: 2/sqrt(pi) exp(-x^2).
fn erf_slope(x: f64) -> f64 {
    std::f64::consts::FRAC_2_SQRT_PI * (-x * x).exp()
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
    // d/db a^b = a^b log(a); for a == 0 the limit along b > 0 is 0.
    let db = if a == 0.0 { 0.0 } else { z * a.ln() };
    (power_base_partial(a, b), db)
}

/// d/da a^b: all that a power with a constant exponent needs (no logarithm).
fn power_base_partial(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        0.0
    } else if b == 2.0 {
        2.0 * a
    } else {
        b * a.powf(b - 1.0)
    }
}

/// `(d2z/da2, d2z/dadb, d2z/db2)` of `z = a^b`, with the limits at `a == 0` that `power_partials` takes.
fn power_second(a: f64, b: f64, z: f64) -> (f64, f64, f64) {
    let aa = if b == 0.0 || b == 1.0 {
        0.0
    } else if b == 2.0 {
        2.0
    } else {
        b * (b - 1.0) * a.powf(b - 2.0)
    };
    if a == 0.0 {
        return (aa, 0.0, 0.0);
    }
    let log_a = a.ln();
    (aa, a.powf(b - 1.0) * (1.0 + b * log_a), z * log_a * log_a)
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        unary(Prim::Uminus, |x| -x, |_, _| -1.0, |_, _| 0.0).linear(Linearity::Additive).integers(IntegerArgs::KeepClass).complex(|z| -z),
        unary(Prim::Uplus, |x| x, |_, _| 1.0, |_, _| 0.0).linear(Linearity::Additive).integers(IntegerArgs::KeepClass).complex(|z| z),
        // On real values; complex ones are primitives::complex's.
        unary(Prim::Real, |x| x, |_, _| 1.0, |_, _| 0.0).reads(RuleReads::unary(Reads::Nothing, Reads::Nothing)),
        unary(Prim::Conj, |x| x, |_, _| 1.0, |_, _| 0.0).reads(RuleReads::unary(Reads::Nothing, Reads::Nothing)).complex(|z| z.conj()),
        piecewise_constant(Prim::Imag, |_| 0.0),
        unary(Prim::Cbrt, f64::cbrt, |_, y| 1.0 / (3.0 * y * y), |_, y| -2.0 / (9.0 * y.powi(5)))
            .reads(RuleReads::unary(Reads::Result, Reads::Result)),
        unary(Prim::Sin, f64::sin, |x, _| x.cos(), |_, y| -y).reads(RuleReads::unary(Reads::Operands, Reads::Result)).holomorphic(
            C::sin,
            |w, _| w.cos(),
            |_, z| -z,
        ),
        unary(Prim::Cos, f64::cos, |x, _| -x.sin(), |_, y| -y).reads(RuleReads::unary(Reads::Operands, Reads::Result)).holomorphic(
            C::cos,
            |w, _| -w.sin(),
            |_, z| -z,
        ),
        unary(Prim::Tan, f64::tan, |_, y| 1.0 + y * y, |_, y| 2.0 * y * (1.0 + y * y))
            .reads(RuleReads::unary(Reads::Result, Reads::Result))
            .holomorphic(C::tan, |_, z| z * z + 1.0, |_, z| z * (z * z + 1.0) * 2.0),
        // sec = 1 / cos: sec' = sec tan, sec'' = sec (tan^2 + sec^2).
        unary(Prim::Sec, |x| 1.0 / x.cos(), |x, y| y * x.tan(), |x, y| y * (x.tan() * x.tan() + y * y))
            .reads(RuleReads::unary(Reads::Both, Reads::Both))
            .holomorphic(|z| reciprocal(z.cos()), |w, z| z * w.tan(), |w, z| z * (w.tan() * w.tan() + z * z)),
        // csc = 1 / sin: csc' = -csc cot, csc'' = csc (cot^2 + csc^2).
        unary(Prim::Csc, |x| 1.0 / x.sin(), |x, y| -y / x.tan(), |x, y| y * (1.0 / (x.tan() * x.tan()) + y * y))
            .reads(RuleReads::unary(Reads::Both, Reads::Both))
            .holomorphic(|z| reciprocal(z.sin()), |w, z| -z / w.tan(), |w, z| z * ((w.tan() * w.tan()).inv() + z * z)),
        // cot = 1 / tan: cot' = -(1 + cot^2), cot'' = 2 cot (1 + cot^2).
        unary(Prim::Cot, |x| 1.0 / x.tan(), |_, y| -(1.0 + y * y), |_, y| 2.0 * y * (1.0 + y * y))
            .reads(RuleReads::unary(Reads::Result, Reads::Result))
            .holomorphic(|z| reciprocal(z.tan()), |_, z| -(z * z + 1.0), |_, z| z * (z * z + 1.0) * 2.0),
        unary(Prim::Exp, f64::exp, |_, y| y, |_, y| y).reads(RuleReads::unary(Reads::Result, Reads::Result)).holomorphic(
            C::exp,
            |_, z| z,
            |_, z| z,
        ),
        // erf' = 2/sqrt(pi) exp(-x^2), erf'' = -2x erf'.
        unary(Prim::Erf, libm::erf, |x, _| erf_slope(x), |x, _| -2.0 * x * erf_slope(x))
            .reads(RuleReads::unary(Reads::Operands, Reads::Operands)),
        unary(Prim::Expm1, f64::exp_m1, |x, _| x.exp(), |x, _| x.exp()).reads(RuleReads::unary(Reads::Operands, Reads::Operands)),
        unary_on(Prim::Log, f64::ln, |x, _| 1.0 / x, |x, _| -1.0 / (x * x), |x| x >= 0.0 || x.is_nan())
            .reads(RuleReads::unary(Reads::Operands, Reads::Operands))
            .holomorphic(C::ln, |w, _| w.inv(), |w, _| -(w * w).inv()),
        unary_on(
            Prim::Log2,
            f64::log2,
            |x, _| 1.0 / (x * std::f64::consts::LN_2),
            |x, _| -1.0 / (x * x * std::f64::consts::LN_2),
            |x| x >= 0.0 || x.is_nan(),
        )
        .reads(RuleReads::unary(Reads::Operands, Reads::Operands))
        .more_outputs(Prim::Log2Parts)
        .holomorphic(|z| z.ln() / LN_2, |w, _| (w * LN_2).inv(), |w, _| -(w * w * LN_2).inv()),
        unary_on(
            Prim::Log10,
            f64::log10,
            |x, _| 1.0 / (x * std::f64::consts::LN_10),
            |x, _| -1.0 / (x * x * std::f64::consts::LN_10),
            |x| x >= 0.0 || x.is_nan(),
        )
        .reads(RuleReads::unary(Reads::Operands, Reads::Operands))
        .holomorphic(complex_log10, |w, _| (w * LN_10).inv(), |w, _| -(w * w * LN_10).inv()),
        unary_on(Prim::Log1p, f64::ln_1p, |x, _| 1.0 / (1.0 + x), |x, _| -1.0 / ((1.0 + x) * (1.0 + x)), |x| x >= -1.0 || x.is_nan())
            .reads(RuleReads::unary(Reads::Operands, Reads::Operands)),
        unary_on(Prim::Sqrt, f64::sqrt, |_, y| 0.5 / y, |_, y| -0.25 / (y * y * y), |x| x >= 0.0 || x.is_nan())
            .reads(RuleReads::unary(Reads::Result, Reads::Result))
            .holomorphic(C::sqrt, |_, z| (z * 2.0).inv(), |w, z| -(w * z * 4.0).inv()),
        unary(Prim::Abs, f64::abs, |x, _| sign(x), |_, _| 0.0)
            .reads(RuleReads::unary(Reads::Operands, Reads::Nothing))
            .linear(Linearity::PiecewiseLinear)
            .integers(IntegerArgs::KeepClass),
        unary_on(
            Prim::Asin,
            f64::asin,
            |x, _| 1.0 / (1.0 - x * x).sqrt(),
            |x, _| x / (1.0 - x * x).powf(1.5),
            |x| x.abs() <= 1.0 || x.is_nan(),
        )
        .reads(RuleReads::unary(Reads::Operands, Reads::Operands))
        .complex(complex_asin),
        unary_on(
            Prim::Acos,
            f64::acos,
            |x, _| -1.0 / (1.0 - x * x).sqrt(),
            |x, _| -x / (1.0 - x * x).powf(1.5),
            |x| x.abs() <= 1.0 || x.is_nan(),
        )
        .reads(RuleReads::unary(Reads::Operands, Reads::Operands))
        .complex(complex_acos),
        unary(Prim::Atan, f64::atan, |x, _| 1.0 / (1.0 + x * x), |x, _| -2.0 * x / ((1.0 + x * x) * (1.0 + x * x)))
            .reads(RuleReads::unary(Reads::Operands, Reads::Operands))
            .complex(C::atan),
        unary(Prim::Sinh, f64::sinh, |x, _| x.cosh(), |_, y| y).reads(RuleReads::unary(Reads::Operands, Reads::Result)).holomorphic(
            C::sinh,
            |w, _| w.cosh(),
            |_, z| z,
        ),
        unary(Prim::Cosh, f64::cosh, |x, _| x.sinh(), |_, y| y).reads(RuleReads::unary(Reads::Operands, Reads::Result)).holomorphic(
            C::cosh,
            |w, _| w.sinh(),
            |_, z| z,
        ),
        unary(Prim::Tanh, f64::tanh, |_, y| 1.0 - y * y, |_, y| -2.0 * y * (1.0 - y * y))
            .reads(RuleReads::unary(Reads::Result, Reads::Result))
            .holomorphic(C::tanh, |_, z| -(z * z) + 1.0, |_, z| z * (-(z * z) + 1.0) * -2.0),
        unary(Prim::Asinh, asinh, |x, _| 1.0 / (x * x + 1.0).sqrt(), |x, _| -x / (x * x + 1.0).powf(1.5))
            .reads(RuleReads::unary(Reads::Operands, Reads::Operands))
            .complex(C::asinh),
        unary_on(
            Prim::Acosh,
            f64::acosh,
            |x, _| 1.0 / (x * x - 1.0).sqrt(),
            |x, _| -x / (x * x - 1.0).powf(1.5),
            |x| x >= 1.0 || x.is_nan(),
        )
        .reads(RuleReads::unary(Reads::Operands, Reads::Operands))
        .complex(complex_acosh),
        unary_on(
            Prim::Atanh,
            f64::atanh,
            |x, _| 1.0 / (1.0 - x * x),
            |x, _| 2.0 * x / ((1.0 - x * x) * (1.0 - x * x)),
            |x| x.abs() <= 1.0 || x.is_nan(),
        )
        .reads(RuleReads::unary(Reads::Operands, Reads::Operands))
        .complex(complex_atanh),
        piecewise_constant(Prim::Floor, f64::floor).integers(IntegerArgs::KeepClass).complex(|z| C::new(z.re.floor(), z.im.floor())),
        piecewise_constant(Prim::Ceil, f64::ceil).integers(IntegerArgs::KeepClass).complex(|z| C::new(z.re.ceil(), z.im.ceil())),
        piecewise_constant(Prim::Round, round_half_away).integers(IntegerArgs::KeepClass).complex(|z| C::new(z.re.round(), z.im.round())),
        piecewise_constant(Prim::Fix, f64::trunc).integers(IntegerArgs::KeepClass).complex(|z| C::new(z.re.trunc(), z.im.trunc())),
        piecewise_constant(Prim::Sign, sign)
            .integers(IntegerArgs::KeepClass)
            .complex(|z| if z.re == 0.0 && z.im == 0.0 { z } else { z / z.norm() }),
        binary!(Prim::Plus, |a, b| a + b, |_, _, _| (1.0, 1.0), linear).linear(Linearity::Additive).integers(IntegerArgs::KeepClass),
        binary!(Prim::Minus, |a, b| a - b, |_, _, _| (1.0, -1.0), linear).linear(Linearity::Additive).integers(IntegerArgs::KeepClass),
        binary!(Prim::Times, |a, b| a * b, |a, b, _| (b, a), |_, _, _| (0.0, 1.0, 0.0))
            .linear(Linearity::Bilinear)
            .integers(IntegerArgs::KeepClass),
        binary!(Prim::Rdivide, |a, b| a / b, |_, b, z| (1.0 / b, -z / b), |_, b, z| (0.0, -1.0 / (b * b), 2.0 * z / (b * b)))
            .reads(RuleReads::binary(Reads::Operands, Reads::Both, Reads::Both))
            .linear(Linearity::Numerator)
            .integers(IntegerArgs::KeepClass),
        binary!(Prim::Ldivide, |a, b| b / a, |a, _, z| (-z / a, 1.0 / a), |a, _, z| (2.0 * z / (a * a), -1.0 / (a * a), 0.0))
            .reads(RuleReads::binary(Reads::Both, Reads::Operands, Reads::Both))
            .linear(Linearity::Denominator)
            .integers(IntegerArgs::KeepClass),
        binary!(Prim::Power, power, power_partials, power_second, Some(power_is_complex))
            .reads(RuleReads::binary(Reads::Operands, Reads::Both, Reads::Both))
            .integers(IntegerArgs::KeepClass),
        binary!(
            Prim::Atan2,
            f64::atan2,
            |a, b, _| {
                let r = a * a + b * b;
                (b / r, -a / r)
            },
            |a, b, _| {
                let r2 = (a * a + b * b) * (a * a + b * b);
                (-2.0 * a * b / r2, (a * a - b * b) / r2, 2.0 * a * b / r2)
            }
        )
        .reads(RuleReads::binary(Reads::Operands, Reads::Operands, Reads::Operands)),
        binary!(Prim::Hypot, f64::hypot, |a, b, z| (a / z, b / z), |a, b, z| {
            let z3 = z * z * z;
            (b * b / z3, -a * b / z3, a * a / z3)
        })
        .reads(RuleReads::binary(Reads::Both, Reads::Both, Reads::Both)),
        predicate(Prim::Eq, |a, b| a == b).integers(IntegerArgs::ClassFree),
        predicate(Prim::Ne, |a, b| a != b).integers(IntegerArgs::ClassFree),
        predicate(Prim::Lt, |a, b| a < b).integers(IntegerArgs::ClassFree),
        predicate(Prim::Le, |a, b| a <= b).integers(IntegerArgs::ClassFree),
        predicate(Prim::Gt, |a, b| a > b).integers(IntegerArgs::ClassFree),
        predicate(Prim::Ge, |a, b| a >= b).integers(IntegerArgs::ClassFree),
        predicate(Prim::And, |a, b| a != 0.0 && b != 0.0).integers(IntegerArgs::ClassFree),
        predicate(Prim::Or, |a, b| a != 0.0 || b != 0.0).integers(IntegerArgs::ClassFree),
    ]
}

pub(super) fn numeric<'v>(name: &str, v: &'v Value) -> Result<Cow<'v, Array<f64>>> {
    v.numeric().ok_or_else(|| runtime(format!("{name}: wrong type argument '{}'", v.class_name())))
}

pub(super) fn eval_unary(prim: Prim, f: fn(f64) -> f64, domain: Option<fn(f64) -> bool>, args: &[&Value]) -> Result<Value> {
    super::check_arity(prim.name(), args, 1, 1)?;
    if let Some(s) = super::sparse::elementwise(prim, args) {
        return Ok(Value::Sparse(s?));
    }
    let x = numeric(prim.name(), args[0])?;
    if let Some(complex) = outside_domain(prim, &x, f, domain) {
        return complex;
    }
    let mut data = buffers::take(x.data.len());
    data.extend(x.data.iter().map(|&v| f(v)));
    Ok(Value::Double(Array::new(buffers::dims(&x.dims), data)))
}

/// Octave's (complex) result of a unary function when an element of `x` is outside its real domain.
fn outside_domain(prim: Prim, x: &Array<f64>, f: fn(f64) -> f64, domain: Option<fn(f64) -> bool>) -> Option<Result<Value>> {
    let inside = domain?;
    if x.data.iter().all(|&v| inside(v)) {
        return None;
    }
    let complex = super::complex::out_of_domain(prim, x, inside, f);
    Some(complex.ok_or_else(|| {
        Diagnostic::new(ErrorKind::Unsupported, format!("{}: Octave's result is complex for these arguments", prim.name()))
            .with_hint("msad computes this function's real values only; keep the arguments where it is real")
    }))
}

/// Result dims of implicit expansion (each dim equal, or 1 in one operand).
pub fn broadcast_dims(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    broadcast_shape(a, b).map(|dims| dims.to_vec())
}

/// `broadcast_dims` kept inline, for the operations that only read it.
pub(super) fn broadcast_shape(a: &[usize], b: &[usize]) -> Option<Dims> {
    let dim = |d: &[usize], i: usize| d.get(i).copied().unwrap_or(1);
    let extents = (0..a.len().max(b.len())).map(|i| match (dim(a, i), dim(b, i)) {
        (x, y) if x == y || y == 1 => Some(x),
        (1, y) => Some(y),
        _ => None,
    });
    let dims: Dims = extents.collect::<Option<Dims>>()?;
    // Trailing singleton dims beyond the second dropped, as `normalize_dims` does.
    let kept = dims.len() - dims[2.min(dims.len())..].iter().rev().take_while(|&&d| d == 1).count();
    if kept < 2 {
        return Some(normalize_dims(dims[..kept].to_vec()).into_iter().collect());
    }
    Some(dims[..kept].iter().copied().collect())
}

/// For each operand, which of its elements each output element reads. Every caller goes on to make
/// the expanded result: one too large for memory stops the run here (`memory::OutOfMemory`).
pub fn row_maps(a: &[usize], b: &[usize], out: &[usize]) -> (RowMap, RowMap) {
    crate::value::memory::ensure_dims(out, size_of::<f64>());
    (row_map(a, out), row_map(b, out))
}

fn row_map(dims: &[usize], out: &[usize]) -> RowMap {
    let numel: usize = dims.iter().product();
    if same_dims(dims, out) {
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

/// Whether `dims` normalised is `out` (without building the normalised copy on every operation).
fn same_dims(dims: &[usize], out: &[usize]) -> bool {
    if dims.len() < 2 {
        return normalize_dims(dims.to_vec()) == out;
    }
    let trailing_ones = dims[2..].iter().rev().take_while(|&&d| d == 1).count();
    dims[..dims.len() - trailing_ones] == *out
}

/// Two operands of an elementwise operation brought to a common size by implicit expansion.
pub struct Expanded<'v> {
    a: Cow<'v, Array<f64>>,
    b: Cow<'v, Array<f64>>,
    dims: Dims,
    maps: (RowMap, RowMap),
}

fn expand<'v>(prim: Prim, args: &[&'v Value]) -> Result<Expanded<'v>> {
    let name = prim.name();
    super::check_arity(name, args, 2, 2)?;
    let (a, b) = (numeric(name, args[0])?, numeric(name, args[1])?);
    let dims = broadcast_shape(&a.dims, &b.dims).ok_or_else(|| nonconformant(&octave_operator(prim), &a.dims, &b.dims))?;
    let maps = row_maps(&a.dims, &b.dims, &dims);
    Ok(Expanded { a, b, dims, maps })
}

pub fn dims_text(dims: &[usize]) -> String {
    dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x")
}

/// Octave's error for operands whose sizes do not fit, `what` naming the operation as Octave does.
pub fn nonconformant(what: &str, a: &[usize], b: &[usize]) -> Diagnostic {
    runtime(format!("{what}: nonconformant arguments (op1 is {}, op2 is {})", dims_text(a), dims_text(b)))
        .with_identifier("Octave:nonconformant-args")
}

/// How Octave's nonconformance error names an elementwise operator.
fn octave_operator(prim: Prim) -> String {
    let name = prim.name();
    match prim {
        Prim::Plus => "operator +".into(),
        Prim::Minus => "operator -".into(),
        Prim::Times => "product".into(),
        Prim::Rdivide | Prim::Ldivide => "quotient".into(),
        Prim::Power => "operator .^".into(),
        Prim::Eq | Prim::Ne | Prim::Lt | Prim::Le | Prim::Gt | Prim::Ge | Prim::And | Prim::Or => format!("mx_el_{name}"),
        _ => name.into(),
    }
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

/// `f` over the expanded pairs; one collecting loop per map kind (no per-element capacity checks).
pub(super) fn zip_with(e: &Expanded, f: impl Fn(f64, f64) -> f64) -> Array<f64> {
    zip_into(e, f, buffers::take(e.dims.iter().product()))
}

/// `zip_with` into the empty vector `data`.
fn zip_into<T: Clone>(e: &Expanded, f: impl Fn(f64, f64) -> T, mut data: Vec<T>) -> Array<T> {
    let (a, b) = (&e.a.data[..], &e.b.data[..]);
    match (&e.maps.0, &e.maps.1) {
        (RowMap::Identity, RowMap::Identity) => data.extend(a.iter().zip(b).map(|(&x, &y)| f(x, y))),
        (RowMap::Identity, RowMap::Scalar) => data.extend(a.iter().map(|&x| f(x, b[0]))),
        (RowMap::Scalar, RowMap::Identity) => data.extend(b.iter().map(|&y| f(a[0], y))),
        (ma, mb) => data.extend((0..e.dims.iter().product()).map(|k| f(a[ma.source(k)], b[mb.source(k)]))),
    }
    Array::new(buffers::dims(&e.dims), data)
}

pub(super) fn eval_binary(
    prim: Prim,
    f: fn(f64, f64) -> f64,
    complex: Option<fn(f64, f64) -> bool>,
    args: &[&Value],
) -> Result<Vec<Value>> {
    Ok(vec![eval_pairs(prim, |e| zip_with(e, f), complex, args)?])
}

/// A table entry's binary kernel: `pairs` computes the result from the expanded operands.
pub(super) fn eval_pairs(
    prim: Prim,
    pairs: impl Fn(&Expanded) -> Array<f64>,
    complex: Option<fn(f64, f64) -> bool>,
    args: &[&Value],
) -> Result<Value> {
    if let Some(s) = super::sparse::elementwise(prim, args) {
        return Ok(Value::Sparse(s?));
    }
    let e = expand(prim, args)?;
    if let Some(is_complex) = complex {
        let mut any_complex = false;
        for_each_pair(&e, |_, x, y| any_complex |= is_complex(x, y));
        if any_complex {
            return super::complex::real_power(args[0], args[1]);
        }
    }
    Ok(Value::Double(pairs(&e)))
}

/// `own[k] = f(own[k], other[map(k)])`, the operands swapped when `own` is the second (`position` 1):
/// a binary kernel writing into the buffer of an operand read for the last time, which has the result's
/// shape.
fn update_with(own: &mut [f64], position: usize, other: &[f64], map: &RowMap, f: impl Fn(f64, f64) -> f64) {
    let g = |x: f64, y: f64| if position == 0 { f(x, y) } else { f(y, x) };
    match map {
        RowMap::Identity => own.iter_mut().zip(other).for_each(|(o, &y)| *o = g(*o, y)),
        RowMap::Scalar => own.iter_mut().for_each(|o| *o = g(*o, other[0])),
        RowMap::Gather(m) => own.iter_mut().zip(m).for_each(|(o, &i)| *o = g(*o, other[i])),
    }
}

/// `eval_pairs` written into `own`, operand `position`, of the result's shape (see `update_with`).
pub(super) fn eval_binary_into(
    prim: Prim,
    update: fn(&mut [f64], usize, &[f64], &RowMap),
    complex: Option<fn(f64, f64) -> bool>,
    mut own: Array<f64>,
    position: usize,
    other_value: &Value,
) -> Result<Value> {
    let other = numeric(prim.name(), other_value)?;
    let map = row_map(&other.dims, &own.dims);
    if let Some(is_complex) = complex {
        let pair = |k: usize, x: f64| if position == 0 { (x, other.data[map.source(k)]) } else { (other.data[map.source(k)], x) };
        if own.data.iter().enumerate().any(|(k, &x)| {
            let (a, b) = pair(k, x);
            is_complex(a, b)
        }) {
            let own = Value::Double(own);
            let (a, b) = if position == 0 { (&own, other_value) } else { (other_value, &own) };
            return super::complex::real_power(a, b);
        }
    }
    update(&mut own.data, position, &other.data, &map);
    Ok(Value::Double(own))
}

/// `eval_unary` written into `own`, the operand read for the last time.
pub(super) fn eval_unary_into(prim: Prim, f: fn(f64) -> f64, domain: Option<fn(f64) -> bool>, mut own: Array<f64>) -> Result<Value> {
    if let Some(complex) = outside_domain(prim, &own, f, domain) {
        return complex;
    }
    own.data.iter_mut().for_each(|v| *v = f(*v));
    Ok(Value::Double(own))
}

pub(super) fn eval_predicate(prim: Prim, f: fn(f64, f64) -> bool, args: &[&Value]) -> Result<Value> {
    let e = expand(prim, args)?;
    let logical_operands = matches!(prim, Prim::And | Prim::Or);
    if logical_operands && e.a.data.iter().chain(&e.b.data).any(|x| x.is_nan()) {
        return Err(runtime("invalid conversion from NaN to logical value"));
    }
    Ok(Value::Logical(zip_into(&e, f, Vec::new())))
}

/// The derivative block of an operand read for the last time, at `position` among the operands, with
/// the result's shape: an elementwise rule writes the result's block into it (`combine_into`).
pub struct Reused {
    pub position: usize,
    pub block: DenseDeriv,
}

pub(super) fn forward_unary(df: fn(f64, f64) -> f64, fw: &Forward, reused: Option<Reused>) -> Result<Deriv> {
    let x = numeric("", fw.inputs[0])?;
    let y = numeric("", fw.output)?;
    let mut coefs = buffers::take(x.data.len());
    coefs.extend(x.data.iter().zip(&y.data).map(|(&x, &y)| df(x, y)));
    let deriv = match reused {
        Some(own) => combine_into((Coef::Each(&coefs), own.block), None),
        None => combine(&[(&coefs, fw.derivs[0], &RowMap::Identity)], coefs.len()),
    };
    buffers::give(coefs);
    Ok(deriv)
}

/// Forward rule of the table's elementwise binary primitive `name`. Sums, differences and products take
/// their coefficients from constants or from the other operand, and a power with a constant exponent
/// needs no logarithm: no per-element partials for those.
pub(super) fn forward_elementwise(
    prim: Prim,
    partials: fn(f64, f64, f64) -> (f64, f64),
    fw: &Forward,
    reused: Option<Reused>,
) -> Result<Deriv> {
    let e = expand(prim, fw.inputs)?;
    let active = |k: usize| !fw.derivs[k].is_zero() || reused.as_ref().is_some_and(|r| r.position == k);
    let given = match prim {
        Prim::Plus => Some((Coef::Same(1.0), Coef::Same(1.0))),
        Prim::Minus => Some((Coef::Same(1.0), Coef::Same(-1.0))),
        Prim::Times => operand_coef(&e.b.data, &e.maps.1).zip(operand_coef(&e.a.data, &e.maps.0)),
        _ => None,
    };
    if let Some((ca, cb)) = given {
        return Ok(combine_operands([Some(ca), Some(cb)], &e, fw, reused));
    }
    let (ca, cb) = match prim == Prim::Power && !active(1) {
        true => (zip_with(&e, power_base_partial).data, Vec::new()),
        false => expanded_partials(partials, &e, fw, (active(0), active(1)))?,
    };
    let deriv = combine_operands([computed(&ca, active(0)), computed(&cb, active(1))], &e, fw, reused);
    buffers::give(ca);
    buffers::give(cb);
    Ok(deriv)
}

/// An operand's values as the coefficient of the other operand's term of a product, when no gather is
/// needed.
fn operand_coef<'a>(data: &'a [f64], map: &RowMap) -> Option<Coef<'a>> {
    match map {
        RowMap::Identity => Some(Coef::Each(data)),
        RowMap::Scalar => Some(Coef::Same(data[0])),
        RowMap::Gather(_) => None,
    }
}

pub(super) fn forward_binary(prim: Prim, partials: fn(f64, f64, f64) -> (f64, f64), fw: &Forward) -> Result<Deriv> {
    let e = expand(prim, fw.inputs)?;
    let active = (!fw.derivs[0].is_zero(), !fw.derivs[1].is_zero());
    let (ca, cb) = expanded_partials(partials, &e, fw, active)?;
    let deriv = combine_operands([computed(&ca, active.0), computed(&cb, active.1)], &e, fw, None);
    buffers::give(ca);
    buffers::give(cb);
    Ok(deriv)
}

/// Computed partials as a term's coefficient, for an active operand.
fn computed(partials: &[f64], active: bool) -> Option<Coef<'_>> {
    active.then_some(Coef::Each(partials))
}

/// The partials at every element, for the operands that carry a derivative (`active`; empty for the
/// others).
fn expanded_partials(
    partials: fn(f64, f64, f64) -> (f64, f64),
    e: &Expanded,
    fw: &Forward,
    active: (bool, bool),
) -> Result<(Vec<f64>, Vec<f64>)> {
    let z = numeric("", fw.output)?;
    let n = z.data.len();
    let (mut ca, mut cb) = (buffers::take(n * active.0 as usize), buffers::take(n * active.1 as usize));
    for_each_pair(e, |k, x, y| {
        let (da, db) = partials(x, y, z.data[k]);
        if active.0 {
            ca.push(da);
        }
        if active.1 {
            cb.push(db);
        }
    });
    Ok((ca, cb))
}

/// `sum_k coefs[k] * d_k` over the operands' terms (None: no term), into the reused block when there is
/// one.
fn combine_operands(coefs: [Option<Coef>; 2], e: &Expanded, fw: &Forward, reused: Option<Reused>) -> Deriv {
    let maps = [&e.maps.0, &e.maps.1];
    let n = e.dims.iter().product();
    match reused {
        Some(Reused { position, block }) => {
            let own = coefs[position].expect("the reused operand is active");
            let other = 1 - position;
            combine_into((own, block), coefs[other].map(|c| (c, fw.derivs[other], maps[other])))
        }
        None => {
            let terms: Vec<(Coef, &Deriv, &RowMap)> = (0..2).filter_map(|k| coefs[k].map(|c| (c, fw.derivs[k], maps[k]))).collect();
            combine_terms(&terms, n)
        }
    }
}
