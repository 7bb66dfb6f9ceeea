//! Second-order terms of the square-matrix functions (`A\B`, `B/A`, `inv`, `det`, `A^p` with integer p):
//! the derivative of each reverse rule along the operands' tangents, the result's adjoint held fixed.
//!
//! - `Y = A\B`: `Bbar = A'\Ybar`, `Abar = -Bbar Y'`; along (dA, dB): `dBbar = -A'\(dA' Bbar)` and
//!   `dAbar = -(dBbar Y' + Bbar dY')` with `dY = A\(dB - dA Y)`. `B/A` is `(A'\B')'`.
//! - `X = inv(A)`: `Abar = -X' Xbar X'`; `dAbar = -(dX' Xbar X' + X' Xbar dX')`, `dX = -X dA X`.
//! - `d = det(A)`: `Abar = dbar d X'`; `dAbar = dbar (dd X' + d dX')`, `dd = d <X', dA>` (regular A only).
//! - `A^p`: the products of Octave's binary powering replayed with their tangents, then their adjoints
//!   and the adjoints' tangents in reverse order.

use super::Prim;
use super::elementwise::numeric;
use super::factor::{Lu, transpose};
use super::matrix::gemm;
use super::reverse::Adjoints;
use super::second_order::{Element, SecondOrder, Tangents, no_second_order, second_order};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::Value;

/// The matrix operand of a square-matrix function: its index among the operands.
fn matrix_operand(prim: Prim) -> usize {
    if prim == Prim::Mrdivide { 1 } else { 0 }
}

/// The second-order kind of the square-matrix function `prim` (`Hessian::Own` of each): with a scalar
/// divisor (scalar operands for a power) its elementwise namesake's, with a square matrix operand
/// `MatrixFunction`, else none.
pub(super) fn matrix_function(prim: Prim, operands: &[&Value], taped: &[bool]) -> Result<SecondOrder> {
    if let Some(twin) = super::elementwise_twin(prim, operands) {
        return second_order(twin, operands, taped);
    }
    match operands.get(matrix_operand(prim)).map(|a| a.dims()) {
        Some(dims) if matches!(dims[..], [m, n] if m == n) => Ok(SecondOrder::MatrixFunction),
        _ => Err(no_second_order(prim)),
    }
}

/// `a b` for a m x k, b k x n.
fn mul(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    gemm(&mut c, a, b, m, k, n, false);
    c
}

fn neg(a: Vec<f64>) -> Vec<f64> {
    a.into_iter().map(|v| -v).collect()
}

fn add(a: Vec<f64>, b: &[f64]) -> Vec<f64> {
    a.into_iter().zip(b).map(|(a, b)| a + b).collect()
}

/// The n x n inverse, or an error at a singular matrix (whose second-order term msad does not give).
fn inverse_of(name: &str, a: &[f64], n: usize) -> Result<Vec<f64>> {
    let lu = Lu::shared(a, n);
    if lu.is_singular() {
        return Err(Diagnostic::new(
            ErrorKind::NotDifferentiable,
            format!("msad has no second-order (Hessian) rule for '{name}' at a singular matrix"),
        )
        .with_hint("the gradient is available (request two outputs)"));
    }
    Ok(lu.inverse())
}

/// Per operand of the function, its second-order term (`numel x p`).
pub(super) fn matrix_second_order(prim: Prim, t: &Tangents) -> Result<Adjoints> {
    let name = prim.name();
    let k = matrix_operand(prim);
    let n = t.inputs[k].dims()[0];
    let a = numeric(name, t.inputs[k])?;
    let exponent = if prim == Prim::Mpower { numeric(name, t.inputs[1])?.data[0] as i64 } else { -1 };
    let x = if exponent < 0 { inverse_of(name, &a.data, n)? } else { vec![] };
    let mut terms: Adjoints = vec![None; t.inputs.len()];
    for j in 0..t.directions {
        let tangent = |i: usize| t.tangents[i].map(|d| d.column(j));
        let parts = match prim {
            Prim::Mldivide => solve(&x, n, &numeric(name, t.output)?.data, t.adjoint, tangent(0), tangent(1)),
            Prim::Mrdivide => {
                // B/A = (A'\B')': the same terms on the transposes.
                let m = t.inputs[0].dims()[0];
                let (y, ybar) = (transpose(&numeric(name, t.output)?.data, m, n), transpose(t.adjoint, m, n));
                let (da, db) = (tangent(1).map(|d| transpose(d, n, n)), tangent(0).map(|d| transpose(d, m, n)));
                let [ta, tb] = solve(&transpose(&x, n, n), n, &y, &ybar, da.as_deref(), db.as_deref());
                [transpose(&tb, n, m), transpose(&ta, n, n)]
            }
            Prim::Det => [determinant(&x, n, numeric(name, t.output)?.data[0], t.adjoint[0], tangent(0).unwrap_or(&[])), vec![]],
            Prim::Mpower => [power(&a.data, &x, n, exponent, t.adjoint, tangent(0)), vec![]],
            _ => [inverse(&x, n, t.adjoint, tangent(0).unwrap_or(&[])), vec![]],
        };
        for (i, part) in parts.into_iter().enumerate().filter(|(i, part)| !part.is_empty() && t.wanted[*i]) {
            let size = t.inputs[i].numel();
            terms[i].get_or_insert_with(|| vec![0.0; size * t.directions])[j * size..(j + 1) * size].copy_from_slice(&part);
        }
    }
    Ok(terms)
}

/// `Y = A\B` (X = inv(A), Y n x k): the terms of A and of B along one direction.
fn solve(x: &[f64], n: usize, y: &[f64], ybar: &[f64], da: Option<&[f64]>, db: Option<&[f64]>) -> [Vec<f64>; 2] {
    let k = y.len() / n.max(1);
    let xt = transpose(x, n, n);
    let bbar = mul(&xt, ybar, n, n, k);
    let zero = vec![0.0; n * n];
    let da = da.unwrap_or(&zero);
    // dY = X (dB - dA Y); dBbar = -X' dA' Bbar.
    let residual = neg(mul(da, y, n, n, k));
    let residual = match db {
        Some(db) => add(residual, db),
        None => residual,
    };
    let dy = mul(x, &residual, n, n, k);
    let dbbar = neg(mul(&xt, &mul(&transpose(da, n, n), &bbar, n, n, k), n, n, k));
    let yt = transpose(y, n, k);
    let da_bar = neg(add(mul(&dbbar, &yt, n, k, n), &mul(&bbar, &transpose(&dy, n, k), n, k, n)));
    [da_bar, dbbar]
}

/// `X = inv(A)`: `-(dX' Xbar X' + X' Xbar dX')` with `dX = -X dA X`.
fn inverse(x: &[f64], n: usize, xbar: &[f64], da: &[f64]) -> Vec<f64> {
    let dx = neg(mul(&mul(x, da, n, n, n), x, n, n, n));
    inverse_term(x, &dx, n, xbar)
}

/// The tangent of `-X' Xbar X'` along dX, Xbar fixed.
fn inverse_term(x: &[f64], dx: &[f64], n: usize, xbar: &[f64]) -> Vec<f64> {
    let (xt, dxt) = (transpose(x, n, n), transpose(dx, n, n));
    neg(add(mul(&mul(&dxt, xbar, n, n, n), &xt, n, n, n), &mul(&mul(&xt, xbar, n, n, n), &dxt, n, n, n)))
}

/// `d = det(A)`: `dbar (dd X' + d dX')`.
fn determinant(x: &[f64], n: usize, d: f64, dbar: f64, da: &[f64]) -> Vec<f64> {
    let dd = d * (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).map(|(i, j)| x[j + n * i] * da[i + n * j]).sum::<f64>();
    let dx = neg(mul(&mul(x, da, n, n, n), x, n, n, n));
    let xt = transpose(x, n, n);
    (0..n * n).map(|e| dbar * (dd * xt[e] + d * dx[e % n * n + e / n])).collect()
}

/// `A^p`: one node per matrix of the binary powering (the base first), with its tangent.
struct Node {
    value: Vec<f64>,
    tangent: Vec<f64>,
    /// The two nodes whose product it is.
    factors: Option<(usize, usize)>,
}

fn power(a: &[f64], x: &[f64], n: usize, p: i64, ybar: &[f64], da: Option<&[f64]>) -> Vec<f64> {
    let Some(da) = da.filter(|_| p != 0) else { return vec![0.0; n * n] };
    let base = if p < 0 {
        Node { value: x.to_vec(), tangent: neg(mul(&mul(x, da, n, n, n), x, n, n, n)), factors: None }
    } else {
        Node { value: a.to_vec(), tangent: da.to_vec(), factors: None }
    };
    let mut nodes = vec![base];
    let product = |nodes: &mut Vec<Node>, l: usize, r: usize| {
        let (x, y) = (&nodes[l], &nodes[r]);
        let value = mul(&x.value, &y.value, n, n, n);
        let tangent = add(mul(&x.tangent, &y.value, n, n, n), &mul(&x.value, &y.tangent, n, n, n));
        nodes.push(Node { value, tangent, factors: Some((l, r)) });
        nodes.len() - 1
    };
    // As matrix_power in linalg.rs: result = base, then binary powering of the remaining exponent.
    let (mut result, mut square) = (0, 0);
    let mut remaining = p.unsigned_abs() - 1;
    while remaining > 0 {
        if remaining & 1 == 1 {
            result = product(&mut nodes, result, square);
        }
        remaining >>= 1;
        if remaining > 0 {
            square = product(&mut nodes, square, square);
        }
    }
    // Reverse: per node its adjoint and the adjoint's tangent (the result's adjoint is fixed).
    let mut bar = vec![vec![0.0; n * n]; nodes.len()];
    let mut bar_dot = vec![vec![0.0; n * n]; nodes.len()];
    bar[result] = ybar.to_vec();
    for z in (0..nodes.len()).rev() {
        let Some((l, r)) = nodes[z].factors else { continue };
        let (xv, yv) = (&nodes[l], &nodes[r]);
        let (yt, xt) = (transpose(&yv.value, n, n), transpose(&xv.value, n, n));
        let (dyt, dxt) = (transpose(&yv.tangent, n, n), transpose(&xv.tangent, n, n));
        // Z = X Y: Xbar += Zbar Y', Ybar += X' Zbar, and their tangents.
        let left = (mul(&bar[z], &yt, n, n, n), add(mul(&bar_dot[z], &yt, n, n, n), &mul(&bar[z], &dyt, n, n, n)));
        let right = (mul(&xt, &bar[z], n, n, n), add(mul(&dxt, &bar[z], n, n, n), &mul(&xt, &bar_dot[z], n, n, n)));
        for (node, (b, d)) in [(l, left), (r, right)] {
            bar[node] = add(b, &bar[node]);
            bar_dot[node] = add(d, &bar_dot[node]);
        }
    }
    if p < 0 {
        // The base is inv(A): the tangent of -X' Xbar X' has Xbar's tangent too.
        let xt = transpose(x, n, n);
        let through = neg(mul(&mul(&xt, &bar_dot[0], n, n, n), &xt, n, n, n));
        add(inverse_term(x, &nodes[0].tangent, n, &bar[0]), &through)
    } else {
        bar_dot.swap_remove(0)
    }
}

/// The pairs of operand elements a square-matrix function combines nonlinearly: every two elements of
/// A (for `det`, those in different rows and columns), and each of A with each of B.
pub(super) fn matrix_pairs(prim: Prim, numel: &[usize], pair: &mut impl FnMut(Element, Element)) {
    let k = matrix_operand(prim);
    let size = numel[k];
    let n = (size as f64).sqrt().round() as usize;
    for u in 0..size {
        for v in u..size {
            if prim != Prim::Det || (u % n != v % n && u / n != v / n) {
                pair((k, u), (k, v));
            }
        }
        if matches!(prim, Prim::Mldivide | Prim::Mrdivide) {
            (0..numel[1 - k]).for_each(|b| pair((k, u), (1 - k, b)));
        }
    }
}
