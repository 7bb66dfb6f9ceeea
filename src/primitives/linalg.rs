//! Matrix functions: `inv` (dX = -X dA X), `det` (d det = <adj(A)', dA>), `mpower` with an integer
//! exponent (Octave's binary powering, differentiated product by product) and `trace`.

use super::elementwise::numeric;
use super::factor::{Lu, svd, transpose};
use super::matrix::{elementwise_eval, elementwise_forward, gemm, is_scalar, left_product, matrix_2d, product_derivative, right_product};
use super::matrix_second_order::matrix_function;
use super::{Forward, Hessian, IntegerArgs, Linearity, Prim, Primitive, ScalarOperands, general, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{Deriv, RowOperator};
use crate::value::{Array, Value};

primitive_names! {
    Inv = "inv",
    Inverse = "inverse",
    Det = "det",
    Mpower = "mpower",
    Trace = "trace",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        general(Prim::Inv, eval_inv, forward_inv).hessian(Hessian::Own(|a, t| matrix_function(Prim::Inv, a, t))),
        general(Prim::Inverse, eval_inv, forward_inv).hessian(Hessian::Own(|a, t| matrix_function(Prim::Inverse, a, t))),
        general(Prim::Det, eval_det, forward_det).hessian(Hessian::Own(|a, t| matrix_function(Prim::Det, a, t))),
        general(Prim::Mpower, eval_mpower, forward_mpower)
            .integers(IntegerArgs::KeepClass)
            .elementwise_twin(Prim::Power, ScalarOperands::Both)
            .hessian(Hessian::Own(|a, t| matrix_function(Prim::Mpower, a, t))),
        general(Prim::Trace, eval_trace, forward_trace).linear(Linearity::Additive),
    ]
}

fn square<'v>(name: &str, message: &str, v: &'v Value) -> Result<std::borrow::Cow<'v, Array<f64>>> {
    let a = matrix_2d(name, v)?;
    if a.dims[0] != a.dims[1] {
        return Err(runtime(format!("{name}: {message}")));
    }
    Ok(a)
}

/// `inv(A)`; a singular A gives Inf everywhere, as in Octave.
fn inverse(a: &[f64], n: usize) -> Vec<f64> {
    let lu = Lu::shared(a, n);
    if lu.is_singular() { vec![f64::INFINITY; n * n] } else { lu.inverse() }
}

/// `-X dA X` for `X = inv(A)`.
fn inverse_derivative(x: &[f64], da: &Deriv, n: usize) -> Deriv {
    let minus_x: Vec<f64> = x.iter().map(|v| -v).collect();
    left_product(&minus_x, &right_product(da, x, n, n, n, false), n, n, n, false)
}

fn eval_inv(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("inverse", args, 1, 1)?;
    let a = square("inverse", "argument must be a square matrix", args[0])?;
    Ok(vec![Value::Double(Array::new(a.dims.clone(), inverse(&a.data, a.dims[0])))])
}

fn forward_inv(fw: &Forward) -> Result<Deriv> {
    let x = numeric("", fw.output)?;
    Ok(inverse_derivative(&x.data, fw.derivs[0], x.dims[0]))
}

fn eval_det(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("det", args, 1, 1)?;
    let a = square("det", "A must be a square matrix", args[0])?;
    Ok(vec![Value::scalar(Lu::shared(&a.data, a.dims[0]).determinant())])
}

/// `G = adj(A)'`, so that `d det(A) = sum G .* dA`: `det(A) inv(A)'` when A is regular, otherwise from
/// the SVD `A = U S V'`: `adj(A) = det(U) det(V) V adj(S) U'`, `adj(S)_ii = prod_{j != i} s_j`.
fn det_gradient(a: &[f64], n: usize) -> Result<Vec<f64>> {
    let lu = Lu::shared(a, n);
    if !lu.is_singular() {
        let det = lu.determinant();
        return Ok(transpose(&lu.inverse(), n, n).into_iter().map(|v| det * v).collect());
    }
    let svd = svd(a, n, n).ok_or_else(|| runtime("det: the singular value decomposition did not converge"))?;
    let sign = Lu::new(&svd.u, n).determinant() * Lu::new(&svd.v, n).determinant();
    let cofactors: Vec<f64> = (0..n).map(|i| (0..n).filter(|&j| j != i).map(|j| svd.s[j]).product()).collect();
    let mut g = vec![0.0; n * n];
    for j in 0..n {
        for i in 0..n {
            g[i + n * j] = sign * (0..n).map(|l| svd.u[i + n * l] * cofactors[l] * svd.v[j + n * l]).sum::<f64>();
        }
    }
    Ok(g)
}

fn forward_det(fw: &Forward) -> Result<Deriv> {
    let a = numeric("", fw.inputs[0])?;
    let n = a.dims[0];
    let gradient = det_gradient(&a.data, n)?;
    Ok(fw.derivs[0].apply(&RowOperator { ptr: vec![0, n * n], src: (0..n * n).collect(), coef: gradient }))
}

/// The operands of `A^p` with a square matrix A: A and the integer p.
fn matrix_and_exponent<'v>(args: &[&'v Value]) -> Result<(std::borrow::Cow<'v, Array<f64>>, i64)> {
    if !is_scalar(args[1]) {
        return Err(Diagnostic::new(ErrorKind::Unsupported, "operator ^ with a matrix exponent").with_hint("use .^ for elementwise powers"));
    }
    let a = square(
        "mpower",
        "for x^y, only square matrix arguments are permitted and one argument must be scalar.  Use .^ for elementwise power.",
        args[0],
    )?;
    let p = numeric("mpower", args[1])?.data[0];
    if p.fract() != 0.0 || p.abs() > i64::MAX as f64 {
        return Err(Diagnostic::new(ErrorKind::Unsupported, "operator ^: a matrix to a non-integer power")
            .with_hint("msad supports A^p for integer p; use .^ for elementwise powers"));
    }
    Ok((a, p as i64))
}

/// `(X Y, d(X Y))` for n x n matrices.
fn multiply(x: &(Vec<f64>, Deriv), y: &(Vec<f64>, Deriv), n: usize) -> (Vec<f64>, Deriv) {
    let mut xy = vec![0.0; n * n];
    gemm(&mut xy, &x.0, &y.0, n, n, n, false);
    (xy, product_derivative(&x.0, &x.1, &y.0, &y.1, n, n, n))
}

/// `A^p` and its derivative by Octave's binary powering (of `inv(A)` when p < 0), so the value is
/// Octave's.
fn matrix_power(a: &[f64], da: &Deriv, n: usize, p: i64) -> (Vec<f64>, Deriv) {
    if p == 0 {
        let mut identity = vec![0.0; n * n];
        (0..n).for_each(|i| identity[i + n * i] = 1.0);
        return (identity, Deriv::Zero);
    }
    let mut base = if p < 0 {
        let x = inverse(a, n);
        let dx = inverse_derivative(&x, da, n);
        (x, dx)
    } else {
        (a.to_vec(), da.clone())
    };
    let mut result = base.clone();
    let mut remaining = p.unsigned_abs() - 1;
    while remaining > 0 {
        if remaining & 1 == 1 {
            result = multiply(&result, &base, n);
        }
        remaining >>= 1;
        if remaining > 0 {
            base = multiply(&base, &base, n);
        }
    }
    result
}

fn eval_mpower(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("mpower", args, 2, 2)?;
    if is_scalar(args[0]) && is_scalar(args[1]) {
        return elementwise_eval(Prim::Power, args);
    }
    if is_scalar(args[0]) {
        return Err(
            Diagnostic::new(ErrorKind::Unsupported, "operator ^: a scalar to a matrix power").with_hint("use .^ for elementwise powers")
        );
    }
    let (a, p) = matrix_and_exponent(args)?;
    let n = a.dims[0];
    Ok(vec![Value::Double(Array::new(vec![n, n], matrix_power(&a.data, &Deriv::Zero, n, p).0))])
}

fn forward_mpower(fw: &Forward) -> Result<Deriv> {
    if is_scalar(fw.inputs[0]) && is_scalar(fw.inputs[1]) {
        return elementwise_forward(Prim::Power, fw);
    }
    if !fw.derivs[1].is_zero() {
        return Err(Diagnostic::new(ErrorKind::NotDifferentiable, "msad has no derivative of A^p with respect to the exponent p"));
    }
    let (a, p) = matrix_and_exponent(fw.inputs)?;
    Ok(matrix_power(&a.data, fw.derivs[0], a.dims[0], p).1)
}

/// Positions of the elements `trace` adds: as Octave's trace.m, the diagonal of a matrix, the first
/// element of a vector, nothing for an empty array.
fn trace_positions(args: &[&Value]) -> Result<Vec<usize>> {
    super::check_arity("trace", args, 1, 1)?;
    let dims = args[0].dims();
    if dims.len() > 2 {
        return Err(runtime("trace: only valid on 2-D objects"));
    }
    Ok(match (dims[0], dims[1]) {
        (0, _) | (_, 0) => vec![],
        (1, _) | (_, 1) => vec![0],
        (m, n) => (0..m.min(n)).map(|i| i + m * i).collect(),
    })
}

fn eval_trace(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let positions = trace_positions(args)?;
    let a = numeric("trace", args[0])?;
    Ok(vec![Value::scalar(positions.iter().map(|&i| a.data[i]).sum())])
}

fn forward_trace(fw: &Forward) -> Result<Deriv> {
    let src = trace_positions(fw.inputs)?;
    Ok(fw.derivs[0].apply(&RowOperator { ptr: vec![0, src.len()], coef: vec![1.0; src.len()], src }))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, check, matrix, value};

    #[test]
    fn inverse_and_determinant_match_finite_differences() {
        let mut rng = Random::new(3);
        for n in [1, 2, 3, 5] {
            let a = rng.matrix(n, n);
            check("inv", std::slice::from_ref(&a), &[0]);
            check("det", &[a], &[0]);
        }
        check("det", &[matrix(0, 0, &[])], &[0]);
    }

    #[test]
    fn determinant_derivative_at_singular_matrices_is_the_adjugate() {
        // det [x 1; 1 1] = x - 1: derivative 1 at the singular x = 1; rank n-2 has zero gradient.
        check("det", &[matrix(2, 2, &[1.0, 1.0, 1.0, 1.0])], &[0]);
        check("det", &[matrix(3, 3, &[1.0, 2.0, 0.0, 2.0, 4.0, 0.0, 0.0, 0.0, 3.0])], &[0]);
        check("det", &[matrix(3, 3, &[0.0; 9])], &[0]);
        check("det", &[matrix(1, 1, &[0.0])], &[0]);
    }

    #[test]
    fn integer_matrix_powers_match_finite_differences() {
        let mut rng = Random::new(4);
        for p in [0.0, 1.0, 2.0, 3.0, 7.0, -1.0, -2.0] {
            for n in [1, 3] {
                check("mpower", &[rng.matrix(n, n), matrix(1, 1, &[p])], &[0]);
            }
        }
    }

    #[test]
    fn matrix_power_is_repeated_product() {
        let a = matrix(2, 2, &[1.0, 3.0, 2.0, 4.0]);
        let cube = value("mpower", &[a, matrix(1, 1, &[3.0])], 1).remove(0);
        // [1 2; 3 4]^3 = [37 54; 81 118]
        assert_eq!(cube.numeric().unwrap().data, vec![37.0, 81.0, 54.0, 118.0]);
    }

    #[test]
    fn trace_follows_octave_for_every_shape() {
        let mut rng = Random::new(5);
        for (m, n) in [(1, 1), (1, 4), (4, 1), (3, 3), (2, 3), (0, 0)] {
            check("trace", &[rng.matrix(m, n)], &[0]);
        }
        let t = value("trace", &[matrix(1, 3, &[5.0, 6.0, 7.0])], 1).remove(0);
        assert_eq!(t.numeric().unwrap().data, vec![5.0]);
    }
}
