//! Jacobians of the structural, grid, remainder and query builtins against central differences, with
//! sparse derivative blocks (the first, detecting evaluation), dense compressed ones (the second) and
//! full dense ones.

mod common;

use common::*;
use msad::engine::{Engine, JacobianStorage, Options, Request};

const X: [f64; 6] = [0.3, 1.7, -0.8, 2.2, 0.9, -1.4];

fn check(text: &str) {
    let f = anonymous(text, vec![]);
    let mut engine = Engine::new();
    let fd = fd_jacobian(&mut engine, &f, &X, &[]);
    let full = Options { jacobian: JacobianStorage::Full, ..Options::default() };
    for options in [Options::default(), Options::default(), full] {
        let request = Request { function: f.clone(), args: vec![column(X.to_vec())], options, nargout: 2 };
        let result = engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{text}: {d}"));
        let jacobian = result.jacobian.expect("Jacobian requested");
        let dense = jacobian.numeric().expect("numeric Jacobian").data.clone();
        let err = relative_error(&dense, &fd);
        assert!(err <= 1e-7, "{text}: Jacobian differs from central differences by {err:e}");
    }
}

#[test]
fn rearrangements() {
    for text in [
        "@(x) repmat(x, 2, 3)",
        "@(x) repmat(reshape(x, 2, 3), [1 2 2])",
        "@(x) permute(reshape(x, 1, 2, 3), [3 1 2])",
        "@(x) ipermute(reshape(x, 3, 2), [2 1])",
        "@(x) squeeze(reshape(x, 1, 2, 3))",
        "@(x) flip(x)",
        "@(x) fliplr(reshape(x, 2, 3)) .* [1 2 3; 4 5 6]",
        "@(x) flipud(reshape(x, 2, 3))",
        "@(x) flip(reshape(x, 2, 3), 2)",
        "@(x) rot90(reshape(x, 2, 3))",
        "@(x) rot90(reshape(x, 2, 3), 2)",
        "@(x) rot90(reshape(x, 2, 3), -1)",
        "@(x) circshift(x, 2)",
        "@(x) circshift(reshape(x, 2, 3), [1 1])",
        "@(x) cat(3, x, 2 * x)",
        "@(x) cat(2, x, [], x.^2)",
        "@(x) [x; x.^2; zeros(0, 1)]",
        "@(x) [x.', 1, x(1:2).']",
    ] {
        check(text);
    }
}

#[test]
fn spacing_and_grids() {
    for text in [
        "@(x) linspace(x(1), x(2), 5)",
        "@(x) linspace(x(1:2), x(3:4), 4)",
        "@(x) linspace(0, x(4), 3)",
        "@(x) logspace(x(1), x(2), 4)",
        "@(x) meshgrid(x(1:3), x(4:6))",
        "@(x) meshgrid(x, 1:2)",
        "@(x) ndgrid(x(1:3), x(4:5))",
    ] {
        check(text);
    }
}

#[test]
fn remainders_and_queries() {
    for text in [
        "@(x) mod(x, 0.65)",
        "@(x) mod(3.1, x)",
        "@(x) rem(x, 10 + x(6))",
        "@(x) rem(10, x)",
        "@(x) x(find(x > 1))",
        "@(x) x .* any(x > 0) + all(x) * x.^2",
        "@(x) x .* isfinite(x) + numel(find(x, 2, 'last')) * x",
    ] {
        check(text);
    }
}

#[test]
fn deletion_and_growth() {
    let f = named("delete_and_grow");
    check_against_fd(&f, &X, &[], 1e-7);
}

#[test]
fn handles_and_selections() {
    for text in [
        "@(x) accumarray([1; 3; 1; 2; 3; 3], x)",
        "@(x) accumarray([1 1; 2 2; 1 1; 2 1; 1 2; 2 2], x .^ 2, [2 3], [], -1)",
        "@(x) accumarray([1; 3; 1; 2; 3; 3], x, [4 1], @(v) prod(v))",
        "@(x) merge(x > 0, x .^ 2, -x)",
        "@(x) merge(x > 0, 2, x)",
        "@(x) merge(true, x, 1)",
        "@(x) [merge(false, x, []); merge(0, 2, x)]",
        "@(x) ifelse(x < 1, sin(x), x(1))",
        "@(x) cellfun(@(c) c * x(1), num2cell(x))",
        "@(x) cellfun(@(c) prod(c(:)), num2cell(reshape(x, 1, 3, 2), [1 3]))",
        "@(x) arrayfun(@(a, b) a ^ 2 * b, x, flipud(x))",
        "@(x) feval(@(v) cumsum(v .^ 3), x)",
    ] {
        check(text);
    }
}

#[test]
fn special_functions() {
    for text in [
        "@(x) erfc(x) + erfcx(x)",
        "@(x) erfinv(x / 3) + erfcinv(1 + x / 3)",
        "@(x) gamma(x) + psi(x)",
        "@(x) gammaln(x.^2) + psi(2, x.^2)",
        "@(x) beta(x.^2, 1 + x.^2) + betaln(x.^2, 2)",
        "@(x) gammainc(x.^2, 2.5) + gammainc(x.^2, [1 2 3 4 5 6]', 'upper')",
        "@(x) betainc(1 ./ (1 + x.^2), 2, 3)",
        "@(x) expint(x.^2)",
        "@(x) besselj([0 1 2.5], x.^2)",
        "@(x) bessely(-1.5, exp(x)) + besseli(-1, exp(x)) + besselk(0.3, exp(x))",
        "@(x) airy(x) + airy(1, x) + airy(2, x) + airy(3, x)",
        "@(x) legendre(3, x / 3)",
        "@(x) legendre(2, x' / 3, 'norm')",
    ] {
        check(text);
    }
}

/// An order, kind or shape parameter that depends on x has no derivative: msad:notDifferentiable.
#[test]
fn special_function_parameters_are_constants() {
    let mut engine = Engine::new();
    for text in [
        "@(x) besselj(x, 2)",
        "@(x) airy(round(x(1)) + x(1) * 0, 1)",
        "@(x) gammainc(1, x)",
        "@(x) betainc(0.5, 2, x.^2)",
        "@(x) psi(round(x(1)) + 0 * x(1), 2)",
    ] {
        let f = anonymous(text, vec![]);
        let request =
            Request { function: f, args: vec![column(X.iter().map(|v| v.abs() + 1.0).collect())], options: Options::default(), nargout: 2 };
        let error = engine.evaluate(&mut host(), &request).expect_err(text);
        assert_eq!(error.kind, msad::diag::ErrorKind::NotDifferentiable, "{text}: {error}");
    }
}
