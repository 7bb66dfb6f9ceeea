//! Reverse mode: `<J v, w> = <v, J' w>` per primitive (forward-mode J against the reverse-mode
//! gradient of `w . f(x)`), and gradients of the scalar reference problems against forward mode.

mod common;

use common::*;
use msad::engine::{Engine, Evaluation, JacobianStorage, Mode, Options, Request};
use msad::value::{Array, FunctionHandle, Value};

/// Differentiable builtins the consistency test cannot reach with one scalar `sum(w .* f(x))`: `find`'s
/// derivative is on a later output (`[i, j, v] = find(x)`), `struct` and `num2cell` build
/// containers (reverse mode refuses x-dependent containers: `reverse_mode_refuses_cells_from_num2cell`),
/// `[f, e] = log2(x)` needs two outputs (`mantissa_and_exponent_in_reverse_mode`), and so do
/// `[R, p] = chol`, `[V, D] = eig`, `[L, U, P] = lu`, `[Q, R] = qr` and `[U, S, V] = svd`
/// (tests/matrix_functions.rs). `complex` makes complex values, and `imag`, `angle`, `arg` have
/// derivatives only on complex values (zero on real ones), and `fft`, `ifft` make complex values:
/// their reverse rules on complex values are checked against forward mode in
/// tests/complex_derivatives.rs; sparse matrices that depend on x in tests/sparse_derivatives.rs
/// (`sparse`, `spdiags`).
const NOT_COVERED: [&str; 17] = [
    "find",
    "struct",
    "num2cell",
    "[f, e] = log2",
    "[R, p] = chol",
    "[V, D] = eig",
    "[L, U, P] = lu",
    "[Q, R] = qr",
    "[U, S, V] = svd",
    "complex",
    "imag",
    "angle",
    "arg",
    "sparse",
    "spdiags",
    "fft",
    "ifft",
];

#[test]
fn every_differentiable_builtin_is_in_the_consistency_test() {
    use msad::primitives::{self, Derivative, Kernel, output_is_differentiable};
    let missing: Vec<&str> = primitives::names()
        .filter(|name| {
            let id = primitives::lookup(name).expect("listed");
            let rule_missing = matches!(primitives::get(id).kernel, Kernel::General { derivative: Derivative::Missing, .. });
            // for_item (a for loop over an array) is in reverse_loops.
            output_is_differentiable(id, 0) && !rule_missing && !NOT_COVERED.contains(name) && *name != "for_item"
        })
        .filter(|name| !EXPRESSIONS.iter().any(|e| e.contains(&format!("{name}("))))
        .collect();
    assert!(missing.is_empty(), "no <J v, w> = <v, J' w> check for {missing:?}");
}

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

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn reverse_rules_are_transposes_of_forward_rules() {
    let captured = |extra: Vec<(&'static str, Value)>| {
        let mut c = matrices();
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
fn scalar_steps_mixed_with_general_steps_match_forward_mode_and_differences() {
    let x = vec![0.3, -0.5, 0.7, 0.4, -0.6, 0.8];
    assert_gradient_matches_forward("reverse_scalar_steps", x.clone());
    let mut engine = Engine::new();
    let (_, gradient) = run(&mut engine, named("reverse_scalar_steps"), &x, Mode::Reverse);
    let fd = fd_jacobian(&mut engine, &named("reverse_scalar_steps"), &x, &[]);
    assert!(relative_error(&gradient, &fd) <= 1e-8, "reverse {gradient:?} vs differences {fd:?}");
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
        let request =
            Request { function: f.clone(), args: vec![column(x.clone())], options: Options { mode, ..Options::default() }, nargout: 2 };
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

/// Reverse mode follows a sparse matrix that depends on x with one adjoint per stored entry (more in
/// tests/sparse_derivatives.rs).
#[test]
fn sparse_matrices_in_reverse_mode() {
    let mut engine = Engine::new();
    let function = anonymous("@(x) sum(full(sparse(x)) .^ 2)", vec![]);
    let request = Request { function, args: vec![column(x0())], options: options(Mode::Reverse), nargout: 2 };
    let result = engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{d}"));
    assert!(result.log.iter().any(|l| l.contains("reverse mode gradient")), "{:?}", result.log);
    let expected: Vec<f64> = x0().iter().map(|v| 2.0 * v).collect();
    assert!(relative_error(&values(&result.jacobian.unwrap()), &expected) <= 1e-15);
}

/// Cells are not on the tape: a gradient through `cellfun` over `num2cell(x)` is refused in reverse mode
/// (it was a silent zero), and 'auto' falls back to forward mode, matching central differences.
#[test]
fn reverse_mode_refuses_cells_from_num2cell() {
    let f = || anonymous("@(x) sum(cellfun(@(c) c .^ 2, num2cell(x)))", vec![]);
    let x: Vec<f64> = (0..12).map(|i| 0.1 * i as f64 - 0.4).collect();
    let mut engine = Engine::new();
    let request = |mode| Request { function: f(), args: vec![column(x.clone())], options: options(mode), nargout: 2 };
    let refused = engine.evaluate(&mut host(), &request(Mode::Reverse)).expect_err("reverse mode through a cell");
    assert!(refused.message.contains("in reverse mode"), "{refused}");
    let auto = engine.evaluate(&mut host(), &request(Mode::Auto)).unwrap_or_else(|d| panic!("{d}"));
    let expected: Vec<f64> = x.iter().map(|v| 2.0 * v).collect();
    assert!(relative_error(&values(&auto.jacobian.expect("gradient")), &expected) <= 1e-15);
}

/// The bytes the reverse-mode tape held, from the engine's log.
fn tape_bytes(engine: &mut Engine, function: FunctionHandle, x: &[f64]) -> usize {
    let request =
        Request { function, args: vec![column(x.to_vec())], options: Options { verbose: true, ..options(Mode::Reverse) }, nargout: 2 };
    let result = engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{d}"));
    let line = result.log.iter().find(|l| l.contains("reverse mode gradient")).expect("a reverse-mode gradient");
    let count = line.split(" bytes").next().and_then(|s| s.rsplit(' ').next());
    count.and_then(|c| c.parse().ok()).unwrap_or_else(|| panic!("no byte count in '{line}'"))
}

#[test]
fn the_tape_keeps_only_the_values_rules_read() {
    let n = 1000;
    let x: Vec<f64> = (0..n).map(|i| 0.3 + 0.4 * i as f64 / n as f64).collect();
    let array = n * size_of::<f64>();
    let mut engine = Engine::new();
    let mut bytes = |text: &str| tape_bytes(&mut engine, anonymous(text, vec![]), &x);
    // Linear steps keep no arrays (scalar operands only).
    let linear = bytes("@(x) sum(2 * x + 1)");
    assert!(linear < array / 4, "linear steps: {linear} bytes");
    // exp's rule reads its result, sin's and the square's their operand: one array each.
    for text in ["@(x) sum(exp(x))", "@(x) sum(sin(x))", "@(x) sum(x .^ 2)"] {
        let kept = bytes(text);
        assert!((array..array + array / 4).contains(&kept), "{text}: {kept} bytes, one array is {array}");
    }
    // A product's rules read both operands.
    let product = bytes("@(x) sum(x .* x)");
    assert!((2 * array..2 * array + array / 4).contains(&product), "x .* x: {product} bytes");
}

#[test]
fn work_the_first_output_does_not_need_is_not_recorded() {
    let x: Vec<f64> = (0..200).map(|i| 0.1 + 0.01 * i as f64).collect();
    let mut engine = Engine::new();
    let unneeded = tape_bytes(&mut engine, named("reverse_unneeded"), &x);
    let alone = tape_bytes(&mut engine, anonymous("@(x) sum(x .^ 2)", vec![]), &x);
    assert_eq!(unneeded, alone, "the second output and the branch test were recorded");
    let (_, gradient) = run(&mut engine, named("reverse_unneeded"), &x, Mode::Reverse);
    let doubled: Vec<f64> = x.iter().map(|v| 2.0 * v).collect();
    assert!(relative_error(&gradient, &doubled) <= 1e-15, "{gradient:?}");
    assert_gradient_matches_forward("reverse_unneeded", x);
}

#[test]
fn mantissa_and_exponent_in_reverse_mode() {
    // mantissa_exponent(x) = [f; e; f.^2 .* x] with [f, e] = log2(x): weights on every output.
    let x = [3.0, -0.7, 0.3, 5.0, 0.04];
    let weights: Vec<f64> = (1..=15).map(f64::from).collect();
    let objective = anonymous("@(x) sum(w .* mantissa_exponent(x))", vec![("w", column(weights))]);
    let mut engine = Engine::new();
    let (_, forward) = run(&mut engine, objective.clone(), &x, Mode::Forward);
    let (_, reverse) = run(&mut engine, objective.clone(), &x, Mode::Reverse);
    let fd = fd_jacobian(&mut engine, &objective, &x, &[]);
    assert!(relative_error(&reverse, &forward) < 1e-14, "{reverse:?} {forward:?}");
    assert!(relative_error(&reverse, &fd) < 1e-7, "{reverse:?} {fd:?}");
}

/// Two points for a function of n unknowns, away from zero (logs, roots and quotients stay defined).
fn two_points(n: usize) -> [Vec<f64>; 2] {
    [(0..n).map(|k| 0.6 + 0.3 * (1.3 * k as f64 + 0.2).sin()).collect(), (0..n).map(|k| 1.1 + 0.4 * (0.7 * k as f64).cos()).collect()]
}

/// Forward- and reverse-mode gradients of `function` at `x`; None when the function does not take x
/// alone or its value is not scalar (not a scalar test function). Reverse mode may refuse with a clear
/// error (Some(Err)), never give another gradient.
fn both_gradients(function: &FunctionHandle, x: &[f64]) -> Option<msad::diag::Result<(Vec<f64>, Vec<f64>)>> {
    let request = |mode| Request { function: function.clone(), args: vec![column(x.to_vec())], options: options(mode), nargout: 2 };
    // A complex f (a complex J) has no gradient.
    let real_scalar = |r: &Evaluation| r.value.numel() == 1 && !matches!(r.value, Value::Complex(_));
    let forward = Engine::new().evaluate(&mut host(), &request(Mode::Forward)).ok().filter(real_scalar)?;
    let reverse = Engine::new().evaluate(&mut host(), &request(Mode::Reverse));
    Some(reverse.map(|r| (values(&forward.jacobian.expect("gradient")), values(&r.jacobian.expect("gradient")))))
}

/// The meta-test of issue #20: every scalar test function the repository has (the problems and
/// fixtures of tests/octave, the CUTEst-style objectives through their 'objf' action, and the scalar
/// expressions of the Rust tests) has the same gradient in reverse mode as in forward mode at two
/// points, or reverse mode refuses it with a clear error: never a silent zero or a wrong gradient.
/// Fixtures that loop until interrupted (the Ctrl-C tests).
const NEVER_RETURN: [&str; 1] = ["spin_forever"];

#[test]
fn reverse_mode_agrees_with_forward_mode_on_every_scalar_test_function() {
    let mut functions: Vec<(String, FunctionHandle)> = Vec::new();
    for dir in ["tests/octave/problems", "tests/octave/fixtures"] {
        let mut names: Vec<String> = std::fs::read_dir(repo_path(dir))
            .expect("test folder")
            .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".m").map(str::to_string))
            .collect();
        names.sort();
        for name in names.into_iter().filter(|name| !NEVER_RETURN.contains(&name.as_str())) {
            let function = match name.strip_prefix("cutest_") {
                Some(_) => anonymous(&format!("@(x) {name}('objf', x)"), vec![]),
                None => named(&name),
            };
            functions.push((name, function));
        }
    }
    functions.extend(EXPRESSIONS.iter().map(|e| (e.to_string(), anonymous(&format!("@(x) {e}"), matrices()))));
    let (mut compared, mut refused) = (Vec::new(), Vec::new());
    for (name, function) in &functions {
        // n = 16: even, a multiple of 4 and a square, as the problems' layouts need; else fewer.
        let Some(n) = [16, 6, 4, 3, 2].into_iter().find(|&n| both_gradients(function, &two_points(n)[0]).is_some()) else { continue };
        let mut nonzero = false;
        for x in two_points(n) {
            match both_gradients(function, &x).expect("scalar at the first point") {
                Ok((forward, reverse)) => {
                    let error = relative_error(&reverse, &forward);
                    assert!(error <= 1e-12, "{name} at {x:?}: reverse {reverse:?} differs from forward {forward:?} ({error:e})");
                    nonzero |= forward.iter().any(|&g| g != 0.0);
                }
                Err(e) => {
                    let clear = e.kind == msad::diag::ErrorKind::Unsupported || e.kind == msad::diag::ErrorKind::NotDifferentiable;
                    assert!(clear && e.message.contains("reverse mode"), "{name}: reverse mode fails unclearly: {e}");
                    if !refused.contains(name) {
                        refused.push(name.clone());
                    }
                }
            }
        }
        // A function whose gradient is zero at both points (one given x in a place it ignores) checks nothing.
        if nonzero || refused.contains(name) {
            compared.push(name.clone());
        }
    }
    eprintln!(
        "reverse vs forward: {} scalar functions {compared:?} ({} refused in reverse mode: {refused:?})",
        compared.len(),
        refused.len()
    );
    let expected = ["cutest_dispatch", "cutest_rosenbrock", "cutest_broyden", "cutest_wood", "cutest_arrowhead", "reverse_containers"];
    for expected in expected.into_iter().chain(["ext_rosenbrock", "brown_fun", "gl2_energy", "loop_objective"]) {
        assert!(compared.iter().any(|c| c == expected), "{expected} was not compared: {compared:?}");
    }
    assert!(compared.len() >= 36, "only {} scalar test functions were compared: {compared:?}", compared.len());
}

/// Handles capturing values that depend on x carry them on the tape (a container of the captured
/// values' variables): called directly, by feval, cellfun or arrayfun, and nested, the gradient is the
/// forward one.
#[test]
fn handles_capturing_x_are_followed_in_reverse_mode() {
    let x: Vec<f64> = (0..10).map(|i| 0.1 * i as f64 + 0.3).collect();
    for text in [
        "@(x) feval(@(t) t * x(1), x(2))",
        "@(x) sum(cellfun(@(c) c * x(3) ^ 2, {1, 2}))",
        "@(x) sum(arrayfun(@(t) sin(t * x(4)), x(1:3)))",
        "@(x) call_twice(@(t) t .* x(5:6), x(1))",
    ] {
        let text = text.replace("call_twice(", "feval(@(g, s) sum(g(s) + g(2 * s)), ");
        let request =
            |mode| Request { function: anonymous(&text, vec![]), args: vec![column(x.clone())], options: options(mode), nargout: 2 };
        let reverse = Engine::new().evaluate(&mut host(), &request(Mode::Reverse)).unwrap_or_else(|d| panic!("{text}: {d}"));
        let forward = Engine::new().evaluate(&mut host(), &request(Mode::Forward)).unwrap_or_else(|d| panic!("{text}: {d}"));
        let (reverse, forward) = (values(&reverse.jacobian.expect("gradient")), values(&forward.jacobian.expect("gradient")));
        assert!(forward.iter().any(|&g| g != 0.0), "{text}: {forward:?}");
        assert!(relative_error(&reverse, &forward) < 1e-14, "{text}: reverse {reverse:?} vs forward {forward:?}");
    }
}

/// What still keeps no tape variables (cellfun over a cell of x-dependent values, a struct array
/// from `struct`) is refused in reverse mode with an error naming reverse mode, never a zero
/// gradient; 'auto' answers in forward mode.
#[test]
fn containers_off_the_tape_are_refused_in_reverse_mode() {
    let x: Vec<f64> = (0..10).map(|i| 0.1 * i as f64 + 0.3).collect();
    for text in ["@(x) sum(cellfun(@(c) c ^ 2, {x(1), x(2)}))", "@(x) sum([struct('a', {x(1), x(2)}).a] .^ 2)"] {
        let request =
            |mode| Request { function: anonymous(text, vec![]), args: vec![column(x.clone())], options: options(mode), nargout: 2 };
        let refused = Engine::new().evaluate(&mut host(), &request(Mode::Reverse)).expect_err(text);
        assert!(refused.message.contains("reverse mode"), "{text}: {refused}");
        let forward = Engine::new().evaluate(&mut host(), &request(Mode::Forward)).unwrap_or_else(|d| panic!("{text}: {d}"));
        let auto = Engine::new().evaluate(&mut host(), &request(Mode::Auto)).unwrap_or_else(|d| panic!("{text}: {d}"));
        assert_eq!(auto.jacobian, forward.jacobian, "{text}");
        assert!(values(&forward.jacobian.expect("gradient")).iter().any(|&g| g != 0.0), "{text}");
    }
}
