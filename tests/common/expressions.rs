//! Expressions of x that exercise every differentiable builtin, shared by the reverse-mode and the
//! Hessian consistency tests.

use msad::exec::value::{Array, SparseMatrix, Value};

/// One expression per primitive with a reverse rule (x is a 6-element column in (0.3, 0.8)); `A` is a
/// 3 x 6 matrix and `S` a sparse 6 x 6 one (see `captured`).
pub const EXPRESSIONS: &[&str] = &[
    "-x", "+x", "sin(x)", "cos(x)", "tan(x)", "exp(x)", "expm1(x)", "log(x)", "log2(x)", "log10(x)",
    "log1p(x)", "sqrt(x)", "abs(x - 0.5)", "asin(x)", "acos(x)", "atan(x)", "sinh(x)", "cosh(x)", "tanh(x)",
    "asinh(x)", "acosh(x + 1)", "atanh(x)", "erf(x)", "floor(x) + x",
    "x + x'", "x - 2", "x .* x'", "x ./ x(1:2)'", "x .\\ 3", "x .^ x", "x .^ 2", "2 .^ x", "atan2(x, x')",
    "hypot(x, 1)", "A * x", "x' * A'", "reshape(x, 2, 3) * reshape(x, 3, 2)", "x' * x", "x(2) * x",
    "x'", "reshape(x, 3, 2)'", "x / x(2)", "x(3) \\ x", "x(1) ^ x(2)", "x(2) ^ 3", "diag(x)",
    "diag(reshape(x, 2, 3))", "diag(x, 1)", "sum(x)", "sum(reshape(x, 2, 3), 2)", "mean(reshape(x, 3, 2))",
    "cumsum(x)", "cumsum(reshape(x, 2, 3), 2)", "[x, 2 * x]", "[x; x .^ 2]", "[1; x; 2 * x; 3]",
    "[reshape(x, 2, 3), ones(2, 1), reshape(x .^ 2, 2, 3)]", "[x(1), x(3); x(2), 5]",
    "reshape(x, 2, 3)", "full(x)", "double(x)", "x([1 3 3 6])", "x(end:-1:2)", "S * x", "full(S') * x",
    "reverse_loops(x)", "brusselator_rhs(x)",
    // Builtins by name (operators too: the coverage test below looks for `name(`).
    "uminus(x)", "uplus(x)", "plus(x, x')", "minus(x, 2)", "times(x, x')", "rdivide(x, x(2))", "ldivide(x, 3)",
    "power(x, 3)", "mtimes(A, x)", "mrdivide(x, 2)", "mldivide(2, x)", "mpower(x(3), 2)", "transpose(x)",
    "ctranspose(x)", "horzcat(x, x)", "vertcat(x, x)", "cat(1, x, 2 * x)", "cat(2, x, x .^ 2)",
    "circshift(x, 2)", "cumprod(x)", "cumprod(reshape(x, 2, 3), 2)", "det(reshape(x(1:4), 2, 2))", "diff(x)",
    "diff(reshape(x, 2, 3), 1, 2)", "dot(x, x .^ 2)", "flip(x)", "fliplr(x')", "flipud(x)",
    "interp1([0 1 2 3 4 5], x, [0.5 2.5 4.2])", "interp1([0 1 2 3 4 5], [1 4 2 8 5 7], 5 * x)",
    "inv(reshape(x(1:4), 2, 2))", "inverse(reshape(x(1:4), 2, 2))", "reshape(ipermute(reshape(x, 1, 2, 3), [2 3 1]), 6, 1)",
    "kron(x(1:2), x(3:5))", "linspace(x(1), x(2), 4)", "logspace(x(1), x(2), 3)", "max(x)", "max(x, x(end:-1:1))",
    "min(reshape(x, 2, 3), [], 2)", "min(x, 0.5)", "[2 1 0; 1 3 1; 0 1 4] \\ x(1:3)", "reshape(x(1:4), 2, 2) \\ [1; 2]",
    "x(1:3)' / [2 1 0; 1 3 1; 0 1 4]", "[1 2] / reshape(x(1:4), 2, 2)", "mod(x, 0.25)", "rem(5 * x, x(1))",
    "reshape(x(1:4), 2, 2) ^ 2", "meshgrid(x(1:2), x(3:5))", "ndgrid(x(1:2), x(3:5))", "norm(x)",
    "norm(reshape(x, 2, 3), 'fro')", "norm(x, 1)", "permute(reshape(x, 2, 3), [2 1])", "polyval(x(1:3), 0.7)",
    "polyval([1 2 3], x)", "prod(x)", "prod(reshape(x, 2, 3), 2)", "repmat(x, 2, 1)", "rot90(reshape(x, 2, 3))",
    "sort(x)", "sort(x, 'descend')", "squeeze(reshape(x, 1, 2, 3))", "trace(reshape(x(1:4), 2, 2))",
    "tril(reshape(x, 3, 2))", "triu(reshape(x, 2, 3))", "atan2(x, 1)", "hypot(x, x')", "mean(x)",
    "accumarray([1; 2; 1; 3; 2; 1], x)", "accumarray([1 1; 2 1; 1 2; 2 2; 1 1; 3 2], x .^ 2, [3 3])",
    "deal(x .^ 2)", "real(x .^ 2)", "conj(x') .* x(1)", "cbrt(x + 1)", "merge(x > 0.5, x .^ 2, sin(x))",
    "ifelse(x < 0.45, 3 * x, x .* x(end:-1:1))",
];

/// Deterministic pseudo-random entries in (-1, 1).
pub fn weights(n: usize, seed: u64) -> Vec<f64> {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        })
        .collect()
}

/// The matrices the expressions read: `A` (3 x 6) and `S` (sparse 6 x 6).
pub fn matrices() -> Vec<(&'static str, Value)> {
    let a = Value::Double(Array::new(vec![3, 6], weights(18, 7)));
    let s = Value::Sparse(SparseMatrix::from_dense(&Array::new(
        vec![6, 6],
        weights(36, 9).into_iter().map(|v| if v > 0.3 { v } else { 0.0 }).collect(),
    )));
    vec![("A", a), ("S", s)]
}
