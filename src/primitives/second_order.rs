//! Second-order (Hessian) rules: each primitive's record says how its term is found (`Hessian`).
//!
//! Forward-over-reverse: the Hessian sweep differentiates each reverse rule `xbar_k += J_k' ybar` along
//! p tangent directions. Its tangent is `J_k' ybar_dot` (the reverse rule on the adjoint tangents) plus
//! the second-order term `(d/dt J_k)' ybar`, which depends on the kind of primitive:
//! - linear (sums, reshapes, selections) and piecewise linear (max, sort, mod) ones: none;
//! - elementwise unary: `f''(x) x_dot ybar`; binary: the second partials times the operands' tangents;
//! - bilinear products (`mtimes`, `dot`, `kron`): the reverse rule with the other operand replaced by
//!   its tangent (exact, since the rule is linear in that operand);
//! - the p-`norm` y = (sum |x|^p)^(1/p) (Euclidean, 'fro', any p of a vector), gradient g:
//!   `ybar (p - 1) / y ((|x| / y)^(p - 2) .* x_dot - g (g . x_dot))`; the piecewise linear norms: none;
//! - `prod`, `cumprod`: the derivative along the tangent of each partial (products of other factors);
//! - `polyval`: the second derivative in the points, and the points' cross terms with the coefficients;
//! - linear `interp1`: the second partials of `y0 + (y1 - y0) (q - a) / (b - a)` on each interval;
//! - `logspace`: the exponentials' curvature in the two ends;
//! - `betainc` and `legendre`: each result element's second derivative in its element of x;
//! - square-matrix functions (`A\B`, `B/A`, `inv`, `det`, `A^p`): see `matrix_second_order`;
//! - steps on complex values (two rows per element, real parts over imaginary parts): see
//!   `complex::second_order`.
//!
//! Any other primitive on an active path makes the Hessian fail with `msad:notDifferentiable`.
//! The same classification gives the Hessian's sparsity: which operand elements interact nonlinearly.

use super::elementwise::{numeric, row_maps};
use super::matrix_second_order::{matrix_pairs, matrix_second_order};
use super::reverse::{Adjoints, Reverse, adjoint};
use super::sparse_reverse::{self, adjoint_rows, with_values};
use super::{Hessian, Kernel, Linearity, PrimId, Reads, get};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::Value;
use crate::value::deriv::DenseDeriv;

/// Which elements of the two operands a bilinear product multiplies together.
#[derive(Clone, Copy, Debug)]
pub enum Pairing {
    /// Elements in the same position (`dot`).
    SamePosition,
    /// `A(i, k)` with `B(k, j)` (`mtimes`; every pair when a factor is scalar).
    MatrixProduct,
    /// Every element with every other (`kron`).
    Every,
}

/// Per result element, the operand element it is a function of and the second derivative there.
pub type Curvatures = fn(&[&Value]) -> Result<Vec<(usize, f64)>>;

/// What a primitive's second-order term is.
#[derive(Clone, Copy, Debug)]
pub enum SecondOrder {
    /// None: the primitive is (piecewise) linear in its taped operands.
    Zero,
    Unary(fn(f64, f64) -> f64),
    Binary {
        cross_only: bool,
        second: fn(f64, f64, f64) -> (f64, f64, f64),
    },
    Bilinear(Pairing),
    /// The p-norm of all elements (see `norm::Curvature`).
    PowerNorm(f64),
    /// `prod` or (`cumulative`) `cumprod` along a dimension: every two factors of a slice interact.
    Product {
        cumulative: bool,
    },
    /// `polyval`: each point with itself and with each coefficient.
    Polynomial,
    /// Linear `interp1`: each query with the samples, the sample points with everything.
    Interpolation,
    /// `logspace(a, b, n)`: the scalar ends with themselves and each other.
    LogSpacing,
    /// `A\B`, `B/A`, `inv`, `det`, `A^p` of a square A (see `matrix_second_order`).
    MatrixFunction,
    /// Each result element a function of one element of operand `.0` (the others constant): per result
    /// element, that element and the second derivative (`betainc`, `legendre`).
    OfOneOperand(usize, Curvatures),
    /// A function of its first operand alone whose every two elements may interact, with its own
    /// term for any of its results (`expm`, `logm`, `sqrtm`, decompositions).
    Term(fn(&Tangents) -> Result<Adjoints>),
    /// A nonlinear step on complex values (see `complex::second_order`).
    Complex,
}

impl SecondOrder {
    /// What the term reads, for a primitive whose entry says its second-order term reads `declared`.
    pub fn reads(self, declared: Reads) -> Reads {
        match self {
            SecondOrder::Zero => Reads::Nothing,
            _ => declared,
        }
    }
}

/// The second-order kind of primitive `id` on `operands`, of which those `taped` depend on x; an error
/// when msad has no second-order rule for it.
pub fn second_order(id: PrimId, operands: &[&Value], taped: &[bool]) -> Result<SecondOrder> {
    let p = get(id);
    let only = |k: usize| taped.iter().enumerate().all(|(i, &t)| !t || i == k);
    let one_taped = taped.iter().filter(|&&t| t).count() == 1;
    let kind = match (p.linearity, p.hessian) {
        (Linearity::Additive | Linearity::PiecewiseLinear, _) => Ok(SecondOrder::Zero),
        (Linearity::Bilinear, _) if one_taped => Ok(SecondOrder::Zero),
        (Linearity::Numerator, _) if only(0) => Ok(SecondOrder::Zero),
        (Linearity::Denominator, _) if only(1) => Ok(SecondOrder::Zero),
        (_, Hessian::Zero) => Ok(SecondOrder::Zero),
        (_, Hessian::Own(rule)) => rule(operands, taped),
        (_, Hessian::Bilinear(pairing)) => Ok(SecondOrder::Bilinear(pairing)),
        (l, Hessian::FromKernel) => match p.kernel {
            Kernel::Unary { d2f, .. } => Ok(SecondOrder::Unary(d2f)),
            Kernel::Binary { second, .. } => Ok(SecondOrder::Binary { cross_only: l == Linearity::Bilinear, second }),
            _ => Err(no_second_order(id)),
        },
        (_, Hessian::Missing) => Err(no_second_order(id)),
    }?;
    let sparse_operand = operands.iter().zip(taped).any(|(v, &t)| t && matches!(v, Value::Sparse(_)));
    if sparse_operand && !matches!(kind, SecondOrder::Zero) {
        sparse_reverse::check_second_order(id, operands)?;
    }
    Ok(kind)
}

/// The error for a Hessian through `id`, which has no second-order rule (on these operands).
pub(crate) fn no_second_order(id: PrimId) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::NotDifferentiable,
        format!("msad has no second-order (Hessian) rule for '{}' and its input depends on x", id.name()),
    )
    .with_hint("gradients work (request two outputs); for the Hessian, rewrite this part with elementwise operations, sums and products")
}

/// What a second-order term reads: the operands, the result, the result's adjoint (one column) and
/// the operands' tangents (`numel x p`; None for operands that do not depend on x).
pub struct Tangents<'a> {
    pub inputs: &'a [&'a Value],
    /// Which result of the call `output` is (0-based): only `Term`s are written for results after
    /// the first.
    pub result: usize,
    pub output: &'a Value,
    pub adjoint: &'a [f64],
    pub tangents: &'a [Option<&'a DenseDeriv>],
    pub wanted: &'a [bool],
    pub directions: usize,
}

/// Per wanted operand, its second-order contribution to the adjoint tangents (`numel x p`).
pub fn second_order_term(id: PrimId, kind: SecondOrder, t: &Tangents) -> Result<Adjoints> {
    if matches!(kind, SecondOrder::Complex) {
        return super::complex::second_order_term(id, t);
    }
    if !matches!(kind, SecondOrder::Zero) && sparse_reverse::involved(t.inputs, t.output, t.wanted) {
        return sparse_reverse::second_order_term(id, t);
    }
    match kind {
        SecondOrder::Zero | SecondOrder::Complex => Ok(vec![None; t.inputs.len()]),
        SecondOrder::Unary(d2f) => unary(d2f, t),
        SecondOrder::Binary { second, .. } => binary(second, t),
        SecondOrder::Bilinear(_) => bilinear(id, t),
        SecondOrder::PowerNorm(p) => power_norm(p, t),
        SecondOrder::Polynomial => super::interpolate::polyval_second_order(t),
        SecondOrder::MatrixFunction => matrix_second_order(id, t),
        SecondOrder::Interpolation => super::interpolate::interp1_second_order(t),
        SecondOrder::LogSpacing => super::grids::logspace_second_order(t),
        SecondOrder::OfOneOperand(operand, curvatures) => of_one_operand(operand, curvatures(t.inputs)?, t),
        SecondOrder::Term(term) => term(t),
        SecondOrder::Product { cumulative } => {
            let term = super::products::products_second_order(t, cumulative)?;
            Ok(std::iter::once(term).chain(vec![None; t.inputs.len() - 1]).collect())
        }
    }
}

fn of_one_operand(operand: usize, curvatures: Vec<(usize, f64)>, t: &Tangents) -> Result<Adjoints> {
    let mut terms = vec![None; t.inputs.len()];
    let Some(dx) = t.tangents[operand] else { return Ok(terms) };
    let n = t.inputs[operand].numel();
    let mut term = vec![0.0; n * t.directions];
    for (k, &(i, curvature)) in curvatures.iter().enumerate() {
        let weight = t.adjoint[k] * curvature;
        (0..t.directions).for_each(|j| term[j * n + i] += weight * dx.get(i, j));
    }
    terms[operand] = Some(term);
    Ok(terms)
}

fn power_norm(p: f64, t: &Tangents) -> Result<Adjoints> {
    let mut terms = vec![None; t.inputs.len()];
    let Some(dx) = t.tangents[0] else { return Ok(terms) };
    let (x, y) = (numeric("", t.inputs[0])?, numeric("", t.output)?.data[0]);
    // g = sign(x) (|x| / y)^(p - 1), and the diagonal's (|x| / y)^(p - 2).
    let diagonal: Vec<f64> = x.data.iter().map(|v| (v.abs() / y).powf(p - 2.0)).collect();
    let g: Vec<f64> = x.data.iter().zip(&diagonal).map(|(v, d)| v / y * d).collect();
    let scale = t.adjoint[0] * (p - 1.0) / y;
    let term = (0..t.directions).flat_map(|j| {
        let column = dx.column(j);
        let along: f64 = g.iter().zip(column).map(|(g, d)| g * d).sum();
        column.iter().zip(&g).zip(&diagonal).map(move |((d, g), w)| scale * (w * d - g * along))
    });
    terms[0] = Some(term.collect());
    Ok(terms)
}

fn unary(d2f: fn(f64, f64) -> f64, t: &Tangents) -> Result<Adjoints> {
    let Some(dx) = t.tangents[0] else { return Ok(vec![None]) };
    let (x, y) = (numeric("", t.inputs[0])?, numeric("", t.output)?);
    let curvature: Vec<f64> = (0..x.numel()).map(|i| d2f(x.data[i], y.data[i]) * t.adjoint[i]).collect();
    let term = (0..t.directions).flat_map(|j| dx.column(j).iter().zip(&curvature).map(|(d, c)| d * c)).collect();
    Ok(vec![Some(term)])
}

fn binary(second: fn(f64, f64, f64) -> (f64, f64, f64), t: &Tangents) -> Result<Adjoints> {
    let (a, b, z) = (numeric("", t.inputs[0])?, numeric("", t.inputs[1])?, numeric("", t.output)?);
    let (map_a, map_b) = row_maps(&a.dims, &b.dims, &z.dims);
    let (na, nb) = (a.numel(), b.numel());
    let mut term_a = t.wanted[0].then(|| vec![0.0; na * t.directions]);
    let mut term_b = t.wanted[1].then(|| vec![0.0; nb * t.directions]);
    // The weighted second partials per element first, then one pass per direction: the blocks are
    // column-major, and a pass over the directions per element would stride through all of them.
    let weighted: Vec<(usize, usize, f64, f64, f64)> = (0..z.numel())
        .map(|k| {
            let (ia, ib) = (map_a.source(k), map_b.source(k));
            let (aa, ab, bb) = second(a.data[ia], b.data[ib], z.data[k]);
            let w = t.adjoint[k];
            (ia, ib, w * aa, w * ab, w * bb)
        })
        .collect();
    for j in 0..t.directions {
        // Only the terms of operands with tangents: a partial that does not apply may be NaN (the
        // exponent's partials of a negative base).
        let (da, db) = (t.tangents[0].map(|d| d.column(j)), t.tangents[1].map(|d| d.column(j)));
        for &(ia, ib, aa, ab, bb) in &weighted {
            let (from_a, from_b) = match (da, db) {
                (Some(da), Some(db)) => (aa * da[ia] + ab * db[ib], ab * da[ia] + bb * db[ib]),
                (Some(da), None) => (aa * da[ia], 0.0),
                (None, Some(db)) => (0.0, bb * db[ib]),
                (None, None) => (0.0, 0.0),
            };
            if let Some(g) = &mut term_a {
                g[j * na + ia] += from_a;
            }
            if let Some(g) = &mut term_b {
                g[j * nb + ib] += from_b;
            }
        }
    }
    Ok(vec![term_a, term_b])
}

/// For operand k: the reverse rule with each other operand l replaced by its tangent column j (a
/// sparse operand keeps its pattern, its tangent being per stored entry).
pub(super) fn bilinear(id: PrimId, t: &Tangents) -> Result<Adjoints> {
    let count = t.inputs.len();
    (0..count)
        .map(|k| {
            if !t.wanted[k] {
                return Ok(None);
            }
            let size = adjoint_rows(t.inputs[k]);
            let mut term: Option<Vec<f64>> = None;
            let wanted: Vec<bool> = (0..count).map(|i| i == k).collect();
            for l in (0..count).filter(|&l| l != k) {
                let Some(dl) = t.tangents[l] else { continue };
                for j in 0..t.directions {
                    let replaced = with_values(t.inputs[l], dl.column(j));
                    let inputs: Vec<&Value> = (0..count).map(|i| if i == l { &replaced } else { t.inputs[i] }).collect();
                    let reverse = Reverse { inputs: &inputs, result: 0, output: t.output, adjoint: t.adjoint, columns: 1, wanted: &wanted };
                    if let Some(c) = adjoint(id, &reverse)?.swap_remove(k) {
                        let column = &mut term.get_or_insert_with(|| vec![0.0; size * t.directions])[j * size..(j + 1) * size];
                        column.iter_mut().zip(&c).for_each(|(o, c)| *o += c);
                    }
                }
            }
            Ok(term)
        })
        .collect()
}

/// An operand element: (operand index, element index).
pub type Element = (usize, usize);

/// Calls `pair(u, v)` for each pair of operand elements with a nonzero (or possibly nonzero) second
/// derivative `d2 y / du dv` for some element of the result: the Hessian's sparsity follows from them.
/// Each unordered pair is reported at least once.
/// `taped`: the operands that depend on x.
pub fn interactions(
    id: PrimId,
    kind: SecondOrder,
    inputs: &[&Value],
    output: &Value,
    taped: &[bool],
    mut pair: impl FnMut(Element, Element),
) {
    if matches!(kind, SecondOrder::Complex) {
        return super::complex::interactions(id, inputs, output, taped, &mut pair);
    }
    if !matches!(kind, SecondOrder::Zero) && sparse_reverse::involved(inputs, output, taped) {
        return sparse_reverse::interactions(id, inputs, &mut pair);
    }
    match kind {
        SecondOrder::Zero | SecondOrder::Complex => {}
        SecondOrder::Unary(_) => (0..inputs[0].numel()).for_each(|i| pair((0, i), (0, i))),
        SecondOrder::Binary { cross_only, .. } => {
            let (map_a, map_b) = row_maps(&inputs[0].dims(), &inputs[1].dims(), &output.dims());
            for k in 0..output.numel() {
                let (a, b) = ((0, map_a.source(k)), (1, map_b.source(k)));
                pair(a, b);
                if !cross_only {
                    pair(a, a);
                    pair(b, b);
                }
            }
        }
        SecondOrder::Bilinear(pairing) => bilinear_interactions(pairing, inputs, &mut pair),
        SecondOrder::Product { cumulative } => super::products::product_pairs(inputs, cumulative, &mut pair),
        SecondOrder::Polynomial => super::interpolate::polyval_pairs(inputs, &mut pair),
        SecondOrder::Interpolation => super::interpolate::interp1_pairs(inputs, &mut pair),
        SecondOrder::OfOneOperand(k, _) => (0..inputs[k].numel()).for_each(|i| pair((k, i), (k, i))),
        SecondOrder::LogSpacing => [((0, 0), (0, 0)), ((0, 0), (1, 0)), ((1, 0), (1, 0))].into_iter().for_each(|(u, v)| pair(u, v)),
        SecondOrder::MatrixFunction => {
            let numel: Vec<usize> = inputs.iter().map(|v| v.numel()).collect();
            matrix_pairs(id, &numel, &mut pair);
        }
        SecondOrder::PowerNorm(_) | SecondOrder::Term(_) => {
            let n = inputs[0].numel();
            (0..n).for_each(|i| (i..n).for_each(|j| pair((0, i), (0, j))));
        }
    }
}

/// The products a bilinear primitive forms (see `Pairing`).
fn bilinear_interactions(pairing: Pairing, inputs: &[&Value], pair: &mut impl FnMut(Element, Element)) {
    let (na, nb) = (inputs[0].numel(), inputs[1].numel());
    match pairing {
        Pairing::SamePosition => (0..na.min(nb)).for_each(|e| pair((0, e), (1, e))),
        Pairing::MatrixProduct if na != 1 && nb != 1 => {
            // N-D operands fold into columns, as the product does.
            let (m, inner) = (inputs[0].dims()[0], inputs[1].dims()[0]);
            for i in 0..m {
                for k in 0..inner {
                    (0..nb / inner.max(1)).for_each(|j| pair((0, i + m * k), (1, k + inner * j)));
                }
            }
        }
        _ => (0..na).for_each(|a| (0..nb).for_each(|b| pair((0, a), (1, b)))),
    }
}
