//! Complex arithmetic and elementary functions, with the branch cuts and the values at infinite parts
//! (`c99`) Octave's C++ library gives, and the complex results of real functions outside their real domain.

use super::super::{Prim, broadcast_dims, check_arity, row_maps, runtime};
use super::c99;
use crate::diag::Result;
use crate::value::{Array, Complex64, Value};
use std::f64::consts::{FRAC_PI_2, PI};

/// pi / log(2) and pi / log(10) correctly rounded, the imaginary parts of Octave's log2 and log10 of
/// negative reals (the quotients of the rounded constants are one unit lower).
const PI_OVER_LN_2: f64 = 4.532_360_141_827_194;
const PI_OVER_LN_10: f64 = 1.364_376_353_841_841_4;

type C = Complex64;

fn operand<'v>(name: &str, v: &'v Value) -> Result<std::borrow::Cow<'v, Array<C>>> {
    v.complex_parts().ok_or_else(|| runtime(format!("{name}: wrong type argument '{}'", v.class_name())))
}

/// The primitive `name` when it is an elementwise function, an arithmetic operator or a product
/// (None: not one of these).
pub(super) fn eval(prim: Prim, args: &[&Value]) -> Result<Option<Value>> {
    let name = prim.name();
    if let Some(f) = unary(prim) {
        check_arity(name, args, 1, 1)?;
        let at = |z: C| if z.re.is_finite() && z.im.is_finite() { f(z) } else { c99::at_infinity(prim, z).unwrap_or_else(|| f(z)) };
        return Ok(Some(Value::narrowed(operand(name, args[0])?.map(|&z| at(z)))));
    }
    if let Some(f) = real_valued(prim) {
        check_arity(name, args, 1, 1)?;
        return Ok(Some(Value::Double(operand(name, args[0])?.map(|&z| f(z)))));
    }
    if let Some(f) = test(prim) {
        check_arity(name, args, 1, 1)?;
        return Ok(Some(Value::Logical(operand(name, args[0])?.map(|&z| f(z)))));
    }
    // A matrix operation on scalar operands is its elementwise twin.
    let elementwise = match (super::super::elementwise_twin(prim, args), prim) {
        (Some(twin), _) => twin,
        (None, Prim::Mtimes) if args.len() == 2 => return Ok(Some(mtimes(args)?)),
        (None, Prim::Prod | Prim::Cumprod) => return Ok(Some(product(prim, args)?)),
        (None, other) => other,
    };
    let Some(f) = binary(elementwise) else { return Ok(None) };
    check_arity(name, args, 2, 2)?;
    Ok(Some(Value::narrowed(zip(name, args[0], args[1], f)?)))
}

/// An elementwise function's complex kernel: the facet of its record.
fn unary(prim: Prim) -> Option<fn(C) -> C> {
    super::super::get(prim).complex.map(|kernel| kernel.f)
}

fn real_valued(prim: Prim) -> Option<fn(C) -> f64> {
    Some(match prim {
        Prim::Real => |z: C| z.re,
        Prim::Imag => |z: C| z.im,
        Prim::Abs => |z: C| z.norm(),
        Prim::Angle | Prim::Arg => |z: C| z.im.atan2(z.re),
        _ => return None,
    })
}

fn test(prim: Prim) -> Option<fn(C) -> bool> {
    Some(match prim {
        Prim::Isnan => |z: C| z.re.is_nan() || z.im.is_nan(),
        Prim::Isinf => |z: C| z.re.is_infinite() || z.im.is_infinite(),
        Prim::Isfinite => |z: C| z.re.is_finite() && z.im.is_finite(),
        Prim::Logical | Prim::Truth => return None,
        _ => return None,
    })
}

fn binary(prim: Prim) -> Option<fn(C, C) -> C> {
    Some(match prim {
        Prim::Plus => |a: C, b: C| a + b,
        Prim::Minus => |a: C, b: C| a - b,
        Prim::Times => times,
        Prim::Rdivide => divide,
        Prim::Ldivide => |a, b| divide(b, a),
        Prim::Power => power,
        _ => return None,
    })
}

/// `a * b`; a real factor scales each part (keeping signed zeros as Octave's real-complex product).
fn times(a: C, b: C) -> C {
    if a.im == 0.0 {
        C::new(a.re * b.re, a.re * b.im)
    } else if b.im == 0.0 {
        C::new(a.re * b.re, a.im * b.re)
    } else {
        c99::mul(a, b)
    }
}

/// `a / b` as C++'s complex division: a real divisor divides each part (num-complex's general
/// formula would turn 1/0 into NaN parts).
pub(in super::super) fn divide(a: C, b: C) -> C {
    if b.im == 0.0 { C::new(a.re / b.re, a.im / b.re) } else { c99::div(a, b, a / b) }
}

/// `a .^ b` as Octave computes it: integer exponents by repeated products, real ones through the
/// polar form, complex ones through `exp(b log a)`.
fn power(a: C, b: C) -> C {
    if b.im == 0.0 {
        if b.re.fract() == 0.0 && b.re.abs() <= i32::MAX as f64 {
            let n = b.re.abs() as u32;
            let p = integer_power(a, n);
            return if b.re < 0.0 { divide(C::new(1.0, 0.0), p) } else { p };
        }
        if a.im == 0.0 && a.re > 0.0 {
            return C::new(a.re.powf(b.re), 0.0);
        }
        let l = a.ln();
        return C::from_polar((b.re * l.re).exp(), b.re * l.im);
    }
    if a.im == 0.0 && a.re > 0.0 {
        return C::from_polar(a.re.powf(b.re), b.im * a.re.ln());
    }
    if a.re == 0.0 && a.im == 0.0 { C::new(0.0, 0.0) } else { (b * a.ln()).exp() }
}

fn integer_power(mut a: C, mut n: u32) -> C {
    let mut p = C::new(1.0, 0.0);
    while n > 0 {
        if n & 1 == 1 {
            p = c99::mul(p, a);
        }
        n >>= 1;
        if n > 0 {
            a = c99::mul(a, a);
        }
    }
    p
}

/// `f` over two operands with implicit expansion.
fn zip(name: &str, a: &Value, b: &Value, f: fn(C, C) -> C) -> Result<Array<C>> {
    let (a, b) = (operand(name, a)?, operand(name, b)?);
    let dims = broadcast_dims(&a.dims, &b.dims).ok_or_else(|| super::super::elementwise::nonconformant(name, &a.dims, &b.dims))?;
    let (ma, mb) = row_maps(&a.dims, &b.dims, &dims);
    let n: usize = dims.iter().product();
    Ok(Array::new(dims, (0..n).map(|k| f(a.data[ma.source(k)], b.data[mb.source(k)])).collect()))
}

/// The matrix product; N-D operands fold their trailing dimensions into columns, as in Octave. Real
/// factors scale each part (`times`), as Octave's real-complex products.
fn mtimes(args: &[&Value]) -> Result<Value> {
    let folded = |v: &Value| {
        let dims = v.dims();
        (dims[0], dims[1..].iter().product::<usize>())
    };
    let ((m, k), (rows, n)) = (folded(args[0]), folded(args[1]));
    if k != rows {
        return Err(super::super::elementwise::nonconformant("operator *", &[m, k], &[rows, n]));
    }
    let (a, b) = (operand("mtimes", args[0])?, operand("mtimes", args[1])?);
    let mut data = vec![C::new(0.0, 0.0); m * n];
    for j in 0..n {
        for p in 0..k {
            let bpj = b.data[p + k * j];
            for i in 0..m {
                data[i + m * j] += times(a.data[i + m * p], bpj);
            }
        }
    }
    Ok(Value::narrowed(Array::new(vec![m, n], data)))
}

/// `prod` and `cumprod` along a dimension.
fn product(prim: Prim, args: &[&Value]) -> Result<Value> {
    let (name, cumulative) = (prim.name(), prim == Prim::Cumprod);
    let plan = super::super::reduce::plan(prim, args, cumulative)?;
    let z = operand(name, args[0])?;
    let slices = &plan.slices;
    let one = C::new(1.0, 0.0);
    let mut out = vec![one; plan.out_dims.iter().product()];
    for s in 0..slices.count() {
        let mut p = one;
        for k in 0..slices.len {
            let zk = z.data[slices.index(s, k)];
            // cumprod starts from the first element (Octave's loop), prod from 1.
            p = if cumulative && k == 0 { zk } else { c99::mul(p, zk) };
            if cumulative {
                out[slices.index(s, k)] = p;
            }
        }
        if !cumulative {
            out[s] = p;
        }
    }
    Ok(Value::narrowed(Array::new(plan.out_dims, out)))
}

pub(super) fn conj(v: &Value) -> Value {
    match v {
        Value::Complex(z) => Value::Complex(z.map(|z| z.conj())),
        other => other.clone(),
    }
}

/// `angle(x)`, `arg(x)`: `atan2(imag, real)`.
pub(super) fn angle(name: &str, args: &[&Value]) -> Result<Vec<Value>> {
    check_arity(name, args, 1, 1)?;
    // A real argument's angle is pi where its sign bit is set (-0 included), else 0 (NaN included).
    let angle = match args[0] {
        Value::Complex(z) => z.map(|z| z.im.atan2(z.re)),
        real => operand(name, real)?.map(|z| if z.re.is_sign_negative() { PI } else { 0.0 }),
    };
    Ok(vec![Value::Double(angle)])
}

/// The result of the real function `name` on `x`, some of whose elements are outside its real domain,
/// as Octave's real-to-complex mappers give it: the complex function at `x + 0i`, in closed forms.
pub(crate) fn out_of_domain(prim: Prim, x: &Array<f64>, inside: fn(f64) -> bool, f: fn(f64) -> f64) -> Option<Value> {
    let outside: fn(f64) -> C = match prim {
        Prim::Sqrt => |x| C::new(0.0, (-x).sqrt()),
        Prim::Log => |x| C::new((-x).ln(), PI),
        Prim::Log2 => |x| C::new((-x).log2(), PI_OVER_LN_2),
        Prim::Log10 => |x| C::new((-x).log10(), PI_OVER_LN_10),
        Prim::Log1p => |x| C::new((-(1.0 + x)).ln(), PI),
        Prim::Asin => |x| if x > 0.0 { C::new(FRAC_PI_2, -x.acosh()) } else { C::new(-FRAC_PI_2, (-x).acosh()) },
        Prim::Acos => |x| if x > 0.0 { C::new(0.0, x.acosh()) } else { C::new(PI, -(-x).acosh()) },
        Prim::Acosh => |x| if x >= -1.0 { C::new(0.0, x.acos()) } else { C::new((-x).acosh(), PI) },
        Prim::Atanh => |x| C::new((1.0 / x).atanh(), FRAC_PI_2),
        _ => return None,
    };
    Some(Value::narrowed(x.map(|&v| if inside(v) { C::new(f(v), 0.0) } else { outside(v) })))
}

/// `a .^ b` of real operands where some results are complex (a negative base, a fractional exponent).
/// When some results are complex, Octave raises every element as a complex base to a real exponent.
pub(crate) fn real_power(a: &Value, b: &Value) -> Result<Value> {
    Ok(Value::narrowed(zip("power", a, b, |a, b| {
        if a.re > 0.0 {
            return C::new(a.re.powf(b.re), 0.0);
        }
        let log = C::new(a.re, 0.0).ln();
        C::from_polar((b.re * log.re).exp(), b.re * log.im)
    })?))
}
