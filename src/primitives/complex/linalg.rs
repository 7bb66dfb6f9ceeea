//! Complex linear algebra: `A\B`, `B/A`, `inv` and `det` through faer's LU with partial pivoting (as
//! LAPACK's zgesv and zgetrf in Octave), and `norm` through the real norms (see `norm`).

use super::super::Prim;
use super::super::elementwise::nonconformant;
use super::super::factor::is_odd;
use super::super::linsolve::singular;
use super::super::{check_arity, runtime};
use crate::diag::Result;
use crate::value::{Array, Complex64, Value};
use faer::linalg::solvers::{DenseSolveCore, PartialPivLu, SolveCore};
use faer::{Conj, MatMut, MatRef};

type C = Complex64;

/// A 2-D complex operand of `name`.
fn matrix<'v>(name: &str, v: &'v Value) -> Result<std::borrow::Cow<'v, Array<C>>> {
    let a = v.complex_parts().ok_or_else(|| runtime(format!("{name}: wrong type argument '{}'", v.class_name())))?;
    if a.dims.len() > 2 {
        return Err(runtime(format!("{name}: operator is not defined for N-D arrays")));
    }
    Ok(a)
}

fn square<'v>(name: &str, message: &str, v: &'v Value) -> Result<std::borrow::Cow<'v, Array<C>>> {
    let a = matrix(name, v)?;
    if a.dims[0] != a.dims[1] {
        return Err(runtime(format!("{name}: {message}")));
    }
    Ok(a)
}

fn factor(a: &Array<C>) -> PartialPivLu<C> {
    MatRef::from_column_major_slice(&a.data, a.dims[0], a.dims[1]).partial_piv_lu()
}

fn is_singular(lu: &PartialPivLu<C>) -> bool {
    (0..lu.U().nrows()).any(|i| lu.U()[(i, i)] == C::new(0.0, 0.0))
}

fn inverse(lu: &PartialPivLu<C>) -> Vec<C> {
    let x = lu.inverse();
    (0..x.ncols()).flat_map(|j| (0..x.nrows()).map(move |i| (i, j))).map(|(i, j)| x[(i, j)]).collect()
}

/// The largest absolute column sum.
fn norm1(a: &[C], n: usize) -> f64 {
    (0..n).map(|j| a[j * n..(j + 1) * n].iter().map(|z| z.norm()).sum::<f64>()).fold(0.0, f64::max)
}

/// `A\B`: LU for a square A; for a non-square A the real least-squares or minimum-norm solution of the
/// real embedding, which has the same residual and solution norms.
fn solve(op: &str, a: &Array<C>, b: &Array<C>) -> Result<Array<C>> {
    let (n, k) = (a.dims[1], b.dims[1]);
    if a.dims[0] != n {
        return least_squares(a, b);
    }
    let lu = factor(a);
    // The exact 1-norm condition (LAPACK estimates it); systems are small where code is complex.
    let rcond = if n == 0 {
        f64::INFINITY
    } else if is_singular(&lu) {
        0.0
    } else {
        1.0 / (norm1(&a.data, n) * norm1(&inverse(&lu), n))
    };
    if rcond + 1.0 == 1.0 {
        return Err(singular(op, rcond));
    }
    let mut x = b.data.clone();
    lu.solve_in_place_with_conj(Conj::No, MatMut::from_column_major_slice_mut(&mut x, n, k));
    Ok(Array::new(vec![n, k], x))
}

/// `[re -im; im re]` of an m x n matrix, or `[re; im]` (`stacked`).
fn embedding(z: &Array<C>, stacked: bool) -> Array<f64> {
    let (m, n) = (z.dims[0], z.dims[1]);
    let columns = if stacked { n } else { 2 * n };
    let at = |i: usize, j: usize| {
        let w = z.data[i % m + m * (j % n)];
        match (i < m, j < n) {
            (true, true) | (false, false) => w.re,
            (true, false) => -w.im,
            (false, true) => w.im,
        }
    };
    Array::new(vec![2 * m, columns], (0..columns).flat_map(|j| (0..2 * m).map(move |i| at(i, j))).collect())
}

fn least_squares(a: &Array<C>, b: &Array<C>) -> Result<Array<C>> {
    let (a, b) = (Value::Double(embedding(a, false)), Value::Double(embedding(b, true)));
    let x = super::super::eval(Prim::Mldivide, &[&a, &b], 1)?.swap_remove(0);
    let x = x.numeric().ok_or_else(|| runtime("mldivide: a real solution expected"))?;
    let (n, k) = (x.dims[0] / 2, x.dims[1]);
    let data = (0..k).flat_map(|j| (0..n).map(move |i| (i, j))).map(|(i, j)| C::new(x.data[i + 2 * n * j], x.data[i + n + 2 * n * j]));
    Ok(Array::new(vec![n, k], data.collect()))
}

fn transposed(a: &Array<C>) -> Array<C> {
    let (m, n) = (a.dims[0], a.dims[1]);
    Array::new(vec![n, m], (0..m).flat_map(|i| (0..n).map(move |j| a.data[i + m * j])).collect())
}

/// `A\B` with a matrix A.
pub(super) fn mldivide(args: &[&Value]) -> Result<Value> {
    let (a, b) = (matrix("mldivide", args[0])?, matrix("mldivide", args[1])?);
    if a.dims[0] != b.dims[0] {
        return Err(nonconformant("operator \\", &a.dims, &b.dims));
    }
    Ok(Value::narrowed(solve("operator \\", &a, &b)?))
}

/// `B/A = (A.' \ B.').'` with a matrix A.
pub(super) fn mrdivide(args: &[&Value]) -> Result<Value> {
    let (b, a) = (matrix("mrdivide", args[0])?, matrix("mrdivide", args[1])?);
    if a.dims[1] != b.dims[1] {
        return Err(nonconformant("operator /", &b.dims, &a.dims));
    }
    Ok(Value::narrowed(transposed(&solve("operator /", &transposed(&a), &transposed(&b))?)))
}

/// `inv(A)`; a singular A gives Inf everywhere, as in Octave.
pub(super) fn inv(args: &[&Value]) -> Result<Value> {
    check_arity("inverse", args, 1, 1)?;
    let a = square("inverse", "argument must be a square matrix", args[0])?;
    let lu = factor(&a);
    if is_singular(&lu) {
        return Ok(Value::Double(a.map(|_| f64::INFINITY)));
    }
    Ok(Value::narrowed(Array::new(a.dims.clone(), inverse(&lu))))
}

/// `det(A)`: the product of U's diagonal, negated for an odd row permutation.
pub(super) fn det(args: &[&Value]) -> Result<Value> {
    check_arity("det", args, 1, 1)?;
    let a = square("det", "A must be a square matrix", args[0])?;
    let lu = factor(&a);
    let product: C = (0..a.dims[0]).map(|i| lu.U()[(i, i)]).product();
    let det = if is_odd(lu.P().arrays().0) { -product } else { product };
    Ok(Value::narrowed(Array::scalar(det)))
}

/// `norm(z, ...)` as the real norm of real data with the same value: the interleaved parts for the
/// Euclidean norms (Octave accumulates real and imaginary parts in turn), the real embedding
/// `[re -im; im re]` for a matrix 2-norm (the same singular values, each twice), moduli otherwise.
pub(super) fn norm_operand(args: &[&Value]) -> Result<Value> {
    let Value::Complex(z) = args[0] else { return Ok(args[0].clone()) };
    let euclidean = super::super::norm::is_euclidean(args);
    let vector = z.dims.len() == 2 && (z.dims[0] == 1 || z.dims[1] == 1);
    let two = args.len() == 1 || matches!(args[1].numeric().as_deref().map(|p| p.data.as_slice()), Some([p]) if *p == 2.0);
    Ok(Value::Double(match () {
        _ if euclidean && z.dims.len() == 2 => Array::new(vec![2 * z.data.len(), 1], z.data.iter().flat_map(|z| [z.re, z.im]).collect()),
        _ if two && !vector && z.dims.len() == 2 => embedding(z, false),
        _ => z.map(|z| z.norm()),
    }))
}
