//! Matrix division `A\B` and `B/A`: LU with partial pivoting for square systems (one factorization
//! serves every derivative direction), full-rank least squares or minimum norm through QR otherwise.
//!
//! Square: `x = A\b`, `dx = A^-1 (db - dA x)`. Non-square full rank, with `P = pinv(A)`:
//! `dx = P (db - dA x) + G dA' w`, where `G = P P' = (A'A)^-1` and `w = b - A x` for tall A, and
//! `G = I - P A` and `w = P' x = (A A')^-1 b` for wide A.

use super::elementwise::{nonconformant, numeric};
use super::factor::{Lu, pseudo_inverse, transpose};
use super::matrix::{elementwise_eval, elementwise_forward, gemm, is_scalar, left_product, matrix_2d, right_product, transpose_map};
use super::matrix_second_order::matrix_function;
use super::reverse::{Adjoints, Reverse, transposed_forward};
use super::{Forward, Hessian, IntegerArgs, Linearity, Prim, Primitive, ScalarOperands, general, sparse_lu};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{Deriv, RowMap, combine};
use crate::value::{Array, Value};
use std::rc::Rc;

primitive_names! {
    Mldivide = "mldivide",
    Mrdivide = "mrdivide",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        general(Prim::Mldivide, eval_mldivide, forward_mldivide)
            .linear(Linearity::Denominator)
            .vjp(reverse_mldivide)
            .elementwise_twin(Prim::Ldivide, ScalarOperands::First)
            .hessian(Hessian::Own(|a, t| matrix_function(Prim::Mldivide, a, t))),
        general(Prim::Mrdivide, eval_mrdivide, forward_mrdivide)
            .linear(Linearity::Numerator)
            .vjp(reverse_mrdivide)
            .integers(IntegerArgs::KeepClass)
            .elementwise_twin(Prim::Rdivide, ScalarOperands::Second)
            .hessian(Hessian::Own(|a, t| matrix_function(Prim::Mrdivide, a, t))),
    ]
}

/// The factored square matrix, or msad:unsupported where Octave would switch to a least-squares solution.
pub(super) fn factor_nonsingular(op: &str, a: &[f64], n: usize) -> Result<Rc<Lu>> {
    let lu = Lu::shared(a, n);
    let rcond = lu.rcond(a);
    if rcond + 1.0 == 1.0 {
        return Err(singular(op, rcond));
    }
    Ok(lu)
}

/// The error for a square matrix singular to machine precision, where Octave warns and solves anyway.
pub(super) fn singular(op: &str, rcond: f64) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("{op}: the matrix is singular to machine precision (rcond = {rcond:e})"))
        .with_hint("Octave falls back to a least-squares solution here, which msad does not differentiate")
}

fn pinv(op: &str, a: &Array<f64>) -> Result<Vec<f64>> {
    pseudo_inverse(&a.data, a.dims[0], a.dims[1]).ok_or_else(|| {
        Diagnostic::new(ErrorKind::Unsupported, format!("{op}: the non-square matrix is rank-deficient"))
            .with_hint("msad solves full-rank least-squares and minimum-norm problems only")
    })
}

/// `A\B` for A m x n and B m x k.
fn solve(op: &str, a: &Array<f64>, b: &Array<f64>) -> Result<Array<f64>> {
    let (m, n, k) = (a.dims[0], a.dims[1], b.dims[1]);
    let x = if m == n {
        let mut x = b.data.clone();
        factor_nonsingular(op, &a.data, n)?.solve_in_place(&mut x, k);
        x
    } else {
        let mut x = vec![0.0; n * k];
        gemm(&mut x, &pinv(op, a)?, &b.data, n, m, k, false);
        x
    };
    Ok(Array::new(vec![n, k], x))
}

fn add(a: &Deriv, b: &Deriv, rows: usize) -> Deriv {
    let ones = vec![1.0; rows];
    combine(&[(&ones, a, &RowMap::Identity), (&ones, b, &RowMap::Identity)], rows)
}

/// Derivative of `x = A\b` (see the module comment).
fn solve_derivative(op: &str, a: &Array<f64>, b: &Array<f64>, da: &Deriv, db: &Deriv, x: &Array<f64>) -> Result<Deriv> {
    let (m, n, k) = (a.dims[0], a.dims[1], x.dims[1]);
    let minus_x: Vec<f64> = x.data.iter().map(|v| -v).collect();
    let rhs = add(db, &right_product(da, &minus_x, m, n, k, false), m * k);
    if m == n {
        let lu = factor_nonsingular(op, &a.data, n)?;
        return Ok(match rhs {
            Deriv::Dense(mut d) => {
                lu.solve_in_place(&mut d.data, k * d.nd);
                Deriv::Dense(d)
            }
            other => left_product(&lu.inverse(), &other, n, n, k, da.is_zero()),
        });
    }
    let p = pinv(op, a)?;
    let main = left_product(&p, &rhs, n, m, k, da.is_zero());
    if da.is_zero() {
        return Ok(main);
    }
    let pt = transpose(&p, n, m);
    let (mut g, mut w) = (vec![0.0; n * n], vec![0.0; m * k]);
    if m > n {
        gemm(&mut g, &p, &pt, n, m, n, false);
        w.copy_from_slice(&b.data);
        let minus_a: Vec<f64> = a.data.iter().map(|v| -v).collect();
        gemm(&mut w, &minus_a, &x.data, m, n, k, true);
    } else {
        gemm(&mut g, &p, &a.data, n, m, n, false);
        g.iter_mut().for_each(|v| *v = -*v);
        (0..n).for_each(|i| g[i + n * i] += 1.0);
        gemm(&mut w, &pt, &x.data, m, n, k, false);
    }
    let da_transposed = da.gather(&RowMap::Gather(transpose_map(m, n)), m * n);
    let correction = left_product(&g, &right_product(&da_transposed, &w, n, m, k, false), n, n, k, false);
    Ok(add(&main, &correction, n * k))
}

fn eval_mldivide(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("mldivide", args, 2, 2)?;
    if is_scalar(args[0]) {
        return elementwise_eval(Prim::Ldivide, args);
    }
    if let Value::Sparse(a) = args[0] {
        return sparse_lu::eval_mldivide(a, args[1]);
    }
    let (a, b) = (matrix_2d("mldivide", args[0])?, matrix_2d("mldivide", args[1])?);
    if a.dims[0] != b.dims[0] {
        return Err(nonconformant("operator \\", &a.dims, &b.dims));
    }
    Ok(vec![Value::Double(solve("operator \\", &a, &b)?)])
}

fn forward_mldivide(fw: &Forward) -> Result<Deriv> {
    if is_scalar(fw.inputs[0]) {
        return elementwise_forward(Prim::Ldivide, fw);
    }
    if let Value::Sparse(a) = fw.inputs[0] {
        return sparse_lu::forward_mldivide(a, fw.derivs[0], fw.derivs[1], fw.output);
    }
    let (a, b, x) = (numeric("", fw.inputs[0])?, numeric("", fw.inputs[1])?, numeric("", fw.output)?);
    solve_derivative("operator \\", &a, &b, fw.derivs[0], fw.derivs[1], &x)
}

fn transposed(a: &Array<f64>) -> Array<f64> {
    Array::new(vec![a.dims[1], a.dims[0]], transpose(&a.data, a.dims[0], a.dims[1]))
}

/// `B/A = (A.' \ B.').'`.
fn eval_mrdivide(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("mrdivide", args, 2, 2)?;
    if is_scalar(args[1]) {
        return elementwise_eval(Prim::Rdivide, args);
    }
    if let Value::Sparse(a) = args[1] {
        return sparse_lu::eval_mrdivide(args[0], a);
    }
    let (b, a) = (matrix_2d("mrdivide", args[0])?, matrix_2d("mrdivide", args[1])?);
    if a.dims[1] != b.dims[1] {
        return Err(nonconformant("operator /", &b.dims, &a.dims));
    }
    Ok(vec![Value::Double(transposed(&solve("operator /", &transposed(&a), &transposed(&b))?))])
}

fn forward_mrdivide(fw: &Forward) -> Result<Deriv> {
    if is_scalar(fw.inputs[1]) {
        return elementwise_forward(Prim::Rdivide, fw);
    }
    if let Value::Sparse(a) = fw.inputs[1] {
        return sparse_lu::forward_mrdivide(fw.derivs[0], &fw.inputs[0].dims(), a, fw.derivs[1], fw.output);
    }
    let (b, a, x) = (numeric("", fw.inputs[0])?, numeric("", fw.inputs[1])?, numeric("", fw.output)?);
    let transpose_block = |d: &Deriv, dims: &[usize]| d.gather(&RowMap::Gather(transpose_map(dims[0], dims[1])), dims[0] * dims[1]);
    let (at, bt, xt) = (transposed(&a), transposed(&b), transposed(&x));
    let dxt =
        solve_derivative("operator /", &at, &bt, &transpose_block(fw.derivs[1], &a.dims), &transpose_block(fw.derivs[0], &b.dims), &xt)?;
    Ok(transpose_block(&dxt, &xt.dims))
}

/// Reverse rule of `A\B`: with a constant sparse A, `adj B = A' \ adj X` on the same sparse factors
/// (the transposed forward rule would build a dense inverse); otherwise the transposed forward rule.
fn reverse_mldivide(rv: &Reverse) -> Result<Adjoints> {
    reverse_solve(Prim::Mldivide, 0, rv)
}

/// Reverse rule of `B/A`: `adj B = adj X / A'`, as `reverse_mldivide`.
fn reverse_mrdivide(rv: &Reverse) -> Result<Adjoints> {
    reverse_solve(Prim::Mrdivide, 1, rv)
}

fn reverse_solve(id: Prim, matrix: usize, rv: &Reverse) -> Result<Adjoints> {
    match rv.inputs[matrix] {
        Value::Sparse(a) if !rv.wanted[matrix] && !matches!(rv.inputs[1 - matrix], Value::Sparse(_)) && a.nnz() > 0 => {
            let x = numeric("", rv.output)?;
            sparse_lu::solve_adjoints(id, a, &x, rv.adjoint, rv.columns, rv.wanted)
        }
        _ => transposed_forward(id, rv),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, check, matrix, value};
    use crate::value::Value;

    fn well_conditioned(rng: &mut Random, n: usize) -> Value {
        let mut a = rng.matrix(n, n).numeric().unwrap().into_owned();
        (0..n).for_each(|i| a.data[i + n * i] += n as f64);
        Value::Double(a)
    }

    #[test]
    fn square_solves_match_finite_differences() {
        let mut rng = Random::new(1);
        for n in [1, 2, 4] {
            for k in [1, 3] {
                let (a, b) = (well_conditioned(&mut rng, n), rng.matrix(n, k));
                for active in [&[0][..], &[1], &[0, 1]] {
                    check("mldivide", &[a.clone(), b.clone()], active);
                    check("mrdivide", &[rng.matrix(k, n), a.clone()], active);
                }
            }
        }
    }

    #[test]
    fn least_squares_and_minimum_norm_match_finite_differences() {
        let mut rng = Random::new(2);
        for (m, n) in [(5, 3), (3, 5), (4, 1), (1, 3)] {
            let (a, b) = (rng.matrix(m, n), rng.matrix(m, 2));
            for active in [&[0][..], &[1], &[0, 1]] {
                check("mldivide", &[a.clone(), b.clone()], active);
                check("mrdivide", &[rng.matrix(2, n), rng.matrix(m, n)], active);
            }
        }
    }

    #[test]
    fn solution_satisfies_the_system() {
        let a = matrix(2, 2, &[4.0, 1.0, 2.0, 3.0]);
        let x = value("mldivide", &[a, matrix(2, 1, &[8.0, 7.0])], 1).remove(0);
        let x = x.numeric().unwrap().data.clone();
        // [4 2; 1 3] x = [8; 7]
        assert!((4.0 * x[0] + 2.0 * x[1] - 8.0).abs() < 1e-14 && (x[0] + 3.0 * x[1] - 7.0).abs() < 1e-14);
    }

    #[test]
    fn singular_matrix_is_unsupported() {
        let a = matrix(2, 2, &[1.0, 1.0, 1.0, 1.0]);
        let refs = [&a, &matrix(2, 1, &[1.0, 2.0])];
        let err = super::eval_mldivide(&refs, 1).unwrap_err();
        assert_eq!(err.kind, crate::diag::ErrorKind::Unsupported);
    }
}
