//! Reverse mode: `<J v, w> = <v, J' w>` per primitive (forward-mode J against the reverse-mode
//! gradient of `w . f(x)`), and gradients of the scalar reference problems against forward mode.

mod common;

use common::*;
use msad::engine::{Engine, JacobianStorage, Mode, Options, Request};
use msad::exec::value::{Array, FunctionHandle, Value};

/// One expression per primitive with a reverse rule (x is a 6-element column in (0.3, 0.8)).
const EXPRESSIONS: &[&str] = &[
    "-x", "+x", "sin(x)", "cos(x)", "tan(x)", "exp(x)", "expm1(x)", "log(x)", "log2(x)", "log10(x)",
    "log1p(x)", "sqrt(x)", "abs(x - 0.5)", "asin(x)", "acos(x)", "atan(x)", "sinh(x)", "cosh(x)", "tanh(x)",
    "asinh(x)", "acosh(x + 1)", "atanh(x)", "floor(x) + x",
    "x + x'", "x - 2", "x .* x'", "x ./ x(1:2)'", "x .\\ 3", "x .^ x", "x .^ 2", "2 .^ x", "atan2(x, x')",
    "hypot(x, 1)", "A * x", "x' * A'", "reshape(x, 2, 3) * reshape(x, 3, 2)", "x' * x", "x(2) * x",
    "x'", "reshape(x, 3, 2)'", "x / x(2)", "x(3) \\ x", "x(1) ^ x(2)", "x(2) ^ 3", "diag(x)",
    "diag(reshape(x, 2, 3))", "diag(x, 1)", "sum(x)", "sum(reshape(x, 2, 3), 2)", "mean(reshape(x, 3, 2))",
    "cumsum(x)", "cumsum(reshape(x, 2, 3), 2)", "[x, 2 * x]", "[x; x .^ 2]", "[x(1), x(3); x(2), 5]",
    "reshape(x, 2, 3)", "full(x)", "double(x)", "x([1 3 3 6])", "x(end:-1:2)", "S * x", "full(S') * x",
    "reverse_loops(x)", "brusselator_rhs(x)",
];

fn x0() -> Vec<f64> {
    vec![0.3, 0.5, 0.7, 0.4, 0.6, 0.8]
}

fn options(mode: Mode) -> Options {
    Options { mode, jacobian: JacobianStorage::Full, ..Options::default() }
}

fn run(engine: &mut Engine, function: FunctionHandle, x: &[f64], mode: Mode) -> (Value, Vec<f64>) {
    let request = Request { function, args: vec![column(x.to_vec())], options: options(mode), nargout: 2 };
    let result = engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{d}"));
    let reversed = result.log.iter().any(|line| line.contains("reverse mode gradient"));
    assert_eq!(reversed, mode == Mode::Reverse && result.value.numel() == 1, "{:?}", result.log);
    (result.value, values(&result.jacobian.expect("derivative requested")))
}

/// Deterministic pseudo-random entries in (-1, 1).
fn weights(n: usize, seed: u64) -> Vec<f64> {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        })
        .collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn reverse_rules_are_transposes_of_forward_rules() {
    let a = Value::Double(Array::new(vec![3, 6], weights(18, 7)));
    let s = Value::Sparse(msad::exec::value::SparseMatrix::from_dense(&Array::new(
        vec![6, 6],
        weights(36, 9).into_iter().map(|v| if v > 0.3 { v } else { 0.0 }).collect(),
    )));
    let captured = |extra: Vec<(&'static str, Value)>| {
        let mut c = vec![("A", a.clone()), ("S", s.clone())];
        c.extend(extra);
        c
    };
    let x = x0();
    let n = x.len();
    let mut engine = Engine::new();
    for (k, expression) in EXPRESSIONS.iter().enumerate() {
        let f = anonymous(&format!("@(x) {expression}"), captured(vec![]));
        let (value, jacobian) = run(&mut engine, f, &x, Mode::Forward);
        let m = value.numel();
        let (v, w) = (weights(n, 2 * k as u64 + 1), weights(m, 2 * k as u64 + 2));
        let jv: Vec<f64> = (0..m).map(|i| (0..n).map(|j| jacobian[j * m + i] * v[j]).sum()).collect();
        let jtw: Vec<f64> = (0..n).map(|j| (0..m).map(|i| jacobian[j * m + i] * w[i]).sum()).collect();
        let weighted = Value::Double(Array::new(value.dims(), w.clone()));
        let g = anonymous(&format!("@(x) sum(sum(w .* ({expression})))"), captured(vec![("w", weighted)]));
        let (_, gradient) = run(&mut engine, g, &x, Mode::Reverse);
        let (lhs, rhs) = (dot(&jv, &w), dot(&v, &gradient));
        assert!((lhs - rhs).abs() <= 1e-12 * lhs.abs().max(1.0), "{expression}: <Jv, w> = {lhs}, <v, J'w> = {rhs}");
        assert!(relative_error(&gradient, &jtw) <= 1e-13, "{expression}: J'w {jtw:?} vs reverse {gradient:?}");
    }
}

fn assert_gradient_matches_forward(name: &str, x: Vec<f64>) {
    let mut engine = Engine::new();
    let (f_rev, g_rev) = run(&mut engine, named(name), &x, Mode::Reverse);
    let (f_fwd, g_fwd) = run(&mut engine, named(name), &x, Mode::Forward);
    assert_eq!(f_rev, f_fwd);
    assert_eq!(g_rev.len(), x.len());
    let err = relative_error(&g_rev, &g_fwd);
    assert!(err <= 1e-13, "{name}: reverse and forward gradients differ by {err:e}");
}

#[test]
fn brown_gradient_matches_forward_mode() {
    let x: Vec<f64> = (0..40).map(|i| if i % 2 == 0 { -1.0 } else { 1.0 } * (1.0 + 0.01 * i as f64)).collect();
    assert_gradient_matches_forward("brown_fun", x);
}

#[test]
fn extended_rosenbrock_gradient_matches_forward_mode() {
    let x: Vec<f64> = (0..40).map(|i| if i % 2 == 0 { -1.2 } else { 1.0 } + 0.01 * i as f64).collect();
    assert_gradient_matches_forward("ext_rosenbrock", x);
}

#[test]
fn scalar_output_gives_a_gradient_column_in_every_mode() {
    let mut engine = Engine::new();
    let f = anonymous("@(x) sum(x.^2)", vec![]);
    for (mode, n) in [(Mode::Auto, 3), (Mode::Auto, 20), (Mode::Forward, 20), (Mode::Reverse, 3)] {
        let x: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let request = Request { function: f.clone(), args: vec![column(x.clone())], options: Options { mode, ..Options::default() }, nargout: 2 };
        let gradient = engine.evaluate(&mut host(), &request).unwrap().jacobian.unwrap();
        assert_eq!(gradient.dims(), vec![n, 1], "{mode:?}, n = {n}");
        assert_eq!(values(&gradient), x.iter().map(|v| 2.0 * v).collect::<Vec<_>>());
    }
}

#[test]
fn reverse_mode_on_a_vector_output_runs_forward() {
    let mut engine = Engine::new();
    let (value, jacobian) = run(&mut engine, anonymous("@(x) x.^2", vec![]), &[1.0, 2.0], Mode::Reverse);
    assert_eq!(value.dims(), vec![2, 1]);
    assert_eq!(jacobian, vec![2.0, 0.0, 0.0, 4.0]);
}

#[test]
fn missing_derivative_rule_is_an_error_in_reverse_mode() {
    let mut engine = Engine::new();
    let request = Request {
        function: anonymous("@(x) sum(full(sparse(x)))", vec![]),
        args: vec![column(x0())],
        options: options(Mode::Reverse),
        nargout: 2,
    };
    let error = engine.evaluate(&mut host(), &request).unwrap_err();
    assert_eq!(error.identifier(), "msad:notDifferentiable");
}
