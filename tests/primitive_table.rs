//! The primitive table: one record per `Prim` variant, one name each, and every differentiable
//! record's forward rule against central differences on the expressions of the reverse-mode
//! consistency test (tests/reverse.rs checks each reverse rule against the forward one on them, and
//! tests/hessian.rs each second-order term against differences of the gradient).

mod common;

use common::*;
use msad::engine::{Engine, JacobianStorage, Mode, Options, Request};
use msad::primitives::{self, Prim};

#[test]
fn every_variant_has_exactly_one_record_and_name() {
    for &prim in Prim::ALL {
        assert_eq!(primitives::get(prim).prim, prim, "the record of {prim:?}");
        assert_eq!(primitives::lookup(prim.name()), Some(prim), "the resolver's '{}'", prim.name());
    }
    let mut names: Vec<&str> = Prim::ALL.iter().map(|p| p.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Prim::ALL.len(), "two variants share a name");
}

#[test]
fn every_forward_rule_matches_central_differences() {
    // Away from the kinks of abs(x - 0.5), mod(x, 0.25) and the ties of max and sort.
    let x: Vec<f64> = [0.3, 0.5, 0.7, 0.4, 0.6, 0.8].iter().map(|v| v + 0.013).collect();
    let mut engine = Engine::new();
    let options = Options { mode: Mode::Forward, jacobian: JacobianStorage::Full, ..Options::default() };
    for expression in EXPRESSIONS {
        let f = anonymous(&format!("@(x) {expression}"), matrices());
        let request = Request { function: f.clone(), args: vec![column(x.clone())], options: options.clone(), nargout: 2 };
        let result = engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{expression}: {d}"));
        let jacobian = values(&result.jacobian.expect("derivative requested"));
        let fd = fd_jacobian(&mut engine, &f, &x, &[]);
        let error = relative_error(&jacobian, &fd);
        assert!(error <= 1e-6, "{expression}: forward rule and differences differ by {error:e}");
    }
}
