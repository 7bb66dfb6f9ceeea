//! Hessian cost of a 2-D Ginzburg-Landau-style energy (`gl2_energy.m`, vectorised, 5-point stencil):
//! time(f + g + H) / time(f) and time(f + g) / time(f) for n = N^2 up to 1e4, the colours against the
//! row bound, and H checked against central differences of the gradient along random directions
//! (`H v` vs `(g(x + h v) - g(x - h v)) / 2h`). Each time is the best of a few warm runs.

use msad::engine::{Engine, Evaluation, Options, PathHost, Request};
use msad::value::{Array, FunctionHandle, SparseMatrix, Value};
use std::path::PathBuf;

#[path = "support/timing.rs"]
mod timing;
use timing::best_of;

fn numbers(v: &Value) -> Vec<f64> {
    v.numeric().expect("numeric").data.clone()
}

fn times(h: &SparseMatrix, v: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; h.nrows()];
    for (j, vj) in v.iter().enumerate().take(h.ncols()) {
        for k in h.colptr()[j]..h.colptr()[j + 1] {
            out[h.rowind()[k]] += h.values()[k] * vj;
        }
    }
    out
}

fn main() {
    let problems = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/octave/problems");
    let mut host = PathHost { dirs: vec![problems] };
    let mut engine = Engine::new();
    println!(
        "{:>7} {:>9} {:>11} {:>7} {:>13} {:>7} {:>8} {:>9} {:>12}",
        "n", "f (ms)", "f+g (ms)", "ratio", "f+g+H (ms)", "ratio", "colours", "row bound", "H v vs fd g"
    );
    for grid in [30, 70, 100] {
        let n = grid * grid;
        let x: Vec<f64> = (0..n).map(|k| (k as f64 * 0.37).sin()).collect();
        let mut call = |x: &[f64], nargout: usize, verbose: bool| -> Evaluation {
            let request = Request {
                function: FunctionHandle::Named("gl2_energy".into()),
                args: vec![Value::Double(Array::column(x.to_vec()))],
                options: Options { verbose, ..Options::default() },
                nargout,
            };
            engine.evaluate(&mut host, &request).expect("evaluation")
        };
        let first = call(&x, 3, true);
        let line = first.log.iter().find(|l| l.contains("Hessian pattern")).expect("pattern line");
        let colours = line.split(" colours").next().and_then(|s| s.rsplit(' ').next()).unwrap_or("?").to_string();
        let bound = line.split("row bound ").nth(1).and_then(|s| s.split(')').next()).unwrap_or("?").to_string();
        let Some(Value::Sparse(h)) = first.hessian else { panic!("a sparse H") };
        // Central differences of g along three pseudo-random directions.
        let mut worst = 0.0f64;
        for seed in 1..=3u64 {
            let v: Vec<f64> = (0..n).map(|k| ((k as u64 * 2654435761 + seed * 97) % 1000) as f64 / 500.0 - 1.0).collect();
            let step = 1e-5;
            let shifted = |sign: f64| -> Vec<f64> { x.iter().zip(&v).map(|(x, v)| x + sign * step * v).collect() };
            let (plus, minus) = (
                numbers(&call(&shifted(1.0), 2, false).jacobian.expect("g")),
                numbers(&call(&shifted(-1.0), 2, false).jacobian.expect("g")),
            );
            let fd: Vec<f64> = plus.iter().zip(&minus).map(|(p, m)| (p - m) / (2.0 * step)).collect();
            let hv = times(&h, &v);
            let scale = fd.iter().fold(1e-300f64, |s, x| s.max(x.abs()));
            worst = worst.max(hv.iter().zip(&fd).fold(0.0f64, |e, (a, b)| e.max((a - b).abs())) / scale);
        }
        let mut time = |nargout: usize| {
            call(&x, nargout, false);
            best_of(5, || {
                call(&x, nargout, false);
            })
        };
        let (f, fg, fgh) = (time(1), time(2), time(3));
        println!(
            "{:>7} {:>9.3} {:>11.3} {:>7.2} {:>13.3} {:>7.2} {:>8} {:>9} {:>12.1e}",
            n,
            f * 1e3,
            fg * 1e3,
            fg / f,
            fgh * 1e3,
            fgh / f,
            colours,
            bound,
            worst
        );
    }
}
