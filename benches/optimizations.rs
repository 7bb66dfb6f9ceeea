//! Common-subexpression elimination and derivative caching of linear parts, each measured on a
//! problem made for it, with the optimisations on and off (`Options::unoptimized`), same run.

use msad::engine::{Engine, JacobianStorage, Mode, Options, PathHost, Request};
use msad::exec::value::{Array, FunctionHandle, Value};
use std::time::Instant;

fn median_call(engine: &mut Engine, request: &Request) -> f64 {
    let mut host = PathHost { dirs: vec![] };
    engine.evaluate(&mut host, request).expect("first call");
    let mut times: Vec<f64> = (0..7)
        .map(|_| {
            let start = Instant::now();
            engine.evaluate(&mut host, request).expect("call");
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn compare(label: &str, function: FunctionHandle, x: Vec<f64>, mode: Mode) {
    let request = |unoptimized: bool| Request {
        function: function.clone(),
        args: vec![Value::Double(Array::column(x.clone()))],
        options: Options { jacobian: JacobianStorage::Full, mode, unoptimized, ..Options::default() },
        nargout: 2,
    };
    let mut engine = Engine::new();
    let off = median_call(&mut engine, &request(true));
    let on = median_call(&mut engine, &request(false));
    println!("{label:<52} {:>10.2} ms {:>10.2} ms {:>8.2}x", off * 1e3, on * 1e3, off / on);
}

fn main() {
    println!("{:<52} {:>13} {:>13} {:>9}", "full Jacobian, median of 7 later calls", "unoptimized", "optimized", "speed-up");
    let n = 1000;
    let x: Vec<f64> = (0..n).map(|i| 0.5 + 0.3 * (i as f64 * 0.1).sin()).collect();
    let brown = "@(x) sum((x(1:end-1).^2).^(x(2:end).^2 + 1) + (x(2:end).^2).^(x(1:end-1).^2 + 1))";
    // Forward mode: every repeated subexpression carries a 1 x n derivative row (reverse mode, the
    // default for this scalar f, makes the whole gradient cost a few passes over x).
    let brown_handle = FunctionHandle::Anonymous { text: brown.into(), captured: vec![] };
    compare("Brown, repeated subexpressions (n = 1000), forward", brown_handle.clone(), x.clone(), Mode::Forward);
    compare("Brown, repeated subexpressions (n = 1000), reverse", brown_handle, x.clone(), Mode::Reverse);
    let a: Vec<f64> = (0..n * n).map(|k| ((k as f64) * 0.6180339887).fract() - 0.5).collect();
    let captured = vec![("A".to_string(), Value::Double(Array::new(vec![n, n], a)))];
    let affine = FunctionHandle::Anonymous { text: "@(x) A * x + sin(x).^2".into(), captured };
    compare("A*x + g(x), constant dense A (n = 1000)", affine, x, Mode::Auto);
}
