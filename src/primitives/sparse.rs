//! Sparse matrices as values: construction (`sparse`, `speye`, `spdiags`), queries, `full`, and the
//! operations that keep them sparse (sums, scaling, `kron`) or use their structure (`A * B`).
//!
//! The algebra is `sprs`'s (assembly from triplets, transposes, products, `kron`, products with full
//! matrices); msad keeps only the maps from stored entries to derivative rows (`sparse_deriv`).
//! Kernels keep every entry the operands' structure makes, even one whose value is zero: a sparse
//! matrix that depends on x has a derivative for it. (sprs's `+` drops such entries: sums assemble
//! triplets instead.)

use super::elementwise::numeric;
use super::{Derivative, EvalFn, Forward, Hessian, IntegerArgs, Kernel, Linearity, Prim, Primitive, check_arity, runtime, sparse_deriv};
use crate::diag::Result;
use crate::value::deriv::{self, DenseDeriv, Deriv, RowOperator};
use crate::value::memory;
use crate::value::{Array, SparseMatrix, Value};
use sprs::TriMat;

primitive_names! {
    Sparse = "sparse",
    Speye = "speye",
    Spdiags = "spdiags",
    Full = "full",
    Issparse = "issparse",
    Nnz = "nnz",
}

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
                    Value::Sparse(s) => s.values().iter().filter(|v| **v != 0.0).count(),
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
    memory::ensure(ncols.saturating_add(1), size_of::<usize>());
    let mut assembly = TriMat::with_capacity((nrows, ncols), triplets.len());
    triplets.into_iter().for_each(|(i, j, v)| assembly.add_triplet(i, j, v));
    SparseMatrix(assembly.to_csc())
}

/// The stored entries `(row, column, value)` in column-major order.
pub fn triplets(m: &SparseMatrix) -> Vec<(usize, usize, f64)> {
    m.0.iter().map(|(&v, (i, j))| (i, j, v)).collect()
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

/// An operand as a sparse matrix (a full one by its nonzeros, as Octave converts it).
pub(super) fn as_sparse<'v>(name: &str, v: &'v Value) -> Result<std::borrow::Cow<'v, SparseMatrix>> {
    match v {
        Value::Sparse(s) => Ok(std::borrow::Cow::Borrowed(s)),
        other => Ok(std::borrow::Cow::Owned(SparseMatrix::from_dense(numeric(name, other)?.as_ref()))),
    }
}

/// `kron(A, B)` of sparse (or dense) factors, as a sparse matrix.
pub fn kron(a: &Value, b: &Value) -> Result<SparseMatrix> {
    let (a, b) = (as_sparse("kron", a)?, as_sparse("kron", b)?);
    memory::check(a.nnz().saturating_mul(b.nnz()), size_of::<(usize, f64)>())?;
    Ok(SparseMatrix(sprs::kronecker_product(a.0.view(), b.0.view())))
}

/// `[A; B]` (`dim` 0) or `[A, B]` (`dim` 1) with a sparse operand, `dims` the result's (checked by
/// the caller's placement): sparse, with every entry the sparse operands store (full operands give
/// their nonzeros, as in Octave). Empty operands take no part.
pub fn concatenate(args: &[&Value], dim: usize, dims: &[usize]) -> Result<SparseMatrix> {
    let parts: Vec<_> = args.iter().filter(|v| v.numel() > 0).map(|v| as_sparse("concatenation", v)).collect::<Result<_>>()?;
    let views: Vec<_> = parts.iter().map(|m| m.0.view()).collect();
    let joined = match (views.is_empty(), dim) {
        (true, _) => return Ok(SparseMatrix::empty(dims[0], dims[1])),
        (false, 0) => sprs::vstack(&views).to_other_storage(),
        (false, _) => sprs::hstack(&views),
    };
    match joined.shape() == (dims[0], dims[1]) {
        true => Ok(SparseMatrix(joined)),
        false => Err(runtime("concatenation of sparse operands: empty operands that Octave would not skip")),
    }
}

/// Elementwise operations that keep sparse operands sparse: `S + S`, `S - S`, `S .* c`, `S ./ c`,
/// `c .* S`, `-S`, and those computed on stored entries (`OnEntries`). Other combinations fall back to
/// dense.
pub fn elementwise(prim: Prim, args: &[&Value]) -> Option<Result<SparseMatrix>> {
    let scalar = |v: &Value| match v {
        Value::Double(a) if a.is_scalar() => Some(a.data[0]),
        _ => None,
    };
    let scale = |s: &SparseMatrix, c: f64| SparseMatrix(s.0.map(|v| v * c));
    let made = match (prim, args) {
        (Prim::Uminus, [Value::Sparse(s)]) => Some(scale(s, -1.0)),
        (Prim::Times, [Value::Sparse(s), c]) | (Prim::Times, [c, Value::Sparse(s)]) if scalar(c).is_some() => {
            scalar(c).filter(|c| c.is_finite()).map(|c| scale(s, c))
        }
        (Prim::Rdivide, [Value::Sparse(s), c]) => scalar(c).filter(|c| *c != 0.0 && c.is_finite()).map(|c| scale(s, 1.0 / c)),
        (Prim::Plus | Prim::Minus, [Value::Sparse(a), Value::Sparse(b)]) if a.0.shape() == b.0.shape() => {
            let sign = if prim == Prim::Plus { 1.0 } else { -1.0 };
            let mut t = triplets(a);
            t.extend(triplets(b).into_iter().map(|(i, j, v)| (i, j, sign * v)));
            Some(from_triplets(a.nrows(), a.ncols(), t))
        }
        _ => return OnEntries::of(prim, args).map(|on| on.eval(prim, args)),
    };
    made.map(Ok)
}

/// An elementwise step that Octave keeps sparse and that is zero wherever its sparse operands store
/// nothing: `abs(S)`, `S .* T`, `S .* X` and `X .* S` (X full and finite, of S's size: Octave's
/// `0 * Inf` is NaN), `S .^ p` (scalar p > 0, real result). It runs the full kernel (and its derivative rule) on columns of the operands read at
/// the result's entries: O(nnz), never one row per element.
pub(super) struct OnEntries {
    /// The result's pattern: the sparse operand's, or where both sparse operands store an entry.
    pattern: SparseMatrix,
    /// Per operand, for each entry of the result the row it reads (a stored entry of a sparse
    /// operand, an element of a full one); None for a scalar, read as it is.
    reads: Vec<Option<Vec<usize>>>,
}

impl OnEntries {
    pub(super) fn of(prim: Prim, args: &[&Value]) -> Option<OnEntries> {
        let own = |s: &SparseMatrix| Some((0..s.nnz()).collect());
        let elements = |s: &SparseMatrix| Some(sparse_deriv::entries(s).map(|(i, j)| i + j * s.nrows()).collect());
        let same_size = |s: &SparseMatrix, x: &Array<f64>| x.dims == [s.nrows(), s.ncols()] && x.data.iter().all(|v| v.is_finite());
        let (pattern, reads) = match (prim, args) {
            (Prim::Abs, [Value::Sparse(s)]) => (s.clone(), vec![own(s)]),
            (Prim::Power, [Value::Sparse(s), Value::Double(p)]) if p.is_scalar() && real_power(s.values(), p.data[0]) => {
                (s.clone(), vec![own(s), None])
            }
            (Prim::Times, [Value::Sparse(s), Value::Double(x)]) if same_size(s, x) => (s.clone(), vec![own(s), elements(s)]),
            (Prim::Times, [Value::Double(x), Value::Sparse(s)]) if same_size(s, x) => (s.clone(), vec![elements(s), own(s)]),
            (Prim::Times, [Value::Sparse(a), Value::Sparse(b)]) if a.0.shape() == b.0.shape() => return Some(Self::both_stored(a, b)),
            _ => return None,
        };
        Some(OnEntries { pattern, reads })
    }

    /// `A .* B` of sparse operands: the entries both store.
    fn both_stored(a: &SparseMatrix, b: &SparseMatrix) -> OnEntries {
        let (mut colptr, mut rowind, mut from_a, mut from_b) = (vec![0], vec![], vec![], vec![]);
        for j in 0..a.ncols() {
            for ea in a.colptr()[j]..a.colptr()[j + 1] {
                if let Some(eb) = b.0.nnz_index(a.rowind()[ea], j) {
                    rowind.push(a.rowind()[ea]);
                    from_a.push(ea);
                    from_b.push(eb.0);
                }
            }
            colptr.push(rowind.len());
        }
        let values = from_a.iter().map(|&e| a.values()[e]).collect();
        let pattern = SparseMatrix::new(a.nrows(), a.ncols(), colptr, rowind, values);
        OnEntries { pattern, reads: vec![Some(from_a), Some(from_b)] }
    }

    /// The operands as columns read at the result's entries (scalars as they are), and their
    /// derivative blocks read alike.
    pub(super) fn columns(&self, args: &[&Value]) -> Result<Vec<Value>> {
        let column = |v: &Value, rows: &[usize]| -> Result<Value> {
            let source = match v {
                Value::Sparse(s) => std::borrow::Cow::Borrowed(s.values()),
                other => std::borrow::Cow::Owned(numeric("elementwise", other)?.into_owned().data),
            };
            Ok(Value::Double(Array::column(rows.iter().map(|&r| source[r]).collect())))
        };
        self.reads.iter().zip(args).map(|(rows, v)| rows.as_ref().map_or_else(|| Ok((*v).clone()), |rows| column(v, rows))).collect()
    }

    pub(super) fn blocks(&self, derivs: &[&Deriv]) -> Vec<Deriv> {
        let gathered = |d: &Deriv, rows: &Vec<usize>| d.gather(&deriv::RowMap::Gather(rows.clone()), rows.len());
        self.reads.iter().zip(derivs).map(|(rows, d)| rows.as_ref().map_or_else(|| (*d).clone(), |rows| gathered(d, rows))).collect()
    }

    fn eval(&self, prim: Prim, args: &[&Value]) -> Result<SparseMatrix> {
        let columns = self.columns(args)?;
        let out = super::eval(prim, &columns.iter().collect::<Vec<_>>(), 1)?;
        Ok(self.pattern.with_values(numeric(prim.name(), &out[0])?.into_owned().data))
    }
}

/// Whether `x .^ p` is real for every stored x and zero where nothing is stored (p > 0).
fn real_power(values: &[f64], p: f64) -> bool {
    p > 0.0 && (p.fract() == 0.0 || values.iter().all(|x| *x >= 0.0))
}

/// `A * B` of sparse matrices, sparse as in Octave, with every entry the structures make (sprs's
/// symbolic then numeric product).
pub fn product(a: &SparseMatrix, b: &SparseMatrix) -> Result<SparseMatrix> {
    // The products A(i, k) B(k, j) bound C's entries (and sprs's workspace).
    let terms: usize = b.rowind().iter().map(|&k| a.colptr()[k + 1] - a.colptr()[k]).sum();
    memory::check(terms.saturating_add(a.nrows()), size_of::<(usize, f64)>())?;
    Ok(SparseMatrix(&a.0 * &b.0))
}

/// `A * B` with a sparse A and a dense B (dense result).
pub fn times_dense(a: &SparseMatrix, b: &Array<f64>) -> Array<f64> {
    let n = b.cols();
    let mut c = vec![0.0; a.nrows() * n];
    for col in 0..n {
        let (src, dst) = (&b.data[col * a.ncols()..(col + 1) * a.ncols()], &mut c[col * a.nrows()..(col + 1) * a.nrows()]);
        multiply_column(a, src, dst);
    }
    Array::new(vec![a.nrows(), n], c)
}

/// `y += A x` for one column x.
fn multiply_column(a: &SparseMatrix, x: &[f64], y: &mut [f64]) {
    sprs::prod::mul_acc_mat_vec_csc(a.0.view(), x, y);
}

/// `A' * Y` for a sparse A and the `columns` column-major columns of `y` (each `nrows(A)` long): one
/// dot product per stored column of A, O(nnz(A)) per column of Y.
pub fn transpose_times(a: &SparseMatrix, y: &[f64], columns: usize) -> Vec<f64> {
    let (m, n) = (a.nrows(), a.ncols());
    let mut out = vec![0.0; n * columns];
    for c in 0..columns {
        sprs::prod::mul_acc_mat_vec_csr(a.0.transpose_view(), &y[c * m..(c + 1) * m], &mut out[c * n..(c + 1) * n]);
    }
    out
}

/// `A dB` for a constant sparse A: A times each direction's k x n block.
pub fn times_deriv(a: &SparseMatrix, db: &Deriv, n: usize) -> Deriv {
    match db {
        Deriv::Zero => Deriv::Zero,
        Deriv::Parts(_) => deriv::container_in_numeric_rule(),
        Deriv::Dense(d) => {
            let (k, m) = (a.ncols(), a.nrows());
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
            // Row-wise A: output row i + m*col sums A(i, l) * row (l + k*col).
            let k = a.ncols();
            let by_row = a.0.to_csr();
            let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
            for col in 0..n {
                for row in by_row.outer_iterator() {
                    for (l, v) in row.iter() {
                        op.src.push(l + k * col);
                        op.coef.push(*v);
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
