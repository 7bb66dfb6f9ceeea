//! Jacobians of the reference problems (tests/octave/problems) against central differences.

mod common;

use common::*;
use msad::diag::ErrorKind;
use msad::engine::{Engine, Options, Request};
use msad::value::{Array, Value};

fn brusselator_init(n: usize) -> Vec<f64> {
    (1..=n)
        .flat_map(|i| {
            let x = i as f64 / (n as f64 + 1.0);
            [1.0 + (2.0 * std::f64::consts::PI * x).sin(), 3.0]
        })
        .collect()
}

#[test]
fn enzyme_residual_matches_finite_differences() {
    let x0 = [0.25, 0.39, 0.415, 0.39];
    let result = check_against_fd(&named("enzyme_residual"), &x0, &[], 1e-7);
    assert_eq!(result.value.dims(), vec![11, 1]);
    assert_eq!(result.jacobian.unwrap().dims(), vec![11, 4]);
}

#[test]
fn brusselator_loop_version_matches_finite_differences() {
    let y0 = brusselator_init(50);
    let result = check_against_fd(&named("brusselator_rhs"), &y0, &[], 1e-7);
    assert_eq!(result.jacobian.unwrap().dims(), vec![100, 100]);
}

#[test]
fn brusselator_vectorised_equals_loop_version() {
    let y0 = brusselator_init(50);
    let mut engine = Engine::new();
    let lp = evaluate(&mut engine, &named("brusselator_rhs"), vec![column(y0.clone())], 2).unwrap();
    let vec = evaluate(&mut engine, &named("brusselator_rhs_vec"), vec![column(y0)], 2).unwrap();
    assert!(relative_error(&values(&lp.value), &values(&vec.value)) < 1e-14);
    assert!(relative_error(&values(lp.jacobian.as_ref().unwrap()), &values(vec.jacobian.as_ref().unwrap())) < 1e-14);
}

#[test]
fn anonymous_function_with_captured_variable() {
    let f = anonymous("@(x) p(1)*x.^2 + sin(x) + brusselator_rhs(x)", vec![("p", column(vec![3.0, 4.0]))]);
    check_against_fd(&f, &[0.5, 1.5, 2.0, 3.5], &[], 1e-7);
}

#[test]
fn unknown_function_reports_its_position() {
    // The tests' host has no built-ins: schur is undefined there, as in Octave for a name found nowhere.
    let mut engine = Engine::new();
    let err = evaluate(&mut engine, &named("calls_schur_on_input"), vec![column(vec![1.0, 2.0])], 2).unwrap_err();
    assert_eq!((err.kind, err.identifier()), (ErrorKind::Undefined, "Octave:undefined-function"), "{err}");
    // Octave's message, with its position as Octave words it.
    assert_eq!(err.message, "'schur' undefined near line 4, column 7", "{err}");
    let (file, line, col) = err.position().expect("position");
    assert!(file.ends_with("calls_schur_on_input.m"), "{file}");
    let text = std::fs::read_to_string(repo_path("tests/octave/fixtures/calls_schur_on_input.m")).unwrap();
    let (eline, ecol) = text.lines().enumerate().find_map(|(i, l)| l.find("schur(shifted)").map(|c| (i + 1, c + 1))).unwrap();
    assert_eq!((line, col), (eline, ecol), "{err}");
}

#[test]
fn a_syntax_error_in_a_called_file_is_reported_there() {
    let err = evaluate(&mut Engine::new(), &named("calls_broken"), vec![column(vec![1.0])], 2).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Parse, "{err}");
    let (file, line, col) = err.position().expect("position");
    assert!(file.ends_with("broken_syntax.m") && (line, col) == (3, 11), "{err}");
    assert!(err.to_string().contains("  y = x + * 2;\n            ^"), "{err}");
}

#[test]
fn non_double_input_is_rejected() {
    let mut engine = Engine::new();
    let err = evaluate(&mut engine, &named("enzyme_residual"), vec![Value::string("abcd")], 2).unwrap_err();
    assert_eq!(err.kind, ErrorKind::BadInput, "{err}");
}

#[test]
fn structs_cells_varargin_while_switch_growth_and_sparse_products() {
    let f = named("reactor_network");
    let x = [1.0, 2e-5, 0.5];
    check_against_fd(&f, &x, &[], 1e-7);
    check_against_fd(&f, &x, &[Value::scalar(0.5)], 1e-7);
}

#[test]
fn derivatives_flow_through_struct_fields_and_cell_elements() {
    check_against_fd(&named("active_containers"), &[0.3, 0.7, 1.1], &[], 1e-8);
    // A scalar output of ten inputs makes 'auto' try reverse mode, which falls back to forward here.
    let x: Vec<f64> = (0..10).map(|i| 0.1 * i as f64 + 0.2).collect();
    let result = check_against_fd(&anonymous("@(x) sum(active_containers(x))", vec![]), &x, &[], 1e-8);
    assert!(result.log.iter().any(|l| l.contains("reverse mode unavailable")), "{:?}", result.log);
}

#[test]
fn handle_to_a_builtin_differentiates_the_primitive() {
    check_against_fd(&named("sin"), &[0.1, 0.5, 2.0], &[], 1e-9);
    check_against_fd(&named("cumsum"), &[0.1, 0.5, 2.0], &[], 1e-9);
}

#[test]
fn later_outputs_of_find_and_grids_carry_derivatives() {
    check_against_fd(&named("find_values"), &[1.5, -2.0, 0.5, 3.0, 2.0], &[], 1e-8);
    check_against_fd(&named("grid_outputs"), &[0.3, -1.2, 2.0, 0.7, 1.1], &[], 1e-8);
    let x: Vec<f64> = (0..12).map(|i| (i as f64 * 0.7 + 0.3).sin()).collect();
    let gradient = check_against_fd(&named("find_objective"), &x, &[], 1e-8);
    // The tape follows every result of a call: find's later outputs no longer force forward mode.
    assert!(gradient.log.iter().any(|l| l.contains("reverse mode gradient")), "{:?}", gradient.log);
}

#[test]
fn user_seed_gives_the_compressed_product() {
    let x = brusselator_init(10);
    let (n, p) = (x.len(), 3);
    let seed: Vec<f64> = (0..n * p).map(|k| ((k * 7 % 11) as f64 - 5.0) / 3.0).collect();
    let full = check_against_fd(&named("brusselator_rhs"), &x, &[], 1e-7);
    let j = values(full.jacobian.as_ref().expect("J"));
    let m = full.value.numel();
    let expected: Vec<f64> = (0..m * p).map(|k| (0..n).map(|c| j[c * m + k % m] * seed[(k / m) * n + c]).sum()).collect();
    let options = Options { seed: Some(Array::new(vec![n, p], seed)), ..Options::default() };
    let request = Request { function: named("brusselator_rhs"), args: vec![column(x.clone())], options, nargout: 2 };
    let mut engine = Engine::new();
    for _ in 0..2 {
        let compressed = engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{d}"));
        let Some(Value::Double(b)) = &compressed.jacobian else { panic!("J*S is full") };
        assert_eq!(b.dims, vec![m, p]);
        assert!(relative_error(&b.data, &expected) < 1e-14, "J*S differs from J times S");
    }
    let wrong = Options { seed: Some(Array::new(vec![n - 1, 1], vec![1.0; n - 1])), ..Options::default() };
    let request = Request { options: wrong, ..request };
    let err = engine.evaluate(&mut host(), &request).unwrap_err();
    assert_eq!(err.kind, ErrorKind::BadInput, "{err}");
}

#[test]
fn recursive_calls_see_their_own_shapes() {
    check_against_fd(&named("recursive_sum"), &[0.5, -2.0, 3.0, 1.25], &[], 1e-8);
}

#[test]
fn user_errors_keep_their_identifier_and_message() {
    let mut engine = Engine::new();
    let x = vec![Value::Double(Array::column(vec![1.0, 2.0]))];
    let err = evaluate(&mut engine, &named("raises_error"), x, 2).unwrap_err();
    assert_eq!((err.identifier(), err.message.as_str()), ("model:negative", "bad value 3"), "{err}");
    let x = vec![Value::Double(Array::column(vec![1.0]))];
    let err = evaluate(&mut engine, &anonymous("@(x) error('x is %d, %s', 3, 'too big')", vec![]), x, 2).unwrap_err();
    assert_eq!((err.identifier(), err.message.as_str()), ("msad:runtime", "x is 3, too big"), "{err}");
    // On the other side of the guard the error is never raised, sparsity detection included.
    check_against_fd(&named("raises_error"), &[-1.0, 2.0], &[], 1e-8);
}

#[test]
fn n_d_operands_of_mtimes_fold_into_columns() {
    let x: Vec<f64> = (0..12).map(|i| (i as f64 * 0.37).sin()).collect();
    check_against_fd(&anonymous("@(x) ones(1, 2) * reshape(x, 2, 3, 2)", vec![]), &x, &[], 1e-8);
    check_against_fd(&anonymous("@(x) reshape(x, 2, 3, 2) * 1", vec![]), &x, &[], 1e-8);
    check_against_fd(&anonymous("@(x) speye(2) * reshape(x .^ 2, 2, 3, 2)", vec![]), &x, &[], 1e-8);
    // A scalar objective of 12 unknowns: 'auto' takes reverse mode.
    for product in ["speye(2)", "[1 2; 3 4]"] {
        let objective = format!("@(x) sum(reshape({product} * reshape(x .^ 2, 2, 3, 2), [], 1))");
        let result = check_against_fd(&anonymous(&objective, vec![]), &x, &[], 1e-8);
        assert!(result.log.iter().any(|l| l.contains("reverse mode gradient")), "{:?}", result.log);
    }
}

/// A name handed on from the closure to the function that turns it into a handle (issue #21): the
/// function called is prepared for the name it is given, so each name gives its own derivatives.
#[test]
fn a_name_handed_on_names_the_function_called() {
    let x = [0.7, -1.3, 2.1];
    type Scalar = fn(f64) -> f64;
    let functions: [(&str, Scalar, Scalar); 2] = [("sin", f64::sin, f64::cos), ("exp", f64::exp, f64::exp)];
    for (name, function, derivative) in functions {
        let f = anonymous("@(y) calls_untaken(y, name)", vec![("name", Value::string(name))]);
        let result = check_against_fd(&f, &x, &[], 1e-7);
        let jacobian = values(result.jacobian.as_ref().expect("a Jacobian"));
        // calls_untaken(y, name) is name(y) .* y: its Jacobian is diagonal.
        for (i, &xi) in x.iter().enumerate() {
            let by_hand = derivative(xi) * xi + function(xi);
            assert!((jacobian[4 * i] - by_hand).abs() <= 1e-14 * by_hand.abs().max(1.0), "{name}: {jacobian:?}");
        }
    }
}
