//! `det`, `chol` and `lu` of a sparse matrix on faer's sparse factorisations, never on the full
//! matrix: simplicial LU with partial pivoting (after a COLAMD column ordering where the form
//! returns the column permutation, or for `det`) and simplicial Cholesky in the natural order (R is
//! Octave's `chol(S)`, `S = R'R`). Results are Octave's: `det` a full scalar, `chol`'s and `lu`'s
//! factors sparse, permutations full (Octave's are permutation matrices, which are not sparse).
//! Pivots are chosen by magnitude (UMFPACK's threshold pivoting may pick another row where a column
//! has several candidates: `P A = L U` holds either way).
//!
//! Derivatives: `d det = det tr(A^-1 dA)`, the gradient `det A^-T` read at A's stored entries (one
//! solve per column of A^-1 on the factors, no n x n array); forward and reverse. The factors of
//! `chol` and `lu`, and every second-order term, by a sparse LU on dual numbers (`sparse_factor_rules`).

use super::sparse::from_triplets;
use super::sparse_lu::SparseLu;
use super::{Forward, Prim, check_arity, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{Deriv, RowOperator};
use crate::value::memory;
use crate::value::{Array, SparseMatrix, Value};
use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::linalg::solvers::LltError;
use faer::perm::PermRef;
use faer::sparse::linalg::cholesky::simplicial;
use faer::sparse::linalg::lu::simplicial as simplicial_lu;
use faer::sparse::linalg::{LuError, colamd};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};

/// The primitives computed here when their matrix is sparse.
pub(super) fn factors_sparse(id: Prim) -> bool {
    matches!(id, Prim::Det | Prim::Chol | Prim::CholFlag | Prim::Lu | Prim::LuFactors)
}

/// The kernel of `id` when its operand is sparse (None: the dense kernel runs).
pub(super) fn eval(id: Prim, args: &[&Value], nargout: usize) -> Option<Result<Vec<Value>>> {
    let [Value::Sparse(a), ..] = args else { return None };
    if !factors_sparse(id) {
        return None;
    }
    Some(check_arity(id.name(), args, 1, 1).and_then(|()| match id {
        Prim::Det => Ok(vec![Value::scalar(determinant(a)?)]),
        Prim::Chol => match cholesky(a)? {
            Ok(r) => Ok(vec![Value::Sparse(r)]),
            Err(_) => Err(runtime("chol: input matrix must be positive definite")),
        },
        Prim::CholFlag => chol_flag(a),
        Prim::Lu => lu_packed(a),
        _ => lu_factors(a, nargout),
    }))
}

/// The derivative of result `k` of `id` on a sparse operand that depends on x (None: not computed here).
pub(super) fn forward(id: Prim, fw: &Forward, k: usize) -> Option<Result<Deriv>> {
    let [Value::Sparse(a)] = fw.inputs else { return None };
    if !factors_sparse(id) {
        return None;
    }
    Some(match id {
        Prim::Det => {
            det_gradient(a).map(|g| fw.derivs[0].apply(&RowOperator { ptr: vec![0, g.len()], src: (0..g.len()).collect(), coef: g }))
        }
        _ => super::sparse_factor_rules::forward(id, a, fw, k),
    })
}

fn square(name: &str, message: &str, a: &SparseMatrix) -> Result<usize> {
    if a.nrows() != a.ncols() {
        return Err(runtime(format!("{name}: {message}")));
    }
    Ok(a.nrows())
}

fn symbolic(a: &SparseMatrix) -> SymbolicSparseColMatRef<'_, usize> {
    SymbolicSparseColMatRef::new_checked(a.nrows(), a.ncols(), a.colptr(), None, a.rowind())
}

/// `P A Q = L U`: L unit lower triangular, U upper triangular; `row_perm[k]` is the row of A that is
/// row k of `P A`, `col_perm[k]` the column of A that is column k of `A Q`. None: structurally
/// singular (a column without a pivot).
pub(super) struct Factors {
    pub(super) row_perm: Vec<usize>,
    pub(super) col_perm: Vec<usize>,
    lu: simplicial_lu::SimplicialLu<usize, f64>,
}

/// The LU factors of a square sparse A, its columns in COLAMD's order (`ordered`) or in their own.
fn lu_factors_of(a: &SparseMatrix, ordered: bool) -> Result<Option<Factors>> {
    let n = a.nrows();
    let (mut col_perm, mut col_perm_inv): (Vec<usize>, Vec<usize>) = ((0..n).collect(), (0..n).collect());
    let scratch = StackReq::any_of(&[
        colamd::order_scratch::<usize>(n, n, a.nnz()),
        simplicial_lu::factorize_simplicial_numeric_lu_scratch::<usize, f64>(n, n),
    ]);
    let mut buffer = MemBuffer::new(scratch);
    let stack = MemStack::new(&mut buffer);
    if ordered {
        colamd::order(&mut col_perm, &mut col_perm_inv, symbolic(a), Default::default(), stack).map_err(|_| memory::out_of_memory())?;
    }
    let (mut row_perm, mut row_perm_inv) = (vec![0; n], vec![0; n]);
    let mut lu = simplicial_lu::SimplicialLu::new();
    let matrix = SparseColMatRef::new(symbolic(a), a.values());
    let columns = PermRef::new_checked(&col_perm, &col_perm_inv, n);
    match simplicial_lu::factorize_simplicial_numeric_lu(&mut row_perm, &mut row_perm_inv, &mut lu, matrix, columns, stack) {
        Ok(()) => Ok(Some(Factors { row_perm, col_perm, lu })),
        Err(LuError::SymbolicSingular { .. }) => Ok(None),
        // faer reserves the factors' storage fallibly.
        Err(LuError::Generic(_)) => Err(memory::out_of_memory()),
    }
}

/// A factor's compressed columns as a sparse matrix (faer's row indices may be unsorted).
fn to_sparse(m: SparseColMatRef<'_, usize, f64>) -> SparseMatrix {
    let triplets = (0..m.ncols()).flat_map(|j| m.row_idx_of_col(j).zip(m.val_of_col(j)).map(move |(i, &v)| (i, j, v)));
    from_triplets(m.nrows(), m.ncols(), triplets.collect())
}

/// The sign of a permutation: (-1)^(n - cycles).
pub(super) fn sign(perm: &[usize]) -> f64 {
    let mut seen = vec![false; perm.len()];
    let mut flips = 0;
    for start in 0..perm.len() {
        let mut k = start;
        let mut length = 0;
        while !seen[k] {
            seen[k] = true;
            k = perm[k];
            length += 1;
        }
        flips += length.max(1) - 1;
    }
    if flips % 2 == 0 { 1.0 } else { -1.0 }
}

/// `det(A) = sign(P) sign(Q) prod diag(U)`; zero for a structurally singular A or a zero pivot.
fn determinant(a: &SparseMatrix) -> Result<f64> {
    let n = square("det", "A must be a square matrix", a)?;
    if n == 0 {
        return Ok(1.0);
    }
    let Some(f) = lu_factors_of(a, true)? else { return Ok(0.0) };
    let u = f.lu.u_factor_unsorted();
    let mut det = sign(&f.row_perm) * sign(&f.col_perm);
    for j in 0..n {
        let pivot = u.row_idx_of_col(j).zip(u.val_of_col(j)).find(|&(i, _)| i == j).map_or(0.0, |(_, &v)| v);
        if pivot == 0.0 {
            return Ok(0.0);
        }
        det *= pivot;
    }
    Ok(det)
}

/// Columns of A^-1 solved at once (memory n x this).
const INVERSE_COLUMNS: usize = 64;

/// `det(A) A^-T` at A's stored entries (CSC order): entry (i, j) gets `det A^-1(j, i)`, read from
/// column i of A^-1, solved on the factors for the columns that some stored entry needs.
fn det_gradient(a: &SparseMatrix) -> Result<Vec<f64>> {
    let n = square("det", "A must be a square matrix", a)?;
    let det = determinant(a)?;
    if det == 0.0 {
        return Err(Diagnostic::new(ErrorKind::NotDifferentiable, "det of a singular sparse matrix that depends on x")
            .with_hint("its derivative (the adjugate) is not computed on sparse factors: use det(full(S)) here"));
    }
    let lu = SparseLu::shared("det", a)?;
    let mut by_row: Vec<Vec<(usize, usize)>> = vec![vec![]; n];
    super::sparse_deriv::entries(a).enumerate().for_each(|(e, (i, j))| by_row[i].push((e, j)));
    let needed: Vec<usize> = (0..n).filter(|&i| !by_row[i].is_empty()).collect();
    let mut gradient = vec![0.0; a.nnz()];
    for chunk in needed.chunks(INVERSE_COLUMNS) {
        let mut columns = vec![0.0; n * chunk.len()];
        chunk.iter().enumerate().for_each(|(c, &i)| columns[i + n * c] = 1.0);
        lu.solve_in_place("det", &mut columns, chunk.len(), false)?;
        for (c, &i) in chunk.iter().enumerate() {
            by_row[i].iter().for_each(|&(e, j)| gradient[e] = det * columns[j + n * c]);
        }
    }
    Ok(gradient)
}

/// R of `A = R'R` (upper, sparse, from A's upper triangle), or the 0-based column whose pivot is not
/// positive.
fn cholesky(a: &SparseMatrix) -> Result<std::result::Result<SparseMatrix, usize>> {
    square("chol", "A must be a square matrix", a)?;
    // faer's numeric factorisation must not see the lower triangle (it would add into its workspace).
    let upper = from_triplets(a.nrows(), a.ncols(), super::sparse::triplets(a).into_iter().filter(|&(i, j, _)| i <= j).collect());
    let a = &upper;
    let n = a.nrows();
    let scratch = StackReq::any_of(&[
        simplicial::prefactorize_symbolic_cholesky_scratch::<usize>(n, a.nnz()),
        simplicial::factorize_simplicial_symbolic_cholesky_scratch::<usize>(n),
        simplicial::factorize_simplicial_numeric_llt_scratch::<usize, f64>(n),
    ]);
    let mut buffer = MemBuffer::new(scratch);
    let stack = MemStack::new(&mut buffer);
    let (mut etree, mut counts) = (vec![0isize; n], vec![0usize; n]);
    let tree = simplicial::prefactorize_symbolic_cholesky(&mut etree, &mut counts, symbolic(a), stack);
    let structure =
        simplicial::factorize_simplicial_symbolic_cholesky(symbolic(a), tree, &counts, stack).map_err(|_| memory::out_of_memory())?;
    memory::check(structure.len_val(), size_of::<f64>())?;
    let mut values = vec![0.0; structure.len_val()];
    let matrix = SparseColMatRef::new(symbolic(a), a.values());
    match simplicial::factorize_simplicial_numeric_llt(&mut values, matrix, Default::default(), &structure, stack) {
        Ok(_) => {
            let l = SparseColMatRef::new(structure.factor(), &values);
            let triplets = (0..n).flat_map(|j| l.row_idx_of_col(j).zip(l.val_of_col(j)).map(move |(i, &v)| (j, i, v)));
            Ok(Ok(from_triplets(n, n, triplets.collect())))
        }
        // faer counts columns from 1.
        Err(LltError::NonPositivePivot { index }) => Ok(Err(index - 1)),
    }
}

/// `[R, p] = chol(S)` as Octave's: p = 0 and R where S is positive definite; otherwise p = 1 (Octave
/// returns 1 for sparse S whatever the column) and R the first q - 1 rows of the factor, q the column
/// whose pivot is not positive (all n x n zeros when q is the first).
fn chol_flag(a: &SparseMatrix) -> Result<Vec<Value>> {
    let n = a.nrows();
    let r = match cholesky(a)? {
        Ok(r) => return Ok(vec![Value::Sparse(r), Value::scalar(0.0)]),
        Err(0) => SparseMatrix::empty(n, n),
        Err(good_rows) => leading_rows(a, good_rows)?,
    };
    Ok(vec![Value::Sparse(r), Value::scalar(1.0)])
}

/// Rows `0..q` of the upper Cholesky factor of A (q x n), row by row from A's upper triangle
/// (`R(i, j) = (A(i, j) - sum_k R(k, i) R(k, j)) / R(i, i)`): the rows before a failing pivot.
fn leading_rows(a: &SparseMatrix, q: usize) -> Result<SparseMatrix> {
    let n = a.ncols();
    memory::check_dims(&[q, n], size_of::<f64>())?;
    let mut r = vec![0.0; q * n];
    let entry = |i: usize, j: usize| a.0.get(i, j).copied().unwrap_or(0.0);
    for i in 0..q {
        let pivot = (entry(i, i) - (0..i).map(|k| r[k * n + i] * r[k * n + i]).sum::<f64>()).sqrt();
        r[i * n + i] = pivot;
        for j in i + 1..n {
            r[i * n + j] = (entry(i, j) - (0..i).map(|k| r[k * n + i] * r[k * n + j]).sum::<f64>()) / pivot;
        }
    }
    let triplets = (0..q).flat_map(|i| (i..n).map(move |j| (i, j))).map(|(i, j)| (i, j, r[i * n + j])).filter(|t| t.2 != 0.0);
    Ok(from_triplets(q, n, triplets.collect()))
}

/// The factors of a square A with partial pivoting only (`P A = L U`), or the error Octave gives.
pub(super) fn pivoted(a: &SparseMatrix, ordered: bool) -> Result<Factors> {
    square("lu", "A must be a square matrix (msad factors square sparse matrices)", a)?;
    lu_factors_of(a, ordered)?.ok_or_else(|| runtime("lu: the sparse matrix is structurally singular (a column has no pivot)"))
}

/// `Y = lu(S)`: `L + U - I` of `P S = L U`, sparse.
fn lu_packed(a: &SparseMatrix) -> Result<Vec<Value>> {
    let f = pivoted(a, false)?;
    let (l, u) = (lower(&f, false), upper(&f));
    let strict_l = super::sparse::triplets(&l).into_iter().filter(|&(i, j, _)| i != j);
    Ok(vec![Value::Sparse(from_triplets(a.nrows(), a.ncols(), strict_l.chain(super::sparse::triplets(&u)).collect()))])
}

/// `[L, U] = lu(S)` (L = P' L, A's row order), `[L, U, P] = lu(S)` (`P S = L U`), `[L, U, P, Q] =
/// lu(S)` (`P S Q = L U`, Q a fill-reducing column order): L and U sparse, P and Q full.
fn lu_factors(a: &SparseMatrix, nargout: usize) -> Result<Vec<Value>> {
    let f = pivoted(a, nargout >= 4)?;
    let n = a.nrows();
    if nargout < 3 {
        return Ok(vec![Value::Sparse(lower(&f, true)), Value::Sparse(upper(&f))]);
    }
    // P(k, row_perm[k]) = 1; Q(col_perm[k], k) = 1.
    let permutation = |pairs: &mut dyn Iterator<Item = (usize, usize)>| -> Result<Value> {
        memory::check_dims(&[n, n], size_of::<f64>())?;
        let mut data = vec![0.0; n * n];
        pairs.for_each(|(i, j)| data[i + n * j] = 1.0);
        Ok(Value::Double(Array::new(vec![n, n], data)))
    };
    let mut results = vec![
        Value::Sparse(lower(&f, false)),
        Value::Sparse(upper(&f)),
        permutation(&mut f.row_perm.iter().enumerate().map(|(k, &r)| (k, r)))?,
    ];
    if nargout >= 4 {
        results.push(permutation(&mut f.col_perm.iter().enumerate().map(|(k, &c)| (c, k)))?);
    }
    Ok(results)
}

/// L of `P A Q = L U`, unit lower triangular, or with `in_a_order` its rows in A's order (`P' L`).
pub(super) fn lower(f: &Factors, in_a_order: bool) -> SparseMatrix {
    let l = to_sparse(f.lu.l_factor_unsorted());
    let rows = |i: usize| if in_a_order { f.row_perm[i] } else { i };
    from_triplets(l.nrows(), l.ncols(), super::sparse::triplets(&l).into_iter().map(|(i, j, v)| (rows(i), j, v)).collect())
}

pub(super) fn upper(f: &Factors) -> SparseMatrix {
    to_sparse(f.lu.u_factor_unsorted())
}
