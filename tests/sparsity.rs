//! Sparsity detection, colouring and compressed Jacobians (issue: sparse Jacobians).

mod common;

use common::*;
use msad::ad::pattern::Pattern;
use msad::diag::ErrorKind;
use msad::engine::{Engine, JacobianStorage, Options, Request, Sparsity};
use msad::value::{FunctionHandle, SparseMatrix, Value};

fn brusselator_init(n: usize) -> Vec<f64> {
    (1..=n).flat_map(|i| [1.0 + (2.0 * std::f64::consts::PI * i as f64 / (n as f64 + 1.0)).sin(), 3.0]).collect()
}

fn run(engine: &mut Engine, f: &FunctionHandle, x: &[f64], options: Options) -> msad::diag::Result<msad::engine::Evaluation> {
    let request = Request { function: f.clone(), args: vec![column(x.to_vec())], options, nargout: 2 };
    engine.evaluate(&mut host(), &request)
}

fn sparse(v: &Value) -> &SparseMatrix {
    match v {
        Value::Sparse(s) => s,
        other => panic!("expected a sparse Jacobian, got {}", other.class_name()),
    }
}

fn log_line<'a>(log: &'a [String], needle: &str) -> &'a str {
    log.iter().find(|l| l.contains(needle)).unwrap_or_else(|| panic!("no log line with '{needle}' in {log:?}"))
}

#[test]
fn brusselator_pattern_is_banded_and_compression_matches_full_mode() {
    for name in ["brusselator_rhs", "brusselator_rhs_vec"] {
        let f = named(name);
        let x = brusselator_init(30);
        let mut engine = Engine::new();
        let detected = run(&mut engine, &f, &x, Options::default()).unwrap();
        let compressed = run(&mut engine, &f, &x, Options::default()).unwrap();
        let full_options = Options { jacobian: JacobianStorage::Full, ..Options::default() };
        let full = run(&mut engine, &f, &x, full_options).unwrap();
        let full = values(full.jacobian.as_ref().unwrap());
        for result in [&detected, &compressed] {
            let j = sparse(result.jacobian.as_ref().unwrap());
            assert_eq!(relative_error(&j.to_dense().data, &full), 0.0, "{name}");
        }
        assert!(log_line(&compressed.log, "compressed evaluation").contains("4 directions"), "{:?}", compressed.log);
    }
}

#[test]
fn brusselator_large_pattern_has_8n_minus_4_entries_and_four_colours() {
    let n = 10_000;
    let mut engine = Engine::new();
    let result = run(&mut engine, &named("brusselator_rhs_vec"), &brusselator_init(n), Options::default()).unwrap();
    let line = log_line(&result.log, "pattern").to_string();
    assert!(line.contains(&format!("nnz {}", 8 * n - 4)), "{line}");
    // Four colours reach the row bound (u_i row: u_{i-1}, u_i, v_i, u_{i+1}); distance-2 colouring of
    // the interleaved band finds it, one fewer than bandwidth colouring's five.
    assert!(line.contains("4 colours (row bound 4"), "{line}");
    assert!(line.contains("global"), "{line}");
    assert_eq!(sparse(result.jacobian.as_ref().unwrap()).nnz(), 8 * n - 4);
}

#[test]
fn value_dependent_branch_gives_pattern_of_both_sides() {
    let f = named("branch_on_x");
    let options = Options { jacobian: JacobianStorage::Pattern, ..Options::default() };
    for x in [[1.0, 2.0, 3.0, 4.0], [-1.0, 2.0, 3.0, 4.0]] {
        let result = run(&mut Engine::new(), &f, &x, options.clone()).unwrap();
        let pattern = Pattern::from_sparse(sparse(result.jacobian.as_ref().unwrap()));
        assert_eq!(pattern.row(0), &[0, 1, 2], "row 1 covers both branches at x = {x:?}");
        assert_eq!(pattern.row(1), &[1]);
        assert_eq!(pattern.row(2), &[0, 3]);
        assert!(log_line(&result.log, "pattern").contains("global"));
    }
    // Values stay exact on each side.
    check_against_fd(&f, &[1.0, 2.0, 3.0, 4.0], &[], 1e-8);
    check_against_fd(&f, &[-1.0, 2.0, 3.0, 4.0], &[], 1e-8);
}

#[test]
fn x_dependent_loop_gives_local_pattern_redetected_when_the_path_changes() {
    let mut engine = Engine::new();
    let f = named("halve_until_small");
    let x: Vec<f64> = (1..=20).map(|i| i as f64).collect();
    let first = run(&mut engine, &f, &x, Options::default()).unwrap();
    assert!(log_line(&first.log, "pattern").contains("local"), "{:?}", first.log);
    let same_path = run(&mut engine, &f, &x.iter().map(|v| v * 1.01).collect::<Vec<_>>(), Options::default()).unwrap();
    assert!(same_path.log.iter().all(|l| !l.contains("detecting again")), "{:?}", same_path.log);
    let other_path = run(&mut engine, &f, &x.iter().map(|v| v * 1000.0).collect::<Vec<_>>(), Options::default()).unwrap();
    log_line(&other_path.log, "detecting again");
    let j = sparse(other_path.jacobian.as_ref().unwrap());
    assert_eq!(j.nnz(), 20);
}

#[test]
fn wrong_user_pattern_is_rejected_and_a_right_one_is_used() {
    let f = named("brusselator_rhs_vec");
    let x = brusselator_init(10);
    let n = x.len();
    let diagonal = Pattern::from_rows(n, &(0..n).map(|i| vec![i]).collect::<Vec<_>>());
    let wrong = Options { sparsity: Sparsity::Pattern(diagonal), ..Options::default() };
    let err = run(&mut Engine::new(), &f, &x, wrong).unwrap_err();
    assert_eq!(err.kind, ErrorKind::BadPattern, "{err}");

    let mut engine = Engine::new();
    let detect = Options { jacobian: JacobianStorage::Pattern, ..Options::default() };
    let pattern = Pattern::from_sparse(sparse(run(&mut engine, &f, &x, detect).unwrap().jacobian.as_ref().unwrap()));
    let right = Options { sparsity: Sparsity::Pattern(pattern), ..Options::default() };
    let result = run(&mut engine, &f, &x, right).unwrap();
    let fd = fd_jacobian(&mut engine, &f, &x, &[]);
    assert!(relative_error(&sparse(result.jacobian.as_ref().unwrap()).to_dense().data, &fd) < 1e-7);
}

#[test]
fn dense_jacobian_stays_full_in_auto_mode() {
    let mut engine = Engine::new();
    let f = named("enzyme_residual");
    for _ in 0..2 {
        let result = run(&mut engine, &f, &[0.25, 0.39, 0.415, 0.39], Options::default()).unwrap();
        assert!(matches!(result.jacobian, Some(Value::Double(_))));
    }
}

fn rd2d_init(m: usize) -> Vec<f64> {
    (0..m * m).map(|k| 0.5 + 0.4 * ((k as f64) * 0.37).sin()).collect()
}

#[test]
fn reaction_diffusion_with_kron_spdiags_laplacian() {
    let f = named("rd2d_rhs");
    check_against_fd(&f, &rd2d_init(10), &[], 1e-7);
    let m = 100;
    let mut engine = Engine::new();
    let result = run(&mut engine, &f, &rd2d_init(m), Options::default()).unwrap();
    let line = log_line(&result.log, "pattern");
    let colours: usize = line.split(", ").nth(2).unwrap().split(' ').next().unwrap().parse().unwrap();
    let bound: usize = line.split("row bound ").nth(1).unwrap().split(',').next().unwrap().parse().unwrap();
    assert_eq!(bound, 5, "{line}");
    assert!(colours <= bound + 2, "{line}");
    assert_eq!(sparse(result.jacobian.as_ref().unwrap()).nnz(), 5 * m * m - 4 * m);
}

#[test]
fn broyden_banded_scalar_loops_need_seven_colours() {
    let n = 60;
    let x: Vec<f64> = (0..n).map(|i| -1.0 + 0.03 * i as f64).collect();
    let mut engine = Engine::new();
    let result = run(&mut engine, &named("broyden_banded_loops"), &x, Options::default()).unwrap();
    let line = log_line(&result.log, "pattern");
    assert!(line.contains("7 colours (row bound 7"), "{line}");
    let fd = fd_jacobian(&mut engine, &named("broyden_banded_loops"), &x, &[]);
    assert!(relative_error(&sparse(result.jacobian.as_ref().unwrap()).to_dense().data, &fd) < 1e-7);
}

#[test]
fn a_variable_undefined_on_the_taken_side_stays_undefined_for_the_other_side() {
    // The other side of the second branch reads p, unset at this x: an error there (the pattern is
    // then local), never a panic.
    let f = named("set_on_one_side");
    let result = check_against_fd(&f, &[1.5, -2.0], &[], 1e-8);
    assert!(log_line(&result.log, "pattern").contains("local"), "{:?}", result.log);
    check_against_fd(&f, &[1.5, -2.0, 3.0], &[], 1e-8);
}

/// Entries of the detected pattern that are zero at this x (the unchecked single-pass decompression):
/// the compressed J equals the detection pass's J bit for bit, both drop the zeros, and both match
/// central differences.
#[test]
fn compressed_jacobian_drops_value_dependent_zeros_like_detection() {
    let f = anonymous("@(x) x.^3 + [x(2:end); 0] .* x", vec![]);
    let mut x: Vec<f64> = (0..40).map(|i| 0.3 + 0.1 * i as f64).collect();
    // J(i,i) = 3 x_i^2 + x_(i+1) and J(i,i+1) = x_i: zero at x_i = 0, and J(i,i) also at x_(i+1) = 0.
    (x[5], x[6], x[20]) = (0.0, 0.0, 0.0);
    let mut engine = Engine::new();
    let detected = run(&mut engine, &f, &x, Options::default()).unwrap();
    let compressed = run(&mut engine, &f, &x, Options::default()).unwrap();
    log_line(&compressed.log, "compressed evaluation");
    let (a, b) = (sparse(detected.jacobian.as_ref().unwrap()), sparse(compressed.jacobian.as_ref().unwrap()));
    assert_eq!(a.nnz(), 2 * 40 - 1 - 4, "J(6,6), J(6,7), J(7,8), J(21,22) are zero");
    assert_eq!((a.colptr(), a.rowind()), (b.colptr(), b.rowind()));
    let bits = |m: &SparseMatrix| m.values().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(a), bits(b));
    assert_eq!(values(&detected.value), values(&compressed.value));
    let fd = fd_jacobian(&mut engine, &f, &x, &[]);
    assert!(relative_error(&b.to_dense().data, &fd) < 1e-8);
}

/// `numel(y)`, `size(y)` and the shape predicates are constants of code specialised for y's size, so
/// a loop `for i = 1:numel(y)/2` and its `if i == 1` tests do not depend on x: the Brusselator loops
/// get a global pattern (each such test used to run both sides, cloning the frame: quadratic time),
/// and a call at another size is specialised anew.
#[test]
fn size_queries_are_constants_of_the_specialised_code() {
    let f = named("brusselator_rhs");
    let mut engine = Engine::new();
    for (n, detects) in [(40, true), (60, true), (40, false)] {
        let x: Vec<f64> = (0..n).map(|i| if i % 2 == 0 { 1.0 + 0.1 * (i as f64).sin() } else { 3.0 }).collect();
        let result = run(&mut engine, &f, &x, Options::default()).unwrap();
        let line = result.log.iter().find(|l| l.contains("pattern"));
        assert_eq!(line.is_some(), detects, "n = {n}: {:?}", result.log);
        assert!(line.is_none_or(|l| l.contains("global")), "{line:?}");
        let fd = fd_jacobian(&mut engine, &f, &x, &[]);
        assert!(relative_error(&sparse(result.jacobian.as_ref().unwrap()).to_dense().data, &fd) < 1e-6, "n = {n}");
    }
    let shapes = anonymous("@(x) x * (isvector(x) + 2 * isscalar(x) + 4 * isrow(x) + 8 * columns(x) + 16 * ndims(x))", vec![]);
    let x = [0.5, -1.0, 2.0];
    let result = run(&mut engine, &shapes, &x, Options::default()).unwrap();
    assert_eq!(values(&result.value), x.iter().map(|v| v * (1.0 + 8.0 + 32.0)).collect::<Vec<_>>());
}
