//! The analytic matrix functions `expm`, `logm` and `sqrtm` of a square matrix. Each has one kernel,
//! and every rule follows from it on block matrices:
//! - forward: the Fréchet derivative `L(A, E)` is the top-right block of `f([A E; 0 A])`;
//! - reverse: `Abar = L(A', Ybar)`, since `f(A') = f(A)'` for functions real on the reals;
//! - second order: the derivative of `L(A', Ybar)` along dA (Ybar fixed), the top-right block of
//!   `L([A' Ybar; 0 A'], blkdiag(dA', dA'))`.

use super::factor::{Lu, transpose};
use super::matrix::{gemm, matrix_2d};
use super::reverse::{Adjoints, Reverse, by_column};
use super::second_order::{SecondOrder, Tangents};
use super::{Forward, Hessian, Prim, Primitive, general, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{DenseDeriv, Deriv, RowOperator};
use crate::value::interrupt;
use crate::value::{Array, Value};

primitive_names! {
    Expm = "expm",
    Logm = "logm",
    Sqrtm = "sqrtm",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        general(Prim::Expm, |a, _| eval(Analytic::Exp, a), |fw| forward(Analytic::Exp, fw))
            .vjp(|rv| reverse(Analytic::Exp, rv))
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(|t| second_order(Analytic::Exp, t))))),
        general(Prim::Logm, |a, _| eval(Analytic::Log, a), |fw| forward(Analytic::Log, fw))
            .vjp(|rv| reverse(Analytic::Log, rv))
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(|t| second_order(Analytic::Log, t))))),
        general(Prim::Sqrtm, |a, _| eval(Analytic::Sqrt, a), |fw| forward(Analytic::Sqrt, fw))
            .vjp(|rv| reverse(Analytic::Sqrt, rv))
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(|t| second_order(Analytic::Sqrt, t))))),
    ]
}

#[derive(Clone, Copy)]
enum Analytic {
    Exp,
    Log,
    Sqrt,
}

/// `a b` for n x n matrices.
pub(super) fn mul(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    let mut c = vec![0.0; n * n];
    gemm(&mut c, a, b, n, n, n, false);
    c
}

pub(super) fn identity(n: usize) -> Vec<f64> {
    let mut i = vec![0.0; n * n];
    (0..n).for_each(|k| i[k + n * k] = 1.0);
    i
}

/// The 1-norm (largest column sum) of an n x n matrix.
fn norm1(a: &[f64], n: usize) -> f64 {
    a.chunks(n.max(1)).map(|c| c.iter().map(|v| v.abs()).sum::<f64>()).fold(0.0, f64::max)
}

/// `a + s b`.
fn add_scaled(a: &[f64], s: f64, b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(a, b)| a + s * b).collect()
}

fn inverse(name: &str, a: &[f64], n: usize) -> Result<Vec<f64>> {
    let lu = Lu::new(a, n);
    if lu.is_singular() {
        return Err(runtime(format!("{name}: an intermediate matrix is singular")));
    }
    Ok(lu.inverse())
}

/// `[a b; 0 c]` of n x n blocks.
fn block(a: &[f64], b: &[f64], c: &[f64], n: usize) -> Vec<f64> {
    let m = 2 * n;
    let mut out = vec![0.0; m * m];
    for j in 0..n {
        for i in 0..n {
            out[i + m * j] = a[i + n * j];
            out[i + m * (j + n)] = b[i + n * j];
            out[i + n + m * (j + n)] = c[i + n * j];
        }
    }
    out
}

/// The top-right n x n block of a 2n x 2n matrix.
fn top_right(a: &[f64], n: usize) -> Vec<f64> {
    (0..n).flat_map(|j| (0..n).map(move |i| a[i + 2 * n * (j + n)])).collect()
}

impl Analytic {
    fn name(self) -> &'static str {
        match self {
            Analytic::Exp => "expm",
            Analytic::Log => "logm",
            Analytic::Sqrt => "sqrtm",
        }
    }

    /// `f(a)` of an n x n matrix whose spectrum `check` accepted (or a block matrix with its spectrum).
    fn apply(self, a: &[f64], n: usize) -> Result<Vec<f64>> {
        match self {
            Analytic::Exp => Ok(exponential(a, n)),
            Analytic::Log => logarithm(a, n),
            Analytic::Sqrt => square_root(a, n).map(|(root, _)| root),
        }
    }

    /// The principal logarithm and square root of a real matrix are real only without eigenvalues on
    /// the closed negative real axis (Octave's are complex there, or do not exist at 0).
    fn check(self, a: &[f64], n: usize) -> Result<()> {
        if matches!(self, Analytic::Exp) || n == 0 {
            return Ok(());
        }
        let eigenvalues = faer::MatRef::from_column_major_slice(a, n, n)
            .eigenvalues()
            .map_err(|_| runtime(format!("{}: the eigenvalue computation did not converge", self.name())))?;
        if eigenvalues.iter().any(|l| l.im == 0.0 && l.re <= 0.0) || a.iter().any(|v| !v.is_finite()) {
            return Err(Diagnostic::new(
                ErrorKind::Unsupported,
                format!("{}: a matrix with a real eigenvalue <= 0 (or not finite): its result is complex or does not exist", self.name()),
            )
            .with_hint("msad computes real principal logarithms and square roots; shift or rescale the matrix"));
        }
        Ok(())
    }

    /// `L(a, e)`, the Fréchet derivative at a along e: the top-right block of f([a c e; 0 a]) / c, with
    /// e scaled to the size of a.
    fn frechet(self, a: &[f64], e: &[f64], n: usize) -> Result<Vec<f64>> {
        let size = norm1(e, n);
        if size == 0.0 {
            return Ok(vec![0.0; n * n]);
        }
        let c = norm1(a, n).max(1.0) / size;
        let scaled: Vec<f64> = e.iter().map(|v| v * c).collect();
        let f = self.apply(&block(a, &scaled, a, n), 2 * n)?;
        Ok(top_right(&f, n).into_iter().map(|v| v / c).collect())
    }
}

/// Octave's expm without balancing: trace reduction, scaling by 2^-s with `s` from the infinity norm,
/// the (8, 8) Padé approximant, and s squarings.
fn exponential(a: &[f64], n: usize) -> Vec<f64> {
    if n == 1 {
        return vec![a[0].exp()];
    }
    let shift = (0..n).map(|k| a[k + n * k]).sum::<f64>() / n.max(1) as f64;
    let mut aa = a.to_vec();
    if shift > 0.0 {
        (0..n).for_each(|k| aa[k + n * k] -= shift);
    }
    let norm_inf = (0..n).map(|i| (0..n).map(|j| aa[i + n * j].abs()).sum::<f64>()).fold(0.0, f64::max);
    // [f, e] = log2(norm): norm = f 2^e with f in [0.5, 1).
    let exponent = if norm_inf > 0.0 && norm_inf.is_finite() { norm_inf.log2().floor() as i32 + 1 } else { 0 };
    let s = exponent.clamp(0, 1023);
    aa.iter_mut().for_each(|v| *v *= 2f64.powi(-s));
    const C: [f64; 8] = [
        5.0e-1,
        1.1666666666666667e-1,
        1.6666666666666667e-2,
        1.6025641025641026e-3,
        1.0683760683760684e-4,
        4.856_254_856_254_856e-6,
        1.3875013875013875e-7,
        1.9270852604185938e-9,
    ];
    let id = identity(n);
    let a2 = mul(&aa, &aa, n);
    // Even part x and odd part y of the numerator, by Horner's scheme in a^2.
    let horner = |coefficients: [f64; 4]| {
        let mut p: Vec<f64> = id.iter().map(|v| v * coefficients[0]).collect();
        for &c in &coefficients[1..] {
            p = add_scaled(&mul(&p, &a2, n), c, &id);
        }
        p
    };
    let x = add_scaled(&mul(&horner([C[7], C[5], C[3], C[1]]), &a2, n), 1.0, &id);
    let y = mul(&horner([C[6], C[4], C[2], C[0]]), &aa, n);
    let mut r = add_scaled(&x, 1.0, &y);
    let denominator = add_scaled(&x, -1.0, &y);
    Lu::new(&denominator, n).solve_in_place(&mut r, n);
    for _ in 0..s {
        r = mul(&r, &r, n);
        interrupt::stop_if_requested();
    }
    if shift > 0.0 {
        let scale = shift.exp();
        r.iter_mut().for_each(|v| *v *= scale);
    }
    r
}

/// The principal square root and its inverse by the Denman-Beavers iteration `Y <- (Y + Z^-1) / 2`,
/// `Z <- (Z + Y^-1) / 2` from `Y = A`, `Z = I`.
fn square_root(a: &[f64], n: usize) -> Result<(Vec<f64>, Vec<f64>)> {
    let (mut y, mut z) = (a.to_vec(), identity(n));
    for _ in 0..100 {
        let (y_inverse, z_inverse) = (inverse("sqrtm", &y, n)?, inverse("sqrtm", &z, n)?);
        let next_y: Vec<f64> = y.iter().zip(&z_inverse).map(|(a, b)| (a + b) / 2.0).collect();
        z = z.iter().zip(&y_inverse).map(|(a, b)| (a + b) / 2.0).collect();
        let change = norm1(&add_scaled(&next_y, -1.0, &y), n);
        y = next_y;
        interrupt::stop_if_requested();
        if change <= 4.0 * n as f64 * f64::EPSILON * norm1(&y, n) {
            return Ok((y, z));
        }
    }
    Err(runtime("sqrtm: the square root iteration did not converge"))
}

/// The principal logarithm by inverse scaling and squaring: k square roots until `X = A^(1/2^k)` is
/// near I, then `log X = 2 atanh(Z)`, `Z = (X - I)(X + I)^-1`, by its series, times 2^k.
fn logarithm(a: &[f64], n: usize) -> Result<Vec<f64>> {
    let id = identity(n);
    let mut x = a.to_vec();
    let mut roots = 0;
    while norm1(&add_scaled(&x, -1.0, &id), n) > 0.25 {
        if roots == 64 {
            return Err(runtime("logm: the square roots did not approach the identity"));
        }
        x = square_root(&x, n)?.0;
        roots += 1;
    }
    // Z = (X - I)(X + I)^-1 = ((X + I)' \ (X - I)')'.
    let mut zt = transpose(&add_scaled(&x, -1.0, &id), n, n);
    Lu::new(&transpose(&add_scaled(&x, 1.0, &id), n, n), n).solve_in_place(&mut zt, n);
    let z = transpose(&zt, n, n);
    let z2 = mul(&z, &z, n);
    let (mut power, mut sum) = (z.clone(), z.clone());
    for k in 1..100 {
        power = mul(&power, &z2, n);
        let term_size = norm1(&power, n) / (2 * k + 1) as f64;
        sum = add_scaled(&sum, 1.0 / (2 * k + 1) as f64, &power);
        if term_size <= f64::EPSILON * norm1(&sum, n) {
            break;
        }
    }
    let scale = 2f64.powi(roots + 1);
    Ok(sum.into_iter().map(|v| v * scale).collect())
}

fn square_operand<'v>(f: Analytic, args: &[&'v Value]) -> Result<std::borrow::Cow<'v, Array<f64>>> {
    super::check_arity(f.name(), args, 1, 1)?;
    let a = matrix_2d(f.name(), args[0])?;
    if a.dims[0] != a.dims[1] {
        return Err(runtime(format!("{}: A must be a square matrix", f.name())));
    }
    Ok(a)
}

fn eval(f: Analytic, args: &[&Value]) -> Result<Vec<Value>> {
    let a = square_operand(f, args)?;
    let n = a.dims[0];
    if a.data.iter().any(|v| v.is_nan()) {
        // Octave's result of a matrix with NaN entries: NaN throughout.
        return Ok(vec![Value::Double(Array::new(vec![n, n], vec![f64::NAN; n * n]))]);
    }
    f.check(&a.data, n)?;
    Ok(vec![Value::Double(Array::new(vec![n, n], f.apply(&a.data, n)?))])
}

/// The derivative of a result of `rows` elements whose tangent `tangent(dA)` is linear in the tangent of
/// an operand of `cols` elements: direction by direction for a dense block with fewer directions than
/// elements, else through the local Jacobian (a dense row operator: every element may depend on every
/// other).
pub(super) fn linear_in(d: &Deriv, cols: usize, rows: usize, tangent: impl Fn(&[f64]) -> Result<Vec<f64>>) -> Result<Deriv> {
    match d {
        Deriv::Zero => Ok(Deriv::Zero),
        Deriv::Dense(dense) if dense.nd < cols => {
            let mut out = DenseDeriv::zeros(rows, dense.nd);
            for j in 0..dense.nd {
                out.column_mut(j).copy_from_slice(&tangent(dense.column(j))?);
                interrupt::stop_if_requested();
            }
            Ok(Deriv::Dense(out))
        }
        _ => {
            let mut jacobian = Vec::with_capacity(rows * cols);
            let mut unit = vec![0.0; cols];
            for k in 0..cols {
                unit[k] = 1.0;
                jacobian.extend(tangent(&unit)?);
                unit[k] = 0.0;
                interrupt::stop_if_requested();
            }
            let jacobian = &jacobian;
            let op = RowOperator {
                ptr: (0..=rows).map(|r| r * cols).collect(),
                src: (0..rows).flat_map(|_| 0..cols).collect(),
                coef: (0..rows).flat_map(|r| (0..cols).map(move |k| jacobian[r + rows * k])).collect(),
            };
            Ok(d.apply(&op))
        }
    }
}

fn forward(f: Analytic, fw: &Forward) -> Result<Deriv> {
    let a = square_operand(f, fw.inputs)?;
    let n = a.dims[0];
    linear_in(fw.derivs[0], n * n, n * n, |e| f.frechet(&a.data, e, n))
}

fn reverse(f: Analytic, rv: &Reverse) -> Result<Adjoints> {
    if !rv.wanted[0] {
        return Ok(vec![None]);
    }
    let a = square_operand(f, rv.inputs)?;
    let n = a.dims[0];
    let at = transpose(&a.data, n, n);
    by_column(rv, |ybar| Ok(vec![Some(f.frechet(&at, ybar, n)?)]))
}

/// The tangent of `L(A', Ybar)` along dA: the top-right block of `L([A' Ybar; 0 A'], blkdiag(dA', dA'))`.
fn second_order(f: Analytic, t: &Tangents) -> Result<Adjoints> {
    let Some(da) = t.tangents[0].filter(|_| t.wanted[0]) else { return Ok(vec![None]) };
    let a = square_operand(f, t.inputs)?;
    let n = a.dims[0];
    let at = transpose(&a.data, n, n);
    let m = block(&at, t.adjoint, &at, n);
    let mut term = Vec::with_capacity(n * n * t.directions);
    for j in 0..t.directions {
        let dat = transpose(da.column(j), n, n);
        let along = block(&dat, &vec![0.0; n * n], &dat, n);
        term.extend(top_right(&f.frechet(&m, &along, 2 * n)?, n));
    }
    Ok(vec![Some(term)])
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, check, matrix, value};
    use crate::value::Value;

    /// A matrix with a spectrum away from the negative real axis: I + a small random matrix.
    fn near_identity(n: usize, rng: &mut Random) -> Value {
        let mut a = rng.matrix(n, n).numeric().unwrap().into_owned();
        a.data.iter_mut().for_each(|v| *v *= 0.4);
        (0..n).for_each(|k| a.data[k + n * k] += 1.5);
        Value::Double(a)
    }

    #[test]
    fn matrix_functions_match_finite_differences() {
        let mut rng = Random::new(41);
        for n in [1, 2, 3, 4] {
            let a = near_identity(n, &mut rng);
            for name in ["expm", "logm", "sqrtm"] {
                check(name, std::slice::from_ref(&a), &[0]);
            }
            check("expm", &[rng.matrix(n, n)], &[0]);
        }
    }

    #[test]
    fn values_invert_each_other() {
        let a = matrix(3, 3, &[4.0, 1.0, 0.5, 0.2, 3.0, 0.1, 0.3, 0.7, 5.0]);
        let data = |v: &Value| v.numeric().unwrap().data.clone();
        let root = value("sqrtm", std::slice::from_ref(&a), 1).remove(0);
        let squared = super::mul(&data(&root), &data(&root), 3);
        let log = value("logm", std::slice::from_ref(&a), 1).remove(0);
        let back = data(&value("expm", &[log], 1).remove(0));
        for (k, &v) in data(&a).iter().enumerate() {
            assert!((squared[k] - v).abs() < 1e-13 && (back[k] - v).abs() < 1e-12, "{k}: {} {} {v}", squared[k], back[k]);
        }
        // expm of a nilpotent matrix: I + N.
        assert_eq!(data(&value("expm", &[matrix(2, 2, &[0.0, 0.0, 1.0, 0.0])], 1).remove(0)), vec![1.0, 0.0, 1.0, 1.0]);
    }
}
