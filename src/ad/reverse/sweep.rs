//! The backward sweep: adjoints flow from the output to x through the tape in reverse order. A Hessian
//! sweep carries, with each adjoint, its tangents along p directions (forward over reverse): each
//! variable's adjoint block has `1 + p` columns, column 0 the adjoint.

use super::tape::{AssignStep, Kept, PrimStep, Step, Tape, TapeVar};
use crate::diag::{ErrorKind, Result, err};
use crate::primitives::reverse::{Reverse, Seen, adjoint, elementwise_adjoint};
use crate::primitives::second_order::{SecondOrder, Tangents, second_order_term};
use crate::primitives::sparse_reverse::adjoint_rows;
use crate::value::Value;
use crate::value::deriv::{DenseDeriv, Deriv};
use std::borrow::Cow;

/// The adjoint block of x (`numel(x) x (1 + directions)`, column-major) for the scalar `output`: the
/// gradient, then the Hessian times each tangent direction (zero when the output does not depend on x).
/// The sweep consumes the tape: each step's values are freed once its rules have read them.
pub(super) fn sweep(tape: Tape, output: Option<TapeVar>, x: TapeVar, directions: usize) -> Result<Vec<f64>> {
    let columns = 1 + directions;
    let mut seed = vec![0.0; columns];
    seed[0] = 1.0;
    sweep_seeded(tape, output, x, seed, columns, directions)
}

/// `J' W` (`numel(x) x columns`, column-major) for the weights `W` (`numel(output) x columns`): one
/// first-order sweep carrying every column.
pub(super) fn transposed_products(tape: Tape, output: Option<TapeVar>, x: TapeVar, weights: Vec<f64>, columns: usize) -> Result<Vec<f64>> {
    sweep_seeded(tape, output, x, weights, columns, 0)
}

/// The sweep from the output's adjoint block `seed` (`columns` columns); `directions > 0`: the columns
/// after the first are the adjoint's tangents, which second-order terms feed.
fn sweep_seeded(tape: Tape, output: Option<TapeVar>, x: TapeVar, seed: Vec<f64>, columns: usize, directions: usize) -> Result<Vec<f64>> {
    let Tape { mut steps, sizes, .. } = tape;
    let mut adjoints = Adjoints { values: (0..sizes.len()).map(|_| Adjoint::Zero).collect(), sizes: &sizes, columns };
    if let Some(out) = output {
        adjoints.add(out, seed);
    }
    while let Some(step) = steps.pop() {
        match &step {
            Step::Prim(step) => {
                let PrimStep { id, result, inputs, vars, output, out, second, tangents } = &**step;
                let Some(a) = adjoints.take(*out) else { continue };
                let wanted: Vec<bool> = vars.iter().map(Option::is_some).collect();
                let first_order = directions == 0 || matches!(second, SecondOrder::Zero);
                if first_order && *result == 0 {
                    // Elementwise rules read only what their entries say: no stand-ins for the rest.
                    let seen: Vec<Seen> = inputs.iter().map(Kept::seen).collect();
                    if let Some(contributions) = elementwise_adjoint(*id, &seen, &output.seen(), &a, columns, &wanted) {
                        adjoints.add_all(vars, contributions?);
                        continue;
                    }
                }
                let (inputs, output): (Vec<Cow<Value>>, Cow<Value>) = (inputs.iter().map(Kept::value).collect(), output.value());
                let (inputs, output): (Vec<&Value>, &Value) = (inputs.iter().map(|v| &**v).collect(), &output);
                let reverse = Reverse { inputs: &inputs, result: *result, output, adjoint: &a, columns, wanted: &wanted };
                let mut contributions = adjoint(*id, &reverse)?;
                if directions > 0 && !matches!(second, SecondOrder::Zero) {
                    let dense: Vec<Option<Cow<DenseDeriv>>> =
                        tangents.iter().zip(&inputs).map(|(d, v)| dense_tangent(d, adjoint_rows(v), directions)).collect();
                    let tangents: Vec<Option<&DenseDeriv>> = dense.iter().map(|d| d.as_deref()).collect();
                    let m = adjoint_rows(output);
                    let t = Tangents {
                        inputs: &inputs,
                        result: *result,
                        output,
                        adjoint: &a[..m],
                        tangents: &tangents,
                        wanted: &wanted,
                        directions,
                    };
                    for (k, term) in second_order_term(*id, *second, &t)?.into_iter().enumerate() {
                        let Some(term) = term else { continue };
                        let size = adjoint_rows(inputs[k]);
                        let c = contributions[k].get_or_insert_with(|| vec![0.0; size * columns]);
                        c[size..].iter_mut().zip(&term).for_each(|(c, t)| *c += t);
                    }
                }
                adjoints.add_all(vars, contributions);
            }
            Step::Scalar { operands, out } if columns == 1 => {
                let Some(a) = adjoints.take_scalar(*out) else { continue };
                for (var, partial) in operands.iter().flatten() {
                    adjoints.add_scalar(*var, partial * a);
                }
            }
            Step::Scalar { operands, out } => {
                let Some(a) = adjoints.take(*out) else { continue };
                for (var, partial) in operands.iter().flatten() {
                    adjoints.add(*var, a.iter().map(|a| partial * a).collect());
                }
            }
            Step::Element { base, position, out } if columns == 1 => {
                let Some(a) = adjoints.take_scalar(*out) else { continue };
                adjoints.get_mut(*base)[*position] += a;
            }
            Step::Element { base, position, out } => {
                let Some(a) = adjoints.take(*out) else { continue };
                let size = sizes[base.index()];
                let target = adjoints.get_mut(*base);
                a.iter().enumerate().for_each(|(c, a)| target[c * size + *position] += a);
            }
            Step::Gather { base, positions, out } => {
                let Some(a) = adjoints.take(*out) else { continue };
                let (m, size) = (positions.len(), sizes[base.index()]);
                let target = adjoints.get_mut(*base);
                for c in 0..columns {
                    let (target, a) = (&mut target[c * size..(c + 1) * size], &a[c * m..(c + 1) * m]);
                    positions.iter().zip(a).for_each(|(&p, &a)| target[p] += a);
                }
            }
            Step::Assign(step) => {
                let AssignStep { base, relocation, rhs, rhs_is_scalar, targets, out } = &**step;
                let Some(a) = adjoints.take(*out) else { continue };
                let size = sizes[out.index()];
                if size == 0 {
                    // An empty result (`Y(:) = v` on an undefined Y) sends zero adjoints on: the path
                    // from the output to x is there, the derivative along it is zero.
                    for &var in base.iter().chain(rhs) {
                        adjoints.get_mut(var);
                    }
                    continue;
                }
                let (mut to_rhs, mut to_base) = (Vec::new(), Vec::new());
                for mut a in a.chunks(size).map(<[f64]>::to_vec).take(columns) {
                    // Backwards, reading and clearing each target: an element assigned twice sends its
                    // adjoint to the last assignment only, and overwritten base elements receive none.
                    let mut from_targets: Vec<f64> = targets.iter().rev().map(|&t| std::mem::take(&mut a[t])).collect();
                    from_targets.reverse();
                    if *rhs_is_scalar {
                        to_rhs.push(from_targets.iter().sum());
                    } else {
                        to_rhs.extend(from_targets);
                    }
                    match relocation {
                        None => to_base.extend(a),
                        Some(map) => to_base.extend(map.iter().map(|&m| a[m])),
                    }
                }
                if let Some(rhs) = rhs {
                    adjoints.add(*rhs, to_rhs);
                }
                if let Some(base) = base {
                    adjoints.add(*base, to_base);
                }
            }
        }
    }
    match adjoints.take(x) {
        Some(block) => Ok(block),
        None if output.is_none() => Ok(vec![0.0; sizes[x.index()] * columns]),
        // The output was computed from x on the tape: some step on the way dropped its adjoint.
        None => err(
            ErrorKind::Internal,
            "the reverse sweep from the output did not reach x: a step on the tape dropped its adjoint".to_string(),
        ),
    }
}

/// An operand's tangents as a dense `rows x directions` block (None: it does not depend on x).
fn dense_tangent(tangent: &Deriv, rows: usize, directions: usize) -> Option<Cow<'_, DenseDeriv>> {
    match tangent {
        Deriv::Zero => None,
        Deriv::Dense(d) => Some(Cow::Borrowed(d)),
        other => Some(Cow::Owned(other.to_dense(rows, directions))),
    }
}

/// A variable's adjoint block; scalar ones (most variables of loop code) without a heap block.
enum Adjoint {
    Zero,
    Scalar(f64),
    Block(Vec<f64>),
}

struct Adjoints<'t> {
    values: Vec<Adjoint>,
    sizes: &'t [usize],
    columns: usize,
}

impl Adjoints<'_> {
    /// A variable's adjoint block, complete once the sweep reaches the step that defines it.
    fn take(&mut self, var: TapeVar) -> Option<Vec<f64>> {
        match std::mem::replace(&mut self.values[var.index()], Adjoint::Zero) {
            Adjoint::Zero => None,
            Adjoint::Scalar(a) => Some(vec![a]),
            Adjoint::Block(a) => Some(a),
        }
    }

    /// `take` for a variable of one element on a gradient tape.
    fn take_scalar(&mut self, var: TapeVar) -> Option<f64> {
        match std::mem::replace(&mut self.values[var.index()], Adjoint::Zero) {
            Adjoint::Zero => None,
            Adjoint::Scalar(a) => Some(a),
            Adjoint::Block(a) => Some(a[0]),
        }
    }

    fn get_mut(&mut self, var: TapeVar) -> &mut Vec<f64> {
        let size = self.sizes[var.index()] * self.columns;
        let value = &mut self.values[var.index()];
        *value = match std::mem::replace(value, Adjoint::Zero) {
            Adjoint::Zero => Adjoint::Block(vec![0.0; size]),
            Adjoint::Scalar(a) => Adjoint::Block(vec![a]),
            block => block,
        };
        match value {
            Adjoint::Block(a) => a,
            _ => unreachable!("made a block above"),
        }
    }

    fn add(&mut self, var: TapeVar, contribution: Vec<f64>) {
        match &mut self.values[var.index()] {
            Adjoint::Block(existing) => existing.iter_mut().zip(&contribution).for_each(|(e, c)| *e += c),
            Adjoint::Scalar(existing) => *existing += contribution[0],
            empty => *empty = Adjoint::Block(contribution),
        }
    }

    /// Adds a primitive's contributions to its operands' adjoints (variables on the tape only).
    fn add_all(&mut self, vars: &[Option<TapeVar>], contributions: Vec<Option<Vec<f64>>>) {
        for (var, c) in vars.iter().zip(contributions) {
            if let (Some(var), Some(c)) = (var, c) {
                self.add(*var, c);
            }
        }
    }

    /// Adds to the adjoint of a variable of one element on a gradient tape.
    fn add_scalar(&mut self, var: TapeVar, contribution: f64) {
        match &mut self.values[var.index()] {
            Adjoint::Block(existing) => existing[0] += contribution,
            Adjoint::Scalar(existing) => *existing += contribution,
            empty => *empty = Adjoint::Scalar(contribution),
        }
    }
}
