//! Assignments into elements of struct arrays (`s(k).f = v`, growth, deletion, `s(k) = struct(...)`)
//! and into structs inside cells: values as Octave gives them, derivatives through the fields in
//! forward mode; reverse mode refuses the containers.

mod common;

use common::*;
use msad::engine::{Engine, Mode, Options, Request};

#[test]
fn derivatives_flow_through_assigned_fields_of_elements() {
    let x = [0.3, -0.5, 0.7, 1.4];
    let result = check_against_fd(&named("structarr_assign"), &x, &[], 1e-8);
    // Octave 7.3 on the same x (tests/octave/fixtures/structarr_assign.m).
    let octave = [0.21, 1.96, 2.0, -0.7, 3.0, -1.5, -0.35, 0.0, 0.3f64.cos(), 0.2, 0.3, 2.0];
    assert!(relative_error(&values(&result.value), &octave) <= 1e-15, "{:?}", values(&result.value));
}

#[test]
fn struct_arrays_grown_in_a_loop_keep_their_fields_derivatives() {
    let x = [1.0, 2.0, 3.0];
    let result = check_against_fd(&named("structarr_grow"), &x, &[], 1e-8);
    // Octave 7.3 on the same x (tests/octave/fixtures/structarr_grow.m).
    let octave = [1.0, 4.0, 9.0, 2.0, 0.0, 3.0, 3.0, 1.0, 1.0, 1.0, 3.0];
    assert_eq!(values(&result.value), octave);
}

/// The error `structarr_errors(x, which)` raises, with its position.
fn error_of(which: f64) -> String {
    let mut engine = Engine::new();
    let args = vec![column(vec![0.5]), column(vec![which])];
    let err = evaluate(&mut engine, &named("structarr_errors"), args, 1).expect_err("an error");
    err.to_string()
}

#[test]
fn struct_arrays_and_cs_lists_give_octaves_errors() {
    let expected = [
        (1.0, "invalid dot name structure assignment because the structure array is empty.", "structarr_errors.m:8:"),
        (2.0, "binary operator '+' not implemented for 'cs-list' by 'scalar' operations", "structarr_errors.m:10:"),
        (3.0, "unary operator '-' not implemented for 'cs-list' operands", "structarr_errors.m:12:"),
        (4.0, "incompatible fields in struct assignment", "structarr_errors.m:14:"),
        (5.0, "binary operator '.*' not implemented for 'matrix' by 'cs-list' operations", "structarr_errors.m:16:"),
    ];
    for (which, message, position) in expected {
        let err = error_of(which);
        assert!(err.contains(message) && err.contains(position), "case {which}: {err}");
    }
}

#[test]
fn reverse_mode_refuses_active_values_in_struct_elements() {
    let x = vec![0.3, -0.5, 0.7, 1.4];
    let mut engine = Engine::new();
    let request = |mode| Request {
        function: named("structarr_assign"),
        args: vec![column(x.clone())],
        options: Options { mode, ..Options::default() },
        nargout: 2,
    };
    let refused = engine.evaluate(&mut host(), &request(Mode::Reverse)).expect_err("reverse mode through a struct");
    assert!(refused.message.contains("in reverse mode"), "{refused}");
}
