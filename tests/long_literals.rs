//! Long matrix literals in a generated .m file cost time and memory linear in their length: parsing
//! (a closing bracket's message), move analysis (operands read once) and the concatenation's derivative
//! (placed in one pass) each were quadratic. 1e5 constants and 2e4 x-dependent elements, values and J
//! exact; the time bound is loose (a quadratic cost needs minutes and gigabytes here).

mod common;

use common::*;
use msad::engine::{Engine, Options, PathHost, Request};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A generated function file in a scratch directory, removed on drop.
struct Generated(PathBuf);

impl Generated {
    fn new(name: &str, body: &str) -> Generated {
        let dir = std::env::temp_dir().join(format!("msad-long-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.m")), format!("function y = {name}(x)\n{body}\nend\n")).unwrap();
        Generated(dir)
    }
}

impl Drop for Generated {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Value and Jacobian of `name` at `x`, and how long the first (preparing) call took.
fn evaluate_generated(file: &Generated, name: &str, x: Vec<f64>) -> (Vec<f64>, Vec<f64>, Duration) {
    let mut host = PathHost { dirs: vec![file.0.clone()] };
    let request = Request { function: named(name), args: vec![column(x)], options: Options::default(), nargout: 2 };
    let started = Instant::now();
    let result = Engine::new().evaluate(&mut host, &request).unwrap_or_else(|d| panic!("{d}"));
    let elapsed = started.elapsed();
    (values(&result.value), values(result.jacobian.as_ref().expect("J")), elapsed)
}

const BOUND: Duration = Duration::from_secs(30);

#[test]
fn a_literal_of_a_hundred_thousand_constants() {
    let n: usize = 100_000;
    let elements: Vec<String> = (1..=n).map(|k| k.to_string()).collect();
    let file = Generated::new("constants_literal", &format!("  v = [{}];\n  y = x * sum(v) + v(end);", elements.join(", ")));
    let (value, jacobian, elapsed) = evaluate_generated(&file, "constants_literal", vec![2.0]);
    let sum = (n * (n + 1) / 2) as f64;
    assert_eq!((value, jacobian), (vec![2.0 * sum + n as f64], vec![sum]));
    assert!(elapsed < BOUND, "{elapsed:?}");
}

#[test]
fn a_literal_of_x_dependent_elements() {
    let n: usize = 20_000;
    let elements: Vec<String> = (1..=n).map(|k| format!("x({})*{k}", k % 2 + 1)).collect();
    let file = Generated::new("active_literal", &format!("  y = [{}];", elements.join(", ")));
    let x = vec![0.5, -3.0];
    let (value, jacobian, elapsed) = evaluate_generated(&file, "active_literal", x.clone());
    let expected: Vec<f64> = (1..=n).map(|k| x[k % 2] * k as f64).collect();
    assert_eq!(value, expected);
    // J is n x 2, column-major: column j holds k where element k reads x(j + 1).
    let expected_jacobian: Vec<f64> = (0..2).flat_map(|j| (1..=n).map(move |k| if k % 2 == j { k as f64 } else { 0.0 })).collect();
    assert_eq!(jacobian, expected_jacobian);
    assert!(elapsed < BOUND, "{elapsed:?}");
}
