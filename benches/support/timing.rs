//! Timing shared by the engine benches (each bench is its own crate and includes this file).

use std::time::Instant;

/// The shortest of `runs` timed calls of `f`, in seconds.
pub fn best_of(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}
