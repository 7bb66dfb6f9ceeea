//! Dense decompositions: `chol` (upper R with R'R = A, from A's upper triangle as Octave reads it;
//! `[R, p]`) and `eig` (values of a symmetric or real-spectrum matrix; `[V, D]` of a symmetric one;
//! `svd` is in `singular`). Rules:
//! - chol: `dR = Φ(R^-T dA R^-1) R`, Φ the upper triangle with half the diagonal, dA symmetrized from
//!   its upper triangle;
//! - eig: `dλ_k = w_k' dA v_k` (w_k' the rows of V^-1: V' when A is symmetric) and, A symmetric,
//!   `dv_k = sum_{j != k} v_j (v_j' dA v_k) / (λ_k - λ_j)`.
//!
//! Second order: chol's factor by its kernel on hyper-dual numbers (see `dual`), the eigenvalues and
//! `[V, D]` in closed form (`eigen_second_order`).
//!
//! Where a derivative does not exist (repeated eigenvalues) the
//! rules fail with `msad:notDifferentiable`; the values are still computed.

use super::dual::{Field, HyperDual, kernel_second_order};
use super::factor::{Lu, transpose};
use super::matrix::matrix_2d;
use super::matrix_functions::{linear_in, mul};
use super::reverse::{Adjoints, Reverse};
use super::second_order::{SecondOrder, Tangents};
use super::{Derivative, Forward, Hessian, Kernel, Prim, Primitive, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::Deriv;
use crate::value::{Array, Value};
use faer::linalg::solvers::DenseSolveCore;
use faer::{MatRef, Side};

primitive_names! {
    Chol = "chol",
    CholFlag = "[R, p] = chol",
    Eig = "eig",
    EigVectors = "[V, D] = eig",
}

pub(super) fn entries() -> Vec<Primitive> {
    let outputs = |prim, eval, rule, differentiable| {
        Primitive::new(prim, Kernel::General { eval, derivative: Derivative::Outputs { rule, differentiable } })
    };
    vec![
        super::general(Prim::Chol, eval_chol, |fw| forward_chol(fw, 0))
            .more_outputs(Prim::CholFlag)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(chol_second_order)))),
        outputs(Prim::CholFlag, eval_chol_flag, forward_chol, |k| k == 0)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(chol_second_order)))),
        super::general(Prim::Eig, eval_eig, forward_eigenvalues)
            .more_outputs(Prim::EigVectors)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(|t| eigen_second_order(t, false))))),
        outputs(Prim::EigVectors, eval_eigenvectors, forward_eigenvectors, |k| k < 2)
            .vjp(reverse_eigenvectors)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(|t| eigen_second_order(t, true))))),
    ]
}

fn not_differentiable(message: String) -> Diagnostic {
    Diagnostic::new(ErrorKind::NotDifferentiable, message)
}

fn square<'v>(name: &str, v: &'v Value) -> Result<std::borrow::Cow<'v, Array<f64>>> {
    let a = matrix_2d(name, v)?;
    if a.dims[0] != a.dims[1] {
        return Err(runtime(format!("{name}: A must be a square matrix")));
    }
    if a.data.iter().any(|v| !v.is_finite()) {
        return Err(runtime(format!("{name}: input matrix must not contain Inf or NaN values")));
    }
    Ok(a)
}

fn matrix(n: usize, data: Vec<f64>) -> Value {
    Value::Double(Array::new(vec![n, n], data))
}

// ---- chol ----

/// The Cholesky factor of the symmetric matrix A's upper triangle defines, or the 0-based column
/// whose pivot is not positive (on `f64` for the values, on hyper-duals for the second-order term).
fn cholesky<T: Field>(a: &[T], n: usize) -> std::result::Result<Vec<T>, usize> {
    let mut r = vec![T::constant(0.0); n * n];
    for j in 0..n {
        for i in 0..=j {
            let s = (0..i).fold(a[i + n * j], |s, k| s - r[k + n * i] * r[k + n * j]);
            if i < j {
                r[i + n * j] = s / r[i + n * i];
            } else if s.value() > 0.0 {
                r[j + n * j] = s.sqrt();
            } else {
                return Err(j);
            }
        }
    }
    Ok(r)
}

/// The leading q x q block of an n x n matrix.
fn leading<T: Copy>(a: &[T], n: usize, q: usize) -> Vec<T> {
    (0..q).flat_map(|j| a[n * j..n * j + q].to_vec()).collect()
}

/// `(R, p)` as Octave's `[R, p] = chol(A)`: p = 0 and the factor, or the 1-based failing column p and
/// the factor of the leading (p - 1) x (p - 1) block.
fn chol_parts(args: &[&Value]) -> Result<(Vec<f64>, usize, usize)> {
    super::check_arity("chol", args, 1, 1)?;
    let a = square("chol", args[0])?;
    let n = a.dims[0];
    Ok(match cholesky(&a.data, n) {
        Ok(r) => (r, n, 0),
        Err(j) => (cholesky(&leading(&a.data, n, j), j).expect("a leading block of a factored part"), j, j + 1),
    })
}

fn eval_chol(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    match chol_parts(args)? {
        (r, q, 0) => Ok(vec![matrix(q, r)]),
        _ => Err(runtime("chol: input matrix must be positive definite")),
    }
}

fn eval_chol_flag(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (r, q, p) = chol_parts(args)?;
    Ok(vec![matrix(q, r), Value::scalar(p as f64)])
}

/// `Φ(S' E S) R` with `S = R^-1` and E the symmetric matrix of dA's upper triangle (q x q leading block).
fn chol_tangent(r: &[f64], s: &[f64], da: &[f64], n: usize, q: usize) -> Vec<f64> {
    let e: Vec<f64> = (0..q * q).map(|k| (k % q, k / q)).map(|(i, j)| da[i.min(j) + n * i.max(j)]).collect();
    let mut x = mul(&transpose(s, q, q), &mul(&e, s, q), q);
    for j in 0..q {
        x[j + q * j] /= 2.0;
        (j + 1..q).for_each(|i| x[i + q * j] = 0.0);
    }
    mul(&x, r, q)
}

fn forward_chol(fw: &Forward, k: usize) -> Result<Deriv> {
    if k > 0 {
        return Ok(Deriv::Zero);
    }
    let (r, q, _) = chol_parts(fw.inputs)?;
    let n = fw.inputs[0].dims()[0];
    let s = Lu::new(&r, q).inverse();
    linear_in(fw.derivs[0], n * n, q * q, |da| Ok(chol_tangent(&r, &s, da, n, q)))
}

/// R's second-order term: the kernel on hyper-duals (see `dual`), on the leading block it factored.
fn chol_second_order(t: &Tangents) -> Result<Adjoints> {
    let (_, q, _) = chol_parts(t.inputs)?;
    let n = t.inputs[0].dims()[0];
    kernel_second_order(t, |a: &[HyperDual]| Ok(cholesky(&leading(a, n, q), q).expect("the block factored in f64")))
}

// ---- eig ----

/// Eigenvalues in ascending order and eigenvectors as columns, each with its largest-magnitude
/// component positive (the complex eigenvalues of a general matrix are returned as they come).
struct Eigen {
    values: Vec<f64>,
    vectors: Vec<f64>,
    symmetric: bool,
}

fn is_symmetric(a: &[f64], n: usize) -> bool {
    (0..n).all(|j| (0..j).all(|i| a[i + n * j] == a[j + n * i]))
}

fn eigen(a: &[f64], n: usize) -> Result<std::result::Result<Eigen, Vec<faer::c64>>> {
    let view = MatRef::from_column_major_slice(a, n, n);
    let failed = |_| runtime("eig: the eigenvalue computation did not converge");
    let (values, mut vectors, symmetric) = if is_symmetric(a, n) {
        let e = view.self_adjoint_eigen(Side::Lower).map_err(failed)?;
        let s = e.S().column_vector();
        ((0..n).map(|i| s[i]).collect::<Vec<f64>>(), super::factor::to_vec(e.U()), true)
    } else {
        let e = view.eigen().map_err(failed)?;
        let s = e.S().column_vector();
        let values: Vec<faer::c64> = (0..n).map(|i| s[i]).collect();
        if values.iter().any(|l| l.im != 0.0) {
            return Ok(Err(values));
        }
        // Ascending, as for a symmetric matrix, so that the values are continuous where A stops being
        // symmetric (LAPACK's order for a general matrix is that of its deflations).
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&i, &j| values[i].re.total_cmp(&values[j].re));
        let u = e.U();
        let vectors = order.iter().flat_map(|&j| (0..n).map(move |i| u[(i, j)].re)).collect();
        (order.iter().map(|&k| values[k].re).collect(), vectors, false)
    };
    for column in vectors.chunks_mut(n.max(1)) {
        let norm = column.iter().map(|v| v * v).sum::<f64>().sqrt();
        let scale = super::singular::orientation(column) / norm;
        column.iter_mut().for_each(|v| *v *= scale);
    }
    Ok(Ok(Eigen { values, vectors, symmetric }))
}

fn eig_operand<'v>(args: &[&'v Value]) -> Result<std::borrow::Cow<'v, Array<f64>>> {
    super::check_arity("eig", args, 1, 1)?;
    square("eig", args[0])
}

fn eval_eig(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let a = eig_operand(args)?;
    let n = a.dims[0];
    if n == 0 {
        return Ok(vec![matrix(0, vec![])]);
    }
    Ok(vec![match eigen(&a.data, n)? {
        Ok(e) => Value::Double(Array::column(e.values)),
        Err(complex) => Value::narrowed(Array::column(complex)),
    }])
}

/// The eigen decomposition of a rule's operand, with a distinct real spectrum (else no derivative).
fn differentiable_eigen(fw_inputs: &[&Value]) -> Result<(Eigen, usize)> {
    let a = eig_operand(fw_inputs)?;
    let n = a.dims[0];
    let e = eigen(&a.data, n)?.map_err(|_| not_differentiable("msad has no derivative of eig for complex eigenvalues".into()))?;
    let mut sorted = e.values.clone();
    sorted.sort_by(f64::total_cmp);
    let scale = sorted.iter().fold(f64::MIN_POSITIVE, |m, v| m.max(v.abs()));
    if sorted.windows(2).any(|w| w[1] - w[0] <= repeated_within(n, scale)) {
        return Err(repeated_eigenvalues());
    }
    Ok((e, n))
}

/// Eigenvalues of an n x n matrix whose largest has modulus `scale` count as repeated this close.
fn repeated_within(n: usize, scale: f64) -> f64 {
    16.0 * n as f64 * f64::EPSILON * scale
}

fn repeated_eigenvalues() -> Diagnostic {
    not_differentiable("eig: repeated eigenvalues have no derivative".into())
        .with_hint("the derivative of each eigenvalue exists only where it is simple; a symmetric function of them (trace, det) has one")
}

/// Rows of the left eigenvectors normalised against V: V' for a symmetric A, else V^-1.
fn left_vectors(e: &Eigen, n: usize) -> Vec<f64> {
    if e.symmetric { transpose(&e.vectors, n, n) } else { Lu::new(&e.vectors, n).inverse() }
}

/// `W dA V` (W the left vectors as rows): its diagonal is dλ, its off-diagonal couples the vectors.
fn projected(e: &Eigen, w: &[f64], da: &[f64], n: usize) -> Vec<f64> {
    mul(w, &mul(da, &e.vectors, n), n)
}

fn forward_eigenvalues(fw: &Forward) -> Result<Deriv> {
    let (e, n) = differentiable_eigen(fw.inputs)?;
    let w = left_vectors(&e, n);
    linear_in(fw.derivs[0], n * n, n, |da| {
        let p = projected(&e, &w, da, n);
        Ok((0..n).map(|k| p[k + n * k]).collect())
    })
}

/// `dλ = diag(V^-1 dA V)` for the eigenvalues of a real A when some are complex (the rows of V^-1 are
/// the left eigenvectors normalised against V): the block of a complex result, its real parts' rows
/// over its imaginary parts'. The values come in `eval_eig`'s order (faer's, unsorted).
pub(crate) fn forward_complex_eigenvalues(fw: &Forward) -> Result<Deriv> {
    let a = eig_operand(fw.inputs)?;
    let n = a.dims[0];
    let e =
        MatRef::from_column_major_slice(&a.data, n, n).eigen().map_err(|_| runtime("eig: the eigenvalue computation did not converge"))?;
    let values: Vec<faer::c64> = (0..n).map(|i| e.S().column_vector()[i]).collect();
    let scale = values.iter().fold(f64::MIN_POSITIVE, |m, v| m.max(v.norm()));
    if (0..n).any(|i| (i + 1..n).any(|j| (values[i] - values[j]).norm() <= repeated_within(n, scale))) {
        return Err(repeated_eigenvalues());
    }
    let (vectors, left) = (e.U(), e.U().partial_piv_lu().inverse());
    linear_in(fw.derivs[0], n * n, 2 * n, |da| {
        let mut rows = vec![0.0; 2 * n];
        for k in 0..n {
            let projected: faer::c64 =
                (0..n).map(|q| (0..n).map(|p| left[(k, p)] * da[p + n * q]).sum::<faer::c64>() * vectors[(q, k)]).sum();
            (rows[k], rows[n + k]) = (projected.re, projected.im);
        }
        Ok(rows)
    })
}

/// `dV` of a symmetric A along dA: `dv_k = sum_{j != k} v_j p_jk / (λ_k - λ_j)`, `P = V' dA V`.
fn eigenvector_tangent(e: &Eigen, p: &[f64], n: usize) -> Vec<f64> {
    let mut coupling = vec![0.0; n * n];
    for k in 0..n {
        for j in (0..n).filter(|&j| j != k) {
            coupling[j + n * k] = p[j + n * k] / (e.values[k] - e.values[j]);
        }
    }
    mul(&e.vectors, &coupling, n)
}

fn eval_eigenvectors(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let a = eig_operand(args)?;
    let n = a.dims[0];
    match eigen(&a.data, n)? {
        Ok(e) if e.symmetric => {
            let mut d = vec![0.0; n * n];
            (0..n).for_each(|k| d[k + n * k] = e.values[k]);
            Ok(vec![matrix(n, e.vectors), matrix(n, d)])
        }
        _ => Err(Diagnostic::new(ErrorKind::Unsupported, "eig: eigenvectors of a matrix that is not symmetric")
            .with_hint("msad computes [V, D] = eig(A) for symmetric A; eig(A) gives the eigenvalues of any real A")),
    }
}

fn forward_eigenvectors(fw: &Forward, k: usize) -> Result<Deriv> {
    let (e, n) = differentiable_eigen(fw.inputs)?;
    let w = left_vectors(&e, n);
    linear_in(fw.derivs[0], n * n, n * n, |da| {
        let p = projected(&e, &w, da, n);
        Ok(match k {
            0 => eigenvector_tangent(&e, &p, n),
            _ => (0..n * n).map(|i| if i % (n + 1) == 0 { p[i] } else { 0.0 }).collect(),
        })
    })
}

/// The transpose of `forward_eigenvectors` (`P = W dA V`): V's adjoint gives `Pbar = F ∘ (V' Vbar)`,
/// `F_jk = 1 / (λ_k - λ_j)` off the diagonal, D's its diagonal; then `Abar = W' Pbar V'`.
fn reverse_eigenvectors(rv: &Reverse) -> Result<Adjoints> {
    if !rv.wanted[0] {
        return Ok(vec![None]);
    }
    let (e, n) = differentiable_eigen(rv.inputs)?;
    let (wt, vt) = (transpose(&left_vectors(&e, n), n, n), transpose(&e.vectors, n, n));
    super::reverse::by_column(rv, |adjoint| {
        let pbar: Vec<f64> = match rv.result {
            0 => {
                let g = mul(&vt, adjoint, n);
                let coupled = |i: usize| {
                    let (j, k) = (i % n, i / n);
                    if j == k { 0.0 } else { g[i] / (e.values[k] - e.values[j]) }
                };
                (0..n * n).map(coupled).collect()
            }
            _ => (0..n * n).map(|i| if i % (n + 1) == 0 { adjoint[i] } else { 0.0 }).collect(),
        };
        Ok(vec![Some(mul(&wt, &mul(&pbar, &vt, n), n))])
    })
}

/// The tangent along dA of the adjoint `Abar = W' Pbar V'` of the eigenvalues or of `[V, D]` (see
/// `reverse_eigenvectors`; `of_vectors`): with `dV = V C`, `C_jk = P_jk / (λ_k - λ_j)` off the
/// diagonal (`P = W dA V`), and `dW = -C W` (W = V^-1), it is `W' (Pbar C' - C' Pbar + dPbar) V'` (the
/// scaling of each vector cancels). The values' and D's `Pbar = diag(ybar)` stays; V's
/// `Pbar = F ∘ G`, `G = V' Vbar`, `F_jk = 1 / (λ_k - λ_j)`, moves by `dF ∘ G + F ∘ (C' G)`.
fn eigen_second_order(t: &Tangents, of_vectors: bool) -> Result<Adjoints> {
    let Some(da) = t.tangents[0].filter(|_| t.wanted[0]) else { return Ok(vec![None]) };
    let (e, n) = differentiable_eigen(t.inputs)?;
    let w = left_vectors(&e, n);
    let (wt, vt) = (transpose(&w, n, n), transpose(&e.vectors, n, n));
    let gap = |i: usize| e.values[i / n] - e.values[i % n];
    let off_diagonal = |i: usize, v: f64| if i % n == i / n { 0.0 } else { v };
    let g = (of_vectors && t.result == 0).then(|| mul(&vt, t.adjoint, n));
    let pbar: Vec<f64> = match &g {
        Some(g) => (0..n * n).map(|i| off_diagonal(i, g[i] / gap(i))).collect(),
        None => (0..n * n)
            .map(|i| {
                if i % (n + 1) > 0 {
                    0.0
                } else if of_vectors {
                    t.adjoint[i]
                } else {
                    t.adjoint[i / n]
                }
            })
            .collect(),
    };
    let mut term = Vec::with_capacity(n * n * t.directions);
    for j in 0..t.directions {
        let p = projected(&e, &w, da.column(j), n);
        let ct = transpose(&(0..n * n).map(|i| off_diagonal(i, p[i] / gap(i))).collect::<Vec<f64>>(), n, n);
        let (right, left) = (mul(&pbar, &ct, n), mul(&ct, &pbar, n));
        let mut middle: Vec<f64> = right.iter().zip(&left).map(|(r, l)| r - l).collect();
        if let Some(g) = &g {
            let moved = mul(&ct, g, n);
            let slope = |i: usize| p[(i / n) * (n + 1)] - p[(i % n) * (n + 1)];
            (0..n * n).for_each(|i| middle[i] += off_diagonal(i, (moved[i] - slope(i) * g[i] / gap(i)) / gap(i)));
        }
        term.extend(mul(&wt, &mul(&middle, &vt, n), n));
    }
    Ok(vec![Some(term)])
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, check, matrix, value};
    use crate::value::Value;

    fn spd(n: usize, rng: &mut Random) -> Value {
        let b = rng.matrix(n, n).numeric().unwrap().into_owned();
        let mut a = super::mul(&super::transpose(&b.data, n, n), &b.data, n);
        (0..n).for_each(|k| a[k + n * k] += n as f64);
        matrix(n, n, &a)
    }

    #[test]
    fn cholesky_matches_finite_differences_and_octave() {
        let mut rng = Random::new(51);
        for n in [1, 2, 4] {
            check("chol", &[spd(n, &mut rng)], &[0]);
        }
        let r = value("chol", &[matrix(2, 2, &[4.0, 2.0, 2.0, 5.0])], 1).remove(0);
        assert_eq!(r.numeric().unwrap().data, vec![2.0, 0.0, 1.0, 2.0]);
        // [R, p] = chol([1 2; 2 1]): p = 2, R = 1.
        let parts = value("[R, p] = chol", &[matrix(2, 2, &[1.0, 2.0, 2.0, 1.0])], 2);
        assert_eq!((parts[0].numeric().unwrap().data.clone(), parts[1].numeric().unwrap().data[0]), (vec![1.0], 2.0));
    }

    #[test]
    fn eigenvalues_and_singular_values_match_finite_differences() {
        let mut rng = Random::new(52);
        for n in [1, 2, 3, 5] {
            let a = spd(n, &mut rng);
            check("eig", std::slice::from_ref(&a), &[0]);
            check("svd", &[rng.matrix(n, n + 1)], &[0]);
            check("svd", &[rng.matrix(n + 2, n)], &[0]);
        }
        // A general matrix with a real spectrum: eigenvalues 2 and 3.
        check("eig", &[matrix(2, 2, &[2.0, 0.0, 1.0, 3.0])], &[0]);
    }

    #[test]
    fn repeated_eigenvalues_have_values_but_no_derivative() {
        let identity = matrix(2, 2, &[1.0, 0.0, 0.0, 1.0]);
        assert_eq!(value("eig", std::slice::from_ref(&identity), 1)[0].numeric().unwrap().data, vec![1.0, 1.0]);
        let output = value("eig", std::slice::from_ref(&identity), 1).remove(0);
        let seed = crate::value::deriv::Deriv::Sparse(crate::value::deriv::SparseDeriv::identity(4));
        let fw = super::Forward { inputs: &[&identity], derivs: &[&seed], output: &output };
        assert!(super::forward_eigenvalues(&fw).is_err());
    }
}
