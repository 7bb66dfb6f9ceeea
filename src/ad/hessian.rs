//! Symmetric compression of sparse Hessians: a star colouring of the adjacency graph of H (Gebremedhin,
//! Manne, Pothen 2005) lets each entry be read directly from `B = H * S`, using H's symmetry, with
//! fewer colours than a column colouring; the distance-2 column colouring (which never needs symmetry)
//! is kept when the star colouring needs as many colours.

use super::coloring::{Coloring, Ordering, color_columns, gather_nonzeros};
use super::ordering::{incidence_degree, largest_first, neighbour_counts, smallest_last};
use super::pattern::Pattern;
use crate::exec::value::SparseMatrix;

/// A Hessian pattern, its colouring, and for each structural entry (column by column) its position in
/// the compressed product `B` (`n x ncolors`, column-major).
#[derive(Clone, Debug)]
pub struct SymmetricCompression {
    pub pattern: Pattern,
    pub coloring: Coloring,
    sources: Vec<usize>,
}

impl SymmetricCompression {
    /// Colours the (structurally symmetric) pattern.
    pub fn new(pattern: Pattern) -> SymmetricCompression {
        let columns = color_columns(&pattern);
        let star = star_coloring(&pattern);
        if star.ncolors < columns.ncolors
            && let Some(sources) = sources(&pattern, &star)
        {
            return SymmetricCompression { pattern, coloring: star, sources };
        }
        let sources = sources(&pattern, &columns).expect("a column colouring reads every entry directly");
        SymmetricCompression { pattern, coloring: columns, sources }
    }

    /// H from `B = H * S`; entries whose value is exactly zero are not stored (as in `sparse`).
    pub fn decompress(&self, compressed: &[f64]) -> SparseMatrix {
        gather_nonzeros(&self.pattern, compressed, |k, _, _| self.sources[k])
    }
}

/// Where each entry (i, j) is read: `B(i, colour(j))` when j is the only column of its colour in row i,
/// else `B(j, colour(i))` when i is the only one of its colour in row j; None when neither holds.
fn sources(pattern: &Pattern, coloring: &Coloring) -> Option<Vec<usize>> {
    let n = pattern.ncols();
    let colors = &coloring.colors;
    // unique(i, c): colour c appears once in row i.
    let mut count = vec![0usize; coloring.ncolors];
    let unique_in_row: Vec<Vec<bool>> = (0..n)
        .map(|i| {
            pattern.row(i).iter().for_each(|&j| count[colors[j]] += 1);
            let unique = pattern.row(i).iter().map(|&j| count[colors[j]] == 1).collect();
            pattern.row(i).iter().for_each(|&j| count[colors[j]] = 0);
            unique
        })
        .collect();
    let unique = |i: usize, j: usize| pattern.row(i).binary_search(&j).is_ok_and(|k| unique_in_row[i][k]);
    let mut out = Vec::with_capacity(pattern.nnz());
    for j in 0..n {
        for &i in pattern.col(j) {
            if unique(i, j) {
                out.push(colors[j] * n + i);
            } else if unique(j, i) {
                out.push(colors[i] * n + j);
            } else {
                return None;
            }
        }
    }
    Some(out)
}

/// Greedy star colouring (GMP 2005, algorithm 4.1) under the column colouring's orderings and the
/// natural one, the first with fewest colours kept: adjacent vertices differ, and no path on four
/// vertices is coloured with two colours.
fn star_coloring(pattern: &Pattern) -> Coloring {
    let n = pattern.ncols();
    let degrees = neighbour_counts(pattern);
    let max_degree = degrees.iter().copied().max().unwrap_or(0);
    let orders = [
        (Ordering::Natural, (0..n).collect()),
        (Ordering::LargestFirst, largest_first(&degrees)),
        (Ordering::SmallestLast, smallest_last(pattern, &degrees)),
        (Ordering::IncidenceDegree, incidence_degree(pattern, max_degree)),
    ];
    orders.into_iter().map(|(o, order)| greedy_star(pattern, order, o)).min_by_key(|c| c.ncolors).expect("four orderings")
}

fn greedy_star(pattern: &Pattern, order: Vec<usize>, ordering_used: Ordering) -> Coloring {
    const NONE: usize = usize::MAX;
    let n = pattern.ncols();
    let neighbours = |v: usize| pattern.row(v).iter().copied().filter(move |&w| w != v);
    let mut colors = vec![NONE; n];
    let mut forbidden = vec![NONE; n.max(1)];
    let mut ncolors = 0;
    for v in order {
        for w in neighbours(v) {
            if colors[w] != NONE {
                forbidden[colors[w]] = v;
            }
        }
        for w in neighbours(v) {
            for x in neighbours(w).filter(|&x| x != v && colors[x] != NONE) {
                // An uncoloured w might take colour(x)'s partner later; a coloured one closes a
                // two-coloured path v - w - x - y when v takes colour(x).
                if colors[w] == NONE || neighbours(x).any(|y| y != w && colors[y] == colors[w]) {
                    forbidden[colors[x]] = v;
                }
            }
        }
        let color = (0..).find(|&c| forbidden[c] != v).expect("fewer colours than vertices");
        colors[v] = color;
        ncolors = ncolors.max(color + 1);
    }
    Coloring { colors, ncolors, ordering_used }
}
