//! Gradient cost of the Brown function, as a scalar loop over x (`brown_fun.m`) and vectorised
//! (`brown_vec.m`): time(f + g) / time(f) in reverse mode up to n = 1e5 with the bytes its tape holds,
//! and in forward mode (one direction per element of x: the gradient row is dense, so compression
//! cannot help) on the smaller sizes. Each figure is the best of a few
//! warm runs (the prepared code is cached after the first call). The last column checks the reverse-mode
//! gradient at a point away from the standard start (where the logarithmic terms vanish) against the
//! gradient written out by hand.

use msad::engine::{Engine, Mode, Options, PathHost, Request};
use msad::value::{Array, FunctionHandle, Value};
use std::path::PathBuf;

#[path = "support/timing.rs"]
mod timing;
use timing::best_of;

fn main() {
    let problems = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/octave/problems");
    let mut host = PathHost { dirs: vec![problems] };
    let mut engine = Engine::new();
    for function in ["brown_fun", "brown_vec"] {
        println!("{function}");
        println!(
            "{:>8} {:>10} {:>14} {:>10} {:>14} {:>10} {:>12} {:>18}",
            "n", "f (ms)", "reverse (ms)", "ratio", "forward (ms)", "ratio", "tape (MB)", "g vs analytic"
        );
        for n in [1_000, 10_000, 100_000] {
            let x: Vec<f64> = (0..n).map(|i| if i % 2 == 0 { -1.0 } else { 1.0 }).collect();
            let request = |mode: Mode, nargout: usize, verbose: bool| Request {
                function: FunctionHandle::Named(function.into()),
                args: vec![Value::Double(Array::column(x.clone()))],
                options: Options { mode, verbose, ..Options::default() },
                nargout,
            };
            let mut time = |mode: Mode, nargout: usize| {
                let r = request(mode, nargout, false);
                engine.evaluate(&mut host, &r).expect("warm-up");
                best_of(3, || {
                    engine.evaluate(&mut host, &r).expect("evaluation");
                })
            };
            let f = time(Mode::Auto, 1);
            let reverse = time(Mode::Reverse, 2);
            let forward = (n <= 10_000).then(|| time(Mode::Forward, 2));
            let log = engine.evaluate(&mut host, &request(Mode::Reverse, 2, true)).expect("evaluation").log;
            let error = gradient_error(&mut engine, &mut host, function, n);
            let forward_text = forward.map_or(("-".to_string(), "-".to_string()), |t| (format!("{:.1}", t * 1e3), format!("{:.1}", t / f)));
            println!(
                "{:>8} {:>10.2} {:>14.2} {:>10.2} {:>14} {:>10} {:>12.2} {:>18.1e}",
                n,
                f * 1e3,
                reverse * 1e3,
                reverse / f,
                forward_text.0,
                forward_text.1,
                tape_bytes(&log) as f64 / 1e6,
                error
            );
        }
    }
}

/// The tape's size from the engine's log line for a reverse-mode gradient.
fn tape_bytes(log: &[String]) -> usize {
    let line = log.iter().find(|l| l.contains("reverse mode gradient")).expect("reverse-mode line");
    let before = line.split(" bytes").next().expect("a size");
    before.rsplit(' ').next().and_then(|s| s.parse().ok()).expect("a byte count")
}

/// Largest relative difference between the reverse-mode gradient and Brown's gradient by hand, at a point
/// where every term of the derivative is non-zero.
fn gradient_error(engine: &mut Engine, host: &mut PathHost, function: &str, n: usize) -> f64 {
    let x: Vec<f64> = (0..n).map(|i| if i % 2 == 0 { -1.0 } else { 1.0 } * (0.5 + 0.4 * (0.618 * i as f64).fract())).collect();
    let request = Request {
        function: FunctionHandle::Named(function.into()),
        args: vec![Value::Double(Array::column(x.clone()))],
        options: Options { mode: Mode::Reverse, ..Options::default() },
        nargout: 2,
    };
    let result = engine.evaluate(host, &request).expect("gradient");
    let g = result.jacobian.expect("gradient").numeric().expect("numeric").data.clone();
    let exact = brown_gradient(&x);
    let scale = exact.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    g.iter().zip(&exact).fold(0.0f64, |m, (a, b)| m.max((a - b).abs() / scale))
}

/// d/dx of sum_i (x_i^2)^(x_{i+1}^2 + 1) + (x_{i+1}^2)^(x_i^2 + 1).
fn brown_gradient(x: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; x.len()];
    for i in 0..x.len() - 1 {
        let (a, b) = (x[i] * x[i], x[i + 1] * x[i + 1]);
        // d/da and d/db of a^(b+1) + b^(a+1), then the chain rule through a = x_i^2, b = x_{i+1}^2.
        let da = (b + 1.0) * a.powf(b) + b.powf(a + 1.0) * b.ln();
        let db = a.powf(b + 1.0) * a.ln() + (a + 1.0) * b.powf(a);
        g[i] += da * 2.0 * x[i];
        g[i + 1] += db * 2.0 * x[i + 1];
    }
    g
}
