//! The differentiable builtins called from user code, through the whole engine, against central
//! differences.

mod common;

use common::*;
use msad::value::{Array, Value};

#[test]
fn builtins_in_user_code_match_finite_differences() {
    // Distinct magnitudes away from 0, so max, sort and abs are differentiable at x.
    let x: Vec<f64> = (0..12).map(|k| ((k * 7 % 12) as f64 - 5.3) / 6.0).collect();
    let result = check_against_fd(&named("builtin_mix"), &x, &[], 1e-7);
    assert_eq!(result.jacobian.unwrap().dims(), vec![32, 12]);
}

#[test]
fn builtins_with_captured_matrices_match_finite_differences() {
    let m = Value::Double(Array::new(vec![3, 3], vec![4.0, 1.0, 0.5, -1.0, 5.0, 0.0, 0.2, 0.3, 3.0]));
    let f = anonymous("@(x) [M \\ x; (x.' / M).'; max(M * x, [], 1); norm(M - x * x.', 'fro')]", vec![("M", m)]);
    check_against_fd(&f, &[0.3, -0.7, 1.1], &[], 1e-7);
}
