//! Bessel functions of real order and a non-negative argument, and the Airy functions. Nonnegative
//! orders come from `puruspe` (Temme's series and Steed's continued fractions) up to an argument of
//! 5000 and from Hankel's asymptotic expansions beyond; negative orders from the reflection formulas.

use std::f64::consts::{FRAC_2_PI, PI};

/// Beyond this argument `puruspe`'s continued fractions take too many steps: asymptotic expansions.
const LARGE_ARGUMENT: f64 = 5000.0;
/// Beyond this argument I_nu overflows (Octave's result is then a complex infinity).
pub const I_OVERFLOW: f64 = 700.0;
/// The largest |order| msad evaluates (Octave's AMOS routines take any; the recurrences here would be slow).
pub const MAX_ORDER: f64 = 1000.0;

/// `(cos(pi nu), sin(pi nu))`, exact at the integers and half-integers.
fn cos_sin_pi(nu: f64) -> (f64, f64) {
    let r = nu.rem_euclid(2.0);
    match r {
        0.0 => (1.0, 0.0),
        0.5 => (0.0, 1.0),
        1.0 => (-1.0, 0.0),
        1.5 => (0.0, -1.0),
        _ => ((PI * r).cos(), (PI * r).sin()),
    }
}

/// Whether the asymptotic expansions converge to double precision at this order and argument.
pub fn asymptotic_fits(nu: f64, x: f64) -> bool {
    x <= LARGE_ARGUMENT || nu * nu < x / 4.0
}

/// Hankel's expansion: `(P, Q)` of J and Y (`alternating`), or the sum for K (not alternating).
fn hankel_series(nu: f64, x: f64, alternating: bool) -> (f64, f64) {
    let mu = 4.0 * nu * nu;
    let (mut p, mut q, mut term) = (1.0, 0.0, 1.0);
    for k in 1..60 {
        let odd = f64::from(2 * k - 1);
        term *= (mu - odd * odd) / (f64::from(k) * 8.0 * x);
        if alternating {
            match k % 4 {
                1 => q += term,
                2 => p -= term,
                3 => q -= term,
                _ => p += term,
            }
        } else {
            p += term;
        }
        if term.abs() < f64::EPSILON * p.abs() {
            break;
        }
    }
    (p, q)
}

/// `(J_nu(x), Y_nu(x))` for nu >= 0 and large x.
fn hankel_jy(nu: f64, x: f64) -> (f64, f64) {
    let (p, q) = hankel_series(nu, x, true);
    // omega = x - (nu/2 + 1/4) pi, with x's own correctly reduced cosine and sine.
    let (cos_phi, sin_phi) = cos_sin_pi(nu / 2.0 + 0.25);
    let (cos_x, sin_x) = (x.cos(), x.sin());
    let (cos_w, sin_w) = (cos_x * cos_phi + sin_x * sin_phi, sin_x * cos_phi - cos_x * sin_phi);
    let scale = (FRAC_2_PI / x).sqrt();
    (scale * (p * cos_w - q * sin_w), scale * (p * sin_w + q * cos_w))
}

/// `(J_nu(x), Y_nu(x))` for x > 0 finite, any real order.
pub fn jy(nu: f64, x: f64) -> (f64, f64) {
    let mu = nu.abs();
    let (j, y) = if x > LARGE_ARGUMENT {
        hankel_jy(mu, x)
    } else {
        let (j, y, _, _) = puruspe::besseljy(mu, x);
        (j, y)
    };
    if nu >= 0.0 {
        return (j, y);
    }
    let (c, s) = cos_sin_pi(mu);
    (c * j - s * y, s * j + c * y)
}

/// `(I_nu(x), K_nu(x))` for x > 0 finite, any real order; I is Inf beyond `I_OVERFLOW`.
pub fn ik(nu: f64, x: f64) -> (f64, f64) {
    let mu = nu.abs();
    let (i, k) = if x > I_OVERFLOW {
        let (sum, _) = hankel_series(mu, x, false);
        (f64::INFINITY, (PI / (2.0 * x)).sqrt() * sum * (-x).exp())
    } else {
        let (i, k, _, _) = puruspe::besselik(mu, x);
        (i, k)
    };
    if nu >= 0.0 || k == 0.0 {
        return (i, k);
    }
    let (_, s) = cos_sin_pi(mu);
    (i + FRAC_2_PI * s * k, k)
}

/// The four Bessel functions at x = 0, where Octave gives their limits.
pub fn at_zero(kind: Kind, nu: f64) -> f64 {
    let (c, s) = cos_sin_pi(nu.abs());
    let integer = nu.fract() == 0.0;
    // Which infinity a negative non-integer order's term (x/2)^nu / Gamma(nu + 1) tends to.
    let pole = || f64::INFINITY.copysign(libm::tgamma(nu + 1.0));
    match kind {
        Kind::J | Kind::I if nu == 0.0 => 1.0,
        Kind::J | Kind::I if nu > 0.0 || integer => 0.0,
        Kind::J => pole(),
        Kind::I => f64::INFINITY.copysign(s),
        Kind::Y if nu >= 0.0 => f64::NEG_INFINITY,
        // Y_-mu = sin(mu pi) J_mu + cos(mu pi) Y_mu with Y_mu(0) = -Inf.
        Kind::Y if c == 0.0 => 0.0,
        Kind::Y => f64::NEG_INFINITY * c,
        Kind::K => f64::INFINITY,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    J,
    Y,
    I,
    K,
}

/// The Bessel function of this kind at x >= 0.
pub fn bessel(kind: Kind, nu: f64, x: f64) -> f64 {
    if x == 0.0 {
        return at_zero(kind, nu);
    }
    match kind {
        Kind::J => jy(nu, x).0,
        Kind::Y => jy(nu, x).1,
        Kind::I => ik(nu, x).0,
        Kind::K => ik(nu, x).1,
    }
}

/// d/dx of the Bessel function: `(C_(nu-1) - C_(nu+1)) / 2` for J and Y, `(I_(nu-1) + I_(nu+1)) / 2`,
/// `-(K_(nu-1) + K_(nu+1)) / 2`.
pub fn bessel_slope(kind: Kind, nu: f64, x: f64) -> f64 {
    let (below, above) = (bessel(kind, nu - 1.0, x), bessel(kind, nu + 1.0, x));
    match kind {
        Kind::J | Kind::Y => (below - above) / 2.0,
        Kind::I => (below + above) / 2.0,
        Kind::K => -(below + above) / 2.0,
    }
}

/// d2/dx2: `(C_(nu-2) - 2 C_nu + C_(nu+2)) / 4` for J and Y, `(C_(nu-2) + 2 C_nu + C_(nu+2)) / 4` for I and K.
pub fn bessel_curvature(kind: Kind, nu: f64, x: f64) -> f64 {
    let (below, at, above) = (bessel(kind, nu - 2.0, x), bessel(kind, nu, x), bessel(kind, nu + 2.0, x));
    match kind {
        Kind::J | Kind::Y => (below - 2.0 * at + above) / 4.0,
        Kind::I | Kind::K => (below + 2.0 * at + above) / 4.0,
    }
}

/// `(Ai, Ai', Bi, Bi')` at z.
pub fn airy(z: f64) -> [f64; 4] {
    const SQRT3: f64 = 1.732_050_807_568_877_2;
    if z.abs() <= 1.0 {
        return airy_series(z);
    }
    let x = z.abs();
    let zeta = 2.0 / 3.0 * x * x.sqrt();
    let third = 1.0 / 3.0;
    if z > 0.0 {
        let (i1, k1) = ik(third, zeta);
        let (i2, k2) = ik(2.0 * third, zeta);
        let (i1m, i2m) = (ik(-third, zeta).0, ik(-2.0 * third, zeta).0);
        let root = (x / 3.0).sqrt();
        [root * k1 / PI, -x / (PI * SQRT3) * k2, root * (i1m + i1), x / SQRT3 * (i2m + i2)]
    } else {
        let (j1, j1m) = (jy(third, zeta).0, jy(-third, zeta).0);
        let (j2, j2m) = (jy(2.0 * third, zeta).0, jy(-2.0 * third, zeta).0);
        [x.sqrt() / 3.0 * (j1 + j1m), x / 3.0 * (j2 - j2m), (x / 3.0).sqrt() * (j1m - j1), x / SQRT3 * (j2m + j2)]
    }
}

/// The Maclaurin series of y'' = z y with Ai's and Bi's values and slopes at 0 (|z| <= 1).
fn airy_series(z: f64) -> [f64; 4] {
    const AI0: f64 = 0.355_028_053_887_817_2;
    const AI0_SLOPE: f64 = -0.258_819_403_792_806_8;
    const BI0: f64 = 0.614_926_627_446_000_7;
    const BI0_SLOPE: f64 = 0.448_288_357_353_826_4;
    let solve = |value: f64, slope: f64| {
        // Coefficients c_n of z^n: c_n = c_(n-3) / (n (n - 1)), c_2 = 0.
        let mut c = [value, slope, 0.0];
        // power = z^(n-1); |z| <= 1: the terms fall below 1e-60 by n = 60.
        let (mut y, mut dy, mut power) = (value + slope * z, slope, z);
        for n in 3..60 {
            let next = c[n % 3] / (n * (n - 1)) as f64;
            c[n % 3] = next;
            power *= z;
            dy += n as f64 * next * power;
            y += next * power * z;
        }
        (y, dy)
    };
    let (ai, ai_slope) = solve(AI0, AI0_SLOPE);
    let (bi, bi_slope) = solve(BI0, BI0_SLOPE);
    [ai, ai_slope, bi, bi_slope]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs()
    }

    #[test]
    fn airy_and_bessel_match_octave() {
        // Octave's airy(k, -2), airy(k, 1), mpmath's at 0.4, besselj(1, 0.5), besselj(1, 2e4), besselk(1, 0.5), bessely(-1.5, 0.5).
        let octave = [
            [0.227_407_428_201_686, 0.618_259_020_741_691, -0.412_302_587_956_399, 0.278_795_166_921_169],
            [0.135_292_416_312_881, -0.159_147_441_296_793, 1.207_423_594_952_871, 0.932_435_933_392_775],
            [0.254_742_354_295_676_3, -0.235_832_034_419_208_2, 0.801_773_000_013_597_3, 0.507_281_676_050_622_4],
        ];
        for (z, expected) in [-2.0, 1.0, 0.4].into_iter().zip(octave) {
            let got = airy(z);
            for k in 0..4 {
                assert!(close(got[k], expected[k], 1e-13), "airy({k}, {z}) = {} vs {}", got[k], expected[k]);
            }
        }
        assert!(close(bessel(Kind::J, 1.0, 0.5), 0.242_268_457_674_874, 1e-14));
        assert!(close(bessel(Kind::J, 1.0, 2e4), -9.223_097_469_764_597e-4, 1e-9));
        assert!(close(bessel(Kind::K, 1.0, 0.5), 1.656_441_120_003_301, 1e-14));
        assert!(close(bessel(Kind::Y, -1.5, 0.5), -9.170_169_962_565_139e-2, 1e-13));
        assert!(close(bessel(Kind::I, -1.5, 0.5), -1.956_786_208_039_282, 1e-13));
        // mpmath's Ai(-1000) and Ai(-1e6) (Octave's AMOS value at -1e6 is off by 2e-7): the rounding
        // of zeta = 2/3 |z|^1.5 bounds the accuracy there.
        assert!(close(airy(-1000.0)[0], 0.055_971_895_773_019_92, 1e-11));
        assert!(close(airy(-1e6)[0], -0.002_191_261_141_343_057, 1e-6));
    }
}
