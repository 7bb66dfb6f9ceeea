//! Sparse matrices as values: construction (`sparse`, `speye`, `spdiags`), queries, `full`, and the
//! operations that keep them sparse (sums, scaling, `kron`) or use their structure (`A * B`).
//!
//! Kernels keep every entry the operands' structure makes, even one whose value is zero: a sparse
//! matrix that depends on x has a derivative for it (see `sparse_deriv`).

use super::elementwise::numeric;
use super::{Derivative, EvalFn, Forward, Hessian, IntegerArgs, Kernel, Linearity, Prim, Primitive, check_arity, runtime, sparse_deriv};
use crate::diag::Result;
use crate::exec::deriv::{self, DenseDeriv, Deriv, RowOperator};
use crate::exec::memory;
use crate::exec::value::{Array, SparseMatrix, Value};

fn entry(prim: Prim, eval: EvalFn, derivative: Derivative) -> Primitive {
    Primitive::new(prim, Kernel::General { eval, derivative })
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        // Linear in the values (the subscripts and sizes are data): no second-order term.
        entry(Prim::Sparse, eval_sparse, Derivative::Rule(|fw| sparse_deriv::constructor_rule(Prim::Sparse, fw))).hessian(Hessian::Zero),
        entry(Prim::Speye, eval_speye, Derivative::Zero),
        entry(Prim::Spdiags, eval_spdiags, Derivative::Rule(|fw| sparse_deriv::constructor_rule(Prim::Spdiags, fw))).hessian(Hessian::Zero),
        entry(Prim::Full, eval_full, Derivative::Rule(|fw| Ok(fw.derivs[0].clone())))
            .linear(Linearity::Additive)
            .integers(IntegerArgs::KeepClass),
        entry(
            Prim::Issparse,
            |a, _| {
                check_arity("issparse", a, 1, 1)?;
                Ok(vec![Value::Logical(Array::scalar(matches!(a[0], Value::Sparse(_))))])
            },
            Derivative::Zero,
        ),
        entry(
            Prim::Nnz,
            |a, _| {
                check_arity("nnz", a, 1, 1)?;
                let n = match a[0] {
                    Value::Sparse(s) => s.values.iter().filter(|v| **v != 0.0).count(),
                    other => numeric("nnz", other)?.data.iter().filter(|v| **v != 0.0).count(),
                };
                Ok(vec![Value::scalar(n as f64)])
            },
            Derivative::Zero,
        ),
    ]
}

/// Builds a CSC matrix from (row, col, value) triplets, summing duplicates and keeping every listed
/// entry.
pub fn from_triplets(nrows: usize, ncols: usize, triplets: Vec<(usize, usize, f64)>) -> SparseMatrix {
    sparse_deriv::assemble(nrows, ncols, &triplets).0
}

/// `A.'`, sparse as in Octave.
pub fn transposed(a: &SparseMatrix) -> SparseMatrix {
    sparse_deriv::transpose(a).0
}

pub fn triplets(m: &SparseMatrix) -> Vec<(usize, usize, f64)> {
    (0..m.ncols).flat_map(|j| (m.colptr[j]..m.colptr[j + 1]).map(move |k| (m.rowind[k], j, m.values[k]))).collect()
}

fn count(v: &Value, what: &str) -> Result<usize> {
    let a = numeric(what, v)?;
    match a.data.as_slice() {
        [x] if *x >= 0.0 && x.fract() == 0.0 => Ok(*x as usize),
        _ => Err(runtime(format!("{what}: dimensions must be non-negative integers"))),
    }
}

fn eval_sparse(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("sparse", args, 1, 6)?;
    let matrix = match args {
        [Value::Sparse(s)] => s.clone(),
        [a] => {
            let a = numeric("sparse", a)?;
            if a.dims.len() > 2 {
                return Err(runtime("sparse: A must be a 2-D matrix"));
            }
            SparseMatrix::from_dense(&a)
        }
        [m, n] => from_triplets(count(m, "sparse")?, count(n, "sparse")?, vec![]),
        [i, j, v, rest @ ..] => {
            let (triplets, _) = triplet_list(i, j, v)?;
            let (m, n) = triplet_dims(&triplets, rest)?;
            from_triplets(m, n, triplets)
        }
        _ => return Err(runtime("sparse: wrong number of arguments")),
    };
    Ok(vec![Value::Sparse(matrix)])
}

/// (row, column, value) triplets, and for each the element of the operand that holds its value.
pub(super) type SourcedTriplets = (Vec<(usize, usize, f64)>, Vec<usize>);

/// The triplets of `sparse(i, j, v)` (scalars expanded), and for each the element of v it holds.
pub(super) fn triplet_list(i: &Value, j: &Value, v: &Value) -> Result<SourcedTriplets> {
    let (i, j, v) = (numeric("sparse", i)?, numeric("sparse", j)?, numeric("sparse", v)?);
    let len = i.numel().max(j.numel()).max(v.numel());
    let at = |a: &Array<f64>, k: usize| if a.numel() == 1 { 0 } else { k };
    for a in [&i, &j, &v] {
        if a.numel() != 1 && a.numel() != len {
            return Err(runtime("sparse: dimension mismatch"));
        }
    }
    let index = |x: f64| -> Result<usize> {
        if x >= 1.0 && x.fract() == 0.0 { Ok(x as usize - 1) } else { Err(runtime("sparse: subscripts must be positive integers")) }
    };
    let mut triplets = Vec::with_capacity(len);
    for k in 0..len {
        triplets.push((index(i.data[at(&i, k)])?, index(j.data[at(&j, k)])?, v.data[at(&v, k)]));
    }
    Ok((triplets, (0..len).map(|k| at(&v, k)).collect()))
}

/// The dims of `sparse(i, j, v, m, n)` (or of the largest subscripts), checked against the triplets.
pub(super) fn triplet_dims(triplets: &[(usize, usize, f64)], rest: &[&Value]) -> Result<(usize, usize)> {
    let (m, n) = match rest {
        [m, n, ..] => (count(m, "sparse")?, count(n, "sparse")?),
        _ => (triplets.iter().map(|t| t.0 + 1).max().unwrap_or(0), triplets.iter().map(|t| t.1 + 1).max().unwrap_or(0)),
    };
    if triplets.iter().any(|t| t.0 >= m || t.1 >= n) {
        return Err(runtime("sparse: index out of bounds"));
    }
    Ok((m, n))
}

fn eval_speye(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("speye", args, 1, 2)?;
    let (m, n) = match args {
        [a] if a.numel() == 2 => {
            let d = numeric("speye", a)?;
            (d.data[0] as usize, d.data[1] as usize)
        }
        [a] => (count(a, "speye")?, count(a, "speye")?),
        [m, n] => (count(m, "speye")?, count(n, "speye")?),
        _ => unreachable!("arity checked"),
    };
    memory::check(m.min(n), size_of::<(usize, usize, f64)>())?;
    Ok(vec![Value::Sparse(from_triplets(m, n, (0..m.min(n)).map(|i| (i, i, 1.0)).collect()))])
}

fn eval_spdiags(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    if args.len() != 4 {
        return Err(runtime("msad supports spdiags(B, d, m, n) only"));
    }
    let (m, n) = (count(args[2], "spdiags")?, count(args[3], "spdiags")?);
    let (triplets, _) = diagonal_triplets(args[0], args[1], m, n)?;
    Ok(vec![Value::Sparse(from_triplets(m, n, triplets))])
}

/// The triplets of `spdiags(B, d, m, n)` (column k of B on diagonal d(k)), and for each the element
/// of B it holds. As in MATLAB, when m >= n the element of column j of A comes from B(j, k);
/// otherwise the element of row i comes from B(i, k).
pub(super) fn diagonal_triplets(b: &Value, d: &Value, m: usize, n: usize) -> Result<SourcedTriplets> {
    let (b, d) = (numeric("spdiags", b)?, numeric("spdiags", d)?);
    let rows = b.dims[0];
    if b.cols() != d.numel() && b.numel() != 1 {
        return Err(runtime("spdiags: B must have one column per diagonal"));
    }
    let (mut triplets, mut sources) = (Vec::new(), Vec::new());
    for (k, &dk) in d.data.iter().enumerate() {
        let dk = dk as i64;
        for j in 0..n as i64 {
            let i = j - dk;
            if i < 0 || i >= m as i64 {
                continue;
            }
            let row = if m >= n { j } else { i } as usize;
            let source = match b.numel() {
                1 => 0,
                _ if row < rows => row + k * rows,
                _ => continue,
            };
            triplets.push((i as usize, j as usize, b.data[source]));
            sources.push(source);
        }
    }
    Ok((triplets, sources))
}

fn eval_full(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("full", args, 1, 1)?;
    Ok(vec![match args[0] {
        Value::Sparse(s) => Value::Double(s.to_dense()),
        other => other.clone(),
    }])
}

fn as_sparse(v: &Value) -> Result<SparseMatrix> {
    match v {
        Value::Sparse(s) => Ok(s.clone()),
        other => Ok(SparseMatrix::from_dense(numeric("kron", other)?.as_ref())),
    }
}

/// `kron(A, B)` of sparse (or dense) factors, as a sparse matrix.
pub fn kron(a: &Value, b: &Value) -> Result<SparseMatrix> {
    let (a, b) = (as_sparse(a)?, as_sparse(b)?);
    let b_entries = triplets(&b);
    memory::check(a.nnz().saturating_mul(b.nnz()), size_of::<(usize, usize, f64)>())?;
    let mut entries = Vec::with_capacity(a.nnz() * b.nnz());
    for (ia, ja, va) in triplets(&a) {
        for &(ib, jb, vb) in &b_entries {
            entries.push((ia * b.nrows + ib, ja * b.ncols + jb, va * vb));
        }
    }
    Ok(from_triplets(a.nrows * b.nrows, a.ncols * b.ncols, entries))
}

/// Elementwise operations that keep sparse operands sparse: `S + S`, `S - S`, `S .* c`, `S ./ c`,
/// `c .* S`, `-S`. Other combinations fall back to dense.
pub fn elementwise(prim: Prim, args: &[&Value]) -> Option<SparseMatrix> {
    let scalar = |v: &Value| match v {
        Value::Double(a) if a.is_scalar() => Some(a.data[0]),
        _ => None,
    };
    let scale = |s: &SparseMatrix, c: f64| SparseMatrix { values: s.values.iter().map(|v| v * c).collect(), ..s.clone() };
    match (prim, args) {
        (Prim::Uminus, [Value::Sparse(s)]) => Some(scale(s, -1.0)),
        (Prim::Times, [Value::Sparse(s), c]) | (Prim::Times, [c, Value::Sparse(s)]) => {
            scalar(c).filter(|c| c.is_finite()).map(|c| scale(s, c))
        }
        (Prim::Rdivide, [Value::Sparse(s), c]) => scalar(c).filter(|c| *c != 0.0 && c.is_finite()).map(|c| scale(s, 1.0 / c)),
        (Prim::Plus | Prim::Minus, [Value::Sparse(a), Value::Sparse(b)]) if (a.nrows, a.ncols) == (b.nrows, b.ncols) => {
            let sign = if prim == Prim::Plus { 1.0 } else { -1.0 };
            let mut t = triplets(a);
            t.extend(triplets(b).into_iter().map(|(i, j, v)| (i, j, sign * v)));
            Some(from_triplets(a.nrows, a.ncols, t))
        }
        _ => None,
    }
}

/// `A * B` of sparse matrices, sparse as in Octave.
pub fn product(a: &SparseMatrix, b: &SparseMatrix) -> SparseMatrix {
    sparse_deriv::product(a, b).0
}

/// `A * B` with a sparse A and a dense B (dense result).
pub fn times_dense(a: &SparseMatrix, b: &Array<f64>) -> Array<f64> {
    let n = b.cols();
    let mut c = vec![0.0; a.nrows * n];
    for col in 0..n {
        let (src, dst) = (&b.data[col * a.ncols..(col + 1) * a.ncols], &mut c[col * a.nrows..(col + 1) * a.nrows]);
        multiply_column(a, src, dst);
    }
    Array::new(vec![a.nrows, n], c)
}

fn multiply_column(a: &SparseMatrix, x: &[f64], y: &mut [f64]) {
    for (j, &xj) in x.iter().enumerate().take(a.ncols) {
        for k in a.colptr[j]..a.colptr[j + 1] {
            y[a.rowind[k]] += a.values[k] * xj;
        }
    }
}

/// `A' * Y` for a sparse A and the `columns` column-major columns of `y` (each `nrows(A)` long): one
/// dot product per stored column of A, O(nnz(A)) per column of Y.
pub fn transpose_times(a: &SparseMatrix, y: &[f64], columns: usize) -> Vec<f64> {
    let mut out = vec![0.0; a.ncols * columns];
    for c in 0..columns {
        let y = &y[c * a.nrows..(c + 1) * a.nrows];
        for (j, out) in out[c * a.ncols..(c + 1) * a.ncols].iter_mut().enumerate() {
            *out = (a.colptr[j]..a.colptr[j + 1]).map(|k| a.values[k] * y[a.rowind[k]]).sum();
        }
    }
    out
}

/// `A dB` for a constant sparse A: A times each direction's k x n block.
pub fn times_deriv(a: &SparseMatrix, db: &Deriv, n: usize) -> Deriv {
    match db {
        Deriv::Zero => Deriv::Zero,
        Deriv::Parts(_) => deriv::container_in_numeric_rule(),
        Deriv::Dense(d) => {
            let (k, m) = (a.ncols, a.nrows);
            let mut out = DenseDeriv::zeros(m * n, d.nd);
            for dir in 0..d.nd {
                for col in 0..n {
                    let src = &d.column(dir)[col * k..(col + 1) * k];
                    let dst = &mut out.column_mut(dir)[col * m..(col + 1) * m];
                    multiply_column(a, src, dst);
                }
            }
            Deriv::Dense(out)
        }
        Deriv::Sparse(_) => {
            // Row-wise view of A: output row i + m*col sums A(i, l) * row (l + k*col).
            let (m, k) = (a.nrows, a.ncols);
            let mut by_row: Vec<Vec<(usize, f64)>> = vec![vec![]; m];
            for (i, l, v) in triplets(a) {
                by_row[i].push((l, v));
            }
            let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
            for col in 0..n {
                for row in &by_row {
                    for &(l, v) in row {
                        op.src.push(l + k * col);
                        op.coef.push(v);
                    }
                    op.ptr.push(op.src.len());
                }
            }
            db.apply(&op)
        }
    }
}

/// The error for a sparse matrix whose values depend on x, where msad has no rule for it.
pub fn depends_on_x() -> crate::diag::Diagnostic {
    crate::diag::Diagnostic::new(crate::diag::ErrorKind::NotDifferentiable, "a sparse matrix that depends on x, in this operation")
        .with_hint("use sparse(i, j, v, m, n), spdiags, +, -, scalings, *, \\ and transposes on it, or build that part as a full matrix")
}

/// Forward rule of `A * B` when A is a constant sparse matrix (an active one has its own, `sparse_deriv`).
pub fn forward_times(a: &SparseMatrix, fw: &Forward) -> Result<Deriv> {
    // B's columns, N-D trailing dimensions folded in as `*` does.
    let n = fw.inputs[1].dims()[1..].iter().product();
    Ok(times_deriv(a, fw.derivs[1], n))
}
