//! Sparse matrices that depend on x. The derivative block of a sparse value has one row per stored
//! entry (in CSC order), never one per element of the full matrix: `sparse(i, j, v, m, n)`,
//! `spdiags`, `A.'`, `A + B`, scalings, `A * X`, `A * B`, `kron`, `A \ B`, `B / A`, `det` and `full` have
//! rules on that block.
//! Sparse kernels keep every entry their operands' structure makes (an entry whose value is zero at
//! this x still has a derivative); values leave msad without explicit zeros (see `mex::convert`).
//!
//! Other primitives meet an active sparse operand in element form: its block scattered to one row per
//! element and its value made full, their own rule run, and a sparse result's block gathered back at
//! its stored entries. That gather fails (never silently drops a derivative) when an element the
//! result does not store has one.

use super::{Forward, Prim, sparse_lu};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{Coef, Deriv, RowMap, RowOperator, combine_terms};
use crate::value::memory;
use crate::value::{SparseMatrix, Value};

/// The derivative of `id` where a sparse operand depends on x or the result is sparse; None otherwise.
pub(super) fn forward(id: Prim, fw: &Forward) -> Option<Result<Deriv>> {
    let active_sparse = fw.inputs.iter().zip(fw.derivs).any(|(v, d)| matches!(v, Value::Sparse(_)) && !d.is_zero());
    if !active_sparse && !matches!(fw.output, Value::Sparse(_)) {
        return None;
    }
    Some(own_rule(id, fw).unwrap_or_else(|| through_elements(id, fw)))
}

fn scalar(v: &Value) -> Option<f64> {
    match v {
        Value::Double(a) if a.is_scalar() => Some(a.data[0]),
        _ => None,
    }
}

/// The rules written on stored-entry blocks.
fn own_rule(id: Prim, fw: &Forward) -> Option<Result<Deriv>> {
    if let Some(rule) = super::sparse_factor::forward(id, fw, 0) {
        return Some(rule);
    }
    let (d, out) = (fw.derivs, fw.output);
    Some(match (id, fw.inputs, out) {
        (Prim::Sparse, [Value::Sparse(_)], _) | (Prim::Uplus, [Value::Sparse(_)], _) => Ok(d[0].clone()),
        (Prim::Sparse, [_], Value::Sparse(s)) => entry_rows(s, d[0]),
        (Prim::Sparse, [i, j, v, rest @ ..], Value::Sparse(s)) => triplets_rule(s, i, j, v, d[2], rest),
        (Prim::Spdiags, [b, dv, ..], Value::Sparse(s)) => spdiags_rule(s, b, dv, d[0]),
        (Prim::Full, [Value::Sparse(s)], _) => element_rows(s, d[0]),
        (Prim::Transpose | Prim::Ctranspose, [Value::Sparse(a)], _) => Ok(d[0].gather(&RowMap::Gather(transposed_entries(a)), a.nnz())),
        (Prim::Uminus, [Value::Sparse(a)], _) => Ok(scaled(a.nnz(), d[0], -1.0)),
        (Prim::Plus | Prim::Minus, [Value::Sparse(a), Value::Sparse(b)], Value::Sparse(c)) => {
            let sign = if id == Prim::Plus { 1.0 } else { -1.0 };
            Ok(sum_rule(c, &[(a, d[0], 1.0), (b, d[1], sign)]))
        }
        (Prim::Times | Prim::Mtimes, [Value::Sparse(a), c], Value::Sparse(_)) if scalar(c).is_some() => {
            Ok(scaling_rule(a, d[0], c, d[1], false))
        }
        (Prim::Times | Prim::Mtimes, [c, Value::Sparse(a)], Value::Sparse(_)) if scalar(c).is_some() => {
            Ok(scaling_rule(a, d[1], c, d[0], false))
        }
        (Prim::Rdivide | Prim::Mrdivide, [Value::Sparse(a), c], Value::Sparse(_)) if scalar(c).is_some() => {
            Ok(scaling_rule(a, d[0], c, d[1], true))
        }
        (Prim::Mtimes, [Value::Sparse(a), b], Value::Double(_)) if !matches!(b, Value::Sparse(_)) => times_rule(a, d[0], b, d[1]),
        (Prim::Mtimes, [Value::Sparse(a), Value::Sparse(b)], Value::Sparse(c)) => Ok(product_rule(a, d[0], b, d[1], c)),
        (Prim::Kron, [_, _], Value::Sparse(c)) => kron_rule(fw.inputs, d, c),
        (Prim::Horzcat | Prim::Vertcat, inputs, Value::Sparse(c)) => concat_rule(c, inputs, d, id == Prim::Vertcat),
        (Prim::Sum, [Value::Sparse(a)], Value::Sparse(_)) => Ok(sum_along(a, d[0], if a.nrows() == 1 { 2 } else { 1 })),
        (Prim::Sum, [Value::Sparse(a), dim], Value::Sparse(_)) if matches!(scalar(dim), Some(1.0 | 2.0)) => {
            Ok(sum_along(a, d[0], scalar(dim).expect("a scalar dim") as usize))
        }
        (Prim::Mldivide, [Value::Sparse(a), b], _) if !matches!(b, Value::Sparse(_)) && scalar(fw.inputs[0]).is_none() => {
            sparse_lu::forward_mldivide(a, d[0], d[1], out)
        }
        (Prim::Mrdivide, [b, Value::Sparse(a)], _) if !matches!(b, Value::Sparse(_)) && scalar(fw.inputs[1]).is_none() => {
            sparse_lu::forward_mrdivide(d[0], &b.dims(), a, d[1], out)
        }
        _ => return super::sparse::OnEntries::of(id, fw.inputs).map(|on| on_entries_rule(id, &on, fw)),
    })
}

/// The rule of a step computed on stored entries (see `sparse::OnEntries`): the full rule on the
/// operands' columns and blocks read at the result's entries.
fn on_entries_rule(id: Prim, on: &super::sparse::OnEntries, fw: &Forward) -> Result<Deriv> {
    let columns = on.columns(fw.inputs)?;
    let blocks = on.blocks(fw.derivs);
    let output = match fw.output {
        Value::Sparse(s) => Value::Double(crate::value::Array::column(s.values().to_vec())),
        other => other.clone(),
    };
    let inputs: Vec<&Value> = columns.iter().collect();
    let derivs: Vec<&Deriv> = blocks.iter().collect();
    super::forward_rule(id, &Forward { inputs: &inputs, derivs: &derivs, output: &output })
}

/// The rule of `id` on full operands: active sparse operands (and the result) in element form.
fn through_elements(id: Prim, fw: &Forward) -> Result<Deriv> {
    let mut inputs = Vec::with_capacity(fw.inputs.len());
    let mut derivs = Vec::with_capacity(fw.inputs.len());
    for (v, d) in fw.inputs.iter().zip(fw.derivs) {
        match v {
            Value::Sparse(s) if !d.is_zero() => {
                inputs.push(full(s)?);
                derivs.push(element_rows(s, d)?);
            }
            _ => {
                inputs.push((*v).clone());
                derivs.push((*d).clone());
            }
        }
    }
    let output = match fw.output {
        Value::Sparse(s) => full(s)?,
        other => other.clone(),
    };
    let inputs: Vec<&Value> = inputs.iter().collect();
    let derivs: Vec<&Deriv> = derivs.iter().collect();
    let elements = super::forward_rule(id, &Forward { inputs: &inputs, derivs: &derivs, output: &output })?;
    match fw.output {
        Value::Sparse(s) => entry_rows(s, &elements),
        _ => Ok(elements),
    }
}

fn full(s: &SparseMatrix) -> Result<Value> {
    memory::check_dims(&[s.nrows(), s.ncols()], size_of::<f64>())?;
    Ok(Value::Double(s.to_dense()))
}

/// Column-major element positions of the stored entries.
fn positions(s: &SparseMatrix) -> impl Iterator<Item = usize> + '_ {
    entries(s).map(|(i, j)| i + j * s.nrows())
}

/// A stored-entry block in element form: one row per element of the full matrix.
pub fn element_rows(s: &SparseMatrix, d: &Deriv) -> Result<Deriv> {
    let numel = s.nrows().saturating_mul(s.ncols());
    if let Some(nd) = d.nd().filter(|_| matches!(d, Deriv::Dense(_))) {
        memory::check(numel.saturating_mul(nd), size_of::<f64>())?;
    }
    let pairs: Vec<(usize, usize)> = positions(s).enumerate().map(|(e, p)| (p, e)).collect();
    Ok(d.scatter(&pairs, numel))
}

/// An element-form block of a sparse result gathered at its stored entries; an element the result
/// does not store must have no derivative.
fn entry_rows(s: &SparseMatrix, elements: &Deriv) -> Result<Deriv> {
    let stored: Vec<usize> = positions(s).collect();
    let mut is_stored = vec![false; s.nrows().saturating_mul(s.ncols())];
    stored.iter().for_each(|&p| is_stored[p] = true);
    let dropped = match elements {
        Deriv::Dense(d) => (0..d.nd).any(|j| d.column(j).iter().zip(&is_stored).any(|(v, kept)| !kept && *v != 0.0)),
        Deriv::Sparse(b) => (0..b.rows).any(|r| !is_stored[r] && !b.row(r).0.is_empty()),
        Deriv::Zero | Deriv::Parts(_) => false,
    };
    if dropped {
        return Err(Diagnostic::new(
            ErrorKind::NotDifferentiable,
            "a sparse result leaves out an element whose value is zero at this x but depends on x",
        )
        .with_hint("build the matrix with sparse(i, j, v, m, n) or spdiags, which keep every listed entry"));
    }
    Ok(elements.gather(&RowMap::Gather(stored), s.nnz()))
}

fn scaled(rows: usize, d: &Deriv, c: f64) -> Deriv {
    combine_terms(&[(Coef::Same(c), d, &RowMap::Identity)], rows)
}

/// For each `(row, column, value)` triplet the stored entry of the matrix assembled from them (see
/// `sparse::from_triplets`) that it went to.
fn assembled_entries(m: &SparseMatrix, triplets: &[(usize, usize, f64)]) -> Vec<usize> {
    triplets.iter().map(|&(i, j, _)| m.0.nnz_index(i, j).expect("an assembled entry").0).collect()
}

/// The block of a matrix assembled from triplets whose value `k` is element `source[k]` of an operand
/// with block `dv`: each stored entry sums the rows of its triplets.
fn assembled_rule(s: &SparseMatrix, entry_of: &[usize], source: &[usize], dv: &Deriv) -> Deriv {
    let mut terms: Vec<Vec<usize>> = vec![vec![]; s.nnz()];
    entry_of.iter().zip(source).for_each(|(&e, &k)| terms[e].push(k));
    dv.apply(&sums_of(terms))
}

/// The operator whose row r sums the rows `groups[r]`.
fn sums_of(groups: Vec<Vec<usize>>) -> RowOperator {
    let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    for sources in groups {
        op.coef.extend(std::iter::repeat_n(1.0, sources.len()));
        op.src.extend(sources);
        op.ptr.push(op.src.len());
    }
    op
}

fn triplets_rule(s: &SparseMatrix, i: &Value, j: &Value, v: &Value, dv: &Deriv, rest: &[&Value]) -> Result<Deriv> {
    let (triplets, source) = super::sparse::triplet_list(i, j, v)?;
    super::sparse::triplet_dims(&triplets, rest)?;
    Ok(assembled_rule(s, &assembled_entries(s, &triplets), &source, dv))
}

fn spdiags_rule(s: &SparseMatrix, b: &Value, d: &Value, db: &Deriv) -> Result<Deriv> {
    let (triplets, source) = super::sparse::diagonal_triplets(b, d, s.nrows(), s.ncols())?;
    Ok(assembled_rule(s, &assembled_entries(s, &triplets), &source, db))
}

/// For each stored entry of `A.'`, the index of that entry in A: sprs's transpose of A's pattern
/// holding the entry numbers.
pub(super) fn transposed_entries(a: &SparseMatrix) -> Vec<usize> {
    let numbered = sprs::CsMat::new_csc(a.0.shape(), a.colptr().to_vec(), a.rowind().to_vec(), (0..a.nnz()).collect::<Vec<usize>>());
    numbered.transpose_view().to_other_storage().into_raw_storage().2
}

/// The stored entries of A (each `(row, column)`) in CSC order.
pub(super) fn entries(a: &SparseMatrix) -> impl Iterator<Item = (usize, usize)> + '_ {
    a.0.iter().map(|(_, at)| at)
}

/// `A + sign B` (and sums of more terms): each stored entry of C sums the entries of the operands
/// at its position.
fn sum_rule(c: &SparseMatrix, terms: &[(&SparseMatrix, &Deriv, f64)]) -> Deriv {
    let parts: Vec<Deriv> = terms
        .iter()
        .map(|(a, d, sign)| {
            let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
            let mut own = entries(a).enumerate().peekable();
            for (i, j) in entries(c) {
                if let Some(&(e, _)) = own.peek().filter(|(_, at)| *at == (i, j)) {
                    op.src.push(e);
                    op.coef.push(*sign);
                    own.next();
                }
                op.ptr.push(op.src.len());
            }
            d.apply(&op)
        })
        .collect();
    crate::value::deriv::sum(parts, c.nnz())
}

/// `[A, B]` or `[A; B]` with a sparse result C: each operand's block placed at its entries of C. A
/// full operand's element rows are read at its nonzeros (one of its zeros that depends on x fails,
/// see `entry_rows`); empty operands take no part (`sparse::concatenate`).
fn concat_rule(c: &SparseMatrix, inputs: &[&Value], derivs: &[&Deriv], vertical: bool) -> Result<Deriv> {
    let (mut row0, mut col0) = (0, 0);
    let mut placed = Vec::with_capacity(inputs.len());
    for (v, d) in inputs.iter().zip(derivs).filter(|(v, _)| v.numel() > 0) {
        let own = super::sparse::as_sparse("concatenation", v)?;
        let at: Vec<(usize, usize)> =
            entries(&own).enumerate().map(|(e, (i, j))| (c.0.nnz_index(i + row0, j + col0).expect("a joined entry").0, e)).collect();
        placed.push(match v {
            Value::Sparse(_) => d.scatter(&at, c.nnz()),
            _ => entry_rows(&own, d)?.scatter(&at, c.nnz()),
        });
        if vertical {
            row0 += own.nrows();
        } else {
            col0 += own.ncols();
        }
    }
    Ok(crate::value::deriv::sum(placed, c.nnz()))
}

/// `c A` (or `A / c`): `c dA + A dc` (`dA / c - A dc / c^2`), on A's stored entries.
fn scaling_rule(a: &SparseMatrix, da: &Deriv, c: &Value, dc: &Deriv, divide: bool) -> Deriv {
    let c = scalar(c).expect("a scalar operand");
    let (own, of_c): (f64, Vec<f64>) = match divide {
        false => (c, a.values().to_vec()),
        true => (1.0 / c, a.values().iter().map(|v| -v / (c * c)).collect()),
    };
    combine_terms(&[(Coef::Same(own), da, &RowMap::Identity), (Coef::Each(&of_c), dc, &RowMap::Scalar)], a.nnz())
}

/// `dA X` for A m x n (`A.'` with `transposed`), its block `da` on stored entries, and X with `k`
/// columns (column-major): row `i + m c` sums `dA(i, l) X(l, c)`.
pub(super) fn times_entries(a: &SparseMatrix, da: &Deriv, x: &[f64], k: usize, transposed: bool) -> Deriv {
    if da.is_zero() {
        return Deriv::Zero;
    }
    let (m, inner) = if transposed { (a.ncols(), a.nrows()) } else { (a.nrows(), a.ncols()) };
    let mut by_row: Vec<Vec<(usize, usize)>> = vec![vec![]; m];
    for (e, (i, j)) in entries(a).enumerate() {
        let (row, l) = if transposed { (j, i) } else { (i, j) };
        by_row[row].push((e, l));
    }
    let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    for c in 0..k {
        for row in &by_row {
            for &(e, l) in row {
                op.src.push(e);
                op.coef.push(x[l + inner * c]);
            }
            op.ptr.push(op.src.len());
        }
    }
    da.apply(&op)
}

/// For `sum(A, dim)` (dim 1 or 2), the stored entries of A each element of the result sums: those
/// of its column (dim 1) or row (dim 2).
fn sum_groups(a: &SparseMatrix, dim: usize) -> Vec<Vec<usize>> {
    let rows = if dim == 1 { a.ncols() } else { a.nrows() };
    let mut by_result: Vec<Vec<usize>> = vec![vec![]; rows];
    for (e, (i, j)) in entries(a).enumerate() {
        by_result[if dim == 1 { j } else { i }].push(e);
    }
    by_result
}

/// `sum(A, dim)` (dim 1 or 2) of a sparse A, sparse as in Octave: an entry for each column (row)
/// with a stored entry, even one summing to zero at this x (it still has a derivative).
pub(super) fn sparse_sum(a: &SparseMatrix, dim: usize) -> SparseMatrix {
    let groups = sum_groups(a, dim);
    let (nrows, ncols) = if dim == 1 { (1, a.ncols()) } else { (a.nrows(), 1) };
    let triplets: Vec<(usize, usize, f64)> = groups
        .iter()
        .enumerate()
        .filter(|(_, g)| !g.is_empty())
        .map(|(r, g)| {
            let (i, j) = if dim == 1 { (0, r) } else { (r, 0) };
            (i, j, g.iter().map(|&e| a.values()[e]).sum())
        })
        .collect();
    super::sparse::from_triplets(nrows, ncols, triplets)
}

/// The block of `sum(A, dim)` (see `sparse_sum`): each stored entry sums its group's rows.
fn sum_along(a: &SparseMatrix, da: &Deriv, dim: usize) -> Deriv {
    da.apply(&sums_of(sum_groups(a, dim).into_iter().filter(|g| !g.is_empty()).collect()))
}

/// The terms of `C = A * B` for sparse A and B: for each product `A(i, k) B(k, j)`, the stored entries
/// of C, A and B it joins.
type ProductTerms = Vec<(usize, usize, usize)>;

/// The products `A(i, k) B(k, j)` of `A * B` (sparse A and B): for each, its entries of A and B and
/// its position `(i, j)` in the product.
pub(super) fn product_pairs<'a>(a: &'a SparseMatrix, b: &'a SparseMatrix) -> impl Iterator<Item = (usize, usize, (usize, usize))> + 'a {
    entries(b).enumerate().flat_map(move |(eb, (k, j))| (a.colptr()[k]..a.colptr()[k + 1]).map(move |ea| (ea, eb, (a.rowind()[ea], j))))
}

/// For each product of `C = A * B`, the stored entries of C, A and B it joins (`sparse::product`
/// checked that memory holds them).
fn product_terms(a: &SparseMatrix, b: &SparseMatrix, c: &SparseMatrix) -> ProductTerms {
    product_pairs(a, b).map(|(ea, eb, (i, j))| (c.0.nnz_index(i, j).expect("an entry of the product").0, ea, eb)).collect()
}

/// `dC = dA B + A dB` on the stored entries of `C = A * B`.
fn product_rule(a: &SparseMatrix, da: &Deriv, b: &SparseMatrix, db: &Deriv, c: &SparseMatrix) -> Deriv {
    bilinear_rule(&product_terms(a, b, c), a, da, b, db, c)
}

/// `kron(A, B)` (B p x q): each pair of stored entries `A(i, j)`, `B(k, l)` makes the entry
/// `(i p + k, j q + l)` of C; full operands by their nonzeros (one of their zeros that depends on x
/// fails, see `entry_rows`).
fn kron_rule(inputs: &[&Value], derivs: &[&Deriv], c: &SparseMatrix) -> Result<Deriv> {
    let mut operands = Vec::with_capacity(2);
    for (v, d) in inputs.iter().zip(derivs) {
        let own = super::sparse::as_sparse("kron", v)?.into_owned();
        let block = match v {
            Value::Sparse(_) => (*d).clone(),
            _ => entry_rows(&own, d)?,
        };
        operands.push((own, block));
    }
    let [(a, da), (b, db)] = &operands[..] else { unreachable!("kron has two operands") };
    let (p, q) = (b.nrows(), b.ncols());
    let terms: ProductTerms = entries(a)
        .enumerate()
        .flat_map(|(ea, (i, j))| entries(b).enumerate().map(move |(eb, (k, l))| (ea, eb, (i * p + k, j * q + l))))
        .map(|(ea, eb, (r, col))| (c.0.nnz_index(r, col).expect("an entry of the Kronecker product").0, ea, eb))
        .collect();
    Ok(bilinear_rule(&terms, a, da, b, db, c))
}

/// `dC = dA B + A dB` where each entry of C sums products `A(ea) B(eb)` (`terms`: `(ec, ea, eb)`).
fn bilinear_rule(terms: &ProductTerms, a: &SparseMatrix, da: &Deriv, b: &SparseMatrix, db: &Deriv, c: &SparseMatrix) -> Deriv {
    let operator = |own_entry: fn(&(usize, usize, usize)) -> usize, coef: &dyn Fn(&(usize, usize, usize)) -> f64| {
        let mut by_entry: Vec<Vec<(usize, f64)>> = vec![vec![]; c.nnz()];
        terms.iter().for_each(|t| by_entry[t.0].push((own_entry(t), coef(t))));
        let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
        for row in by_entry {
            for (src, coef) in row {
                op.src.push(src);
                op.coef.push(coef);
            }
            op.ptr.push(op.src.len());
        }
        op
    };
    let from_a = operator(|t| t.1, &|t| b.values()[t.2]);
    let from_b = operator(|t| t.2, &|t| a.values()[t.1]);
    crate::value::deriv::sum(vec![da.apply(&from_a), db.apply(&from_b)], c.nnz())
}

/// `A X` with a sparse A and a full X: `A dX + dA X`.
fn times_rule(a: &SparseMatrix, da: &Deriv, x: &Value, dx: &Deriv) -> Result<Deriv> {
    let columns = x.dims()[1..].iter().product();
    let x = super::elementwise::numeric("mtimes", x)?;
    let parts = vec![super::sparse::times_deriv(a, dx, columns), times_entries(a, da, &x.data, columns, false)];
    Ok(crate::value::deriv::sum(parts, a.nrows() * columns))
}

/// The rule of `sparse` and `spdiags` (their results are sparse: `forward` brings every call here).
pub(super) fn constructor_rule(id: Prim, fw: &Forward) -> Result<Deriv> {
    own_rule(id, fw).unwrap_or_else(|| Err(super::sparse::depends_on_x()))
}
