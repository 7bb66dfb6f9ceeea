//! `A\B` and `B/A` with a sparse A, on faer's sparse LU (fill-reducing ordering, partial pivoting):
//! the value, every derivative direction and reverse mode's adjoint solve with A' reuse one
//! factorisation (also across calls while A stays the same, as a constant operator does).
//!
//! `x = A\b`: `dx = A \ (db - dA x)`, where `dA` is the block of an x-dependent A (one row per stored
//! entry, see `sparse_deriv`). `x = b/A` is `x.' = A.' \ b.'`: the transposed solve of the same factors.

use super::elementwise::{nonconformant, numeric};
use super::linsolve::singular;
use super::matrix::{matrix_2d, transpose_map};
use super::reverse::Adjoints;
use super::second_order::Tangents;
use super::sparse_deriv::times_entries;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{Coef, Deriv, RowMap, combine_terms};
use crate::value::memory;
use crate::value::{Array, SparseMatrix, Value};
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
        if a.nrows() != a.ncols() {
            return Err(Diagnostic::new(ErrorKind::Unsupported, format!("{op}: a non-square sparse matrix"))
                .with_hint("msad solves square sparse systems; use full(A) for least squares"));
        }
        if let Some(lu) = LAST_FACTORED.with(|last| last.borrow().as_ref().filter(|(m, _)| m == a).map(|(_, lu)| lu.clone())) {
            return Ok(lu);
        }
        // faer reads sprs's compressed-column arrays in place.
        let symbolic = SymbolicSparseColMatRef::new_checked(a.nrows(), a.ncols(), a.colptr(), None, a.rowind());
        let lu = SparseColMatRef::new(symbolic, a.values()).sp_lu().map_err(|_| singular(op, 0.0))?;
        let lu = Rc::new(SparseLu { n: a.nrows(), lu });
        LAST_FACTORED.with(|last| *last.borrow_mut() = Some((a.clone(), lu.clone())));
        Ok(lu)
    }

    /// Solves `A X = rhs` (or `A' X = rhs`) in place for `cols` column-major right-hand sides; a
    /// non-finite solution of finite equations means a zero pivot (numerically singular A).
    pub(super) fn solve_in_place(&self, op: &str, rhs: &mut [f64], cols: usize, transposed: bool) -> Result<()> {
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
    Ok(Array::new(vec![a.ncols(), b.cols()], x))
}

/// `A\B` with a sparse A: a full result, as in Octave.
pub(super) fn eval_mldivide(a: &SparseMatrix, b: &Value) -> Result<Vec<Value>> {
    let b = matrix_2d("mldivide", b)?;
    if b.rows() != a.nrows() {
        return Err(nonconformant("operator \\", &[a.nrows(), a.ncols()], &b.dims));
    }
    Ok(vec![Value::Double(solve("operator \\", a, &b, false)?)])
}

/// `B/A` with a sparse A: `(A.' \ B.').'`.
pub(super) fn eval_mrdivide(b: &Value, a: &SparseMatrix) -> Result<Vec<Value>> {
    let b = matrix_2d("mrdivide", b)?;
    if b.cols() != a.ncols() {
        return Err(nonconformant("operator /", &b.dims, &[a.nrows(), a.ncols()]));
    }
    let xt = solve("operator /", a, &transposed(&b), true)?;
    Ok(vec![Value::Double(transposed(&xt))])
}

fn transposed(a: &Array<f64>) -> Array<f64> {
    let (m, n) = (a.rows(), a.cols());
    Array::new(vec![n, m], transpose_map(m, n).into_iter().map(|k| a.data[k]).collect())
}

/// `dx = A \ (db - dA x)` (or with A.' for `transposed`), x being m x k; `da` has one row per stored
/// entry of A. One factorisation serves every direction.
fn solve_derivative(op: &str, a: &SparseMatrix, da: &Deriv, db: &Deriv, x: &Array<f64>, transposed: bool) -> Result<Deriv> {
    let (n, k) = (a.ncols(), x.cols());
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

/// The system `C Z = D` of `A\B` (C = A) or of `B/A` read transposed (C = A.', Z = X.', D = B.'), for
/// the reverse and second-order rules: one sparse factorisation of A serves C and C'.
struct System<'a> {
    op: &'static str,
    a: &'a SparseMatrix,
    lu: Rc<SparseLu>,
    transposed: bool,
}

impl<'a> System<'a> {
    fn new(id: super::Prim, a: &'a SparseMatrix) -> Result<System<'a>> {
        let (op, transposed) = if id == super::Prim::Mldivide { ("operator \\", false) } else { ("operator /", true) };
        Ok(System { op, a, lu: SparseLu::shared(op, a)?, transposed })
    }

    /// The stored entries of A as `(row, column)` of C, in A's CSC order.
    fn entries(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        super::sparse_deriv::entries(self.a).map(|(i, j)| if self.transposed { (j, i) } else { (i, j) })
    }

    /// Solves `C Z = rhs` (`C' Z = rhs` with `adjoint`) in place, `cols` right-hand sides.
    fn solve(&self, rhs: &mut [f64], cols: usize, adjoint: bool) -> Result<()> {
        self.lu.solve_in_place(self.op, rhs, cols, adjoint != self.transposed)
    }

    /// `scale * U V'` at A's stored entries, U and V n x k (column-major).
    fn outer_on_entries(&self, u: &[f64], v: &[f64], k: usize, scale: f64) -> Vec<f64> {
        let n = self.a.nrows();
        self.entries().map(|(i, l)| scale * (0..k).map(|c| u[i + n * c] * v[l + n * c]).sum::<f64>()).collect()
    }

    /// `C_e W` (`C_e' W` with `transposed`) for the matrix C_e with A's pattern and the entry values
    /// `e`, W n x k.
    fn entries_times(&self, e: &[f64], w: &[f64], k: usize, transposed: bool) -> Vec<f64> {
        let n = self.a.nrows();
        let mut out = vec![0.0; n * k];
        for ((i, l), &v) in self.entries().zip(e) {
            let (to, from) = if transposed { (l, i) } else { (i, l) };
            (0..k).for_each(|c| out[to + n * c] += v * w[from + n * c]);
        }
        out
    }

    /// An m x n operand or result (column-major) in C's frame: transposed for `B/A`.
    fn frame(&self, data: &[f64], rows: usize, cols: usize) -> Vec<f64> {
        match self.transposed {
            false => data.to_vec(),
            true => transpose_map(rows, cols).into_iter().map(|k| data[k]).collect(),
        }
    }

    /// Back from C's frame to the operand's m x n shape.
    fn unframe(&self, data: &[f64], rows: usize, cols: usize) -> Vec<f64> {
        match self.transposed {
            false => data.to_vec(),
            true => transpose_map(cols, rows).into_iter().map(|k| data[k]).collect(),
        }
    }
}

/// Operand positions of A and B in `A\B` (0, 1) and `B/A` (1, 0).
fn operands(id: super::Prim) -> (usize, usize) {
    if id == super::Prim::Mldivide { (0, 1) } else { (1, 0) }
}

/// Reverse rule of `X = A\B` or `X = B/A` with a sparse A and a full B, `columns` adjoint columns:
/// `D' = C' \ Z'` (one solve for every column) and, where A is wanted, `Abar = -Dbar Z'` at A's
/// stored entries (never a dense n x n block).
pub(super) fn solve_adjoints(
    id: super::Prim,
    a: &SparseMatrix,
    x: &Array<f64>,
    adjoint: &[f64],
    columns: usize,
    wanted: &[bool],
) -> Result<Adjoints> {
    let system = System::new(id, a)?;
    let (ka, kb) = operands(id);
    let (rows, cols) = (x.rows(), x.cols());
    let size = rows * cols;
    let k = size / a.nrows().max(1);
    let z = system.frame(&x.data, rows, cols);
    let mut dbar: Vec<f64> = adjoint.chunks(size.max(1)).take(columns).flat_map(|c| system.frame(c, rows, cols)).collect();
    system.solve(&mut dbar, k * columns, true)?;
    let mut out = vec![None, None];
    if wanted[ka] {
        out[ka] = Some(dbar.chunks(size.max(1)).flat_map(|d| system.outer_on_entries(d, &z, k, -1.0)).collect());
    }
    if wanted[kb] {
        out[kb] = Some(dbar.chunks(size.max(1)).flat_map(|d| system.unframe(d, rows, cols)).collect());
    }
    Ok(out)
}

/// Second-order term of `X = A\B` or `X = B/A` with a sparse A that depends on x (see
/// `second_order`), in C's frame: with `Dbar = C' \ Zbar` and per direction `Zdot = C \ (Ddot - Cdot Z)`,
/// `S = -C' \ (Cdot' Dbar)` goes to B and `-(S Z' + Dbar Zdot')` to A's stored entries.
pub(super) fn solve_second_order(id: super::Prim, a: &SparseMatrix, x: &Array<f64>, t: &Tangents) -> Result<Adjoints> {
    let system = System::new(id, a)?;
    let (ka, kb) = operands(id);
    let (rows, cols) = (x.rows(), x.cols());
    let (n, size, p) = (a.nrows(), rows * cols, t.directions);
    let k = size / n.max(1);
    let z = system.frame(&x.data, rows, cols);
    let mut dbar = system.frame(&t.adjoint[..size], rows, cols);
    system.solve(&mut dbar, k, true)?;
    let a_dot = t.tangents[ka].expect("A depends on x");
    let mut s: Vec<f64> = (0..p).flat_map(|j| system.entries_times(a_dot.column(j), &dbar, k, true)).collect();
    system.solve(&mut s, k * p, true)?;
    s.iter_mut().for_each(|v| *v = -*v);
    let mut z_dot: Vec<f64> = (0..p)
        .flat_map(|j| {
            let own = system.entries_times(a_dot.column(j), &z, k, false);
            let d_dot = t.tangents[kb].map(|d| system.frame(d.column(j), rows, cols));
            own.into_iter().enumerate().map(move |(r, v)| d_dot.as_ref().map_or(0.0, |d| d[r]) - v)
        })
        .collect();
    system.solve(&mut z_dot, k * p, false)?;
    let mut out = vec![None, None];
    if t.wanted[ka] {
        let term = (0..p).flat_map(|j| {
            let (s, z_dot) = (&s[j * size..(j + 1) * size], &z_dot[j * size..(j + 1) * size]);
            let from_s = system.outer_on_entries(s, &z, k, -1.0);
            system.outer_on_entries(&dbar, z_dot, k, -1.0).into_iter().zip(from_s).map(|(a, b)| a + b)
        });
        out[ka] = Some(term.collect());
    }
    if t.wanted[kb] {
        out[kb] = Some(s.chunks(size.max(1)).flat_map(|c| system.unframe(c, rows, cols)).collect());
    }
    Ok(out)
}
