//! Derivative directions split across threads give bitwise the same Jacobian as one thread.

mod common;

use common::*;
use msad::engine::{Engine, JacobianStorage, Options, Request};
use msad::value::{Array, FunctionHandle, Value};

fn jacobian(f: &FunctionHandle, x: &[f64], threads: usize) -> Vec<f64> {
    let options = Options { jacobian: JacobianStorage::Full, threads: Some(threads), ..Options::default() };
    let request = Request { function: f.clone(), args: vec![column(x.to_vec())], options, nargout: 2 };
    values(&Engine::new().evaluate(&mut host(), &request).unwrap().jacobian.unwrap())
}

fn matrix(rows: usize, cols: usize, seed: f64) -> Value {
    let data = (0..rows * cols).map(|k| ((k as f64 + seed) * 0.7548776662).fract() - 0.5).collect();
    Value::Double(Array::new(vec![rows, cols], data))
}

#[test]
fn thread_count_does_not_change_the_jacobian() {
    let n = 96;
    let x: Vec<f64> = (0..n).map(|i| 0.5 + (i as f64 * 0.37).sin()).collect();
    let product = anonymous("@(x) A * sin(x) + (B * x).^2 + x' * x", vec![("A", matrix(80, n, 1.0)), ("B", matrix(80, n, 2.0))]);
    for f in [named("brusselator_rhs"), named("brusselator_rhs_vec"), product] {
        let one = jacobian(&f, &x, 1);
        for threads in [2, 3, 4] {
            let many = jacobian(&f, &x, threads);
            assert!(one.iter().zip(&many).all(|(a, b)| a.to_bits() == b.to_bits()), "{threads} threads differ");
        }
    }
}
