//! MATLAB indexing: `a(i)`, `a(i, j, ...)`, `end`, and indexed assignment that grows arrays, on values
//! and on their derivative blocks (both are row gathers / scatters by linear index).

use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::primitives::complex;
use crate::primitives::integers::{as_double, not_differentiable};
use crate::primitives::runtime;
use crate::value::buffers;
use crate::value::deriv::{Deriv, RowMap, SeedColours, Stride, contiguous_start, extend_stride};
use crate::value::small_list::{Dims, Few};
use crate::value::{Array, Complex64, ComplexSparse, IntClass, SparseMatrix, StructArray, Value, normalize_dims};

/// One index argument: `:` or a list of zero-based positions (with the index's own dims, for the
/// shape of a linear-indexing result).
#[derive(Clone)]
pub enum Subscript {
    All,
    List {
        positions: Vec<usize>,
        dims: Dims,
        is_logical: bool,
    },
    /// A range `a:s:b` read only as a subscript: a row of positions, never built as a list.
    Range(Stride),
}

/// The subscripts of one indexing operation.
pub type Subscripts = Few<Subscript>;

impl Subscript {
    /// A column of zero-based linear positions, as `x(positions + 1)` would give.
    pub fn positions(positions: Vec<usize>) -> Subscript {
        let rows = positions.len();
        Subscript::List { positions, dims: [rows, 1].into_iter().collect(), is_logical: false }
    }

    /// The range `first + k*step` (zero-based, all valid), k < count, as the row `a:s:b` would give.
    pub fn range(first: usize, step: isize, count: usize) -> Subscript {
        Subscript::Range(Stride { first, step, count })
    }

    /// Subscript `position` of `count` (for the error message).
    pub fn from_value(v: &Value, position: usize, count: usize) -> Result<Subscript> {
        match v {
            // The text ':' stands for the colon (Octave's `idx = {':', 2}; x(idx{:})`).
            Value::Char(c) if c.data.len() == 1 && v.as_string().as_deref() == Some(":") => Ok(Subscript::All),
            Value::Logical(mask) => Ok(Subscript::List {
                positions: mask.data.iter().enumerate().filter(|(_, b)| **b).map(|(i, _)| i).collect(),
                dims: mask.dims.iter().copied().collect(),
                is_logical: true,
            }),
            _ => {
                let invalid = |shown: &str| {
                    runtime(format!(
                        "{}: subscripts must be either integers 1 to (2^63)-1 or logicals",
                        subscript_text(shown, position, count)
                    ))
                    .with_identifier("Octave:invalid-index")
                };
                let a = v.numeric().ok_or_else(|| invalid(&format!("<{}>", v.class_name())))?;
                let mut positions = buffers::take(a.data.len());
                // The cast saturates, so the round trip checks integrality without a libm call; one
                // flag for the whole list keeps the loop branch-free.
                let mut all_valid = true;
                positions.extend(a.data.iter().map(|&x| {
                    let i = x as i64;
                    all_valid &= x >= 1.0 && i as f64 == x;
                    (i as usize).wrapping_sub(1)
                }));
                if !all_valid {
                    buffers::give(positions);
                    let bad = a.data.iter().find(|&&x| !(x >= 1.0 && (x as i64) as f64 == x)).expect("an invalid subscript");
                    return Err(invalid(&format_index(*bad)));
                }
                Ok(Subscript::List { positions, dims: a.dims.iter().copied().collect(), is_logical: false })
            }
        }
    }

    fn count(&self, extent: usize) -> usize {
        match self {
            Subscript::All => extent,
            Subscript::List { positions, .. } => positions.len(),
            Subscript::Range(s) => s.count,
        }
    }

    fn position(&self, k: usize) -> usize {
        match self {
            Subscript::All => k,
            Subscript::List { positions, .. } => positions[k],
            Subscript::Range(s) => s.at(k),
        }
    }

    fn max_position(&self) -> Option<usize> {
        match self {
            Subscript::All => None,
            Subscript::List { positions, .. } => positions.iter().max().copied(),
            Subscript::Range(s) => s.max(),
        }
    }
}

impl Drop for Subscript {
    /// Index lists of large ranges go back to the buffer pool.
    fn drop(&mut self) {
        if let Subscript::List { positions, .. } = self {
            buffers::give(std::mem::take(positions));
        }
    }
}

/// A bad subscript as Octave's message shows it (`1.5`, `-1`, `nan`, `-inf`).
fn format_index(x: f64) -> String {
    if x.is_finite() { format!("{x}") } else { format!("{x}").to_lowercase() }
}

/// Dims of `dims` seen through `count` subscripts: the last one spans all remaining dims.
pub(crate) fn folded_dims(dims: &[usize], count: usize) -> Vec<usize> {
    let mut out: Vec<usize> = (0..count).map(|i| dims.get(i).copied().unwrap_or(1)).collect();
    if count < dims.len() {
        out[count - 1] = dims[count - 1..].iter().product();
    }
    out
}

/// The value of `end` in subscript `position` of `count` subscripts into an array of `dims`.
pub fn end_value(dims: &[usize], position: usize, count: usize) -> usize {
    if count == 1 { dims.iter().product() } else { folded_dims(dims, count)[position] }
}

/// The result dims and the source linear index of every element of `a(subs...)`.
pub fn gather_plan(dims: &[usize], subs: &[Subscript]) -> Result<(Vec<usize>, Vec<usize>)> {
    let numel: usize = dims.iter().product();
    if subs.len() == 1 {
        let mut positions = buffers::take(subs[0].count(numel));
        match &subs[0] {
            Subscript::All => positions.extend(0..numel),
            Subscript::List { positions: listed, .. } => positions.extend_from_slice(listed),
            Subscript::Range(s) => positions.extend(s.positions()),
        }
        if let Some(&bad) = positions.iter().find(|&&p| p >= numel) {
            return Err(out_of_bound(bad + 1, 0, 1, numel, dims));
        }
        let out_dims = match &subs[0] {
            Subscript::All => buffers::dims(&[numel, 1]),
            Subscript::List { dims: idims, is_logical, .. } => linear_index_dims(dims, idims, *is_logical, positions.len()),
            Subscript::Range(s) => linear_index_dims(dims, &[1, s.count], false, s.count),
        };
        // Every shape above is normalised already (subscripts keep their values' dims).
        return Ok((out_dims, positions));
    }
    let view = folded_dims(dims, subs.len());
    for (i, s) in subs.iter().enumerate() {
        if let Some(p) = s.max_position()
            && p >= view[i]
        {
            return Err(out_of_bound(p + 1, i, subs.len(), view[i], dims));
        }
    }
    let counts: Vec<usize> = subs.iter().zip(&view).map(|(s, &e)| s.count(e)).collect();
    Ok((normalize_dims(counts.clone()), linear_positions(&view, subs, &counts)))
}

/// The dims of `a(i)` for a source of `dims` and an index of `idims` selecting `n` elements.
fn linear_index_dims(dims: &[usize], idims: &[usize], is_logical: bool, n: usize) -> Vec<usize> {
    // A scalar source takes the index's shape (`c(ones(2, 1))` is 2x1), as in Octave.
    let source_is_vector = dims.len() == 2 && (dims[0] == 1 || dims[1] == 1) && dims[..] != [1, 1];
    let index_is_vector = idims.len() == 2 && (idims[0] == 1 || idims[1] == 1);
    // A scalar `false` selects nothing and gives [], whatever the source.
    if is_logical && n == 0 && idims[..] == [1, 1] {
        buffers::dims(&[0, 0])
    } else if source_is_vector && (index_is_vector || is_logical) {
        buffers::dims(&if dims[0] == 1 { [1, n] } else { [n, 1] })
    } else if is_logical {
        buffers::dims(&if idims[0] == 1 && idims.len() == 2 { [1, n] } else { [n, 1] })
    } else {
        buffers::dims(idims)
    }
}

/// The positions of `a(a:s:b)`, `a(:)`, or the same assigned to, on a double array, when that is the
/// only subscript and it selects elements within the array (anything else, errors included, takes
/// the general path).
fn stride_within(value: &Value, subs: &[Subscript]) -> Option<Stride> {
    let Value::Double(a) = value else { return None };
    let stride = match subs {
        [Subscript::Range(s)] => *s,
        [Subscript::All] => Stride { first: 0, step: 1, count: a.data.len() },
        _ => return None,
    };
    stride.max().is_some_and(|m| m < a.data.len()).then_some(stride)
}

/// The dims of a selection through `stride_within` from an array of `dims`.
fn stride_dims(dims: &[usize], subs: &[Subscript], count: usize) -> Vec<usize> {
    match subs {
        [Subscript::All] => buffers::dims(&[count, 1]),
        _ => linear_index_dims(dims, &[1, count], false, count),
    }
}

/// `index (_,_,3)`: subscript `position` of `count` shown, the others as `_`, as in Octave's index
/// errors (which name the variable instead of `index ` when there is one).
fn subscript_text(shown: &str, position: usize, count: usize) -> String {
    let parts: Vec<&str> = (0..count).map(|k| if k == position { shown } else { "_" }).collect();
    format!("index ({})", parts.join(","))
}

/// Subscript `position` of `count` is `index`, beyond its `extent` in an array of `dims`.
fn out_of_bound(index: usize, position: usize, count: usize, extent: usize, dims: &[usize]) -> Diagnostic {
    runtime(format!(
        "{}: out of bound {extent} (dimensions are {})",
        subscript_text(&index.to_string(), position, count),
        dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x")
    ))
    .with_identifier("Octave:index-out-of-bounds")
}

/// Column-major enumeration of the cartesian product of the subscripts, as linear indices into `view`.
fn linear_positions(view: &[usize], subs: &[Subscript], counts: &[usize]) -> Vec<usize> {
    let total: usize = counts.iter().product();
    let mut out = Vec::with_capacity(total);
    let mut k = vec![0usize; subs.len()];
    for _ in 0..total {
        let mut idx = 0;
        let mut stride = 1;
        for (d, s) in subs.iter().enumerate() {
            idx += s.position(k[d]) * stride;
            stride *= view[d];
        }
        out.push(idx);
        for (d, kd) in k.iter_mut().enumerate() {
            *kd += 1;
            if *kd < counts[d] {
                break;
            }
            *kd = 0;
        }
    }
    out
}

/// `a(subs...)` on the value and its derivative.
pub fn index(value: &Value, deriv: &Deriv, subs: &[Subscript]) -> Result<(Value, Deriv)> {
    if matches!(value, Value::Complex(_)) && !deriv.is_zero() {
        return complex::index(value, deriv, |part, d| index(part, d, subs));
    }
    if let Value::Sparse(s) = value {
        let (dims, positions) = gather_plan(&value.shape(), subs)?;
        if dims.len() == 2 {
            let (picked, entries) = pick_sparse(s, &dims, &positions);
            let rows = picked.nnz();
            return Ok((Value::Sparse(picked), deriv.gather(&RowMap::Gather(entries), rows)));
        }
    }
    if let Some((full, elements)) = sparse_in_element_form(value, deriv)? {
        return index(&full, &elements, subs);
    }
    if let Some(stride) = stride_within(value, subs)
        && let Some(deriv) = deriv.gather_stride(stride)
    {
        return Ok((stride_values(value, subs, stride), deriv));
    }
    let (dims, positions) = gather_plan(&value.shape(), subs)?;
    if let Value::Struct(s) = value {
        return Ok(gather_struct(s, deriv, dims, &positions));
    }
    let out = gather_value(value, dims, &positions)?;
    let rows = positions.len();
    let map = RowMap::Gather(positions);
    let deriv = deriv.gather(&map, rows);
    if let RowMap::Gather(positions) = map {
        buffers::give(positions);
    }
    Ok((out, deriv))
}

/// `s(positions)` shaped `dims` (2-D): sparse, as Octave's, keeping every stored entry it picks (one
/// whose value is zero at this x still has a derivative); and for each of its entries, the entry of
/// `s` it came from (its derivative row).
pub(crate) fn pick_sparse(s: &SparseMatrix, dims: &[usize], positions: &[usize]) -> (SparseMatrix, Vec<usize>) {
    let (nrows, ncols) = (dims[0], dims[1]);
    let (mut colptr, mut rowind, mut values) = (vec![0; ncols + 1], vec![], vec![]);
    let mut entries = Vec::new();
    for (r, &k) in positions.iter().enumerate() {
        if let Some(e) = s.entry_at(k) {
            rowind.push(r % nrows.max(1));
            values.push(s.values()[e]);
            colptr[r / nrows.max(1) + 1] += 1;
            entries.push(e);
        }
    }
    for j in 0..ncols {
        colptr[j + 1] += colptr[j];
    }
    (SparseMatrix::new(nrows, ncols, colptr, rowind, values), entries)
}

/// A sparse matrix that depends on x as a full one with one derivative row per element (its block
/// has one per stored entry): indexing and assignment read and write elements. None for other values.
fn sparse_in_element_form(value: &Value, deriv: &Deriv) -> Result<Option<(Value, Deriv)>> {
    match value {
        Value::Sparse(s) if !deriv.is_zero() => {
            crate::value::memory::check_dims(&[s.nrows(), s.ncols()], size_of::<f64>())?;
            Ok(Some((Value::Double(s.to_dense()), crate::primitives::element_rows(s, deriv)?)))
        }
        _ => Ok(None),
    }
}

/// `index` of the seeded argument (a double array), its derivative the seed kept as its colouring.
pub fn index_seed(value: &Value, seed: &SeedColours, subs: &[Subscript]) -> Result<(Value, Deriv)> {
    if let Some(stride) = stride_within(value, subs) {
        return Ok((stride_values(value, subs, stride), seed.gather(stride.positions(), stride.count)));
    }
    let (dims, positions) = gather_plan(&value.shape(), subs)?;
    let out = gather_value(value, dims, &positions)?;
    let deriv = seed.gather(positions.iter().copied(), positions.len());
    buffers::give(positions);
    Ok((out, deriv))
}

/// The elements `stride` (from `stride_within`) of a double array, as `a(subs...)` shapes them.
fn stride_values(value: &Value, subs: &[Subscript], stride: Stride) -> Value {
    let Value::Double(a) = value else { unreachable!("stride_within accepts double arrays only") };
    let mut data = buffers::take(stride.count);
    extend_stride(&mut data, &a.data, stride);
    Value::Double(Array::new(stride_dims(&a.dims, subs, stride.count), data))
}

/// `index` of a value read for the last time. Consecutive elements of a double array (`x(:)`,
/// `x(a:b)`) keep its buffers: the selected rows move down in place (not at all for `x(:)`), with no
/// fresh value or derivative block.
pub fn index_owned(value: Value, deriv: Deriv, subs: &[Subscript]) -> Result<(Value, Deriv)> {
    if matches!(value, Value::Sparse(_)) {
        return index(&value, &deriv, subs);
    }
    let (dims, first, count) = match stride_within(&value, subs) {
        Some(s) => {
            let dims = stride_dims(&value.shape(), subs, s.count);
            (dims, (s.count > 0 && (s.step == 1 || s.count == 1)).then_some(s.first), s.count)
        }
        None => {
            let (dims, positions) = gather_plan(&value.shape(), subs)?;
            let (first, count) = (contiguous_start(&positions), positions.len());
            buffers::give(positions);
            (dims, first, count)
        }
    };
    match (value, deriv, first) {
        (Value::Double(mut a), deriv @ (Deriv::Zero | Deriv::Dense(_)), Some(first)) => {
            let rows = a.data.len();
            a.data.copy_within(first..first + count, 0);
            a.data.truncate(count);
            let deriv = match deriv {
                Deriv::Dense(mut d) => {
                    for j in 0..d.nd {
                        d.data.copy_within(j * rows + first..j * rows + first + count, j * count);
                    }
                    d.data.truncate(count * d.nd);
                    d.rows = count;
                    Deriv::Dense(d)
                }
                other => other,
            };
            Ok((Value::Double(Array::new(dims, a.data)), deriv))
        }
        (value, deriv, _) => {
            let result = index(&value, &deriv, subs);
            value.recycle();
            deriv.recycle();
            result
        }
    }
}

/// Elements of a struct array, with their parts of the derivative (element by element, see
/// `containers::field`).
pub(crate) fn gather_struct(s: &StructArray, deriv: &Deriv, dims: Vec<usize>, positions: &[usize]) -> (Value, Deriv) {
    let elements = positions.iter().map(|&i| s.elements[i].clone()).collect();
    let width = s.fields.len();
    let parts = positions.iter().flat_map(|&i| (0..width).map(move |k| deriv.part(i * width + k))).collect();
    (Value::Struct(StructArray { dims, fields: s.fields.clone(), elements }), Deriv::from_parts(parts))
}

pub(crate) fn gather_value(value: &Value, dims: Vec<usize>, positions: &[usize]) -> Result<Value> {
    fn pick<T: Clone>(a: &Array<T>, dims: Vec<usize>, p: &[usize]) -> Array<T> {
        Array::new(dims, p.iter().map(|&i| a.data[i].clone()).collect())
    }
    Ok(match value {
        Value::Double(a) => {
            let mut data = buffers::take(positions.len());
            match contiguous_start(positions) {
                Some(first) => data.extend_from_slice(&a.data[first..first + positions.len()]),
                None => data.extend(positions.iter().map(|&i| a.data[i])),
            }
            Value::Double(Array::new(dims, data))
        }
        Value::Logical(a) => Value::Logical(pick(a, dims, positions)),
        Value::Char(a) => Value::Char(pick(a, dims, positions)),
        Value::Cell(a) => Value::Cell(pick(a, dims, positions)),
        Value::Int(c, a) => Value::Int(*c, pick(a, dims, positions)),
        Value::Complex(a) => Value::narrowed(pick(a, dims, positions)),
        // Each element looked up in its column: indexing never makes the whole matrix dense.
        Value::Sparse(s) => Value::Double(Array::new(dims, positions.iter().map(|&k| s.at(k)).collect())),
        // Sparse, as Octave's.
        Value::ComplexSparse(s) => ComplexSparse::from_dense(&Array::new(dims, positions.iter().map(|&k| s.at(k)).collect())).narrowed(),
        Value::Struct(_) | Value::Handle(_) => {
            return Err(Diagnostic::new(ErrorKind::Unsupported, format!("indexing a {}", value.class_name())));
        }
    })
}

/// The integer class of `base(subs) = rhs`, as Octave decides it: an integer base keeps its class
/// (the rhs converts, saturating, whatever its class), and so does a double one (an integer rhs
/// becomes double); a new variable takes the rhs's class. Other bases with integer values are
/// unsupported.
fn integer_assignment(base: Option<&Value>, rhs: &Value) -> Result<Option<IntClass>> {
    match (base, rhs) {
        (Some(Value::Int(c, _)), _) | (None, Value::Int(c, _)) => Ok(Some(*c)),
        (_, rhs) if !matches!(rhs, Value::Int(..)) => Ok(None),
        (None, _) | (Some(Value::Double(_)), _) => Ok(None),
        (Some(other), _) => Err(Diagnostic::new(
            ErrorKind::Unsupported,
            format!("assigning {} values into a {} array", rhs.class_name(), other.class_name()),
        )),
    }
}

/// `a(subs...) = rhs`: returns the new value and derivative, reusing the base's buffers when the size
/// does not change. `base = None` is an undefined variable (MATLAB creates it). Out-of-range subscripts
/// grow the array with zeros.
pub fn assign(base: Option<(Value, Deriv)>, rhs: &Value, rhs_deriv: &Deriv, subs: &[Subscript]) -> Result<(Value, Deriv)> {
    let class = integer_assignment(base.as_ref().map(|(v, _)| v), rhs)?;
    if class.is_none() && matches!(rhs, Value::Int(..)) {
        return assign(base, &as_double(rhs), rhs_deriv, subs);
    }
    if let Some(class) = class {
        let base = base.map(|(v, d)| (as_double(&v), d));
        let (value, deriv) = assign(base, &as_double(rhs), rhs_deriv, subs)?;
        if !deriv.is_zero() {
            return Err(not_differentiable("subsasgn", class.name()));
        }
        let Value::Double(a) = value else { unreachable!("assignment of doubles into doubles") };
        return Ok((Value::Int(class, a.map(|&x| class.convert(x))), Deriv::Zero));
    }
    if complex::assignment_involved(base.as_ref(), rhs, rhs_deriv) {
        return complex::assign(base, rhs, rhs_deriv, &|base, rhs, rhs_deriv| assign(base, rhs, rhs_deriv, subs));
    }
    let (base, base_deriv) = base.unwrap_or((Value::Double(Array::new(vec![0, 0], vec![])), Deriv::Zero));
    if let Some((full, elements)) = sparse_in_element_form(&base, &base_deriv)? {
        return assign(Some((full, elements)), rhs, rhs_deriv, subs);
    }
    if let Some((full, elements)) = sparse_in_element_form(rhs, rhs_deriv)? {
        return assign(Some((base, base_deriv)), &full, &elements, subs);
    }
    if is_null(rhs) {
        return delete(&base, &base_deriv, subs);
    }
    if let (Some(targets), Value::Double(r)) = (stride_within(&base, subs), rhs) {
        return assign_stride(base, base_deriv, r, rhs_deriv, targets);
    }
    let old_dims = base.shape();
    let (new_dims, targets) = assign_plan(&old_dims, subs, &rhs.dims())?;
    let rhs_n = rhs.numel();
    check_conformant(targets.len(), rhs_n)?;
    let rhs_source = |k: usize| if rhs_n == 1 { 0 } else { k };
    let value = assign_value(base, &old_dims, &new_dims, rhs, &targets, rhs_source)?;
    let numel: usize = new_dims.iter().product();
    let base_deriv = if old_dims[..] == new_dims[..] { base_deriv } else { base_deriv.relocate(&resize_map(&old_dims, &new_dims), numel) };
    let deriv = base_deriv.assign_rows(numel, &targets, rhs_deriv, rhs_source);
    buffers::give(targets);
    Ok((value, deriv))
}

/// `assign` of doubles through a range within the base: no index list, the base's buffers kept.
fn assign_stride(base: Value, base_deriv: Deriv, rhs: &Array<f64>, rhs_deriv: &Deriv, targets: Stride) -> Result<(Value, Deriv)> {
    let Value::Double(mut a) = base else { unreachable!("stride_within accepts double arrays only") };
    check_conformant(targets.count, rhs.data.len())?;
    let scalar = rhs.data.len() == 1;
    let rhs_source = |k: usize| if scalar { 0 } else { k };
    targets.positions().enumerate().for_each(|(k, t)| a.data[t] = rhs.data[rhs_source(k)]);
    let rows = a.data.len();
    Ok((Value::Double(a), base_deriv.assign_stride(rows, targets, rhs_deriv, rhs_source)))
}

/// `a(i) = rhs` needs one rhs element per target, or a scalar rhs.
fn check_conformant(targets: usize, rhs_n: usize) -> Result<()> {
    if rhs_n != 1 && rhs_n != targets {
        return Err(runtime(format!("=: nonconformant arguments (op1 is {targets} elements, op2 is {rhs_n} elements)"))
            .with_identifier("Octave:nonconformant-args"));
    }
    Ok(())
}

/// The dims after `a(subs...) = rhs` on an array of `old_dims`, and the linear index of every assigned element.
pub fn assign_plan(old_dims: &[usize], subs: &[Subscript], rhs_dims: &[usize]) -> Result<(Vec<usize>, Vec<usize>)> {
    let inquired = (subs.len() > 1 && old_dims.iter().all(|&d| d == 0) && subs.iter().any(|s| matches!(s, Subscript::All)))
        .then(|| colons_from_rhs(subs, rhs_dims));
    let subs = inquired.as_deref().unwrap_or(subs);
    let new_dims = grown_dims(old_dims, subs)?;
    let (_, targets) = gather_plan(&new_dims, subs)?;
    Ok((new_dims, targets))
}

/// Assigning into an array with no elements along any dim (undefined, `[]`), colons take their extents
/// from rhs's dims, by Octave's rules (`zero_dims_inquire`): `Y(:, 1) = 5` is 1x1, `Y(2, :) = [1 2 3]`
/// 2x3, `Y(:, :, 2) = M` size(M) x 2. The subscripts with each colon replaced by its range.
fn colons_from_rhs(subs: &[Subscript], rhs_dims: &[usize]) -> Vec<Subscript> {
    let colon: Vec<bool> = subs.iter().map(|s| matches!(s, Subscript::All)).collect();
    let scalar: Vec<bool> = subs.iter().zip(&colon).map(|(s, &c)| !c && s.count(0) == 1).collect();
    let two = subs.len() == 2;
    // Exact: the subscripts that are not scalars stand for rhs's dims one by one, singletons included.
    let exact = if two {
        rhs_dims.len() == 2 && ((colon[0] && colon[1]) || !(scalar[0] || scalar[1]))
    } else {
        colon.iter().all(|&c| c) || scalar.iter().filter(|&&s| !s).count() == rhs_dims.len()
    };
    // Otherwise the colons take rhs's other dims in turn (in two dims a vector subscript uses one up).
    let mut chopped: Vec<usize> = rhs_dims.iter().copied().filter(|&d| d != 1).collect();
    chopped.resize(chopped.len().max(2), 1);
    let source = if exact { rhs_dims } else { &chopped[..] };
    let mut next = 0;
    subs.iter()
        .enumerate()
        .map(|(k, s)| {
            let takes = colon[k] || (!scalar[k] && (exact || two));
            let extent = source.get(next).copied().unwrap_or(1);
            next += takes as usize;
            if colon[k] { Subscript::range(0, 1, extent) } else { s.clone() }
        })
        .collect()
}

/// Dims after assigning through `subs`: MATLAB grows the array to hold the largest subscript.
fn grown_dims(dims: &[usize], subs: &[Subscript]) -> Result<Vec<usize>> {
    let numel: usize = dims.iter().product();
    if subs.len() == 1 {
        let Some(max) = subs[0].max_position() else { return Ok(dims.to_vec()) };
        if max < numel {
            return Ok(dims.to_vec());
        }
        // 0x0 and row vectors (scalars included) grow along columns, column vectors along rows.
        return match dims {
            [0, 0] => Ok(vec![1, max + 1]),
            [1, _] => Ok(vec![1, max + 1]),
            [_, 1] => Ok(vec![max + 1, 1]),
            _ => Err(runtime(format!("A(I) = X: index {} out of bound {}; a matrix cannot be resized by linear indexing", max + 1, numel))),
        };
    }
    let view = folded_dims(dims, subs.len());
    if subs.len() < dims.len() && subs.iter().zip(&view).any(|(s, &e)| s.max_position().is_some_and(|p| p >= e)) {
        return Err(runtime("A(I,J,...) = X: cannot grow an array indexed with fewer subscripts than dims"));
    }
    let grown: Vec<usize> = subs.iter().zip(&view).map(|(s, &e)| s.max_position().map_or(e, |p| e.max(p + 1))).collect();
    let mut out = grown;
    if subs.len() < dims.len() {
        out = dims.to_vec();
    }
    Ok(normalize_dims(out))
}

/// Linear index in `new_dims` of every element of an array of `old_dims` (zero fill elsewhere).
pub fn resize_map(old_dims: &[usize], new_dims: &[usize]) -> Vec<usize> {
    let old_n: usize = old_dims.iter().product();
    if old_dims == new_dims {
        return (0..old_n).collect();
    }
    (0..old_n)
        .map(|mut k| {
            let mut idx = 0;
            let mut stride = 1;
            for (d, &od) in old_dims.iter().enumerate() {
                idx += (k % od) * stride;
                k /= od;
                stride *= new_dims.get(d).copied().unwrap_or(1);
            }
            idx
        })
        .collect()
}

fn assign_value(
    base: Value,
    old_dims: &[usize],
    new_dims: &[usize],
    rhs: &Value,
    targets: &[usize],
    rhs_source: impl Fn(usize) -> usize,
) -> Result<Value> {
    fn place<T: Clone>(old: Vec<T>, zero: T, old_dims: &[usize], new_dims: &[usize]) -> Vec<T> {
        if old_dims == new_dims {
            return old;
        }
        let mut out = Array::filled(new_dims.to_vec(), zero).data;
        for (k, t) in resize_map(old_dims, new_dims).into_iter().enumerate() {
            out[t] = old[k].clone();
        }
        out
    }
    match (base, rhs) {
        (Value::Logical(b), Value::Logical(r)) => {
            let mut data = place(b.data, false, old_dims, new_dims);
            targets.iter().enumerate().for_each(|(k, &t)| data[t] = r.data[rhs_source(k)]);
            Ok(Value::Logical(Array::new(new_dims.to_vec(), data)))
        }
        (Value::Char(b), Value::Char(r)) => {
            let mut data = place(b.data, 0, old_dims, new_dims);
            targets.iter().enumerate().for_each(|(k, &t)| data[t] = r.data[rhs_source(k)]);
            Ok(Value::Char(Array::new(new_dims.to_vec(), data)))
        }
        (base, rhs) if matches!(base, Value::Complex(_)) || matches!(rhs, Value::Complex(_)) => {
            let r = rhs.complex_parts().ok_or_else(|| unsupported_assign(rhs))?;
            let b = base.complex_parts().ok_or_else(|| unsupported_assign(&base))?.into_owned();
            let mut data = place(b.data, Complex64::new(0.0, 0.0), old_dims, new_dims);
            targets.iter().enumerate().for_each(|(k, &t)| data[t] = r.data[rhs_source(k)]);
            Ok(Value::narrowed(Array::new(new_dims.to_vec(), data)))
        }
        (base, rhs) => {
            let r = rhs.numeric().ok_or_else(|| unsupported_assign(rhs))?;
            let b = match base {
                Value::Double(b) => b,
                other => other.numeric().ok_or_else(|| unsupported_assign(&other))?.into_owned(),
            };
            let mut data = place(b.data, 0.0, old_dims, new_dims);
            targets.iter().enumerate().for_each(|(k, &t)| data[t] = r.data[rhs_source(k)]);
            Ok(Value::Double(Array::new(new_dims.to_vec(), data)))
        }
    }
}

fn unsupported_assign(v: &Value) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("indexed assignment with a {} value", v.class_name()))
}

/// Whether `a(i) = rhs` deletes: Octave deletes for a literal `[]` or `''`; the runtime cannot tell
/// a literal from any other 0x0 double or char, so both delete (a documented deviation).
pub fn is_null(rhs: &Value) -> bool {
    matches!(rhs, Value::Double(_) | Value::Char(_)) && rhs.has_dims(&[0, 0])
}

/// `a(subs...) = []`: the remaining elements, and their derivative rows.
pub fn delete(base: &Value, deriv: &Deriv, subs: &[Subscript]) -> Result<(Value, Deriv)> {
    let (dims, kept) = deletion_plan(&base.shape(), subs)?;
    if let Value::Struct(s) = base {
        return Ok(gather_struct(s, deriv, dims, &kept));
    }
    let value = gather_value(base, dims, &kept)?;
    let deriv = deriv.gather(&RowMap::Gather(kept.clone()), kept.len());
    Ok((value, deriv))
}

/// The dims after deleting, and the linear indices of the elements kept. With one subscript a vector
/// keeps its orientation and anything else becomes a row; with several, at most one may be other
/// than `:`, and it deletes along its dimension of the unfolded array.
fn deletion_plan(dims: &[usize], subs: &[Subscript]) -> Result<(Vec<usize>, Vec<usize>)> {
    let numel: usize = dims.iter().product();
    let doomed = |s: &Subscript, extent: usize, what: &str| -> Result<Vec<bool>> {
        let mut gone = vec![false; extent];
        for k in 0..s.count(extent) {
            let p = s.position(k);
            if p >= extent {
                return Err(runtime(format!("{what}: index out of bounds: value {} out of bound {extent}", p + 1))
                    .with_identifier("Octave:index-out-of-bounds"));
            }
            gone[p] = true;
        }
        Ok(gone)
    };
    if let [s] = subs {
        if matches!(s, Subscript::All) {
            return Ok((vec![0, 0], vec![]));
        }
        let gone = doomed(s, numel, "A(I) = []")?;
        let kept: Vec<usize> = (0..numel).filter(|&k| !gone[k]).collect();
        let out = match dims {
            _ if kept.len() == numel => dims.to_vec(),
            [_, 1] if dims.len() == 2 => vec![kept.len(), 1],
            _ => vec![1, kept.len()],
        };
        return Ok((out, kept));
    }
    let mut partial = subs.iter().enumerate().filter(|(_, s)| !matches!(s, Subscript::All));
    let (axis, sub) = match (partial.next(), partial.next()) {
        (None, _) => (0, None),
        (Some((k, s)), None) => (k, Some(s)),
        _ => return Err(runtime("a null assignment can only have one non-colon index")),
    };
    let mut out = padded_dims(dims, subs.len());
    let gone = match sub {
        Some(s) => doomed(s, out[axis], "A(..,I,..) = []")?,
        None => vec![true; out[axis]],
    };
    let stride: usize = out[..axis].iter().product();
    let kept = (0..numel).filter(|&k| !gone[(k / stride) % out[axis]]).collect();
    out[axis] = gone.iter().filter(|g| !**g).count();
    Ok((normalize_dims(out), kept))
}

fn padded_dims(dims: &[usize], n: usize) -> Vec<usize> {
    let mut d = dims.to_vec();
    d.resize(n.max(dims.len()), 1);
    d
}
