//! Reverse mode and Hessians through sparse matrices that depend on x. A sparse value's adjoint (and
//! its adjoint tangents) has one entry per stored entry in CSC order, like its derivative block (see
//! `sparse_deriv`): never one per element of the full matrix.
//!
//! - Adjoints: the transpose of the forward rule on stored-entry blocks (its local Jacobian has O(nnz)
//!   entries for `sparse(i, j, v)`, `spdiags`, transposes, sums, scalings, `A * X`, `A * B`, `full`),
//!   except `A\B` and `B/A`, whose adjoint solves with A' on the one factorisation (`sparse_lu`).
//! - Second-order terms: products (`*`, `.*`) take the reverse rule with the other operand replaced by
//!   its tangent, keeping a sparse operand's pattern; solves have their own (`sparse_lu`), `det`, `chol`
//!   and `lu` theirs (`sparse_factor_rules`). Linear steps have none. Anything else is
//!   msad:notDifferentiable in a Hessian.

use super::reverse::{Adjoints, Reverse, transposed_forward};
use super::second_order::{Element, Tangents};
use super::{Prim, PrimId, sparse_deriv, sparse_lu};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::{Array, SparseMatrix, Value};

/// Whether a step's adjoints are per stored entry: its result is sparse, or a sparse operand whose
/// adjoint is wanted (depends on x). Constant sparse operators keep their own rules.
pub fn involved(inputs: &[&Value], output: &Value, taped: &[bool]) -> bool {
    matches!(output, Value::Sparse(_)) || inputs.iter().zip(taped).any(|(v, &t)| t && matches!(v, Value::Sparse(_)))
}

/// The adjoint length of a value: its stored entries when sparse, two rows per element when complex
/// (real parts, then imaginary parts), else its elements.
pub fn adjoint_rows(v: &Value) -> usize {
    match v {
        Value::Sparse(s) => s.nnz(),
        other => super::complex::rows(other),
    }
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::Double(a) if a.is_scalar())
}

/// The sparse A of a solve `A\B` or `B/A` with a full B (other operands: None).
fn solve_operands<'v>(id: PrimId, inputs: &[&'v Value]) -> Option<(&'v SparseMatrix, &'v Value)> {
    match (id, inputs) {
        (Prim::Mldivide, [Value::Sparse(a), b]) | (Prim::Mrdivide, [b, Value::Sparse(a)])
            if !matches!(b, Value::Sparse(_)) && a.nnz() > 0 =>
        {
            Some((a, b))
        }
        _ => None,
    }
}

/// Per operand, its adjoint contribution (per stored entry for sparse operands).
pub(super) fn adjoint(id: PrimId, rv: &Reverse) -> Result<Adjoints> {
    match solve_operands(id, rv.inputs) {
        Some((a, _)) => {
            let x = super::elementwise::numeric("", rv.output)?;
            sparse_lu::solve_adjoints(id, a, &x, rv.adjoint, rv.columns, rv.wanted)
        }
        _ => transposed_forward(id, rv),
    }
}

/// Whether `id` factors a sparse matrix (`det`, `chol`, `lu`).
fn factors(id: PrimId, inputs: &[&Value]) -> bool {
    matches!(inputs, [Value::Sparse(_)]) && super::sparse_factor::factors_sparse(id)
}

/// Checks, at recording time, that a Hessian can follow a nonlinear step on sparse values.
pub fn check_second_order(id: PrimId, inputs: &[&Value]) -> Result<()> {
    match (id, solve_operands(id, inputs)) {
        (Prim::Times | Prim::Mtimes, _) | (_, Some(_)) => Ok(()),
        _ if factors(id, inputs) => Ok(()),
        _ => Err(Diagnostic::new(
            ErrorKind::NotDifferentiable,
            format!("msad has no second-order (Hessian) rule for '{}' of a sparse matrix that depends on x", id.name()),
        )
        .with_hint(
            "gradients work (request two outputs); Hessians follow sparse(i, j, v), spdiags, sums, transposes, products, solves, det, chol and lu",
        )),
    }
}

/// Per wanted operand, its second-order contribution to the adjoint tangents.
pub(super) fn second_order_term(id: PrimId, t: &Tangents) -> Result<Adjoints> {
    if factors(id, t.inputs) {
        return super::sparse_factor_rules::second_order(id, t);
    }
    match solve_operands(id, t.inputs) {
        Some((a, _)) if t.tangents[if id == Prim::Mldivide { 0 } else { 1 }].is_some() => {
            let x = super::elementwise::numeric("", t.output)?;
            sparse_lu::solve_second_order(id, a, &x, t)
        }
        Some(_) => Ok(vec![None; t.inputs.len()]),
        None => super::second_order::bilinear(id, t),
    }
}

/// `v` with its stored entries (sparse) or elements (a complex one's real parts over its imaginary
/// parts) replaced by `values`.
pub(super) fn with_values(v: &Value, values: &[f64]) -> Value {
    match v {
        Value::Sparse(s) => Value::Sparse(s.with_values(values.to_vec())),
        Value::Complex(_) => super::complex::with_rows(v, values),
        other => Value::Double(Array::new(other.dims(), values.to_vec())),
    }
}

/// Calls `pair(u, v)` for the operand entries (stored entries of sparse operands, elements of full
/// ones) a nonlinear step on sparse values multiplies together (see `second_order::interactions`).
pub fn interactions(id: PrimId, inputs: &[&Value], pair: &mut impl FnMut(Element, Element)) {
    if solve_operands(id, inputs).is_some() {
        let sizes: Vec<usize> = inputs.iter().map(|v| adjoint_rows(v)).collect();
        return super::matrix_second_order::matrix_pairs(id, &sizes, pair);
    }
    if let [Value::Sparse(a)] = inputs
        && factors(id, inputs)
    {
        return factor_pairs(id, a, pair);
    }
    let [a, b] = inputs else { return };
    match (a, b) {
        _ if is_scalar(a) => (0..adjoint_rows(b)).for_each(|e| pair((0, 0), (1, e))),
        _ if is_scalar(b) => (0..adjoint_rows(a)).for_each(|e| pair((0, e), (1, 0))),
        (Value::Sparse(a), Value::Sparse(b)) if id == Prim::Mtimes => {
            sparse_deriv::product_pairs(a, b).for_each(|(ea, eb, _)| pair((0, ea), (1, eb)));
        }
        (Value::Sparse(a), Value::Sparse(b)) => {
            // Elementwise: the entries stored at the same position (both lists in CSC order).
            let mut in_b = sparse_deriv::entries(b).enumerate().peekable();
            for (ea, at) in sparse_deriv::entries(a).enumerate() {
                while in_b.next_if(|&(_, (i, j))| (j, i) < (at.1, at.0)).is_some() {}
                if let Some((eb, _)) = in_b.next_if(|&(_, position)| position == at) {
                    pair((0, ea), (1, eb));
                }
            }
        }
        (Value::Sparse(s), other) | (other, Value::Sparse(s)) => {
            let sparse_first = matches!(a, Value::Sparse(_));
            let (sparse_k, other_k) = if sparse_first { (0, 1) } else { (1, 0) };
            let mut both =
                |e: usize, f: usize| if sparse_first { pair((sparse_k, e), (other_k, f)) } else { pair((other_k, f), (sparse_k, e)) };
            let (nrows, ncols) = (s.nrows(), s.ncols());
            let numel = nrows * ncols;
            for (e, (i, j)) in sparse_deriv::entries(s).enumerate() {
                match id {
                    // Elementwise: the element at the same position (every element when broadcast).
                    Prim::Times if other.numel() == numel => both(e, i + j * nrows),
                    Prim::Times => (0..other.numel()).for_each(|f| both(e, f)),
                    // `A X`: A(i, j) with row j of X.
                    _ if sparse_first => (0..other.numel() / ncols.max(1)).for_each(|c| both(e, j + ncols * c)),
                    // `X A`: A(i, j) with column i of X.
                    _ => {
                        let rows = other.dims()[0];
                        (0..rows).for_each(|r| both(e, r + rows * i));
                    }
                }
            }
        }
        _ => {}
    }
}

/// Every two stored entries of a factored A interact, but `det`, linear in each row and column, pairs
/// only entries in different rows and columns.
fn factor_pairs(id: PrimId, a: &SparseMatrix, pair: &mut impl FnMut(Element, Element)) {
    let at: Vec<(usize, usize)> = sparse_deriv::entries(a).collect();
    for (u, &(i, j)) in at.iter().enumerate() {
        for (v, &(k, l)) in at.iter().enumerate().skip(u) {
            if id != Prim::Det || (i != k && j != l) {
                pair((0, u), (0, v));
            }
        }
    }
}
