//! Integer classes are inactive values: they may count, index and size x-dependent code, but an
//! x-dependent value reaching an integer result is msad:notDifferentiable.

mod common;

use common::*;
use msad::diag::ErrorKind;
use msad::engine::Engine;
use msad::value::{IntClass, Value};

#[test]
fn integer_counters_and_subscripts_leave_the_jacobian_alone() {
    check_against_fd(&named("int_counters"), &[0.5, -1.25, 2.0, 3.75, -0.3], &[], 1e-7);
}

#[test]
fn x_dependent_values_reaching_integers_are_not_differentiable() {
    for text in ["@(x) int32(x)", "@(x) int8(1) + x", "@(x) sum(uint8(x * 10))"] {
        let mut engine = Engine::new();
        let err = evaluate(&mut engine, &anonymous(text, vec![]), vec![column(vec![1.5, 2.0])], 2).unwrap_err();
        assert_eq!(err.kind, ErrorKind::NotDifferentiable, "{text}: {err}");
        // Without a derivative asked for, the conversion is just a value.
        let value = evaluate(&mut engine, &anonymous(text, vec![]), vec![column(vec![1.5, 2.0])], 1).unwrap().value;
        assert!(matches!(value, Value::Int(..) | Value::Double(_)), "{text}: {value:?}");
    }
    let mut engine = Engine::new();
    let value = evaluate(&mut engine, &anonymous("@(x) int8(x * 100)", vec![]), vec![column(vec![1.5, -0.004])], 1).unwrap().value;
    let Value::Int(IntClass::Int8, a) = value else { panic!("int8 expected: {value:?}") };
    assert_eq!(a.data, vec![127.0, 0.0], "saturation, and -0.4 rounds to 0 (not -0)");
    assert!(a.data[1].is_sign_positive());
}
