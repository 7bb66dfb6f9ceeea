//! The differentiated function must return a numeric array: a cell or struct result is msad:badInput
//! (never an internal error) for J, g and H in every mode and storage, and for the value alone.

mod common;

use common::*;
use msad::diag::ErrorKind;
use msad::engine::{Engine, JacobianStorage, Mode, Options, Request, Sparsity};
use msad::value::FunctionHandle;

fn option_sets() -> Vec<Options> {
    let modes = [Mode::Auto, Mode::Forward, Mode::Reverse];
    let storages = [JacobianStorage::Auto, JacobianStorage::Full, JacobianStorage::Sparse];
    let mut sets = vec![Options { sparsity: Sparsity::None, ..Options::default() }];
    for mode in modes {
        sets.extend(storages.map(|jacobian| Options { mode, jacobian, ..Options::default() }));
    }
    sets
}

fn functions() -> Vec<FunctionHandle> {
    let anonymous = |text: &str| FunctionHandle::Anonymous { text: text.into(), captured: vec![].into(), unmodelled: vec![] };
    vec![named("returns_cell"), named("returns_struct"), anonymous("@(x) {x(1)}"), anonymous("@(x) struct('a', sum(x))")]
}

#[test]
fn container_results_are_bad_input_for_every_derivative() {
    for function in functions() {
        for options in option_sets() {
            for nargout in [2, 3] {
                let mut engine = Engine::new();
                let request = Request { function: function.clone(), args: vec![column(vec![1.0, 2.0])], options: options.clone(), nargout };
                let error = engine.evaluate(&mut host(), &request).expect_err("a container result has no derivative");
                assert_eq!(error.kind, ErrorKind::BadInput, "{function:?} {options:?} nargout {nargout}: {error}");
                assert!(error.message.contains("must return a numeric array"), "{error}");
            }
        }
    }
}

#[test]
fn container_results_are_bad_input_for_the_value_too() {
    for function in functions() {
        let request = Request { function, args: vec![column(vec![1.0, 2.0])], options: Options::default(), nargout: 1 };
        let error = Engine::new().evaluate(&mut host(), &request).expect_err("msad_eval returns numeric arrays only");
        assert_eq!(error.kind, ErrorKind::BadInput, "{error}");
    }
}
