//! Special functions: the error function family, gamma, psi, beta, the incomplete gamma and beta
//! functions, the exponential integral, Bessel and Airy functions and the associated Legendre
//! functions, each with its first and second derivatives in its continuous arguments.
//!
//! One-argument functions are elementwise kernels. Two-argument ones (`Pair`) are elementwise with
//! implicit expansion and may have a constant operand: an order (Bessel), a kind (`airy`, `psi`) or a
//! shape parameter (`gammainc`) in which msad has no derivative; a derivative reaching it is
//! `msad:notDifferentiable`. Arguments where Octave's result is complex, or where msad would compute
//! a different value than Octave's, are `msad:unsupported` errors, never another real value.

mod bessel;
mod functions;
mod incomplete;
mod legendre;

use super::elementwise::{forward_binary, numeric};
use super::second_order::SecondOrder;
use super::{Forward, Hessian, Kernel, PatternRule, Prim, Primitive, Reads, RuleReads, general};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::Deriv;
use crate::value::{Array, Value};
use bessel::Kind;
use functions::{gaussian_slope, polygamma};

primitive_names! {
    Erfc = "erfc",
    Erfcx = "erfcx",
    Erfinv = "erfinv",
    Erfcinv = "erfcinv",
    Gamma = "gamma",
    Gammaln = "gammaln",
    Lgamma = "lgamma",
    Psi = "psi",
    Beta = "beta",
    Betaln = "betaln",
    Expint = "expint",
    Besselj = "besselj",
    Bessely = "bessely",
    Besseli = "besseli",
    Besselk = "besselk",
    Airy = "airy",
}

/// The record of a `Pair`: elementwise, with its second partials as the Hessian's term.
macro_rules! pair {
    ($spec:ident) => {
        general($spec.prim, |args, _| eval_pair(&$spec, args), |fw| forward_pair(&$spec, fw))
            .pattern(PatternRule::Structural)
            .hessian(Hessian::Own(|_, taped| second_order_pair(&$spec, taped)))
    };
}

/// The record of a function with an optional leading kind (`psi(k, x)`, `airy(k, z)`): one argument is
/// kind 0, whose second derivative in the argument is `curvature(x, f(x))`.
macro_rules! with_kind {
    ($spec:ident, $curvature:expr) => {
        general($spec.prim, |args, _| eval_pair(&$spec, &with_default_kind($spec.prim, args)?), |fw| forward_with_kind(&$spec, fw))
            .pattern(PatternRule::Structural)
            .hessian(Hessian::Own(|operands, taped| match operands.len() {
                1 => Ok(SecondOrder::Unary($curvature)),
                _ => second_order_pair(&$spec, taped),
            }))
    };
}

pub(super) fn entries() -> Vec<Primitive> {
    let mut entries = vec![
        // erfc' = -erf', erfc'' = 2x erf'.
        unary(Prim::Erfc, libm::erfc, |x, _| -gaussian_slope(x), |x, _| 2.0 * x * gaussian_slope(x), None),
        // erfcx' = 2x erfcx - 2/sqrt(pi), erfcx'' = 2 erfcx + 2x erfcx'.
        unary(Prim::Erfcx, puruspe::erfcx, erfcx_slope, |x, y| 2.0 * y + 2.0 * x * erfcx_slope(x, y), None),
        // erfinv' = sqrt(pi)/2 exp(y^2) = 1 / erf'(y), erfinv'' = 2 y erfinv'^2.
        unary(Prim::Erfinv, functions::erfinv, |_, y| 1.0 / gaussian_slope(y), |_, y| 2.0 * y / gaussian_slope(y).powi(2), None),
        unary(Prim::Erfcinv, functions::erfcinv, |_, y| -1.0 / gaussian_slope(y), |_, y| 2.0 * y / gaussian_slope(y).powi(2), None),
        // gamma' = gamma psi, gamma'' = gamma (psi^2 + psi1).
        unary(Prim::Gamma, functions::gamma, |x, y| y * polygamma(0, x), |x, y| y * (polygamma(0, x).powi(2) + polygamma(1, x)), None),
        // (log|gamma|)' = psi, '' = psi1.
        unary(Prim::Gammaln, functions::gammaln, |x, _| polygamma(0, x), |x, _| polygamma(1, x), Some(gammaln_is_real)),
        unary(Prim::Lgamma, functions::gammaln, |x, _| polygamma(0, x), |x, _| polygamma(1, x), Some(gammaln_is_real)),
        // E1' = -exp(-x)/x, E1'' = exp(-x) (x + 1)/x^2.
        unary(
            Prim::Expint,
            functions::expint,
            |x, _| -(-x).exp() / x,
            |x, _| (-x).exp() * (x + 1.0) / (x * x),
            Some(|x| x >= 0.0 || x.is_nan()),
        ),
        with_kind!(PSI, |x, _| polygamma(2, x)),
        // Ai'' = z Ai, Bi'' = z Bi.
        with_kind!(AIRY, |x, y| x * y),
        incomplete::betainc_entry(),
    ];
    entries.extend([pair!(BESSELJ), pair!(BESSELY), pair!(BESSELI), pair!(BESSELK), pair!(BETA), pair!(BETALN)]);
    entries.push(incomplete::gammainc_entry());
    entries.push(legendre::entry());
    entries
}

fn unary(prim: Prim, f: fn(f64) -> f64, df: fn(f64, f64) -> f64, d2f: fn(f64, f64) -> f64, domain: Option<fn(f64) -> bool>) -> Primitive {
    Primitive::new(prim, Kernel::Unary { f, df: Some(df), d2f, domain }).reads(RuleReads::unary(Reads::Both, Reads::Both))
}

fn erfcx_slope(x: f64, y: f64) -> f64 {
    2.0 * x * y - std::f64::consts::FRAC_2_SQRT_PI
}

/// Where Octave's `gammaln` is real (elsewhere log|gamma| + i pi: msad refuses it).
fn gammaln_is_real(x: f64) -> bool {
    !functions::gammaln_is_complex(x)
}

/// An elementwise function of two operands with implicit expansion, `f(a, b)`; its partials and second
/// partials at `(a, b, f)` (those of a constant operand are never read).
pub(super) struct Pair {
    prim: Prim,
    f: fn(f64, f64) -> f64,
    partials: fn(f64, f64, f64) -> (f64, f64),
    second: fn(f64, f64, f64) -> (f64, f64, f64),
    /// The operand that is an order, a kind or a shape parameter, and what it is called.
    constant: Option<(usize, &'static str)>,
    /// Refuses operands where msad does not compute Octave's value.
    check: fn(&Array<f64>, &Array<f64>) -> Result<()>,
    /// Equal sizes or scalars, as Octave's `common_size` (otherwise implicit expansion).
    common_size: bool,
}

static ZERO_KIND: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| Value::scalar(0.0));

/// `f(x)` as `f(0, x)`.
fn with_default_kind<'v>(prim: Prim, args: &[&'v Value]) -> Result<Vec<&'v Value>> {
    super::check_arity(prim.name(), args, 1, 2)?;
    Ok(if args.len() == 1 { vec![&ZERO_KIND, args[0]] } else { args.to_vec() })
}

fn forward_with_kind(spec: &Pair, fw: &Forward) -> Result<Deriv> {
    let inputs = with_default_kind(spec.prim, fw.inputs)?;
    let derivs: Vec<&Deriv> = if fw.derivs.len() == 1 { vec![&Deriv::Zero, fw.derivs[0]] } else { fw.derivs.to_vec() };
    forward_pair(spec, &Forward { inputs: &inputs, derivs: &derivs, output: fw.output })
}

pub(super) fn eval_pair(spec: &Pair, args: &[&Value]) -> Result<Vec<Value>> {
    let name = spec.prim.name();
    super::check_arity(name, args, 2, 2)?;
    let (a, b) = (numeric(name, args[0])?, numeric(name, args[1])?);
    if spec.common_size && a.numel() != 1 && b.numel() != 1 && a.dims != b.dims {
        return Err(super::runtime(format!("{name}: all inputs must be of common size or scalars")));
    }
    (spec.check)(&a, &b)?;
    super::elementwise::eval_binary(spec.prim, spec.f, None, args)
}

pub(super) fn forward_pair(spec: &Pair, fw: &Forward) -> Result<Deriv> {
    if let Some((k, what)) = spec.constant.filter(|&(k, _)| !fw.derivs[k].is_zero()) {
        return Err(constant_operand(spec.prim, k, what));
    }
    forward_binary(spec.prim, spec.partials, fw)
}

pub(super) fn second_order_pair(spec: &Pair, taped: &[bool]) -> Result<SecondOrder> {
    if let Some((k, what)) = spec.constant.filter(|&(k, _)| taped.get(k) == Some(&true)) {
        return Err(constant_operand(spec.prim, k, what));
    }
    Ok(SecondOrder::Binary { cross_only: false, second: spec.second })
}

/// A derivative reaching an operand msad differentiates in no direction.
pub(super) fn constant_operand(prim: Prim, k: usize, what: &str) -> Diagnostic {
    let name = prim.name();
    Diagnostic::new(
        ErrorKind::NotDifferentiable,
        format!("msad has no derivative of '{name}' in its argument {} ({what}), and it depends on x", k + 1),
    )
    .with_hint(format!("keep the {what} of {name} constant (computed outside the differentiated function)"))
}

/// Octave returns a complex value (or one msad does not reproduce) for these operands.
pub(super) fn unsupported(name: &str, what: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("{name}: {what}")).with_hint(
        "msad computes the real values Octave gives; keep the arguments in that range or compute this outside the differentiated function",
    )
}

fn all(a: &Array<f64>, ok: impl Fn(f64) -> bool) -> bool {
    a.data.iter().all(|&v| ok(v))
}

/// The `Pair` of a Bessel function of this kind, differentiated in its argument (the order is constant).
macro_rules! bessel_pair {
    ($prim:expr, $kind:expr, $largest:expr) => {
        Pair {
            prim: $prim,
            f: |nu, x| bessel::bessel($kind, nu, x),
            partials: |nu, x, _| (f64::NAN, bessel::bessel_slope($kind, nu, x)),
            second: |nu, x, _| (f64::NAN, f64::NAN, bessel::bessel_curvature($kind, nu, x)),
            constant: Some((0, "order NU")),
            check: |nu, x| check_bessel($prim, nu, x, $largest),
            common_size: false,
        }
    };
}

/// Octave's Bessel functions are complex at negative arguments (and at NaN and infinite ones, AMOS's
/// conventions); msad evaluates orders up to `MAX_ORDER` and I_nu below its overflow.
fn check_bessel(prim: Prim, nu: &Array<f64>, x: &Array<f64>, largest: f64) -> Result<()> {
    let name = prim.name();
    if !all(x, |v| (0.0..=largest).contains(&v)) {
        let range = if largest < f64::MAX { format!("in [0, {largest}]") } else { "non-negative and finite".into() };
        return Err(unsupported(
            name,
            &format!("msad evaluates arguments X {range} (Octave's value is complex, or an AMOS convention, elsewhere)"),
        ));
    }
    if !all(nu, |v| v.abs() <= bessel::MAX_ORDER) {
        return Err(unsupported(name, &format!("msad evaluates orders NU with |NU| <= {}", bessel::MAX_ORDER)));
    }
    // The derivatives read orders up to 2 beyond NU.
    let largest_order = nu.data.iter().fold(0.0, |m: f64, v| m.max(v.abs())) + 2.0;
    if !all(x, |v| bessel::asymptotic_fits(largest_order, v)) {
        return Err(unsupported(name, "an order too large for the asymptotic expansion at an argument beyond 5000"));
    }
    Ok(())
}

static BESSELJ: Pair = bessel_pair!(Prim::Besselj, Kind::J, f64::MAX);
static BESSELY: Pair = bessel_pair!(Prim::Bessely, Kind::Y, f64::MAX);
static BESSELI: Pair = bessel_pair!(Prim::Besseli, Kind::I, bessel::I_OVERFLOW);
static BESSELK: Pair = bessel_pair!(Prim::Besselk, Kind::K, f64::MAX);

/// `psi(k, x)`: the polygamma function of order k; Octave requires x >= 0 for k > 0.
static PSI: Pair = Pair {
    prim: Prim::Psi,
    f: |k, x| polygamma(k as u32, x),
    partials: |k, x, _| (f64::NAN, polygamma(k as u32 + 1, x)),
    second: |k, x, _| (f64::NAN, f64::NAN, polygamma(k as u32 + 2, x)),
    constant: Some((0, "order K")),
    check: |k, x| {
        if !all(k, |v| v >= 0.0 && v.fract() == 0.0 && v <= 100.0) {
            return Err(unsupported("psi", "K must be an integer in [0, 100]"));
        }
        if k.data.iter().any(|&v| v > 0.0) && !all(x, |v| v >= 0.0 || v.is_nan()) {
            return Err(super::runtime("psi: Z must be non-negative for polygamma (K > 0)"));
        }
        Ok(())
    },
    common_size: false,
};

/// `airy(k, z)`: Ai, Ai', Bi, Bi' for k = 0..3. Slopes: Ai'' = z Ai, (Ai')' = z Ai, and the
/// curvatures (z Ai)' = Ai + z Ai'.
static AIRY: Pair = Pair {
    prim: Prim::Airy,
    f: |k, z| bessel::airy(z)[k as usize],
    partials: |k, z, _| {
        let a = bessel::airy(z);
        let slope = match k as usize {
            0 => a[1],
            1 => z * a[0],
            2 => a[3],
            _ => z * a[2],
        };
        (f64::NAN, slope)
    },
    second: |k, z, _| {
        let a = bessel::airy(z);
        let curvature = match k as usize {
            0 => z * a[0],
            1 => a[0] + z * a[1],
            2 => z * a[2],
            _ => a[2] + z * a[3],
        };
        (f64::NAN, f64::NAN, curvature)
    },
    constant: Some((0, "kind K")),
    check: |k, z| {
        if k.numel() != 1 || ![0.0, 1.0, 2.0, 3.0].contains(&k.data[0]) {
            return Err(super::runtime("airy: K must be an integer value"));
        }
        if !all(z, f64::is_finite) {
            return Err(unsupported(
                "airy",
                "msad evaluates finite arguments Z (Octave's values at Inf and NaN follow AMOS's conventions)",
            ));
        }
        Ok(())
    },
    common_size: false,
};

/// The sign Octave's `real(exp(gammaln(a) + gammaln(b) - gammaln(a + b)))` gives gamma(x): -1 where its
/// gammaln is log|gamma| + i pi.
fn gamma_sign(x: f64) -> f64 {
    if functions::gammaln_is_complex(x) { -1.0 } else { 1.0 }
}

/// `beta(a, b)` as Octave's beta.m computes it, from the logarithms of the gamma functions.
fn beta(a: f64, b: f64) -> f64 {
    let sign = gamma_sign(a) * gamma_sign(b) * gamma_sign(a + b);
    sign * (functions::gammaln(a) + functions::gammaln(b) - functions::gammaln(a + b)).exp()
}

/// d beta / da = beta (psi(a) - psi(a + b)), and in b alike.
static BETA: Pair = Pair {
    prim: Prim::Beta,
    f: beta,
    partials: |a, b, z| {
        let sum = polygamma(0, a + b);
        (z * (polygamma(0, a) - sum), z * (polygamma(0, b) - sum))
    },
    second: |a, b, z| {
        let (sum, sum1) = (polygamma(0, a + b), polygamma(1, a + b));
        let (da, db) = (polygamma(0, a) - sum, polygamma(0, b) - sum);
        (z * (da * da + polygamma(1, a) - sum1), z * (da * db - sum1), z * (db * db + polygamma(1, b) - sum1))
    },
    constant: None,
    check: |_, _| Ok(()),
    common_size: true,
};

/// `betaln(a, b)` = gammaln(a) + gammaln(b) - gammaln(a + b): complex in Octave for negative operands.
static BETALN: Pair = Pair {
    prim: Prim::Betaln,
    f: |a, b| functions::gammaln(a) + functions::gammaln(b) - functions::gammaln(a + b),
    partials: |a, b, _| {
        let sum = polygamma(0, a + b);
        (polygamma(0, a) - sum, polygamma(0, b) - sum)
    },
    second: |a, b, _| {
        let sum1 = polygamma(1, a + b);
        (polygamma(1, a) - sum1, -sum1, polygamma(1, b) - sum1)
    },
    constant: None,
    check: |a, b| {
        let real = |v: f64| v.is_nan() || v > 0.0 || (v == 0.0 && v.is_sign_positive());
        match all(a, real) && all(b, real) {
            true => Ok(()),
            false => Err(unsupported("betaln", "negative arguments (Octave's value is complex)")),
        }
    },
    common_size: true,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beta_matches_octave_at_negative_and_zero_arguments() {
        // Octave 7: beta([-1.5 0 0.5 1 2], 2), beta(-1, 0.5).
        let expected = [4.0 / 3.0, f64::INFINITY, 4.0 / 3.0, 0.5, 1.0 / 6.0];
        for (a, e) in [-1.5, 0.0, 0.5, 1.0, 2.0].into_iter().zip(expected) {
            let b = beta(a, 2.0);
            assert!(b == e || (b - e).abs() <= 1e-14 * e.abs(), "beta({a}, 2) = {b}, Octave {e}");
        }
        assert_eq!(beta(-1.0, 0.5), f64::NEG_INFINITY);
    }
}
