//! Vertex orderings for greedy colouring, on one of two graphs of a pattern (see `Graph`). Each
//! ordering costs O(the size of that graph), and no more.

use super::pattern::Pattern;
use std::cmp::Reverse;

/// The graph whose vertices (the pattern's columns) an ordering walks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Graph {
    /// Columns adjacent when they share a row (distance 2 in the bipartite row/column graph): a
    /// Jacobian's column colouring. O(sum over rows of nnz(row)^2).
    ColumnIntersection,
    /// A symmetric pattern's adjacency graph, i and j adjacent when (i, j) is an entry: a Hessian's
    /// star colouring. O(nnz), where the column intersection graph of an arrowhead has n^2 edges.
    Adjacency,
}

/// Visits the distinct neighbours of a column, with a stamp per column instead of a cleared set.
pub(crate) struct NeighbourWalker {
    stamp_of: Vec<usize>,
    stamp: usize,
    graph: Graph,
}

impl NeighbourWalker {
    pub(crate) fn new(ncols: usize, graph: Graph) -> NeighbourWalker {
        NeighbourWalker { stamp_of: vec![0; ncols], stamp: 0, graph }
    }

    /// Calls `visit` once for every neighbour of `column` in the walker's graph.
    pub(crate) fn for_each(&mut self, pattern: &Pattern, column: usize, mut visit: impl FnMut(usize)) {
        if self.graph == Graph::Adjacency {
            // A row lists each column once.
            pattern.row(column).iter().filter(|&&other| other != column).for_each(|&other| visit(other));
            return;
        }
        self.stamp += 1;
        self.stamp_of[column] = self.stamp;
        for &row in pattern.col(column) {
            for &other in pattern.row(row) {
                if self.stamp_of[other] != self.stamp {
                    self.stamp_of[other] = self.stamp;
                    visit(other);
                }
            }
        }
    }
}

/// Number of neighbours of every column in `graph`.
pub(crate) fn neighbour_counts(pattern: &Pattern, graph: Graph) -> Vec<usize> {
    let mut walker = NeighbourWalker::new(pattern.ncols(), graph);
    (0..pattern.ncols())
        .map(|j| {
            let mut count = 0;
            walker.for_each(pattern, j, |_| count += 1);
            count
        })
        .collect()
}

/// Columns by decreasing degree; equal degrees keep index order.
pub(crate) fn largest_first(degrees: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..degrees.len()).collect();
    order.sort_by_key(|&j| Reverse(degrees[j]));
    order
}

/// Repeatedly removes a column of least remaining degree; colours them in reverse removal order.
pub(crate) fn smallest_last(pattern: &Pattern, graph: Graph, degrees: &[usize]) -> Vec<usize> {
    let mut order = removal_order(pattern, graph, degrees.to_vec());
    order.reverse();
    order
}

/// Repeatedly picks the column with the most already-picked neighbours.
pub(crate) fn incidence_degree(pattern: &Pattern, graph: Graph, max_degree: usize) -> Vec<usize> {
    // Key = max_degree - picked neighbours, so the most incident column has the least key.
    removal_order(pattern, graph, vec![max_degree; pattern.ncols()])
}

/// Pops columns by least key, lowering by one the key of every not-yet-popped neighbour.
fn removal_order(pattern: &Pattern, graph: Graph, keys: Vec<usize>) -> Vec<usize> {
    let mut queue = MinKeyQueue::new(keys);
    let mut walker = NeighbourWalker::new(pattern.ncols(), graph);
    let mut order = Vec::with_capacity(pattern.ncols());
    while let Some(column) = queue.pop_min() {
        walker.for_each(pattern, column, |other| {
            if queue.contains(other) {
                queue.decrement(other);
            }
        });
        order.push(column);
    }
    order
}

/// Vertices kept in one array sorted by key, with the start of each key's run (Matula-Beck bins):
/// pop-min and decrement-by-one are O(1).
///
/// Invariant: popped vertices fill `order[..popped]`; every remaining vertex `v` lies in
/// `order[bin_start[key[v]]..bin_start[key[v] + 1]]`. A pop takes the front of the least bin and
/// moves that bin's start past it; a decrement swaps the vertex to the front of its bin and moves
/// the boundary, so it joins the end of the bin below.
struct MinKeyQueue {
    key: Vec<usize>,
    order: Vec<usize>,
    position: Vec<usize>,
    bin_start: Vec<usize>,
    popped: usize,
}

impl MinKeyQueue {
    fn new(key: Vec<usize>) -> MinKeyQueue {
        let max_key = key.iter().copied().max().unwrap_or(0);
        let mut bin_start = vec![0; max_key + 2];
        for &k in &key {
            bin_start[k + 1] += 1;
        }
        for k in 0..=max_key {
            bin_start[k + 1] += bin_start[k];
        }
        let mut next_slot = bin_start.clone();
        let mut order = vec![0; key.len()];
        let mut position = vec![0; key.len()];
        for (v, &k) in key.iter().enumerate() {
            position[v] = next_slot[k];
            order[next_slot[k]] = v;
            next_slot[k] += 1;
        }
        MinKeyQueue { key, order, position, bin_start, popped: 0 }
    }

    fn contains(&self, v: usize) -> bool {
        self.position[v] >= self.popped
    }

    fn pop_min(&mut self) -> Option<usize> {
        let v = *self.order.get(self.popped)?;
        let k = self.key[v];
        self.popped += 1;
        self.bin_start[k] = self.popped;
        Some(v)
    }

    /// Moves `v` to the front of its bin, then shifts the bin boundary past it.
    fn decrement(&mut self, v: usize) {
        let k = self.key[v];
        debug_assert!(k > 0, "key of a remaining neighbour is positive");
        let front = self.bin_start[k];
        let displaced = self.order[front];
        let old_position = self.position[v];
        self.order.swap(front, old_position);
        self.position[displaced] = old_position;
        self.position[v] = front;
        self.bin_start[k] += 1;
        self.key[v] = k - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scrambled but deterministic rows: a few columns per row, spread by multiplicative hashing.
    fn scrambled_pattern(nrows: usize, ncols: usize, salt: usize) -> Pattern {
        let rows: Vec<Vec<usize>> =
            (0..nrows).map(|i| (0..(i + salt) % 5 + 1).map(|k| (i * 7919 + k * k * 104_729 + salt) % ncols).collect()).collect();
        Pattern::from_rows(ncols, &rows)
    }

    fn adjacency(pattern: &Pattern, graph: Graph) -> Vec<Vec<usize>> {
        let mut walker = NeighbourWalker::new(pattern.ncols(), graph);
        (0..pattern.ncols())
            .map(|j| {
                let mut neighbours = Vec::new();
                walker.for_each(pattern, j, |k| neighbours.push(k));
                neighbours
            })
            .collect()
    }

    /// Replays `picks` on the graph; `score(picked neighbours, remaining neighbours)` of each pick
    /// must be the least among the columns not yet picked.
    fn assert_greedy_by(pattern: &Pattern, graph: Graph, picks: &[usize], score: impl Fn(usize, usize) -> usize) {
        let adjacency = adjacency(pattern, graph);
        let mut picked = vec![false; pattern.ncols()];
        let score_of = |j: usize, picked: &[bool]| {
            let done = adjacency[j].iter().filter(|&&k| picked[k]).count();
            score(done, adjacency[j].len() - done)
        };
        let mut sorted_picks = picks.to_vec();
        sorted_picks.sort_unstable();
        assert_eq!(sorted_picks, (0..pattern.ncols()).collect::<Vec<_>>());
        for &pick in picks {
            let best = (0..pattern.ncols()).filter(|&j| !picked[j]).map(|j| score_of(j, &picked)).min();
            assert_eq!(Some(score_of(pick, &picked)), best);
            picked[pick] = true;
        }
    }

    #[test]
    fn orderings_follow_their_definitions() {
        let cases = [(1, 1, 1), (10, 7, 3), (40, 40, 5), (80, 33, 11), (200, 150, 2)];
        for ((nrows, ncols, salt), graph) in cases.into_iter().flat_map(|c| [(c, Graph::ColumnIntersection), (c, Graph::Adjacency)]) {
            let pattern = match graph {
                Graph::ColumnIntersection => scrambled_pattern(nrows, ncols, salt),
                // A symmetric pattern: the scrambled one's column intersection graph.
                Graph::Adjacency => {
                    let rows = adjacency(&scrambled_pattern(nrows, ncols, salt), Graph::ColumnIntersection);
                    Pattern::from_rows(ncols, &rows)
                }
            };
            let degrees = neighbour_counts(&pattern, graph);
            assert_eq!(degrees, adjacency(&pattern, graph).iter().map(Vec::len).collect::<Vec<_>>());
            let max_degree = degrees.iter().copied().max().unwrap();

            let largest = largest_first(&degrees);
            assert!(largest.windows(2).all(|w| degrees[w[0]] >= degrees[w[1]]));

            let mut removals = smallest_last(&pattern, graph, &degrees);
            removals.reverse();
            assert_greedy_by(&pattern, graph, &removals, |_, remaining| remaining);
            assert_greedy_by(&pattern, graph, &incidence_degree(&pattern, graph, max_degree), |done, _| max_degree - done);
        }
    }
}
