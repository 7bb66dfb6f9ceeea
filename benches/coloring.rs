//! Pattern construction, colouring, seeding and decompression on the Brusselator Jacobian pattern
//! (2N unknowns). Run: `cargo bench --bench coloring`. Prints the best of a few runs per stage and
//! the time per structural nonzero, which should stay flat as n grows (near-linear cost).

#[path = "../tests/patterns/mod.rs"]
mod patterns;

use msad::ad::coloring::{color_columns, decompress, seed_matrix};
use msad::ad::pattern::Pattern;
use std::hint::black_box;
use std::time::{Duration, Instant};

const RUNS: usize = 5;

/// Best wall time of `RUNS` calls, and the last result.
fn best_of<T>(mut stage: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut result = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        let value = black_box(stage());
        best = best.min(start.elapsed());
        result = Some(value);
    }
    (best, result.expect("RUNS > 0"))
}

fn main() {
    println!(
        "{:>9} {:>9} {:>7} | {:>22} {:>22} {:>22} | {:>22} | {:>22}",
        "unknowns", "nnz", "colours", "from_rows", "color_columns", "seed_matrix", "total", "decompress"
    );
    for unknowns in [10_000, 100_000, 1_000_000] {
        let rows = patterns::brusselator(unknowns / 2);
        let (pattern_time, pattern) = best_of(|| Pattern::from_rows(unknowns, &rows));
        let (coloring_time, coloring) = best_of(|| color_columns(&pattern));
        let (seed_time, _) = best_of(|| seed_matrix(&coloring));
        // B = J * S for J with every structural entry 1: each row sums its entries per colour.
        let mut compressed = vec![0.0; unknowns * coloring.ncolors];
        for i in 0..unknowns {
            for &j in pattern.row(i) {
                compressed[coloring.colors[j] * unknowns + i] += 1.0;
            }
        }
        let (decompress_time, _) = best_of(|| decompress(&pattern, &coloring, &compressed).unwrap());
        let nnz = pattern.nnz();
        let show = |t: Duration| format!("{:8.2} ms {:6.1} ns/nz", t.as_secs_f64() * 1e3, t.as_secs_f64() * 1e9 / nnz as f64);
        println!(
            "{unknowns:>9} {nnz:>9} {:>7} | {:>22} {:>22} {:>22} | {:>22} | {:>22}",
            coloring.ncolors,
            show(pattern_time),
            show(coloring_time),
            show(seed_time),
            show(pattern_time + coloring_time + seed_time),
            show(decompress_time)
        );
    }
}
