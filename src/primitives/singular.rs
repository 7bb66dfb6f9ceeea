//! The singular value decomposition: `s = svd(A)`, `[U, S, V] = svd(A)` (also `svd(A, 0)`, economy
//! when A is tall, and `svd(A, "econ")`), and the bases built on it, `null(A)` and `orth(A)`.
//!
//! Each singular vector's sign is fixed by the largest-magnitude component of the right vector v_k
//! being positive (its partner u_k = A v_k / s_k follows; LAPACK's signs, hence Octave's, can differ).
//! With A tall (m >= n), `A = X S Y'`, X = U1 (m x n) and `P = X' dA Y`:
//! - `ds = diag(P)`;
//! - `dX = X (F ∘ (P S + S P')) + (I - X X') dA Y S^-1`, `dY = Y (F ∘ (S P + P' S))`,
//!   `F_ij = 1 / (s_j^2 - s_i^2)` off the diagonal, 0 on it;
//!
//! and a wide A through its transpose. The rules need distinct nonzero singular values, and none
//! exists for the columns that complete U or V to a square matrix (any orthonormal completion does:
//! msad returns LAPACK-like ones, not a smooth choice). `null` and `orth` have no derivative: their
//! bases are not unique.
//!
//! Second order: each reverse rule is a formula in the thin factors (`thin_adjoint`), written once
//! for `f64` and for duals; on duals carrying the thin factors' tangents along dA it gives the exact
//! tangent of A's adjoint (see `dual`).

use super::dual::{Dual, Field};
use super::factor::transpose;
use super::matrix::matrix_2d;
use super::matrix_functions::linear_in;
use super::reverse::{Adjoints, Reverse, by_column};
use super::second_order::{SecondOrder, Tangents};
use super::{Derivative, Forward, Hessian, Kernel, Prim, Primitive, general, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{DenseDeriv, Deriv};
use crate::value::{Array, Value};
use std::borrow::Cow;

primitive_names! {
    Svd = "svd",
    SvdVectors = "[U, S, V] = svd",
    Null = "null",
    Orth = "orth",
}

pub(super) fn entries() -> Vec<Primitive> {
    let derivative = Derivative::Outputs { rule: forward_vectors, differentiable: |_| true };
    vec![
        general(Prim::Svd, eval_values, forward_values)
            .more_outputs(Prim::SvdVectors)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(values_second_order)))),
        Primitive::new(Prim::SvdVectors, Kernel::General { eval: eval_vectors, derivative })
            .vjp(reverse_vectors)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(vectors_second_order)))),
        Primitive::new(Prim::Null, Kernel::General { eval: eval_null, derivative: Derivative::Missing }),
        Primitive::new(Prim::Orth, Kernel::General { eval: eval_orth, derivative: Derivative::Missing }),
    ]
}

/// The sign that makes a vector's largest-magnitude component (the first of equal ones) positive.
pub(super) fn orientation(column: &[f64]) -> f64 {
    let largest = column.iter().copied().fold(0.0, |m: f64, v| if v.abs() > m.abs() { v } else { m });
    if largest < 0.0 { -1.0 } else { 1.0 }
}

/// Which columns of U and V a call returns.
#[derive(Clone, Copy, PartialEq)]
enum Size {
    Full,
    /// `svd(A, 0)`: economy U when A is tall (V is square anyway).
    EconomyTall,
    /// `svd(A, "econ")`: min(m, n) columns of both.
    Economy,
}

/// `m x n` matrix with `A = U diag(s) V'`, U m x m and V n x n, oriented as the module says.
struct Decomposition {
    m: usize,
    n: usize,
    u: Vec<f64>,
    s: Vec<f64>,
    v: Vec<f64>,
}

fn identity(n: usize) -> Vec<f64> {
    super::matrix_functions::identity(n)
}

impl Decomposition {
    fn new(name: &str, a: &Array<f64>) -> Result<Decomposition> {
        let (m, n) = (a.dims[0], a.dims[1]);
        if m == 0 || n == 0 {
            return Ok(Decomposition { m, n, u: identity(m), s: vec![], v: identity(n) });
        }
        // Full U and V: m^2 + n^2 elements, refused before faer's allocation would abort.
        crate::value::memory::check(m.saturating_mul(m).saturating_add(n.saturating_mul(n)), 8)?;
        let parts = super::factor::svd(&a.data, m, n)
            .ok_or_else(|| runtime(format!("{name}: the singular value decomposition did not converge")))?;
        let (mut u, mut v) = (parts.u, parts.v);
        for k in 0..m.max(n) {
            let sign = if k < n { orientation(&v[n * k..n * (k + 1)]) } else { orientation(&u[m * k..m * (k + 1)]) };
            if k < m {
                u[m * k..m * (k + 1)].iter_mut().for_each(|e| *e *= sign);
            }
            if k < n {
                v[n * k..n * (k + 1)].iter_mut().for_each(|e| *e *= sign);
            }
        }
        Ok(Decomposition { m, n, u, s: parts.s, v })
    }

    /// The number of columns of U and of V a call of this size returns.
    fn columns(&self, size: Size) -> (usize, usize) {
        let t = self.m.min(self.n);
        match size {
            Size::Full => (self.m, self.n),
            Size::EconomyTall => (if self.m > self.n { self.n } else { self.m }, self.n),
            Size::Economy => (t, t),
        }
    }

    /// Singular values above Octave's rank tolerance `max(m, n) s_1 eps`.
    fn rank(&self) -> usize {
        let tolerance = self.m.max(self.n) as f64 * self.s.first().copied().unwrap_or(0.0) * f64::EPSILON;
        self.s.iter().filter(|&&s| s > tolerance).count()
    }
}

fn operand<'v>(name: &str, args: &[&'v Value]) -> Result<(Cow<'v, Array<f64>>, Size)> {
    super::check_arity(name, args, 1, 2)?;
    let size = match args.get(1) {
        None => Size::Full,
        Some(v) if v.as_string().as_deref() == Some("econ") => Size::Economy,
        Some(v) if v.numel() == 1 && v.numeric().is_some_and(|a| a.data[0] == 0.0) => Size::EconomyTall,
        Some(_) => return Err(runtime(format!("{name}: the second argument must be 0 or \"econ\""))),
    };
    let a = matrix_2d(name, args[0])?;
    if a.data.iter().any(|v| !v.is_finite()) {
        return Err(runtime(format!("{name}: cannot take SVD of matrix containing Inf or NaN values")));
    }
    Ok((a, size))
}

fn dense(rows: usize, cols: usize, data: Vec<f64>) -> Value {
    Value::Double(Array::new(vec![rows, cols], data))
}

fn eval_values(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (a, _) = operand("svd", args)?;
    let view = faer::MatRef::from_column_major_slice(&a.data, a.dims[0], a.dims[1]);
    let s = view.singular_values().map_err(|_| runtime("svd: the singular value decomposition did not converge"))?;
    Ok(vec![Value::Double(Array::column(s))])
}

fn eval_vectors(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (a, size) = operand("svd", args)?;
    let d = Decomposition::new("svd", &a)?;
    let (uc, vc) = d.columns(size);
    let mut s = vec![0.0; uc * vc];
    d.s.iter().enumerate().for_each(|(k, &v)| s[k + uc * k] = v);
    Ok(vec![dense(d.m, uc, d.u[..d.m * uc].to_vec()), dense(uc, vc, s), dense(d.n, vc, d.v[..d.n * vc].to_vec())])
}

/// The decomposition of a rule's operand, with distinct nonzero singular values (else no derivative).
fn differentiable(args: &[&Value]) -> Result<(Decomposition, Size)> {
    let (a, size) = operand("svd", args)?;
    let d = Decomposition::new("svd", &a)?;
    let scale = d.s.first().copied().unwrap_or(0.0).max(f64::MIN_POSITIVE);
    let tolerance = 16.0 * d.m.max(d.n) as f64 * f64::EPSILON * scale;
    if d.s.windows(2).any(|w| w[0] - w[1] <= tolerance) || d.s.last().is_some_and(|&l| l <= tolerance) {
        return Err(Diagnostic::new(ErrorKind::NotDifferentiable, "svd: repeated or zero singular values have no derivative")
            .with_hint("norm(A, 'fro') or sum(svd(A).^2) are differentiable everywhere"));
    }
    Ok((d, size))
}

/// `ds_k = u_k' dA v_k`.
fn forward_values(fw: &Forward) -> Result<Deriv> {
    let (d, _) = differentiable(fw.inputs)?;
    let (m, n, t) = (d.m, d.n, d.s.len());
    linear_in(fw.derivs[0], m * n, t, |da| Ok(projected(&d, da).diagonal))
}

/// The tangent along dA of the values' adjoint `Abar = U1 diag(sbar) V1'` (`thin_adjoint`).
fn values_second_order(t: &Tangents) -> Result<Adjoints> {
    let mut terms = vec![None; t.inputs.len()];
    let Some(da) = t.tangents[0].filter(|_| t.wanted[0]) else { return Ok(terms) };
    let (d, _) = differentiable(t.inputs)?;
    terms[0] = Some(adjoint_tangents(&d, 1, t.adjoint, da, t.directions));
    Ok(terms)
}

/// The tangent along dA of A's adjoint from that of U, S or V (`thin_adjoint`).
fn vectors_second_order(t: &Tangents) -> Result<Adjoints> {
    let mut terms = vec![None; t.inputs.len()];
    let Some(da) = t.tangents[0].filter(|_| t.wanted[0]) else { return Ok(terms) };
    let (d, size) = differentiable_result(t.inputs, t.result)?;
    let adjoint = result_adjoint(&d, size, t.result, t.adjoint);
    terms[0] = Some(adjoint_tangents(&d, t.result, &adjoint, da, t.directions));
    Ok(terms)
}

/// Per direction of `da`, the tangent of `thin_adjoint(k, adjoint)`: the formula on duals whose
/// tangents are those of U1, s and V1 along the direction (the adjoint itself is held).
fn adjoint_tangents(d: &Decomposition, k: usize, adjoint: &[f64], da: &DenseDeriv, directions: usize) -> Vec<f64> {
    let (m, n, t) = (d.m, d.n, d.s.len());
    let dual = |values: &[f64], tangents: &[f64]| -> Vec<Dual> { values.iter().zip(tangents).map(|(&v, &d)| Dual { v, d }).collect() };
    let mut term = Vec::with_capacity(m * n * directions);
    for j in 0..directions {
        let column = da.column(j);
        let u = dual(&d.u[..m * t], &vectors_tangent(d, Size::Economy, 0, column));
        let s = dual(&d.s, &projected(d, column).diagonal);
        let v = dual(&d.v[..n * t], &vectors_tangent(d, Size::Economy, 2, column));
        term.extend(thin_adjoint(&u, &s, &v, (m, n), k, adjoint).iter().map(|e| e.d));
    }
    term
}

/// `P = U1' dA V1` (t x t): its diagonal, and the whole of it for the vectors' rules.
struct Projection {
    p: Vec<f64>,
    diagonal: Vec<f64>,
}

fn projected(d: &Decomposition, da: &[f64]) -> Projection {
    let (m, n, t) = (d.m, d.n, d.s.len());
    let ut = transpose(&d.u[..m * t], m, t);
    let p = f64::product(&f64::product(&ut, da, t, m, n), &d.v[..n * t], t, n, t);
    let diagonal = (0..t).map(|k| p[k + t * k]).collect();
    Projection { p, diagonal }
}

/// The tangents of the thin factors X (p x q) and Y (q x q) of a tall `B = X S Y'` along dB, given
/// `P = X' dB Y`.
fn tall_tangents(x: &[f64], y: &[f64], s: &[f64], db: &[f64], p: &[f64], rows: usize) -> (Vec<f64>, Vec<f64>) {
    let q = s.len();
    let coupling = |first: &dyn Fn(usize, usize) -> f64| -> Vec<f64> {
        (0..q * q).map(|e| (e % q, e / q)).map(|(i, j)| if i == j { 0.0 } else { first(i, j) / (s[j] * s[j] - s[i] * s[i]) }).collect()
    };
    let cx = coupling(&|i, j| p[i + q * j] * s[j] + s[i] * p[j + q * i]);
    let cy = coupling(&|i, j| s[i] * p[i + q * j] + p[j + q * i] * s[j]);
    let mut dx = f64::product(x, &cx, rows, q, q);
    // (I - X X') dB Y S^-1 = dB Y S^-1 - X P S^-1.
    let dby = f64::product(db, y, rows, q, q);
    let xp = f64::product(x, p, rows, q, q);
    for (e, v) in dx.iter_mut().enumerate() {
        *v += (dby[e] - xp[e]) / s[e / rows];
    }
    (dx, f64::product(y, &cy, q, q, q))
}

/// The tangent of U (k = 0), S (1) or V (2) along dA.
fn vectors_tangent(d: &Decomposition, size: Size, k: usize, da: &[f64]) -> Vec<f64> {
    let (m, n, t) = (d.m, d.n, d.s.len());
    let projection = projected(d, da);
    let (uc, vc) = d.columns(size);
    if k == 1 {
        let mut ds = vec![0.0; uc * vc];
        projection.diagonal.iter().enumerate().for_each(|(i, &v)| ds[i + uc * i] = v);
        return ds;
    }
    let (u1, v1) = (&d.u[..m * t], &d.v[..n * t]);
    let (du, dv) = if m >= n {
        tall_tangents(u1, v1, &d.s, da, &projection.p, m)
    } else {
        // A' = V S U': P' = V1' dA' U1.
        let (dv, du) = tall_tangents(v1, u1, &d.s, &transpose(da, m, n), &transpose(&projection.p, t, t), n);
        (du, dv)
    };
    if k == 0 { du } else { dv }
}

/// The decomposition for the rules of result k, which fail where it has no derivative.
fn differentiable_result(args: &[&Value], k: usize) -> Result<(Decomposition, Size)> {
    let (d, size) = differentiable(args)?;
    let (uc, vc) = d.columns(size);
    let t = d.s.len();
    if (k == 0 && uc > t) || (k == 2 && vc > t) {
        return Err(Diagnostic::new(
            ErrorKind::NotDifferentiable,
            format!(
                "svd: the columns completing {} to a square matrix are not unique: they have no derivative",
                if k == 0 { "U" } else { "V" }
            ),
        )
        .with_hint("use [U, S, V] = svd(A, \"econ\"), whose vectors have derivatives where the singular values are distinct"));
    }
    Ok((d, size))
}

fn forward_vectors(fw: &Forward, k: usize) -> Result<Deriv> {
    let (d, size) = differentiable_result(fw.inputs, k)?;
    linear_in(fw.derivs[0], d.m * d.n, fw.output.numel(), |da| Ok(vectors_tangent(&d, size, k, da)))
}

/// The adjoint of the thin `B` (rows x q, tall) from those of its factors X (rows x q) and Y (q x q),
/// the transpose of `tall_tangents`: with `E_ij = 1 / (s_j^2 - s_i^2)` and `H = G ∘ E`, X's adjoint
/// gives `Pbar = (H + H') S - X' Xbar S^-1` (G = X' Xbar) and `Bbar = Xbar S^-1 Y'`, Y's gives
/// `Pbar = S (H + H')` (G = Y' Ybar); then `Bbar += X Pbar Y'`.
fn tall_adjoint<T: Field>(x: &[T], y: &[T], s: &[T], xbar: Option<&[f64]>, ybar: Option<&[f64]>, rows: usize) -> Vec<T> {
    let q = s.len();
    let zero = T::constant(0.0);
    let held = |adjoint: &[f64]| -> Vec<T> { adjoint.iter().map(|&v| T::constant(v)).collect() };
    // H + H' for G: (G_ij - G_ji) E_ij, as E is antisymmetric.
    let symmetrised = |g: Vec<T>| -> Vec<T> {
        (0..q * q)
            .map(|e| (e % q, e / q))
            .map(|(i, j)| if i == j { zero } else { (g[i + q * j] - g[j + q * i]) / (s[j] * s[j] - s[i] * s[i]) })
            .collect()
    };
    let (xt, yt) = (transpose(x, rows, q), transpose(y, q, q));
    let mut pbar = vec![zero; q * q];
    let mut bbar = vec![zero; rows * q];
    if let Some(xbar) = xbar {
        let xbar = held(xbar);
        let h = symmetrised(T::product(&xt, &xbar, q, rows, q));
        pbar.iter_mut().enumerate().for_each(|(e, p)| *p = *p + h[e] * s[e / q]);
        let scaled: Vec<T> = xbar.iter().enumerate().map(|(e, &v)| v / s[e / rows]).collect();
        bbar = T::product(&scaled, &yt, rows, q, q);
        pbar.iter_mut().zip(T::product(&xt, &scaled, q, rows, q)).for_each(|(p, v)| *p = *p - v);
    }
    if let Some(ybar) = ybar {
        let h = symmetrised(T::product(&yt, &held(ybar), q, q, q));
        pbar.iter_mut().enumerate().for_each(|(e, p)| *p = *p + s[e % q] * h[e]);
    }
    let coupled = T::product(&T::product(x, &pbar, rows, q, q), &yt, rows, q, q);
    bbar.iter_mut().zip(coupled).for_each(|(b, c)| *b = *b + c);
    bbar
}

/// A's adjoint from that of U1 (k = 0), s (1: the t values) or V1 (2), with U1 (m x t), s and V1
/// (n x t) the thin factors of the m x n A: the transpose of `vectors_tangent`.
fn thin_adjoint<T: Field>(u1: &[T], s: &[T], v1: &[T], (m, n): (usize, usize), k: usize, adjoint: &[f64]) -> Vec<T> {
    let t = s.len();
    if k == 1 {
        // ds = diag(U1' dA V1): Abar = U1 diag(sbar) V1'.
        let scaled: Vec<T> = u1.iter().enumerate().map(|(e, &u)| u * T::constant(adjoint[e / m])).collect();
        return T::product(&scaled, &transpose(v1, n, t), m, t, n);
    }
    if m >= n {
        let (xbar, ybar) = if k == 0 { (Some(adjoint), None) } else { (None, Some(adjoint)) };
        return tall_adjoint(u1, v1, s, xbar, ybar, m);
    }
    let (xbar, ybar) = if k == 2 { (Some(adjoint), None) } else { (None, Some(adjoint)) };
    transpose(&tall_adjoint(v1, u1, s, xbar, ybar, n), n, m)
}

/// Result k's adjoint as `thin_adjoint` reads it: S's diagonal, U's or V's whole.
fn result_adjoint(d: &Decomposition, size: Size, k: usize, adjoint: &[f64]) -> Vec<f64> {
    let uc = d.columns(size).0;
    match k {
        1 => (0..d.s.len()).map(|i| adjoint[i + uc * i]).collect(),
        _ => adjoint.to_vec(),
    }
}

fn reverse_vectors(rv: &Reverse) -> Result<Adjoints> {
    if !rv.wanted[0] {
        return Ok(vec![None; rv.inputs.len()]);
    }
    let (d, size) = differentiable_result(rv.inputs, rv.result)?;
    let others = rv.inputs.len() - 1;
    let (m, n, t) = (d.m, d.n, d.s.len());
    let (u1, v1) = (&d.u[..m * t], &d.v[..n * t]);
    by_column(rv, |adjoint| {
        let abar = thin_adjoint(u1, &d.s, v1, (m, n), rv.result, &result_adjoint(&d, size, rv.result, adjoint));
        Ok(std::iter::once(Some(abar)).chain(vec![None; others]).collect())
    })
}

/// Octave's `null(A)`: the right singular vectors past A's numerical rank, entries below eps set to 0.
fn eval_null(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("null", args, 1, 1)?;
    let (a, _) = operand("null", args)?;
    let d = Decomposition::new("null", &a)?;
    let (n, rank) = (d.n, d.rank());
    let mut z = d.v[n * rank..].to_vec();
    z.iter_mut().filter(|v| v.abs() < f64::EPSILON).for_each(|v| *v = 0.0);
    Ok(vec![dense(n, n - rank, z)])
}

/// Octave's `orth(A)`: the left singular vectors of A's numerical rank, each oriented on its own.
fn eval_orth(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("orth", args, 1, 1)?;
    let (a, _) = operand("orth", args)?;
    if a.data.is_empty() {
        return Ok(vec![dense(0, 0, vec![])]);
    }
    let d = Decomposition::new("orth", &a)?;
    let (m, rank) = (d.m, d.rank());
    let mut basis = d.u[..m * rank].to_vec();
    for column in basis.chunks_mut(m) {
        let sign = orientation(column);
        column.iter_mut().for_each(|v| *v *= sign);
    }
    Ok(vec![dense(m, rank, basis)])
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, check, matrix, value};
    use crate::value::Value;

    fn data(v: &Value) -> Vec<f64> {
        v.numeric().unwrap().data.clone()
    }

    #[test]
    fn singular_values_match_finite_differences() {
        let mut rng = Random::new(52);
        for n in [1, 2, 3, 5] {
            check("svd", &[rng.matrix(n, n + 1)], &[0]);
            check("svd", &[rng.matrix(n + 2, n)], &[0]);
        }
    }

    #[test]
    fn vectors_reconstruct_the_matrix_with_octaves_shapes() {
        // Octave 7, B = [1 2; 3 4; 5 6]: svd(B, 0) gives U 3x2, S 2x2; svd(B', 0) gives V 3x3, S 2x3.
        let b = matrix(3, 2, &[1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
        let bt = matrix(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        for (a, size, dims) in [
            (&b, Value::scalar(0.0), [[3, 2], [2, 2], [2, 2]]),
            (&bt, Value::scalar(0.0), [[2, 2], [2, 3], [3, 3]]),
            (&bt, Value::string("econ"), [[2, 2], [2, 2], [3, 2]]),
            (&b, Value::string("econ"), [[3, 2], [2, 2], [2, 2]]),
        ] {
            let parts = value("[U, S, V] = svd", &[a.clone(), size], 3);
            let shapes: Vec<Vec<usize>> = parts.iter().map(|p| p.dims().to_vec()).collect();
            assert_eq!(shapes, dims.map(|d| d.to_vec()).to_vec());
            let (u, s, v) = (data(&parts[0]), data(&parts[1]), data(&parts[2]));
            let (m, k, n) = (dims[0][0], dims[1][0], dims[2][0]);
            let (kc, vc) = (dims[1][1], dims[2][1]);
            let us = <f64 as super::Field>::product(&u, &s, m, k, kc);
            let usv = <f64 as super::Field>::product(&us, &super::transpose(&v, n, vc), m, vc, n);
            let original = data(a);
            assert!(usv.iter().zip(&original).all(|(x, y)| (x - y).abs() < 1e-13), "{usv:?}");
        }
        // Octave: singular values 9.5255, 0.5143.
        let s = data(&value("svd", std::slice::from_ref(&b), 1)[0]);
        assert!((s[0] - 9.525518091565107).abs() < 1e-13 && (s[1] - 0.514300580658644).abs() < 1e-13, "{s:?}");
    }

    #[test]
    fn null_and_orth_are_octaves_bases() {
        // Octave 7: orth([1 2; 2 4; 3 6]) = [1; 2; 3] / sqrt(14); null([1 2 3; 2 4 6]) has 2 columns.
        let orth = data(&value("orth", &[matrix(3, 2, &[1.0, 2.0, 3.0, 2.0, 4.0, 6.0])], 1)[0]);
        let expected: Vec<f64> = [1.0, 2.0, 3.0].iter().map(|v| v / 14f64.sqrt()).collect();
        assert!(orth.iter().zip(&expected).all(|(a, b)| (a - b).abs() < 1e-15), "{orth:?}");
        let a = matrix(2, 3, &[1.0, 2.0, 2.0, 4.0, 3.0, 6.0]);
        let z = value("null", std::slice::from_ref(&a), 1).remove(0);
        assert_eq!(z.dims(), vec![3, 2]);
        let az = <f64 as super::Field>::product(&data(&a), &data(&z), 2, 3, 2);
        assert!(az.iter().all(|v| v.abs() < 1e-14), "{az:?}");
        assert_eq!(value("null", &[matrix(2, 2, &[2.0, 1.0, 1.0, 3.0])], 1)[0].dims(), vec![2, 0]);
    }
}
