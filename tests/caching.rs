//! The prepared-code cache: reused for the same function and signature, invalidated by edits of any
//! source file it read and by changes of captured values, and keyed by the input signature.

mod common;

use common::*;
use msad::engine::{Engine, Options, PathHost, Request};
use msad::exec::value::{FunctionHandle, Value};
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
    let captured = vec![("A", Value::Double(msad::exec::value::Array::new(vec![n, n], a)))];
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
