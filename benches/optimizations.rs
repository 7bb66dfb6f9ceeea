//! Common-subexpression elimination and derivative caching of linear parts, each measured on a
//! problem made for it, with the optimisations on and off (`Options::unoptimized`), same run.

use msad::engine::{Engine, JacobianStorage, Mode, Options, PathHost, Request};
use msad::value::{Array, FunctionHandle, Value};
use std::time::Instant;

/// Median per-call time of `on` and `off` in seconds, prepared first, then timed in alternating rounds
/// so a burst of load on the machine falls on both.
fn alternating_medians(engine: &mut Engine, off: &Request, on: &Request, calls: usize) -> (f64, f64) {
    let mut host = PathHost { dirs: vec![] };
    let mut time = |request: &Request| {
        let start = Instant::now();
        engine.evaluate(&mut host, request).expect("call");
        start.elapsed().as_secs_f64()
    };
    time(off);
    time(on);
    let (mut offs, mut ons): (Vec<f64>, Vec<f64>) = (0..calls).map(|_| (time(off), time(on))).unzip();
    let median = |times: &mut Vec<f64>| {
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    };
    (median(&mut offs), median(&mut ons))
}

fn compare(label: &str, function: FunctionHandle, x: Vec<f64>, mode: Mode, jacobian: JacobianStorage) {
    let request = |unoptimized: bool| Request {
        function: function.clone(),
        args: vec![Value::Double(Array::column(x.clone()))],
        options: Options { jacobian, mode, unoptimized, ..Options::default() },
        nargout: 2,
    };
    let mut engine = Engine::new();
    let calls = 31;
    let (off, on) = alternating_medians(&mut engine, &request(true), &request(false), calls);
    println!("{label:<60} {:>10.3} ms {:>10.3} ms {:>8.2}x", off * 1e3, on * 1e3, off / on);
}

fn main() {
    println!("{:<60} {:>13} {:>13} {:>9}", "J+f, median of 31 alternating calls", "unoptimized", "optimized", "speed-up");
    let n = 1000;
    let x: Vec<f64> = (0..n).map(|i| 0.5 + 0.3 * (i as f64 * 0.1).sin()).collect();
    let brown = "@(x) sum((x(1:end-1).^2).^(x(2:end).^2 + 1) + (x(2:end).^2).^(x(1:end-1).^2 + 1))";
    // Forward mode: every repeated subexpression carries a 1 x n derivative row (reverse mode, the
    // default for this scalar f, makes the whole gradient cost a few passes over x).
    let brown_handle = FunctionHandle::Anonymous { text: brown.into(), captured: vec![].into(), unmodelled: vec![] };
    compare("Brown, repeated subexpressions (n = 1000), forward", brown_handle.clone(), x.clone(), Mode::Forward, JacobianStorage::Full);
    compare("Brown, repeated subexpressions (n = 1000), reverse", brown_handle, x.clone(), Mode::Reverse, JacobianStorage::Full);
    // A physical model's residuals: the same Arrhenius factor, power and trigonometric terms of the
    // vector x in several components, as rate laws write them out. Expensive elementwise calls, so CSE
    // saves their evaluation and their derivatives; the sum of squares runs in reverse mode.
    let terms = |e: &str| e.replace("R", "exp(-2 ./ x)").replace("P", "x.^1.5").replace("S", "sin(x)").replace("C", "cos(x)");
    let model = terms("[R .* P + S .* C; R .* S - P .* C; R + P .* S .* C; R .* C - S .* P]");
    let handle = |text: String| FunctionHandle::Anonymous { text, captured: vec![].into(), unmodelled: vec![] };
    let residuals = handle(format!("@(x) {model}"));
    compare("rate model, 4 residuals sharing terms, compressed, sparse J", residuals, x.clone(), Mode::Auto, JacobianStorage::Sparse);
    let squares = handle(format!("@(x) sum(({model}).^2)"));
    compare("rate model, sum of squares, reverse", squares, x.clone(), Mode::Reverse, JacobianStorage::Full);
    let a: Vec<f64> = (0..n * n).map(|k| ((k as f64) * 0.6180339887).fract() - 0.5).collect();
    let captured = vec![("A".to_string(), Value::Double(Array::new(vec![n, n], a)))];
    let affine = FunctionHandle::Anonymous { text: "@(x) A * x + sin(x).^2".into(), captured: captured.into(), unmodelled: vec![] };
    compare("A*x + g(x), constant dense A (n = 1000), full J", affine, x, Mode::Auto, JacobianStorage::Full);
}
