//! Derivatives through complex intermediates (issue 22, item 1): every complex rule against central
//! differences of the real and imaginary parts, and against the complex step where the function is
//! real-analytic in x; full, detected and compressed Jacobians; a complex f gives a complex J; gradients
//! in reverse mode against forward mode; Hessians against differences of the gradient and exact second
//! derivatives; a complex x, and a Hessian of a complex f, are clear errors.

mod common;

use common::*;
use msad::diag::ErrorKind;
use msad::engine::{Engine, Evaluation, JacobianStorage, Mode, Options, Request, Sparsity};
use msad::value::{Array, Complex64, ComplexSparse, Value};

fn request(text: &str, captured: Vec<(&str, Value)>, x: &[f64], options: Options, nargout: usize) -> Request {
    Request { function: anonymous(text, captured), args: vec![column(x.to_vec())], options, nargout }
}

fn run(engine: &mut Engine, request: &Request) -> Evaluation {
    engine.evaluate(&mut host(), request).unwrap_or_else(|d| panic!("{}: {d}", request.function.text()))
}

/// Real and imaginary parts of a numeric value, stacked (`[real(v(:)); imag(v(:))]`).
fn stacked_parts(v: &Value) -> Vec<f64> {
    let z = v.complex_parts().expect("numeric value");
    z.data.iter().map(|z| z.re).chain(z.data.iter().map(|z| z.im)).collect()
}

/// J (m x n, real or complex, full or sparse; a scalar f's is the gradient column) as the 2m x n real
/// matrix of its parts' rows.
fn stacked_jacobian(j: &Value, m: usize) -> Vec<f64> {
    let z = j.complex_parts().expect("numeric Jacobian");
    let columns = if m == 1 { z.numel() } else { z.cols() };
    assert_eq!(z.numel(), m * columns, "J has one row per element of f");
    (0..columns).flat_map(|c| stacked_parts(&Value::Complex(Array::column(z.data[c * m..(c + 1) * m].to_vec())))).collect()
}

/// Central differences of f's real and imaginary parts.
fn fd(text: &str, captured: &[(&str, Value)], x: &[f64]) -> Vec<f64> {
    let mut engine = Engine::new();
    central_differences(x, |xp| stacked_parts(&run(&mut engine, &request(text, captured.to_vec(), &xp, Options::default(), 1)).value))
}

/// J in full, detected (first call) and compressed (second call) forward mode, each against central
/// differences; returns the full one.
fn check(text: &str, captured: Vec<(&str, Value)>, x: &[f64], tol: f64) -> Evaluation {
    let expected = fd(text, &captured, x);
    let full = Options { mode: Mode::Forward, sparsity: Sparsity::None, ..Options::default() };
    let auto = Options { mode: Mode::Forward, ..Options::default() };
    let mut engine = Engine::new();
    let mut results = vec![run(&mut Engine::new(), &request(text, captured.clone(), x, full, 2))];
    for _ in 0..2 {
        results.push(run(&mut engine, &request(text, captured.clone(), x, auto.clone(), 2)));
    }
    for result in &results {
        let m = result.value.numel();
        let j = stacked_jacobian(result.jacobian.as_ref().expect("J"), m);
        let err = relative_error(&j, &expected);
        assert!(err <= tol, "{text}: J differs from central differences by {err:e}");
    }
    results.swap_remove(0)
}

/// The complex step `J(:, j) = imag(f(x + i h e_j)) / h` (h = 1e-30), through an extra argument (x
/// itself is real): exact for code real on the reals, where no complex intermediate's imaginary part
/// would absorb the step.
fn complex_step(text: &str, x: &[f64]) -> Vec<f64> {
    let h = 1e-30;
    let shifted = format!("@(x, d) feval({text}, x + d)");
    let mut engine = Engine::new();
    let mut jac = Vec::new();
    for j in 0..x.len() {
        let mut d = vec![Complex64::new(0.0, 0.0); x.len()];
        d[j] = Complex64::new(0.0, h);
        let args = vec![column(x.to_vec()), Value::Complex(Array::column(d))];
        let req = Request { function: anonymous(&shifted, vec![]), args, options: Options::default(), nargout: 1 };
        let f = run(&mut engine, &req).value;
        jac.extend(f.complex_parts().expect("numeric").data.iter().map(|z| z.im / h));
    }
    jac
}

/// J of `text` as a real matrix (f real).
fn real_jacobian(text: &str, x: &[f64]) -> Vec<f64> {
    let result = run(&mut Engine::new(), &request(text, vec![], x, Options { mode: Mode::Forward, ..Options::default() }, 2));
    let m = result.value.numel();
    let j = stacked_jacobian(result.jacobian.as_ref().expect("J"), m);
    (0..x.len()).flat_map(|c| j[c * 2 * m..c * 2 * m + m].to_vec()).collect()
}

/// The gradient of a real scalar f in reverse and forward mode: reverse mode ran, the two agree to
/// round-off (the dot-product test of the transposed rules), and they match central differences.
fn check_gradient(text: &str, captured: &[(&str, Value)], x: &[f64]) -> Vec<f64> {
    let gradient = |mode| {
        let req = request(text, captured.to_vec(), x, Options { mode, verbose: true, ..Options::default() }, 2);
        let result = run(&mut Engine::new(), &req);
        (values(result.jacobian.as_ref().expect("g")), result.log)
    };
    let ((reverse, log), (forward, _)) = (gradient(Mode::Reverse), gradient(Mode::Forward));
    assert!(log.iter().any(|l| l.contains("reverse mode gradient")), "{text}: {log:?}");
    let err = relative_error(&reverse, &forward);
    assert!(err <= 1e-12, "{text}: reverse and forward gradients differ by {err:e}");
    let expected: Vec<f64> = fd(text, captured, x).into_iter().step_by(2).collect();
    let err = relative_error(&reverse, &expected);
    assert!(err <= 1e-7, "{text}: gradient differs from central differences by {err:e}");
    reverse
}

/// H of a real scalar f with the detected pattern (full and sparse storage) and without one (every
/// direction), each against central differences of the gradient and symmetric; returns it (n x n).
fn check_hessian(text: &str, captured: &[(&str, Value)], x: &[f64], tol: f64) -> Vec<f64> {
    let n = x.len();
    let mut engine = Engine::new();
    let mut gradient = |xp: Vec<f64>| {
        values(run(&mut engine, &request(text, captured.to_vec(), &xp, Options::default(), 2)).jacobian.as_ref().expect("g"))
    };
    let g = gradient(x.to_vec());
    let expected = central_differences(x, gradient);
    let ways =
        [(Sparsity::Auto, JacobianStorage::Full), (Sparsity::Auto, JacobianStorage::Sparse), (Sparsity::None, JacobianStorage::Full)];
    let mut engine = Engine::new();
    let mut hessians = Vec::new();
    for (sparsity, jacobian) in ways {
        let options = Options { sparsity: sparsity.clone(), jacobian, ..Options::default() };
        let result = run(&mut engine, &request(text, captured.to_vec(), x, options, 3));
        let err = relative_error(&values(result.jacobian.as_ref().expect("g")), &g);
        assert!(err <= 1e-12, "{text}: the Hessian run's gradient differs from the gradient by {err:e}");
        let h = values(result.hessian.as_ref().expect("H"));
        assert_eq!(h.len(), n * n, "{text}: H is n x n");
        let err = relative_error(&h, &expected);
        assert!(
            err <= tol,
            "{text} ({sparsity:?}, {jacobian:?}): H differs from differences of g by {err:e}\nH = {h:?}\nfd = {expected:?}"
        );
        for i in 0..n {
            for j in 0..i {
                assert!((h[i + j * n] - h[j + i * n]).abs() <= 1e-12 * (1.0 + h[i + j * n].abs()), "{text}: H is not symmetric: {h:?}");
            }
        }
        hessians.push(h);
    }
    let err = relative_error(&hessians[0], &hessians[2]);
    assert!(err <= 1e-12, "{text}: H with the detected pattern differs from H without one by {err:e}");
    hessians.swap_remove(0)
}

const X: [f64; 3] = [0.7, -1.3, 2.1];

#[test]
fn holomorphic_functions_of_complex_values_match_differences() {
    for f in ["exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "log10", "log2"] {
        check(&format!("@(x) {f}(x + 0.5i * x.^2 + 0.25i)"), vec![], &X, 1e-7);
    }
}

#[test]
fn real_functions_outside_their_domain_differentiate_into_complex_values() {
    check("@(x) sqrt(x)", vec![], &X, 1e-7);
    check("@(x) log(x - 1)", vec![], &X, 1e-7);
    check("@(x) x .^ 0.5", vec![], &X, 1e-7);
}

#[test]
fn arithmetic_of_complex_with_real_and_real_with_complex() {
    let texts = [
        "@(x) (x + 2i) .* x",
        "@(x) x .* (x - 1i)",
        "@(x) (x + 2i) ./ x",
        "@(x) x ./ (x + 1i)",
        "@(x) (x + 1i) .\\ x.^2",
        "@(x) x - (3 - x * 1i)",
        "@(x) -(1i * x) + x(1)",
        "@(x) (x + 1i) .^ 2",
        "@(x) (x + 1i) .^ x",
        "@(x) 2 .^ (1i * x)",
        "@(x) (x(1) + 1i) ^ 3 * x",
        "@(x) x / (x(2) + 1i)",
        "@(x) (x(3) - 2i) \\ x",
        "@(x) 1j * x",
        "@(x) (1 + 2i) * x'",
    ];
    for text in texts {
        check(text, vec![], &X, 1e-7);
    }
}

#[test]
fn parts_moduli_arguments_and_conjugates() {
    for text in [
        "@(x) real(exp(1i * x) .* x)",
        "@(x) imag(exp(1i * x) .* x)",
        "@(x) abs(x + 1i * x.^2)",
        "@(x) angle(x + 1i * x.^2)",
        "@(x) arg(x - 2i)",
        "@(x) conj(x .* exp(1i * x))",
        "@(x) complex(x, x.^2)",
        "@(x) complex(x(1), x)",
        "@(x) abs(exp(1i * x)).^2 + real(x .* (1 - 1i))",
    ] {
        check(text, vec![], &X, 1e-7);
    }
}

#[test]
fn linear_operations_on_complex_values() {
    for text in [
        "@(x) sum(exp(1i * x))",
        "@(x) sum(x .* exp(1i * x) * [1 2i])",
        "@(x) (x + 1i * x.^2)'",
        "@(x) (x + 1i * x.^2).'",
        "@(x) [x + 1i; exp(1i * x); 2]",
        "@(x) [x.' * 1i, 3]",
        "@(x) reshape(x * [1i, 2], 2, 3)",
        "@(x) cumsum(x * 1i + x.^2)",
    ] {
        check(text, vec![], &X, 1e-7);
    }
}

#[test]
fn indexing_and_assignment_of_complex_values() {
    let named = |name: &str| check(name, vec![], &X, 1e-7);
    named("@(x) feval(@(z) z([3 1 1]), exp(1i * x))");
    named("@(x) feval(@(z) z(2:end), x * 1i + x.^3)");
    check("@(x) complex_assign(x)", vec![], &X, 1e-7);
    check("@(x) complex_loop(x)", vec![], &X, 1e-7);
}

#[test]
fn products_with_constant_complex_matrices() {
    let a = Value::Complex(Array::new(
        vec![2, 3],
        [(1.0, 2.0), (0.5, -1.0), (0.0, 3.0), (2.0, 0.0), (-1.0, 1.0), (0.3, 0.2)].iter().map(|&(r, i)| Complex64::new(r, i)).collect(),
    ));
    check("@(x) A * exp(1i * x)", vec![("A", a.clone())], &X, 1e-7);
    check("@(x) A * x", vec![("A", a.clone())], &X, 1e-7);
    check("@(x) (x.' * A.') .* [1 2i]", vec![("A", a)], &X, 1e-7);
    let square = square_matrix();
    check("@(x) B \\ (x + 1i * x.^2)", vec![("B", square.clone())], &X, 1e-7);
    check("@(x) B \\ [x, x.^2]", vec![("B", square.clone())], &X, 1e-7);
    check("@(x) (B + diag(x)) \\ exp(1i * x)", vec![("B", square)], &X, 1e-7);
    check("@(x) [3 1 0; 1 4 x(1); 0 1 5] \\ (x * 1i)", vec![], &X, 1e-7);
}

#[test]
fn a_real_f_gets_a_real_jacobian_and_a_complex_f_a_complex_one() {
    let real = check("@(x) abs(exp(1i * x) + x)", vec![], &X, 1e-7);
    assert!(matches!(real.jacobian, Some(Value::Double(_) | Value::Sparse(_))), "real J for a real f");
    let complex = check("@(x) exp(1i * x)", vec![], &X, 1e-7);
    assert!(matches!(complex.jacobian, Some(Value::Complex(_))), "complex J for a complex f");
}

#[test]
fn a_complex_value_whose_imaginary_parts_are_zero_at_x_keeps_its_derivative() {
    // exp(1i*0) = 1 is real (Octave narrows it), but its derivative is 1i.
    let result = check("@(x) exp(1i * x)", vec![], &[0.0, 0.0], 1e-7);
    assert!(matches!(result.value, Value::Double(_)), "f narrows as Octave's");
    check("@(x) imag(exp(1i * x)) + 0 * x", vec![], &[0.0, 0.0], 1e-7);
    check("@(x) imag((1i * x) .^ 2 + x)", vec![], &[0.0, 1.0], 1e-7);
}

#[test]
fn complex_forms_agree_with_their_real_forms_and_the_complex_step() {
    // The complex step does not apply through complex intermediates (their imaginary parts absorb the
    // step): the real form of each function, whose J the complex step checks, is the oracle.
    let pairs = [
        ("@(x) (exp(1i * x) + exp(-1i * x)) / 2", "@(x) cos(x)"),
        ("@(x) real(exp(1i * x) .* (x + 2i))", "@(x) cos(x) .* x - 2 * sin(x)"),
        ("@(x) abs(x .* exp(2i * x) + 1).^2", "@(x) (x .* cos(2 * x) + 1).^2 + (x .* sin(2 * x)).^2"),
        ("@(x) angle(exp(0.5i * x) .* (2 + x))", "@(x) 0.5 * x"),
        ("@(x) imag(sqrt(x - 3))", "@(x) sqrt(3 - x)"),
    ];
    for (complex_form, real_form) in pairs {
        let step = complex_step(real_form, &X);
        let err = relative_error(&real_jacobian(real_form, &X), &step);
        assert!(err <= 1e-13, "{real_form}: J differs from the complex step by {err:e}");
        let err = relative_error(&real_jacobian(complex_form, &X), &step);
        assert!(err <= 1e-13, "{complex_form}: J differs from the complex step of {real_form} by {err:e}");
    }
}

/// The gradient of a real scalar f through complex values, in reverse mode (the tape's complex steps
/// carry adjoints of the real and imaginary parts) and forward mode (see `check_gradient`).
#[test]
fn real_gradients_through_complex_values_in_reverse_mode_match_forward_mode() {
    let x: Vec<f64> = (0..12).map(|k| 0.1 * k as f64 - 0.4).collect();
    for text in REAL_OBJECTIVES {
        check_gradient(text, &[("A", wide_matrix())], &x);
    }
}

/// Real objectives through complex values, each kind of complex rule (`A`: `wide_matrix`).
const REAL_OBJECTIVES: [&str; 9] = [
    "@(x) sum(abs(exp(1i * x)).^2 + real(x .* exp(1i * x)))",
    "@(x) sum(angle(x + 2i) .* imag(sqrt(x - 1)))",
    "@(x) sum(abs(A * (x .* exp(1i * x))).^2)",
    "@(x) real(sum(conj(x + 1i * x.^2) .* log(x + 3i)))",
    "@(x) abs((x(1) + 1i) * (x(2) - 2i) * x(3) / (x(4) + 0.5i))",
    "@(x) sum(sum(abs((x + 0.5i) .^ 2 ./ (x.' - 3i))))",
    "@(x) imag(sum(exp(1i * x(3:7))) * (x(1) + 2i))",
    "@(x) real([exp(1i * x(1:2)); x(3) + 1i]' * [x(4); 2i; x(5)])",
    "@(x) sum(real(([4 1; 1 3] + 1i * [x(1) 0; 0 x(2)]) \\ [x(3); 1i * x(4)]))",
];

/// A constant 2 x 12 complex matrix.
fn wide_matrix() -> Value {
    Value::Complex(Array::new(
        vec![2, 12],
        (0..24).map(|k| Complex64::new(0.3 * (k % 5) as f64 - 0.5, 0.2 * (k % 7) as f64 - 0.6)).collect(),
    ))
}

/// An n-bus network's Ybus (complex sparse), injections S, and a point x = [Va; Vm].
fn power_flow_case(n: usize) -> (Value, Value, Vec<f64>) {
    let ybus = Value::ComplexSparse(ComplexSparse::from_dense(&Array::new(vec![n, n], network(n))));
    let s = Value::Complex(Array::column((0..n).map(|k| Complex64::new(0.1 * (k % 3) as f64, -0.05 * (k % 4) as f64)).collect()));
    let x: Vec<f64> =
        (0..n).map(|k| 0.05 * ((k * 13 % 11) as f64 - 5.0) / 5.0).chain((0..n).map(|k| 1.0 + 0.01 * (k % 5) as f64)).collect();
    (ybus, s, x)
}

const POWER_FLOW_OBJECTIVE: &str = "@(x) 0.5 * sum(power_mismatch(x, Y, S).^2)";

/// The power-flow least-squares objective 0.5 * sum(F.^2) through the complex sparse Ybus, reverse
/// against forward mode.
#[test]
fn the_power_flow_least_squares_gradient_runs_in_reverse_mode() {
    let (ybus, s, x) = power_flow_case(30);
    check_gradient(POWER_FLOW_OBJECTIVE, &[("Y", ybus), ("S", s)], &x);
}

/// Hessians through complex values: each real objective's H against central differences of its
/// gradient, with and without the detected pattern.
#[test]
fn hessians_through_complex_values_match_differences_of_the_gradient() {
    // Away from x = 0, where abs(x + 1i * x.^2) is not differentiable (its rules take zero there).
    let x: Vec<f64> = (0..12).map(|k| 0.1 * k as f64 - 0.35).collect();
    for text in REAL_OBJECTIVES {
        check_hessian(text, &[("A", wide_matrix())], &x, 1e-6);
    }
    for text in [
        "@(x) sum(abs(exp(1i * x)).^2 + real(x .* exp(2i * x)))",
        "@(x) sum(abs(x + 1i * x.^2).^2)",
        "@(x) sum(angle(x + 2i + 1i * x.^3) .* x)",
        "@(x) sum(real((x + 1i) .^ x) + imag((x - 2i) .^ 3) + abs(sqrt(x - 2)))",
        "@(x) real(sum(2 .^ (1i * x) + (x + 1i) .\\ x.^2 + x ./ (x + 1i)))",
        "@(x) real(sum(sum((x * exp(1i * x).') * (x .^ 2 + 1i))))",
        "@(x) real(sum(conj(exp(1i * x)) .* exp(2i * x) .* x))",
        "@(x) sum(abs(fft(x .* exp(1i * x))).^2) + sum(real(ifft(x.^2 + 1i * x)))",
        "@(x) sum(abs([x + 1i; exp(1i * x(end:-1:1))]).^2 .* [x; x])",
    ] {
        check_hessian(text, &[], &x, 1e-6);
    }
    for f in ["exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "log10", "log2"] {
        check_hessian(&format!("@(x) sum(real({f}(x + 0.5i * x.^2 + 0.25i)) .* x + imag({f}(0.5 * x - 1i)))"), &[], &X, 1e-6);
    }
}

/// Matrix solves with complex operands that depend on x, in a Hessian.
#[test]
fn hessians_through_complex_solves_match_differences_of_the_gradient() {
    let b = square_matrix();
    for text in [
        "@(x) sum(abs(exp(1i * x.') / (B + diag(x))).^2)",
        "@(x) sum(abs((B + diag(x.^2)) \\ (x + 1i)).^2)",
        "@(x) real(sum((B * x(1) + 1i * eye(3)) \\ exp(1i * x)))",
        "@(x) imag(sum(x.' / (B + 1i * diag(x))))",
        "@(x) sum(abs([3 1 0; 1 4 x(1); 0 1 5] \\ (x * 1i + x.^2)).^2)",
    ] {
        check_hessian(text, &[("B", b.clone())], &X, 1e-6);
    }
}

/// H against exact second derivatives: Parseval makes `sum(abs(fft(x)).^2)` `n sum(x.^2)`, and the
/// complex step of the analytic gradient of `abs(x .* exp(2i x) + 1).^2 = x^2 + 2 x cos(2x) + 1`.
#[test]
fn hessians_through_complex_values_match_exact_second_derivatives() {
    let x: Vec<f64> = (0..8).map(|k| 0.3 * k as f64 - 1.0).collect();
    let n = x.len();
    let h = check_hessian("@(x) sum(abs(fft(x)).^2)", &[], &x, 1e-6);
    let parseval: Vec<f64> = (0..n * n).map(|k| if k % (n + 1) == 0 { 2.0 * n as f64 } else { 0.0 }).collect();
    assert!(relative_error(&h, &parseval) <= 1e-13, "H of sum(abs(fft(x)).^2) is 2n I: {h:?}");
    let h = check_hessian("@(x) sum(abs(x .* exp(2i * x) + 1).^2)", &[], &X, 1e-6);
    let step = complex_step("@(x) 2 * x + 2 * cos(2 * x) - 4 * x .* sin(2 * x)", &X);
    assert!(relative_error(&h, &step) <= 1e-13, "H differs from the complex step of the analytic gradient: {h:?}\n{step:?}");
}

/// The power-flow least-squares Hessian through the constant complex sparse Ybus: against central
/// differences of its gradient, sparse and with the dense one's values.
#[test]
fn the_power_flow_least_squares_hessian_matches_differences_of_the_gradient() {
    let (ybus, s, x) = power_flow_case(30);
    check_hessian(POWER_FLOW_OBJECTIVE, &[("Y", ybus), ("S", s)], &x, 1e-6);
    // A larger network: H is sparse (compression pays) with the values of the full one.
    let (ybus, s, x) = power_flow_case(200);
    let captured = vec![("Y", ybus), ("S", s)];
    let hessian = |sparsity| {
        let options = Options { sparsity, verbose: true, ..Options::default() };
        run(&mut Engine::new(), &request(POWER_FLOW_OBJECTIVE, captured.clone(), &x, options, 3))
    };
    let (sparse, full) = (hessian(Sparsity::Auto), hessian(Sparsity::None));
    assert!(matches!(sparse.hessian, Some(Value::Sparse(_))), "a sparse H: {:?}", sparse.log);
    let err = relative_error(&values(sparse.hessian.as_ref().expect("H")), &values(full.hessian.as_ref().expect("H")));
    assert!(err <= 1e-12, "the sparse H differs from the full one by {err:e}");
}

#[test]
fn hessians_of_a_complex_f_and_through_complex_assignment_are_msad_errors() {
    let err =
        Engine::new().evaluate(&mut host(), &request("@(x) sum(exp(1i * x))", vec![], &X, Options::default(), 3)).expect_err("refused");
    assert_eq!(err.kind, ErrorKind::BadInput, "{err}");
    assert!(err.to_string().contains("f is complex"), "{err}");
    let function = named("complex_assign_objective");
    let req = Request { function, args: vec![column(vec![0.1, 0.2, 0.3])], options: Options::default(), nargout: 3 };
    let err = Engine::new().evaluate(&mut host(), &req).expect_err("refused");
    assert_eq!(err.kind, ErrorKind::Unsupported, "{err}");
    assert!(err.to_string().contains("subsasgn"), "{err}");
}

/// Reverse mode refuses indexed assignment into a complex value that depends on x: 'auto' falls back
/// to forward mode, and a later explicit 'reverse' request on the same plan raises the refusal rather
/// than reusing the forward plan silently.
#[test]
fn an_explicit_reverse_request_after_an_auto_fallback_is_refused_not_run_forward() {
    let x: Vec<f64> = (0..12).map(|k| 0.1 * k as f64 + 0.05).collect();
    let function = named("complex_assign_objective");
    let call = |engine: &mut Engine, mode: Mode| {
        let req = Request {
            function: function.clone(),
            args: vec![column(x.clone())],
            options: Options { mode, verbose: true, ..Options::default() },
            nargout: 2,
        };
        engine.evaluate(&mut host(), &req)
    };
    let mut engine = Engine::new();
    let auto = call(&mut engine, Mode::Auto).expect("auto runs forward");
    assert!(auto.log.iter().any(|l| l.contains("reverse mode unavailable")), "{:?}", auto.log);
    let expected = central_differences(&x, |xp| values(&evaluate(&mut Engine::new(), &function, vec![column(xp)], 1).expect("f").value));
    let err = relative_error(&values(auto.jacobian.as_ref().expect("g")), &expected);
    assert!(err <= 1e-7, "gradient differs from central differences by {err:e}");
    let refused = call(&mut engine, Mode::Reverse).expect_err("an explicit reverse request is refused");
    assert_eq!(refused.kind, ErrorKind::Unsupported, "{refused}");
    assert!(refused.to_string().contains("subsasgn"), "{refused}");
    assert!(call(&mut engine, Mode::Auto).is_ok(), "auto still runs forward");
}

#[test]
fn a_complex_x_is_a_clear_error() {
    let args = vec![Value::Complex(Array::column(vec![Complex64::new(1.0, 2.0)]))];
    let req = Request { function: anonymous("@(z) z .^ 2", vec![]), args, options: Options::default(), nargout: 2 };
    let err = Engine::new().evaluate(&mut host(), &req).expect_err("refused");
    assert_eq!(err.kind, ErrorKind::BadInput);
    assert!(err.to_string().contains("[real(z); imag(z)]"), "{err}");
}

#[test]
fn functions_without_a_complex_rule_are_msad_errors() {
    let err =
        Engine::new().evaluate(&mut host(), &request("@(x) sort(x * 1i + x.^2)", vec![], &X, Options::default(), 2)).expect_err("refused");
    assert_eq!(err.kind, ErrorKind::Unsupported, "{err}");
    assert!(err.to_string().contains("sort"), "{err}");
}

/// A meshed network: a ring of `n` buses plus chords `k -> (7k + 3) mod n`, line admittances
/// `1 / (r + i x)` with r, x varying by line, and a shunt at each bus. Returns Ybus as a dense complex
/// array (column-major).
fn network(n: usize) -> Vec<Complex64> {
    let mut y = vec![Complex64::new(0.0, 0.0); n * n];
    let mut line = |i: usize, j: usize, k: usize| {
        if i == j {
            return;
        }
        let admittance = Complex64::new(0.01 + 0.002 * (k % 5) as f64, 0.1 + 0.01 * (k % 7) as f64).inv();
        y[i + j * n] -= admittance;
        y[j + i * n] -= admittance;
        y[i + i * n] += admittance;
        y[j + j * n] += admittance;
    };
    for k in 0..n {
        line(k, (k + 1) % n, k);
        line(k, (7 * k + 3) % n, k + n);
    }
    (0..n).for_each(|k| y[k + k * n] += Complex64::new(0.0, 0.01));
    y
}

#[test]
fn power_flow_jacobian_has_the_pattern_and_values_of_the_hand_coded_one() {
    let n = 40;
    let y = network(n);
    let va: Vec<f64> = (0..n).map(|k| 0.05 * ((k * 13 % 11) as f64 - 5.0) / 5.0).collect();
    let vm: Vec<f64> = (0..n).map(|k| 1.0 + 0.02 * ((k * 7 % 9) as f64 - 4.0) / 4.0).collect();
    let v: Vec<Complex64> = va.iter().zip(&vm).map(|(&a, &m)| Complex64::from_polar(m, a)).collect();
    let ibus: Vec<Complex64> = (0..n).map(|i| (0..n).map(|j| y[i + j * n] * v[j]).sum()).collect();
    let s: Vec<Complex64> = (0..n).map(|k| Complex64::new(0.1 * (k % 3) as f64, -0.05 * (k % 4) as f64)).collect();
    // dS/dVa = 1i diag(V) conj(diag(Ibus) - Ybus diag(V)); dS/dVm = diag(V) conj(Ybus diag(V./|V|)) + conj(diag(Ibus)) diag(V./|V|).
    let mut expected = vec![0.0; 2 * n * 2 * n];
    let i1 = Complex64::new(0.0, 1.0);
    for j in 0..n {
        let unit = v[j] / v[j].norm();
        for i in 0..n {
            let diag = if i == j { 1.0 } else { 0.0 };
            let d_va = i1 * v[i] * (ibus[i] * diag - y[i + j * n] * v[j]).conj();
            let d_vm = v[i] * (y[i + j * n] * unit).conj() + ibus[i].conj() * unit * diag;
            for (column, d) in [(j, d_va), (n + j, d_vm)] {
                expected[column * 2 * n + i] = d.re;
                expected[column * 2 * n + n + i] = d.im;
            }
        }
    }
    let dense = Array::new(vec![n, n], y);
    let s = Value::Complex(Array::column(s));
    let x: Vec<f64> = va.iter().chain(&vm).copied().collect();
    let sparse = Value::ComplexSparse(ComplexSparse::from_dense(&dense));
    let mut engine = Engine::new();
    for (call, ybus) in [Value::Complex(dense), sparse.clone(), sparse].into_iter().enumerate() {
        let args = vec![column(x.clone()), ybus, s.clone()];
        let req = Request { function: named("power_mismatch"), args, options: Options::default(), nargout: 2 };
        let result = run(&mut engine, &req);
        let j = result.jacobian.as_ref().expect("J");
        assert!(matches!(j, Value::Sparse(_)), "call {call}: a sparse J");
        let got = values(j);
        let pattern = |m: &[f64]| m.iter().map(|v| *v != 0.0).collect::<Vec<_>>();
        assert_eq!(pattern(&got), pattern(&expected), "call {call}: the pattern of the hand-coded Jacobian");
        let err = relative_error(&got, &expected);
        assert!(err <= 1e-13, "call {call}: J differs from the hand-coded Jacobian by {err:e}");
    }
}

/// A 3 x 3 complex sparse matrix with real, imaginary and complex entries and an empty row.
fn complex_sparse() -> Value {
    let entries = [(1.0, 2.0), (0.0, 0.0), (0.0, -1.5), (0.5, 0.0), (0.0, 0.0), (0.0, 0.0), (2.0, -1.0), (0.0, 0.0), (3.0, 0.25)];
    Value::ComplexSparse(ComplexSparse::from_dense(&Array::new(vec![3, 3], entries.iter().map(|&(r, i)| Complex64::new(r, i)).collect())))
}

fn dense_of(v: &Value) -> Value {
    match v {
        Value::ComplexSparse(s) => Value::Complex(s.to_dense()),
        other => other.clone(),
    }
}

/// Each expression's value on the complex sparse matrix: sparse where Octave's is, with the values
/// the same expression gives on the full matrix.
#[test]
fn complex_sparse_kernels_keep_octaves_storage_and_match_the_full_ones() {
    let y = complex_sparse();
    let cases = [
        ("@(Y) Y * [1; 2i; -3]", false),
        ("@(Y) [1, 2i, -3] * Y", false),
        ("@(Y) Y * [1 2; 3 4; 5 6i]", false),
        ("@(Y) Y * Y", true),
        ("@(Y) Y * sparse([1 0 0; 0 0 2; 0 3 0])", true),
        ("@(Y) Y + Y.'", true),
        ("@(Y) Y - sparse(eye(3))", true),
        ("@(Y) Y + 1", false),
        ("@(Y) 2i * Y", true),
        ("@(Y) Y / 4", true),
        ("@(Y) conj(Y)", true),
        ("@(Y) Y'", true),
        ("@(Y) -Y", true),
        ("@(Y) real(Y)", true),
        ("@(Y) imag(Y)", true),
        ("@(Y) abs(Y)", true),
        ("@(Y) Y(2:3, [1 3])", true),
        ("@(Y) Y(:, 1)", true),
        ("@(Y) full(Y)", false),
        ("@(Y) [nnz(Y), size(Y), issparse(Y), iscomplex(Y), isreal(Y)]", false),
    ];
    let mut engine = Engine::new();
    let mut value_of = |text: &str, y: &Value| {
        let x = column(vec![0.0]);
        let function = anonymous(&text.replacen("@(Y)", "@(x)", 1), vec![("Y", y.clone())]);
        evaluate(&mut engine, &function, vec![x], 1).unwrap_or_else(|e| panic!("{text}: {e}")).value
    };
    for (text, sparse) in cases {
        let got = value_of(text, &y);
        assert_eq!(matches!(got, Value::Sparse(_) | Value::ComplexSparse(_)), sparse, "{text}: storage of {got:?}");
        let on_full = value_of(&text.replace("issparse(Y)", "1"), &dense_of(&y));
        let (got, expected) = (got.complex_parts().expect("numeric"), on_full.complex_parts().expect("numeric"));
        assert_eq!(got.dims, expected.dims, "{text}");
        assert_eq!(got.data, expected.data, "{text}");
    }
    assert_eq!(values(&value_of("@(Y) nnz(Y)", &y)), [5.0]);
    let real = value_of("@(Y) Y(1, 2) * 2", &y);
    assert!(matches!(real, Value::Sparse(_)), "a real part alone narrows to real sparse: {real:?}");
}

/// Products of a constant complex sparse matrix with complex values that depend on x, against central
/// differences (the derivative reads the matrix's real and imaginary parts, both sparse).
#[test]
fn products_with_constant_complex_sparse_matrices() {
    let y = complex_sparse();
    for text in [
        "@(x) Y * exp(1i * x)",
        "@(x) Y * x",
        "@(x) Y.' * (x .* exp(1i * x))",
        "@(x) x.' * Y'",
        "@(x) real(conj(Y * exp(1i * x)) .* x)",
        "@(x) (2 * Y + Y.') * [x, x.^2]",
    ] {
        check(text, vec![("Y", y.clone())], &X, 1e-7);
    }
}

#[test]
fn complex_sparse_matrices_that_depend_on_x_are_refused() {
    let y = complex_sparse();
    for (text, what) in [("@(x) full(x(1) * Y) * x", "complex sparse matrices that depend on x"), ("@(x) Y .* x", "complex sparse")] {
        let err = Engine::new().evaluate(&mut host(), &request(text, vec![("Y", y.clone())], &X, Options::default(), 2)).expect_err(text);
        assert_eq!(err.kind, ErrorKind::Unsupported, "{text}: {err}");
        assert!(err.to_string().contains(what), "{text}: {err}");
    }
}

/// `fft` and `ifft` (linear: each direction's block transformed) against central differences, with
/// padding, truncation, a dimension and matrices; a real f through them in reverse mode as forward mode.
#[test]
fn fourier_transforms_match_differences_in_both_modes() {
    for text in [
        "@(x) fft(x)",
        "@(x) fft(x, 5)",
        "@(x) fft(x, 2)",
        "@(x) ifft(exp(1i * x))",
        "@(x) ifft(x.^2, 4)",
        "@(x) fft([x, x.^2])",
        "@(x) fft([x, x.^2], [], 2)",
        "@(x) fft([x; 1; x], 8)",
        "@(x) abs(fft(x.' .* [1 2 3])).^2",
        "@(x) real(ifft(fft(x) .* [1; 2i; -1]))",
    ] {
        check(text, vec![], &X, 1e-7);
    }
    let x: Vec<f64> = (0..12).map(|k| 0.1 * k as f64 - 0.4).collect();
    for text in ["@(x) sum(abs(fft(x .* exp(1i * x))).^2)", "@(x) real(sum(ifft(x, 16) .* exp(1i * (1:16)')))"] {
        check_gradient(text, &[], &x);
    }
}

/// An fft whose value narrows to real (a symmetric x) keeps its imaginary parts' derivatives.
#[test]
fn a_real_valued_fft_keeps_its_imaginary_derivatives() {
    let x = [1.0, 2.0, 3.0, 2.0];
    let result = check("@(x) fft(x)", vec![], &x, 1e-7);
    assert!(matches!(result.jacobian, Some(Value::Complex(_))), "J is complex");
    assert!(matches!(result.value, Value::Double(_)), "f narrows to real as Octave's");
}

/// `B / A` with complex operands (`(A.' \ B.').'`, one factorisation for every direction), in forward
/// mode against central differences and in reverse mode against forward mode.
#[test]
fn right_division_by_complex_matrices() {
    let square = square_matrix();
    for text in [
        "@(x) (x.' + 1i * x.'.^2) / B",
        "@(x) [x.'; x.'.^2] / B",
        "@(x) exp(1i * x.') / [3 1 0; 1 4 x(1); 0 1 5]",
        "@(x) [x.'; 2 * x.'] / (B + diag(x))",
        "@(x) x.' / (B * x(2))",
    ] {
        check(text, vec![("B", square.clone())], &X, 1e-7);
    }
    check_gradient("@(x) sum(abs(exp(1i * x.') / (B + diag(x))).^2)", &[("B", square)], &X);
}

/// A 3 x 3 complex matrix, regular.
fn square_matrix() -> Value {
    let entries = [(4.0, 1.0), (1.0, 0.0), (0.0, -1.0), (0.5, 0.5), (3.0, -2.0), (1.0, 0.0), (0.0, 0.0), (2.0, 1.0), (5.0, 0.3)];
    Value::Complex(Array::new(vec![3, 3], entries.iter().map(|&(r, i)| Complex64::new(r, i)).collect()))
}

/// Issue 22's complex-capable primitives, each in a real, vector-valued G(x) where it meets complex
/// values that depend on x (`B`: `square_matrix`, `Y`: `complex_sparse`).
const PRIMITIVE_CASES: [(&str, &str); 21] = [
    ("exp", "real(exp(1i * x) .* (x + 2i))"),
    ("log", "imag(log(x + 1i * x.^2 + 1i))"),
    ("sqrt", "real(sqrt(x - 1 + 1i * x))"),
    ("power", "imag((x + 1i) .^ 3 + (x + 2i) .^ x)"),
    ("mpower", "real((x(1) + 1i) ^ x(2) * x)"),
    ("conj", "real(conj(x + 1i * x.^2) .* exp(1i * x))"),
    ("real", "real(x .* exp(1i * x)) .* x"),
    ("imag", "imag(x .* exp(1i * x)).^2"),
    ("abs", "abs(x + 1i * x.^2)"),
    ("angle", "angle(x + 2i + 1i * x.^2)"),
    ("times", "real((x + 1i) .* (x.^2 - 2i))"),
    ("mtimes", "real((x * 1i + 1) * (x.' + 2i) * x)"),
    ("rdivide", "imag(x ./ (x.^2 + 1i))"),
    ("mrdivide", "real(x.' / (B + 1i * diag(x)))"),
    ("mldivide", "real((B + 1i * diag(x)) \\ (x.^2 + 1i))"),
    ("mtimes with a complex sparse matrix", "real(conj(Y * exp(1i * x)) .* exp(1i * x))"),
    ("sum", "real(sum(exp(1i * x)) * exp(1i * x))"),
    ("indexing", "abs(feval(@(z) z([3 1 1]), exp(1i * x) + x))"),
    ("concatenation", "abs([x + 1i; exp(1i * x) .* x])"),
    ("fft", "abs(fft(x .* exp(1i * x)))"),
    ("ifft", "real(ifft(x.^2 + 1i * x) .* exp(1i * x))"),
];

/// Every primitive of `PRIMITIVE_CASES` in the three modes: J of G in forward mode (full, detected and
/// compressed) against central differences; the gradient of `sum(G) + sum(G.^2) / 4` in reverse mode
/// against forward mode and differences; its Hessian against differences of the gradient.
#[test]
fn every_complex_primitive_differentiates_in_forward_reverse_and_hessian_mode() {
    let captured = [("B", square_matrix()), ("Y", complex_sparse())];
    for (name, g) in PRIMITIVE_CASES {
        let jacobian = check(&format!("@(x) {g}"), captured.to_vec(), &X, 1e-7);
        assert!(!matches!(jacobian.value, Value::Complex(_)), "{name}: G is real");
        let objective = format!("@(x) feval(@(g) sum(g(:)) + sum(g(:).^2) / 4, {g})");
        check_gradient(&objective, &captured, &X);
        check_hessian(&objective, &captured, &X, 1e-6);
    }
}

/// A real 3 x 3 matrix of x with a complex pair of eigenvalues at `X` (its upper left block has a
/// negative discriminant) and one real eigenvalue.
const ROTATING: &str = "[x(1), -x(2), 0.3; x(2) + 0.5, x(3), 0.1; 0.2, x(1) * x(3), 1.7]";

#[test]
fn complex_eigenvalues_of_a_real_matrix_have_derivatives() {
    let eigenvalues = check(&format!("@(x) eig({ROTATING})"), vec![], &X, 1e-6);
    assert!(matches!(eigenvalues.value, Value::Complex(_)), "the eigenvalues are complex");
    let objective = format!("@(x) feval(@(e) sum(abs(e).^2 + real(e) .* imag(e)), eig({ROTATING}))");
    check_gradient(&objective, &[], &X);
    let err = Engine::new().evaluate(&mut host(), &request(&objective, vec![], &X, Options::default(), 3)).expect_err("no Hessian");
    assert_eq!(err.kind, ErrorKind::NotDifferentiable, "{err}");
    // Two equal rotation blocks: the pair x +- i twice.
    let repeated = "@(x) eig(kron(eye(2), [x(1), -1; 1, x(1)]))";
    let err = Engine::new().evaluate(&mut host(), &request(repeated, vec![], &[0.5], Options::default(), 2)).expect_err("repeated");
    assert_eq!(err.kind, ErrorKind::NotDifferentiable, "{err}");
    assert!(err.to_string().contains("repeated"), "{err}");
}
