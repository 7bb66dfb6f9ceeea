//! Hessians (forward over reverse, symmetric compression): H against central differences of the
//! reverse-mode gradient on reference objectives and on one expression per kind of second-order rule;
//! the detected pattern and colouring; the errors for what has no second-order rule.

mod common;

use common::*;
use msad::diag::ErrorKind;
use msad::engine::{Engine, Evaluation, JacobianStorage, Options, Request, Sparsity};
use msad::value::{Array, FunctionHandle, Value};

fn request(function: &FunctionHandle, x: &[f64], nargout: usize, options: Options) -> Request {
    Request { function: function.clone(), args: vec![column(x.to_vec())], options, nargout }
}

fn hessian(engine: &mut Engine, function: &FunctionHandle, x: &[f64], options: Options) -> msad::diag::Result<Evaluation> {
    engine.evaluate(&mut host(), &request(function, x, 3, options))
}

fn gradient(engine: &mut Engine, function: &FunctionHandle, x: &[f64]) -> Vec<f64> {
    let result = engine.evaluate(&mut host(), &request(function, x, 2, Options::default())).unwrap_or_else(|d| panic!("{d}"));
    values(&result.jacobian.expect("gradient"))
}

/// Central differences of the gradient, column by column (n x n, column-major).
fn fd_hessian(engine: &mut Engine, function: &FunctionHandle, x: &[f64]) -> Vec<f64> {
    let mut h = Vec::new();
    for j in 0..x.len() {
        let step = 1e-5 * x[j].abs().max(1.0);
        let at = |delta: f64, engine: &mut Engine| {
            let mut xp = x.to_vec();
            xp[j] += delta;
            gradient(engine, function, &xp)
        };
        let (plus, minus) = (at(step, engine), at(-step, engine));
        h.extend(plus.iter().zip(&minus).map(|(p, m)| (p - m) / (2.0 * step)));
    }
    h
}

/// H (full storage) and gradient match central differences and the gradient, and H without the
/// detected pattern; H is symmetric.
fn check(function: &FunctionHandle, x: &[f64], tol: f64) -> Evaluation {
    let mut engine = Engine::new();
    let options = Options { jacobian: JacobianStorage::Full, ..Options::default() };
    let result = hessian(&mut engine, function, x, options).unwrap_or_else(|d| panic!("{d}"));
    let n = x.len();
    let h = values(result.hessian.as_ref().expect("Hessian"));
    assert_eq!(h.len(), n * n);
    let g = values(result.jacobian.as_ref().expect("gradient"));
    let reference = gradient(&mut engine, function, x);
    assert!(relative_error(&g, &reference) < 1e-13, "{function:?}: gradient {g:?} differs from {reference:?}");
    let fd = fd_hessian(&mut engine, function, x);
    let err = relative_error(&h, &fd);
    assert!(err <= tol, "{function:?}: H differs from differences of g: {err:e}\nH = {h:?}\nfd = {fd:?}");
    // Without the detected pattern (every direction): a pair the second-order rules missed shows here.
    let unpatterned = Options { sparsity: Sparsity::None, jacobian: JacobianStorage::Full, ..Options::default() };
    let every = values(&hessian(&mut engine, function, x, unpatterned).unwrap_or_else(|d| panic!("{d}")).hessian.expect("H"));
    assert!(relative_error(&h, &every) < 1e-12, "{function:?}: H with the pattern differs from H without: {h:?}\n{every:?}");
    for i in 0..n {
        for j in 0..n {
            assert!((h[i + j * n] - h[j + i * n]).abs() <= 1e-12 * (1.0 + h[i + j * n].abs()), "H not symmetric: {h:?}");
        }
    }
    result
}

/// x in (0.3, 0.8), 6 elements.
fn x0() -> Vec<f64> {
    vec![0.3, 0.5, 0.7, 0.4, 0.6, 0.8]
}

/// One objective per kind of second-order term (unary, binary partials, bilinear products, linear
/// structure, indexing and assignment).
const OBJECTIVES: &[&str] = &[
    "sum(x .* exp(-x) ./ (1 + x.^2))",
    "log(1 + x' * x)",
    "(x' * A * x) / 2 + x' * (A * x)",
    "sum(sqrt(x) .* log(x)) + x(1) * x(end)^3",
    "dot(x, sin(x)) + sum(cumsum(x) .^ 2)",
    "sum(x(2:end) ./ x(1:end-1)) + mean(x)^2",
    "sum(atan2(x, 1 + x.^2) + hypot(x, 2))",
    "sum(sum((reshape(x, 2, 3) * reshape(x, 3, 2)) .^ 2))",
    "x(1)^x(2) + 2^x(3) + x(4)^2.5 + x(5) / x(6) + x(2) \\ x(3) + sum(x / x(2)) + sum(x(1) \\ x)",
    "sum(tanh(x) .* cosh(x) + asinh(x) + atan(x) + sinh(x) + cos(x) .* tan(x))",
    "sum(log2(x) + log10(x) + log1p(x) + expm1(x) + asin(x) + acos(x) + atanh(x) + acosh(x + 1))",
    "max(x) * min(x) + sum(abs(x - 0.45) .* x)",
    "sum(kron(x(1:2), x(3:4)) .^ 2) + sum(diag(x) * x) + trace(reshape(x(1:4), 2, 2)' * reshape(x(1:4), 2, 2))",
    "sum([x; x .^ 2] .^ 3) + sum(x([1 3 3 6]) .* x(end:-1:3))",
    "sum(sum(reshape(x, 2, 3) .* [1 2 3; 4 5 6], 2) .^ 2) - sum(-x) + sum(+x .^ 3)",
    "hessian_loops(x)",
    "norm(x) + norm(reshape(x, 2, 3), 'fro')^3 + norm(x(2:4)', 2) * x(1)",
    "trace(expm(reshape(x(1:4), 2, 2))) * x(5) + sum(sum(sqrtm([2 x(6); x(1) 3]) .^ 2))",
    "sum(eig([4 x(1) x(2); x(1) 5 x(3); x(2) x(3) 7]) .^ 3) + sum(sum(logm([2 x(4); x(5) 3])))",
    "sum(spline([0 0.9 2.1 3 3.8 5], x, [0.4 1.7 4.4]) .^ 2) + sum(interp1(0:5, x, [0.4 2.2 4.4], 'pchip') .^ 2)",
    "sum(cumtrapz(cumsum(x), x .^ 2))",
];

#[test]
fn hessians_match_differences_of_the_gradient() {
    let a = Value::Double(Array::new(vec![6, 6], (0..36).map(|k| ((k * 7 % 11) as f64 - 5.0) / 3.0).collect()));
    for expression in OBJECTIVES {
        let f = anonymous(&format!("@(x) {expression}"), vec![("A", a.clone())]);
        check(&f, &x0(), 1e-7);
    }
}

/// Every expression of the reverse-mode consistency test, as the objective `sum(w .* f(x))`: H matches
/// differences of g (every builtin there has a second-order rule).
#[test]
fn every_builtin_has_a_second_order_rule() {
    // Away from the kinks of abs(x - 0.5), mod(x, 0.25) and the ties of max and sort.
    let x: Vec<f64> = x0().iter().map(|v| v + 0.013).collect();
    let mut engine = Engine::new();
    for (k, expression) in EXPRESSIONS.iter().enumerate() {
        let f = anonymous(&format!("@(x) {expression}"), matrices());
        let value = engine.evaluate(&mut host(), &request(&f, &x, 1, Options::default())).expect("value").value;
        let w = Value::Double(Array::new(value.dims(), weights(value.numel(), k as u64 + 1)));
        let mut captured = matrices();
        captured.push(("w", w));
        check(&anonymous(&format!("@(x) sum(sum(w .* ({expression})))"), captured), &x, 1e-6);
    }
}

/// The decompositions' second-order terms (issue 24): every differentiable result of `lu`, `qr` and
/// `[R, p] = chol` (the kernels on hyper-duals), chol, svd's values, a general matrix's eigenvalues and
/// `[V, D] = eig` of a symmetric one;
/// `[U, S, V] = svd` (every result, thin factors: the reverse rules on duals), and fzero's zero and
/// fminbnd's minimiser (two chord steps; searched to 1e-14 on a function whose minimum is 0, so that
/// the differences of the gradient see no search noise), at several points.
#[test]
fn decompositions_and_zeros_have_exact_hessians() {
    const DECOMPOSITIONS: &[&str] = &[
        "sum(sin(factors_of(x)))",
        "sum(sin(chol_flag_of(x)))",
        "sum(sum(chol([4 x(1) x(2); x(1) 5 x(3); x(2) x(3) 6]) .^ 3))",
        "sum(sum(lu(reshape(x, 2, 3)) .^ 3)) + sum(sum(qr(reshape(x, 3, 2)) .^ 3)) + sum(sum(qr(reshape(x, 2, 3)) .^ 3))",
        "sum(svd([x(1) x(2) x(3); x(4) x(5) x(6) + 1]) .^ 3) + prod(svd(reshape(x, 3, 2) + [1 0; 0 2; 0 0]))",
        "sum(eig([x(1) 1 x(3); 0.2 x(2) + 1 x(4); x(5) 0.3 x(6) + 2]) .^ 3)",
        "sum(eig([4 x(1) x(2); x(1) 5 x(3); x(2) x(3) 7]) .* [1; -2; 3]) * x(4)",
        "sum(eig_vectors_of(x) .^ 2 .* (1:12)') + sum(eig_vectors_of(x) .* (12:-1:1)')",
        "fzero(@(t) t ^ 3 + (x(1) + 2) * t - x(2) * x(3), [-3 3]) ^ 2 * x(4)",
        "fzero(@(t) cos(x(1) * t) - (x(2) + 1) * t - x(5) * t ^ 3 / 10, [0 2]) * x(6)",
        "sum(sin(svd_vectors_of(x)))",
        "svd_factors_objective(x)",
        "fminbnd(@(t) (t + (1 + x(2) ^ 2) * t ^ 3 / 3 - x(1)) ^ 2 * (1 + x(3) ^ 2), -3, 3, optimset('TolX', 1e-14)) ^ 2 * x(4)",
    ];
    let points = [x0(), x0().iter().map(|v| v + 0.013).collect(), vec![0.9, -0.4, 0.2, 1.1, -0.7, 0.5]];
    for expression in DECOMPOSITIONS {
        for x in &points {
            check(&anonymous(&format!("@(x) {expression}"), vec![]), x, 1e-6);
        }
    }
}

#[test]
fn reference_objectives() {
    let brown: Vec<f64> = (0..10).map(|i| if i % 2 == 0 { -1.0 } else { 1.0 } * (0.5 + 0.05 * i as f64)).collect();
    check(&named("brown_fun"), &brown, 1e-6);
    let rosenbrock: Vec<f64> = (0..8).map(|i| if i % 2 == 0 { -1.2 } else { 1.0 }).collect();
    for name in ["ext_rosenbrock", "ext_rosenbrock_vec"] {
        let result = check(&named(name), &rosenbrock, 1e-7);
        // Exact: d2f/dx1^2 = 1200 x1^2 - 400 x2 + 2, d2f/dx1dx2 = -400 x1, d2f/dx2^2 = 200.
        let h = values(result.hessian.as_ref().expect("Hessian"));
        assert_eq!(h[0], 1200.0 * 1.44 - 400.0 + 2.0);
        assert_eq!(h[1], 480.0);
        assert_eq!(h[1 + 8], 200.0);
    }
    let grid: Vec<f64> = (0..16).map(|k| (k as f64 * 0.37).sin()).collect();
    check(&named("gl2_energy"), &grid, 1e-6);
}

#[test]
fn pattern_and_colouring_of_a_2d_energy() {
    let n = 30 * 30;
    let x: Vec<f64> = (0..n).map(|k| (k as f64 * 0.37).sin()).collect();
    let mut engine = Engine::new();
    let options = Options { verbose: true, ..Options::default() };
    let result = hessian(&mut engine, &named("gl2_energy"), &x, options.clone()).unwrap_or_else(|d| panic!("{d}"));
    let Some(Value::Sparse(h)) = &result.hessian else { panic!("a sparse H: {:?}", result.log) };
    // 5-point stencil: 5N^2 - 4N entries, all nonzero at this x.
    assert_eq!(h.nnz(), 5 * n - 4 * 30);
    let line = result.log.iter().find(|l| l.contains("Hessian pattern")).expect("pattern logged");
    assert!(line.contains("nnz 4380, ") && line.contains(" colours (row bound 5)"), "{line}");
    // The greedy colourings need 6 on the grid, one above the bound (5, reached by (i + 2j) mod 5).
    let colours: usize = line.split(" colours").next().and_then(|s| s.rsplit(' ').next()).and_then(|s| s.parse().ok()).expect("count");
    assert!((5..=6).contains(&colours), "{line}");
    // The cached compression gives the same H on the next call, and a full evaluation agrees.
    let again = hessian(&mut engine, &named("gl2_energy"), &x, options).unwrap_or_else(|d| panic!("{d}"));
    assert!(again.log.iter().all(|l| !l.contains("Hessian pattern")), "{:?}", again.log);
    assert_eq!(again.hessian, result.hessian);
    let full = Options { sparsity: Sparsity::None, jacobian: JacobianStorage::Full, ..Options::default() };
    let dense = hessian(&mut Engine::new(), &named("gl2_energy"), &x[..100], full).unwrap_or_else(|d| panic!("{d}"));
    let sparse = hessian(&mut Engine::new(), &named("gl2_energy"), &x[..100], Options::default()).expect("sparse");
    let sparse = match sparse.hessian.expect("H") {
        Value::Sparse(s) => s.to_dense().data,
        other => values(&other),
    };
    assert!(relative_error(&values(&dense.hessian.expect("H")), &sparse) < 1e-14);
}

#[test]
fn branches_on_x_give_the_hessian_of_the_side_taken() {
    let f = anonymous("@(x) branchy_objective(x)", vec![]);
    let mut engine = Engine::new();
    for x in [[0.5, 2.0], [-0.5, 2.0], [0.5, 2.0]] {
        let result = hessian(&mut engine, &f, &x, Options { jacobian: JacobianStorage::Full, ..Options::default() }).expect("H");
        let h = values(&result.hessian.expect("H"));
        let expected = if x[0] > 0.0 { [0.0, 1.0, 1.0, 0.0] } else { [2.0, 0.0, 0.0, 6.0 * x[1]] };
        assert_eq!(h, expected, "{:?}", result.log);
    }
}

#[test]
fn missing_second_order_rule_is_a_clear_error() {
    for (expression, name) in
        [("norm(reshape(x, 2, 3))^2", "norm"), ("sum(reshape(x, 3, 2) \\ x(1:3))", "mldivide"), ("det(zeros(2) * x(1))", "det")]
    {
        let f = anonymous(&format!("@(x) {expression}"), vec![]);
        let err = hessian(&mut Engine::new(), &f, &x0(), Options::default()).expect_err("no second-order rule");
        assert_eq!(err.kind, ErrorKind::NotDifferentiable, "{err}");
        assert!(err.message.contains(&format!("no second-order (Hessian) rule for '{name}'")), "{err}");
        // The gradient is still available.
        gradient(&mut Engine::new(), &f, &x0());
    }
}

#[test]
fn non_scalar_objective_is_bad_input() {
    let err = hessian(&mut Engine::new(), &anonymous("@(x) x .^ 2", vec![]), &x0(), Options::default()).expect_err("not scalar");
    assert_eq!(err.kind, ErrorKind::BadInput);
    assert!(err.message.contains("needs a scalar f, but f has 6 elements"), "{err}");
}

#[test]
fn star_colouring_uses_symmetry() {
    // Arrowhead H (row 1 full, diagonal): a column colouring needs n colours, a star colouring 2.
    let f = anonymous("@(x) x(1) * sum(x(2:end)) + sum(x .^ 3)", vec![]);
    let x: Vec<f64> = (0..40).map(|k| 0.1 * k as f64 - 1.3).collect();
    let options = Options { verbose: true, ..Options::default() };
    let result = hessian(&mut Engine::new(), &f, &x, options).unwrap_or_else(|d| panic!("{d}"));
    let line = result.log.iter().find(|l| l.contains("Hessian pattern")).expect("pattern logged");
    assert!(line.contains("nnz 118, 2 colours (row bound 40)"), "{line}");
    let Some(Value::Sparse(h)) = &result.hessian else { panic!("a sparse H") };
    let h = h.to_dense().data;
    for i in 0..40 {
        for j in 0..40 {
            let expected = match (i, j) {
                _ if i == j => 6.0 * x[i],
                (0, _) | (_, 0) => 1.0,
                _ => 0.0,
            };
            assert_eq!(h[i + 40 * j], expected, "H({i}, {j})");
        }
    }
}

#[test]
fn a_pattern_that_holds_at_one_x_only_is_detected_again() {
    // The product of the two smallest elements: which ones depends on x, with no branch to show it
    // (the control record holds sort's permutation, and the check direction guards the rest).
    let f = anonymous("@(x) prod_of_two_smallest(x)", vec![]);
    let mut engine = Engine::new();
    for (call, x) in [[0.3, 0.5, 0.9, 0.7], [0.9, 0.7, 0.3, 0.5], [0.9, 0.7, 0.3, 0.5]].into_iter().enumerate() {
        let options = Options { jacobian: JacobianStorage::Full, verbose: true, ..Options::default() };
        let result = hessian(&mut engine, &f, &x, options).unwrap_or_else(|d| panic!("{d}"));
        let (i, j) = if x[0] < 0.5 { (0, 1) } else { (2, 3) };
        let mut expected = vec![0.0; 16];
        expected[i + 4 * j] = 1.0;
        expected[j + 4 * i] = 1.0;
        let detected_again = result.log.iter().any(|l| l.contains("detecting again"));
        assert_eq!(detected_again, call == 1, "{:?}", result.log);
        assert_eq!(values(&result.hessian.expect("H")), expected, "{:?}", result.log);
    }
}

/// `prod`'s Hessian, `H_ij = prod_{k != i, j} x_k`, and `cumprod`'s, with no division: exact when
/// factors are zero.
#[test]
fn product_hessian_is_exact_with_zero_factors() {
    for x in [[0.9, 1.1, -0.8, 1.3], [0.7, -1.2, 0.0, 1.5], [0.0, 2.0, 0.0, 1.5]] {
        check(&anonymous("@(x) prod(x)", vec![]), &x, 1e-8);
        check(&anonymous("@(x) sum(prod(reshape(x, 2, 2), 2) .^ 2)", vec![]), &x, 1e-6);
        check(&anonymous("@(x) [1 -2 3 0.5] * cumprod(x)", vec![]), &x, 1e-8);
        check(&anonymous("@(x) sum(sum(cumprod(reshape(x, 2, 2), 2) .^ 2))", vec![]), &x, 1e-6);
    }
    let two_zeros = check(&anonymous("@(x) prod(x)", vec![]), &[0.0, 2.0, 0.0, 1.5], 1e-8);
    let h = values(two_zeros.hessian.as_ref().expect("Hessian"));
    let expected = |i: usize, j: usize| if (i, j) == (0, 2) || (i, j) == (2, 0) { 3.0 } else { 0.0 };
    assert!((0..16).all(|k| h[k] == expected(k % 4, k / 4)), "{h:?}");
}

/// The square-matrix functions: solves with the matrix, the right-hand side or both depending on x,
/// inverses, determinants and integer powers (negative ones through the inverse).
#[test]
fn matrix_function_hessians_match_differences_of_the_gradient() {
    let x = [1.4, 0.3, -0.2, 0.9, 0.5, -0.7];
    let a = "[x(1) x(3) 0.2; x(2) x(4) 0.1; 0.3 x(5) 1.5]";
    for text in [
        format!("sum({a} \\ [1; 2; 3])"),
        format!("[1 -2 0.5] * ({a} \\ [x(6); x(1)^2; 1])"),
        format!("sum(sum(({a} \\ [x(6) 1; x(1)^2 2; 1 x(2)]) .^ 2))"),
        "sum(reshape(x(1:4), 2, 2) \\ x(5:6))".to_string(),
        format!("[1 2 3] / {a} * [1; -1; 2]"),
        format!("sum(sum(([x(6) 1 2; x(1) x(2)^2 1] / {a}) .^ 2))"),
        format!("sum(sum(inv({a}) .* [1 2 3; 4 5 6; 7 8 9]))"),
        format!("sum(sum(inverse({a}) .^ 2))"),
        format!("det({a})"),
        format!("det({a})^2 + det(reshape(x(1:4), 2, 2))"),
        format!("sum(sum(({a} ^ 2) .* [1 2 3; 4 5 6; 7 8 9]))"),
        format!("sum(sum({a} ^ 5)) + sum(sum({a} ^ 4))"),
        format!("sum(sum(({a} ^ -1) .* [1 2 3; 4 5 6; 7 8 9])) + sum(sum({a} ^ -3))"),
        format!("sum(sum({a} ^ 1 + {a} ^ 0))"),
    ] {
        check(&anonymous(&format!("@(x) {text}"), vec![]), &x, 1e-6);
    }
}

/// Vector p-norms for any p (smooth away from zeros) and the piecewise linear norms (zero curvature).
#[test]
fn norm_hessians_match_differences_of_the_gradient() {
    let x = [0.4, -0.7, 1.3, 0.9, -0.2, 0.6];
    for text in [
        "norm(x, 3)",
        "norm(x', 1.5) * x(1)",
        "norm(x, 4)^2 + norm(x(1:3), 2.5)",
        "norm(x, 1)^2 + norm(x, Inf) * norm(x, -Inf)",
        "norm(reshape(x, 2, 3), 1)^2 + norm(reshape(x, 3, 2), Inf)^3",
        "norm(x, 'inf') * norm(x, 'fro')",
    ] {
        check(&anonymous(&format!("@(x) {text}"), vec![]), &x, 1e-6);
    }
}

/// `logspace` in both ends and one (a constant pi upper end is log10(pi), as in Octave).
#[test]
fn logspace_hessian_matches_differences_of_the_gradient() {
    let x = [0.4, 0.7, 1.3, 0.9, 0.2, 0.6];
    for text in ["sum(logspace(x(1), x(2), 5) .* [1 -2 3 0.5 2])", "sum(logspace(x(3) ^ 2, pi, 4)) + logspace(x(4), x(5) * x(6), 1)"] {
        check(&anonymous(&format!("@(x) {text}"), vec![]), &x, 1e-6);
    }
}

/// Linear `interp1` moving its sample points, values and queries (away from the knots), with
/// extrapolation and several columns of values.
#[test]
fn interp1_hessians_match_differences_of_the_gradient() {
    let x = [0.4, 0.7, 1.3, 0.9, 0.2, 0.6];
    for text in [
        "sum(interp1([0 1 2 3 4 5], x, [0.5 2.5 4.2]) .^ 2)",
        "sum(interp1([0 1 2 3 4 5], x .^ 2, 3 * x(1:3)) .* x(4:6))",
        "[1 -2 3 0.5] * interp1(cumsum(x), [1 4 2 8 5 7], [0.9; 1.5; 3.4; 2])",
        "sum(sum(interp1(cumsum(x), [x, x .^ 2] * x(2), [0.2; 3.4; 4.5] * x(3) * 2, 'linear', 'extrap') .^ 2))",
        "interp1(x .^ 2, 1 + 4 * x(2)) * x(1)",
    ] {
        check(&anonymous(&format!("@(x) {text}"), vec![]), &x, 1e-6);
    }
}

/// `polyval` in its coefficients and points together, and with MU (centred and scaled points).
#[test]
fn polyval_hessian_matches_differences_of_the_gradient() {
    let x = [0.4, -0.7, 1.3, 0.9, -0.2, 0.6];
    for text in [
        "@(x) sum(polyval(x(1:3), x(4:6)) .^ 2)",
        "@(x) sum(polyval(x(1:4), x(5:6), [], [0.3 1.7]))",
        "@(x) polyval([2 -1 0.5 3], x(1)) * x(2)",
    ] {
        check(&anonymous(text, vec![]), &x, 1e-6);
    }
}

/// The dense Hessian of `sum(x)^2` at n = 1000 (every entry 2): pattern detection and colouring cost
/// in proportion to nnz(H), so the first call finishes in about a second (it grew like n^4).
#[test]
fn dense_hessian_of_a_thousand_unknowns() {
    let n = 1000;
    let x: Vec<f64> = (0..n).map(|k| (k as f64 * 0.37).sin()).collect();
    let f = anonymous("@(x) sum(x)^2", vec![]);
    let start = std::time::Instant::now();
    let result = hessian(&mut Engine::new(), &f, &x, Options { verbose: true, ..Options::default() }).unwrap_or_else(|d| panic!("{d}"));
    eprintln!("dense Hessian, n = {n}: first call {:.3} s", start.elapsed().as_secs_f64());
    let h = values(result.hessian.as_ref().expect("Hessian"));
    assert_eq!(h.len(), n * n);
    assert!(h.iter().all(|&v| v == 2.0), "{:?}", result.log);
    let s: f64 = x.iter().sum();
    assert!(values(result.jacobian.as_ref().expect("gradient")).iter().all(|&g| (g - 2.0 * s).abs() <= 1e-12 * s.abs().max(1.0)));
}

/// A dense Hessian with more colours than one forward-over-reverse run carries (n = 400: two runs):
/// the runs' compressed blocks join into the exact H, on the first call and on later ones at
/// another x (the cached colouring).
#[test]
fn dense_hessian_in_several_runs_is_exact() {
    let n = 400;
    let f = anonymous("@(x) 0.5 * sum(x .^ 2)^2 + sum(exp(x))", vec![]);
    let mut engine = Engine::new();
    for shift in [0.0, 0.25] {
        let x: Vec<f64> = (0..n).map(|k| (k as f64 * 0.37).sin() / 10.0 + shift).collect();
        let options = Options { verbose: true, ..Options::default() };
        let result = hessian(&mut engine, &f, &x, options).unwrap_or_else(|d| panic!("{d}"));
        let h = values(result.hessian.as_ref().expect("Hessian"));
        let squares: f64 = x.iter().map(|v| v * v).sum();
        let exact: Vec<f64> = (0..n * n)
            .map(|k| (k / n, k % n))
            .map(|(j, i)| 4.0 * x[i] * x[j] + if i == j { 2.0 * squares + x[i].exp() } else { 0.0 })
            .collect();
        assert!(relative_error(&h, &exact) < 1e-14, "{:?}", result.log);
        let gradient: Vec<f64> = x.iter().map(|v| 2.0 * squares * v + v.exp()).collect();
        assert!(relative_error(&values(result.jacobian.as_ref().expect("gradient")), &gradient) < 1e-14);
    }
}

/// Partially separable objectives (sums of element functions, vectorised or in a loop) need O(1)
/// colours whatever n: chained Rosenbrock's tridiagonal H takes 3 (a path's star chromatic number),
/// and H matches the exact one.
#[test]
fn chained_rosenbrock_needs_three_colours_vectorised_or_in_a_loop() {
    let n = 200;
    let x: Vec<f64> = (0..n).map(|k| 0.5 + (k as f64 * 0.37).sin() / 4.0).collect();
    let mut exact = vec![0.0; n * n];
    for i in 0..n - 1 {
        exact[i + n * i] += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
        exact[i + 1 + n * (i + 1)] += 200.0;
        exact[i + n * (i + 1)] = -400.0 * x[i];
        exact[i + 1 + n * i] = -400.0 * x[i];
    }
    for text in ["@(x) sum(100 * (x(2:end) - x(1:end-1).^2).^2 + (1 - x(1:end-1)).^2)", "@(x) rosenbrock_loop(x)"] {
        let result = hessian(&mut Engine::new(), &anonymous(text, vec![]), &x, Options { verbose: true, ..Options::default() })
            .unwrap_or_else(|d| panic!("{d}"));
        let line = result.log.iter().find(|l| l.contains("Hessian pattern")).expect("pattern logged");
        assert!(line.contains(&format!("nnz {}, 3 colours (row bound 3)", 3 * n - 2)), "{text}: {line}");
        let Some(Value::Sparse(h)) = &result.hessian else { panic!("{text}: a sparse H") };
        assert!(relative_error(&h.to_dense().data, &exact) < 1e-14, "{text}");
    }
}

/// Values that depend on x inside cells and struct fields (varargin, varargout, nested cells, c(i:j),
/// spread lists) stay on the tape: the Hessian and gradient match differences.
#[test]
fn hessian_through_cells_and_struct_fields() {
    check(&named("reverse_containers"), &x0(), 1e-6);
    check(&anonymous("@(x) cutest_arrowhead('objf', x)", vec![]), &x0(), 1e-6);
}

/// Handles capturing values that depend on x: the Hessian follows the captured values through the
/// calls (directly, by cellfun, nested) and matches differences of the gradient.
#[test]
fn handles_capturing_x_have_hessians() {
    let x = [0.3, 0.5, 0.7, 0.4];
    for text in [
        "@(x) feval(@(t) t ^ 2 * x(1) ^ 3, x(2))",
        "@(x) sum(cellfun(@(c) c * sin(x(3) * x(4)), {1, 2}))",
        "@(x) feval(@(g, s) g(s) * g(2 * s), @(t) exp(t * x(1)) * x(4), x(2))",
    ] {
        check(&anonymous(text, vec![]), &x, 1e-6);
    }
}
