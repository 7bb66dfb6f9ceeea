//! Symmetric compression of sparse Hessians: a star colouring of the adjacency graph of H (Gebremedhin,
//! Manne, Pothen 2005) lets each entry be read directly from `B = H * S`, using H's symmetry, with
//! fewer colours than a column colouring; the distance-2 column colouring (which never needs symmetry)
//! is kept when the star colouring needs as many colours.

use super::coloring::{Coloring, Ordering, color_columns, gather_nonzeros};
use super::ordering::{Graph, incidence_degree, largest_first, neighbour_counts, smallest_last};
use super::pattern::Pattern;
use crate::value::SparseMatrix;
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

/// Greedy star colouring (GMP 2005, algorithm 4.1) under the adjacency graph's largest-first,
/// smallest-last and incidence-degree orders and the natural one, the first with fewest colours kept:
/// adjacent vertices differ, and no path on four vertices is coloured with two colours. An order is
/// dropped as soon as it needs as many colours as the best so far: the natural order of an arrowhead
/// whose hub comes last gives every leaf its own colour, O(n^2) if run to the end.
fn star_coloring(pattern: &Pattern) -> Coloring {
    let n = pattern.ncols();
    let degrees = neighbour_counts(pattern, Graph::Adjacency);
    let max_degree = degrees.iter().copied().max().unwrap_or(0);
    let mut best: Option<Coloring> = None;
    for ordering in [Ordering::LargestFirst, Ordering::SmallestLast, Ordering::IncidenceDegree, Ordering::Natural] {
        let order = match ordering {
            Ordering::LargestFirst => largest_first(&degrees),
            Ordering::SmallestLast => smallest_last(pattern, Graph::Adjacency, &degrees),
            Ordering::IncidenceDegree => incidence_degree(pattern, Graph::Adjacency, max_degree),
            Ordering::Natural => (0..n).collect(),
        };
        let cap = best.as_ref().map_or(usize::MAX, |b| b.ncolors);
        if let Some(coloring) = greedy_star(pattern, order, ordering, cap) {
            best = Some(coloring);
        }
    }
    best.expect("the first order has no cap")
}

/// What a vertex about to be coloured must avoid is read from two lists per neighbour w, kept up to
/// date as vertices are coloured: for an uncoloured w, the colours around it (`around`); for a
/// coloured w, the colours of its coloured neighbours x that have a second neighbour of w's colour
/// (`closing`: colouring v like x would make y - x - w - v two-coloured). Each list holds at most one
/// entry per colour and event, so a vertex costs O(degree x colours), never a walk over a hub's
/// neighbours (which made an arrowhead O(n^2)). None once it needs `cap` colours.
fn greedy_star(pattern: &Pattern, order: Vec<usize>, ordering_used: Ordering, cap: usize) -> Option<Coloring> {
    const NONE: usize = usize::MAX;
    let n = pattern.ncols();
    let neighbours = |v: usize| pattern.row(v).iter().copied().filter(move |&w| w != v);
    let mut colors = vec![NONE; n];
    let mut forbidden = vec![NONE; n.max(1)];
    // By (vertex, colour): how many of its coloured neighbours have that colour, and the first one.
    let mut coloured_neighbours: HashMap<(usize, usize), (u32, usize)> = HashMap::new();
    let mut around: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut closing: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut ncolors = 0;
    for v in order {
        for w in neighbours(v) {
            let avoided = match colors[w] {
                NONE => &around[w],
                colour_of_w => {
                    forbidden[colour_of_w] = v;
                    &closing[w]
                }
            };
            avoided.iter().for_each(|&c| forbidden[c] = v);
        }
        let color = (0..).find(|&c| forbidden[c] != v).expect("fewer colours than vertices");
        if color + 1 >= cap {
            return None;
        }
        colors[v] = color;
        ncolors = ncolors.max(color + 1);
        for w in neighbours(v) {
            // v in the middle: its neighbours of w's colour number two or more.
            if colors[w] != NONE && coloured_neighbours.get(&(v, colors[w])).is_some_and(|&(count, _)| count >= 2) {
                closing[w].push(color);
            }
            // w in the middle: v is another neighbour of w with this colour.
            let (count, first) = coloured_neighbours.entry((w, color)).or_insert((0, v));
            *count += 1;
            match (*count, colors[w]) {
                (1, _) => around[w].push(color),
                (_, NONE) => {}
                (2, middle) => {
                    closing[*first].push(middle);
                    closing[v].push(middle);
                }
                (_, middle) => closing[v].push(middle),
            }
        }
    }
    Some(Coloring { colors, ncolors, ordering_used })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Symmetric scrambled patterns with a dense row and column (a hub) on some.
    fn symmetric_pattern(n: usize, salt: usize, hub: bool) -> Pattern {
        let mut rows: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
        for i in 0..n {
            for k in 0..(i + salt) % 4 {
                let j = (i * 7919 + k * k * 104_729 + salt) % n;
                rows[i].push(j);
                rows[j].push(i);
            }
        }
        if hub {
            (1..n).for_each(|i| {
                rows[0].push(i);
                rows[i].push(0);
            });
        }
        rows.iter_mut().for_each(|r| {
            r.sort_unstable();
            r.dedup();
        });
        Pattern::from_rows(n, &rows)
    }

    /// Proper, and no path a - b - c - d on two colours (checked on every path).
    fn assert_star(pattern: &Pattern, coloring: &Coloring) {
        let colors = &coloring.colors;
        let neighbours = |v: usize| pattern.row(v).iter().copied().filter(move |&w| w != v);
        for a in 0..pattern.ncols() {
            for b in neighbours(a) {
                assert_ne!(colors[a], colors[b], "adjacent {a}, {b} share a colour");
                for c in neighbours(b).filter(|&c| c != a && colors[c] == colors[a]) {
                    for d in neighbours(c).filter(|&d| d != b && d != a) {
                        assert_ne!(colors[d], colors[b], "path {a} - {b} - {c} - {d} on two colours");
                    }
                }
            }
        }
    }

    #[test]
    fn greedy_star_colourings_are_star_colourings() {
        for (n, salt, hub) in [(1, 0, false), (12, 1, false), (40, 3, true), (150, 2, false), (300, 5, true)] {
            let pattern = symmetric_pattern(n, salt, hub);
            let coloring = star_coloring(&pattern);
            assert_star(&pattern, &coloring);
            assert!(sources(&pattern, &coloring).is_some(), "every entry read directly");
        }
    }

    /// An arrowhead needs 2 colours (a star's star chromatic number), its hub first or last (where
    /// the natural order would give each leaf its own colour), and a path 3; in time linear in n.
    #[test]
    fn arrowhead_and_path_take_their_star_chromatic_numbers() {
        let n = 50_000;
        for hub in [0, n - 1] {
            let arrowhead: Vec<Vec<usize>> =
                (0..n).map(|i| if i == hub { (0..n).collect() } else { vec![i.min(hub), i.max(hub)] }).collect();
            assert_eq!(star_coloring(&Pattern::from_rows(n, &arrowhead)).ncolors, 2);
        }
        let path: Vec<Vec<usize>> = (0..n).map(|i| (i.saturating_sub(1)..(i + 2).min(n)).collect()).collect();
        assert_eq!(star_coloring(&Pattern::from_rows(n, &path)).ncolors, 3);
    }
}
