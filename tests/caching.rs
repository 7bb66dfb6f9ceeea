//! The prepared-code cache: reused for the same function and signature, invalidated by edits of any
//! source file it read and by changes of captured values, and keyed by the input signature.

mod common;

use common::*;
use msad::engine::{Engine, Options, PathHost, Request};
use msad::value::{FunctionHandle, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A scratch directory of `.m` files, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("msad-cache-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    /// Writes a file and moves its modification time forward, as a later edit would.
    fn write(&self, file: &str, text: &str, age: u64) {
        let path = self.0.join(file);
        std::fs::write(&path, text).unwrap();
        let stamp = SystemTime::now() + Duration::from_secs(age);
        std::fs::File::options().write(true).open(&path).unwrap().set_modified(stamp).unwrap();
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn eval(engine: &mut Engine, dir: &Path, f: &FunctionHandle, x: Vec<f64>) -> (Vec<f64>, Vec<String>) {
    let mut host = PathHost { dirs: vec![dir.to_path_buf()] };
    let request = Request { function: f.clone(), args: vec![column(x)], options: Options::default(), nargout: 1 };
    let result = engine.evaluate(&mut host, &request).unwrap_or_else(|d| panic!("{d}"));
    (values(&result.value), result.log)
}

fn was_cached(log: &[String]) -> bool {
    log.iter().any(|l| l.contains("cache hit"))
}

#[test]
fn editing_the_function_or_a_called_file_invalidates() {
    let dir = Scratch::new("edit");
    dir.write("outer.m", "function y = outer(x)\n  y = inner(x) + 1;\nend\n", 0);
    dir.write("inner.m", "function y = inner(x)\n  y = 2 * x;\nend\n", 0);
    let mut engine = Engine::new();
    let f = named("outer");
    assert_eq!(eval(&mut engine, dir.path(), &f, vec![3.0]).0, vec![7.0]);
    let (value, log) = eval(&mut engine, dir.path(), &f, vec![3.0]);
    assert_eq!(value, vec![7.0]);
    assert!(was_cached(&log), "{log:?}");

    dir.write("inner.m", "function y = inner(x)\n  y = 10 * x;\nend\n", 5);
    let (value, log) = eval(&mut engine, dir.path(), &f, vec![3.0]);
    assert_eq!(value, vec![31.0], "edited called file");
    assert!(!was_cached(&log));

    dir.write("outer.m", "function y = outer(x)\n  y = inner(x) - 1;\nend\n", 10);
    assert_eq!(eval(&mut engine, dir.path(), &f, vec![3.0]).0, vec![29.0], "edited entry file");
}

#[test]
fn changing_a_captured_value_invalidates() {
    let dir = Scratch::new("captured");
    let mut engine = Engine::new();
    let with_p = |p: f64| anonymous("@(x) p * x", vec![("p", Value::scalar(p))]);
    assert_eq!(eval(&mut engine, dir.path(), &with_p(2.0), vec![3.0]).0, vec![6.0]);
    let (value, log) = eval(&mut engine, dir.path(), &with_p(2.0), vec![3.0]);
    assert_eq!(value, vec![6.0]);
    assert!(was_cached(&log));
    assert_eq!(eval(&mut engine, dir.path(), &with_p(5.0), vec![3.0]).0, vec![15.0]);
}

#[test]
fn two_signatures_are_cached_side_by_side() {
    let dir = Scratch::new("signatures");
    dir.write("twice.m", "function y = twice(x)\n  y = [x; x];\nend\n", 0);
    let mut engine = Engine::new();
    let f = named("twice");
    for _ in 0..2 {
        assert_eq!(eval(&mut engine, dir.path(), &f, vec![1.0]).0.len(), 2);
        assert_eq!(eval(&mut engine, dir.path(), &f, vec![1.0, 2.0, 3.0]).0.len(), 6);
    }
    let (_, log) = eval(&mut engine, dir.path(), &f, vec![1.0]);
    assert!(was_cached(&log));
    let (_, log) = eval(&mut engine, dir.path(), &f, vec![4.0, 5.0, 6.0]);
    assert!(was_cached(&log));
}

#[test]
fn cached_linear_derivatives_and_merged_subexpressions_give_the_same_jacobian() {
    let n = 12;
    let a: Vec<f64> = (0..n * n).map(|k| ((k as f64) * 0.618).fract() - 0.5).collect();
    let captured = vec![("A", Value::Double(msad::value::Array::new(vec![n, n], a)))];
    let f = anonymous("@(x) A * x + sin(x).^2 + [x(2:end) - x(1:end-1); 0] .* (x(2:end) - x(1:end-1)).' * x(2:end)", captured);
    let mut engine = Engine::new();
    for call in 0..3 {
        let x: Vec<f64> = (0..n).map(|i| 0.3 + (i as f64 + call as f64).sin()).collect();
        let jacobian = |unoptimized: bool, engine: &mut Engine| {
            let options = Options { jacobian: msad::engine::JacobianStorage::Full, unoptimized, ..Options::default() };
            let request = Request { function: f.clone(), args: vec![column(x.clone())], options, nargout: 2 };
            values(&engine.evaluate(&mut host(), &request).unwrap().jacobian.unwrap())
        };
        let (on, off) = (jacobian(false, &mut engine), jacobian(true, &mut engine));
        assert!(on.iter().zip(&off).all(|(a, b)| a.to_bits() == b.to_bits()), "call {call}");
        assert!(relative_error(&on, &fd_jacobian(&mut engine, &f, &x, &[])) < 1e-7, "call {call}");
    }
}

fn evaluate_in(engine: &mut Engine, dirs: &[&Path], f: &FunctionHandle, x: Vec<f64>, nargout: usize) -> msad::engine::Evaluation {
    let mut host = PathHost { dirs: dirs.iter().map(|d| d.to_path_buf()).collect() };
    let options = Options { verbose: true, ..Options::default() };
    let request = Request { function: f.clone(), args: vec![column(x)], options, nargout };
    engine.evaluate(&mut host, &request).unwrap_or_else(|d| panic!("{d}"))
}

fn plans_cached(log: &[String]) -> usize {
    let line = log.iter().find(|l| l.contains("plans cached")).expect("verbose output counts the plans");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("msad: N plans cached")
}

#[test]
fn a_captured_value_that_changes_every_call_is_an_input_of_one_plan() {
    let dir = Scratch::new("changing");
    let mut engine = Engine::new();
    let with_t = |t: f64| anonymous("@(x) t * x.^2 + sin(t) * x", vec![("t", Value::scalar(t))]);
    let mut logs = vec![];
    for call in 0..200 {
        let t = 0.5 + call as f64;
        let result = evaluate_in(&mut engine, &[dir.path()], &with_t(t), vec![2.0, -1.0], 2);
        assert_eq!(values(&result.value), vec![4.0 * t + 2.0 * t.sin(), t - t.sin()], "call {call}");
        let jacobian = values(&result.jacobian.unwrap());
        assert_eq!(jacobian, vec![4.0 * t + t.sin(), 0.0, 0.0, -2.0 * t + t.sin()], "call {call}");
        logs.push(result.log);
    }
    // The first value is folded in; once it changed, one plan takes it as an input.
    assert!(logs[2..].iter().all(|log| was_cached(log)), "{:?}", &logs[..3]);
    assert_eq!(plans_cached(&logs[199]), 2);
}

#[test]
fn a_handle_called_again_and_again_gets_a_plan_with_its_changed_values_as_constants() {
    let dir = Scratch::new("repeated");
    let mut engine = Engine::new();
    let with_t = |t: f64| anonymous("@(x) t * x.^2 + sin(t) * x", vec![("t", Value::scalar(t))]);
    evaluate_in(&mut engine, &[dir.path()], &with_t(0.5), vec![2.0, -1.0], 2);
    // The value changed: the new handle's first calls share the plan taking it as an input; from the
    // third call in a row on, the handle has a plan of its own (no copy of the value per call).
    let handle = with_t(1.5);
    let logs: Vec<Vec<String>> = (0..6)
        .map(|call| {
            let result = evaluate_in(&mut engine, &[dir.path()], &handle, vec![2.0, -1.0], 2);
            let t: f64 = 1.5;
            assert_eq!(values(&result.value), vec![4.0 * t + 2.0 * t.sin(), t - t.sin()], "call {call}");
            assert_eq!(values(&result.jacobian.unwrap()), vec![4.0 * t + t.sin(), 0.0, 0.0, -2.0 * t + t.sin()], "call {call}");
            result.log
        })
        .collect();
    let cached: Vec<bool> = logs.iter().map(|log| was_cached(log)).collect();
    assert_eq!(cached, [false, true, false, true, true, true], "{:?}", logs[2]);
    assert_eq!(plans_cached(&logs[5]), 3);
    // Another new handle goes back to the shared plan.
    let result = evaluate_in(&mut engine, &[dir.path()], &with_t(2.5), vec![2.0, -1.0], 2);
    assert!(was_cached(&result.log));
}

#[test]
fn a_captured_value_that_decides_a_branch_gives_the_pattern_of_its_side() {
    let dir = Scratch::new("captured-branch");
    dir.write("by_sign.m", "function y = by_sign(x, s)\n  if s > 0\n    y = x.^2;\n  else\n    y = x(end:-1:1).^2;\n  end\nend\n", 0);
    let mut engine = Engine::new();
    let with_s = |s: f64| anonymous("@(x) by_sign(x, s)", vec![("s", Value::scalar(s))]);
    let x = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    for s in [1.0, -1.0, 1.0, -1.0, -1.0, 1.0] {
        let result = evaluate_in(&mut engine, &[dir.path()], &with_s(s), x.clone(), 2);
        let jacobian = values(&result.jacobian.unwrap());
        let n = x.len();
        let expected: Vec<f64> = (0..n * n)
            .map(|k| {
                let (row, col) = (k % n, k / n);
                match (s > 0.0, row == col, row + col == n - 1) {
                    (true, true, _) | (false, _, true) => 2.0 * x[col],
                    _ => 0.0,
                }
            })
            .collect();
        assert_eq!(jacobian, expected, "s = {s}: {:?}", result.log);
    }
}

#[test]
fn an_extra_argument_that_decides_a_branch_gives_the_pattern_of_its_side() {
    let dir = Scratch::new("extra-branch");
    dir.write("by_sign.m", "function y = by_sign(x, s)\n  if s > 0\n    y = 2 * x;\n  else\n    y = x(end:-1:1);\n  end\nend\n", 0);
    let mut engine = Engine::new();
    let mut host = PathHost { dirs: vec![dir.path().to_path_buf()] };
    for s in [1.0, 1.0, -1.0, 1.0] {
        let request = Request {
            function: named("by_sign"),
            args: vec![column(vec![1.0, 2.0, 3.0, 4.0, 5.0]), Value::scalar(s)],
            options: Options::default(),
            nargout: 2,
        };
        let jacobian = values(&engine.evaluate(&mut host, &request).unwrap().jacobian.unwrap());
        let expected: Vec<f64> = (0..25)
            .map(|k| match (s > 0.0, k % 5, k / 5) {
                (true, row, col) if row == col => 2.0,
                (false, row, col) if row + col == 4 => 1.0,
                _ => 0.0,
            })
            .collect();
        assert_eq!(jacobian, expected, "s = {s}");
    }
}

#[test]
fn the_cache_keeps_at_most_max_plans() {
    let dir = Scratch::new("bounded");
    let mut engine = Engine::new();
    let mut last = 0;
    for k in 0..80 {
        let f = anonymous(&format!("@(x) x + {k}"), vec![]);
        let result = evaluate_in(&mut engine, &[dir.path()], &f, vec![1.0], 1);
        assert_eq!(values(&result.value), vec![1.0 + k as f64]);
        last = plans_cached(&result.log);
    }
    assert_eq!(last, 64);
}

#[test]
fn a_changed_search_path_resolves_names_again() {
    let (first, second) = (Scratch::new("path-first"), Scratch::new("path-second"));
    first.write("callee.m", "function y = callee(x)\n  y = 2 * x;\nend\n", 0);
    second.write("callee.m", "function y = callee(x)\n  y = 3 * x;\nend\n", 0);
    let mut engine = Engine::new();
    let f = anonymous("@(x) callee(x) + 1", vec![]);
    let value = |engine: &mut Engine, dirs: &[&Path]| values(&evaluate_in(engine, dirs, &f, vec![5.0], 1).value);
    assert_eq!(value(&mut engine, &[first.path()]), vec![11.0]);
    assert_eq!(value(&mut engine, &[first.path()]), vec![11.0]);
    assert_eq!(value(&mut engine, &[second.path(), first.path()]), vec![16.0], "a folder put first");
    // Another path where every name resolves as before keeps the plan.
    let log = evaluate_in(&mut engine, &[second.path()], &f, vec![5.0], 1).log;
    assert!(was_cached(&log), "{log:?}");
    assert_eq!(value(&mut engine, &[first.path()]), vec![11.0], "the folder removed");
}
