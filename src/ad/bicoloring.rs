//! Bidirectional partitioning of a Jacobian pattern (after Coleman and Verma): the dense rows are
//! computed by reverse passes `W' J`, the other rows by forward passes `J S`.
//!
//! Every row goes wholly to one side, which keeps the determination direct:
//! - a reverse row group holds rows that share no column, so `(W' J)(g, j)` is the single entry of
//!   column j in the group's rows;
//! - the columns are coloured on the forward rows only (entries of reverse rows do not count), so
//!   `(J S)(i, c)` of a forward row i is its single entry of colour c.
//!
//! Column colouring alone needs at least as many passes as the densest row has entries: one full row
//! (a sum constraint, an arrowhead) costs n passes. Sending the rows above a threshold to reverse mode
//! costs one pass per row group instead. The threshold is chosen by the passes it needs: rows are
//! taken in order of decreasing length, and each prefix has a lower bound (the densest column among
//! the reverse rows plus the longest forward row); prefixes are coloured in order of their bound until
//! no bound can beat the best found.

use super::coloring::{Coloring, color_columns};
use super::pattern::Pattern;

/// A reverse pass re-runs the primal while recording a tape, then sweeps it back: it is weighed as
/// this many forward directions when the partitions are compared.
pub const REVERSE_PASS_WEIGHT: usize = 2;

/// Most partitions coloured before the best so far is kept: each costs two greedy colourings.
const MAX_CANDIDATES: usize = 6;

/// A bidirectional partition: rows in `reverse_rows` by reverse passes, the others by forward ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bicoloring {
    /// The reverse pass (0-based, below `nreverse`) of each row; `None` for a forward row.
    pub row_groups: Vec<Option<usize>>,
    pub nreverse: usize,
    /// The forward rows' column colouring (`ncolors` is 0 when every row is a reverse row).
    pub columns: Coloring,
}

impl Bicoloring {
    /// Forward and reverse passes together.
    pub fn passes(&self) -> usize {
        self.columns.ncolors + self.nreverse
    }

    fn weighted_cost(&self) -> usize {
        self.columns.ncolors + REVERSE_PASS_WEIGHT * self.nreverse
    }

    /// The `m x nreverse` weights `W` (column-major): `W(i, group(i)) = 1`.
    pub fn weights(&self) -> Vec<f64> {
        let m = self.row_groups.len();
        let mut w = vec![0.0; m * self.nreverse];
        for (i, group) in self.row_groups.iter().enumerate() {
            if let Some(g) = group {
                w[g * m + i] = 1.0;
            }
        }
        w
    }

    /// Where entry (i, j) of J is read from, in `[J S (m x ncolors); J' W (n x nreverse)]` stored one
    /// after the other, column-major.
    pub fn source(&self, nrows: usize, ncols: usize, i: usize, j: usize) -> usize {
        match self.row_groups[i] {
            Some(g) => nrows * self.columns.ncolors + g * ncols + j,
            None => self.columns.colors[j] * nrows + i,
        }
    }
}

/// The bidirectional partition with the fewest weighted passes, if it beats column colouring alone
/// (`column_bound`: the passes column colouring needs, or a lower bound on them); None otherwise.
pub fn bicolor(pattern: &Pattern, column_bound: usize) -> Option<Bicoloring> {
    let rows = by_length(pattern);
    let mut best: Option<Bicoloring> = None;
    let mut best_cost = column_bound;
    for (bound, reverse_count) in candidates(pattern, &rows) {
        if bound >= best_cost {
            break;
        }
        let partition = partition(pattern, &rows[..reverse_count]);
        if partition.weighted_cost() < best_cost {
            best_cost = partition.weighted_cost();
            best = Some(partition);
        }
    }
    best
}

/// Row indices by decreasing number of entries (ties in index order).
fn by_length(pattern: &Pattern) -> Vec<usize> {
    let mut rows: Vec<usize> = (0..pattern.nrows()).collect();
    rows.sort_by_key(|&i| std::cmp::Reverse(pattern.row(i).len()));
    rows
}

/// `(lower bound on the weighted cost, number of reverse rows)` for each prefix of `rows` with
/// at least one reverse row, the best bounds first (at most `MAX_CANDIDATES`). O(nnz + m log m).
fn candidates(pattern: &Pattern, rows: &[usize]) -> Vec<(usize, usize)> {
    let mut column_count = vec![0usize; pattern.ncols()];
    let mut densest_column = 0;
    let mut bounds = Vec::new();
    for (k, &i) in rows.iter().enumerate() {
        if pattern.row(i).is_empty() {
            break;
        }
        for &j in pattern.row(i) {
            column_count[j] += 1;
            densest_column = densest_column.max(column_count[j]);
        }
        let longest_forward = rows.get(k + 1).map_or(0, |&next| pattern.row(next).len());
        bounds.push((REVERSE_PASS_WEIGHT * densest_column + longest_forward, k + 1));
    }
    bounds.sort_unstable();
    bounds.truncate(MAX_CANDIDATES);
    bounds
}

/// `reverse` rows grouped by a greedy colouring (rows sharing a column apart), the rest column-coloured.
fn partition(pattern: &Pattern, reverse: &[usize]) -> Bicoloring {
    let (m, n) = (pattern.nrows(), pattern.ncols());
    let mut is_reverse = vec![false; m];
    reverse.iter().for_each(|&i| is_reverse[i] = true);
    let side = |keep: bool| -> Pattern {
        let rows: Vec<&[usize]> = (0..m).map(|i| if is_reverse[i] == keep { pattern.row(i) } else { &[] }).collect();
        Pattern::from_rows(n, &rows)
    };
    let row_coloring = color_columns(&side(true).transpose());
    let row_groups = (0..m).map(|i| is_reverse[i].then(|| row_coloring.colors[i])).collect();
    let forward = side(false);
    let mut columns = color_columns(&forward);
    if forward.nnz() == 0 {
        columns.ncolors = 0;
    }
    let nreverse = if reverse.is_empty() { 0 } else { row_coloring.ncolors };
    Bicoloring { row_groups, nreverse, columns }
}

/// Whether every partition of `pattern` needs more than `budget` passes: a row with more entries
/// than that cannot be a forward row (its entries need distinct colours), and one reverse group holds
/// at most `n / (budget + 1)` such rows (its rows share no column). O(m).
fn passes_exceed(pattern: &Pattern, budget: usize) -> bool {
    let long_rows = (0..pattern.nrows()).filter(|&i| pattern.row(i).len() > budget).count();
    let per_group = pattern.ncols() / (budget + 1);
    long_rows > 0 && (per_group == 0 || long_rows.div_ceil(per_group) > budget)
}

/// How a Jacobian pattern is compressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Partition {
    Columns(Coloring),
    Bidirectional(Bicoloring),
}

impl Partition {
    /// Column colouring, or the bidirectional partition where it needs fewer weighted passes; one
    /// colour per column, without colouring, where every partition needs more than `budget` passes
    /// (a near-full pattern, such as `inv(K)`'s: colouring it costs O(m n^2) and saves nothing).
    pub fn choose(pattern: &Pattern, budget: usize) -> Partition {
        if passes_exceed(pattern, budget) {
            return Partition::Columns(Coloring::one_per_column(pattern.ncols()));
        }
        if let Some(b) = bicolor(pattern, pattern.max_row_nnz()) {
            return Partition::Bidirectional(b);
        }
        let columns = color_columns(pattern);
        if columns.ncolors == pattern.max_row_nnz() {
            return Partition::Columns(columns);
        }
        match bicolor(pattern, columns.ncolors) {
            Some(b) => Partition::Bidirectional(b),
            None => Partition::Columns(columns),
        }
    }

    /// Forward and reverse passes together.
    pub fn passes(&self) -> usize {
        match self {
            Partition::Columns(c) => c.ncolors,
            Partition::Bidirectional(b) => b.passes(),
        }
    }
}
