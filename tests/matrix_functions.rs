//! Matrix functions, decompositions, interpolation and quadrature (issue 24): Jacobians against central
//! differences in forward mode (sparse detection, compressed and full), reverse-mode gradients against
//! forward-mode Jacobians, and the errors where a derivative does not exist.

mod common;

use common::*;
use msad::diag::ErrorKind;
use msad::engine::{Engine, JacobianStorage, Mode, Options, Request};
use msad::value::{FunctionHandle, Value};

const X: [f64; 6] = [0.31, 0.52, 0.74, 0.43, 0.65, 0.86];

fn jacobian(engine: &mut Engine, f: &FunctionHandle, x: &[f64], options: Options) -> Vec<f64> {
    let request = Request { function: f.clone(), args: vec![column(x.to_vec())], options, nargout: 2 };
    let result = engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{f:?}: {d}"));
    values(&result.jacobian.expect("Jacobian requested"))
}

/// The Jacobian in every storage against central differences, and the reverse-mode gradient of
/// `w . f(x)` against `J' w`.
fn check(f: &FunctionHandle, tol: f64) {
    check_forward(f, tol, true);
}

/// `check`, with the reverse-mode part where `reverse`.
fn check_forward(f: &FunctionHandle, tol: f64, reverse: bool) {
    let mut engine = Engine::new();
    let fd = fd_jacobian(&mut engine, f, &X, &[]);
    let full = Options { jacobian: JacobianStorage::Full, ..Options::default() };
    let mut forward = Vec::new();
    for options in [Options::default(), Options::default(), full] {
        forward = jacobian(&mut engine, f, &X, options);
        let err = relative_error(&forward, &fd);
        assert!(err <= tol, "{f:?}: Jacobian differs from central differences by {err:e}\nJ  {forward:?}\nfd {fd:?}");
    }
    if !reverse {
        return;
    }
    let n = X.len();
    let m = forward.len() / n;
    let w = weights(m, 5);
    let jtw: Vec<f64> = (0..n).map(|j| (0..m).map(|i| forward[j * m + i] * w[i]).sum()).collect();
    let weighted =
        anonymous("@(x) sum(w(:) .* reshape(f(x), [], 1))", vec![("w", column(w)), ("f", Value::Handle(std::sync::Arc::new(f.clone())))]);
    let reverse = Options { mode: Mode::Reverse, jacobian: JacobianStorage::Full, ..Options::default() };
    let gradient = jacobian(&mut engine, &weighted, &X, reverse);
    assert!(relative_error(&gradient, &jtw) <= 1e-12, "{f:?}: reverse {gradient:?} vs J'w {jtw:?}");
}

fn expression(text: &str) -> FunctionHandle {
    anonymous(&format!("@(x) {text}"), vec![])
}

#[test]
fn matrix_functions_and_decompositions_match_central_differences() {
    for text in [
        "expm(reshape(x(1:4), 2, 2))",
        "expm([x(1) 2 0; 0 x(2) 1; x(3) 0 -x(4)] * 3)",
        "logm([2 x(1) 0; x(2) 3 x(3); 0 x(4) 4])",
        "sqrtm([2 x(1) 0; x(2) 3 x(3); 0 x(4) 4])",
        "sqrtm([1 -x(1); x(2) 1])",
        "chol([4 x(1) x(2); x(1) 5 x(3); x(2) x(3) 6])",
        "eig([4 x(1) x(2); x(1) 5 x(3); x(2) x(3) 7])",
        "eig([x(1) 1; 0 x(2) + 1])",
        "svd([x(1) x(2) x(3); x(4) x(5) x(6) + 1])",
        "pinv([x(1:3)'; x(4:6)' + 1])",
        "pinv(reshape(x, 3, 2))",
        "inv(expm(reshape(x(1:4), 2, 2)))",
        "lu([x(1) + 2, x(2), x(3); x(4), x(5) - 1, x(6); 1, x(1) * x(2), 3])",
        "lu(reshape(x, 2, 3))",
        "qr([x(1) + 2, x(2), x(3); x(4), x(5) - 1, x(6); 1, x(1) * x(2), 3])",
        "qr(reshape(x, 3, 2), 0)",
        "qr(reshape(x, 2, 3))",
    ] {
        check(&expression(text), 1e-7);
    }
    // Every result of [V, D], [R, p], [L, U, P], [Q, R] and [U, S, V], in both modes.
    for fixture in ["eig_vectors_of", "chol_flag_of", "factors_of", "svd_vectors_of"] {
        check(&named(fixture), 1e-7);
    }
}

#[test]
fn factors_without_derivatives_are_clear_errors() {
    // Full U of a tall matrix: its completing columns are not unique.
    for (text, kind) in [
        ("null([x(1) x(2) x(3); 2 * x(1) 2 * x(2) 2 * x(3)])", ErrorKind::NotDifferentiable),
        ("orth([x(1) x(2); 2 * x(1) 2 * x(2); 1 2])", ErrorKind::NotDifferentiable),
        ("lu([x(1) 1; 0.31 2])", ErrorKind::NotDifferentiable),
    ] {
        let e = error_of(text, 2);
        assert_eq!(e.kind, kind, "{text}: {e}");
    }
    let e = evaluate(&mut Engine::new(), &named("svd_full_u_of"), vec![column(X.to_vec())], 2).expect_err("full U");
    assert!(e.kind == ErrorKind::NotDifferentiable && e.message.contains("completing U"), "{e}");
    // The values exist: null of a rank-one 2 x 3 matrix has two columns.
    let z = evaluate(&mut Engine::new(), &expression("null([x(1) x(2) x(3); 2 * x(1) 2 * x(2) 2 * x(3)])"), vec![column(X.to_vec())], 1)
        .expect("value");
    assert_eq!(z.value.dims(), vec![3, 2]);
}

#[test]
fn singular_vectors_of_equal_values_have_no_derivatives() {
    // The value exists; its gradient and Hessian are refused (Hessians elsewhere: tests/hessian.rs).
    let f = named("svd_repeated_objective");
    assert!(evaluate(&mut Engine::new(), &f, vec![column(X.to_vec())], 1).is_ok());
    for nargout in [2, 3] {
        let e = evaluate(&mut Engine::new(), &f, vec![column(X.to_vec())], nargout).expect_err("equal singular values");
        assert!(e.kind == ErrorKind::NotDifferentiable && e.message.contains("repeated"), "{nargout}: {e}");
    }
}

#[test]
fn interpolation_and_quadrature_match_central_differences() {
    let samples = "[0 0.9 2.1 3 3.8 5]";
    for text in [
        format!("interp1({samples}, x, [0.4 1.7 2.95 4.4 4.99], 'pchip')"),
        format!("interp1({samples}, x, [0.4 1.7 2.95 4.4 4.99], 'spline')"),
        format!("interp1({samples}, x, [-1 0.4 4.4 6], 'spline', 'extrap')"),
        format!("interp1({samples}, x, [-1 0.4 4.4 6], 'pchip', 0.5)"),
        format!("interp1({samples}, x, [0.3 1.7 2.5 4.6], 'nearest')"),
        format!("interp1({samples}, x, [0.3 1.7 2.5 4.6 7], 'previous')"),
        format!("interp1({samples}, x, [-2 0.3 1.7 2.5 4.6], 'next', 'extrap')"),
        format!("interp1({samples}, x, [0.4 1.7 4.4])"),
        "interp1(x, [1 4 2 8 5 7], [0.5 0.6 0.7], 'spline')".to_string(),
        "interp1([0 1 2 3 4 5], [1 4 2 8 5 7], 5 * x, 'pchip')".to_string(),
        "spline(0:5, x, 5 * x)".to_string(),
        "spline(0:3, [x(1); x(2:5); x(6)], [0.5 1.5 2.9])".to_string(),
        "spline([0 1 3], x(1:3), [0.5 2 2.5])".to_string(),
        "spline([0 2], x(1:2), [0.5 1.7])".to_string(),
        "pchip(0:5, [1 3 2 2 5 4] .* x', [0.5 1.5 2.5 3.3 4.9])".to_string(),
        "cumtrapz(x)".to_string(),
        "cumtrapz(cumsum(x), x .^ 2)".to_string(),
        "cumtrapz(reshape(x, 2, 3), 2)".to_string(),
        "trapz(cumsum(x), sin(x))".to_string(),
        "polyfit(cumsum(x), [1 3 2 5 4 6], 2)".to_string(),
        "polyfit(0:5, x, 3)".to_string(),
        "polyval(polyfit(0:5, x, 2), 2.5)".to_string(),
        "interp2([0 1 2.5], [0 2], reshape(x, 2, 3), [0.3 1.2 2.2 3], [0.5; 1.5; -1])".to_string(),
        "interp2([0 1 2.5], [0 2], reshape(x, 2, 3), [0.3 1.2 2.2], [0.5 1.5 1.9], 'cubic')".to_string(),
        "interp2([0 1 2 3], [0 2 3], [1 2 4 3; 2 5 1 0; 3 3 2 1], 3 * x(1:3), 2 * x(4:6), 'cubic', 0.5)".to_string(),
        "interp2([1 2 4 3; 2 5 1 0; 3 3 2 1], 1 + 2 * x(1:3), 1 + 2 * x(4:6))".to_string(),
        "interp2(cumsum(x(1:3))', [0 1], [1 2 4; 2 5 1], [0.5 0.9], [0.5 0.2], 'pchip')".to_string(),
        "interp2([0 1 2.5], [0 2], reshape(x, 2, 3), [0.3 1.2 2.2], [0.5; 1.5], 'nearest')".to_string(),
    ] {
        check(&expression(&text), 1e-7);
    }
    // The pp form is a struct built by struct(...) from values that depend on x, which reverse mode
    // refuses: forward mode.
    for text in ["ppval(spline(0:5, x), [0.5 1.5 4.9])", "ppval(pchip(0:5, x), [0.5 1.5 4.9])"] {
        check_forward(&expression(text), 1e-7, false);
    }
    // An integrand that captures x: reverse mode follows the handle's captured values.
    for text in [
        "integral(@(t) exp(-x(1) * t .^ 2) .* cos(x(2) * t), 0, 4)",
        "quadgk(@(t) x(3) ./ (1 + (x(4) * t) .^ 2), -1, 2)",
        "integral(@(t) sin(x(5) * t), x(1), 3 * x(2), 'RelTol', 1e-10)",
    ] {
        check(&expression(text), 1e-7);
    }
}

#[test]
fn values_follow_octave() {
    let mut engine = Engine::new();
    let value = |engine: &mut Engine, text: &str| {
        values(&evaluate(engine, &expression(text), vec![column(X.to_vec())], 1).unwrap_or_else(|d| panic!("{text}: {d}")).value)
    };
    // The not-a-knot spline through four points is the cubic through them.
    let cubic = value(&mut engine, "spline(0:3, (0:3) .^ 3, [0.5 2.5 4])");
    assert!(relative_error(&cubic, &[0.125, 15.625, 64.0]) < 1e-14, "{cubic:?}");
    // Octave: interp1(1:5, 3:2:11, [0 6], method, 'extrap') gives [1 13], [3 11], [3 11], [3 11].
    for (method, expected) in [("linear", [1.0, 13.0]), ("nearest", [3.0, 11.0]), ("previous", [3.0, 11.0]), ("next", [3.0, 11.0])] {
        let got = value(&mut engine, &format!("interp1(1:5, 3:2:11, [0 6], '{method}', 'extrap')"));
        assert_eq!(got, expected, "{method}");
    }
    let nearest = value(&mut engine, "interp1(1:3, [10 20 30], [1.5 2.49 0], 'nearest')");
    assert!(nearest[0] == 20.0 && nearest[1] == 20.0 && nearest[2].is_nan(), "{nearest:?}");
    // pchip keeps monotone data monotone and its flat pieces flat.
    let flat = value(&mut engine, "pchip([0 1 2 3], [0 1 1 2], [1.25 1.5 1.75])");
    assert_eq!(flat, vec![1.0, 1.0, 1.0]);
    assert_eq!(value(&mut engine, "cumtrapz([1 2 3])"), vec![0.0, 1.5, 4.0]);
    let p = value(&mut engine, "polyfit([0 1 2 3], [1 3 5 7], 1)");
    assert!(relative_error(&p, &[2.0, 1.0]) < 1e-14, "{p:?}");
    let e = value(&mut engine, "eig([2 1; 1 2])");
    assert!(relative_error(&e, &[1.0, 3.0]) < 1e-15, "{e:?}");
    let q = value(&mut engine, "quadgk(@(t) 1 ./ (1 + t .^ 2), -3, 5)");
    assert!((q[0] - (5f64.atan() + 3f64.atan())).abs() < 1e-14, "{q:?}");
    // Octave: interp2([1 2; 3 4], [1.5 3], [1.5 1]) gives [2.5 NA]; with 'nearest' and 0 outside, [4 0].
    let linear = value(&mut engine, "interp2([1 2; 3 4], [1.5 3], [1.5 1])");
    assert!(linear[0] == 2.5 && linear[1].is_nan(), "{linear:?}");
    assert_eq!(value(&mut engine, "interp2([1 2; 3 4], [1.5 3], [1.5 1], 'nearest', 0)"), vec![4.0, 0.0]);
    let r = value(&mut engine, "expm(zeros(2))");
    assert_eq!(r, vec![1.0, 0.0, 0.0, 1.0]);
}

fn error_of(text: &str, nargout: usize) -> msad::diag::Diagnostic {
    evaluate(&mut Engine::new(), &expression(text), vec![column(X.to_vec())], nargout).expect_err(text)
}

#[test]
fn undefined_derivatives_are_clear_errors() {
    // Repeated eigenvalues and singular values: values, but no derivative.
    for text in ["eig(x(1) * eye(2))", "svd([x(1) 0; 0 x(1)])", "svd([x(1) 0; 0 0])"] {
        assert!(evaluate(&mut Engine::new(), &expression(text), vec![column(X.to_vec())], 1).is_ok(), "{text}");
        let e = error_of(text, 2);
        assert_eq!(e.kind, ErrorKind::NotDifferentiable, "{text}: {e}");
    }
    let e = error_of("chol([1 x(1); x(1) -1])", 1);
    assert_eq!((e.kind, e.message.as_str()), (ErrorKind::Runtime, "chol: input matrix must be positive definite"), "{e}");
    for text in ["sqrtm([-1 x(1); 0 2])", "logm([x(1) 0; 0 -2])"] {
        assert_eq!(error_of(text, 1).kind, ErrorKind::Unsupported, "{text}");
    }
    // Hessians where the first derivative does not exist: the same error.
    let e = evaluate(&mut Engine::new(), &expression("sum(svd([x(1) 0; 0 x(1)]))"), vec![column(X.to_vec())], 3).expect_err("Hessian");
    assert_eq!(e.kind, ErrorKind::NotDifferentiable, "{e}");
}

/// The value and Jacobian of `text` at X in forward mode.
fn forward_jacobian(text: &str) -> (Vec<f64>, Vec<f64>) {
    let options = Options { mode: Mode::Forward, jacobian: JacobianStorage::Full, ..Options::default() };
    let request = Request { function: expression(text), args: vec![column(X.to_vec())], options, nargout: 2 };
    let result = Engine::new().evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{text}: {d}"));
    (values(&result.value), values(&result.jacobian.expect("Jacobian requested")))
}

#[test]
fn roots_and_minima_follow_the_implicit_function_theorem() {
    let [p, q] = [X[0], X[1]];
    // The zero r of t^3 + p t - q: dr/dp = -r / (3 r^2 + p), dr/dq = 1 / (3 r^2 + p).
    // Both slopes are exact (df/dt from the handle run once more in forward mode in t): the
    // derivative agrees with the analytic one at the computed zero to rounding, in both modes.
    let reverse = Options { mode: Mode::Reverse, jacobian: JacobianStorage::Full, ..Options::default() };
    for start in ["0.5", "[0 2]"] {
        let text = format!("fzero(@(t) t ^ 3 + x(1) * t - x(2), {start}, struct('TolX', 1e-15))");
        let (r, forward) = forward_jacobian(&text);
        let r = r[0];
        assert!((r.powi(3) + p * r - q).abs() < 1e-15, "{start}: {r}");
        let slope = 3.0 * r * r + p;
        let expected = [-r / slope, 1.0 / slope, 0.0, 0.0, 0.0, 0.0];
        assert!(relative_error(&forward, &expected) < 1e-14, "{start}: {forward:?} vs {expected:?}");
        let gradient = jacobian(&mut Engine::new(), &expression(&text), &X, reverse.clone());
        assert!(relative_error(&gradient, &expected) < 1e-14, "{start} reverse: {gradient:?} vs {expected:?}");
    }
    // cos(p t) - q t: dr/dp = -t sin(p t) / (p sin(p t) + q), dr/dq = -t / (p sin(p t) + q).
    let wave = "fzero(@(t) cos(x(1) * t) - x(2) * t, [0 2])";
    let (r, forward) = forward_jacobian(wave);
    let (r, slope) = (r[0], p * (p * r[0]).sin() + q);
    let expected = [-r * (p * r).sin() / slope, -r / slope, 0.0, 0.0, 0.0, 0.0];
    assert!(relative_error(&forward, &expected) < 1e-14, "{forward:?} vs {expected:?}");
    assert!(relative_error(&jacobian(&mut Engine::new(), &expression(wave), &X, reverse), &expected) < 1e-14);
    check(&expression(wave), 1e-7);

    // The minimum of exp(p t) - q t on [0, 3]: t = log(q / p) / p.
    let (t, minimum_jacobian) = forward_jacobian("fminbnd(@(t) exp(x(1) * t) - x(2) * t, -3, 3, struct('TolX', 1e-10))");
    let expected_t = (q / p).ln() / p;
    // A minimum is found to about the square root of the rounding of f (flat there).
    assert!((t[0] - expected_t).abs() < 1e-7, "{t:?} vs {expected_t}");
    let expected = [-expected_t / p - 1.0 / (p * p), 1.0 / (p * q), 0.0, 0.0, 0.0, 0.0];
    assert!(relative_error(&minimum_jacobian, &expected) < 1e-6, "{minimum_jacobian:?} vs {expected:?}");
    // Reverse mode gives the forward Jacobian (options from optimset).
    let options = Options { mode: Mode::Reverse, jacobian: JacobianStorage::Full, ..Options::default() };
    let f = expression("fminbnd(@(t) exp(x(1) * t) - x(2) * t, -3, 3, optimset('TolX', 1e-10))");
    let gradient = jacobian(&mut Engine::new(), &f, &X, options);
    // The slope's five-point stencil divides rounding differences by its step (near 1e-3).
    assert!(relative_error(&gradient, &minimum_jacobian) < 1e-10, "reverse {gradient:?} vs forward {minimum_jacobian:?}");
    // A minimum on a bound moves with the bound.
    let (_, jacobian) = forward_jacobian("fminbnd(@(t) t, x(3), 2)");
    assert!(relative_error(&jacobian, &[0.0, 0.0, 1.0, 0.0, 0.0, 0.0]) < 1e-15, "{jacobian:?}");
    // Where the slope vanishes at the zero, there is no derivative.
    let e = error_of("fzero(@(t) t ^ 3 - x(1) + 0.31, [-1 1])", 2);
    assert_eq!(e.user_identifier.as_deref(), Some("msad:notDifferentiable"), "{e}");
    // A minimum of zero curvature has no derivative.
    let e = error_of("fminbnd(@(t) (t - x(1)) ^ 4, -3, 3, optimset('TolX', 1e-10))", 2);
    assert!(e.user_identifier.as_deref() == Some("msad:notDifferentiable") && e.message.contains("curvature"), "{e}");
}

/// The value, gradient and Hessian (full, 6 x 6) of `fminbnd_minimum_of(x, k)`.
fn minimum_hessian(x: &[f64], k: f64) -> (f64, Vec<f64>, Vec<f64>) {
    let options = Options { jacobian: JacobianStorage::Full, ..Options::default() };
    let request = Request { function: named("fminbnd_minimum_of"), args: vec![column(x.to_vec()), Value::scalar(k)], options, nargout: 3 };
    let result = Engine::new().evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{d}"));
    (values(&result.value)[0], values(&result.jacobian.expect("gradient")), values(&result.hessian.expect("Hessian")))
}

/// The minimiser r(a, b) of f = (t - a)^2 w + t^4, w = 1 + b^2, and the minimum f(r): their exact
/// Hessians in (a, b) against the implicit function theorem's at the computed r, with g = df/dt:
/// `r_i = -g_i / g_t`, `r_ij = -(g_ij + g_ti r_j + g_tj r_i + g_tt r_i r_j) / g_t` (msad's slope g is
/// a five-point difference of f's derivatives: relative error near 1e-13), at several points.
#[test]
fn minima_have_exact_hessians() {
    for x in [X.to_vec(), vec![-0.8, 1.7, 0.0, 0.0, 0.0, 0.0], vec![2.2, -0.3, 0.0, 0.0, 0.0, 0.0]] {
        let [a, b] = [x[0], x[1]];
        let w = 1.0 + b * b;
        let (scaled, _, h_scaled) = minimum_hessian(&x, 1.0);
        let r = scaled / b;
        let g_t = 2.0 * w + 12.0 * r * r;
        let g_i = [-2.0 * w, 4.0 * b * (r - a)];
        let (g_ti, g_tt) = ([0.0, 4.0 * b], 24.0 * r);
        let g_ij = [[0.0, -4.0 * b], [-4.0 * b, 4.0 * (r - a)]];
        let r_i = g_i.map(|g| -g / g_t);
        let r_ij = |i: usize, j: usize| -(g_ij[i][j] + g_ti[i] * r_i[j] + g_ti[j] * r_i[i] + g_tt * r_i[i] * r_i[j]) / g_t;
        // b r, and f(r): f's own partials f_i, f_ij, with f_ti = g_i and f_tt = g_t.
        let f_t = 2.0 * (r - a) * w + 4.0 * r.powi(3);
        let f_ij = [[2.0 * w, -4.0 * b * (r - a)], [-4.0 * b * (r - a), 2.0 * (r - a).powi(2)]];
        let embedded = |h: &dyn Fn(usize, usize) -> f64| -> Vec<f64> {
            (0..36).map(|e| (e % 6, e / 6)).map(|(i, j)| if i < 2 && j < 2 { h(i, j) } else { 0.0 }).collect()
        };
        let expected_scaled = embedded(&|i, j| b * r_ij(i, j) + if i == 1 { r_i[j] } else { 0.0 } + if j == 1 { r_i[i] } else { 0.0 });
        assert!(relative_error(&h_scaled, &expected_scaled) < 1e-11, "{x:?}: {h_scaled:?} vs {expected_scaled:?}");
        let (_, g_minimum, h_minimum) = minimum_hessian(&x, 2.0);
        let f_i = [-2.0 * (r - a) * w, 2.0 * b * (r - a).powi(2)];
        let expected_gradient = [f_i[0] + f_t * r_i[0], f_i[1] + f_t * r_i[1], 0.0, 0.0, 0.0, 0.0];
        assert!(relative_error(&g_minimum, &expected_gradient) < 1e-12, "{x:?}: {g_minimum:?} vs {expected_gradient:?}");
        let expected_minimum = embedded(&|i, j| g_t * r_i[i] * r_i[j] + g_i[i] * r_i[j] + g_i[j] * r_i[i] + f_t * r_ij(i, j) + f_ij[i][j]);
        assert!(relative_error(&h_minimum, &expected_minimum) < 1e-11, "{x:?}: {h_minimum:?} vs {expected_minimum:?}");
    }
}
