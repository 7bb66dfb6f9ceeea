//! The differentiable builtins called from user code, through the whole engine, against central
//! differences.

mod common;

use common::*;

#[test]
fn builtins_in_user_code_match_finite_differences() {
    // Distinct magnitudes away from 0, so max, sort and abs are differentiable at x.
    let x: Vec<f64> = (0..12).map(|k| ((k * 7 % 12) as f64 - 5.3) / 6.0).collect();
    let result = check_against_fd(&named("builtin_mix"), &x, &[], 1e-7);
    assert_eq!(result.jacobian.unwrap().dims(), vec![32, 12]);
}
