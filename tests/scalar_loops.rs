//! Loops of scalar code run as register programs (`exec::interp::scalar_loop`): f and J bit for bit
//! those of the interpreter (an unoptimized plan runs every loop there), J against central
//! differences, and errors raised inside such loops unchanged (message, identifier, file, line,
//! column), including where the program hands a loop back to the interpreter halfway. The functions
//! are in tests/octave/fixtures (`loop_*.m`).

mod common;

use common::*;
use msad::engine::{Engine, Evaluation, Mode, Options, Request, Sparsity};
use msad::value::Value;

fn request(name: &str, x: &[f64], nargout: usize, options: Options) -> Request {
    Request { function: named(name), args: vec![column(x.to_vec())], options, nargout }
}

/// A Jacobian's entries, column-major, whatever its storage.
fn full(j: &Value) -> Vec<f64> {
    match j {
        Value::Sparse(s) => s.to_dense().data,
        other => values(other),
    }
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// f and J of `name` at each x in turn (one engine per plan kind, so later calls use the detected
/// pattern, or detect again when a loop test changes path), with compiled loops and without: bit
/// for bit equal, and J within `tolerance` of central differences.
fn check(name: &str, points: &[Vec<f64>], tolerance: f64) {
    check_with(name, points, tolerance, &[Options::default(), Options { sparsity: Sparsity::None, ..Options::default() }]);
}

/// `check` with each of `options` in turn.
fn check_with(name: &str, points: &[Vec<f64>], tolerance: f64, options: &[Options]) {
    for options in options {
        let (mut compiled, mut interpreted) = (Engine::new(), Engine::new());
        for x in points {
            for nargout in [1, 2] {
                let run = |engine: &mut Engine, unoptimized| -> Evaluation {
                    let request = request(name, x, nargout, Options { unoptimized, ..options.clone() });
                    engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{name} at {x:?}: {d}"))
                };
                let (a, b) = (run(&mut compiled, false), run(&mut interpreted, true));
                assert_eq!(bits(&values(&a.value)), bits(&values(&b.value)), "{name} at {x:?}: f differs");
                if let Some((ja, jb)) = a.jacobian.as_ref().map(full).zip(b.jacobian.as_ref().map(full)) {
                    assert_eq!(bits(&ja), bits(&jb), "{name} at {x:?}: J differs");
                    let error = relative_error(&ja, &fd_jacobian(&mut Engine::new(), &named(name), x, &[]));
                    assert!(error < tolerance, "{name} at {x:?}: J differs from central differences by {error:e}");
                }
            }
        }
    }
}

/// Points with entries on both sides of the loops' tests.
fn points(n: usize) -> Vec<Vec<f64>> {
    let wave = |phase: f64| (0..n).map(|i| 0.55 + 0.5 * (1.3 * i as f64 + phase).sin()).collect();
    vec![wave(0.0), wave(0.0), wave(2.0), wave(0.0)]
}

#[test]
fn branches_on_x_inside_a_loop_match_the_interpreter() {
    check("loop_branches", &points(9), 1e-7);
}

#[test]
fn nested_loops_with_break_and_continue_match_the_interpreter() {
    check("loop_nested", &points(7), 1e-7);
}

#[test]
fn while_loops_with_x_dependent_tests_match_the_interpreter() {
    check("loop_while", &points(6), 1e-6);
}

#[test]
fn steps_handed_back_to_the_interpreter_match_it() {
    check("loop_handed_back", &points(5), 1e-7);
}

#[test]
fn the_brusselator_loops_match_the_interpreter() {
    let x: Vec<f64> = (0..40).map(|i| if i % 2 == 0 { 1.0 + 0.1 * (i as f64).sin() } else { 3.0 }).collect();
    check("brusselator_rhs", &[x.clone(), x], 1e-6);
}

/// Gradients by reverse mode record the compiled steps on the tape as the interpreter's fast path does.
#[test]
fn gradients_recorded_on_a_tape_match_the_interpreter() {
    let modes = [Mode::Reverse, Mode::Forward].map(|mode| Options { mode, ..Options::default() });
    check_with("loop_objective", &points(9), 1e-6, &modes);
    let brown: Vec<f64> = (0..12).map(|i| if i % 2 == 0 { -1.0 } else { 1.0 } + 0.05 * i as f64).collect();
    check_with("brown_fun", &[brown.clone(), brown], 1e-6, &modes);
}

/// The error of `name` at x, with compiled loops and without, as the host would show it.
fn errors(name: &str, x: &[f64]) -> [String; 2] {
    [false, true].map(|unoptimized| {
        let mut engine = Engine::new();
        // A first call that succeeds prepares the plan (and its compiled loops) where possible.
        let options = || Options { unoptimized, ..Options::default() };
        let _ = engine.evaluate(&mut host(), &request(name, &[0.5; 2], 2, options()));
        let error = engine.evaluate(&mut host(), &request(name, x, 2, options())).expect_err("an error");
        let location = error.location.as_ref().map(|(file, span)| (file.path.clone(), file.line_col(span.lo)));
        format!("{:?} {:?} {} {location:?} {:?}", error.kind, error.user_identifier, error.message, error.stack)
    })
}

#[test]
fn errors_inside_compiled_loops_are_the_interpreters() {
    let [compiled, interpreted] = errors("loop_out_of_bound", &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
    assert_eq!(compiled, interpreted);
    assert!(compiled.contains("out of bound") && compiled.contains("loop_out_of_bound.m"), "{compiled}");
}

/// A complex intermediate stops the compiled program; the interpreter differentiates it from there:
/// `f = sum(sqrt(x - 1))`, `J(j) = 1 / (2 sqrt(x_j - 1))`, the same with compiled loops and without.
#[test]
fn complex_values_in_compiled_loops_resume_in_the_interpreter() {
    use msad::value::Complex64;
    let x = [2.0, 0.5, 3.0];
    let jacobians = [false, true].map(|unoptimized| {
        let mut engine = Engine::new();
        let options = || Options { unoptimized, mode: Mode::Forward, ..Options::default() };
        let _ = engine.evaluate(&mut host(), &request("loop_complex", &[2.0, 3.0, 4.0], 2, options()));
        let result = engine.evaluate(&mut host(), &request("loop_complex", &x, 2, options())).unwrap_or_else(|d| panic!("{d}"));
        result.jacobian.expect("J").complex_parts().expect("numeric").data.clone()
    });
    assert_eq!(jacobians[0], jacobians[1]);
    for (j, &xj) in jacobians[0].iter().zip(&x) {
        let expected = (Complex64::new(xj - 1.0, 0.0).sqrt() * 2.0).inv();
        assert!((j - expected).norm() <= 1e-15 * expected.norm(), "{j} against {expected}");
    }
}
