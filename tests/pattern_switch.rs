//! Pattern-switch tests: functions whose active elements, chosen indices or extra arguments change
//! between calls. One engine serves every call of a family, so each call after the first meets the
//! pattern, colouring and plan cached by an earlier call at another point; every call's derivative is
//! checked against central differences, in every mode (issue: no silent wrong answer).

mod common;

use common::*;
use msad::engine::{Engine, JacobianStorage, Mode, Options, Request, Sparsity};
use msad::value::{Array, SparseMatrix, StructArray, Value};

/// The option sets a user may pass: each must give the exact derivative at every point.
fn modes() -> Vec<(&'static str, Options)> {
    let with = |jacobian, mode| Options { jacobian, mode, ..Options::default() };
    vec![
        ("auto", Options::default()),
        ("sparse", with(JacobianStorage::Sparse, Mode::Auto)),
        ("full", with(JacobianStorage::Full, Mode::Auto)),
        ("forward", with(JacobianStorage::Auto, Mode::Forward)),
        ("reverse", with(JacobianStorage::Auto, Mode::Reverse)),
    ]
}

/// An exact Jacobian (m x n, column-major) of x.
type JacobianOf = fn(&[f64]) -> Vec<f64>;

/// A family: a function and the calls made in turn, each x with its extra arguments; `exact`: the
/// Jacobian (m x n, column-major) where central differences are wrong (at a kink such as a mask's
/// edge at x = 0).
struct Family {
    name: &'static str,
    calls: Vec<(Vec<f64>, Vec<Value>)>,
    exact: Option<JacobianOf>,
}

fn family(name: &'static str, points: &[&[f64]]) -> Family {
    Family { name, calls: points.iter().map(|x| (x.to_vec(), vec![])).collect(), exact: None }
}

fn with_extra(name: &'static str, x: &[f64], extras: Vec<Value>) -> Family {
    Family { name, calls: extras.into_iter().map(|e| (x.to_vec(), vec![e])).collect(), exact: None }
}

/// `diag(2 x (x > 0))`, switch_mask's Jacobian.
fn switch_mask_jacobian(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut j = vec![0.0; n * n];
    x.iter().enumerate().filter(|(_, v)| **v > 0.0).for_each(|(i, v)| j[i * n + i] = 2.0 * v);
    j
}

fn scalar(v: f64) -> Value {
    Value::Double(Array::new(vec![1, 1], vec![v]))
}

fn mask_struct(mask: &[bool]) -> Value {
    let mask = Value::Logical(Array::new(vec![mask.len(), 1], mask.to_vec()));
    Value::Struct(StructArray { dims: vec![1, 1], fields: vec!["mask".to_string()], elements: vec![vec![mask]] })
}

/// The n x n sparse tridiagonal matrix with `value` on its three diagonals.
fn tridiagonal(n: usize, value: f64) -> Value {
    let entries: Vec<(usize, usize)> = (0..n).flat_map(|j| (j.saturating_sub(1)..(j + 2).min(n)).map(move |i| (i, j))).collect();
    sparse(n, &entries, value)
}

/// The n x n sparse matrix with ones on its diagonal and the one below.
fn lower_bidiagonal(n: usize) -> Value {
    let entries: Vec<(usize, usize)> = (0..n).flat_map(|j| (j..(j + 2).min(n)).map(move |i| (i, j))).collect();
    sparse(n, &entries, 1.0)
}

/// An n x n sparse matrix with `value` at the (row, column) `entries`, given column by column.
fn sparse(n: usize, entries: &[(usize, usize)], value: f64) -> Value {
    let mut colptr = vec![0; n + 1];
    entries.iter().for_each(|&(_, j)| colptr[j + 1] += 1);
    (0..n).for_each(|j| colptr[j + 1] += colptr[j]);
    let rows = entries.iter().map(|&(i, _)| i).collect();
    Value::Sparse(SparseMatrix::new(n, n, colptr, rows, vec![value; entries.len()]))
}

fn families() -> Vec<Family> {
    let eight = |v: [f64; 8]| v;
    vec![
        Family {
            exact: Some(switch_mask_jacobian),
            ..family(
                "switch_mask",
                &[
                    &[1.0, -1.0, 1.0, -1.0, 2.0, -3.0, 4.0, 5.0],
                    &[-1.0, 1.0, -1.0, 1.0, 2.0, 3.0, -4.0, 5.0],
                    // A Newton iteration started at zeros: nothing selected on that call.
                    &[0.0; 8],
                    &[0.5, 0.5, -0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
                ],
            )
        },
        family(
            "switch_sizes",
            &[
                &[1.0, 2.0, 3.0, -1.0, 0.5, 0.25, 2.0, 1.0],
                &[-1.0, 2.0, 3.0, -1.0, 0.5, 0.25, 2.0, 1.0],
                &[2.0, -1.0, 0.5, 1.0, 1.5, -2.0, 3.0, 0.5],
            ],
        ),
        family(
            "switch_find",
            &[
                &[1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0],
                &[0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0],
                &[1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            ],
        ),
        family(
            "switch_round",
            &[
                &eight([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]),
                &eight([3.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]),
                &eight([6.2, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]),
            ],
        ),
        family(
            "switch_argmax",
            &[
                &[1.0, 2.0, 9.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                &[9.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, -9.0],
            ],
        ),
        family(
            "switch_branch_subscript",
            &[
                &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                &[-1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
            ],
        ),
        family(
            "switch_sort",
            &[
                &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                &[8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0],
                &[3.0, 1.0, 4.0, 1.5, 5.0, 9.0, 2.0, 6.0],
            ],
        ),
        family(
            "switch_scalar_loop",
            &[
                &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                &[4.2, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                &[0.1, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
            ],
        ),
        with_extra(
            "switch_extra_mask",
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            vec![column(vec![1.0, -1.0, 1.0, -1.0, 1.0, -1.0]), column(vec![-1.0, 1.0, -1.0, 1.0, -1.0, 1.0]), column(vec![1.0; 6])],
        ),
        with_extra(
            "switch_extra_matrix",
            &[1.0, 2.0, 3.0, 4.0],
            vec![tridiagonal(4, 1.0), tridiagonal(4, 2.0), lower_bidiagonal(4), tridiagonal(4, 1.0)],
        ),
        with_extra("switch_loop_count", &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], vec![scalar(2.0), scalar(5.0), scalar(0.0), scalar(3.0)]),
        with_extra(
            "switch_active_set",
            &[0.5, -1.0, 2.0, -3.0, 0.25, 1.0],
            vec![column(vec![0.0; 6]), column(vec![1.0, -2.0, 3.0, -4.0, 1.0, 2.0]), column(vec![-5.0; 6])],
        ),
        with_extra(
            "switch_struct_mask",
            &[1.0, 2.0, 3.0, 4.0],
            vec![mask_struct(&[true, false, true, false]), mask_struct(&[false, true, false, true]), mask_struct(&[false; 4])],
        ),
        with_extra("switch_reshape", &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], vec![scalar(2.0), scalar(3.0), scalar(2.0), scalar(1.0)]),
        family(
            "switch_elseif",
            &[&[2.0, 1.0, 2.0, 3.0, 4.0], &[0.5, 1.0, 2.0, 3.0, 4.0], &[-1.0, 1.0, 2.0, 3.0, 4.0], &[2.0, 1.0, 2.0, 3.0, 4.0]],
        ),
        family(
            "switch_elseif_loop",
            &[
                &[2.0, 0.5, -1.0, 2.0, 0.5, -1.0],
                &[0.5, -1.0, 2.0, 0.5, -1.0, 2.0],
                &[-1.0, 2.0, 0.5, -1.0, 2.0, 0.5],
                &[2.0, 2.0, 2.0, 2.0, 2.0, 2.0],
                &[0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
                &[-1.0; 6],
            ],
        ),
        family(
            "switch_short_circuit",
            &[
                &[1.0, 1.0, 2.0, 3.0, 1.0, 2.0],
                &[1.0, -1.0, 2.0, 3.0, -1.0, 2.0],
                &[-1.0, 2.0, 2.0, 3.0, 0.2, 2.0],
                &[-1.0, -1.0, 2.0, 3.0, 1.0, 2.0],
                &[1.0, 1.0, 2.0, 3.0, -1.0, 2.0],
            ],
        ),
        family("switch_accumarray", &[&[0.2, 1.1, 2.3, 0.4], &[1.2, 0.1, 0.3, 2.4], &[3.2, 3.1, 0.3, 1.4]]),
        family("switch_cell_assign", &[&[1.2, 0.5, 3.0], &[2.1, 0.5, 3.0], &[3.3, 0.5, 3.0], &[1.1, -0.5, 2.0]]),
        family("switch_sides_loop", &[&[1.0, -1.0, 2.0, -2.0, 0.5, 3.0], &[-1.0, 1.0, -2.0, 2.0, -0.5, -3.0], &[1.0; 6], &[-1.0; 6]]),
        family("switch_sides_one_sided", &[&[1.0, -1.0, 2.0, -2.0, 0.5, 3.0], &[-1.0, 1.0, -2.0, 2.0, -0.5, -3.0], &[1.0; 6], &[-1.0; 6]]),
        family(
            "switch_sides_nested",
            &[
                &[1.0, 2.0, -0.5, -2.0, 0.5, -1.5],
                &[-2.0, 0.5, 1.0, -0.5, -3.0, 2.0],
                &[0.5, -0.5, 0.5, -0.5, 0.5, -0.5],
                &[-2.0, -2.0, -2.0, -2.0, -2.0, -2.0],
                &[1.5, 1.5, 1.5, 1.5, 1.5, 1.5],
                &[1.0, 2.0, -0.5, -2.0, 0.5, -1.5],
            ],
        ),
        family(
            "switch_sides_growth",
            &[
                &[1.0, -1.0, 2.0, -2.0, 0.5, 3.0],
                &[-1.0, -1.0, -2.0, -2.0, -0.5, -3.0],
                &[1.0, 1.0, 2.0, 2.0, 0.5, 3.0],
                &[-1.0, 1.0, -2.0, 2.0, -0.5, 3.0],
            ],
        ),
        family(
            "switch_sides_error",
            &[
                &[1.0, -1.0, 2.0, -2.0, 0.5, 3.0],
                &[-1.0, -1.5, -2.0, -0.5, 0.5, 3.0],
                &[1.0, 1.0, 2.0, 2.0, 0.5, 3.0],
                &[0.5, -1.0, 2.0, -2.0, 0.5, 3.0],
            ],
        ),
        family("switch_sparse_solve", &[&[0.0; 8], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], &[0.0; 8]]),
        family(
            "switch_objective",
            &[
                &[1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0, 9.0, -1.0],
                &[-1.0, 2.0, -3.0, 4.0, -5.0, 6.0, -7.0, 8.0, -9.0, 1.0],
                &[-1.0; 10],
                &[1.0; 10],
            ],
        ),
    ]
}

fn request(f: &Family, x: &[f64], extra: &[Value], options: Options, nargout: usize) -> Request {
    let mut args = vec![column(x.to_vec())];
    args.extend(extra.iter().cloned());
    Request { function: named(f.name), args, options, nargout }
}

/// The exact Jacobian where the family has one, else central differences by a separate engine.
fn reference_jacobian(f: &Family, x: &[f64], extra: &[Value]) -> Vec<f64> {
    match f.exact {
        Some(exact) => exact(x),
        None => fd_jacobian(&mut Engine::new(), &named(f.name), x, extra),
    }
}

#[test]
fn jacobians_follow_the_pattern_of_every_call_in_every_mode() {
    for f in families() {
        for (mode, options) in modes() {
            let mut engine = Engine::new();
            for (call, (x, extra)) in f.calls.iter().enumerate() {
                let result = engine
                    .evaluate(&mut host(), &request(&f, x, extra, options.clone(), 2))
                    .unwrap_or_else(|d| panic!("{} ({mode}), call {}: {d}", f.name, call + 1));
                let jacobian = result.jacobian.expect("J requested");
                let dense = match &jacobian {
                    Value::Sparse(s) => s.to_dense().data,
                    other => values(other),
                };
                let err = relative_error(&dense, &reference_jacobian(&f, x, extra));
                assert!(err < 1e-7, "{} ({mode}), call {} at {x:?}: J differs from central differences by {err:e}", f.name, call + 1);
            }
        }
    }
}

/// A global pattern stays global: code whose subscripts are constants of the prepared code keeps
/// reusing its pattern with no check direction (no cost for the common case).
#[test]
fn constant_subscripts_keep_a_global_pattern() {
    let f = family("brusselator_rhs_vec", &[]);
    let x: Vec<f64> = (0..40).map(|i| 1.0 + 0.1 * i as f64).collect();
    let mut engine = Engine::new();
    let options = Options { verbose: true, ..Options::default() };
    let first = engine.evaluate(&mut host(), &request(&f, &x, &[], options.clone(), 2)).unwrap();
    assert!(first.log.iter().any(|l| l.contains("global")), "{:?}", first.log);
    let second = engine.evaluate(&mut host(), &request(&f, &x, &[], options, 2)).unwrap();
    assert!(second.log.iter().any(|l| l.contains("compressed evaluation with 4 directions")), "{:?}", second.log);
}

/// A local pattern is detected again only when what decided it changed: the same mask on the next
/// call reuses it, another mask does not.
#[test]
fn a_local_pattern_is_detected_again_only_when_its_selections_change() {
    let f = family("switch_mask", &[]);
    let options = Options { verbose: true, jacobian: JacobianStorage::Sparse, ..Options::default() };
    let mut engine = Engine::new();
    let mut run = |x: &[f64]| engine.evaluate(&mut host(), &request(&f, x, &[], options.clone(), 2)).unwrap().log;
    let detected = |log: &[String]| log.iter().any(|l| l.contains("msad: pattern"));
    let first = run(&[1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 4.0, -4.0]);
    assert!(first.iter().any(|l| l.contains("local to this x")), "{first:?}");
    let same_mask = run(&[2.0, -2.0, 3.0, -3.0, 4.0, -4.0, 5.0, -5.0]);
    assert!(!detected(&same_mask), "{same_mask:?}");
    let other_mask = run(&[-2.0, 2.0, 3.0, -3.0, 4.0, -4.0, 5.0, -5.0]);
    assert!(detected(&other_mask), "{other_mask:?}");
}

/// A pattern decided only by the structure of a matrix without derivative needs no check direction:
/// the same structure reuses it as it is, another one is detected again.
#[test]
fn a_pattern_local_to_shapes_is_reused_unchecked() {
    let f = family("switch_extra_matrix", &[]);
    let options = Options { verbose: true, jacobian: JacobianStorage::Sparse, ..Options::default() };
    let mut engine = Engine::new();
    let x: Vec<f64> = (1..=40).map(f64::from).collect();
    let mut run = |a: Value| engine.evaluate(&mut host(), &request(&f, &x, &[a], options.clone(), 2)).unwrap().log;
    let first = run(tridiagonal(40, 1.0));
    assert!(first.iter().any(|l| l.contains("local to the shapes")), "{first:?}");
    let same_structure = run(tridiagonal(40, 3.0));
    assert!(same_structure.iter().any(|l| l.contains("compressed evaluation with 3 directions")), "{same_structure:?}");
    let other_structure = run(lower_bidiagonal(40));
    assert!(other_structure.iter().any(|l| l.contains("msad: pattern")), "{other_structure:?}");
}

/// `jacobian = 'pattern'` (what `msad_pattern` asks for) follows the mask of each call.
#[test]
fn patterns_asked_for_follow_the_selections_of_each_call() {
    let f = family("switch_mask", &[]);
    let options = Options { jacobian: JacobianStorage::Pattern, ..Options::default() };
    let mut engine = Engine::new();
    for x in [[1.0, -1.0, 1.0, -1.0], [-1.0, 1.0, -1.0, 1.0], [-1.0, 1.0, -1.0, 1.0]] {
        let result = engine.evaluate(&mut host(), &request(&f, &x, &[], options.clone(), 2)).unwrap();
        let Some(Value::Sparse(pattern)) = result.jacobian else { panic!("a sparse pattern") };
        let expected: Vec<f64> = switch_mask_jacobian(&x).iter().map(|v| f64::from(u8::from(*v != 0.0))).collect();
        assert_eq!(pattern.to_dense().data, expected, "pattern at {x:?}");
    }
}

/// Detection at a test on x in a loop unites the rows both sides assign (one side empty: the rows as
/// they were before the test): the pattern found at a point taking some sides holds the other sides'
/// entries too, in every row.
#[test]
fn detection_unites_the_rows_of_both_sides_of_a_test_in_a_loop() {
    let n = 6;
    // Row i of J has entries in the columns i + d (cyclic) for the offsets d given.
    let pattern_of =
        |offsets: &[usize]| -> Vec<f64> { (0..n * n).map(|e| f64::from(u8::from(offsets.contains(&((e / n + n - e % n) % n))))).collect() };
    for (name, offsets) in [("switch_sides_loop", &[0, 1, n - 1][..]), ("switch_sides_one_sided", &[0, 1][..])] {
        for x in [[1.0, -1.0, 2.0, -2.0, 0.5, 3.0], [1.0; 6], [-1.0; 6]] {
            let options = Options { jacobian: JacobianStorage::Pattern, ..Options::default() };
            let result = Engine::new().evaluate(&mut host(), &request(&family(name, &[]), &x, &[], options, 2)).unwrap();
            let Some(Value::Sparse(pattern)) = result.jacobian else { panic!("a sparse pattern") };
            assert_eq!(pattern.to_dense().data, pattern_of(offsets), "{name}: pattern at {x:?}");
        }
    }
}

/// Hessians (forward over reverse with a detected pattern) at points whose active set differs.
#[test]
fn hessians_follow_the_pattern_of_every_call() {
    let f = family("switch_objective", &[]);
    let points: [&[f64]; 4] = [
        &[1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0, 9.0, -1.0],
        &[-1.0, 2.0, -3.0, 4.0, -5.0, 6.0, -7.0, 8.0, -9.0, 1.0],
        &[-1.0; 10],
        &[1.0; 10],
    ];
    let mut engine = Engine::new();
    for x in points {
        let result = engine.evaluate(&mut host(), &request(&f, x, &[], Options::default(), 3)).unwrap();
        let hessian = match result.hessian.expect("H requested") {
            Value::Sparse(s) => s.to_dense().data,
            other => values(&other),
        };
        let exact_gradient = |xp: Vec<f64>| {
            let options = Options { sparsity: Sparsity::None, mode: Mode::Forward, ..Options::default() };
            let r = Engine::new().evaluate(&mut host(), &request(&f, &xp, &[], options, 2)).unwrap();
            values(&r.jacobian.unwrap())
        };
        let err = relative_error(&hessian, &central_differences(x, exact_gradient));
        assert!(err < 1e-6, "H at {x:?} differs from differences of the gradient by {err:e}");
    }
}
