//! Sparsity patterns: the boolean structure of an m x n Jacobian.
//!
//! A pattern is held both row-wise (CSR) and column-wise (CSC): colouring walks the rows of a column
//! and the columns of a row, and decompression fills the result column by column. Indices within a
//! row or column are sorted and unique, so two patterns are equal exactly when their structures are.

use crate::value::SparseMatrix;

/// One compressed orientation: line `k` holds `index[start[k]..start[k + 1]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Compressed {
    start: Vec<usize>,
    index: Vec<usize>,
}

impl Compressed {
    fn from_lines<L: AsRef<[usize]>>(lines: &[L]) -> Compressed {
        let mut start = Vec::with_capacity(lines.len() + 1);
        start.push(0);
        let mut index = Vec::with_capacity(lines.iter().map(|l| l.as_ref().len()).sum());
        for line in lines {
            index.extend_from_slice(line.as_ref());
            start.push(index.len());
        }
        Compressed { start, index }
    }

    fn line_count(&self) -> usize {
        self.start.len() - 1
    }

    fn line(&self, k: usize) -> &[usize] {
        &self.index[self.start[k]..self.start[k + 1]]
    }

    /// Sorts each line and drops repeats, in place. Lines are short in practice (a Jacobian row
    /// reads few unknowns), so sorting them beats a counting sort over the whole width.
    fn normalize_lines(&mut self) {
        let mut kept = 0;
        let mut line_begin = 0;
        for line in 0..self.line_count() {
            let line_end = self.start[line + 1];
            self.index[line_begin..line_end].sort_unstable();
            for k in line_begin..line_end {
                if k == line_begin || self.index[k] != self.index[k - 1] {
                    self.index[kept] = self.index[k];
                    kept += 1;
                }
            }
            line_begin = line_end;
            self.start[line + 1] = kept;
        }
        self.index.truncate(kept);
    }

    /// The other orientation, by counting sort: O(nnz + lines + width). Lines are visited in
    /// order, so the result's indices come out sorted.
    fn transposed(&self, width: usize) -> Compressed {
        let mut start = vec![0; width + 1];
        for &idx in &self.index {
            start[idx + 1] += 1;
        }
        for k in 0..width {
            start[k + 1] += start[k];
        }
        let mut next_slot = start[..width].to_vec();
        let mut index = vec![0; self.index.len()];
        for line in 0..self.line_count() {
            for &idx in self.line(line) {
                index[next_slot[idx]] = line;
                next_slot[idx] += 1;
            }
        }
        Compressed { start, index }
    }
}

/// Boolean structure of an `nrows x ncols` matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    nrows: usize,
    ncols: usize,
    by_row: Compressed,
    by_col: Compressed,
}

impl Pattern {
    /// From the column indices (0-based) of each row; rows may be unsorted and repeat indices.
    /// O(nnz log(max row nnz) + nrows + ncols). Panics if an index is not below `ncols`.
    pub fn from_rows<R: AsRef<[usize]>>(ncols: usize, rows: &[R]) -> Pattern {
        Pattern::from_raw_rows(rows.len(), ncols, Compressed::from_lines(rows))
    }

    /// From a column-major `nrows x ncols` boolean matrix.
    pub fn from_dense(nrows: usize, ncols: usize, entries: &[bool]) -> Pattern {
        assert_eq!(entries.len(), nrows * ncols, "dense pattern size");
        let columns: Vec<Vec<usize>> = (0..ncols).map(|j| (0..nrows).filter(|&i| entries[j * nrows + i]).collect()).collect();
        Pattern::from_rows(nrows, &columns).transpose()
    }

    /// The stored entries of a sparse matrix, explicit zeros included: its structure, not its values.
    pub fn from_sparse(matrix: &SparseMatrix) -> Pattern {
        Pattern::from_csc(matrix.nrows(), matrix.ncols(), matrix.colptr(), matrix.rowind())
    }

    /// From compressed sparse row arrays (`row_start[0] == 0`); column indices may be unsorted and
    /// repeated.
    pub fn from_csr(nrows: usize, ncols: usize, row_start: &[usize], col_index: &[usize]) -> Pattern {
        assert!(row_start.len() == nrows + 1 && row_start[0] == 0, "CSR row pointers");
        let raw = Compressed { start: row_start.to_vec(), index: col_index[..row_start[nrows]].to_vec() };
        Pattern::from_raw_rows(nrows, ncols, raw)
    }

    /// From compressed sparse column arrays (`col_start[0] == 0`); row indices may be unsorted and
    /// repeated.
    pub fn from_csc(nrows: usize, ncols: usize, col_start: &[usize], row_index: &[usize]) -> Pattern {
        Pattern::from_csr(ncols, nrows, col_start, row_index).transpose()
    }

    /// Normalises raw rows (unsorted, repeated indices) into the canonical two-way form.
    /// Panics if an index is not below `ncols`.
    fn from_raw_rows(nrows: usize, ncols: usize, mut by_row: Compressed) -> Pattern {
        if let Some(&bad) = by_row.index.iter().find(|&&j| j >= ncols) {
            panic!("pattern index {bad} out of range for {ncols} columns");
        }
        by_row.normalize_lines();
        let by_col = by_row.transposed(ncols);
        Pattern { nrows, ncols, by_row, by_col }
    }

    pub fn nrows(&self) -> usize {
        self.nrows
    }

    pub fn ncols(&self) -> usize {
        self.ncols
    }

    pub fn nnz(&self) -> usize {
        self.by_row.index.len()
    }

    /// Sorted column indices of row `i`.
    pub fn row(&self, i: usize) -> &[usize] {
        self.by_row.line(i)
    }

    /// Sorted row indices of column `j`.
    pub fn col(&self, j: usize) -> &[usize] {
        self.by_col.line(j)
    }

    /// Compressed sparse row arrays `(row_start, col_index)`.
    pub fn csr(&self) -> (&[usize], &[usize]) {
        (&self.by_row.start, &self.by_row.index)
    }

    /// Compressed sparse column arrays `(col_start, row_index)`.
    pub fn csc(&self) -> (&[usize], &[usize]) {
        (&self.by_col.start, &self.by_col.index)
    }

    /// Most nonzeros in one row: no column colouring can use fewer colours.
    pub fn max_row_nnz(&self) -> usize {
        (0..self.nrows).map(|i| self.row(i).len()).max().unwrap_or(0)
    }

    /// The transposed structure; O(1) beyond moving the two orientations.
    pub fn transpose(self) -> Pattern {
        Pattern { nrows: self.ncols, ncols: self.nrows, by_row: self.by_col, by_col: self.by_row }
    }

    /// Entries present in either pattern. Panics if the sizes differ.
    pub fn union(&self, other: &Pattern) -> Pattern {
        assert_eq!((self.nrows, self.ncols), (other.nrows, other.ncols), "pattern union sizes");
        let rows: Vec<Vec<usize>> = (0..self.nrows).map(|i| [self.row(i), other.row(i)].concat()).collect();
        Pattern::from_rows(self.ncols, &rows)
    }

    /// Column-major boolean matrix (for tests and small displays).
    pub fn to_dense(&self) -> Vec<bool> {
        let mut dense = vec![false; self.nrows * self.ncols];
        for j in 0..self.ncols {
            for &i in self.col(j) {
                dense[j * self.nrows + i] = true;
            }
        }
        dense
    }
}
