//! Cs-lists (`c{:}`, `s.f` on struct arrays, `[c{i}] = ...`, varargout): derivatives flow through the
//! values spread into calls and concatenations in forward mode; reverse mode refuses the cells.

mod common;

use common::*;
use msad::engine::{Engine, Mode, Options, Request};

fn x0() -> Vec<f64> {
    vec![0.3, -0.5, 0.7, 1.4, 0.6, -0.8]
}

#[test]
fn derivatives_flow_through_spread_cs_lists() {
    let x = x0();
    let result = check_against_fd(&named("cslist_spread"), &x, &[], 1e-8);
    let y = values(&result.value);
    // c = {x2*x3, sin(x1), x3, x4, ...} after the assignment; weighted(c{1:3}) = sum k*c{k}^2.
    let c1 = x[1] * x[2];
    let c2 = x[0].sin();
    assert_eq!(y[0], c1);
    assert_eq!(y[1], c2);
    let weighted = c1 * c1 + 2.0 * c2 * c2 + 3.0 * x[2] * x[2];
    assert!((y[x.len()] - weighted).abs() <= 1e-15 * weighted.abs().max(1.0), "weighted: {} vs {weighted}", y[x.len()]);
}

#[test]
fn spread_arguments_reach_the_parameters_they_land_on() {
    // The active value is the second element of the cell: it lands on the callee's second parameter.
    let f = anonymous("@(x) feval(@(a, b, c) a + b .^ 2 .* c, {1, x}{:}, 3)", vec![]);
    let x = [0.25, -1.5, 2.0];
    let result = check_against_fd(&f, &x, &[], 1e-8);
    let expected: Vec<f64> = x.iter().map(|v| 1.0 + v * v * 3.0).collect();
    assert_eq!(values(&result.value), expected);
}

#[test]
fn reverse_mode_refuses_cs_lists_of_active_values() {
    let f = || anonymous("@(x) sum([num2cell(x){:}] .^ 2)", vec![]);
    let x = x0();
    let mut engine = Engine::new();
    let request =
        |mode| Request { function: f(), args: vec![column(x.clone())], options: Options { mode, ..Options::default() }, nargout: 2 };
    let refused = engine.evaluate(&mut host(), &request(Mode::Reverse)).expect_err("reverse mode through a cell");
    assert!(refused.message.contains("in reverse mode"), "{refused}");
    let auto = engine.evaluate(&mut host(), &request(Mode::Auto)).unwrap_or_else(|d| panic!("{d}"));
    let expected: Vec<f64> = x.iter().map(|v| 2.0 * v).collect();
    assert!(relative_error(&values(&auto.jacobian.expect("gradient")), &expected) <= 1e-15);
}
