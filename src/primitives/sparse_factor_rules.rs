//! Derivatives of the factors of `chol` and `lu` of a sparse matrix that depends on x, and the
//! second-order terms of those and of `det`: a left-looking LU on the factors' structural patterns,
//! written once over `Field` (see `dual`) and run on dual numbers per direction (forward; reverse
//! transposes it) or on hyper-dual numbers (second order). It keeps the row and column order faer's
//! factorisation of the values chose (`sparse_factor`), so it differentiates exactly the factors
//! returned. Cholesky is the LU without pivoting of the symmetric matrix A's upper triangle defines:
//! `R(i, :) = U(i, :) / sqrt(U(i, i))`. Cost: one sparse factorisation per direction.
//!
//! Where the derivative does not exist (a pivot tie that the direction breaks, a zero pivot) the rules
//! fail with `msad:notDifferentiable`.

use super::dual::{Dual, Field, kernel_second_order_at};
use super::matrix_functions::linear_in;
use super::reverse::Adjoints;
use super::second_order::Tangents;
use super::{Forward, Prim, sparse_deriv, sparse_factor};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::Deriv;
use crate::value::{SparseMatrix, Value};
use std::collections::BTreeSet;

/// Which result a rule differentiates.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Form {
    /// `Y = lu(S)`: `L + U - I` of `P S = L U`.
    Packed,
    /// L of `P S Q = L U` (Q from COLAMD where `ordered`, else I); `in_a_order`: `P' L` (`[L, U] = lu(S)`).
    Lower {
        ordered: bool,
        in_a_order: bool,
    },
    Upper {
        ordered: bool,
    },
    /// R of `chol(S)`, or the leading rows `[R, p] = chol(S)` returns.
    Cholesky,
    Determinant,
}

/// The derivative of result `k` of `id` (`chol`, `lu`) of the sparse A.
pub(super) fn forward(id: Prim, a: &SparseMatrix, fw: &Forward, k: usize) -> Result<Deriv> {
    let Some(form) = form(id, a, fw.output, k)? else { return Ok(Deriv::Zero) };
    let plan = Plan::new(form, a, fw.output)?;
    let rows = sparse_output(fw.output)?.nnz();
    linear_in(fw.derivs[0], a.nnz(), rows, |da| {
        let duals: Vec<Dual> = a.values().iter().zip(da).map(|(&v, &d)| Dual { v, d }).collect();
        Ok(results(form, &plan, &duals, fw.output)?.into_iter().map(|r| r.d).collect())
    })
}

/// The second-order term of result `t.result` of `id` (`det`, `chol`, `lu`) of a sparse A.
pub(super) fn second_order(id: Prim, t: &Tangents) -> Result<Adjoints> {
    let Value::Sparse(a) = t.inputs[0] else { return Err(Diagnostic::new(ErrorKind::Internal, "not a sparse operand")) };
    let Some(form) = form(id, a, t.output, t.result)? else { return Ok(vec![None; t.inputs.len()]) };
    let plan = Plan::new(form, a, t.output)?;
    kernel_second_order_at(t, a.values(), |entries| results(form, &plan, entries, t.output))
}

fn sparse_output(v: &Value) -> Result<&SparseMatrix> {
    match v {
        Value::Sparse(s) => Ok(s),
        _ => Err(Diagnostic::new(ErrorKind::Internal, "a sparse factor expected")),
    }
}

/// The form of result `k` (None: constant, as the permutations and chol's flag are).
fn form(id: Prim, a: &SparseMatrix, output: &Value, k: usize) -> Result<Option<Form>> {
    Ok(match (id, k) {
        (Prim::Det, _) => Some(Form::Determinant),
        (Prim::Lu, _) => Some(Form::Packed),
        // No stored entry: R of a matrix whose first pivot fails.
        (Prim::Chol | Prim::CholFlag, 0) => (sparse_output(output)?.nnz() > 0).then_some(Form::Cholesky),
        (Prim::LuFactors, 0 | 1) => Some(lu_form(a, sparse_output(output)?, k)?),
        _ => None,
    })
}

/// Which factor of `lu(S)` result k (0: L, 1: U) is, told by its value: L in S's row order for two
/// outputs, the factors of COLAMD's column order for four (see `sparse_factor::lu_factors`).
fn lu_form(a: &SparseMatrix, output: &SparseMatrix, k: usize) -> Result<Form> {
    let plain = sparse_factor::pivoted(a, false)?;
    Ok(match k {
        0 if sparse_factor::lower(&plain, false) == *output => Form::Lower { ordered: false, in_a_order: false },
        0 if sparse_factor::lower(&plain, true) == *output => Form::Lower { ordered: false, in_a_order: true },
        0 => Form::Lower { ordered: true, in_a_order: false },
        _ if sparse_factor::upper(&plain) == *output => Form::Upper { ordered: false },
        _ => Form::Upper { ordered: true },
    })
}

/// The matrix B the kernel factors, from A's stored entries, and what its results are read with.
struct Plan {
    /// Per column of B, its (row, stored entry of A) in increasing row order.
    columns: Vec<Vec<(usize, usize)>>,
    /// Row k of B is row `row_perm[k]` of A.
    row_perm: Vec<usize>,
    /// The columns of L formed (chol's leading rows).
    pivots: usize,
    /// The patterns of the left-looking solve: see `Structure`.
    structure: Structure,
    /// sign(P) sign(Q), for `det`.
    sign: f64,
}

impl Plan {
    fn new(form: Form, a: &SparseMatrix, output: &Value) -> Result<Plan> {
        let n = a.nrows();
        let mut columns = vec![vec![]; n];
        let entries = sparse_deriv::entries(a).enumerate();
        if form == Form::Cholesky {
            // chol reads A's upper triangle as the symmetric matrix it defines.
            for (e, (i, j)) in entries.filter(|&(_, (i, j))| i <= j) {
                columns[j].push((i, e));
                if i < j {
                    columns[i].push((j, e));
                }
            }
            columns.iter_mut().for_each(|c| c.sort_unstable());
            let pivots = output.dims()[0];
            let structure = Structure::new(&columns, pivots);
            return Ok(Plan { columns, row_perm: (0..n).collect(), pivots, structure, sign: 1.0 });
        }
        let ordered = matches!(form, Form::Determinant | Form::Lower { ordered: true, .. } | Form::Upper { ordered: true });
        let f = sparse_factor::pivoted(a, ordered)?;
        let (mut row_of, mut column_of) = (vec![0; n], vec![0; n]);
        f.row_perm.iter().enumerate().for_each(|(k, &r)| row_of[r] = k);
        f.col_perm.iter().enumerate().for_each(|(k, &c)| column_of[c] = k);
        entries.for_each(|(e, (i, j))| columns[column_of[j]].push((row_of[i], e)));
        columns.iter_mut().for_each(|c| c.sort_unstable());
        let sign = sparse_factor::sign(&f.row_perm) * sparse_factor::sign(&f.col_perm);
        let structure = Structure::new(&columns, n);
        Ok(Plan { columns, row_perm: f.row_perm, pivots: n, structure, sign })
    }
}

/// The result of `form` at its stored entries (`det`: the one value), from A's stored entries.
fn results<T: Field>(form: Form, plan: &Plan, values: &[T], output: &Value) -> Result<Vec<T>> {
    let n = plan.columns.len();
    let pivoting = !matches!(form, Form::Cholesky | Form::Determinant);
    let (lower, upper) = left_looking(plan, values, pivoting)?;
    let (lower, upper, l, u) = (&lower, &upper, &plan.structure.lower, &plan.structure.upper);
    let diagonal = |j: usize| match u.column(j).last() {
        Some(&i) if i == j => upper[u.starts[j + 1] - 1],
        _ => T::constant(0.0),
    };
    let strict = (0..l.columns()).flat_map(|j| (l.starts[j]..l.starts[j + 1]).map(move |p| (l.rows[p], j, lower[p])));
    let in_upper = (0..n).flat_map(|j| (u.starts[j]..u.starts[j + 1]).map(move |p| (u.rows[p], j, upper[p])));
    let entries: Vec<(usize, usize, T)> = match form {
        Form::Determinant => return Ok(vec![(0..n).fold(T::constant(plan.sign), |d, j| d * diagonal(j))]),
        Form::Packed => strict.chain(in_upper).collect(),
        Form::Lower { in_a_order, .. } => {
            let row = |i: usize| if in_a_order { plan.row_perm[i] } else { i };
            strict.chain((0..n).map(|j| (j, j, T::constant(1.0)))).map(|(i, j, v)| (row(i), j, v)).collect()
        }
        Form::Upper { .. } => in_upper.collect(),
        Form::Cholesky => {
            let roots: Vec<T> = (0..plan.pivots).map(|i| diagonal(i).sqrt()).collect();
            in_upper.map(|(i, j, v)| (i, j, v / roots[i])).collect()
        }
    };
    at_stored_entries(sparse_output(output)?, entries)
}

/// The entries in `output`'s stored order. One that `output` does not store must be constant zero.
fn at_stored_entries<T: Field>(output: &SparseMatrix, entries: Vec<(usize, usize, T)>) -> Result<Vec<T>> {
    let mut stored = vec![T::constant(0.0); output.nnz()];
    for (i, j, v) in entries {
        match output.entry_at(i + output.nrows() * j) {
            Some(e) => stored[e] = v,
            None if v.value() != 0.0 => {
                return Err(Diagnostic::new(ErrorKind::Internal, "a sparse factor does not store an entry of its structure"));
            }
            None if v.slopes() != [0.0; 2] => {
                return Err(not_differentiable("an entry the factor does not store (its value cancelled to zero) has a derivative"));
            }
            None => {}
        }
    }
    Ok(stored)
}

/// A pattern by columns (compressed): column j's rows are `rows[starts[j]..starts[j + 1]]`.
struct Pattern {
    starts: Vec<usize>,
    rows: Vec<usize>,
}

impl Pattern {
    fn new() -> Pattern {
        Pattern { starts: vec![0], rows: vec![] }
    }

    fn push(&mut self, rows: impl Iterator<Item = usize>) {
        self.rows.extend(rows);
        self.starts.push(self.rows.len());
    }

    fn column(&self, j: usize) -> &[usize] {
        &self.rows[self.starts[j]..self.starts[j + 1]]
    }

    fn columns(&self) -> usize {
        self.starts.len() - 1
    }
}

/// The patterns of the left-looking LU of B, found once per plan: per column j, its `reach` (where the
/// solve's x is not structurally zero, in increasing order: B's rows and those L's columns before j
/// reach), and the rows of L's and U's columns (only the first `pivots` columns of L are formed, and
/// U's rows above them: chol's leading rows).
struct Structure {
    reach: Pattern,
    lower: Pattern,
    upper: Pattern,
}

impl Structure {
    fn new(columns: &[Vec<(usize, usize)>], pivots: usize) -> Structure {
        let mut s = Structure { reach: Pattern::new(), lower: Pattern::new(), upper: Pattern::new() };
        for (j, column) in columns.iter().enumerate() {
            let mut pending: BTreeSet<usize> = column.iter().map(|&(i, _)| i).collect();
            let mut reach = Vec::with_capacity(pending.len());
            // Rows in increasing order: L is lower triangular, so row k reaches only rows after it.
            while let Some(k) = pending.pop_first() {
                reach.push(k);
                if k < j.min(pivots) {
                    pending.extend(s.lower.column(k));
                }
            }
            s.upper.push(reach.iter().copied().filter(|&k| k <= j && k < pivots));
            if j < pivots {
                s.lower.push(reach.iter().copied().filter(|&k| k > j));
            }
            s.reach.push(reach.into_iter());
        }
        s
    }
}

/// Left-looking LU without pivoting of B (the plan's matrix, its rows and columns in pivot order) on
/// the plan's structure: the values of L (strictly below its unit diagonal) and of U, in the order of
/// their patterns. With `pivoting`, a pivot tie that the direction breaks has no derivative.
fn left_looking<T: Field>(plan: &Plan, values: &[T], pivoting: bool) -> Result<(Vec<T>, Vec<T>)> {
    let (n, pivots, s) = (plan.columns.len(), plan.pivots, &plan.structure);
    let (mut lower, mut upper) = (Vec::with_capacity(s.lower.rows.len()), Vec::with_capacity(s.upper.rows.len()));
    let mut x = vec![T::constant(0.0); n];
    for (j, column) in plan.columns.iter().enumerate() {
        column.iter().for_each(|&(i, e)| x[i] = values[e]);
        let reach = s.reach.column(j);
        // x[k] is final when k is taken: the rows before it update it first.
        for &k in reach.iter().take_while(|&&k| k < j.min(pivots)) {
            let xk = x[k];
            let range = s.lower.starts[k]..s.lower.starts[k + 1];
            for (&i, &l) in s.lower.rows[range.clone()].iter().zip(&lower[range]) {
                x[i] = x[i] - l * xk;
            }
        }
        upper.extend(s.upper.column(j).iter().map(|&k| x[k]));
        if j < pivots {
            let pivot = checked_pivot(&x, j, s.lower.column(j), pivoting)?;
            lower.extend(s.lower.column(j).iter().map(|&k| x[k] / pivot));
        }
        reach.iter().for_each(|&k| x[k] = T::constant(0.0));
    }
    Ok((lower, upper))
}

/// The pivot x[j], checked against the entries below it (`below`, rows of L's column j).
fn checked_pivot<T: Field>(x: &[T], j: usize, below: &[usize], pivoting: bool) -> Result<T> {
    let pivot = x[j];
    if pivot.value() == 0.0 {
        return Err(not_differentiable("a zero pivot (the matrix is singular): its factors have no derivative"));
    }
    let slope = |v: T| v.slopes().map(|d| d * v.value().signum());
    if pivoting && below.iter().any(|&k| x[k].value().abs() == pivot.value().abs() && slope(x[k]) != slope(pivot)) {
        return Err(not_differentiable("two pivot candidates have equal magnitude: the factors jump where they part"));
    }
    Ok(pivot)
}

fn not_differentiable(message: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::NotDifferentiable, format!("sparse lu or chol: {message}"))
        .with_hint("perturb the matrix away from this point, or differentiate a solve (S \\ b) instead of the factors")
}
