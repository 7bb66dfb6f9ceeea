//! Linear algebra operators: matrix product (one GEMM per product with the reshape trick), transposes,
//! and the matrix divisions and power in their scalar forms.

use super::elementwise::{dims_text, numeric};
use super::{Derivative, Forward, Kernel, Primitive, lookup, runtime, sparse};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::exec::deriv::{self, DenseDeriv, Deriv, RowMap, RowOperator};
use crate::exec::value::{Array, Value};
use faer::{Accum, MatMut, MatRef, Par};

fn general(name: &'static str, eval: super::EvalFn, rule: super::ForwardFn) -> Primitive {
    Primitive { name, kernel: Kernel::General { eval, derivative: Derivative::Rule(rule) } }
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        general("mtimes", eval_mtimes, forward_mtimes),
        general("transpose", eval_transpose, forward_transpose),
        general("ctranspose", eval_transpose, forward_transpose),
        general("mrdivide", eval_mrdivide, forward_mrdivide),
        general("mldivide", eval_mldivide, forward_mldivide),
        general("mpower", eval_mpower, forward_mpower),
        general("diag", eval_diag, forward_diag),
    ]
}

fn is_scalar(v: &Value) -> bool {
    v.numel() == 1
}

/// Runs the elementwise primitive `name` in place of a matrix operator whose operand is scalar.
fn elementwise_eval(name: &str, args: &[&Value]) -> Result<Vec<Value>> {
    super::eval(lookup(name).expect("elementwise primitive"), args, 1)
}

fn elementwise_forward(name: &str, fw: &Forward) -> Result<Deriv> {
    super::forward(lookup(name).expect("elementwise primitive"), fw)
}

/// An operand of `*`: N-D arrays fold their trailing dims into columns, as in Octave.
fn folded_matrix<'v>(name: &str, v: &'v Value) -> Result<std::borrow::Cow<'v, Array<f64>>> {
    let a = numeric(name, v)?;
    if a.dims.len() == 2 {
        return Ok(a);
    }
    let dims = vec![a.rows(), a.cols()];
    Ok(std::borrow::Cow::Owned(Array::new(dims, a.into_owned().data)))
}

/// `dst = lhs * rhs` (column-major slices) through faer's GEMM; `accumulate` adds to dst.
fn gemm(dst: &mut [f64], lhs: &[f64], rhs: &[f64], m: usize, k: usize, n: usize, accumulate: bool) {
    let l = MatRef::from_column_major_slice(lhs, m, k);
    let r = MatRef::from_column_major_slice(rhs, k, n);
    let d = MatMut::from_column_major_slice_mut(dst, m, n);
    let accum = if accumulate { Accum::Add } else { Accum::Replace };
    faer::linalg::matmul::matmul(d, accum, l, r, 1.0, Par::Seq);
}

fn eval_mtimes(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("mtimes", args, 2, 2)?;
    if is_scalar(args[0]) || is_scalar(args[1]) {
        return elementwise_eval("times", args);
    }
    if let Value::Sparse(a) = args[0] {
        let b = folded_matrix("mtimes", args[1])?;
        if b.dims[0] != a.ncols {
            return Err(nonconformant(&args[0].dims(), &b.dims));
        }
        return Ok(vec![Value::Double(sparse::times_dense(a, &b))]);
    }
    let (a, b) = (folded_matrix("mtimes", args[0])?, folded_matrix("mtimes", args[1])?);
    let (m, k, n) = (a.dims[0], a.dims[1], b.dims[1]);
    if b.dims[0] != k {
        return Err(nonconformant(&a.dims, &b.dims));
    }
    let mut c = vec![0.0; m * n];
    gemm(&mut c, &a.data, &b.data, m, k, n, false);
    Ok(vec![Value::Double(Array::new(vec![m, n], c))])
}

fn nonconformant(a: &[usize], b: &[usize]) -> Diagnostic {
    runtime(format!("operator *: nonconformant arguments (op1 is {}, op2 is {})", dims_text(a), dims_text(b)))
}

/// dC = dA B + A dB.
fn forward_mtimes(fw: &Forward) -> Result<Deriv> {
    if is_scalar(fw.inputs[0]) || is_scalar(fw.inputs[1]) {
        return elementwise_forward("times", fw);
    }
    if let Value::Sparse(a) = fw.inputs[0] {
        return sparse::forward_times(a, fw);
    }
    let (a, b) = (folded_matrix("", fw.inputs[0])?, folded_matrix("", fw.inputs[1])?);
    let (m, k, n) = (a.dims[0], a.dims[1], b.dims[1]);
    let a_constant = fw.derivs[0].is_zero();
    let terms = vec![
        right_product(fw.derivs[0], &b.data, m, k, n, fw.derivs[1].is_zero()),
        left_product(&a.data, fw.derivs[1], m, k, n, a_constant),
    ];
    Ok(deriv::sum(terms, m * n))
}

/// `A dB` for every direction. Dense: one GEMM of A with dB viewed as k x (n nd). Zeros of a constant
/// A are structural and left out of sparse blocks; those of an active A are kept.
fn left_product(a: &[f64], db: &Deriv, m: usize, k: usize, n: usize, skip_zeros: bool) -> Deriv {
    match db {
        Deriv::Zero => Deriv::Zero,
        Deriv::Dense(d) => {
            let mut out = DenseDeriv::zeros(m * n, d.nd);
            gemm(&mut out.data, a, &d.data, m, k, n * d.nd, false);
            Deriv::Dense(out)
        }
        Deriv::Sparse(_) => db.apply(&product_operator(m, n, k, skip_zeros, |i, j, l| (l + k * j, a[i + m * l]))),
    }
}

/// `dA B` for every direction (one GEMM per direction when dense).
fn right_product(da: &Deriv, b: &[f64], m: usize, k: usize, n: usize, skip_zeros: bool) -> Deriv {
    match da {
        Deriv::Zero => Deriv::Zero,
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
fn product_operator(
    m: usize,
    n: usize,
    k: usize,
    skip_zeros: bool,
    term: impl Fn(usize, usize, usize) -> (usize, f64),
) -> RowOperator {
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

fn transpose_map(rows: usize, cols: usize) -> Vec<usize> {
    // Output (j, i) at j + i*cols reads input (i, j) at i + j*rows.
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

fn matrix_division(op: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("operator {op} with a non-scalar divisor"))
        .with_hint("msad supports division by scalars for now; use ./ for elementwise division")
}

fn eval_mrdivide(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("mrdivide", args, 2, 2)?;
    if !is_scalar(args[1]) {
        return Err(matrix_division("/"));
    }
    elementwise_eval("rdivide", args)
}

fn forward_mrdivide(fw: &Forward) -> Result<Deriv> {
    elementwise_forward("rdivide", fw)
}

fn eval_mldivide(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("mldivide", args, 2, 2)?;
    if !is_scalar(args[0]) {
        return Err(matrix_division("\\"));
    }
    elementwise_eval("ldivide", args)
}

fn forward_mldivide(fw: &Forward) -> Result<Deriv> {
    elementwise_forward("ldivide", fw)
}

fn eval_mpower(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("mpower", args, 2, 2)?;
    if !(is_scalar(args[0]) && is_scalar(args[1])) {
        return Err(Diagnostic::new(ErrorKind::Unsupported, "operator ^ on matrices")
            .with_hint("use .^ for elementwise powers"));
    }
    elementwise_eval("power", args)
}

fn forward_mpower(fw: &Forward) -> Result<Deriv> {
    elementwise_forward("power", fw)
}

/// `diag(v, k)` places a vector on diagonal k; `diag(A, k)` extracts diagonal k. Returns the result dims
/// and (result index, source index) pairs; every other element is zero.
fn diag_plan(args: &[&Value]) -> Result<(Vec<usize>, Vec<(usize, usize)>)> {
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
    let a = numeric("diag", args[0])?;
    let mut out = Array::filled(dims, 0.0);
    pairs.iter().for_each(|&(o, i)| out.data[o] = a.data[i]);
    Ok(vec![Value::Double(out)])
}

fn forward_diag(fw: &Forward) -> Result<Deriv> {
    let (dims, pairs) = diag_plan(fw.inputs)?;
    Ok(fw.derivs[0].scatter(&pairs, dims.iter().product()))
}
