//! Test and benchmark problems: row lists of reference Jacobian patterns and a deterministic PRNG.
// Shared by tests/coloring.rs and benches/coloring.rs, which each use only part of it.
#![allow(dead_code)]

/// xorshift64*: deterministic, dependency-free, good enough for random test patterns.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `0..bound` (bound > 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
    /// Uniform in [1, 2): never zero, so test values never vanish by accident.
    pub fn nonzero_value(&mut self) -> f64 {
        1.0 + (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Rows of an `n x n` band: row i depends on columns i-lower ..= i+upper (clipped).
pub fn banded(n: usize, lower: usize, upper: usize) -> Vec<Vec<usize>> {
    (0..n).map(|i| (i.saturating_sub(lower)..=(i + upper).min(n - 1)).collect()).collect()
}

/// 1-D Brusselator with `points` grid points, unknowns ordered u1 v1 u2 v2 ...:
/// f_u(i) reads u(i-1), u(i), v(i), u(i+1); f_v(i) reads v(i-1), u(i), v(i), v(i+1).
pub fn brusselator(points: usize) -> Vec<Vec<usize>> {
    let (u, v) = (|i: usize| 2 * i, |i: usize| 2 * i + 1);
    let mut rows = Vec::with_capacity(2 * points);
    for i in 0..points {
        let inner = |neighbour: fn(usize) -> usize| {
            let mut cols = vec![u(i), v(i)];
            if i > 0 {
                cols.push(neighbour(i - 1));
            }
            if i + 1 < points {
                cols.push(neighbour(i + 1));
            }
            cols
        };
        rows.push(inner(u));
        rows.push(inner(v));
    }
    rows
}

/// 5-point Laplacian plus a diagonal reaction term on a `side x side` grid, row-major numbering.
pub fn laplacian_2d(side: usize) -> Vec<Vec<usize>> {
    let index = |x: usize, y: usize| y * side + x;
    let mut rows = Vec::with_capacity(side * side);
    for y in 0..side {
        for x in 0..side {
            let mut cols = vec![index(x, y)];
            if x > 0 {
                cols.push(index(x - 1, y));
            }
            if x + 1 < side {
                cols.push(index(x + 1, y));
            }
            if y > 0 {
                cols.push(index(x, y - 1));
            }
            if y + 1 < side {
                cols.push(index(x, y + 1));
            }
            rows.push(cols);
        }
    }
    rows
}

/// `nrows` rows of up to `max_per_row` random columns below `ncols`, duplicates and all.
pub fn random_rows(rng: &mut Rng, nrows: usize, ncols: usize, max_per_row: usize) -> Vec<Vec<usize>> {
    (0..nrows)
        .map(|_| {
            let count = rng.below(max_per_row + 1);
            (0..count).map(|_| rng.below(ncols)).collect()
        })
        .collect()
}
