//! Column colouring of sparse Jacobians (Curtis-Powell-Reid compression): columns that share no row
//! get the same colour, the forward sweep runs one direction per colour, and each Jacobian entry is
//! read back from the compressed product `B = J * S`.

use super::ordering::{Graph, incidence_degree, largest_first, neighbour_counts, smallest_last};
use super::pattern::Pattern;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::buffers;
use crate::value::{Array, SparseMatrix};

/// The vertex ordering the greedy colouring followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    LargestFirst,
    SmallestLast,
    IncidenceDegree,
    /// Index order: one colour per column, where a full row forces it or compression cannot pay
    /// (see `Partition::choose`).
    Natural,
}

/// A colour (0-based, below `ncolors`) for every column; same-coloured columns share no row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coloring {
    pub colors: Vec<usize>,
    pub ncolors: usize,
    pub ordering_used: Ordering,
}

impl Coloring {
    /// Every column its own colour (the identity seed).
    pub fn one_per_column(ncols: usize) -> Coloring {
        Coloring { colors: (0..ncols).collect(), ncolors: ncols, ordering_used: Ordering::Natural }
    }
}

/// Greedy distance-2 colouring under each ordering in turn, keeping the first with fewest colours;
/// stops early once the lower bound `max_row_nnz` is reached. O(sum over rows of nnz(row)^2).
pub fn color_columns(pattern: &Pattern) -> Coloring {
    let ncols = pattern.ncols();
    let lower_bound = pattern.max_row_nnz();
    if lower_bound == ncols {
        return Coloring::one_per_column(ncols);
    }
    let degrees = neighbour_counts(pattern, Graph::ColumnIntersection);
    let max_degree = degrees.iter().copied().max().unwrap_or(0);
    let mut best: Option<Coloring> = None;
    for ordering in [Ordering::LargestFirst, Ordering::SmallestLast, Ordering::IncidenceDegree] {
        let order = match ordering {
            Ordering::LargestFirst => largest_first(&degrees),
            Ordering::SmallestLast => smallest_last(pattern, Graph::ColumnIntersection, &degrees),
            Ordering::IncidenceDegree => incidence_degree(pattern, Graph::ColumnIntersection, max_degree),
            Ordering::Natural => unreachable!("not among the greedy orderings"),
        };
        let coloring = greedy(pattern, &order, ordering);
        if best.as_ref().is_none_or(|b| coloring.ncolors < b.ncolors) {
            best = Some(coloring);
        }
        if best.as_ref().is_some_and(|b| b.ncolors <= lower_bound) {
            break;
        }
    }
    refine(pattern, best.expect("at least one ordering ran"), lower_bound)
}

/// Passes of `refine` in a row that may find no fewer colours before it stops, and passes in all.
const REFINE_PATIENCE: usize = 4;
const REFINE_PASSES: usize = 24;

/// Culberson's iterated greedy: the greedy colouring of the columns taken class by class never needs
/// more colours than the classes (each class shares no row), and often fewer. Classes are taken in
/// reverse order and largest first, in turn (about one greedy pass each, on the first call only).
fn refine(pattern: &Pattern, mut best: Coloring, lower_bound: usize) -> Coloring {
    let (mut current, mut stale) = (best.clone(), 0);
    for pass in 0..REFINE_PASSES {
        if stale >= REFINE_PATIENCE || best.ncolors <= lower_bound {
            break;
        }
        current = greedy(pattern, &class_order(&current, pass % 2 == 0), best.ordering_used);
        if current.ncolors < best.ncolors {
            (best, stale) = (current.clone(), 0);
        } else {
            stale += 1;
        }
    }
    best
}

/// The columns class by class: the last colour's first (`reverse`), else the largest class first.
fn class_order(coloring: &Coloring, reverse: bool) -> Vec<usize> {
    let mut classes: Vec<Vec<usize>> = vec![vec![]; coloring.ncolors];
    coloring.colors.iter().enumerate().for_each(|(j, &c)| classes[c].push(j));
    match reverse {
        true => classes.reverse(),
        false => classes.sort_by_key(|class| std::cmp::Reverse(class.len())),
    }
    classes.concat()
}

/// Gives each column in turn the least colour no column sharing a row with it has yet.
fn greedy(pattern: &Pattern, order: &[usize], ordering_used: Ordering) -> Coloring {
    const UNCOLORED: usize = usize::MAX;
    let mut colors = vec![UNCOLORED; pattern.ncols()];
    // forbidden_for[c] == j: colour c is taken by a neighbour of column j (no clearing between columns).
    let mut forbidden_for = vec![UNCOLORED; pattern.ncols()];
    let mut ncolors = 0;
    for &j in order {
        for &row in pattern.col(j) {
            for &other in pattern.row(row) {
                if colors[other] != UNCOLORED {
                    forbidden_for[colors[other]] = j;
                }
            }
        }
        let color = (0..).find(|&c| forbidden_for[c] != j).expect("fewer colours than columns");
        colors[j] = color;
        ncolors = ncolors.max(color + 1);
    }
    Coloring { colors, ncolors, ordering_used }
}

/// The `n x ncolors` seed `S`: `S(j, colour(j)) = 1`, zero elsewhere.
pub fn seed_matrix(coloring: &Coloring) -> Array<f64> {
    let mut seed = Vec::new();
    append_seed(coloring, &mut seed);
    Array::new(vec![coloring.colors.len(), coloring.ncolors], seed)
}

/// Appends `S` (column-major) to `out`: zeros written and ones set, which costs less than copying a
/// kept `S` (read and write) on every compressed call.
pub fn append_seed(coloring: &Coloring, out: &mut Vec<f64>) {
    append_seed_columns(coloring, 0..coloring.ncolors, out);
}

/// Appends the columns `colours` of `S` (column-major) to `out`.
pub fn append_seed_columns(coloring: &Coloring, colours: std::ops::Range<usize>, out: &mut Vec<f64>) {
    let (n, start) = (coloring.colors.len(), out.len());
    out.resize(start + n * colours.len(), 0.0);
    for (j, &color) in coloring.colors.iter().enumerate() {
        if colours.contains(&color) {
            out[start + (color - colours.start) * n + j] = 1.0;
        }
    }
}

/// Recovers `J` from `compressed = J * S` (`m x ncolors`, column-major): `J(i,j) = B(i, colour(j))`
/// for each structural nonzero. Like Octave's `sparse`, entries whose value is exactly zero are not
/// stored; the structure itself stays available as the pattern.
///
/// Guard against a wrong pattern: a nonzero `B(i,c)` where row `i` has no entry of colour `c` is a
/// derivative the pattern misses (`msad:badPattern`). NaN does not count: `Inf * 0` in another
/// direction's product leaks NaN into colours the row does not touch.
pub fn decompress(pattern: &Pattern, coloring: &Coloring, compressed: &[f64]) -> Result<SparseMatrix> {
    check_outside_pattern(pattern, coloring, compressed)?;
    Ok(decompress_exact(pattern, coloring, compressed))
}

/// `decompress` without the guard, for a pattern that holds by construction (detected by msad on
/// this control path): one pass over the pattern, reading each entry straight from `B`.
pub fn decompress_exact(pattern: &Pattern, coloring: &Coloring, compressed: &[f64]) -> SparseMatrix {
    let nrows = pattern.nrows();
    assert_eq!(coloring.colors.len(), pattern.ncols(), "colouring and pattern column counts");
    assert_eq!(compressed.len(), nrows * coloring.ncolors, "compressed Jacobian size");
    gather_nonzeros(pattern, compressed, |_, i, j| coloring.colors[j] * nrows + i)
}

/// The sparse matrix (the pattern's size) of the pattern's entries, entry `k` (in column order, at
/// row `i` of column `j`) read from `compressed[source(k, i, j)]`; exact zeros are not stored (as
/// Octave's `sparse` does), in the same pass.
pub fn gather_nonzeros(pattern: &Pattern, compressed: &[f64], source: impl Fn(usize, usize, usize) -> usize) -> SparseMatrix {
    let (nrows, ncols) = (pattern.nrows(), pattern.ncols());
    let (col_start, row_index) = pattern.csc();
    let mut colptr = buffers::take(ncols + 1);
    let (mut rowind, mut values) = (buffers::take(row_index.len()), buffers::take(row_index.len()));
    rowind.resize(row_index.len(), 0);
    values.resize(row_index.len(), 0.0);
    // Every entry is written and the end moves past the non-zero ones only: no branch and no length
    // update per entry (pushing kept both in memory and was most of the time).
    let mut kept = 0;
    colptr.push(0);
    for j in 0..ncols {
        for k in col_start[j]..col_start[j + 1] {
            let i = row_index[k];
            let v = compressed[source(k, i, j)];
            rowind[kept] = i;
            values[kept] = v;
            kept += usize::from(v != 0.0);
        }
        colptr.push(kept);
    }
    rowind.truncate(kept);
    values.truncate(kept);
    SparseMatrix::new(nrows, ncols, colptr, rowind, values)
}

/// O(nnz + m * ncolors): one stamp per colour marks the colours each row touches.
fn check_outside_pattern(pattern: &Pattern, coloring: &Coloring, compressed: &[f64]) -> Result<()> {
    let nrows = pattern.nrows();
    let mut row_touching = vec![usize::MAX; coloring.ncolors];
    for i in 0..nrows {
        for &j in pattern.row(i) {
            row_touching[coloring.colors[j]] = i;
        }
        for (color, &touching) in row_touching.iter().enumerate() {
            let value = compressed[color * nrows + i];
            if touching != i && value != 0.0 && !value.is_nan() {
                return Err(Diagnostic::new(
                    ErrorKind::BadPattern,
                    format!(
                        "sparsity pattern is wrong: row {} of the Jacobian has a nonzero derivative ({value}) \
                         in colour group {}, where the pattern has no entry",
                        i + 1,
                        color + 1
                    ),
                )
                .with_hint("fix the sparsity pattern supplied, or set opts.sparsity = 'none'"));
            }
        }
    }
    Ok(())
}
