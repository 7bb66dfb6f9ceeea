//! A primitive on the general path, by concern: the primal results, the tangents (forward rules),
//! the tape's record, and the buffers of operands read for the last time. The derivative mode is a type
//! parameter, so each mode's path is compiled on its own and the untaped one carries no tape checks.

use super::instruction::set;
use super::{Interpreter, Reg, Regs, Slot, complex_results, recycle, slots, take_dying_block, take_dying_value, take_or_clone};
use crate::ad::reverse::tape::Tape;
use crate::ad::slot::TapeVar;
use crate::analysis::Activity;
use crate::diag::Result;
use crate::ir::{Inst, ValueId};
use crate::primitives::{self, Forward, PrimId};
use crate::value::deriv::Deriv;
use crate::value::small_list::{Few, Operands};
use crate::value::{Array, Value};

/// How a run carries derivatives.
pub(super) trait DerivativeMode {
    /// Every operation on taped values is recorded; untaped results may instead take over the buffers
    /// of operands read for the last time (a tape keeps its operands).
    const RECORDS: bool;

    /// The tape, in a mode that records (None in one that does not, whatever the run holds).
    fn tape(tape: &mut Option<Tape>) -> Option<&mut Tape> {
        if Self::RECORDS { tape.as_mut() } else { None }
    }
}

/// Tangents only (forward mode, sparsity detection, plain evaluation).
pub(super) struct Tangents;
/// Tangents and the reverse-mode tape.
pub(super) struct Recording;

impl DerivativeMode for Tangents {
    const RECORDS: bool = false;
}
impl DerivativeMode for Recording {
    const RECORDS: bool = true;
}

impl Interpreter<'_> {
    /// Primitive `id`: its results, their derivatives and tape variables, into the destinations.
    pub(super) fn exec_prim<M: DerivativeMode>(
        &mut self,
        id: PrimId,
        inst: &Inst,
        activity: &Activity,
        cache_key: Option<(u64, ValueId)>,
        movable: &dyn Fn(usize) -> bool,
        regs: &mut Regs,
    ) -> Result<()> {
        let first_active = inst.dests.first().is_some_and(|d| activity.is_active(*d));
        let cached = cache_key.and_then(|key| self.plan.derivative_cache.lock().ok()?.get(&key).cloned());
        // Untaped single results may take over the buffers of operands read for the last time.
        let in_place = !M::RECORDS && inst.dests.len() == 1;
        let derivative = first_active && cached.is_none();
        let taken = if in_place { take_dying_value(id, inst, movable, regs, derivative) } else { None };
        let written_into = taken.as_ref().map(|(k, _)| *k);
        let results = self.primal(id, inst, regs, taken)?;
        let reused = match in_place && derivative {
            true => take_dying_block(id, inst, movable, regs, &results[0], written_into),
            false => None,
        };
        let operands = slots(regs, &inst.args)?;
        let mut values: Operands<&Value> = operands.iter().map(|s| &s.value).collect();
        if let Some(k) = written_into {
            values[k] = &results[0];
        }
        let derivs: Operands<&Deriv> = operands.iter().map(|s| &s.deriv).collect();
        let deriv = match cached {
            Some(deriv) => deriv,
            None if first_active && (reused.is_some() || derivs.iter().any(|d| !d.is_zero())) => {
                self.first_tangent(id, &Forward { inputs: &values, derivs: &derivs, output: &results[0] }, reused, cache_key)?
            }
            None => Deriv::Zero,
        };
        let taped = match M::tape(&mut self.tape) {
            Some(tape) if first_active => tape.record_prim(id, &operands, &results[0])?,
            _ => None,
        };
        let mut later = Vec::with_capacity(results.len().saturating_sub(1));
        let any_deriv = derivs.iter().any(|d| !d.is_zero());
        let any_taped = M::RECORDS && operands.iter().any(|s| s.tape.is_some());
        for (k, (output, dest)) in results.iter().zip(&inst.dests).enumerate().skip(1) {
            let active = (any_deriv || any_taped) && activity.is_active(*dest);
            let deriv = match active && any_deriv {
                true => primitives::forward_output(id, &Forward { inputs: &values, derivs: &derivs, output }, k)?,
                false => Deriv::Zero,
            };
            let tape = match M::tape(&mut self.tape) {
                Some(tape) if active => tape.record_result(id, k, &operands, output)?,
                _ => None,
            };
            later.push((deriv, tape));
        }
        store_results(regs, inst, results, std::iter::once((deriv, taped)).chain(later));
        // Operands read for the last time give their buffers back now: the next kernels write into
        // memory still in cache instead of older buffers.
        for (_, a) in inst.args.iter().enumerate().filter(|&(k, _)| movable(k)) {
            recycle(take_or_clone(regs, *a, true));
        }
        Ok(())
    }

    /// The values of primitive `id` (into the operand buffer `taken`, when one was taken over), after
    /// its warning; results that cannot carry the operands' derivatives are errors.
    fn primal(&mut self, id: PrimId, inst: &Inst, regs: &Regs, taken: Option<(usize, Array<f64>)>) -> Result<Few<Value>> {
        let operands = slots(regs, &inst.args)?;
        let values: Operands<&Value> = operands.iter().map(|s| &s.value).collect();
        let results: Few<Value> = match taken {
            Some((k, own)) => Few::One([primitives::eval_into(id, &values, k, own)?]),
            None => primitives::eval_results(id, &values, inst.dests.len())?,
        };
        if let Some(warning) = primitives::warning(id, &values) {
            let [id, message] = warning.map(Value::string);
            self.warning(&[&id, &Value::string("%s"), &message])?;
        }
        let results = complex_results(id, results, &operands)?;
        if let Some(Value::Int(..)) = results.first()
            && operands.iter().any(|s| !s.deriv.is_zero() || s.tape.is_some())
        {
            return Err(primitives::integers::not_differentiable(primitives::get(id).name(), results[0].class_name()));
        }
        Ok(results)
    }

    /// The first result's derivative by the forward rule (into the dying operand's block `reused`), kept
    /// in the derivative cache under `cache_key`.
    fn first_tangent(
        &self,
        id: PrimId,
        forward: &Forward,
        reused: Option<primitives::Reused>,
        cache_key: Option<(u64, ValueId)>,
    ) -> Result<Deriv> {
        let deriv = match reused {
            Some(reused) => primitives::forward_into(id, forward, reused)?,
            None => primitives::forward(id, forward)?,
        };
        if let (Some(key), Ok(mut cache)) = (cache_key, self.plan.derivative_cache.lock()) {
            cache.insert(key, deriv.clone());
        }
        Ok(deriv)
    }
}

/// The results into the destinations, each with its derivative and tape variable.
fn store_results(regs: &mut Regs, inst: &Inst, results: Few<Value>, tangents: impl Iterator<Item = (Deriv, Option<TapeVar>)>) {
    for ((d, value), (deriv, tape)) in inst.dests.iter().zip(results).zip(tangents) {
        set(regs, *d, Reg::Val(Slot { value, deriv, tape }));
    }
}
