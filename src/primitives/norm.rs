//! `norm` of vectors (2, 1, Inf, -Inf, 0, 'fro', any p) and matrices (2 through the SVD, 1, Inf,
//! 'fro'). Every norm's derivative is one row over all elements (a gradient), so the sparsity pattern
//! holds for every point; at a point where the norm is not differentiable (x = 0, ties in the max) the
//! gradient is that of the first extreme element, and 0 for `abs` at 0.

use super::elementwise::numeric;
use super::factor::svd;
use super::matrix::matrix_2d;
use super::second_order::{SecondOrder, no_second_order};
use super::{Forward, Hessian, Prim, Primitive, general, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{Deriv, RowOperator};
use crate::value::{Array, Value};

primitive_names! {
    Norm = "norm",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![general(Prim::Norm, eval_norm, forward_norm).hessian(Hessian::Own(second_order))]
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    P(f64),
    Inf,
    NegInf,
    Fro,
}

fn kind(args: &[&Value]) -> Result<Kind> {
    super::check_arity("norm", args, 1, 2)?;
    let Some(p) = args.get(1) else { return Ok(Kind::P(2.0)) };
    if let Some(text) = p.as_string() {
        return match text.to_lowercase().as_str() {
            "fro" => Ok(Kind::Fro),
            "inf" => Ok(Kind::Inf),
            "-inf" => Ok(Kind::NegInf),
            _ => Err(runtime(format!("norm: unrecognized option: {text}"))),
        };
    }
    match numeric("norm", p)?.data.as_slice() {
        [p] if *p == f64::INFINITY => Ok(Kind::Inf),
        [p] if *p == f64::NEG_INFINITY => Ok(Kind::NegInf),
        [p] => Ok(Kind::P(*p)),
        _ => Err(runtime("norm: P must be a scalar or a string")),
    }
}

/// How `norm(args...)` curves, for its second-order term.
pub(super) enum Curvature {
    /// Piecewise linear (vector 1-, Inf- and -Inf-norms, matrix 1- and Inf-norms) or piecewise constant
    /// (the vector 0-"norm", a count).
    PiecewiseLinear,
    /// `(sum |x|^p)^(1/p)` over all elements ('fro' is p = 2): smooth away from zeros.
    Power(f64),
    /// The matrix 2-norm (largest singular value): msad has no second-order rule for it.
    Unknown,
}

/// The p-norms' second-order term, none for the piecewise linear norms, an error for the matrix 2-norm.
fn second_order(operands: &[&Value], _: &[bool]) -> Result<SecondOrder> {
    match curvature(operands) {
        Curvature::Power(p) => Ok(SecondOrder::PowerNorm(p)),
        Curvature::PiecewiseLinear => Ok(SecondOrder::Zero),
        Curvature::Unknown => Err(no_second_order(Prim::Norm)),
    }
}

pub(super) fn curvature(args: &[&Value]) -> Curvature {
    let dims = args[0].dims();
    let vector = dims.len() == 2 && (dims[0] == 1 || dims[1] == 1);
    match kind(args) {
        Ok(Kind::Fro) => Curvature::Power(2.0),
        Ok(Kind::P(p)) if vector && p != 0.0 && p != 1.0 => Curvature::Power(p),
        Ok(Kind::P(p)) if p == 1.0 || (vector && p == 0.0) => Curvature::PiecewiseLinear,
        Ok(Kind::Inf | Kind::NegInf) => Curvature::PiecewiseLinear,
        _ => Curvature::Unknown,
    }
}

/// Whether `norm(args...)` is Euclidean over all elements ('fro', or the 2-norm of a vector).
pub(super) fn is_euclidean(args: &[&Value]) -> bool {
    matches!(curvature(args), Curvature::Power(p) if p == 2.0)
}

fn sign(x: f64) -> f64 {
    if x == 0.0 { 0.0 } else { x.signum() }
}

/// Octave's scaled accumulation of `(sum |x|^p)^(1/p)`, safe from overflow and with the same rounding.
fn p_norm(x: &[f64], p: f64) -> f64 {
    let power = |r: f64| if p == 2.0 { r * r } else { r.powf(p) };
    let (mut scale, mut sum) = (0.0f64, 1.0f64);
    for t in x.iter().map(|v| v.abs()) {
        if scale == t {
            sum += 1.0;
        } else if scale < t {
            sum = sum * power(scale / t) + 1.0;
            scale = t;
        } else if t != 0.0 {
            sum += power(t / scale);
        }
    }
    scale * if p == 2.0 { sum.sqrt() } else { sum.powf(1.0 / p) }
}

/// The first element extreme by `better` (NaN wins, as Octave's norm propagates it), and its value.
fn extreme(values: impl Iterator<Item = f64>, better: fn(f64, f64) -> bool) -> (usize, f64) {
    values.enumerate().fold(
        (0, f64::NAN),
        |best, (i, v)| {
            if i == 0 || (!best.1.is_nan() && (v.is_nan() || better(v, best.1))) { (i, v) } else { best }
        },
    )
}

/// The norm and its gradient with respect to every element (column-major).
fn norm_and_gradient(x: &Array<f64>, kind: Kind) -> Result<(f64, Vec<f64>)> {
    let (m, n) = (x.dims[0], x.dims[1]);
    let mut gradient = vec![0.0; x.data.len()];
    if x.data.is_empty() {
        return Ok((0.0, gradient));
    }
    let abs = || x.data.iter().map(|v| v.abs());
    let is_vector = m == 1 || n == 1;
    let value = match kind {
        Kind::P(p) if p == 0.0 && is_vector => x.data.iter().filter(|&&v| v != 0.0).count() as f64,
        Kind::P(p) if p == 1.0 && !is_vector => {
            let columns = (0..n).map(|j| x.data[j * m..(j + 1) * m].iter().map(|v| v.abs()).sum());
            let (j, value) = extreme(columns, |a, b| a > b);
            (0..m).for_each(|i| gradient[i + m * j] = sign(x.data[i + m * j]));
            value
        }
        Kind::Inf if !is_vector => {
            let rows = (0..m).map(|i| (0..n).map(|j| x.data[i + m * j].abs()).sum());
            let (i, value) = extreme(rows, |a, b| a > b);
            (0..n).for_each(|j| gradient[i + m * j] = sign(x.data[i + m * j]));
            value
        }
        Kind::P(p) if p == 2.0 && !is_vector => {
            if x.data.iter().any(|v| !v.is_finite()) {
                return Ok((f64::NAN, vec![f64::NAN; x.data.len()]));
            }
            let svd = svd(&x.data, m, n).ok_or_else(|| runtime("norm: the SVD did not converge"))?;
            for j in 0..n {
                (0..m).for_each(|i| gradient[i + m * j] = svd.u[i] * svd.v[j]);
            }
            svd.s[0]
        }
        Kind::P(p) if !is_vector => {
            return Err(Diagnostic::new(ErrorKind::Unsupported, format!("norm: the matrix {p}-norm"))
                .with_hint("msad supports matrix norms 1, 2, Inf and 'fro'"));
        }
        Kind::NegInf if !is_vector => return Err(runtime("xnorm: p must be >= 1")),
        Kind::Inf | Kind::NegInf => {
            let better = if kind == Kind::Inf { |a: f64, b: f64| a > b } else { |a: f64, b: f64| a < b };
            let (i, value) = extreme(abs(), better);
            gradient[i] = sign(x.data[i]);
            value
        }
        Kind::Fro | Kind::P(_) => {
            let p = if let Kind::P(p) = kind { p } else { 2.0 };
            let value = p_norm(&x.data, p);
            if value != 0.0 {
                for (g, &v) in gradient.iter_mut().zip(&x.data) {
                    *g = sign(v) * (v.abs() / value).powf(p - 1.0);
                }
            }
            value
        }
    };
    Ok((value, gradient))
}

fn eval_norm(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let kind = kind(args)?;
    Ok(vec![Value::scalar(norm_and_gradient(&*matrix_2d("norm", args[0])?, kind)?.0)])
}

fn forward_norm(fw: &Forward) -> Result<Deriv> {
    let (_, gradient) = norm_and_gradient(&*matrix_2d("norm", fw.inputs[0])?, kind(fw.inputs)?)?;
    let n = gradient.len();
    Ok(fw.derivs[0].apply(&RowOperator { ptr: vec![0, n], src: (0..n).collect(), coef: gradient }))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, SHAPES, check, jacobian, matrix, value};
    use crate::value::Value;

    #[test]
    fn norms_match_finite_differences() {
        let mut rng = Random::new(11);
        for (m, n) in SHAPES.into_iter().chain([(0, 0), (1, 0)]) {
            let x = rng.matrix(m, n);
            let is_vector = m == 1 || n == 1;
            check("norm", std::slice::from_ref(&x), &[0]);
            for p in [Value::string("fro"), Value::string("inf"), matrix(1, 1, &[1.0]), matrix(1, 1, &[f64::INFINITY])] {
                check("norm", &[x.clone(), p], &[0]);
            }
            if is_vector {
                for p in [3.0, 1.5, f64::NEG_INFINITY] {
                    check("norm", &[x.clone(), matrix(1, 1, &[p])], &[0]);
                }
            }
        }
    }

    #[test]
    fn values_and_conventions() {
        let x = matrix(1, 2, &[3.0, -4.0]);
        assert_eq!(value("norm", std::slice::from_ref(&x), 1)[0].numeric().unwrap().data, vec![5.0]);
        assert_eq!(value("norm", &[x, matrix(1, 1, &[0.0])], 1)[0].numeric().unwrap().data, vec![2.0]);
        assert_eq!(jacobian("norm", &[matrix(2, 1, &[0.0, 0.0])], &[0]), vec![0.0, 0.0]);
        let a = matrix(2, 2, &[1.0, 3.0, 2.0, 4.0]);
        let two = value("norm", &[a], 1)[0].numeric().unwrap().data[0];
        assert!((two - 5.464985704219043).abs() < 1e-14);
    }
}
