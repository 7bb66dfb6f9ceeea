//! Sparse matrices that depend on x (issue #22): every rule against central differences, reverse mode
//! against forward mode (dot-product test), Hessians against differences of the gradient, reverse
//! mode's refusals (never a wrong gradient), and derivative blocks of one row per stored entry.

mod common;

use common::*;
use msad::diag::ErrorKind;
use msad::engine::{Engine, JacobianStorage, Mode, Options, Request};
use msad::primitives::{self, Forward, Prim};
use msad::value::deriv::{DenseDeriv, Deriv};
use msad::value::{Array, SparseMatrix, Value};

fn x0() -> Vec<f64> {
    vec![0.3, 0.5, 0.7, 0.4, 0.6, 0.8]
}

/// A constant sparse matrix with a zero stored nowhere and one empty column (6 x 6).
fn constant_sparse() -> Value {
    let rows = [0, 2, 1, 3, 4, 5, 0, 5];
    let cols = [0, 0, 1, 2, 3, 4, 5, 5];
    let values = [4.0, -1.0, 3.0, 5.0, 2.5, 6.0, 0.5, 3.5];
    let triplets = (0..rows.len()).map(|k| (rows[k] as f64 + 1.0, cols[k] as f64 + 1.0, values[k]));
    let (i, j, v): (Vec<f64>, Vec<f64>, Vec<f64>) = triplets.fold((vec![], vec![], vec![]), |mut acc, (i, j, v)| {
        acc.0.push(i);
        acc.1.push(j);
        acc.2.push(v);
        acc
    });
    let sparse = primitives::eval(Prim::Sparse, &[&column(i), &column(j), &column(v), &Value::scalar(6.0), &Value::scalar(6.0)], 1);
    sparse.expect("sparse").remove(0)
}

/// x-dependent sparse matrices (`S(x)` tridiagonal from `sparse(i, j, v)`, `D(x)` from `spdiags`)
/// through every operation with a stored-entry rule, and through indexing and `full` in element form.
const EXPRESSIONS: [&str; 32] = [
    "S(x) * x",
    "S(x).' * x",
    "S(x)' * K * x",
    "(S(x) + K) * x",
    "(K - S(x) / 3) * x",
    "(-S(x)) * x",
    "full(x(2) * S(x))(:)",
    "full(S(x) * x(1))(:)",
    "(speye(6) * 4 - 0.1 * S(x)) \\ x",
    "(speye(6) * 4 - 0.1 * S(x)) \\ [x, x.^2]",
    "((speye(6) * 4 - D(x)) \\ ones(6, 1))",
    "(x.' / (speye(6) * 5 + S(x))).'",
    "S(x)(2:4, 3)",
    "sum(S(x)).'",
    "full(S(x) * D(x))(:)",
    "(K * S(x) * K.') * x",
    "full(S(x).' * S(x))(:, 2)",
    "sum(S(x) * x(3), 2)",
    "sum(D(x), 1).' + sum(D(x).', 2)",
    "K \\ x.^2 + (x.^2).' / K.'",
    // Computed on stored entries (sparse results, as Octave's), and sparse concatenation.
    "full(abs(S(x) - 0.5 * D(x)))(:)",
    "full(S(x) .* D(x))(:)",
    "full(S(x) .* (x * x.') + (x * x.') .* K)(:)",
    "full(S(x) .^ 2 + D(x) .^ 3)(:)",
    "full([S(x), D(x); K, S(x).'])(:)",
    "[S(x); x.'] * x",
    "[sparse([1 2], [1 2], [x(1) - 0.3; x(2)], 2, 2), K(1:2, 1:2)] * x(1:4)",
    "full([D(x), x] .* [K, x.^2])(:)",
    // On sparse LU factors: d det = det tr(S^-1 dS).
    "det(speye(6) * 4 + 0.3 * S(x) + D(x).') * x",
    "kron(S(x)(1:2, 1:2), K(1:3, 1:3) + D(x)(2:4, 2:4)) * x",
    // The factors of chol and lu of S(x), by a sparse LU on dual numbers.
    "full(chol(speye(6) * 6 + S(x) + S(x).'))(:)",
    "full(lu(K + S(x) + D(x).'))(:)",
];

fn captured() -> Vec<(&'static str, Value)> {
    let tridiagonal = "@(x) sparse([1:6, 2:6, 1:5], [1:6, 1:5, 2:6], [-2 * x.^2; x(2:6); sin(x(1:5))], 6, 6)";
    let diagonals = "@(x) spdiags([x, x.^2, [x(2:end); 0]], [-1, 0, 2], 6, 6)";
    vec![
        ("K", constant_sparse()),
        ("S", Value::Handle(std::sync::Arc::new(anonymous(tridiagonal, vec![])))),
        ("D", Value::Handle(std::sync::Arc::new(anonymous(diagonals, vec![])))),
    ]
}

fn jacobian(engine: &mut Engine, text: &str, x: &[f64], mode: Mode) -> msad::diag::Result<(Value, Vec<f64>)> {
    let function = anonymous(text, captured());
    let options = Options { mode, jacobian: JacobianStorage::Full, ..Options::default() };
    let request = Request { function, args: vec![column(x.to_vec())], options, nargout: 2 };
    let result = engine.evaluate(&mut host(), &request)?;
    Ok((result.value, values(&result.jacobian.expect("derivative requested"))))
}

#[test]
fn every_rule_matches_central_differences() {
    let mut engine = Engine::new();
    let x = x0();
    for expression in EXPRESSIONS {
        let text = format!("@(x) {expression}");
        let (_, j) = jacobian(&mut engine, &text, &x, Mode::Forward).unwrap_or_else(|d| panic!("{expression}: {d}"));
        let fd = fd_jacobian(&mut engine, &anonymous(&text, captured()), &x, &[]);
        let err = relative_error(&j, &fd);
        assert!(err <= 1e-8, "{expression}: relative error {err:e} against central differences");
        // Sparsity detection (the default) finds the same Jacobian.
        let (_, detected) = jacobian(&mut engine, &text, &x, Mode::Auto).unwrap_or_else(|d| panic!("{expression}: {d}"));
        assert!(relative_error(&detected, &j) <= 1e-14, "{expression}: detected and full Jacobians differ");
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Expressions with x-dependent sparse matrices that reverse mode follows (per stored entry).
const REVERSE_EXPRESSIONS: [&str; 27] = [
    "K \\ x",
    "(K \\ [x, 2 * x]) * [1; -1]",
    "[x.'; x.'] / K",
    "S(x) * x",
    "S(x)' * K * x",
    "(S(x) + K) * x - S(x).' * x.^2",
    "(K - S(x) / 3) * x",
    "full(x(2) * S(x))(:)",
    "full(S(x) * D(x))(:)",
    "(speye(6) * 4 - 0.1 * S(x)) \\ x",
    "(speye(6) * 4 - 0.1 * S(x)) \\ [x, x.^2]",
    "(x.' / (speye(6) * 5 + S(x))).'",
    "sum(S(x)).' + sum(D(x), 2)",
    "sum(S(x) .* D(x), 2)",
    "abs(S(x) - 0.5 * D(x)) * x",
    "[S(x), S(x).'] * [x; x]",
    "S(x)(2:4, 3)",
    "S(x)(:, 2:3) * x(1:2) + S(x)(4, :).' .* x",
    "full(D(x)([1 3 4], [2 2 5]))(:)",
    "sum(S(x) .^ 2, 2) + abs(D(x)) * x",
    "((x * x.') .* S(x)) * x",
    "[D(x); S(x)] * x",
    "[S(x), x] * [x; 1]",
    "det(speye(6) * 4 + 0.3 * S(x) + D(x).') * x",
    "kron(S(x)(1:2, 1:2), K(1:3, 1:3) + D(x)(2:4, 2:4)) * x",
    // The factors of chol and lu of S(x), by a sparse LU on dual numbers.
    "full(chol(speye(6) * 6 + S(x) + S(x).'))(:)",
    "full(lu(K + S(x) + D(x).'))(:)",
];

/// `<J v, w>` from forward mode equals `<v, J' w>` from one reverse sweep of `sum(w .* f(x))`.
#[test]
fn reverse_mode_through_sparse_matrices_is_the_transpose_of_forward() {
    let mut engine = Engine::new();
    let x = x0();
    for expression in REVERSE_EXPRESSIONS {
        let (value, j) =
            jacobian(&mut engine, &format!("@(x) {expression}"), &x, Mode::Forward).unwrap_or_else(|d| panic!("{expression}: {d}"));
        let (m, n) = (value.numel(), x.len());
        let (v, w) = (weights(n, 3), weights(m, 4));
        let jv: Vec<f64> = (0..m).map(|i| (0..n).map(|c| j[c * m + i] * v[c]).sum()).collect();
        let weighted = Value::Double(Array::new(value.dims(), w.clone()));
        let mut with_w = captured();
        with_w.push(("w", weighted));
        let g = anonymous(&format!("@(x) full(sum(sum(w .* ({expression}))))"), with_w);
        let request = Request {
            function: g,
            args: vec![column(x.clone())],
            options: Options { mode: Mode::Reverse, ..Options::default() },
            nargout: 2,
        };
        let result = engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{expression}: {d}"));
        assert!(result.log.iter().any(|l| l.contains("reverse mode gradient")), "{:?}", result.log);
        let gradient = values(&result.jacobian.unwrap());
        let (lhs, rhs) = (dot(&jv, &w), dot(&v, &gradient));
        assert!((lhs - rhs).abs() <= 1e-12 * lhs.abs().max(1.0), "{expression}: <Jv, w> = {lhs}, <v, J'w> = {rhs}");
    }
}

/// Reverse mode refuses what it cannot follow per stored entry (an assignment into an x-dependent
/// sparse matrix: never a wrong gradient); auto mode then runs forward.
#[test]
fn reverse_mode_refuses_sparse_assignment_and_auto_uses_forward() {
    let x = x0();
    let function = named("sparse_assign_objective");
    let request = |mode| Request {
        function: function.clone(),
        args: vec![column(x.clone())],
        options: Options { mode, ..Options::default() },
        nargout: 2,
    };
    let mut engine = Engine::new();
    let err = engine.evaluate(&mut host(), &request(Mode::Reverse)).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unsupported, "{err}");
    assert!(err.message.contains("sparse matrix that depends on x"), "{err}");
    let gradient = values(&engine.evaluate(&mut host(), &request(Mode::Auto)).unwrap_or_else(|d| panic!("{d}")).jacobian.unwrap());
    let fd = fd_jacobian(&mut engine, &function, &x, &[]);
    assert!(relative_error(&gradient, &fd) <= 1e-8, "gradient {gradient:?} vs differences {fd:?}");
}

/// Central differences of the reverse-mode gradient (n x n, column-major).
fn fd_hessian(engine: &mut Engine, text: &str, x: &[f64]) -> Vec<f64> {
    let mut h = Vec::new();
    for j in 0..x.len() {
        let step = 1e-5;
        let mut at = |delta: f64| {
            let mut xp = x.to_vec();
            xp[j] += delta;
            jacobian(engine, text, &xp, Mode::Reverse).unwrap_or_else(|d| panic!("{text}: {d}")).1
        };
        let (plus, minus) = (at(step), at(-step));
        h.extend(plus.iter().zip(&minus).map(|(p, m)| (p - m) / (2.0 * step)));
    }
    h
}

/// Hessians through x-dependent sparse matrices (forward over reverse, per stored entry) against
/// central differences of the gradient, with and without the detected Hessian pattern.
#[test]
fn hessians_through_sparse_matrices_match_differences_of_the_gradient() {
    let objectives = [
        "sum(((speye(6) - 0.1 * S(x)) \\ x).^2)",
        "sum(((speye(6) * 3 + D(x)) \\ ones(6, 1)).^2) + x.' * ((speye(6) * 4 + S(x)) \\ x.^2)",
        "sum((x.' / (speye(6) * 5 + S(x))).^3)",
        "x.' * S(x) * x + sum(sum(S(x) * D(x))) + sum(x(1) * S(x)) * x",
        "sum(sum(S(x) .* D(x))) + sum(sum((x(2) * D(x)).'))",
        "x.' * ((x * x.') .* S(x)) * x + sum(sum([S(x), D(x)] .* [D(x), K]))",
        "det(speye(6) * 4 + S(x) + D(x).') + x.' * full(chol(speye(6) * 6 + S(x) + S(x).')) * x",
        "x.' * full(lu(K + S(x) + D(x).')) * x",
    ];
    let x = x0();
    for text in objectives {
        let text = format!("@(x) {text}");
        let mut engine = Engine::new();
        let fd = fd_hessian(&mut engine, &text, &x);
        let (_, forward) = jacobian(&mut engine, &text, &x, Mode::Forward).unwrap_or_else(|d| panic!("{text}: {d}"));
        let (_, reverse) = jacobian(&mut engine, &text, &x, Mode::Reverse).unwrap_or_else(|d| panic!("{text}: {d}"));
        assert!(relative_error(&reverse, &forward) <= 1e-12, "{text}: reverse gradient {reverse:?} vs forward {forward:?}");
        for sparsity in [msad::engine::Sparsity::Auto, msad::engine::Sparsity::None] {
            let options = Options { jacobian: JacobianStorage::Full, sparsity, ..Options::default() };
            let request = Request { function: anonymous(&text, captured()), args: vec![column(x.clone())], options, nargout: 3 };
            let result = engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{text}: {d}"));
            let h = values(&result.hessian.expect("Hessian"));
            let err = relative_error(&h, &fd);
            assert!(err <= 1e-7, "{text}: H differs from differences of g: {err:e}\nH = {h:?}\nfd = {fd:?}");
        }
    }
}

/// `rows` x `nd` dense block with distinct values.
fn block(rows: usize, nd: usize) -> Deriv {
    Deriv::Dense(DenseDeriv::from_seed(rows, nd, (0..rows * nd).map(|k| 1.0 + k as f64 / 7.0).collect()))
}

fn sparse_of(v: &Value) -> &SparseMatrix {
    match v {
        Value::Sparse(s) => s,
        other => panic!("a sparse value expected, not {other:?}"),
    }
}

fn rows_of(d: &Deriv) -> usize {
    match d {
        Deriv::Dense(b) => b.rows,
        Deriv::Sparse(b) => b.rows,
        other => panic!("a block expected, not {other:?}"),
    }
}

#[test]
fn derivative_blocks_have_one_row_per_stored_entry() {
    // A 20000 x 20000 tridiagonal matrix: 59998 stored entries, 4e8 elements.
    let n = 20_000;
    let ones = |len: usize| column(vec![1.0; len]);
    let range = |from: usize, to: usize| column((from..=to).map(|k| k as f64).collect());
    let cat = |parts: &[Value]| {
        let refs: Vec<&Value> = parts.iter().collect();
        primitives::eval(Prim::Vertcat, &refs, 1).unwrap().remove(0)
    };
    let i = cat(&[range(1, n), range(2, n), range(1, n - 1)]);
    let j = cat(&[range(1, n), range(1, n - 1), range(2, n)]);
    let entries = 3 * n - 2;
    let v = column((0..entries).map(|k| 1.0 + (k % 5) as f64).collect());
    let size = Value::scalar(n as f64);
    let (nd, dv) = (3, block(entries, 3));
    let zero = Deriv::Zero;
    let args = [&i, &j, &v, &size, &size];
    let a = primitives::eval(Prim::Sparse, &args, 1).unwrap().remove(0);
    let da = primitives::forward(Prim::Sparse, &Forward { inputs: &args, derivs: &[&zero, &zero, &dv, &zero, &zero], output: &a }).unwrap();
    assert_eq!(rows_of(&da), sparse_of(&a).nnz());
    assert_eq!(sparse_of(&a).nnz(), entries);

    // speye(n) - h * A, (speye(n) - h * A) \ u: blocks of nnz rows, then n rows.
    let h = Value::scalar(0.1);
    let scaled = primitives::eval(Prim::Mtimes, &[&h, &a], 1).unwrap().remove(0);
    let d_scaled = primitives::forward(Prim::Mtimes, &Forward { inputs: &[&h, &a], derivs: &[&zero, &da], output: &scaled }).unwrap();
    assert_eq!(rows_of(&d_scaled), entries);
    let eye = primitives::eval(Prim::Speye, &[&size], 1).unwrap().remove(0);
    let m = primitives::eval(Prim::Minus, &[&eye, &scaled], 1).unwrap().remove(0);
    let dm = primitives::forward(Prim::Minus, &Forward { inputs: &[&eye, &scaled], derivs: &[&zero, &d_scaled], output: &m }).unwrap();
    assert_eq!(rows_of(&dm), sparse_of(&m).nnz());
    let u = ones(n);
    let step = primitives::eval(Prim::Mldivide, &[&m, &u], 1).unwrap().remove(0);
    let d_step = primitives::forward(Prim::Mldivide, &Forward { inputs: &[&m, &u], derivs: &[&dm, &zero], output: &step }).unwrap();
    assert_eq!((rows_of(&d_step), d_step.nd()), (n, Some(nd)));
    let transposed = primitives::eval(Prim::Transpose, &[&m], 1).unwrap().remove(0);
    let dt = primitives::forward(Prim::Transpose, &Forward { inputs: &[&m], derivs: &[&dm], output: &transposed }).unwrap();
    assert_eq!(rows_of(&dt), sparse_of(&m).nnz());

    // Steps on stored entries and concatenation: blocks of the result's nnz rows.
    let two = Value::scalar(2.0);
    for (prim, inputs, derivs) in [
        (Prim::Abs, vec![&m], vec![&dm]),
        (Prim::Power, vec![&m, &two], vec![&dm, &zero]),
        (Prim::Times, vec![&m, &m], vec![&dm, &dm]),
        (Prim::Horzcat, vec![&m, &a], vec![&dm, &da]),
        (Prim::Vertcat, vec![&a, &m], vec![&da, &dm]),
    ] {
        let out = primitives::eval(prim, &inputs, 1).unwrap().remove(0);
        let d = primitives::forward(prim, &Forward { inputs: &inputs, derivs: &derivs, output: &out }).unwrap();
        assert_eq!(rows_of(&d), sparse_of(&out).nnz(), "{prim:?}");
        assert!(sparse_of(&out).nnz() <= 2 * sparse_of(&m).nnz(), "{prim:?}");
    }
}

#[test]
fn sparse_values_keep_octaves_class_and_shape() {
    let mut engine = Engine::new();
    for (text, sparse) in [
        ("@(x) S(x) + K", true),
        ("@(x) S(x).'", true),
        ("@(x) 2 * S(x)", true),
        ("@(x) S(x) * K", true),
        ("@(x) S(x) * x", false),
        ("@(x) S(x)(2:5, 3:4)", true),
        ("@(x) S(x)(:, 2)", true),
        ("@(x) K(4, :) * x(1)", true),
        ("@(x) sum(S(x))", true),
        ("@(x) sum(D(x), 2)", true),
        ("@(x) sum(K) * x(1)", true),
        ("@(x) K \\ x", false),
        ("@(x) abs(S(x))", true),
        ("@(x) S(x) .* D(x)", true),
        ("@(x) S(x) .* (x * x.')", true),
        ("@(x) (x * x.') .* S(x)", true),
        ("@(x) S(x) .^ 2", true),
        ("@(x) S(x) .^ 0", false),
        ("@(x) -S(x)", true),
        ("@(x) S(x)'", true),
        ("@(x) S(x) * 3", true),
        ("@(x) [S(x), K]", true),
        ("@(x) [S(x); x.']", true),
        ("@(x) [x, S(x)]", true),
    ] {
        let function = anonymous(text, captured());
        let result = evaluate(&mut engine, &function, vec![column(x0())], 2).unwrap_or_else(|d| panic!("{text}: {d}"));
        assert_eq!(matches!(result.value, Value::Sparse(_)), sparse, "{text}: issparse");
        let expected_rows = result.value.numel();
        assert_eq!(result.jacobian.unwrap().dims(), vec![expected_rows, 6], "{text}: J has a row per element of f");
    }
}

/// A zero of a full operand that depends on x has no stored entry in a sparse concatenation: a
/// clear error, never a dropped derivative.
#[test]
fn sparse_concatenation_refuses_to_drop_a_derivative() {
    let mut engine = Engine::new();
    let function = anonymous("@(x) [K, x - [0.3; 0.5; 0.7; 0.4; 0.6; 0.8]]", captured());
    let err = evaluate(&mut engine, &function, vec![column(x0())], 2).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotDifferentiable, "{err}");
}

/// Sparse solves with several right-hand sides give the dense solves' values (a transposition of a
/// non-vector B in `B/A` once mixed up rows and columns).
#[test]
fn sparse_solves_match_dense_solves() {
    let mut engine = Engine::new();
    for (sparse, dense) in [
        ("[x.'; x.'.^2; 1:6] / (K + S(x))", "[x.'; x.'.^2; 1:6] / full(K + S(x))"),
        ("(K + S(x)) \\ [x, x.^2, (1:6).']", "full(K + S(x)) \\ [x, x.^2, (1:6).']"),
    ] {
        let mut value = |text: &str| {
            let result = evaluate(&mut engine, &anonymous(&format!("@(x) {text}"), captured()), vec![column(x0())], 1);
            values(&result.unwrap_or_else(|d| panic!("{text}: {d}")).value)
        };
        let (s, d) = (value(sparse), value(dense));
        assert!(relative_error(&s, &d) <= 1e-12, "{sparse}: {s:?} differs from {d:?}");
    }
}
