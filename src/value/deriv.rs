//! Derivative blocks ("derivvec"): for a value with `m = numel(v)` elements and `nd` directions, the
//! `m x nd` matrix of directional derivatives (row i = element i of v).
//!
//! Every forward rule is linear in these blocks and is written with the operations below only, so it
//! works unchanged on both storages: `Dense` (column-major; the compressed and full modes) and `Sparse`
//! (rows of (direction, value) pairs; sparsity detection seeds it with the identity). Sparse blocks keep
//! every structural entry, even when its value is zero, so the pattern they carry is never too small.

use super::buffers;
use super::memory;

#[derive(Clone, Debug, PartialEq)]
pub enum Deriv {
    /// The value does not depend on the differentiated input.
    Zero,
    Dense(DenseDeriv),
    Sparse(SparseDeriv),
    /// A struct's or cell's derivatives: one per field of a scalar struct, one per cell element.
    /// Numeric rules never see it: their kernels reject containers first.
    Parts(Vec<Deriv>),
}

#[derive(Debug, PartialEq)]
pub struct DenseDeriv {
    pub rows: usize,
    pub nd: usize,
    pub data: Vec<f64>,
}

/// Copies (cached constant derivatives, `x(:)` of a live `x`) take pooled buffers like every other
/// block, so no large block comes fresh from malloc on a repeated call.
impl Clone for DenseDeriv {
    fn clone(&self) -> DenseDeriv {
        let mut data = buffers::take(self.data.len());
        data.extend_from_slice(&self.data);
        DenseDeriv { rows: self.rows, nd: self.nd, data }
    }
}

/// Compressed sparse rows: row r holds directions `cols[ptr[r]..end(r)]` (sorted) and their values.
/// A row replaced by a longer one moves out of line, to the end of `cols`/`vals`, so that a loop
/// replacing rows one by one (`f(k) = ...` during sparsity detection) does not shift every later row;
/// `out_of_line` then holds each row's end (None while the rows lie in line: row r ends at `ptr[r + 1]`).
#[derive(Clone, Debug)]
pub struct SparseDeriv {
    pub rows: usize,
    pub nd: usize,
    ptr: Vec<usize>,
    cols: Vec<usize>,
    vals: Vec<f64>,
    /// Boxed: blocks in line are the rule, and every register's size counts.
    out_of_line: Option<Box<OutOfLine>>,
}

/// Where the rows of a block with rows out of line end.
#[derive(Clone, Debug)]
struct OutOfLine {
    ends: Vec<usize>,
    /// Entries of `cols`/`vals` no row holds any more (left behind by rows replaced out of line).
    unused: usize,
}

/// Blocks compare by their rows, wherever those are stored.
impl PartialEq for SparseDeriv {
    fn eq(&self, other: &SparseDeriv) -> bool {
        self.rows == other.rows && self.nd == other.nd && (0..self.rows).all(|r| self.row(r) == other.row(r))
    }
}

impl DenseDeriv {
    pub fn zeros(rows: usize, nd: usize) -> DenseDeriv {
        DenseDeriv { rows, nd, data: buffers::zeros(rows * nd) }
    }
    /// The seed `S` (n x nd, column-major) as a block.
    pub fn from_seed(rows: usize, nd: usize, data: Vec<f64>) -> DenseDeriv {
        debug_assert_eq!(data.len(), rows * nd);
        DenseDeriv { rows, nd, data }
    }
    #[inline]
    pub fn get(&self, row: usize, dir: usize) -> f64 {
        self.data[dir * self.rows + row]
    }
    pub fn column(&self, dir: usize) -> &[f64] {
        &self.data[dir * self.rows..(dir + 1) * self.rows]
    }
    pub fn column_mut(&mut self, dir: usize) -> &mut [f64] {
        &mut self.data[dir * self.rows..(dir + 1) * self.rows]
    }
}

impl SparseDeriv {
    /// A block from compressed rows: row r holds `cols[ptr[r]..ptr[r + 1]]` (sorted) and their values.
    pub fn from_csr(rows: usize, nd: usize, ptr: Vec<usize>, cols: Vec<usize>, vals: Vec<f64>) -> SparseDeriv {
        debug_assert_eq!(ptr.len(), rows + 1);
        SparseDeriv { rows, nd, ptr, cols, vals, out_of_line: None }
    }
    pub fn identity(n: usize) -> SparseDeriv {
        SparseDeriv::from_csr(n, n, (0..=n).collect(), (0..n).collect(), vec![1.0; n])
    }
    fn end(&self, r: usize) -> usize {
        self.out_of_line.as_ref().map_or(self.ptr[r + 1], |o| o.ends[r])
    }
    pub fn row(&self, r: usize) -> (&[usize], &[f64]) {
        let range = self.ptr[r]..self.end(r);
        (&self.cols[range.clone()], &self.vals[range])
    }

    /// The block as compressed rows `(ptr, cols, vals)`, its rows moved back in line first.
    pub fn csr(&mut self) -> (&[usize], &[usize], &[f64]) {
        if self.out_of_line.is_some() {
            *self = SparseDeriv::linear(self.rows, self.nd, |r, e| {
                let (c, v) = self.row(r);
                e.extend(c.iter().copied().zip(v.iter().copied()));
            });
        }
        (&self.ptr, &self.cols, &self.vals)
    }

    /// The bytes its index and value arrays take.
    pub fn heap_bytes(&self) -> usize {
        (self.ptr.len() + self.out_of_line.as_ref().map_or(0, |o| o.ends.len()) + self.cols.len()) * size_of::<usize>()
            + self.vals.len() * size_of::<f64>()
    }

    /// Row `r` replaced by the entries `cols`/`vals` (sorted directions, as every row holds them): in
    /// place when they fit, else out of line. The space rows leave behind is reclaimed once it
    /// outgrows the rows in use.
    pub(crate) fn replace_row(&mut self, r: usize, cols: &[usize], vals: &[f64]) {
        let (old_start, old_len) = (self.ptr[r], self.end(r) - self.ptr[r]);
        if self.out_of_line.is_none() && cols.len() == old_len {
            self.cols[old_start..old_start + old_len].copy_from_slice(cols);
            self.vals[old_start..old_start + old_len].copy_from_slice(vals);
            return;
        }
        let ptr = &self.ptr;
        let out_of_line = self.out_of_line.get_or_insert_with(|| Box::new(OutOfLine { ends: ptr[1..].to_vec(), unused: 0 }));
        let start = if cols.len() <= old_len {
            self.cols[old_start..old_start + cols.len()].copy_from_slice(cols);
            self.vals[old_start..old_start + cols.len()].copy_from_slice(vals);
            out_of_line.unused += old_len - cols.len();
            old_start
        } else {
            self.cols.extend_from_slice(cols);
            self.vals.extend_from_slice(vals);
            out_of_line.unused += old_len;
            self.cols.len() - cols.len()
        };
        (self.ptr[r], out_of_line.ends[r]) = (start, start + cols.len());
        if out_of_line.unused > self.cols.len() / 2 + 64 {
            self.csr();
        }
    }

    /// Row `r` with the directions of `cols` it lacks added as structural zeros: the pattern of both.
    pub fn unite_row(&mut self, r: usize, cols: &[usize]) {
        let (own, own_vals) = self.row(r);
        if is_sorted_subset(cols, own) {
            return;
        }
        let mut entries: Vec<(usize, f64)> = own.iter().copied().zip(own_vals.iter().copied()).collect();
        entries.extend(cols.iter().filter(|c| own.binary_search(c).is_err()).map(|&c| (c, 0.0)));
        entries.sort_unstable_by_key(|e| e.0);
        let (cols, vals): (Vec<usize>, Vec<f64>) = entries.into_iter().unzip();
        self.replace_row(r, &cols, &vals);
    }

    /// Builds `rows` rows, row r being `sum coef * self.row(src)` over `terms(r)`; entries that meet add.
    fn linear(rows: usize, nd: usize, mut terms: impl FnMut(usize, &mut Vec<(usize, f64)>)) -> SparseDeriv {
        let mut out = SparseDeriv { rows, nd, ptr: Vec::with_capacity(rows + 1), cols: vec![], vals: vec![], out_of_line: None };
        out.ptr.push(0);
        let mut entries = Vec::new();
        for r in 0..rows {
            entries.clear();
            terms(r, &mut entries);
            entries.sort_unstable_by_key(|e| e.0);
            // Rows of x-dependent sums can make a block of m x n entries (a dense J being detected).
            memory::reserve(&mut out.cols, entries.len());
            memory::reserve(&mut out.vals, entries.len());
            for &(c, v) in entries.iter() {
                if out.cols.len() > out.ptr[r] && *out.cols.last().expect("non-empty") == c {
                    *out.vals.last_mut().expect("non-empty") += v;
                } else {
                    out.cols.push(c);
                    out.vals.push(v);
                }
            }
            out.ptr.push(out.cols.len());
        }
        out
    }
}

/// How output element k of an elementwise operation reads one operand.
#[derive(Clone, Debug)]
pub enum RowMap {
    /// Element k reads element k.
    Identity,
    /// Every element reads the operand's single element.
    Scalar,
    /// Element k reads element `map[k]` (implicit expansion, indexing).
    Gather(Vec<usize>),
}

impl RowMap {
    #[inline]
    pub fn source(&self, k: usize) -> usize {
        match self {
            RowMap::Identity => k,
            RowMap::Scalar => 0,
            RowMap::Gather(m) => m[k],
        }
    }
}

/// Positions `first + k * step` for k < count (a range subscript, `y(1:2:end)`): selections and
/// assignments through it run without an index list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stride {
    pub first: usize,
    pub step: isize,
    pub count: usize,
}

impl Stride {
    /// Position `k` (k < count).
    #[inline]
    pub fn at(self, k: usize) -> usize {
        self.first.wrapping_add_signed(self.step.wrapping_mul(k as isize))
    }
    pub fn positions(self) -> impl Iterator<Item = usize> + Clone {
        (0..self.count).map(move |k| self.at(k))
    }
    /// The largest position (None when empty).
    pub fn max(self) -> Option<usize> {
        Some(self.at(self.count.checked_sub(1)?).max(self.first))
    }
}

/// The seed of a compressed run, `S(j, colour(j)) = 1` and zero elsewhere, as its colouring: directions
/// `first..first + nd` of it (a chunk of the columns). Selections from the seeded argument
/// (`y(1:2:end)`) build their rows from the colours instead of reading the block.
#[derive(Clone, Copy, Debug)]
pub struct SeedColours<'a> {
    pub colours: &'a [usize],
    pub first: usize,
    pub nd: usize,
}

impl SeedColours<'_> {
    /// The seed's rows `positions` (`rows` of them): the same entries (ones and zeros) as a gather
    /// from its block.
    pub fn gather(&self, positions: impl Iterator<Item = usize>, rows: usize) -> Deriv {
        let mut out = DenseDeriv::zeros(rows, self.nd);
        for (k, j) in positions.enumerate() {
            let direction = self.colours[j].wrapping_sub(self.first);
            if direction < self.nd {
                out.data[direction * rows + k] = 1.0;
            }
        }
        Deriv::Dense(out)
    }
}

/// Appends `src[i]` for the positions i of `stride` (a slice copy for consecutive ones).
pub fn extend_stride(out: &mut Vec<f64>, src: &[f64], stride: Stride) {
    match stride.step {
        1 => out.extend_from_slice(&src[stride.first..stride.first + stride.count]),
        _ => out.extend(stride.positions().map(|i| src[i])),
    }
}

/// The first of `positions` when they are consecutive (`x(a:b)`, `x(:)`): such gathers copy slices.
pub fn contiguous_start(positions: &[usize]) -> Option<usize> {
    let first = *positions.first()?;
    positions.iter().enumerate().all(|(k, &i)| i == first + k).then_some(first)
}

/// A linear map on rows given as, for each output row, its (source row, coefficient) terms
/// (compressed like a CSR matrix): reductions, cumulative sums, Kronecker-structured products.
pub struct RowOperator {
    pub ptr: Vec<usize>,
    pub src: Vec<usize>,
    pub coef: Vec<f64>,
}

impl RowOperator {
    pub fn rows(&self) -> usize {
        self.ptr.len() - 1
    }
}

impl Deriv {
    /// Gives its buffers back to the pool (see `buffers`): the block is no longer needed.
    pub fn recycle(self) {
        match self {
            Deriv::Dense(d) => buffers::give(d.data),
            Deriv::Parts(parts) => parts.into_iter().for_each(Deriv::recycle),
            Deriv::Zero | Deriv::Sparse(_) => {}
        }
    }

    pub fn is_zero(&self) -> bool {
        matches!(self, Deriv::Zero)
    }

    pub fn nd(&self) -> Option<usize> {
        match self {
            Deriv::Zero => None,
            Deriv::Dense(d) => Some(d.nd),
            Deriv::Sparse(s) => Some(s.nd),
            Deriv::Parts(parts) => parts.iter().find_map(Deriv::nd),
        }
    }

    /// Part `k` of a container's derivative (Zero when the container is inactive).
    pub fn part(&self, k: usize) -> Deriv {
        match self {
            Deriv::Parts(parts) => parts.get(k).cloned().unwrap_or(Deriv::Zero),
            _ => Deriv::Zero,
        }
    }

    /// A container derivative of `count` parts (Zero when every part is).
    pub fn from_parts(parts: Vec<Deriv>) -> Deriv {
        if parts.iter().all(Deriv::is_zero) { Deriv::Zero } else { Deriv::Parts(parts) }
    }

    /// Rows of `self` selected by `map`, `rows` of them.
    pub fn gather(&self, map: &RowMap, rows: usize) -> Deriv {
        match self {
            Deriv::Zero => Deriv::Zero,
            Deriv::Dense(d) if matches!(map, RowMap::Identity) && d.rows == rows => self.clone(),
            Deriv::Dense(d) => {
                let mut data = buffers::take(rows * d.nd);
                let first = match map {
                    RowMap::Gather(m) => contiguous_start(m),
                    _ => None,
                };
                for j in 0..d.nd {
                    let src = d.column(j);
                    match (map, first) {
                        (RowMap::Identity, _) => data.extend_from_slice(&src[..rows]),
                        (RowMap::Scalar, _) => data.extend(std::iter::repeat_n(src[0], rows)),
                        (RowMap::Gather(_), Some(first)) => data.extend_from_slice(&src[first..first + rows]),
                        (RowMap::Gather(m), None) => data.extend(m.iter().map(|&i| src[i])),
                    }
                }
                Deriv::Dense(DenseDeriv { rows, nd: d.nd, data })
            }
            Deriv::Sparse(s) => Deriv::Sparse(SparseDeriv::linear(rows, s.nd, |r, e| {
                let (c, v) = s.row(map.source(r));
                e.extend(c.iter().copied().zip(v.iter().copied()));
            })),
            Deriv::Parts(_) => Deriv::from_parts((0..rows).map(|r| self.part(map.source(r))).collect()),
        }
    }

    /// Rows `stride` of `self` (`gather` without an index list); None for sparse and container blocks.
    pub fn gather_stride(&self, stride: Stride) -> Option<Deriv> {
        let d = match self {
            Deriv::Zero => return Some(Deriv::Zero),
            Deriv::Dense(d) => d,
            Deriv::Sparse(_) | Deriv::Parts(_) => return None,
        };
        let rows = stride.count;
        let mut data = buffers::take(rows * d.nd);
        for j in 0..d.nd {
            extend_stride(&mut data, d.column(j), stride);
        }
        Some(Deriv::Dense(DenseDeriv { rows, nd: d.nd, data }))
    }

    /// A block of `rows` rows, zero except row `o` = row `i` of `self` for each pair `(o, i)`.
    pub fn scatter(&self, pairs: &[(usize, usize)], rows: usize) -> Deriv {
        // Dense blocks write the pairs directly; the source of each row is built only for the others.
        let sources = || {
            let mut sources = vec![usize::MAX; rows];
            pairs.iter().for_each(|&(o, i)| sources[o] = i);
            sources
        };
        match self {
            Deriv::Zero => Deriv::Zero,
            Deriv::Dense(d) if pairs.windows(2).all(|w| w[0].0 < w[1].0) => {
                // Rows in order (concatenation, `x(a:b)`): each element written once, the gaps zeroed.
                let mut data = buffers::take(rows * d.nd);
                for j in 0..d.nd {
                    let src = d.column(j);
                    for &(o, i) in pairs {
                        data.resize(j * rows + o, 0.0);
                        data.push(src[i]);
                    }
                    data.resize((j + 1) * rows, 0.0);
                }
                Deriv::Dense(DenseDeriv { rows, nd: d.nd, data })
            }
            Deriv::Dense(d) => {
                let mut out = DenseDeriv::zeros(rows, d.nd);
                for j in 0..d.nd {
                    let (src, dst) = (d.column(j), out.column_mut(j));
                    pairs.iter().for_each(|&(o, i)| dst[o] = src[i]);
                }
                Deriv::Dense(out)
            }
            Deriv::Sparse(s) => {
                let sources = sources();
                Deriv::Sparse(SparseDeriv::linear(rows, s.nd, |r, e| {
                    if sources[r] != usize::MAX {
                        let (c, v) = s.row(sources[r]);
                        e.extend(c.iter().copied().zip(v.iter().copied()));
                    }
                }))
            }
            Deriv::Parts(_) => {
                Deriv::from_parts(sources().iter().map(|&i| if i == usize::MAX { Deriv::Zero } else { self.part(i) }).collect())
            }
        }
    }

    /// A block of `rows` rows whose row `t` is row `i` of block `k` where `targets[k][i] = t`, the other
    /// rows zero: the blocks of the operands of a concatenation placed in the result (their targets
    /// are disjoint). One pass over the result's rows; a scattered block per operand, summed, would
    /// cost operands x rows.
    pub fn placed(blocks: &[(&Deriv, &[usize])], rows: usize) -> Deriv {
        let active: Vec<(&Deriv, &[usize])> = blocks.iter().copied().filter(|(d, _)| !d.is_zero()).collect();
        let Some(nd) = active.iter().find_map(|(d, _)| d.nd()) else { return Deriv::Zero };
        if active.iter().any(|(d, _)| matches!(d, Deriv::Parts(_))) {
            let parts = active.iter().map(|(d, targets)| {
                let pairs: Vec<(usize, usize)> = targets.iter().enumerate().map(|(i, &t)| (t, i)).collect();
                d.scatter(&pairs, rows)
            });
            return sum(parts.collect(), rows);
        }
        let mut sources = vec![None; rows];
        for (d, targets) in &active {
            targets.iter().enumerate().for_each(|(i, &t)| sources[t] = Some((*d, i)));
        }
        if active.iter().all(|(d, _)| matches!(d, Deriv::Dense(_))) {
            let mut out = DenseDeriv::zeros(rows, nd);
            for j in 0..nd {
                let column = out.column_mut(j);
                for (t, source) in sources.iter().enumerate() {
                    if let Some((Deriv::Dense(b), i)) = source {
                        column[t] = b.get(*i, j);
                    }
                }
            }
            return Deriv::Dense(out);
        }
        Deriv::Sparse(SparseDeriv::linear(rows, nd, |t, e| match sources[t] {
            Some((Deriv::Sparse(s), i)) => {
                let (c, v) = s.row(i);
                e.extend(c.iter().copied().zip(v.iter().copied()));
            }
            Some((Deriv::Dense(b), i)) => e.extend((0..nd).map(|j| (j, b.get(i, j)))),
            _ => {}
        }))
    }

    /// `op * self`.
    pub fn apply(&self, op: &RowOperator) -> Deriv {
        let rows = op.rows();
        match self {
            Deriv::Zero => Deriv::Zero,
            Deriv::Dense(d) => {
                let mut out = DenseDeriv::zeros(rows, d.nd);
                for j in 0..d.nd {
                    let (src, dst) = (d.column(j), out.column_mut(j));
                    for (r, o) in dst.iter_mut().enumerate() {
                        *o = (op.ptr[r]..op.ptr[r + 1]).map(|t| op.coef[t] * src[op.src[t]]).sum();
                    }
                }
                Deriv::Dense(out)
            }
            Deriv::Parts(_) => container_in_numeric_rule(),
            Deriv::Sparse(s) => Deriv::Sparse(SparseDeriv::linear(rows, s.nd, |r, e| {
                for t in op.ptr[r]..op.ptr[r + 1] {
                    let (c, v) = s.row(op.src[t]);
                    e.extend(c.iter().zip(v).map(|(&c, &v)| (c, op.coef[t] * v)));
                }
            })),
        }
    }

    /// Dense copy of a block of `rows` rows and `nd` directions (for results and rules that need one).
    pub fn to_dense(&self, rows: usize, nd: usize) -> DenseDeriv {
        match self {
            Deriv::Parts(_) => container_in_numeric_rule(),
            Deriv::Zero => DenseDeriv::zeros(rows, nd),
            Deriv::Dense(d) => d.clone(),
            Deriv::Sparse(s) => {
                let mut out = DenseDeriv::zeros(rows, nd);
                for r in 0..s.rows {
                    let (c, v) = s.row(r);
                    c.iter().zip(v).for_each(|(&c, &v)| out.data[c * rows + r] = v);
                }
                out
            }
        }
    }

    /// `to_dense` that moves a dense block instead of copying it.
    pub fn into_dense(self, rows: usize, nd: usize) -> DenseDeriv {
        match self {
            Deriv::Dense(d) => d,
            other => other.to_dense(rows, nd),
        }
    }

    /// `self` with its rows moved to new positions `map[r]` in a block of `rows` rows (array growth).
    pub fn relocate(self, map: &[usize], rows: usize) -> Deriv {
        let pairs: Vec<(usize, usize)> = map.iter().enumerate().map(|(i, &m)| (m, i)).collect();
        self.scatter(&pairs, rows)
    }

    /// Overwrites rows `targets[k]` with row `source(k)` of `rhs` (indexed assignment), in place.
    pub fn assign_rows(self, rows: usize, targets: &[usize], rhs: &Deriv, source: impl Fn(usize) -> usize) -> Deriv {
        self.assign_at(rows, targets.iter().copied(), rhs, source)
    }

    /// `assign_rows` through a range subscript, without an index list.
    pub fn assign_stride(self, rows: usize, targets: Stride, rhs: &Deriv, source: impl Fn(usize) -> usize) -> Deriv {
        self.assign_at(rows, targets.positions(), rhs, source)
    }

    /// `assign_rows` over `targets`. A base without derivative (`d = zeros(n, 1); d(1:2:end) = ...`)
    /// has each column zeroed just before its targets are written, while it is in cache: a zero fill
    /// of the whole block first, then a pass over it, is slower (Brusselator n = 40960: 5-10 %).
    fn assign_at(self, rows: usize, targets: impl Iterator<Item = usize> + Clone, rhs: &Deriv, source: impl Fn(usize) -> usize) -> Deriv {
        let Some(nd) = self.nd().or(rhs.nd()) else { return Deriv::Zero };
        match (self, rhs) {
            (Deriv::Zero, Deriv::Dense(r)) => {
                let mut data = buffers::take(rows * nd);
                for j in 0..nd {
                    data.resize((j + 1) * rows, 0.0);
                    let (column, src) = (&mut data[j * rows..], r.column(j));
                    targets.clone().enumerate().for_each(|(k, t)| column[t] = src[source(k)]);
                }
                Deriv::Dense(DenseDeriv { rows, nd, data })
            }
            (base @ (Deriv::Zero | Deriv::Dense(_)), Deriv::Zero | Deriv::Dense(_)) => {
                let mut out = match base {
                    Deriv::Dense(d) => d,
                    _ => DenseDeriv::zeros(rows, nd),
                };
                for j in 0..nd {
                    let col = out.column_mut(j);
                    match rhs {
                        Deriv::Dense(r) => {
                            let src = r.column(j);
                            targets.clone().enumerate().for_each(|(k, t)| col[t] = src[source(k)]);
                        }
                        _ => targets.clone().for_each(|t| col[t] = 0.0),
                    }
                }
                Deriv::Dense(out)
            }
            // A few rows (`d(k) = ...` in a loop, during sparsity detection): replaced in place, where
            // rebuilding the block would make a loop over the rows quadratic.
            (Deriv::Sparse(mut base), rhs) if targets.clone().nth(FEW_ROWS).is_none() => {
                let rhs = (!rhs.is_zero()).then(|| rhs.to_sparse(0, nd));
                for (k, t) in targets.enumerate() {
                    let (c, v) = rhs.as_ref().map_or((&[][..], &[][..]), |r| r.row(source(k)));
                    base.replace_row(t, c, v);
                }
                Deriv::Sparse(base)
            }
            (base, rhs) => {
                let mut from_rhs = vec![usize::MAX; rows];
                targets.enumerate().for_each(|(k, t)| from_rhs[t] = source(k));
                let base = base.to_sparse(rows, nd);
                let rhs = (!rhs.is_zero()).then(|| rhs.to_sparse(0, nd));
                Deriv::Sparse(SparseDeriv::linear(rows, nd, |r, e| {
                    let (c, v) = match (from_rhs[r], &rhs) {
                        (usize::MAX, _) => base.row(r),
                        (k, Some(rhs)) => rhs.row(k),
                        (_, None) => (&[][..], &[][..]),
                    };
                    e.extend(c.iter().copied().zip(v.iter().copied()));
                }))
            }
        }
    }

    /// `self` with the structure of `other` added as explicit zeros (sparse blocks of equal rows; dense
    /// blocks already hold every entry). None when the shapes differ. The caller has checked that both
    /// belong to values of the same number of elements (a zero block takes `other`'s rows).
    pub fn with_structure_of(&self, other: &Deriv) -> Option<Deriv> {
        match (self, other) {
            (d, Deriv::Zero) => Some(d.clone()),
            (Deriv::Dense(d), Deriv::Dense(o)) => (d.rows == o.rows).then(|| Deriv::Dense(d.clone())),
            (d, Deriv::Sparse(o)) => {
                let s = d.to_sparse(o.rows, o.nd);
                (s.rows == o.rows).then(|| {
                    Deriv::Sparse(SparseDeriv::linear(o.rows, o.nd, |r, e| {
                        let (c, v) = s.row(r);
                        e.extend(c.iter().copied().zip(v.iter().copied()));
                        e.extend(o.row(r).0.iter().map(|&c| (c, 0.0)));
                    }))
                })
            }
            (Deriv::Parts(a), Deriv::Parts(b)) if a.len() == b.len() => {
                a.iter().zip(b).map(|(a, b)| a.part_with_structure_of(b)).collect::<Option<Vec<_>>>().map(Deriv::Parts)
            }
            (Deriv::Zero, Deriv::Parts(b)) => {
                b.iter().map(|b| Deriv::Zero.part_with_structure_of(b)).collect::<Option<Vec<_>>>().map(Deriv::Parts)
            }
            _ => None,
        }
    }

    /// Whether `self` already holds every entry of `other`'s structure, so that `with_structure_of`
    /// would change nothing: the usual join in a loop, where both sides assigned the same entries.
    /// Checking costs a comparison of the index arrays; the union would rebuild the whole block.
    pub fn holds_structure_of(&self, other: &Deriv) -> bool {
        match (self, other) {
            (_, Deriv::Zero) => true,
            (Deriv::Dense(d), Deriv::Dense(o)) => d.rows == o.rows,
            (Deriv::Dense(d), Deriv::Sparse(o)) => d.rows == o.rows && d.nd == o.nd,
            (Deriv::Sparse(s), Deriv::Sparse(o)) => {
                s.rows == o.rows
                    && s.nd == o.nd
                    && ((s.out_of_line.is_none() && o.out_of_line.is_none() && s.ptr == o.ptr && s.cols == o.cols)
                        || (0..o.rows).all(|r| is_sorted_subset(o.row(r).0, s.row(r).0)))
            }
            _ => false,
        }
    }

    /// `with_structure_of` for an element of a container, whose sizes on the two sides were not
    /// compared: a zero block cannot take the other side's row count.
    fn part_with_structure_of(&self, other: &Deriv) -> Option<Deriv> {
        match (self, other) {
            (Deriv::Zero, Deriv::Sparse(_)) => None,
            _ => self.with_structure_of(other),
        }
    }

    /// Sparse copy; `rows` is used only for `Zero`.
    fn to_sparse(&self, rows: usize, nd: usize) -> SparseDeriv {
        match self {
            Deriv::Parts(_) => container_in_numeric_rule(),
            Deriv::Sparse(s) => s.clone(),
            Deriv::Zero => SparseDeriv::from_csr(rows, nd, vec![0; rows + 1], vec![], vec![]),
            Deriv::Dense(d) => SparseDeriv::linear(d.rows, nd, |r, e| e.extend((0..nd).map(|j| (j, d.get(r, j))))),
        }
    }
}

/// Whether every element of the sorted `small` is in the sorted `large`.
fn is_sorted_subset(small: &[usize], large: &[usize]) -> bool {
    let mut rest = large.iter();
    small.iter().all(|c| rest.by_ref().any(|l| l == c))
}

/// At most this many rows are assigned into a sparse block in place (see `Deriv::assign_at`).
const FEW_ROWS: usize = 8;

/// Numeric kernels reject structs and cells before any forward rule runs, so their derivatives never
/// reach one.
pub fn container_in_numeric_rule() -> ! {
    unreachable!("a struct or cell derivative reached a numeric derivative rule")
}

/// The coefficient of one term of `combine_terms` at each output element.
#[derive(Clone, Copy, Debug)]
pub enum Coef<'a> {
    /// One coefficient per output element.
    Each(&'a [f64]),
    /// The same coefficient for every element (sums, differences, products with a scalar).
    Same(f64),
}

impl Coef<'_> {
    #[inline]
    fn at(&self, k: usize) -> f64 {
        match self {
            Coef::Each(c) => c[k],
            Coef::Same(c) => *c,
        }
    }
}

/// `sum_t coef_t[k] * d_t[map_t(k), :]` over the non-zero terms: the forward rule of every elementwise
/// operation. `coefs` has one entry per output element.
pub fn combine(terms: &[(&[f64], &Deriv, &RowMap)], rows: usize) -> Deriv {
    let terms: Vec<(Coef, &Deriv, &RowMap)> = terms.iter().map(|&(c, d, m)| (Coef::Each(c), d, m)).collect();
    combine_terms(&terms, rows)
}

/// `combine` with coefficients that may be the same for every element.
pub fn combine_terms(terms: &[(Coef, &Deriv, &RowMap)], rows: usize) -> Deriv {
    if terms.iter().any(|(_, d, _)| matches!(d, Deriv::Sparse(_))) {
        let nd = terms.iter().find_map(|(_, d, _)| d.nd()).expect("a sparse term");
        memory::ensure(sparse_entries_bound(terms, rows, nd), size_of::<usize>() + size_of::<f64>());
        return Deriv::Sparse(SparseDeriv::linear(rows, nd, |r, e| {
            for (coef, deriv, map) in terms {
                let c = coef.at(r);
                match deriv {
                    Deriv::Sparse(s) => {
                        let (cols, v) = s.row(map.source(r));
                        e.extend(cols.iter().zip(v).map(|(&j, &v)| (j, c * v)));
                    }
                    Deriv::Dense(d) => e.extend((0..nd).map(|j| (j, c * d.get(map.source(r), j)))),
                    Deriv::Zero => {}
                    Deriv::Parts(_) => container_in_numeric_rule(),
                }
            }
        }));
    }
    debug_assert!(terms.iter().all(|(coef, _, _)| !matches!(coef, Coef::Each(c) if c.len() != rows)));
    let dense: Vec<(Coef, &DenseDeriv, &RowMap)> = terms
        .iter()
        .filter_map(|(c, d, m)| match d {
            Deriv::Dense(d) => Some((*c, d, *m)),
            _ => None,
        })
        .collect();
    // Two same-shaped terms (a + b, a .* b, ...) are written in one pass over the block.
    if let [(c1, d1, RowMap::Identity), (c2, d2, RowMap::Identity)] = dense[..] {
        let mut data = buffers::take(rows * d1.nd);
        for j in 0..d1.nd {
            write_pair(&mut data, (c1, &d1.column(j)[..rows]), (c2, &d2.column(j)[..rows]));
        }
        return Deriv::Dense(DenseDeriv { rows, nd: d1.nd, data });
    }
    let mut out: Option<DenseDeriv> = None;
    for (coef, d, map) in dense {
        match out.as_mut() {
            // The first term writes the block: no zero fill to accumulate into.
            None => {
                let mut data = buffers::take(rows * d.nd);
                for j in 0..d.nd {
                    write_term(&mut data, coef, d.column(j), map, rows);
                }
                out = Some(DenseDeriv { rows, nd: d.nd, data });
            }
            Some(o) => {
                for j in 0..d.nd {
                    add_term(o.column_mut(j), coef, d.column(j), map);
                }
            }
        }
    }
    out.map_or(Deriv::Zero, Deriv::Dense)
}

/// At least as many entries as `combine_terms` makes of sparse or dense `terms` (a scalar's derivative
/// spread over every element can make m x n of them): a size beyond memory stops the run at once.
fn sparse_entries_bound(terms: &[(Coef, &Deriv, &RowMap)], rows: usize, nd: usize) -> usize {
    let row_entries = |r: usize| -> usize {
        terms
            .iter()
            .map(|(_, deriv, map)| match deriv {
                Deriv::Sparse(s) => s.row(map.source(r)).0.len(),
                Deriv::Dense(_) => nd,
                Deriv::Zero | Deriv::Parts(_) => 0,
            })
            .sum()
    };
    (0..rows).fold(0usize, |total, r| total.saturating_add(row_entries(r)))
}

/// `combine_terms` of two terms written into the block of the first, `own` (identity map, one row per
/// output element), which the caller no longer needs: no fresh block, and the memory written is
/// already in cache. Bitwise the same as `combine_terms`: each element is `a x + b y` (or `a x`)
/// rounded the same way, the sum of two terms being commutative.
pub fn combine_into(own: (Coef, DenseDeriv), other: Option<(Coef, &Deriv, &RowMap)>) -> Deriv {
    let (coef, mut block) = own;
    let other = match other {
        Some((c, Deriv::Dense(d), map)) => Some((c, d, map)),
        Some((_, Deriv::Zero, _)) | None => None,
        Some((c, sparse, map)) => {
            let rows = block.rows;
            return combine_terms(&[(coef, &Deriv::Dense(block), &RowMap::Identity), (c, sparse, map)], rows);
        }
    };
    for j in 0..block.nd {
        let column = block.column_mut(j);
        scale(column, coef);
        if let Some((c, d, map)) = other {
            add_term(column, c, d.column(j), map);
        }
    }
    Deriv::Dense(block)
}

/// `dst[k] = coef[k] * dst[k]`.
fn scale(dst: &mut [f64], coef: Coef) {
    match coef {
        Coef::Same(1.0) => {}
        Coef::Same(c) => dst.iter_mut().for_each(|o| *o *= c),
        Coef::Each(c) => dst.iter_mut().zip(c).for_each(|(o, c)| *o *= c),
    }
}

/// Appends `coef[k] * src[map(k)]` for k < rows to `data`. One loop per coefficient and map kind, so
/// that each vectorises.
fn write_term(data: &mut Vec<f64>, coef: Coef, src: &[f64], map: &RowMap, rows: usize) {
    match (coef, map) {
        (Coef::Same(1.0), RowMap::Identity) => data.extend_from_slice(&src[..rows]),
        (Coef::Same(c), RowMap::Identity) => data.extend(src[..rows].iter().map(|s| c * s)),
        (Coef::Same(c), RowMap::Scalar) => data.extend(std::iter::repeat_n(c * src[0], rows)),
        (Coef::Same(c), RowMap::Gather(m)) => data.extend(m.iter().map(|&i| c * src[i])),
        (Coef::Each(c), RowMap::Identity) => data.extend(c.iter().zip(src).map(|(c, s)| c * s)),
        (Coef::Each(c), RowMap::Scalar) => data.extend(c.iter().map(|c| c * src[0])),
        (Coef::Each(c), RowMap::Gather(m)) => data.extend(c.iter().zip(m).map(|(c, &i)| c * src[i])),
    }
}

/// Appends `a[k] * x[k] + b[k] * y[k]` (the same roundings as writing the first term, then adding the
/// second).
fn write_pair(data: &mut Vec<f64>, (a, x): (Coef, &[f64]), (b, y): (Coef, &[f64])) {
    let xy = x.iter().zip(y);
    match (a, b) {
        (Coef::Same(a), Coef::Same(b)) => data.extend(xy.map(|(x, y)| a * x + b * y)),
        (Coef::Same(a), Coef::Each(b)) => data.extend(xy.zip(b).map(|((x, y), b)| a * x + b * y)),
        (Coef::Each(a), Coef::Same(b)) => data.extend(xy.zip(a).map(|((x, y), a)| a * x + b * y)),
        (Coef::Each(a), Coef::Each(b)) => data.extend(xy.zip(a).zip(b).map(|(((x, y), a), b)| a * x + b * y)),
    }
}

/// `dst[k] += coef[k] * src[map(k)]`, one loop per kind as in `write_term`.
fn add_term(dst: &mut [f64], coef: Coef, src: &[f64], map: &RowMap) {
    match (coef, map) {
        (Coef::Same(1.0), RowMap::Identity) => dst.iter_mut().zip(src).for_each(|(o, s)| *o += s),
        (Coef::Same(-1.0), RowMap::Identity) => dst.iter_mut().zip(src).for_each(|(o, s)| *o -= s),
        (Coef::Same(c), RowMap::Identity) => dst.iter_mut().zip(src).for_each(|(o, s)| *o += c * s),
        (Coef::Same(c), RowMap::Scalar) => dst.iter_mut().for_each(|o| *o += c * src[0]),
        (Coef::Same(c), RowMap::Gather(m)) => dst.iter_mut().zip(m).for_each(|(o, &i)| *o += c * src[i]),
        (Coef::Each(c), RowMap::Identity) => dst.iter_mut().zip(c).zip(src).for_each(|((o, c), s)| *o += c * s),
        (Coef::Each(c), RowMap::Scalar) => dst.iter_mut().zip(c).for_each(|(o, c)| *o += c * src[0]),
        (Coef::Each(c), RowMap::Gather(m)) => dst.iter_mut().zip(c).zip(m).for_each(|((o, c), &i)| *o += c * src[i]),
    }
}

/// Sum of derivative blocks of equal shape (Zero terms skipped). A single block is the sum: moved, not
/// copied (`[1; u; 1]`, `A*x` with a constant `A`).
pub fn sum(mut terms: Vec<Deriv>, rows: usize) -> Deriv {
    terms.retain(|d| !d.is_zero());
    if terms.len() <= 1 {
        return terms.pop().unwrap_or(Deriv::Zero);
    }
    let refs: Vec<(Coef, &Deriv, &RowMap)> = terms.iter().map(|d| (Coef::Same(1.0), d, &RowMap::Identity)).collect();
    combine_terms(&refs, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sparse(rows: &[&[usize]]) -> Deriv {
        Deriv::Sparse(SparseDeriv::linear(rows.len(), 4, |r, e| e.extend(rows[r].iter().map(|&c| (c, 1.0)))))
    }

    #[test]
    fn a_block_holds_another_structure_only_when_it_has_every_entry() {
        let wide = sparse(&[&[0, 2], &[1]]);
        assert!(wide.holds_structure_of(&sparse(&[&[2], &[]])));
        assert!(wide.holds_structure_of(&Deriv::Zero));
        assert!(!wide.holds_structure_of(&sparse(&[&[1], &[]])));
        assert!(!wide.holds_structure_of(&sparse(&[&[0]])));
        assert!(Deriv::Dense(DenseDeriv::zeros(2, 4)).holds_structure_of(&sparse(&[&[3], &[0, 1]])));
        let union = wide.with_structure_of(&sparse(&[&[1], &[]])).expect("same rows");
        assert!(union.holds_structure_of(&sparse(&[&[0, 1, 2], &[1]])));
    }

    /// Rows replaced one by one, longer and shorter (out of line, then reclaimed), read back as the
    /// rows of a block built whole, through `row` and through `csr`.
    #[test]
    fn replaced_rows_read_back_wherever_they_are_stored() {
        let rows = 50;
        let mut block = SparseDeriv::linear(rows, 8, |r, e| e.push((r % 8, 1.0)));
        let mut expected: Vec<Vec<usize>> = (0..rows).map(|r| vec![r % 8]).collect();
        for round in 0..6 {
            for (r, row) in expected.iter_mut().enumerate() {
                *row = (0..8).filter(|c| (c + r + round) % 3 == 0).take((r + round) % 5).collect();
                block.replace_row(r, row, &vec![round as f64; row.len()]);
            }
            let mut united = block.clone();
            united.unite_row(round, &[7]);
            assert!(united.row(round).0.contains(&7) && united.row(round).0.is_sorted());
        }
        assert!((0..rows).all(|r| block.row(r).0 == &expected[r][..]));
        let whole = SparseDeriv::linear(rows, 8, |r, e| e.extend(expected[r].iter().map(|&c| (c, 5.0))));
        assert_eq!(block, whole);
        let (ptr, cols, vals) = block.csr();
        assert_eq!((ptr.len(), cols.len()), (rows + 1, vals.len()));
        assert!((0..rows).all(|r| cols[ptr[r]..ptr[r + 1]] == expected[r][..]));
    }
}
