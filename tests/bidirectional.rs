//! Bidirectional partitions (src/ad/bicoloring.rs, src/engine/bidirectional.rs) and sparse reverse
//! products: pass counts on patterns with dense rows, Jacobians against central differences and column
//! compression, and `A' * ybar` for a sparse A in reverse mode.

mod common;

use common::*;
use msad::ad::bicoloring::{Bicoloring, Partition, bicolor};
use msad::ad::coloring::Ordering;
use msad::ad::pattern::Pattern;
use msad::engine::{Engine, JacobianStorage, Mode, Options, Request, Sparsity};
use msad::value::{SparseMatrix, Value};

/// Diagonal, last column and last row: the Jacobian of an arrowhead function.
fn arrowhead(n: usize) -> Pattern {
    let mut rows: Vec<Vec<usize>> = (0..n - 1).map(|i| vec![i, n - 1]).collect();
    rows.push((0..n).collect());
    Pattern::from_rows(n, &rows)
}

/// A band of half-width `w`, then `k` full rows, with `k` full columns on the right.
fn bordered_banded(n: usize, w: usize, k: usize) -> Pattern {
    let mut rows: Vec<Vec<usize>> = (0..n).map(|i| (i.saturating_sub(w)..(i + w + 1).min(n)).chain(n..n + k).collect()).collect();
    rows.extend((0..k).map(|_| (0..n + k).collect()));
    Pattern::from_rows(n + k, &rows)
}

/// A diagonal block and one `sum(x) = 1` row.
fn sum_constraint(n: usize) -> Pattern {
    let mut rows: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    rows.push((0..n).collect());
    Pattern::from_rows(n, &rows)
}

/// Every entry is determined directly: reverse groups hold rows sharing no column, and no forward row
/// holds two columns of one colour.
fn assert_direct(pattern: &Pattern, b: &Bicoloring) {
    let mut group_seen = vec![None; b.nreverse * pattern.ncols()];
    let mut colour_seen = vec![usize::MAX; b.columns.ncolors.max(1)];
    for i in 0..pattern.nrows() {
        for &j in pattern.row(i) {
            match b.row_groups[i] {
                Some(g) => {
                    assert!(g < b.nreverse);
                    let seen = &mut group_seen[g * pattern.ncols() + j];
                    assert!(seen.is_none(), "rows {seen:?} and {i} of group {g} share column {j}");
                    *seen = Some(i);
                }
                None => {
                    let c = b.columns.colors[j];
                    assert!(c < b.columns.ncolors);
                    assert_ne!(colour_seen[c], i, "forward row {i} has two columns of colour {c}");
                    colour_seen[c] = i;
                }
            }
        }
    }
}

fn bidirectional(pattern: &Pattern) -> Bicoloring {
    match Partition::choose(pattern, pattern.ncols() / 4) {
        Partition::Bidirectional(b) => {
            assert_direct(pattern, &b);
            b
        }
        Partition::Columns(c) => panic!("column colouring chosen ({} colours)", c.ncolors),
    }
}

#[test]
fn arrowhead_needs_three_passes_whatever_n() {
    for n in [100, 1000, 10_000] {
        let b = bidirectional(&arrowhead(n));
        assert_eq!((b.columns.ncolors, b.nreverse), (2, 1), "n = {n}");
    }
}

#[test]
fn bordered_banded_needs_passes_independent_of_n() {
    for n in [100, 1000] {
        let b = bidirectional(&bordered_banded(n, 2, 3));
        // The band's 2w + 1 colours and the k border columns forward, the k border rows reverse.
        assert_eq!((b.columns.ncolors, b.nreverse), (5 + 3, 3), "n = {n}");
    }
}

#[test]
fn sum_constraint_needs_two_passes() {
    for n in [100, 1000] {
        let b = bidirectional(&sum_constraint(n));
        assert_eq!((b.columns.ncolors, b.nreverse), (1, 1), "n = {n}");
    }
}

#[test]
fn column_colouring_is_kept_without_dense_rows() {
    let mut rows: Vec<Vec<usize>> = (0..50).map(|i| vec![i, (i + 1) % 50]).collect();
    rows.push((0..50).step_by(20).collect());
    let pattern = Pattern::from_rows(50, &rows);
    assert!(matches!(Partition::choose(&pattern, 50 / 4), Partition::Columns(_)));
    assert_eq!(bicolor(&pattern, 3), None, "no partition beats 3 forward passes");
}

/// A near-full pattern (the inverse of a tridiagonal matrix with its underflowed corners) is not
/// coloured: every partition needs more passes than compression may take, so it gets one colour per
/// column at once (colouring it took 24 s at n = 2000). A band within the budget is still coloured,
/// and patterns with a few dense rows keep their bidirectional partitions (the tests above).
#[test]
fn near_full_patterns_skip_colouring() {
    let band = |n: usize, half: usize| {
        let rows: Vec<Vec<usize>> = (0..n).map(|i| (i.saturating_sub(half)..(i + half + 1).min(n)).collect()).collect();
        Pattern::from_rows(n, &rows)
    };
    let (n, near_full) = (2000, band(2000, 700));
    let started = std::time::Instant::now();
    match Partition::choose(&near_full, n / 4) {
        Partition::Columns(c) => assert_eq!((c.ncolors, c.ordering_used), (n, Ordering::Natural)),
        Partition::Bidirectional(b) => panic!("a bidirectional partition of {} passes", b.passes()),
    }
    assert!(started.elapsed().as_secs_f64() < 2.0, "took {:?}", started.elapsed());
    match Partition::choose(&band(400, 10), 100) {
        Partition::Columns(c) => assert_eq!((c.ncolors, c.ordering_used == Ordering::Natural), (21, false)),
        Partition::Bidirectional(b) => panic!("a bidirectional partition of {} passes", b.passes()),
    }
}

fn options(mode: Mode, sparsity: Sparsity, jacobian: JacobianStorage) -> Options {
    Options { mode, sparsity, jacobian, verbose: true, ..Options::default() }
}

fn jacobian_of(engine: &mut Engine, f: &msad::value::FunctionHandle, x: &[f64], options: Options) -> (Value, Vec<String>) {
    let request = Request { function: f.clone(), args: vec![column(x.to_vec())], options, nargout: 2 };
    let result = engine.evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{d}"));
    (result.jacobian.expect("Jacobian requested"), result.log)
}

fn dense(j: &Value) -> Vec<f64> {
    match j {
        Value::Sparse(s) => s.to_dense().data,
        other => values(other),
    }
}

/// An arrowhead residual: `x_i^2 + x_n^2 - x_i` and one row reading every element.
const ARROWHEAD: &str = "@(x) [x(1:end-1).^2 + x(end)^2 - x(1:end-1); sum(x.^3) + prod(x(1:3))]";

fn point(n: usize) -> Vec<f64> {
    (0..n).map(|i| 0.4 + 0.3 * ((i * 7 % 11) as f64) / 11.0).collect()
}

#[test]
fn arrowhead_jacobian_by_bidirectional_passes_matches_differences_and_columns() {
    let f = anonymous(ARROWHEAD, vec![]);
    for n in [100, 1000] {
        let x = point(n);
        let mut engine = Engine::new();
        let auto = || options(Mode::Auto, Sparsity::Auto, JacobianStorage::Auto);
        let (detected, _) = jacobian_of(&mut engine, &f, &x, auto());
        let (j, log) = jacobian_of(&mut engine, &f, &x, auto());
        assert!(matches!(j, Value::Sparse(_)), "J returned sparse");
        assert!(
            log.iter().any(|l| l.contains("bidirectional evaluation with 2 forward directions and 1 reverse passes")),
            "n = {n}: {log:?}"
        );
        let full = jacobian_of(&mut Engine::new(), &f, &x, options(Mode::Forward, Sparsity::None, JacobianStorage::Full)).0;
        assert!(relative_error(&dense(&j), &values(&full)) <= 1e-14, "n = {n}: bidirectional vs full forward");
        assert!(relative_error(&dense(&detected), &values(&full)) <= 1e-14, "n = {n}: detection vs full forward");
        if n == 100 {
            let fd = fd_jacobian(&mut engine, &f, &x, &[]);
            assert!(relative_error(&dense(&j), &fd) <= 1e-7, "J vs central differences");
        }
    }
}

#[test]
fn user_pattern_is_checked_in_bidirectional_passes() {
    let f = anonymous(ARROWHEAD, vec![]);
    let n = 60;
    let x = point(n);
    let user = |pattern: Pattern| options(Mode::Auto, Sparsity::Pattern(pattern), JacobianStorage::Sparse);
    let (j, log) = jacobian_of(&mut Engine::new(), &f, &x, user(arrowhead(n)));
    assert!(log.iter().any(|l| l.contains("bidirectional evaluation")), "{log:?}");
    let fd = fd_jacobian(&mut Engine::new(), &f, &x, &[]);
    assert!(relative_error(&dense(&j), &fd) <= 1e-7);
    // Without the last column's entries of rows 1..n-1, J r disagrees: the pattern is refused.
    let mut rows: Vec<Vec<usize>> = (0..n - 1).map(|i| vec![i]).collect();
    rows.push((0..n).collect());
    let request = Request { function: f.clone(), args: vec![column(x.clone())], options: user(Pattern::from_rows(n, &rows)), nargout: 2 };
    let error = Engine::new().evaluate(&mut host(), &request).expect_err("a wrong pattern");
    assert_eq!(error.kind, msad::diag::ErrorKind::BadPattern, "{error}");
}

/// `G(i, i + d)` for d = 0, 1, 7 (values varying with i), built column by column.
fn sparse_band(n: usize) -> SparseMatrix {
    let (mut colptr, mut rowind, mut values) = (vec![0], Vec::new(), Vec::new());
    for j in 0..n {
        for (d, v) in [(7, 0.25), (1, -0.5), (0, 2.0)] {
            if j >= d {
                rowind.push(j - d);
                values.push(v + (j - d) as f64 * 1e-3);
            }
        }
        colptr.push(rowind.len());
    }
    SparseMatrix::new(n, n, colptr, rowind, values)
}

#[test]
fn gradient_through_a_sparse_product_is_its_transpose_product() {
    let n = 40;
    let g = sparse_band(n);
    let f = anonymous("@(x) sum((G*x).^2) + sum(x' * (G*x))", vec![("G", Value::Sparse(g.clone()))]);
    let x = point(n);
    let run = |mode| {
        let request = Request {
            function: f.clone(),
            args: vec![column(x.clone())],
            options: options(mode, Sparsity::Auto, JacobianStorage::Full),
            nargout: 2,
        };
        let result = Engine::new().evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{d}"));
        (values(&result.jacobian.expect("gradient")), result.log)
    };
    let (reverse, log) = run(Mode::Reverse);
    assert!(log.iter().any(|l| l.contains("reverse mode gradient")), "{log:?}");
    let (forward, _) = run(Mode::Forward);
    assert!(relative_error(&reverse, &forward) <= 1e-13, "reverse {reverse:?} vs forward {forward:?}");
    // Exact: 2 G'(G x) + (G + G') x.
    let gd = g.to_dense();
    let gx: Vec<f64> = (0..n).map(|i| (0..n).map(|j| gd.data[j * n + i] * x[j]).sum()).collect();
    let exact: Vec<f64> = (0..n).map(|j| (0..n).map(|i| gd.data[j * n + i] * (2.0 * gx[i] + x[i])).sum::<f64>() + gx[j]).collect();
    assert!(relative_error(&reverse, &exact) <= 1e-13, "reverse {reverse:?} vs exact {exact:?}");
}

#[test]
fn sparse_product_gradient_at_n_1e5_stays_sparse() {
    let n = 100_000;
    let f = anonymous("@(x) sum((G*x).^2)", vec![("G", Value::Sparse(sparse_band(n)))]);
    let x = point(n);
    let request =
        Request { function: f, args: vec![column(x)], options: options(Mode::Auto, Sparsity::Auto, JacobianStorage::Auto), nargout: 2 };
    let started = std::time::Instant::now();
    let result = Engine::new().evaluate(&mut host(), &request).unwrap_or_else(|d| panic!("{d}"));
    assert!(result.log.iter().any(|l| l.contains("reverse mode gradient")), "{:?}", result.log);
    assert_eq!(values(&result.jacobian.expect("gradient")).len(), n);
    // O(nnz) work: a densified G (80 GB) would not get here, an O(n^2) sweep not within seconds.
    assert!(started.elapsed().as_secs_f64() < 5.0, "took {:?}", started.elapsed());
}

/// Rows from reverse passes (two groups here) agree with forward mode on a function with sparse
/// products, elementwise operations and indexing.
#[test]
fn reverse_rows_agree_with_forward_mode_through_sparse_products() {
    let n = 30;
    let g = sparse_band(n);
    let text = "@(x) [G*(x.^2) - x; sum(exp(x/4)); prod(1 + x(1:4)) * sum(G*x)]";
    let f = anonymous(text, vec![("G", Value::Sparse(g))]);
    let x = point(n);
    let mut engine = Engine::new();
    let auto = || options(Mode::Auto, Sparsity::Auto, JacobianStorage::Sparse);
    jacobian_of(&mut engine, &f, &x, auto());
    let (j, log) = jacobian_of(&mut engine, &f, &x, auto());
    assert!(log.iter().any(|l| l.contains("bidirectional evaluation") && l.contains("2 reverse passes")), "{log:?}");
    let full = jacobian_of(&mut Engine::new(), &f, &x, options(Mode::Forward, Sparsity::None, JacobianStorage::Full)).0;
    assert!(relative_error(&dense(&j), &values(&full)) <= 1e-13);
    let fd = fd_jacobian(&mut engine, &f, &x, &[]);
    assert!(relative_error(&dense(&j), &fd) <= 1e-6);
}
