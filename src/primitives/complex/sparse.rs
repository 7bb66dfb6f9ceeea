//! Primitives on complex sparse matrices (`ComplexSparse`, on `sprs`): products with vectors and
//! matrices in O(nnz) per column, sums and scalings that stay sparse, `conj`, `real`, `imag`, `abs`,
//! `full`, transposes and `nnz`. Results are sparse or full as Octave's are, and narrow to real when
//! every imaginary part is zero. Other primitives refuse them, naming `full(...)`.

use super::super::{Prim, PrimId, check_arity};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::complex_sparse::ComplexSparse;
use crate::value::deriv::{DenseDeriv, Deriv};
use crate::value::{Array, Complex64, Value};
use sprs::CsMat;
use std::borrow::Cow;

type C = Complex64;

/// Whether a complex sparse matrix is among the operands: `eval` then has the kernel.
pub(super) fn involved(args: &[&Value]) -> bool {
    args.iter().any(|a| matches!(a, Value::ComplexSparse(_)))
}

/// Primitive `id` on arguments of which at least one is complex sparse.
pub(super) fn eval(id: PrimId, args: &[&Value]) -> Result<Value> {
    let name = id.name();
    match (id, args) {
        (Prim::Conj | Prim::Real | Prim::Imag | Prim::Abs | Prim::Uminus | Prim::Uplus, [Value::ComplexSparse(a)]) => Ok(entrywise(id, a)),
        (Prim::Full, [Value::ComplexSparse(a)]) => Ok(Value::Complex(a.to_dense())),
        (Prim::Sparse | Prim::Double, [Value::ComplexSparse(a)]) => Ok(Value::ComplexSparse(a.clone())),
        (Prim::Transpose, [Value::ComplexSparse(a)]) => Ok(Value::ComplexSparse(transposed(a))),
        (Prim::Ctranspose, [Value::ComplexSparse(a)]) => Ok(Value::ComplexSparse(ComplexSparse(transposed(a).0.map(|z| z.conj())))),
        (Prim::Nnz, [Value::ComplexSparse(a)]) => Ok(Value::scalar(a.without_zeros().nnz() as f64)),
        (Prim::Issparse, [Value::ComplexSparse(_)]) => Ok(Value::Logical(Array::scalar(true))),
        (Prim::Plus | Prim::Minus, [a, b]) => sum(id, a, b),
        (Prim::Times | Prim::Mtimes, [a, b]) if a.numel() == 1 || b.numel() == 1 => scaled(name, a, b),
        (Prim::Rdivide | Prim::Mrdivide, [a, b]) if b.numel() == 1 => {
            let divisor = scalar_of(name, b)?;
            scaled(name, a, &Value::Complex(Array::scalar(divisor.inv())))
        }
        (Prim::Mtimes, [a, b]) => product(a, b),
        _ => {
            check_arity(name, args, 0, usize::MAX)?;
            Err(unsupported(name))
        }
    }
}

fn unsupported(name: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("{name}: msad has no kernel for complex sparse matrices here"))
        .with_hint("msad keeps complex sparse matrices for *, +, -, scaling, conj, real, imag, abs, transposes and indexing; apply full(...) first for anything else")
}

/// A function of each stored entry (zero entries stay zero).
fn entrywise(id: PrimId, a: &ComplexSparse) -> Value {
    let f: fn(&C) -> C = match id {
        Prim::Conj => |z| z.conj(),
        Prim::Real => |z| C::new(z.re, 0.0),
        Prim::Imag => |z| C::new(z.im, 0.0),
        Prim::Abs => |z| C::new(z.norm(), 0.0),
        Prim::Uminus => |z| -z,
        _ => |z| *z,
    };
    ComplexSparse(a.0.map(f)).narrowed()
}

fn transposed(a: &ComplexSparse) -> ComplexSparse {
    ComplexSparse(a.0.transpose_view().to_other_storage())
}

/// An operand as a complex sparse matrix, where it is sparse (a complex one borrowed: `Ybus` is read
/// on every call).
fn as_sparse(v: &Value) -> Option<Cow<'_, CsMat<C>>> {
    match v {
        Value::ComplexSparse(a) => Some(Cow::Borrowed(&a.0)),
        Value::Sparse(s) => Some(Cow::Owned(ComplexSparse::from_real(s).0)),
        _ => None,
    }
}

fn scalar_of(name: &str, v: &Value) -> Result<C> {
    let parts = v.complex_parts().ok_or_else(|| unsupported(name))?;
    Ok(parts.data[0])
}

fn nonconformant(name: &str, a: &Value, b: &Value) -> Diagnostic {
    super::super::elementwise::nonconformant(&format!("operator {name}"), &a.dims(), &b.dims())
}

/// `A + B`, `A - B`: sparse when both are, full (as Octave's) when one is full; a scalar operand
/// makes the result full too.
fn sum(id: PrimId, a: &Value, b: &Value) -> Result<Value> {
    let name = id.name();
    let sign = if id == Prim::Minus { -1.0 } else { 1.0 };
    if let (Some(p), Some(q)) = (as_sparse(a), as_sparse(b)) {
        if p.shape() != q.shape() {
            return Err(nonconformant(name, a, b));
        }
        return Ok(ComplexSparse(&*p + &q.map(|z| z * sign)).narrowed());
    }
    let full = |v: &Value| -> Result<Value> { Ok(Value::Complex(v.complex_parts().ok_or_else(|| unsupported(name))?.into_owned())) };
    let (a, b) = (full(a)?, full(b)?);
    Ok(super::math::eval(id, &[&a, &b])?.expect("sums have complex kernels"))
}

/// A sparse operand times a scalar: sparse, as Octave's.
fn scaled(name: &str, a: &Value, b: &Value) -> Result<Value> {
    let (matrix, factor) = if b.numel() == 1 { (a, b) } else { (b, a) };
    let factor = scalar_of(name, factor)?;
    let matrix = as_sparse(matrix).ok_or_else(|| unsupported(name))?;
    Ok(ComplexSparse(matrix.map(|z| z * factor)).narrowed())
}

/// `A * B`: sparse times sparse stays sparse; with a full operand the result is full, each of its
/// columns one pass over the sparse operand's entries.
fn product(a: &Value, b: &Value) -> Result<Value> {
    let (p, q) = (a.dims(), b.dims());
    if p.len() > 2 || q.len() > 2 || p[1] != q[0] {
        return Err(nonconformant("*", a, b));
    }
    match (as_sparse(a), as_sparse(b)) {
        (Some(x), Some(y)) => Ok(ComplexSparse(&*x * &*y).narrowed()),
        (Some(x), None) => Ok(sparse_times_full(&x, &full_operand(b)?)),
        (None, Some(y)) => {
            // A B = (B.' A.').'
            let transposed_product = sparse_times_full(&y.transpose_view().to_other_storage(), &transpose(&full_operand(a)?));
            Ok(match transposed_product {
                Value::Complex(t) => Value::Complex(transpose(&t)),
                Value::Double(t) => Value::Double(transpose(&t)),
                _ => unreachable!("a full product"),
            })
        }
        (None, None) => unreachable!("one operand is complex sparse"),
    }
}

fn full_operand(v: &Value) -> Result<Array<C>> {
    Ok(v.complex_parts().ok_or_else(|| unsupported("mtimes"))?.into_owned())
}

fn transpose<T: Clone>(a: &Array<T>) -> Array<T> {
    let (rows, cols) = (a.rows(), a.cols());
    Array::new(vec![cols, rows], (0..rows * cols).map(|k| a.data[(k / cols) + (k % cols) * rows].clone()).collect())
}

fn sparse_times_full(a: &CsMat<C>, b: &Array<C>) -> Value {
    let (rows, cols) = (a.rows(), b.cols());
    let mut out = Array::filled(vec![rows, cols], C::new(0.0, 0.0));
    for (column, result) in b.data.chunks(b.rows().max(1)).zip(out.data.chunks_mut(rows.max(1))).take(cols) {
        sprs::prod::mul_acc_mat_vec_csc(a.view(), column, result);
    }
    Value::narrowed(out)
}

/// The block of `A * B` for a constant complex sparse A and B's dense block (stacked real and imaginary
/// rows; a real B has real rows only): per direction and column of B one pass over A's stored entries
/// that writes the real and imaginary rows together, `(p + iq)(du + i dv)`, skipping B's zero entries
/// (most of a compressed block's: a direction holds one colour's columns).
pub(super) fn times_block(a: &ComplexSparse, b: &Value, block: &DenseDeriv) -> Deriv {
    let csc = if a.0.is_csc() { Cow::Borrowed(&a.0) } else { Cow::Owned(a.0.to_csc()) };
    let (rows, inner) = (a.rows(), a.cols());
    let cols = b.numel() / inner.max(1);
    let (m_b, m) = (inner * cols, rows * cols);
    let complex_b = matches!(b, Value::Complex(_));
    let mut out = DenseDeriv::zeros(2 * m, block.nd);
    for d in 0..block.nd {
        let src = block.column(d);
        let (out_re, out_im) = out.column_mut(d).split_at_mut(m);
        for c in 0..cols {
            let du = &src[c * inner..(c + 1) * inner];
            let dv = complex_b.then(|| &src[m_b + c * inner..m_b + (c + 1) * inner]);
            let (re, im) = (&mut out_re[c * rows..(c + 1) * rows], &mut out_im[c * rows..(c + 1) * rows]);
            for (j, column) in csc.outer_iterator().enumerate() {
                let (u, v) = (du[j], dv.map_or(0.0, |dv| dv[j]));
                if u == 0.0 && v == 0.0 {
                    continue;
                }
                for (i, y) in column.iter() {
                    re[i] += y.re * u - y.im * v;
                    im[i] += y.im * u + y.re * v;
                }
            }
        }
    }
    Deriv::Dense(out)
}
