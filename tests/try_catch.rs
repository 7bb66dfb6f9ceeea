//! try/catch in differentiated code: the path taken decides the derivative, the state the catch block
//! sees is the one at the error, patterns stay right when the error depends on x, and msad's own errors
//! are never caught.

mod common;

use common::*;
use msad::diag::ErrorKind;
use msad::engine::{Engine, Options, Request};

/// Evaluates `name` at each x in turn with one engine (so later calls reuse the pattern detected by
/// the first, or detect again), checking every Jacobian against central differences.
fn check_sequence(name: &str, points: &[Vec<f64>], options: impl Fn() -> Options) {
    let mut engine = Engine::new();
    for x in points {
        let request = Request { function: named(name), args: vec![column(x.clone())], options: options(), nargout: 2 };
        let result = engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{name} at {x:?}: {d}"));
        let fd = fd_jacobian(&mut Engine::new(), &named(name), x, &[]);
        let err = relative_error(&values(result.jacobian.as_ref().expect("Jacobian")), &fd);
        assert!(err < 1e-7, "{name} at {x:?}: Jacobian differs from central differences by {err:e}");
    }
}

fn sparse() -> Options {
    Options { jacobian: msad::engine::JacobianStorage::Sparse, ..Options::default() }
}

#[test]
fn the_path_through_try_or_catch_decides_the_derivative() {
    let n = 12;
    let body: Vec<f64> = (0..n).map(|i| 0.2 + 0.1 * i as f64).collect();
    let mut caught = body.clone();
    caught[0] = 20.0;
    // Detected on one path, then called on the other (the pattern must be detected again), and back.
    check_sequence("try_index_fallback", &[body.clone(), caught.clone(), body.clone(), caught.clone()], Options::default);
    check_sequence("try_index_fallback", &[caught.clone(), body.clone()], sparse);
    // Scalar: a gradient by reverse mode.
    check_sequence("try_objective", &[body, caught], Options::default);
}

#[test]
fn errors_raised_under_x_dependent_branches_are_caught_on_either_side() {
    let mixed: Vec<f64> = vec![0.5, -1.0, 2.0, -0.3, 3.0, -0.25, 1.5, 4.0];
    let positive: Vec<f64> = mixed.iter().map(|v| v.abs() + 0.5).collect();
    check_sequence("try_branch_error", &[mixed.clone(), positive.clone(), mixed], sparse);
    check_sequence("try_branch_error", &[positive], Options::default);
}

#[test]
fn the_catch_block_sees_the_assignments_made_before_the_error() {
    let x = [1.5, -2.0, 0.75, 3.0, 0.5];
    let result = check_against_fd(&named("try_state_kept"), &x, &[], 1e-7);
    // c(numel(x)) fails after a = x(1) x(2) and b = sin(x(3)): b becomes sin(x(3)) + a.
    let (a, b) = (x[0] * x[1], x[2].sin() + x[0] * x[1]);
    assert_eq!(values(&result.value), vec![a, b, a * b]);
}

#[test]
fn msad_errors_pass_through_try() {
    let mut engine = Engine::new();
    let err = evaluate(&mut engine, &named("try_not_caught"), vec![column(vec![1.0, 2.0])], 2).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsupported, "{err}");
}

#[test]
fn unwind_protect_rejects_jumps_that_would_skip_its_cleanup() {
    let mut engine = Engine::new();
    let err = evaluate(&mut engine, &named("leaves_unwind_protect"), vec![column(vec![1.0, 2.0])], 2).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsupported, "{err}");
    assert!(err.message.contains("break/continue leaving an unwind_protect block"), "{err}");
}
