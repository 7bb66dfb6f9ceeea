//! Gradient cost of the Brown function (`brown_fun.m`, a scalar loop over x): time(f + g) / time(f)
//! in reverse mode up to n = 1e5, and in forward mode (one direction per element of x: the gradient
//! row is dense, so compression cannot help) on the smaller sizes. Each figure is the best of a few
//! warm runs (the prepared code is cached after the first call).

use msad::engine::{Engine, Mode, Options, PathHost, Request};
use msad::exec::value::{Array, FunctionHandle, Value};
use std::path::PathBuf;
use std::time::Instant;

fn best_of(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let problems = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/octave/problems");
    let mut host = PathHost { dirs: vec![problems] };
    let mut engine = Engine::new();
    println!("{:>8} {:>10} {:>14} {:>10} {:>14} {:>10}", "n", "f (ms)", "reverse (ms)", "ratio", "forward (ms)", "ratio");
    for n in [1_000, 10_000, 100_000] {
        let x: Vec<f64> = (0..n).map(|i| if i % 2 == 0 { -1.0 } else { 1.0 }).collect();
        let request = |mode: Mode, nargout: usize| Request {
            function: FunctionHandle::Named("brown_fun".into()),
            args: vec![Value::Double(Array::column(x.clone()))],
            options: Options { mode, ..Options::default() },
            nargout,
        };
        let mut time = |mode: Mode, nargout: usize| {
            let r = request(mode, nargout);
            engine.evaluate(&mut host, &r).expect("warm-up");
            best_of(3, || {
                engine.evaluate(&mut host, &r).expect("evaluation");
            })
        };
        let f = time(Mode::Auto, 1);
        let reverse = time(Mode::Reverse, 2);
        let forward = (n <= 10_000).then(|| time(Mode::Forward, 2));
        let forward_text = forward.map_or(("-".to_string(), "-".to_string()), |t| (format!("{:.1}", t * 1e3), format!("{:.1}", t / f)));
        println!(
            "{:>8} {:>10.2} {:>14.2} {:>10.2} {:>14} {:>10}",
            n,
            f * 1e3,
            reverse * 1e3,
            reverse / f,
            forward_text.0,
            forward_text.1
        );
    }
}
