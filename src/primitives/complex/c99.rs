//! C99 Annex G at infinite parts, as the C++ library under Octave computes: products and quotients
//! that recover infinities where the plain formulas give NaN parts (libgcc's `__muldc3`, `__divdc3`),
//! and the limits of the elementary functions where a part is infinite.

use super::super::Prim;
use crate::value::Complex64;
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

type C = Complex64;

/// 1 with the sign of an infinite `v`, 0 with its sign otherwise.
fn unit(v: f64) -> f64 {
    (if v.is_infinite() { 1.0f64 } else { 0.0 }).copysign(v)
}

/// 0 with the sign of a NaN `v`, else `v`.
fn zero_nan(v: f64) -> f64 {
    if v.is_nan() { 0.0f64.copysign(v) } else { v }
}

/// `a * b` (`__muldc3`).
pub(super) fn mul(a: C, b: C) -> C {
    let p = a * b;
    if !(p.re.is_nan() && p.im.is_nan()) {
        return p;
    }
    let (mut x, mut y, mut u, mut v) = (a.re, a.im, b.re, b.im);
    let mut recover = false;
    if x.is_infinite() || y.is_infinite() {
        (x, y, u, v) = (unit(x), unit(y), zero_nan(u), zero_nan(v));
        recover = true;
    }
    if u.is_infinite() || v.is_infinite() {
        (u, v, x, y) = (unit(u), unit(v), zero_nan(x), zero_nan(y));
        recover = true;
    }
    if !recover && [a.re * b.re, a.im * b.im, a.re * b.im, a.im * b.re].iter().any(|t| t.is_infinite()) {
        (x, y, u, v) = (zero_nan(x), zero_nan(y), zero_nan(u), zero_nan(v));
        recover = true;
    }
    if !recover {
        return p;
    }
    C::new(f64::INFINITY * (x * u - y * v), f64::INFINITY * (x * v + y * u))
}

/// `a / b` from the quotient `q` of the plain formula (`__divdc3`'s recovery).
pub(super) fn div(a: C, b: C, q: C) -> C {
    if !(q.re.is_nan() && q.im.is_nan()) {
        return q;
    }
    let (x, y, u, v) = (a.re, a.im, b.re, b.im);
    if u == 0.0 && v == 0.0 && (!x.is_nan() || !y.is_nan()) {
        let inf = f64::INFINITY.copysign(u);
        C::new(inf * x, inf * y)
    } else if (x.is_infinite() || y.is_infinite()) && u.is_finite() && v.is_finite() {
        let (x, y) = (unit(x), unit(y));
        C::new(f64::INFINITY * (x * u + y * v), f64::INFINITY * (y * u - x * v))
    } else if (u.is_infinite() || v.is_infinite()) && x.is_finite() && y.is_finite() {
        let (u, v) = (unit(u), unit(v));
        C::new(0.0 * (x * u + y * v), 0.0 * (y * u - x * v))
    } else {
        q
    }
}

/// `i z` and `-i z`, exact (no products with zero parts).
fn times_i(z: C) -> C {
    C::new(-z.im, z.re)
}
fn times_minus_i(z: C) -> C {
    C::new(z.im, -z.re)
}

/// The elementary function `name` at `z` with an infinite part (None: `name`'s formula holds there).
pub(super) fn at_infinity(prim: Prim, z: C) -> Option<C> {
    let (x, y) = (z.re, z.im);
    Some(match prim {
        Prim::Sqrt if y.is_infinite() => C::new(f64::INFINITY, y),
        Prim::Sqrt if x == f64::NEG_INFINITY => C::new(if y.is_nan() { y } else { 0.0 }, f64::INFINITY.copysign(y)),
        Prim::Sqrt => C::new(x, if y.is_nan() { y } else { 0.0f64.copysign(y) }),
        Prim::Tanh if x.is_infinite() => {
            C::new(1.0f64.copysign(x), if y.is_finite() { 0.0f64.copysign((2.0 * y).sin()) } else { 0.0f64.copysign(y) })
        }
        Prim::Tan => times_minus_i(at_infinity(Prim::Tanh, times_i(z))?),
        Prim::Asinh => asinh(z)?,
        Prim::Asin => times_minus_i(asinh(times_i(z))?),
        Prim::Acosh => acosh(z)?,
        Prim::Acos => {
            let w = acosh(z)?;
            // acos z = -i acosh z on the upper half plane, i acosh z on the lower.
            if y.is_sign_negative() { times_i(w) } else { times_minus_i(w) }
        }
        Prim::Atanh => atanh(z)?,
        Prim::Atan => times_minus_i(atanh(times_i(z))?),
        _ => return None,
    })
}

fn asinh(z: C) -> Option<C> {
    let (x, y) = (z.re, z.im);
    Some(match (x.is_infinite(), y.is_infinite()) {
        (true, true) => C::new(x, FRAC_PI_4.copysign(y)),
        (true, false) => C::new(x, if y.is_nan() { y } else { 0.0f64.copysign(y) }),
        (false, true) if x.is_nan() => C::new(f64::INFINITY, x),
        (false, true) => C::new(f64::INFINITY.copysign(x), FRAC_PI_2.copysign(y)),
        (false, false) => return None,
    })
}

fn acosh(z: C) -> Option<C> {
    let (x, y) = (z.re, z.im);
    let angle = match (x.is_infinite(), y.is_infinite()) {
        (false, false) => return None,
        _ if x.is_nan() || y.is_nan() => f64::NAN,
        (true, true) => {
            if x < 0.0 {
                3.0 * FRAC_PI_4
            } else {
                FRAC_PI_4
            }
        }
        (true, false) => {
            if x < 0.0 {
                PI
            } else {
                0.0
            }
        }
        (false, true) => FRAC_PI_2,
    };
    Some(C::new(f64::INFINITY, angle.copysign(y)))
}

fn atanh(z: C) -> Option<C> {
    let (x, y) = (z.re, z.im);
    if !(x.is_infinite() || y.is_infinite()) {
        return None;
    }
    let re = 0.0f64.copysign(x);
    let im = if y.is_nan() && x.is_infinite() { y } else { FRAC_PI_2.copysign(y) };
    Some(C::new(re, im))
}
