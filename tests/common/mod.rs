//! Shared helpers of the Rust integration tests: an engine over the repository's test problems and
//! central finite differences as the oracle.
// Each test binary uses some of these helpers: the rest are not dead code.
#![allow(dead_code, unused_imports)]

mod expressions;

pub use expressions::*;
use msad::engine::{Engine, Evaluation, Options, PathHost, Request};
use msad::value::{Array, FunctionHandle, Value};
use std::path::PathBuf;

pub fn repo_path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative)
}

pub fn host() -> PathHost {
    PathHost { dirs: vec![repo_path("tests/octave/problems"), repo_path("tests/octave/fixtures")] }
}

pub fn column(data: Vec<f64>) -> Value {
    Value::Double(Array::column(data))
}

pub fn named(name: &str) -> FunctionHandle {
    FunctionHandle::Named(name.to_string())
}

pub fn evaluate(engine: &mut Engine, function: &FunctionHandle, args: Vec<Value>, nargout: usize) -> msad::diag::Result<Evaluation> {
    let request = Request { function: function.clone(), args, options: Options::default(), nargout };
    engine.evaluate(&mut host(), &request)
}

pub fn values(v: &Value) -> Vec<f64> {
    v.numeric().expect("numeric result").data.clone()
}

/// Central differences of the first argument, column by column (m x n, column-major).
pub fn fd_jacobian(engine: &mut Engine, function: &FunctionHandle, x: &[f64], extra: &[Value]) -> Vec<f64> {
    central_differences(x, |xp| {
        let mut args = vec![column(xp)];
        args.extend(extra.iter().cloned());
        values(&evaluate(engine, function, args, 1).expect("evaluation").value)
    })
}

/// Central differences of `value_at` at `x` (m x n, column-major), step `1e-6 max(1, |x_j|)`.
pub fn central_differences(x: &[f64], mut value_at: impl FnMut(Vec<f64>) -> Vec<f64>) -> Vec<f64> {
    let mut jac = Vec::new();
    for j in 0..x.len() {
        let h = 1e-6 * x[j].abs().max(1.0);
        let mut shifted = |delta: f64| {
            let mut xp = x.to_vec();
            xp[j] += delta;
            value_at(xp)
        };
        let (plus, minus) = (shifted(h), shifted(-h));
        jac.extend(plus.iter().zip(&minus).map(|(p, m)| (p - m) / (2.0 * h)));
    }
    jac
}

/// Max |a - b| relative to max(1, max |b|).
pub fn relative_error(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len(), "sizes differ");
    let scale = b.iter().fold(1.0f64, |s, x| s.max(x.abs()));
    a.iter().zip(b).fold(0.0f64, |e, (x, y)| e.max((x - y).abs())) / scale
}

/// Evaluates value and Jacobian and checks J against central differences.
pub fn check_against_fd(function: &FunctionHandle, x: &[f64], extra: &[Value], tol: f64) -> Evaluation {
    let mut engine = Engine::new();
    let mut args = vec![column(x.to_vec())];
    args.extend(extra.iter().cloned());
    let result = evaluate(&mut engine, function, args, 2).unwrap_or_else(|d| panic!("{d}"));
    let jac = result.jacobian.as_ref().expect("Jacobian requested");
    let fd = fd_jacobian(&mut engine, function, x, extra);
    let err = relative_error(&values(jac), &fd);
    assert!(err <= tol, "Jacobian differs from central differences: relative error {err:e} > {tol:e}");
    result
}

pub fn anonymous(text: &str, captured: Vec<(&str, Value)>) -> FunctionHandle {
    FunctionHandle::Anonymous {
        text: text.to_string(),
        captured: captured.into_iter().map(|(n, v)| (n.to_string(), v)).collect(),
        unmodelled: vec![],
    }
}
