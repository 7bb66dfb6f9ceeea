//! Symmetric compression of sparse Hessians: a star colouring of the adjacency graph of H (Gebremedhin,
//! Manne, Pothen 2005) lets each entry be read directly from `B = H * S`, using H's symmetry, with
//! fewer colours than a column colouring; the distance-2 column colouring (which never needs symmetry)
//! is kept when the star colouring needs as many colours.

use super::coloring::{Coloring, Ordering, color_columns, gather_nonzeros};
use super::ordering::{incidence_degree, largest_first, neighbour_counts, smallest_last};
use super::pattern::Pattern;
use crate::exec::value::SparseMatrix;
use std::collections::HashMap;

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
        if clique_bound(&pattern) < columns.ncolors {
            let star = star_coloring(&pattern);
            if star.ncolors < columns.ncolors
                && let Some(sources) = sources(&pattern, &star)
            {
                return SymmetricCompression { pattern, coloring: star, sources };
            }
        }
        let sources = sources(&pattern, &columns).expect("a column colouring reads every entry directly");
        SymmetricCompression { pattern, coloring: columns, sources }
    }

    /// H from `B = H * S`; entries whose value is exactly zero are not stored (as in `sparse`).
    pub fn decompress(&self, compressed: &[f64]) -> SparseMatrix {
        gather_nonzeros(&self.pattern, compressed, |k, _, _| self.sources[k])
    }

    /// H as a full matrix (column-major) from `B = H * S`, written straight from B: a dense Hessian
    /// would otherwise be built sparse and then copied full.
    pub fn decompress_full(&self, compressed: &[f64]) -> Vec<f64> {
        let n = self.pattern.ncols();
        let mut full = vec![0.0; n * n];
        self.entries(compressed).for_each(|(i, j, value)| full[j * n + i] = value);
        full
    }

    /// H's structural entries `(row, column, value)`, column by column, read from `B = H * S`.
    pub fn entries<'a>(&'a self, compressed: &'a [f64]) -> impl Iterator<Item = (usize, usize, f64)> + 'a {
        let (col_start, row_index) = self.pattern.csc();
        (0..self.pattern.ncols())
            .flat_map(move |j| (col_start[j]..col_start[j + 1]).map(move |k| (row_index[k], j, compressed[self.sources[k]])))
    }
}

/// A lower bound on the colours of any proper colouring of H's graph (a star colouring is one): the
/// vertices adjacent to every other form a clique, with any further vertex. It spares the star
/// colouring's walks (O(n^3) on a dense H) where they cannot beat the column colouring.
fn clique_bound(pattern: &Pattern) -> usize {
    let n = pattern.ncols();
    let adjacent_to_all = (0..n).filter(|&i| pattern.row(i).iter().filter(|&&j| j != i).count() + 1 == n).count();
    let off_diagonal = (0..n).any(|i| pattern.row(i).iter().any(|&j| j != i));
    match adjacent_to_all {
        0 => 1 + usize::from(off_diagonal),
        k => n.min(k + 1),
    }
}

/// Where each entry (i, j) is read: `B(i, colour(j))` when j is the only column of its colour in row i,
/// else `B(j, colour(i))` when i is the only one of its colour in row j; None when neither holds.
/// O(nnz): entries are visited column by column, each row's next entry found by a cursor.
fn sources(pattern: &Pattern, coloring: &Coloring) -> Option<Vec<usize>> {
    let n = pattern.ncols();
    let colors = &coloring.colors;
    let (row_start, _) = pattern.csr();
    // unique[k]: the colour of row entry k (row-major) appears once in its row.
    let mut count = vec![0usize; coloring.ncolors];
    let mut unique = Vec::with_capacity(pattern.nnz());
    for i in 0..n {
        pattern.row(i).iter().for_each(|&j| count[colors[j]] += 1);
        unique.extend(pattern.row(i).iter().map(|&j| count[colors[j]] == 1));
        pattern.row(i).iter().for_each(|&j| count[colors[j]] = 0);
    }
    // Row entry of (j, i): the pattern is symmetric, so row j lists what column j does, in order.
    let mirrored = |j: usize, i: usize, offset: usize| match pattern.row(j).get(offset) {
        Some(&at) if at == i => Some(row_start[j] + offset),
        _ => pattern.row(j).binary_search(&i).ok().map(|k| row_start[j] + k),
    };
    let mut cursor = row_start[..n].to_vec();
    let mut out = Vec::with_capacity(pattern.nnz());
    for j in 0..n {
        for (offset, &i) in pattern.col(j).iter().enumerate() {
            let entry = cursor[i];
            cursor[i] += 1;
            if unique[entry] {
                out.push(colors[j] * n + i);
            } else if mirrored(j, i, offset).is_some_and(|k| unique[k]) {
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
    // How many coloured neighbours of each vertex have each colour, by (vertex, colour).
    let mut coloured_neighbours: HashMap<(usize, usize), u32> = HashMap::new();
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
                // two-coloured path v - w - x - y when v takes colour(x): x has a neighbour y other
                // than w (which is one) of w's colour.
                if colors[w] == NONE || coloured_neighbours.get(&(x, colors[w])).is_some_and(|&count| count >= 2) {
                    forbidden[colors[x]] = v;
                }
            }
        }
        let color = (0..).find(|&c| forbidden[c] != v).expect("fewer colours than vertices");
        colors[v] = color;
        neighbours(v).for_each(|w| *coloured_neighbours.entry((w, color)).or_default() += 1);
        ncolors = ncolors.max(color + 1);
    }
    Coloring { colors, ncolors, ordering_used }
}
