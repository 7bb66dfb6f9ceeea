//! Scalar special functions: Octave's values at poles and infinities around the C library's `tgamma`,
//! `lgamma` and `erfc`, and the ones msad computes from their series, recurrences and continued
//! fractions (polygamma, the exponential integral, the inverse error functions, Legendre functions).

use std::f64::consts::{FRAC_2_SQRT_PI, PI};

pub const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;

/// `B_2k / (2k)!` for k = 1, 2, ...: the coefficients of the asymptotic series of the polygamma functions.
const BERNOULLI_OVER_FACTORIAL: [f64; 10] = [
    1.0 / 12.0,
    -1.0 / 720.0,
    1.0 / 30240.0,
    -1.0 / 1209600.0,
    1.0 / 47900160.0,
    -691.0 / 1307674368000.0,
    1.0 / 74724249600.0,
    -3617.0 / 10670622842880000.0,
    43867.0 / 5109094217170944000.0,
    -174611.0 / 802857662698291200000.0,
];

/// Octave's `gamma`: +-Inf at +-0, Inf at the negative integers and -Inf, NaN at NaN.
pub fn gamma(x: f64) -> f64 {
    if x == 0.0 {
        return f64::INFINITY.copysign(x);
    }
    if x == f64::NEG_INFINITY || (x < 0.0 && x.fract() == 0.0) {
        return f64::INFINITY;
    }
    libm::tgamma(x)
}

/// Whether Gamma(x) is negative where Octave's `gammaln` is log|Gamma(x)| + i pi (and at -0): a
/// complex result.
pub fn gammaln_is_complex(x: f64) -> bool {
    let negative_interval = x < 0.0 && x.is_finite() && x.fract() != 0.0 && (x.ceil() as i64) % 2 == 0;
    negative_interval || (x == 0.0 && x.is_sign_negative())
}

/// log |Gamma(x)|.
pub fn gammaln(x: f64) -> f64 {
    libm::lgamma(x)
}

/// `tan(pi x)` and `sin(pi x)` of the reduced argument, exact at the integers and half-integers.
fn reduced_pi(x: f64) -> (f64, f64) {
    let r = x - x.round();
    let sign = if x.round().rem_euclid(2.0) == 0.0 { 1.0 } else { -1.0 };
    ((PI * r).tan(), sign * (PI * r).sin())
}

/// `n!` as a double (Inf beyond 170).
fn factorial(n: u32) -> f64 {
    (1..=n).map(f64::from).product()
}

/// The polygamma function psi^(n)(x) (n = 0: digamma) with Octave's conventions: psi(Inf) is
/// -EULER_GAMMA and psi^(n)(0) NaN for n > 0, as Octave 7 returns them; the poles of the digamma
/// function are -Inf. At negative x the reflection formulas give n <= 2 (the derivatives msad needs).
pub fn polygamma(n: u32, x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    match n {
        0 if x == f64::INFINITY => -EULER_GAMMA,
        0 if x == f64::NEG_INFINITY || (x <= 0.0 && x.fract() == 0.0) => f64::NEG_INFINITY,
        _ if x == f64::INFINITY => 0.0,
        _ if x == 0.0 => f64::NAN,
        _ if x > 0.0 => polygamma_positive(n, x),
        _ if x.fract() == 0.0 || x.is_infinite() => f64::NAN,
        0 => {
            let (tan, _) = reduced_pi(x);
            polygamma_positive(0, 1.0 - x) - PI / tan
        }
        1 => {
            let (_, sin) = reduced_pi(x);
            PI * PI / (sin * sin) - polygamma_positive(1, 1.0 - x)
        }
        2 => {
            let (tan, sin) = reduced_pi(x);
            polygamma_positive(2, 1.0 - x) - 2.0 * PI.powi(3) / (tan * sin * sin)
        }
        _ => f64::NAN,
    }
}

/// psi^(n)(x) for x > 0: the recurrence psi^(n)(x) = psi^(n)(x + 1) + (-1)^(n+1) n! / x^(n+1) up to
/// where the asymptotic series converges to double precision.
fn polygamma_positive(n: u32, x: f64) -> f64 {
    let sign = if n.is_multiple_of(2) { -1.0 } else { 1.0 };
    let n_factorial = factorial(n);
    let threshold = 20.0 + f64::from(n);
    let (mut x, mut shifted) = (x, 0.0);
    while x < threshold {
        shifted += n_factorial / x.powi(n as i32 + 1);
        x += 1.0;
    }
    let x2 = x * x;
    let asymptotic = if n == 0 {
        let mut power = 1.0;
        let series: f64 = BERNOULLI_OVER_FACTORIAL
            .iter()
            .enumerate()
            .map(|(k, c)| {
                power /= x2;
                // B_2k / (2k x^2k) = (B_2k / (2k)!) (2k - 1)! / x^2k.
                c * factorial(2 * k as u32 + 1) * power
            })
            .sum();
        x.ln() - 0.5 / x - series
    } else {
        let nf = f64::from(n);
        let (mut rising, mut power) = (1.0, 1.0);
        let series: f64 = BERNOULLI_OVER_FACTORIAL
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let k = k as f64;
                rising *= (nf + 2.0 * k) * (nf + 2.0 * k + 1.0);
                power /= x2;
                c * rising * power
            })
            .sum();
        sign * factorial(n - 1) / x.powi(n as i32) * (1.0 + nf / (2.0 * x) + series)
    };
    asymptotic + sign * shifted
}

/// The exponential integral E1(x) for x >= 0: its power series up to 1, Lentz's continued fraction
/// beyond.
pub fn expint(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x == 0.0 {
        return f64::INFINITY;
    }
    if x <= 1.0 {
        let (mut term, mut sum) = (1.0, 0.0);
        for k in 1..60 {
            term *= -x / f64::from(k);
            sum += term / f64::from(k);
            if term.abs() < f64::EPSILON * sum.abs() {
                break;
            }
        }
        return -EULER_GAMMA - x.ln() - sum;
    }
    if x.is_infinite() {
        return 0.0;
    }
    let tiny = f64::MIN_POSITIVE / f64::EPSILON;
    let (mut b, mut c) = (x + 1.0, 1.0 / tiny);
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..1000 {
        let a = -f64::from(i * i);
        b += 2.0;
        d = 1.0 / (a * d + b);
        c = b + a / c;
        let delta = c * d;
        h *= delta;
        if (delta - 1.0).abs() < f64::EPSILON {
            break;
        }
    }
    h * (-x).exp()
}

/// The x with erfc(x) = z, for z in (0, 1]: Winitzki's approximation refined by Halley's method on
/// erfc (accurate where z is tiny, unlike erf near 1).
fn erfcinv_upper(z: f64) -> f64 {
    const A: f64 = 0.147;
    let log = z.ln() + (2.0 - z).ln();
    let t = 2.0 / (PI * A) + 0.5 * log;
    let mut x = ((t * t - log / A).sqrt() - t).sqrt();
    for _ in 0..4 {
        let residual = libm::erfc(x) - z;
        // f = erfc(x) - z, f' = -2/sqrt(pi) exp(-x^2), f''/f' = -2x.
        let slope = -FRAC_2_SQRT_PI * (-x * x).exp();
        let step = residual / (slope + x * residual);
        x -= step;
        if step.abs() <= f64::EPSILON * x.abs() {
            break;
        }
    }
    x
}

/// Octave's `erfcinv`: Inf at 0, -Inf at 2, NaN outside [0, 2].
pub fn erfcinv(z: f64) -> f64 {
    if z.is_nan() || !(0.0..=2.0).contains(&z) {
        return f64::NAN;
    }
    match z {
        0.0 => f64::INFINITY,
        2.0 => f64::NEG_INFINITY,
        1.0 => 0.0,
        _ if z < 1.0 => erfcinv_upper(z),
        _ => -erfcinv_upper(2.0 - z),
    }
}

/// Octave's `erfinv`: +-Inf at +-1, NaN outside [-1, 1]; Halley's method on erf near 0, on erfc of
/// the exact 1 - |y| elsewhere.
pub fn erfinv(y: f64) -> f64 {
    if y.is_nan() || y.abs() > 1.0 {
        return f64::NAN;
    }
    if y == 0.0 || y.abs() == 1.0 {
        return if y == 0.0 { y } else { f64::INFINITY.copysign(y) };
    }
    if y.abs() > 0.5 {
        return erfcinv_upper(1.0 - y.abs()).copysign(y);
    }
    let mut x = erfcinv_upper(1.0 - y.abs()).copysign(y);
    for _ in 0..3 {
        let residual = libm::erf(x) - y;
        let slope = FRAC_2_SQRT_PI * (-x * x).exp();
        let step = residual / (slope + x * residual);
        x -= step;
        if step.abs() <= f64::EPSILON * x.abs() {
            break;
        }
    }
    x
}

/// `exp(-x^2)` times 2/sqrt(pi): the slope of erf.
pub fn gaussian_slope(x: f64) -> f64 {
    FRAC_2_SQRT_PI * (-x * x).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1e-300)
    }

    #[test]
    fn polygamma_matches_known_values() {
        // psi(1) = -gamma, psi(0.5) = -gamma - 2 log 2, psi1(1) = pi^2/6, psi2(1) = -2 zeta(3).
        assert!(close(polygamma(0, 1.0), -EULER_GAMMA, 1e-15));
        assert!(close(polygamma(0, 0.5), -EULER_GAMMA - 2.0 * 2f64.ln(), 1e-15));
        assert!(close(polygamma(1, 1.0), PI * PI / 6.0, 1e-15));
        assert!(close(polygamma(2, 1.0), -2.0 * 1.202_056_903_159_594_3, 1e-14));
        // Octave's psi(-1.5) and psi(-0.5).
        assert!(close(polygamma(0, -1.5), 0.703_156_640_645_243_5, 1e-14));
        assert!(close(polygamma(0, -0.5), 0.036_489_973_978_576_65, 1e-13));
        // psi1(-0.5) = pi^2 + pi^2/2 ... via psi1(x) + psi1(1 - x) = pi^2 / sin^2(pi x), psi1(1.5) = pi^2/2 - 4.
        assert!(close(polygamma(1, -0.5), PI * PI - (PI * PI / 2.0 - 4.0), 1e-14));
    }

    #[test]
    fn expint_and_inverse_error_functions_match_known_values() {
        // Octave's expint(0.5), expint(1), expint(2).
        assert!(close(expint(0.5), 0.559_773_594_776_160_8, 1e-15));
        assert!(close(expint(1.0), 0.219_383_934_395_520_3, 1e-15));
        assert!(close(expint(2.0), 0.048_900_510_708_061_12, 1e-14));
        for y in [-0.999_999, -0.7, -0.3, 1e-12, 0.2, 0.5, 0.6, 0.95, 1.0 - 1e-12] {
            assert!(close(libm::erf(erfinv(y)), y, 4e-16), "erfinv({y})");
        }
        // erfc's relative condition number at x is 2x^2: one rounding of x moves erfc(x) by that many.
        for z in [1e-300, 1e-20, 0.01, 0.5, 1.3, 1.999] {
            let x = erfcinv(z);
            assert!(close(libm::erfc(x), z, 2e-16 * (2.0 + 2.0 * x * x)), "erfcinv({z})");
        }
    }
}
