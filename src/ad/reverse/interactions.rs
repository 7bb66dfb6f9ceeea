//! The Hessian's sparsity from a tape: entry (i, j) is possible when some primitive's result depends
//! nonlinearly on a pair of operand elements u, v (its second-order `interactions`) with x_i among u's
//! dependencies and x_j among v's, or the reverse.
//!
//! Dependencies (sparse rows over x) are propagated along the tape with the forward rules, but only for
//! the variables that lead to an operand of a nonlinear step: a long sum accumulated in a loop (whose
//! dependencies grow to all of x) is never expanded, so scalar loops cost O(n), not O(n^2).

use super::tape::{AssignStep, Kept, PrimStep, Step, Tape, TapeVar};
use crate::ad::pattern::Pattern;
use crate::diag::Result;
use crate::primitives::second_order::{SecondOrder, interactions};
use crate::primitives::{Forward, forward_output};
use crate::value::Value;
use crate::value::deriv::{Deriv, RowMap, SparseDeriv};
use std::borrow::Cow;

/// The (structurally symmetric) Hessian pattern, `n x n`, of the tape's output with respect to `x`.
pub(super) fn hessian_pattern(tape: &Tape, x: TapeVar, n: usize) -> Result<Pattern> {
    let needed = needed_variables(tape);
    let mut dependencies: Vec<Option<Deriv>> = vec![None; tape.sizes.len()];
    dependencies[x.index()] = Some(Deriv::Sparse(SparseDeriv::identity(n)));
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); n];
    let every: Vec<usize> = (0..n).collect();
    let zero = Deriv::Zero;
    for step in &tape.steps {
        let of = |var: &Option<TapeVar>| var.and_then(|v| dependencies[v.index()].as_ref()).unwrap_or(&zero);
        let (out, deps) = match step {
            Step::Prim(step) => {
                let PrimStep { id, result, inputs, vars, output, out, second, .. } = &**step;
                let (values, output): (Vec<Cow<Value>>, Cow<Value>) = (inputs.iter().map(Kept::value).collect(), output.value());
                let (values, output): (Vec<&Value>, &Value) = (values.iter().map(|v| &**v).collect(), &output);
                let operands: Vec<&Deriv> = vars.iter().map(of).collect();
                if !matches!(second, SecondOrder::Zero) {
                    let taped: Vec<bool> = vars.iter().map(Option::is_some).collect();
                    add_interactions(&mut rows, &every, (*id, *second), (&values, output, &taped), &operands);
                }
                if !needed[out.index()] {
                    continue;
                }
                (out, forward_output(*id, &Forward { inputs: &values, derivs: &operands, output }, *result)?)
            }
            Step::Gather { base, positions, out } if needed[out.index()] => {
                (out, of(&Some(*base)).gather(&RowMap::Gather(positions.clone()), positions.len()))
            }
            Step::Assign(step) if needed[step.out.index()] => {
                let AssignStep { base, relocation, rhs, rhs_is_scalar, targets, out } = &**step;
                let size = tape.sizes[out.index()];
                let base = match relocation {
                    None => of(base).clone(),
                    Some(map) => of(base).clone().relocate(map, size),
                };
                (out, base.assign_rows(size, targets, of(rhs), |k| if *rhs_is_scalar { 0 } else { k }))
            }
            _ => continue,
        };
        dependencies[out.index()] = Some(deps);
    }
    Ok(Pattern::from_rows(n, &rows))
}

/// Variables whose dependencies the pattern needs: operands of nonlinear steps, and what they are
/// computed from.
fn needed_variables(tape: &Tape) -> Vec<bool> {
    let mut needed = vec![false; tape.sizes.len()];
    for step in tape.steps.iter().rev() {
        match step {
            Step::Prim(step) if needed[step.out.index()] || !matches!(step.second, SecondOrder::Zero) => {
                step.vars.iter().flatten().for_each(|v| needed[v.index()] = true);
            }
            Step::Gather { base, out, .. } if needed[out.index()] => needed[base.index()] = true,
            Step::Assign(step) if needed[step.out.index()] => {
                step.base.iter().chain(&step.rhs).for_each(|v| needed[v.index()] = true);
            }
            _ => {}
        }
    }
    needed
}

/// The pairs of x's elements step `(id, second)` on `(values, output, taped)` makes interact.
fn add_interactions(
    rows: &mut [Vec<usize>],
    every: &[usize],
    (id, second): (crate::primitives::PrimId, SecondOrder),
    (values, output, taped): (&[&Value], &Value, &[bool]),
    operands: &[&Deriv],
) {
    let n = rows.len();
    let extend = |row: &mut Vec<usize>, columns: &[usize]| {
        row.extend_from_slice(columns);
        // Keep rows from growing with repeats (a scalar objective of a long sum repeats each pair).
        if row.len() > 2 * n {
            row.sort_unstable();
            row.dedup();
        }
    };
    interactions(id, second, values, output, taped, |(a, i), (b, j)| {
        let (u, v) = (dependencies_of(operands[a], i, every), dependencies_of(operands[b], j, every));
        u.iter().for_each(|&p| extend(&mut rows[p], v));
        v.iter().for_each(|&q| extend(&mut rows[q], u));
    });
}

/// Which elements of x element `i` of a value depends on (its sparse row); all of them (`every`) for
/// a dense block, whose rule knows no structure (the complex `fft` and solves), as in Jacobian detection.
fn dependencies_of<'d>(deps: &'d Deriv, i: usize, every: &'d [usize]) -> &'d [usize] {
    match deps {
        Deriv::Sparse(s) => s.row(i).0,
        Deriv::Dense(_) => every,
        _ => &[],
    }
}
