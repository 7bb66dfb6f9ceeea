//! Complex values: made as Octave makes them (literals, complex(), real functions outside their domain),
//! narrowed to real as Octave narrows them; x-free complex values leave J alone, and a complex value that
//! depends on x is followed by reverse mode and Hessians (every rule through complex values is tested in
//! complex_derivatives.rs).

mod common;

use common::*;
use msad::engine::{Engine, Mode, Options, Request};
use msad::value::{Array, Complex64, Value};

fn value_of(text: &str, x: Vec<f64>) -> Value {
    let mut engine = Engine::new();
    evaluate(&mut engine, &anonymous(text, vec![]), vec![column(x)], 1).unwrap_or_else(|d| panic!("{text}: {d}")).value
}

fn complex_of(text: &str, x: Vec<f64>) -> Vec<Complex64> {
    match value_of(text, x) {
        Value::Complex(z) => z.data,
        other => panic!("{text}: a complex value expected, not {other:?}"),
    }
}

#[test]
fn real_functions_outside_their_domain_give_octaves_complex_values() {
    let c = Complex64::new;
    assert_eq!(complex_of("@(x) sqrt(x)", vec![-4.0, 9.0]), vec![c(0.0, 2.0), c(3.0, 0.0)]);
    assert_eq!(complex_of("@(x) log(x)", vec![-1.0]), vec![c(0.0, std::f64::consts::PI)]);
    // Octave conjugates asin and acos above 1; atanh's imaginary part is +pi/2 on both sides.
    let asin = complex_of("@(x) asin(x)", vec![2.0, -2.0]);
    assert!((asin[0] - c(std::f64::consts::FRAC_PI_2, -1.3169578969248166)).norm() < 1e-15, "{asin:?}");
    assert!((asin[1] - c(-std::f64::consts::FRAC_PI_2, 1.3169578969248166)).norm() < 1e-15, "{asin:?}");
    let atanh = complex_of("@(x) atanh(x)", vec![-2.0]);
    assert!((atanh[0] - c(-0.5493061443340549, std::f64::consts::FRAC_PI_2)).norm() < 1e-15, "{atanh:?}");
    // (-8)^(1/3) through the polar form, as C++'s pow.
    let root = complex_of("@(x) x .^ (1 / 3)", vec![-8.0]);
    assert!((root[0] - c(1.0, 3f64.sqrt())).norm() < 1e-15, "{root:?}");
}

#[test]
fn results_narrow_to_real_as_octaves_do() {
    let c = Complex64::new;
    // complex() keeps a zero imaginary part; arithmetic, indexing and concatenation drop it.
    assert_eq!(complex_of("@(x) complex(x, 0)", vec![1.0]), vec![c(1.0, 0.0)]);
    for text in ["@(x) (x + 2i) - 2i", "@(x) complex(x, 0) + 0", "@(x) [x + 1i, 2](2)", "@(x) prod([1i 1i]) * x"] {
        assert!(matches!(value_of(text, vec![1.0]), Value::Double(_)), "{text} narrows");
    }
    assert_eq!(complex_of("@(x) [x, 1i]", vec![2.0]), vec![c(2.0, 0.0), c(0.0, 1.0)]);
    let Value::Logical(l) = value_of("@(x) [iscomplex(complex(x, 0)), isreal(x + 1i), -1 < 1i, 1i < 1]", vec![1.0]) else {
        panic!("logical expected")
    };
    assert_eq!(l.data, vec![true, false, true, false]);
}

#[test]
fn complex_order_is_modulus_then_argument() {
    let c = Complex64::new;
    assert_eq!(complex_of("@(x) sort([1i -1 1 -1i])", vec![0.0]), vec![c(0.0, -1.0), c(1.0, 0.0), c(0.0, 1.0), c(-1.0, 0.0)]);
    assert_eq!(values(&value_of("@(x) max([1i -1])", vec![0.0])), vec![-1.0]);
}

#[test]
fn x_free_complex_values_leave_the_jacobian_exact() {
    let z = Value::Complex(Array::column(vec![Complex64::new(1.0, 2.0), Complex64::new(0.0, -3.0)]));
    let function = anonymous("@(x) real(z .* exp(0.3i)) .* x + abs(sqrt(-4)) * x.^2 + imag(z' * z)", vec![("z", z)]);
    check_against_fd(&function, &[0.5, -1.25], &[], 1e-8);
}

/// Reverse mode follows complex values that depend on x (its gradient against central differences),
/// and so do Hessians (against central differences of the gradient).
#[test]
fn complex_values_that_depend_on_x_run_in_reverse_mode_and_hessians() {
    let texts = ["@(x) sum(abs(sqrt(x - 2)))", "@(x) sum(real(x * 1i))", "@(x) sum(real([x; 1i]))", "@(x) sum(imag(sqrt(x)))"];
    let x = [-1.0, 3.0];
    for text in texts {
        let run = |x: &[f64], mode, nargout| {
            let request = Request {
                function: anonymous(text, vec![]),
                args: vec![column(x.to_vec())],
                options: Options { mode, ..Options::default() },
                nargout,
            };
            Engine::new().evaluate(&mut host(), &request).unwrap_or_else(|e| panic!("{text}: {e}"))
        };
        let gradient = |x: Vec<f64>| values(run(&x, Mode::Reverse, 2).jacobian.as_ref().expect("g"));
        let expected = central_differences(&x, |xp| {
            values(&evaluate(&mut Engine::new(), &anonymous(text, vec![]), vec![column(xp)], 1).expect("f").value)
        });
        let err = relative_error(&gradient(x.to_vec()), &expected);
        assert!(err <= 1e-7, "{text}: reverse gradient differs from central differences by {err:e}");
        let hessian = values(run(&x, Mode::Auto, 3).hessian.as_ref().expect("H"));
        let err = relative_error(&hessian, &central_differences(&x, gradient));
        assert!(err <= 1e-7, "{text}: H differs from central differences of the gradient by {err:e}");
    }
}

#[test]
fn complex_conditions_are_true_where_nonzero() {
    assert_eq!(
        values(&value_of("@(x) [any([0 1i]), all([1 1i 0]), nnz([0 1i 2]), 1i && x, 0i || x]", vec![1.0])),
        vec![1.0, 0.0, 2.0, 1.0, 1.0]
    );
    // Colon bounds are real parts; a NaN part is an error as a NaN real condition is.
    assert_eq!(values(&value_of("@(x) x:(x + 2 + 1i)", vec![1.0])), vec![1.0, 2.0, 3.0]);
    let mut engine = Engine::new();
    assert!(evaluate(&mut engine, &anonymous("@(x) complex(NaN, x) && 1", vec![]), vec![column(vec![1.0])], 1).is_err());
}

#[test]
fn complex_solves_inverses_determinants_and_norms() {
    // Octave 7.3: A = [2 1i; 1 3], b = [1; 1i].
    let close = |text: &str, expected: &[Complex64]| {
        let got = complex_of(text, vec![0.0]);
        assert_eq!(got.len(), expected.len(), "{text}");
        for (g, e) in got.iter().zip(expected) {
            assert!((g - e).norm() <= 1e-14 * e.norm(), "{text}: {got:?}");
        }
    };
    let c = Complex64::new;
    close("@(x) [2 1i; 1 3] \\ [1; 1i]", &[c(0.648648648648649, 0.108108108108108), c(-0.216216216216216, 0.297297297297297)]);
    close("@(x) [1 1i] / [2 1i; 1 3]", &[c(0.5135135135135135, -0.08108108108108107), c(-0.02702702702702703, 0.1621621621621621)]);
    close("@(x) det([2 1i; 1 3])", &[c(6.0, -1.0)]);
    close(
        "@(x) inv([2 1i; 1 3])",
        &[
            c(0.4864864864864865, 0.08108108108108107),
            c(-0.1621621621621621, -0.02702702702702703),
            c(0.02702702702702703, -0.1621621621621621),
            c(0.3243243243243243, 0.05405405405405405),
        ],
    );
    let norms = values(&value_of("@(x) [norm([3 4i]), norm([2 1i; 1 3]), norm([2 1i; 1 3], 1), norm([2 1i; 1 3], 'fro')]", vec![0.0]));
    for (n, e) in norms.iter().zip([5.0, 3.447822819359494, 4.0, 3.872983346207417]) {
        assert!((n - e).abs() <= 1e-14 * e, "{norms:?}");
    }
}
