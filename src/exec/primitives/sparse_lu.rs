//! `A\B` and `B/A` with a sparse A, on faer's sparse LU (fill-reducing ordering, partial pivoting):
//! the value, every derivative direction and reverse mode's adjoint solve with A' reuse one
//! factorisation (also across calls while A stays the same, as a constant operator does).
//!
//! `x = A\b`: `dx = A \ (db - dA x)`, where `dA` is the block of an x-dependent A (one row per stored
//! entry, see `sparse_deriv`). `x = b/A` is `x.' = A.' \ b.'`: the transposed solve of the same factors.

use super::elementwise::{nonconformant, numeric};
use super::linsolve::singular;
use super::matrix::{matrix_2d, transpose_map};
use super::sparse_deriv::times_entries;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::exec::deriv::{Coef, Deriv, RowMap, combine_terms};
use crate::exec::memory;
use crate::exec::value::{Array, SparseMatrix, Value};
use faer::MatMut;
use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::Lu;
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use std::cell::RefCell;
use std::rc::Rc;

/// The factors of a square sparse matrix.
pub(super) struct SparseLu {
    n: usize,
    lu: Lu<usize, f64>,
}

thread_local! {
    static LAST_FACTORED: RefCell<Option<(SparseMatrix, Rc<SparseLu>)>> = const { RefCell::new(None) };
}

impl SparseLu {
    /// The factors of `a`, reused when it equals the last sparse matrix factored here.
    pub(super) fn shared(op: &str, a: &SparseMatrix) -> Result<Rc<SparseLu>> {
        if a.nrows != a.ncols {
            return Err(Diagnostic::new(ErrorKind::Unsupported, format!("{op}: a non-square sparse matrix"))
                .with_hint("msad solves square sparse systems; use full(A) for least squares"));
        }
        if let Some(lu) = LAST_FACTORED.with(|last| last.borrow().as_ref().filter(|(m, _)| m == a).map(|(_, lu)| lu.clone())) {
            return Ok(lu);
        }
        let symbolic = SymbolicSparseColMatRef::new_checked(a.nrows, a.ncols, &a.colptr, None, &a.rowind);
        let lu = SparseColMatRef::new(symbolic, &a.values).sp_lu().map_err(|_| singular(op, 0.0))?;
        let lu = Rc::new(SparseLu { n: a.nrows, lu });
        LAST_FACTORED.with(|last| *last.borrow_mut() = Some((a.clone(), lu.clone())));
        Ok(lu)
    }

    /// Solves `A X = rhs` (or `A' X = rhs`) in place for `cols` column-major right-hand sides; a
    /// non-finite solution of finite equations means a zero pivot (numerically singular A).
    fn solve_in_place(&self, op: &str, rhs: &mut [f64], cols: usize, transposed: bool) -> Result<()> {
        let finite = rhs.iter().all(|v| v.is_finite());
        let view = MatMut::from_column_major_slice_mut(rhs, self.n, cols);
        if transposed {
            self.lu.solve_transpose_in_place(view)
        } else {
            self.lu.solve_in_place(view)
        }
        if finite && !rhs.iter().all(|v| v.is_finite()) {
            return Err(singular(op, 0.0));
        }
        Ok(())
    }
}

/// `A\B` (or `A.'\B` with `transposed`) for a sparse A and a full B.
fn solve(op: &str, a: &SparseMatrix, b: &Array<f64>, transposed: bool) -> Result<Array<f64>> {
    let lu = SparseLu::shared(op, a)?;
    let mut x = b.data.clone();
    lu.solve_in_place(op, &mut x, b.cols(), transposed)?;
    Ok(Array::new(vec![a.ncols, b.cols()], x))
}

/// `A\B` with a sparse A: a full result, as in Octave.
pub(super) fn eval_mldivide(a: &SparseMatrix, b: &Value) -> Result<Vec<Value>> {
    let b = matrix_2d("mldivide", b)?;
    if b.rows() != a.nrows {
        return Err(nonconformant("operator \\", &[a.nrows, a.ncols], &b.dims));
    }
    Ok(vec![Value::Double(solve("operator \\", a, &b, false)?)])
}

/// `B/A` with a sparse A: `(A.' \ B.').'`.
pub(super) fn eval_mrdivide(b: &Value, a: &SparseMatrix) -> Result<Vec<Value>> {
    let b = matrix_2d("mrdivide", b)?;
    if b.cols() != a.ncols {
        return Err(nonconformant("operator /", &b.dims, &[a.nrows, a.ncols]));
    }
    let xt = solve("operator /", a, &transposed(&b), true)?;
    Ok(vec![Value::Double(transposed(&xt))])
}

fn transposed(a: &Array<f64>) -> Array<f64> {
    let (m, n) = (a.rows(), a.cols());
    Array::new(vec![n, m], transpose_map(n, m).into_iter().map(|k| a.data[k]).collect())
}

/// `dx = A \ (db - dA x)` (or with A.' for `transposed`), x being m x k; `da` has one row per stored
/// entry of A. One factorisation serves every direction.
fn solve_derivative(op: &str, a: &SparseMatrix, da: &Deriv, db: &Deriv, x: &Array<f64>, transposed: bool) -> Result<Deriv> {
    let (n, k) = (a.ncols, x.cols());
    let da_x = times_entries(a, da, &x.data, k, transposed);
    let rhs = combine_terms(&[(Coef::Same(1.0), db, &RowMap::Identity), (Coef::Same(-1.0), &da_x, &RowMap::Identity)], n * k);
    let Some(nd) = rhs.nd() else { return Ok(Deriv::Zero) };
    memory::check(n.saturating_mul(k).saturating_mul(nd), size_of::<f64>())?;
    let mut dense = rhs.into_dense(n * k, nd);
    SparseLu::shared(op, a)?.solve_in_place(op, &mut dense.data, k * nd, transposed)?;
    Ok(Deriv::Dense(dense))
}

/// Forward rule of `A\B` with a sparse A (constant or x-dependent) and a full B.
pub(super) fn forward_mldivide(a: &SparseMatrix, da: &Deriv, db: &Deriv, x: &Value) -> Result<Deriv> {
    let x = numeric("mldivide", x)?;
    solve_derivative("operator \\", a, da, db, &x, false)
}

/// Forward rule of `B/A` with a sparse A: `dx.' = A.' \ (dB.' - dA.' x.')`.
pub(super) fn forward_mrdivide(db: &Deriv, b_dims: &[usize], a: &SparseMatrix, da: &Deriv, x: &Value) -> Result<Deriv> {
    let x = numeric("mrdivide", x)?;
    let transpose_block = |d: &Deriv, rows: usize, cols: usize| d.gather(&RowMap::Gather(transpose_map(rows, cols)), rows * cols);
    let (xt, dbt) = (transposed(&x), transpose_block(db, b_dims[0], b_dims[1]));
    let dxt = solve_derivative("operator /", a, da, &dbt, &xt, true)?;
    Ok(transpose_block(&dxt, xt.rows(), xt.cols()))
}

/// `A' \ adj X` for a constant sparse A: the adjoint of B in `A\B`, on the same factors.
pub(super) fn mldivide_adjoint(a: &SparseMatrix, adjoint: &[f64]) -> Result<Vec<f64>> {
    let mut out = adjoint.to_vec();
    SparseLu::shared("operator \\", a)?.solve_in_place("operator \\", &mut out, adjoint.len() / a.nrows.max(1), true)?;
    Ok(out)
}
