//! Reverse (adjoint) rules, looked up from the primitive table: given the operands, the result and
//! the result's adjoint, each operand's adjoint contribution.
//!
//! - Unary and Binary kernels follow from their partials; an operand expanded by implicit expansion
//!   sums the adjoints of the elements it fed.
//! - General primitives default to the transpose of their forward rule: the rule applied to a sparse
//!   identity seed gives the local Jacobian, exact for every rule, and cheap for the structural ones
//!   (transpose, reshape, concatenation, diag, for_item, scalar divisions, ...). Primitives whose local
//!   Jacobian is dense or large (`mtimes` of matrices, `cumsum`) have their own rule (`Vjp::Own`).
//!
//! Every rule is linear in the adjoint, so it applies column by column to a block of adjoints: the
//! Hessian sweep carries the adjoint and its tangents together (see `second_order`).

use super::elementwise::{numeric, row_maps};
use super::sparse_reverse::{self, adjoint_rows};
use super::{Derivative, Forward, Kernel, PrimId, Vjp, complex, forward_output, get, require_derivative_rule};
use crate::diag::Result;
use crate::value::Value;
use crate::value::deriv::{Deriv, SparseDeriv};

/// What a reverse rule reads.
pub struct Reverse<'a> {
    pub inputs: &'a [&'a Value],
    /// Which result of the call `output` is (0: the first), for primitives with several.
    pub result: usize,
    pub output: &'a Value,
    /// Adjoints of the (first) result: `columns` columns of one entry per element (column-major).
    pub adjoint: &'a [f64],
    pub columns: usize,
    /// The operands whose adjoints are needed.
    pub wanted: &'a [bool],
}

/// Per operand, its adjoint contribution, `columns` columns (None: not wanted, or zero).
pub type Adjoints = Vec<Option<Vec<f64>>>;

pub fn adjoint(id: PrimId, rv: &Reverse) -> Result<Adjoints> {
    if sparse_reverse::involved(rv.inputs, rv.output, rv.wanted) {
        return sparse_reverse::adjoint(id, rv);
    }
    let p = get(id);
    let none = || vec![None; rv.inputs.len()];
    if on_complex_values(rv.inputs, rv.output) {
        return transposed_forward(id, rv);
    }
    match p.kernel {
        Kernel::Unary { df: Some(_), .. } | Kernel::Binary { .. } => {
            let inputs: Vec<Seen> = rv.inputs.iter().map(|v| Seen::Values(v)).collect();
            elementwise_adjoint(id, &inputs, &Seen::Values(rv.output), rv.adjoint, rv.columns, rv.wanted).expect("an elementwise kernel")
        }
        Kernel::Unary { df: None, .. } | Kernel::Predicate(_) => Ok(none()),
        Kernel::General { derivative: Derivative::Zero, .. } => Ok(none()),
        Kernel::General { derivative: Derivative::Missing, .. } => require_derivative_rule(id).map(|_| none()),
        Kernel::General { derivative: Derivative::Rule(_) | Derivative::Outputs { .. }, .. } => match p.vjp {
            Vjp::Own(rule) => rule(rv),
            Vjp::Transposed => transposed_forward(id, rv),
        },
    }
}

/// A one-column rule applied to each adjoint column, the contributions stacked column after column.
pub(super) fn by_column(rv: &Reverse, rule: impl Fn(&[f64]) -> Result<Adjoints>) -> Result<Adjoints> {
    if rv.columns == 1 {
        return rule(rv.adjoint);
    }
    let m = rv.output.numel();
    let mut stacked: Adjoints = vec![None; rv.inputs.len()];
    for c in 0..rv.columns {
        for (k, part) in rule(&rv.adjoint[c * m..(c + 1) * m])?.into_iter().enumerate() {
            let size = rv.inputs[k].numel();
            if let Some(part) = part {
                stacked[k].get_or_insert_with(|| vec![0.0; size * rv.columns])[c * size..(c + 1) * size].copy_from_slice(&part);
            }
        }
    }
    Ok(stacked)
}

/// An operand or result as an elementwise rule sees it: its values, or only its shape when the rules
/// do not read them (the tape kept the shape only).
pub enum Seen<'a> {
    Values(&'a Value),
    Shape(&'a [usize]),
}

/// The elements of a `Seen`; a shape's read as NaN, so that a rule reading a value its entry says it
/// does not read gives NaN (which the consistency tests catch) rather than a plausible derivative.
enum Elements<'a> {
    Values(std::borrow::Cow<'a, crate::value::Array<f64>>),
    Shape(&'a [usize]),
}

impl<'a> Elements<'a> {
    fn new(seen: &Seen<'a>) -> Result<Elements<'a>> {
        Ok(match *seen {
            Seen::Values(v) => Elements::Values(numeric("", v)?),
            Seen::Shape(dims) => Elements::Shape(dims),
        })
    }

    fn dims(&self) -> &[usize] {
        match self {
            Elements::Values(a) => &a.dims,
            Elements::Shape(dims) => dims,
        }
    }

    fn numel(&self) -> usize {
        self.dims().iter().product()
    }

    fn at(&self, i: usize) -> f64 {
        match self {
            Elements::Values(a) => a.data[i],
            Elements::Shape(_) => f64::NAN,
        }
    }
}

/// The reverse rule of an elementwise primitive (None for any other), reading only the values its
/// entry says it reads: the sweep passes the others as shapes and allocates nothing for them.
pub fn elementwise_adjoint(
    id: PrimId,
    inputs: &[Seen],
    output: &Seen,
    adjoint: &[f64],
    columns: usize,
    wanted: &[bool],
) -> Option<Result<Adjoints>> {
    let sparse = |seen: &Seen| matches!(seen, Seen::Values(Value::Sparse(_)));
    let complex_seen = |seen: &Seen| matches!(seen, Seen::Values(v) if complex::is_complex(v));
    // Adjoints per stored entry (see `sparse_reverse`), or two rows per complex element.
    if sparse(output) || inputs.iter().zip(wanted).any(|(v, &w)| w && sparse(v)) || complex_seen(output) || inputs.iter().any(complex_seen)
    {
        return None;
    }
    let elements =
        || -> Result<(Vec<Elements>, Elements)> { Ok((inputs.iter().map(Elements::new).collect::<Result<_>>()?, Elements::new(output)?)) };
    match get(id).kernel {
        Kernel::Unary { df: Some(df), .. } => Some(elements().map(|(x, y)| unary(df, &x[0], &y, adjoint))),
        Kernel::Binary { partials, .. } => Some(elements().map(|(ab, z)| binary(partials, &ab[0], &ab[1], &z, adjoint, columns, wanted))),
        _ => None,
    }
}

fn unary(df: fn(f64, f64) -> f64, x: &Elements, y: &Elements, adjoint: &[f64]) -> Adjoints {
    let slopes: Vec<f64> = (0..x.numel()).map(|i| df(x.at(i), y.at(i))).collect();
    let g = adjoint.chunks(slopes.len().max(1)).flat_map(|a| a.iter().zip(&slopes).map(|(a, s)| a * s)).collect();
    vec![Some(g)]
}

fn binary(
    partials: fn(f64, f64, f64) -> (f64, f64),
    a: &Elements,
    b: &Elements,
    z: &Elements,
    adjoint: &[f64],
    columns: usize,
    wanted: &[bool],
) -> Adjoints {
    let (map_a, map_b) = row_maps(a.dims(), b.dims(), z.dims());
    let (na, nb, m) = (a.numel(), b.numel(), z.numel());
    let mut grad_a = wanted[0].then(|| vec![0.0; na * columns]);
    let mut grad_b = wanted[1].then(|| vec![0.0; nb * columns]);
    // The partials per element first, then one pass per column: the blocks are column-major, and a
    // pass over the columns per element would stride through all of them.
    let partials: Vec<(usize, usize, f64, f64)> = (0..m)
        .map(|k| {
            let (ia, ib) = (map_a.source(k), map_b.source(k));
            let (da, db) = partials(a.at(ia), b.at(ib), z.at(k));
            (ia, ib, da, db)
        })
        .collect();
    for (c, adjoint) in adjoint.chunks(m.max(1)).take(columns).enumerate() {
        for (&(ia, ib, da, db), &adj) in partials.iter().zip(adjoint) {
            if let Some(g) = &mut grad_a {
                g[c * na + ia] += da * adj;
            }
            if let Some(g) = &mut grad_b {
                g[c * nb + ib] += db * adj;
            }
        }
    }
    vec![grad_a, grad_b]
}

/// Whether a step meets complex values: its adjoints then have two rows per complex element (real
/// parts, then imaginary parts), and its rule is the transposed complex forward rule.
fn on_complex_values(inputs: &[&Value], output: &Value) -> bool {
    complex::is_complex(output) || inputs.iter().any(|v| complex::is_complex(v))
}

/// `J_k' * adjoint` for each wanted operand k, with `J_k` from the forward rule on an identity seed
/// (a sparse value's rows are its stored entries, a complex element has two: see `adjoint_rows`).
pub(super) fn transposed_forward(id: PrimId, rv: &Reverse) -> Result<Adjoints> {
    let zero = Deriv::Zero;
    (0..rv.inputs.len())
        .map(|k| {
            if !rv.wanted[k] {
                return Ok(None);
            }
            let n = adjoint_rows(rv.inputs[k]);
            let seed = Deriv::Sparse(SparseDeriv::identity(n));
            let derivs: Vec<&Deriv> = (0..rv.inputs.len()).map(|i| if i == k { &seed } else { &zero }).collect();
            let local = forward_output(id, &Forward { inputs: rv.inputs, derivs: &derivs, output: rv.output }, rv.result)?;
            let m = adjoint_rows(rv.output);
            let columns = (0..rv.columns).flat_map(|c| transpose_times(&local, &rv.adjoint[c * m..(c + 1) * m], n));
            Ok(Some(columns.collect()))
        })
        .collect()
}

fn transpose_times(local: &Deriv, adjoint: &[f64], n: usize) -> Vec<f64> {
    let mut g = vec![0.0; n];
    match local {
        Deriv::Zero => {}
        Deriv::Parts(_) => crate::value::deriv::container_in_numeric_rule(),
        Deriv::Sparse(s) => {
            for (r, &a) in adjoint.iter().enumerate().take(s.rows) {
                let (cols, vals) = s.row(r);
                cols.iter().zip(vals).for_each(|(&c, &v)| g[c] += v * a);
            }
        }
        Deriv::Dense(d) => {
            for (j, gj) in g.iter_mut().enumerate().take(d.nd) {
                *gj = d.column(j).iter().zip(adjoint).map(|(v, a)| v * a).sum();
            }
        }
    }
    g
}
