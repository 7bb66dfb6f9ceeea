//! Runtime values with MATLAB semantics: column-major N-D arrays (at least 2 dims), sparse matrices,
//! cells, structs and function handles.

pub(crate) mod buffers;
pub mod complex_sparse;
pub mod deriv;
pub mod interrupt;
pub mod memory;
pub mod small_list;

use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::prim::Callee;
pub use complex_sparse::ComplexSparse;
pub use num_complex::Complex64;
use small_list::Dims;
use sprs::CsMat;
use std::borrow::Cow;
use std::sync::Arc;

/// Column-major N-D array. `dims.len() >= 2`; trailing singleton dims beyond the second are dropped.
#[derive(Clone, Debug, PartialEq)]
pub struct Array<T> {
    pub dims: Vec<usize>,
    pub data: Vec<T>,
}

impl<T: Clone> Array<T> {
    pub fn new(dims: Vec<usize>, data: Vec<T>) -> Array<T> {
        let dims = normalize_dims(dims);
        debug_assert_eq!(dims.iter().product::<usize>(), data.len());
        Array { dims, data }
    }
    /// Stops the run with `memory::OutOfMemory` when memory cannot hold it.
    pub fn filled(dims: Vec<usize>, x: T) -> Array<T> {
        let n = crate::value::memory::ensure_dims(&dims, size_of::<T>());
        Array::new(dims, vec![x; n])
    }
    pub fn scalar(x: T) -> Array<T> {
        Array { dims: vec![1, 1], data: vec![x] }
    }
    pub fn row(data: Vec<T>) -> Array<T> {
        Array { dims: vec![1, data.len()], data }
    }
    pub fn column(data: Vec<T>) -> Array<T> {
        Array { dims: vec![data.len(), 1], data }
    }
    pub fn numel(&self) -> usize {
        self.data.len()
    }
    pub fn rows(&self) -> usize {
        self.dims[0]
    }
    /// Columns in the 2-D view (all trailing dims folded).
    pub fn cols(&self) -> usize {
        self.dims[1..].iter().product()
    }
    pub fn is_scalar(&self) -> bool {
        self.data.len() == 1
    }
    pub fn map<U: Clone>(&self, f: impl Fn(&T) -> U) -> Array<U> {
        Array { dims: self.dims.clone(), data: self.data.iter().map(f).collect() }
    }
}

/// Drops trailing singleton dims beyond the second and pads to two dims.
pub fn normalize_dims(mut dims: Vec<usize>) -> Vec<usize> {
    while dims.len() > 2 && dims[dims.len() - 1] == 1 {
        dims.pop();
    }
    while dims.len() < 2 {
        dims.push(if dims.is_empty() { 0 } else { 1 });
    }
    dims
}

/// Real double sparse matrix: an `sprs` compressed-column matrix (sorted row indices). msad's
/// kernels keep every entry the operands' structure makes, even one whose value is zero (it carries a
/// derivative); `as_stored` gives the matrix as Octave stores it.
#[derive(Clone, Debug, PartialEq)]
pub struct SparseMatrix(pub CsMat<f64>);

impl SparseMatrix {
    /// From compressed-column arrays (row indices sorted within each column).
    pub fn new(nrows: usize, ncols: usize, colptr: Vec<usize>, rowind: Vec<usize>, values: Vec<f64>) -> SparseMatrix {
        SparseMatrix(CsMat::new_csc((nrows, ncols), colptr, rowind, values))
    }
    /// An m x n matrix with no stored entry.
    pub fn empty(nrows: usize, ncols: usize) -> SparseMatrix {
        SparseMatrix::new(nrows, ncols, vec![0; ncols + 1], vec![], vec![])
    }
    pub fn nrows(&self) -> usize {
        self.0.rows()
    }
    pub fn ncols(&self) -> usize {
        self.0.cols()
    }
    pub fn nnz(&self) -> usize {
        self.0.nnz()
    }
    /// Column `j`'s entries are `colptr()[j]..colptr()[j + 1]`.
    pub fn colptr(&self) -> &[usize] {
        self.0.indptr().into_raw_storage()
    }
    pub fn rowind(&self) -> &[usize] {
        self.0.indices()
    }
    pub fn values(&self) -> &[f64] {
        self.0.data()
    }
    /// The same pattern with other values (one per stored entry).
    pub fn with_values(&self, values: Vec<f64>) -> SparseMatrix {
        SparseMatrix::new(self.nrows(), self.ncols(), self.colptr().to_vec(), self.rowind().to_vec(), values)
    }
    /// `A.'`.
    pub fn transposed(&self) -> SparseMatrix {
        SparseMatrix(self.0.transpose_view().to_other_storage())
    }
    /// The element at linear (column-major) index `k`.
    pub fn at(&self, k: usize) -> f64 {
        self.entry_at(k).map_or(0.0, |e| self.values()[e])
    }
    /// The stored entry at column-major position `k`, if any.
    pub fn entry_at(&self, k: usize) -> Option<usize> {
        self.0.nnz_index(k % self.nrows(), k / self.nrows()).map(|e| e.0)
    }
    /// The matrix as Octave stores it: msad's kernels keep entries whose value is zero (they carry
    /// derivatives), Octave's values have none.
    pub fn as_stored(&self) -> Cow<'_, SparseMatrix> {
        match self.values().contains(&0.0) {
            true => Cow::Owned(SparseMatrix(without_zeros(&self.0))),
            false => Cow::Borrowed(self),
        }
    }
    /// The matrix without the entries whose value is exactly zero.
    pub fn without_zeros(self) -> SparseMatrix {
        match self.values().contains(&0.0) {
            true => SparseMatrix(without_zeros(&self.0)),
            false => self,
        }
    }
    /// The nonzeros of a dense matrix (exact zeros dropped, as Octave's `sparse` does).
    pub fn from_dense(a: &Array<f64>) -> SparseMatrix {
        SparseMatrix(csc_from_dense(a))
    }
    pub fn to_dense(&self) -> Array<f64> {
        csc_to_dense(&self.0)
    }
}

/// The stored entries of a dense matrix, exact zeros dropped (real and complex sparse values).
pub(crate) fn csc_from_dense<T: Copy + Default + PartialEq + std::ops::Add<Output = T>>(a: &Array<T>) -> CsMat<T> {
    let rows = a.rows();
    let mut triplets = sprs::TriMat::new((rows, a.cols()));
    for (k, x) in a.data.iter().enumerate().filter(|(_, x)| **x != T::default()) {
        triplets.add_triplet(k % rows, k / rows, *x);
    }
    triplets.to_csc()
}

/// The full matrix of a compressed-column one.
pub(crate) fn csc_to_dense<T: Copy + Default>(m: &CsMat<T>) -> Array<T> {
    let rows = m.rows();
    let mut dense = Array::filled(vec![rows, m.cols()], T::default());
    for (x, (i, j)) in m.iter() {
        dense.data[i + j * rows] = *x;
    }
    dense
}

/// The matrix without the entries whose value is exactly zero (`T::default()`).
pub(crate) fn without_zeros<T: Copy + Default + PartialEq>(m: &CsMat<T>) -> CsMat<T> {
    let (mut colptr, mut rowind, mut values) = (vec![0], vec![], vec![]);
    for column in m.outer_iterator() {
        for (i, x) in column.iter().filter(|(_, x)| **x != T::default()) {
            rowind.push(i);
            values.push(*x);
        }
        colptr.push(values.len());
    }
    CsMat::new_csc(m.shape(), colptr, rowind, values)
}

/// A struct array: field names in creation order, and for every element one value per field.
#[derive(Clone, Debug, PartialEq)]
pub struct StructArray {
    pub dims: Vec<usize>,
    pub fields: Vec<String>,
    /// `elements[k][f]`: field `f` of element `k` (column-major element order).
    pub elements: Vec<Vec<Value>>,
}

/// A function handle as the host describes it: `@name`, or an anonymous function's source text
/// (`@(x) x.^2 + p`) with the variables it captured.
#[derive(Clone, Debug, PartialEq)]
pub enum FunctionHandle {
    Named(String),
    /// `unmodelled`: captured variables of classes msad does not model (name, class), an error only
    /// where the code reads them. The captured values are shared: a handle the host passes again
    /// shares them with its first reading (they never change), so comparing them costs nothing.
    Anonymous {
        text: String,
        captured: Arc<[(String, Value)]>,
        unmodelled: Vec<(String, String)>,
    },
    /// A handle to nested function `name` of a function in `file` (`h = @inner` returned by its
    /// parent): `captured` is the parent's workspace the handle holds, as for `Anonymous`; `frame`
    /// where the host can write it.
    Nested {
        name: String,
        file: std::path::PathBuf,
        captured: Arc<[(String, Value)]>,
        unmodelled: Vec<(String, String)>,
        frame: Option<HostFrame>,
    },
    /// A handle made by the prepared code (`@name`, `@(x) ...`), its target resolved when the code was
    /// loaded; `captured` are an anonymous function's captured values, the target's leading inputs.
    Compiled {
        text: String,
        target: Callee,
        captured: Vec<Value>,
    },
}

/// The host's frame of a nested function's parent (the workspace a handle to the nested function
/// holds), where the variables of the parent that the code assigns are written back after the call.
#[derive(Clone, Debug, PartialEq)]
pub struct HostFrame {
    /// The parent function's name.
    pub parent: String,
    /// The host's identity of the frame, valid while the handle exists.
    pub id: u64,
}

impl FunctionHandle {
    /// Calls `visit` with this handle and every handle its captured values hold.
    pub fn visit_handles(&self, visit: &mut dyn FnMut(&FunctionHandle)) {
        visit(self);
        if let FunctionHandle::Anonymous { captured, .. } | FunctionHandle::Nested { captured, .. } = self {
            captured.iter().for_each(|(_, value)| value.visit_handles(visit));
        }
    }

    /// What `func2str` gives: the name, or the anonymous function's text.
    pub fn text(&self) -> &str {
        match self {
            FunctionHandle::Named(text)
            | FunctionHandle::Anonymous { text, .. }
            | FunctionHandle::Nested { name: text, .. }
            | FunctionHandle::Compiled { text, .. } => text,
        }
    }
}

/// MATLAB's integer classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntClass {
    Int8,
    Int16,
    Int32,
    Int64,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
}

impl IntClass {
    pub const ALL: [IntClass; 8] = [
        IntClass::Int8,
        IntClass::Int16,
        IntClass::Int32,
        IntClass::Int64,
        IntClass::Uint8,
        IntClass::Uint16,
        IntClass::Uint32,
        IntClass::Uint64,
    ];
    pub fn name(self) -> &'static str {
        match self {
            IntClass::Int8 => "int8",
            IntClass::Int16 => "int16",
            IntClass::Int32 => "int32",
            IntClass::Int64 => "int64",
            IntClass::Uint8 => "uint8",
            IntClass::Uint16 => "uint16",
            IntClass::Uint32 => "uint32",
            IntClass::Uint64 => "uint64",
        }
    }
    pub fn from_name(name: &str) -> Option<IntClass> {
        IntClass::ALL.into_iter().find(|c| c.name() == name)
    }
    /// The smallest and largest value (int64's and uint64's extremes rounded to doubles).
    pub fn range(self) -> (f64, f64) {
        let bits = |c| match c {
            IntClass::Int8 | IntClass::Uint8 => 8,
            IntClass::Int16 | IntClass::Uint16 => 16,
            IntClass::Int32 | IntClass::Uint32 => 32,
            IntClass::Int64 | IntClass::Uint64 => 64,
        };
        let n = bits(self);
        match self {
            IntClass::Int8 | IntClass::Int16 | IntClass::Int32 | IntClass::Int64 => (-(2f64.powi(n - 1)), 2f64.powi(n - 1) - 1.0),
            _ => (0.0, 2f64.powi(n) - 1.0),
        }
    }
    /// Conversion of a double to this class: round half away from zero, saturate, NaN to 0.
    pub fn convert(self, x: f64) -> f64 {
        let (lo, hi) = self.range();
        // Adding 0 turns -0 into 0: integers have no negative zero.
        if x.is_nan() { 0.0 } else { x.round().clamp(lo, hi) + 0.0 }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Double(Array<f64>),
    /// An integer class; the values are held as doubles (exact up to 2^53: int64 and uint64 beyond
    /// that are rounded). Integers never carry derivatives.
    Logical(Array<bool>),
    /// Characters as UTF-16 code units (MATLAB's mxChar).
    Char(Array<u16>),
    Sparse(SparseMatrix),
    Cell(Array<Value>),
    Struct(StructArray),
    Handle(Arc<FunctionHandle>),
    Int(IntClass, Array<f64>),
    /// Complex double: made where Octave's result is complex (it carries a derivative in forward mode).
    Complex(Array<Complex64>),
    /// Complex sparse double (never carrying a derivative, see `complex_sparse`).
    ComplexSparse(ComplexSparse),
}

impl Value {
    /// Gives its buffers back to the pool (see `buffers`): the value is no longer needed.
    pub fn recycle(self) {
        match self {
            Value::Double(a) => {
                buffers::give(a.data);
                buffers::give(a.dims);
            }
            Value::Logical(a) => buffers::give(a.dims),
            Value::Sparse(s) => {
                let (colptr, rowind, values) = s.0.into_raw_storage();
                buffers::give(values);
                buffers::give(colptr);
                buffers::give(rowind);
            }
            _ => {}
        }
    }

    /// The scalar `x`, its buffers taken from those kept for a repeated call.
    pub fn scalar(x: f64) -> Value {
        let mut data = buffers::take(1);
        data.push(x);
        Value::Double(Array { dims: buffers::dims(&[1, 1]), data })
    }
    pub fn string(s: &str) -> Value {
        Value::Char(Array::row(s.encode_utf16().collect()))
    }
    pub fn dims(&self) -> Vec<usize> {
        match self {
            Value::Double(a) => a.dims.clone(),
            Value::Logical(a) => a.dims.clone(),
            Value::Char(a) => a.dims.clone(),
            Value::Cell(a) => a.dims.clone(),
            Value::Sparse(s) => vec![s.nrows(), s.ncols()],
            Value::Struct(s) => s.dims.clone(),
            Value::Handle(_) => vec![1, 1],
            Value::Int(_, a) => a.dims.clone(),
            Value::Complex(a) => a.dims.clone(),
            Value::ComplexSparse(s) => vec![s.rows(), s.cols()],
        }
    }
    /// The value's size as `dims()` gives it, copied inline rather than into a new vector.
    pub fn shape(&self) -> Dims {
        match self {
            Value::Double(a) | Value::Int(_, a) => a.dims.iter().copied().collect(),
            Value::Logical(a) => a.dims.iter().copied().collect(),
            Value::Char(a) => a.dims.iter().copied().collect(),
            Value::Cell(a) => a.dims.iter().copied().collect(),
            Value::Sparse(s) => [s.nrows(), s.ncols()].into_iter().collect(),
            Value::Struct(s) => s.dims.iter().copied().collect(),
            Value::Handle(_) => [1, 1].into_iter().collect(),
            Value::Complex(a) => a.dims.iter().copied().collect(),
            Value::ComplexSparse(s) => [s.rows(), s.cols()].into_iter().collect(),
        }
    }
    /// Whether the value's size is `dims` (what `dims()` returns, without building it).
    pub fn has_dims(&self, dims: &[usize]) -> bool {
        match self {
            Value::Double(a) => a.dims == dims,
            Value::Logical(a) => a.dims == dims,
            Value::Char(a) => a.dims == dims,
            Value::Cell(a) => a.dims == dims,
            Value::Sparse(s) => dims == [s.nrows(), s.ncols()],
            Value::Struct(s) => s.dims == dims,
            Value::Handle(_) => dims == [1, 1],
            Value::Int(_, a) => a.dims == dims,
            Value::Complex(a) => a.dims == dims,
            Value::ComplexSparse(s) => dims == [s.rows(), s.cols()],
        }
    }
    pub fn numel(&self) -> usize {
        match self {
            Value::Double(a) => a.numel(),
            Value::Logical(a) => a.numel(),
            Value::Char(a) => a.numel(),
            Value::Cell(a) => a.numel(),
            Value::Sparse(s) => s.nrows() * s.ncols(),
            Value::Struct(s) => s.dims.iter().product(),
            Value::Handle(_) => 1,
            Value::Int(_, a) => a.numel(),
            Value::Complex(a) => a.numel(),
            Value::ComplexSparse(s) => s.rows() * s.cols(),
        }
    }
    pub fn class_name(&self) -> &'static str {
        match self {
            Value::Double(_) | Value::Sparse(_) | Value::Complex(_) | Value::ComplexSparse(_) => "double",
            Value::Logical(_) => "logical",
            Value::Char(_) => "char",
            Value::Cell(_) => "cell",
            Value::Struct(_) => "struct",
            Value::Handle(_) => "function_handle",
            Value::Int(c, _) => c.name(),
        }
    }
    /// Text of a char row vector.
    /// Whether a function handle is in the value, also inside cells and struct fields.
    pub fn holds_handle(&self) -> bool {
        match self {
            Value::Handle(_) => true,
            Value::Cell(a) => a.data.iter().any(Value::holds_handle),
            Value::Struct(s) => s.elements.iter().flatten().any(Value::holds_handle),
            _ => false,
        }
    }

    /// Calls `visit` with every handle the value holds (also in cells and struct fields), and with
    /// those in their captured values.
    pub fn visit_handles(&self, visit: &mut dyn FnMut(&FunctionHandle)) {
        match self {
            Value::Handle(h) => h.visit_handles(visit),
            Value::Cell(a) => a.data.iter().for_each(|v| v.visit_handles(visit)),
            Value::Struct(s) => s.elements.iter().flatten().for_each(|v| v.visit_handles(visit)),
            _ => {}
        }
    }

    pub fn as_string(&self) -> Option<String> {
        match self {
            Value::Char(a) if a.dims[0] <= 1 => Some(String::from_utf16_lossy(&a.data)),
            _ => None,
        }
    }

    /// A complex result as Octave keeps it: real when every imaginary part is zero (`complex()` alone
    /// makes complex values with zero imaginary parts).
    pub fn narrowed(a: Array<Complex64>) -> Value {
        if a.data.iter().all(|z| z.im == 0.0) { Value::Double(a.map(|z| z.re)) } else { Value::Complex(a) }
    }

    /// The value as a complex array: complex values, and real numeric ones with zero imaginary parts.
    pub fn complex_parts(&self) -> Option<Cow<'_, Array<Complex64>>> {
        match self {
            Value::Complex(a) => Some(Cow::Borrowed(a)),
            Value::ComplexSparse(s) => Some(Cow::Owned(s.to_dense())),
            other => Some(Cow::Owned(other.numeric()?.map(|&x| Complex64::new(x, 0.0)))),
        }
    }

    /// Feeds class, dims and every element's bits to `h` (a cache key for values folded as constants).
    pub fn hash_content(&self, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        self.class_name().hash(h);
        self.dims().hash(h);
        match self {
            Value::Double(a) => a.data.iter().for_each(|x| x.to_bits().hash(h)),
            Value::Logical(a) => a.data.hash(h),
            Value::Char(a) => a.data.hash(h),
            Value::Sparse(s) => {
                s.colptr().hash(h);
                s.rowind().hash(h);
                s.values().iter().for_each(|x| x.to_bits().hash(h));
            }
            Value::Cell(a) => a.data.iter().for_each(|v| v.hash_content(h)),
            Value::Struct(st) => {
                st.fields.hash(h);
                st.elements.iter().flatten().for_each(|v| v.hash_content(h));
            }
            Value::Handle(f) => format!("{f:?}").hash(h),
            Value::Int(_, a) => a.data.iter().for_each(|x| x.to_bits().hash(h)),
            Value::Complex(a) => {
                "complex".hash(h);
                a.data.iter().for_each(|z| (z.re.to_bits(), z.im.to_bits()).hash(h));
            }
            Value::ComplexSparse(s) => {
                "complex sparse".hash(h);
                s.0.iter().for_each(|(z, (i, j))| (i, j, z.re.to_bits(), z.im.to_bits()).hash(h));
            }
        }
    }

    /// Whether `other` has the same class, dims and element bits (as `hash_content` tells values apart:
    /// -0 is not 0): comparing costs less than hashing.
    pub fn same_content(&self, other: &Value) -> bool {
        fn same_bits(a: &[f64], b: &[f64]) -> bool {
            // Chunks without an early exit inside compare in vector registers.
            let same_chunk = |(x, y): (&[f64], &[f64])| x.iter().zip(y).fold(true, |same, (p, q)| same & (p.to_bits() == q.to_bits()));
            a.len() == b.len() && a.chunks(16).zip(b.chunks(16)).all(same_chunk)
        }
        fn same_elements(a: &[Value], b: &[Value]) -> bool {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_content(y))
        }
        match (self, other) {
            (Value::Double(a), Value::Double(b)) => a.dims == b.dims && same_bits(&a.data, &b.data),
            (Value::Int(c, a), Value::Int(d, b)) => c == d && a.dims == b.dims && same_bits(&a.data, &b.data),
            (Value::Logical(a), Value::Logical(b)) => a == b,
            (Value::Char(a), Value::Char(b)) => a == b,
            (Value::Sparse(a), Value::Sparse(b)) => {
                (a.nrows(), a.ncols()) == (b.nrows(), b.ncols())
                    && a.colptr() == b.colptr()
                    && a.rowind() == b.rowind()
                    && same_bits(a.values(), b.values())
            }
            (Value::Cell(a), Value::Cell(b)) => a.dims == b.dims && same_elements(&a.data, &b.data),
            (Value::Struct(a), Value::Struct(b)) => {
                a.dims == b.dims
                    && a.fields == b.fields
                    && a.elements.len() == b.elements.len()
                    && a.elements.iter().zip(&b.elements).all(|(x, y)| same_elements(x, y))
            }
            (Value::Handle(a), Value::Handle(b)) => match (&**a, &**b) {
                (FunctionHandle::Named(a), FunctionHandle::Named(b)) => a == b,
                (
                    FunctionHandle::Anonymous { text: a, captured: x, unmodelled: p },
                    FunctionHandle::Anonymous { text: b, captured: y, unmodelled: q },
                ) => {
                    a == b
                        && p == q
                        && (Arc::ptr_eq(x, y)
                            || x.len() == y.len() && x.iter().zip(y.iter()).all(|((m, u), (n, v))| m == n && u.same_content(v)))
                }
                // Made inside prepared code, never captured from the host: not worth comparing.
                _ => false,
            },
            (Value::Complex(a), Value::Complex(b)) => {
                a.dims == b.dims
                    && a.data.iter().zip(&b.data).all(|(p, q)| (p.re.to_bits(), p.im.to_bits()) == (q.re.to_bits(), q.im.to_bits()))
            }
            (Value::ComplexSparse(a), Value::ComplexSparse(b)) => {
                let parts = |s: &ComplexSparse| (s.part(false), s.part(true));
                let ((ar, ai), (br, bi)) = (parts(a), parts(b));
                (ar.colptr(), ar.rowind()) == (br.colptr(), br.rowind())
                    && same_bits(ar.values(), br.values())
                    && same_bits(ai.values(), bi.values())
            }
            _ => false,
        }
    }

    /// The differentiated function's result must be an array of numbers (numeric, logical or char):
    /// J, g and H are derivatives of its elements.
    pub fn check_function_result(&self) -> Result<()> {
        match self {
            Value::Double(_)
            | Value::Logical(_)
            | Value::Sparse(_)
            | Value::Char(_)
            | Value::Int(..)
            | Value::Complex(_)
            | Value::ComplexSparse(_) => Ok(()),
            other => {
                Err(Diagnostic::new(ErrorKind::BadInput, format!("the function must return a numeric array, not a {}", other.class_name()))
                    .with_hint("return the numbers to differentiate (e.g. c{1} or s.field), or [c{:}] for a cell of arrays"))
            }
        }
    }
    /// The value as a real double array (logical and char convert, sparse densifies); None for containers
    /// and complex values (their kernels are in `primitives::complex`).
    pub fn numeric(&self) -> Option<Cow<'_, Array<f64>>> {
        match self {
            Value::Double(a) => Some(Cow::Borrowed(a)),
            Value::Logical(a) => Some(Cow::Owned(a.map(|&b| b as u8 as f64))),
            Value::Char(a) => Some(Cow::Owned(a.map(|&c| c as f64))),
            Value::Sparse(s) => Some(Cow::Owned(s.to_dense())),
            Value::Int(_, a) => Some(Cow::Borrowed(a)),
            Value::Cell(_) | Value::Struct(_) | Value::Handle(_) | Value::Complex(_) | Value::ComplexSparse(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content_hash(value: &Value) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        value.hash_content(&mut h);
        std::hash::Hasher::finish(&h)
    }

    fn sparse(rowind: Vec<usize>, values: Vec<f64>) -> Value {
        Value::Sparse(SparseMatrix::new(40, 1, vec![0, values.len()], rowind, values))
    }

    #[test]
    fn sparse_elements_read_in_place_equal_the_dense_ones() {
        // 4 x 3 with entries in the first and last rows and an empty column.
        let s = SparseMatrix::new(4, 3, vec![0, 2, 2, 4], vec![0, 3, 1, 3], vec![1.5, -2.0, 3.0, 4.0]);
        let dense = s.to_dense();
        assert_eq!((0..12).map(|k| s.at(k)).collect::<Vec<_>>(), dense.data);
    }

    /// Values `same_content` calls the same must hash alike (the engine keeps a hash for such a
    /// value); those that hash apart must not be called the same.
    #[test]
    fn same_content_tells_apart_what_hash_content_does() {
        let doubles = |dims: Vec<usize>, data: Vec<f64>| Value::Double(Array::new(dims, data));
        let long: Vec<f64> = (0..37).map(f64::from).collect();
        let mut long_changed = long.clone();
        long_changed[33] = -0.0;
        let closure = |p: Value| {
            Value::Handle(Arc::new(FunctionHandle::Anonymous {
                text: "@(x) x * p".into(),
                captured: vec![("p".into(), p)].into(),
                unmodelled: vec![],
            }))
        };
        let cases = [
            (doubles(vec![1, 1], vec![f64::NAN]), doubles(vec![1, 1], vec![f64::NAN]), true),
            (doubles(vec![1, 1], vec![0.0]), doubles(vec![1, 1], vec![-0.0]), false),
            (doubles(vec![37, 1], long.clone()), doubles(vec![37, 1], long.clone()), true),
            (doubles(vec![37, 1], long.clone()), doubles(vec![1, 37], long.clone()), false),
            (doubles(vec![37, 1], long.clone()), doubles(vec![37, 1], long_changed), false),
            (doubles(vec![1, 1], vec![1.0]), Value::Int(IntClass::Int8, Array::new(vec![1, 1], vec![1.0])), false),
            (sparse(vec![3, 7], vec![1.0, 2.0]), sparse(vec![3, 7], vec![1.0, 2.0]), true),
            (sparse(vec![3, 7], vec![1.0, 2.0]), sparse(vec![3, 8], vec![1.0, 2.0]), false),
            (sparse(vec![3, 7], vec![1.0, 2.0]), sparse(vec![3, 7], vec![1.0, 2.5]), false),
            (closure(sparse(vec![3], vec![1.0])), closure(sparse(vec![3], vec![1.0])), true),
            (closure(sparse(vec![3], vec![1.0])), closure(sparse(vec![3], vec![-1.0])), false),
        ];
        for (a, b, same) in &cases {
            assert_eq!(a.same_content(b), *same, "{a:?} and {b:?}");
            assert_eq!(content_hash(a) == content_hash(b), *same, "hashes of {a:?} and {b:?}");
        }
    }
}
