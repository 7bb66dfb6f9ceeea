//! Sparsity detection and colouring time on the Brusselator (`brusselator_rhs_vec.m`), n = 2N unknowns
//! from 1e4 to 1e6: the first call of msad_eval in 'auto' mode (parse, analysis, one sparse forward pass,
//! colouring) against a later compressed call, with the time per Jacobian nonzero to show the growth.

use msad::engine::{Engine, JacobianStorage, Options, PathHost, Request};
use msad::value::{Array, FunctionHandle, Value};
use std::path::PathBuf;
use std::time::Instant;

fn brusselator_init(n: usize) -> Vec<f64> {
    (1..=n).flat_map(|i| [1.0 + (2.0 * std::f64::consts::PI * i as f64 / (n as f64 + 1.0)).sin(), 3.0]).collect()
}

fn main() {
    let problems = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/octave/problems");
    println!("{:>9} {:>9} {:>12} {:>12} {:>12} {:>10}", "n", "nnz", "detect (ms)", "ns/nonzero", "compressed", "colours");
    for unknowns in [10_000, 100_000, 1_000_000] {
        let mut host = PathHost { dirs: vec![problems.clone()] };
        let mut engine = Engine::new();
        let request = |options: Options| Request {
            function: FunctionHandle::Named("brusselator_rhs_vec".into()),
            args: vec![Value::Double(Array::column(brusselator_init(unknowns / 2)))],
            options,
            nargout: 2,
        };
        let pattern_only = request(Options { jacobian: JacobianStorage::Pattern, ..Options::default() });
        let start = Instant::now();
        let detected = engine.evaluate(&mut host, &pattern_only).expect("detection");
        let detect = start.elapsed().as_secs_f64();
        let nnz = detected.jacobian.as_ref().map(|j| match j {
            Value::Sparse(s) => s.nnz(),
            _ => 0,
        });
        let line = detected.log.iter().find(|l| l.contains("colours")).cloned().unwrap_or_default();
        let colours = line.split(", ").nth(2).and_then(|s| s.split(' ').next()).unwrap_or("?").to_string();
        let start = Instant::now();
        engine.evaluate(&mut host, &request(Options::default())).expect("compressed");
        let compressed = start.elapsed().as_secs_f64();
        let nnz = nnz.unwrap_or(0);
        println!(
            "{:>9} {:>9} {:>12.1} {:>12.1} {:>12.1} {:>10}",
            unknowns,
            nnz,
            detect * 1e3,
            detect * 1e9 / nnz as f64,
            compressed * 1e3,
            colours
        );
    }
}
