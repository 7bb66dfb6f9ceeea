//! Matrix product (one GEMM per product with the reshape trick), transposes and `diag`; the products'
//! derivative kernels serve the other linear-algebra rules too.

use super::elementwise::{nonconformant, numeric};
use super::reverse::{Adjoints, Reverse, by_column, transposed_forward};
use super::second_order::Pairing;
use super::{Forward, Hessian, IndexPair, IntegerArgs, Linearity, Prim, Primitive, ScalarOperands, general, runtime, sparse};
use crate::diag::Result;
use crate::value::deriv::{self, DenseDeriv, Deriv, RowMap, RowOperator};
use crate::value::{Array, Value};
use crate::value::{interrupt, memory};
use faer::{Accum, MatMut, MatRef, Par};

primitive_names! {
    Mtimes = "mtimes",
    Transpose = "transpose",
    Ctranspose = "ctranspose",
    Diag = "diag",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        general(Prim::Mtimes, eval_mtimes, forward_mtimes)
            .linear(Linearity::Bilinear)
            .integers(IntegerArgs::KeepClass)
            .vjp(reverse_mtimes)
            .elementwise_twin(Prim::Times, ScalarOperands::Either)
            .hessian(Hessian::Bilinear(Pairing::MatrixProduct)),
        general(Prim::Transpose, eval_transpose, forward_transpose).linear(Linearity::Additive).integers(IntegerArgs::KeepClass),
        general(Prim::Ctranspose, eval_transpose, forward_transpose).linear(Linearity::Additive).integers(IntegerArgs::KeepClass),
        general(Prim::Diag, eval_diag, forward_diag).linear(Linearity::Additive).integers(IntegerArgs::KeepClass),
    ]
}

pub(super) fn is_scalar(v: &Value) -> bool {
    v.numel() == 1
}

/// Runs the elementwise primitive `prim` in place of a matrix operator whose operand is scalar.
pub(super) fn elementwise_eval(prim: Prim, args: &[&Value]) -> Result<Vec<Value>> {
    super::eval(prim, args, 1)
}

pub(super) fn elementwise_forward(prim: Prim, fw: &Forward) -> Result<Deriv> {
    super::forward(prim, fw)
}

pub(super) fn matrix_2d<'v>(name: &str, v: &'v Value) -> Result<std::borrow::Cow<'v, Array<f64>>> {
    let a = numeric(name, v)?;
    if a.dims.len() > 2 {
        return Err(runtime(format!("{name}: operator is not defined for N-D arrays")));
    }
    Ok(a)
}

/// An operand of `*`: N-D arrays fold their trailing dimensions into columns, as in Octave (a 2x3x2
/// array multiplies as 2x6).
fn folded<'v>(v: &'v Value) -> Result<std::borrow::Cow<'v, Array<f64>>> {
    let a = numeric("mtimes", v)?;
    if a.dims.len() <= 2 {
        return Ok(a);
    }
    let (rows, columns) = (a.dims[0], a.dims[1..].iter().product());
    Ok(std::borrow::Cow::Owned(Array::new(vec![rows, columns], a.into_owned().data)))
}

/// `dst = lhs * rhs` (column-major slices) through faer's GEMM; `accumulate` adds to dst.
pub(super) fn gemm(dst: &mut [f64], lhs: &[f64], rhs: &[f64], m: usize, k: usize, n: usize, accumulate: bool) {
    let (lhs, rhs) = (MatRef::from_column_major_slice(lhs, m, k), MatRef::from_column_major_slice(rhs, k, n));
    let accum = if accumulate { Accum::Add } else { Accum::Replace };
    product_in_blocks(MatMut::from_column_major_slice_mut(dst, m, n), accum, lhs, rhs);
}

/// `dst = lhs * rhs` (or `+=`) through faer's GEMM. A long product runs in blocks of columns, asking
/// between them whether the user asked to stop.
fn product_in_blocks(mut dst: MatMut<f64>, accum: Accum, lhs: MatRef<f64>, rhs: MatRef<f64>) {
    let n = rhs.ncols();
    let block = interrupt::items_per_poll(lhs.nrows() * lhs.ncols()).min(n.max(1));
    for first in (0..n).step_by(block) {
        let columns = block.min(n - first);
        faer::linalg::matmul::matmul(dst.as_mut().subcols_mut(first, columns), accum, lhs, rhs.subcols(first, columns), 1.0, Par::Seq);
        if columns < n {
            interrupt::stop_if_requested();
        }
    }
}

fn eval_mtimes(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("mtimes", args, 2, 2)?;
    if is_scalar(args[0]) || is_scalar(args[1]) {
        return elementwise_eval(Prim::Times, args);
    }
    if let (Value::Sparse(a), Value::Sparse(b)) = (args[0], args[1]) {
        if b.nrows() != a.ncols() {
            return Err(nonconformant("operator *", &args[0].dims(), &args[1].dims()));
        }
        return Ok(vec![Value::Sparse(sparse::product(a, b)?)]);
    }
    if let Value::Sparse(a) = args[0] {
        let b = folded(args[1])?;
        if b.dims[0] != a.ncols() {
            return Err(nonconformant("operator *", &args[0].dims(), &b.dims));
        }
        return Ok(vec![Value::Double(sparse::times_dense(a, &b))]);
    }
    let (a, b) = (folded(args[0])?, folded(args[1])?);
    let (m, k, n) = (a.dims[0], a.dims[1], b.dims[1]);
    if b.dims[0] != k {
        return Err(nonconformant("operator *", &a.dims, &b.dims));
    }
    memory::check_dims(&[m, n], size_of::<f64>())?;
    let mut c = vec![0.0; m * n];
    gemm(&mut c, &a.data, &b.data, m, k, n, false);
    Ok(vec![Value::Double(Array::new(vec![m, n], c))])
}

/// dC = dA B + A dB.
fn forward_mtimes(fw: &Forward) -> Result<Deriv> {
    if is_scalar(fw.inputs[0]) || is_scalar(fw.inputs[1]) {
        return elementwise_forward(Prim::Times, fw);
    }
    if let Value::Sparse(a) = fw.inputs[0] {
        return sparse::forward_times(a, fw);
    }
    let (a, b) = (folded(fw.inputs[0])?, folded(fw.inputs[1])?);
    let (m, k, n) = (a.dims[0], a.dims[1], b.dims[1]);
    Ok(product_derivative(&a.data, fw.derivs[0], &b.data, fw.derivs[1], m, k, n))
}

/// Derivative of the product of `a` (m x k) and `b` (k x n): `dA B + A dB`.
pub(super) fn product_derivative(a: &[f64], da: &Deriv, b: &[f64], db: &Deriv, m: usize, k: usize, n: usize) -> Deriv {
    let terms = vec![right_product(da, b, m, k, n, db.is_zero()), left_product(a, db, m, k, n, da.is_zero())];
    deriv::sum(terms, m * n)
}

/// `A dB` for every direction. Dense: one GEMM of A with dB viewed as k x (n nd). Zeros of a constant
/// A are structural and left out of sparse blocks; those of an active A are kept.
pub(super) fn left_product(a: &[f64], db: &Deriv, m: usize, k: usize, n: usize, skip_zeros: bool) -> Deriv {
    match db {
        Deriv::Zero => Deriv::Zero,
        Deriv::Parts(_) => deriv::container_in_numeric_rule(),
        Deriv::Dense(d) => {
            let mut out = DenseDeriv::zeros(m * n, d.nd);
            gemm(&mut out.data, a, &d.data, m, k, n * d.nd, false);
            Deriv::Dense(out)
        }
        Deriv::Sparse(_) => db.apply(&product_operator(m, n, k, skip_zeros, |i, j, l| (l + k * j, a[i + m * l]))),
    }
}

/// `dA B` for every direction (one GEMM per direction when dense).
pub(super) fn right_product(da: &Deriv, b: &[f64], m: usize, k: usize, n: usize, skip_zeros: bool) -> Deriv {
    match da {
        Deriv::Zero => Deriv::Zero,
        Deriv::Parts(_) => deriv::container_in_numeric_rule(),
        Deriv::Dense(d) => {
            let mut out = DenseDeriv::zeros(m * n, d.nd);
            for dir in 0..d.nd {
                gemm(out.column_mut(dir), d.column(dir), b, m, k, n, false);
            }
            Deriv::Dense(out)
        }
        Deriv::Sparse(_) => da.apply(&product_operator(m, n, k, skip_zeros, |i, j, l| (i + m * l, b[l + k * j]))),
    }
}

/// Row operator of a product: output row `i + m j` sums `term(i, j, l) = (source row, coefficient)`
/// over l < k.
fn product_operator(m: usize, n: usize, k: usize, skip_zeros: bool, term: impl Fn(usize, usize, usize) -> (usize, f64)) -> RowOperator {
    let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    for j in 0..n {
        for i in 0..m {
            for l in 0..k {
                let (src, coef) = term(i, j, l);
                if coef != 0.0 || !skip_zeros {
                    op.src.push(src);
                    op.coef.push(coef);
                }
            }
            op.ptr.push(op.src.len());
        }
    }
    op
}

pub(super) fn transpose_map(rows: usize, cols: usize) -> Vec<usize> {
    // Output (j, i) at j + i*cols reads input (i, j) at i + j*rows.
    memory::ensure(rows.saturating_mul(cols), size_of::<usize>());
    let mut map = Vec::with_capacity(rows * cols);
    for i in 0..rows {
        for j in 0..cols {
            map.push(i + j * rows);
        }
    }
    map
}

fn eval_transpose(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("transpose", args, 1, 1)?;
    let v = args[0];
    let dims = v.dims();
    if dims.len() > 2 {
        return Err(runtime("transpose not defined for N-D objects"));
    }
    if let Value::Sparse(s) = v {
        return Ok(vec![Value::Sparse(s.transposed())]);
    }
    let map = transpose_map(dims[0], dims[1]);
    let out_dims = vec![dims[1], dims[0]];
    Ok(vec![match v {
        Value::Logical(a) => Value::Logical(Array::new(out_dims, map.iter().map(|&i| a.data[i]).collect())),
        Value::Char(a) => Value::Char(Array::new(out_dims, map.iter().map(|&i| a.data[i]).collect())),
        Value::Cell(a) => Value::Cell(Array::new(out_dims, map.iter().map(|&i| a.data[i].clone()).collect())),
        other => {
            let a = numeric("transpose", other)?;
            Value::Double(Array::new(out_dims, map.iter().map(|&i| a.data[i]).collect()))
        }
    }])
}

fn forward_transpose(fw: &Forward) -> Result<Deriv> {
    let dims = fw.inputs[0].dims();
    let map = RowMap::Gather(transpose_map(dims[0], dims[1]));
    Ok(fw.derivs[0].gather(&map, dims[0] * dims[1]))
}

/// `diag(v, k)` places a vector on diagonal k; `diag(A, k)` extracts diagonal k. Returns the result dims
/// and (result index, source index) pairs; every other element is zero.
fn diag_plan(args: &[&Value]) -> Result<(Vec<usize>, Vec<IndexPair>)> {
    super::check_arity("diag", args, 1, 2)?;
    let k = match args.get(1) {
        Some(v) => numeric("diag", v)?.data.first().copied().unwrap_or(0.0) as i64,
        None => 0,
    };
    let dims = args[0].dims();
    if dims.len() > 2 {
        return Err(runtime("diag: requires a 2-D argument"));
    }
    let offset = k.unsigned_abs() as usize;
    let (row0, col0) = if k >= 0 { (0, offset) } else { (offset, 0) };
    if dims[0] == 1 || dims[1] == 1 {
        let n = dims[0] * dims[1];
        let size = n + offset;
        let pairs = (0..n).map(|i| ((i + row0) + (i + col0) * size, i)).collect();
        return Ok((vec![size, size], pairs));
    }
    let (r, c) = (dims[0], dims[1]);
    let len = r.saturating_sub(row0).min(c.saturating_sub(col0));
    Ok((vec![len, 1], (0..len).map(|i| (i, (i + row0) + (i + col0) * r)).collect()))
}

fn eval_diag(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (dims, pairs) = diag_plan(args)?;
    if let Value::Sparse(s) = args[0] {
        // Sparse as Octave's, with every entry the operand stores (it may carry a derivative).
        let (rows, out_rows) = (s.nrows().max(1), dims[0].max(1));
        let picked = pairs.iter().filter_map(|&(o, i)| s.0.get(i % rows, i / rows).map(|&v| (o % out_rows, o / out_rows, v)));
        return Ok(vec![Value::Sparse(sparse::from_triplets(dims[0], dims[1], picked.collect()))]);
    }
    let a = numeric("diag", args[0])?;
    let mut out = Array::filled(dims, 0.0);
    pairs.iter().for_each(|&(o, i)| out.data[o] = a.data[i]);
    Ok(vec![Value::Double(out)])
}

fn forward_diag(fw: &Forward) -> Result<Deriv> {
    let (dims, pairs) = diag_plan(fw.inputs)?;
    Ok(fw.derivs[0].scatter(&pairs, dims.iter().product()))
}

/// The reverse rule of `mtimes`: matrix products of the adjoint, or the transposed forward rule of a
/// product with a scalar.
fn reverse_mtimes(rv: &Reverse) -> Result<Adjoints> {
    if rv.inputs.iter().any(|v| v.numel() == 1) {
        return transposed_forward(Prim::Mtimes, rv);
    }
    by_column(rv, |adjoint| mtimes_adjoint(rv.inputs, adjoint, rv.wanted))
}

/// Reverse rule of a matrix product `C = A * B` (neither scalar): `adj A = adj C * B'` and
/// `adj B = A' * adj C`, for the operands `wanted`.
/// A constant sparse A gives `adj B = A' * adj C` in O(nnz(A)) per column, never densifying A.
fn mtimes_adjoint(inputs: &[&Value], result_adjoint: &[f64], wanted: &[bool]) -> Result<Adjoints> {
    if let Value::Sparse(a) = inputs[0] {
        if wanted[0] {
            return Err(sparse::depends_on_x());
        }
        // B's columns, N-D trailing dimensions folded in as `*` does.
        let columns = inputs[1].dims()[1..].iter().product();
        return Ok(vec![None, wanted[1].then(|| sparse::transpose_times(a, result_adjoint, columns))]);
    }
    let (a, b) = (folded(inputs[0])?, folded(inputs[1])?);
    let (m, k, n) = (a.dims[0], a.dims[1], b.dims[1]);
    let adjoint_c = MatRef::from_column_major_slice(result_adjoint, m, n);
    let product = |rows: usize, cols: usize, lhs: MatRef<f64>, rhs: MatRef<f64>| {
        let mut out = vec![0.0; rows * cols];
        product_in_blocks(MatMut::from_column_major_slice_mut(&mut out, rows, cols), Accum::Replace, lhs, rhs);
        out
    };
    let adjoint_a = wanted[0].then(|| product(m, k, adjoint_c, MatRef::from_column_major_slice(&b.data, k, n).transpose()));
    let adjoint_b = wanted[1].then(|| product(k, n, MatRef::from_column_major_slice(&a.data, m, k).transpose(), adjoint_c));
    Ok(vec![adjoint_a, adjoint_b])
}
