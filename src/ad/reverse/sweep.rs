//! The backward sweep: adjoints flow from the output to x through the tape in reverse order.

use super::tape::{Step, Tape, TapeVar};
use crate::diag::Result;
use crate::exec::primitives::reverse::{Reverse, adjoint};
use crate::exec::value::Value;

/// Gradient of the scalar `output` with respect to `x` (zero when the output does not depend on x).
pub(super) fn gradient(tape: &Tape, output: Option<TapeVar>, x: TapeVar) -> Result<Vec<f64>> {
    let mut adjoints = Adjoints { values: vec![None; tape.sizes.len()], sizes: &tape.sizes };
    if let Some(out) = output {
        adjoints.values[out.index()] = Some(vec![1.0]);
    }
    for step in tape.steps.iter().rev() {
        match step {
            Step::Prim { id, inputs, vars, output, out } => {
                let Some(a) = adjoints.take(*out) else { continue };
                let inputs: Vec<&Value> = inputs.iter().collect();
                let wanted: Vec<bool> = vars.iter().map(Option::is_some).collect();
                let contributions = adjoint(*id, &Reverse { inputs: &inputs, output, adjoint: &a, wanted: &wanted })?;
                for (var, c) in vars.iter().zip(contributions) {
                    if let (Some(var), Some(c)) = (var, c) {
                        adjoints.add(*var, c);
                    }
                }
            }
            Step::Gather { base, positions, out } => {
                let Some(a) = adjoints.take(*out) else { continue };
                let target = adjoints.get_mut(*base);
                positions.iter().zip(&a).for_each(|(&p, &a)| target[p] += a);
            }
            Step::Assign { base, relocation, rhs, rhs_is_scalar, targets, out } => {
                let Some(mut a) = adjoints.take(*out) else { continue };
                // Backwards, reading and clearing each target: an element assigned twice sends its
                // adjoint to the last assignment only, and overwritten base elements receive none.
                let mut from_targets: Vec<f64> = targets.iter().rev().map(|&t| std::mem::take(&mut a[t])).collect();
                from_targets.reverse();
                if let Some(rhs) = rhs {
                    let c = if *rhs_is_scalar { vec![from_targets.iter().sum()] } else { from_targets };
                    adjoints.add(*rhs, c);
                }
                if let Some(base) = base {
                    let c = match relocation {
                        None => a,
                        Some(map) => map.iter().map(|&m| a[m]).collect(),
                    };
                    adjoints.add(*base, c);
                }
            }
        }
    }
    Ok(adjoints.take(x).unwrap_or_else(|| vec![0.0; tape.sizes[x.index()]]))
}

struct Adjoints<'t> {
    values: Vec<Option<Vec<f64>>>,
    sizes: &'t [usize],
}

impl Adjoints<'_> {
    /// A variable's adjoint, complete once the sweep reaches the step that defines it.
    fn take(&mut self, var: TapeVar) -> Option<Vec<f64>> {
        self.values[var.index()].take()
    }

    fn get_mut(&mut self, var: TapeVar) -> &mut Vec<f64> {
        let size = self.sizes[var.index()];
        self.values[var.index()].get_or_insert_with(|| vec![0.0; size])
    }

    fn add(&mut self, var: TapeVar, contribution: Vec<f64>) {
        match &mut self.values[var.index()] {
            Some(existing) => existing.iter_mut().zip(&contribution).for_each(|(e, c)| *e += c),
            empty => *empty = Some(contribution),
        }
    }
}
