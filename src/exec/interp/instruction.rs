//! One instruction of the general path: `exec` picks the fast path or the concern an operation belongs
//! to (primitives in `primitive`, calls, indexing, containers, the host's effects).

use super::primitive::{Recording, Tangents};
use super::{
    Frame, Interpreter, Reg, Regs, Slot, argument, defined, into_slot, not_a_value, recycle, scalar_fast_path, set_constant, slot, slots,
    spread, subscripts, take_or_clone,
};
use crate::ad::reverse::tape::Tape;
use crate::analysis::Activity;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::exec::containers;
use crate::ir::{Function, Inst, Op, ValueId};
use crate::primitives;
use crate::primitives::index::{end_value, index, index_owned, index_seed};
use crate::value::deriv::Deriv;
use crate::value::{FunctionHandle, Value};
use std::sync::Arc;

/// Sets register `v` to `r`. A register may still hold the previous call's value (see
/// `Reg::worth_keeping`): its buffers go back to the pool.
pub(super) fn set(regs: &mut Regs, v: ValueId, r: Reg) {
    recycle(std::mem::replace(&mut regs[v], r));
}

/// Sets the results of a call to the instruction's destinations.
fn set_results(regs: &mut Regs, inst: &Inst, results: Vec<Slot>) {
    for (d, s) in inst.dests.iter().zip(results) {
        set(regs, *d, Reg::Val(s));
    }
}

impl Interpreter<'_> {
    pub(super) fn exec(
        &mut self,
        func: &Function,
        activity: &Activity,
        inst: &Inst,
        cache_key: Option<(u64, ValueId)>,
        movable: &dyn Fn(usize) -> bool,
        frame: &mut Frame,
    ) -> Result<()> {
        let reads_lists = matches!(inst.op, Op::ListPart { .. } | Op::Outputs(_));
        if !reads_lists && inst.args.iter().any(|a| matches!(frame.regs[a], Reg::List(_) | Reg::Stray(_))) {
            return self.exec_spread(inst, activity, frame);
        }
        // Hessian tapes record the general path only. Scalars skip the derivative cache: computing
        // their derivative row costs less than looking it up.
        let reads_seed = self.seeded_value.is_some() && self.depth == 1 && inst.args.first() == self.seeded_value.as_ref();
        let fast = self.tape.as_ref().is_none_or(Tape::records_scalars) && !reads_seed;
        if fast && scalar_fast_path(inst, activity, movable, &mut frame.regs, self.tape.as_mut()) {
            return Ok(());
        }
        let regs = &mut frame.regs;
        match &inst.op {
            Op::Const(v) => set_constant(&mut regs[inst.dests[0]], v),
            Op::Param(i) => self.exec_param(func, inst, *i, frame),
            Op::Undefined(name) => set(regs, inst.dests[0], Reg::Undefined(name.clone())),
            Op::MagicColon => set(regs, inst.dests[0], Reg::Colon),
            // The derivative mode is a type: each mode's primitive path is compiled on its own.
            Op::Prim(id) if self.tape.is_none() => self.exec_prim::<Tangents>(*id, inst, activity, cache_key, movable, regs)?,
            Op::Prim(id) => self.exec_prim::<Recording>(*id, inst, activity, cache_key, movable, regs)?,
            Op::MakeHandle { .. } | Op::Apply(_) | Op::Call(_) => self.exec_call(inst, movable, regs)?,
            Op::Index if matches!(slot(regs, inst.base())?.value, Value::Handle(_)) => self.exec_call(inst, movable, regs)?,
            Op::Index => self.exec_index(inst, activity, movable, regs)?,
            Op::IndexAssign => {
                let base = defined(take_or_clone(regs, inst.base(), movable(0)));
                let subs = subscripts(regs, inst.subscripts())?;
                let active = activity.is_active(inst.dests[0]);
                let result = self.assign_slot(base, slot(regs, inst.stored())?, &subs, active)?;
                set(regs, inst.dests[0], Reg::Val(result));
            }
            Op::End { position, count } => {
                let base = slot(regs, inst.base())?;
                let n = end_value(&base.value.shape(), *position, *count);
                set(regs, inst.dests[0], Reg::Val(Slot::inactive(Value::scalar(n as f64))));
            }
            Op::Nargin | Op::Nargout => {
                let n = if matches!(inst.op, Op::Nargin) { frame.nargin } else { frame.nargout };
                set(regs, inst.dests[0], Reg::Val(Slot::inactive(Value::scalar(n as f64))));
            }
            Op::Warning
            | Op::Output(_)
            | Op::DeclareShared(_)
            | Op::LoadShared(_)
            | Op::StoreShared(_)
            | Op::LastWarning
            | Op::LastError
            | Op::Timer(_)
            | Op::CaughtError
            | Op::Fail(_) => self.exec_effect(inst, activity, frame)?,
            Op::Outputs(inner) => return self.exec_outputs(inner, inst, frame),
            Op::Field { .. }
            | Op::FieldAssign(_)
            | Op::CellIndex { .. }
            | Op::CellAssign
            | Op::Element
            | Op::ElementAssign
            | Op::TargetCount { .. }
            | Op::ListPart { .. }
            | Op::ListAssign { .. }
            | Op::CellLiteral { .. } => self.exec_container(inst, movable, regs)?,
        }
        Ok(())
    }

    /// A parameter: the argument moves into its register (an unpassed one reads as undefined).
    fn exec_param(&mut self, func: &Function, inst: &Inst, i: usize, frame: &mut Frame) {
        let args = &mut frame.args[..];
        let seeded = args.get(i).is_some_and(|s| matches!(s, Some(Slot { value: Value::Double(_), .. })));
        if self.depth == 1 && seeded && self.seed.is_some_and(|(param, _)| param == i) {
            self.seeded_value = Some(inst.dests[0]);
        }
        let r = match args.get_mut(i).and_then(Option::take) {
            Some(s) => Reg::Val(s),
            None => Reg::Undefined(func.params[i].clone()),
        };
        set(&mut frame.regs, inst.dests[0], r);
    }

    /// Calls: of a compiled function, of a handle (`f(x)` on a handle), of a higher-order builtin, and
    /// the making of a handle.
    fn exec_call(&mut self, inst: &Inst, movable: &dyn Fn(usize) -> bool, regs: &mut Regs) -> Result<()> {
        match &inst.op {
            Op::MakeHandle { target, text } => {
                let captured = slots(regs, &inst.args)?;
                let deriv = Deriv::from_parts(captured.iter().map(|s| s.deriv.clone()).collect());
                // On the tape, a container of the captured values' variables (see `call_handle`).
                let tape = containers::container_var(&mut self.tape, captured.iter().map(|s| s.tape).collect());
                let captured = captured.iter().map(|s| s.value.clone()).collect();
                let handle = FunctionHandle::Compiled { text: text.clone(), target: *target, captured };
                set(regs, inst.dests[0], Reg::Val(Slot { tape, ..Slot::new(Value::Handle(Arc::new(handle)), deriv) }));
            }
            Op::Apply(kind) => {
                let operands = slots(regs, &inst.args)?.iter().copied().cloned().collect();
                let results = self.apply(*kind, operands, inst.dests.len())?;
                set_results(regs, inst, results);
            }
            Op::Call(id) => {
                let operands =
                    (0..inst.args.len()).map(|k| into_slot(take_or_clone(regs, inst.args[k], movable(k)))).collect::<Result<Vec<_>>>()?;
                let results = self.call(*id, operands, inst.dests.len())?;
                set_results(regs, inst, results);
            }
            Op::Index => {
                let handle = slot(regs, inst.base())?.clone();
                let operands = inst.args[1..].iter().map(|&v| argument(regs, v)).collect::<Result<_>>()?;
                let results = self.call_handle(&handle, operands, inst.dests.len())?;
                set_results(regs, inst, results);
            }
            _ => unreachable!("exec_call runs calls only"),
        }
        Ok(())
    }

    /// `base(subs...)`: from the seed's colours, in place (the base read for the last time, untaped),
    /// or copied.
    fn exec_index(&mut self, inst: &Inst, activity: &Activity, movable: &dyn Fn(usize) -> bool, regs: &mut Regs) -> Result<()> {
        if inst.dests.len() > 1 {
            return Err(Diagnostic::new(ErrorKind::Unsupported, "multiple results from indexing (cs-lists)"));
        }
        let subs = subscripts(regs, inst.subscripts())?;
        let active = activity.is_active(inst.dests[0]);
        let seed = self.seed.filter(|_| active && self.depth == 1 && self.tape.is_none() && self.seeded_value == Some(inst.args[0]));
        let seeded = match seed {
            Some((_, colours)) => Some(index_seed(&slot(regs, inst.base())?.value, &colours, &subs)?),
            None => None,
        };
        let result = match (seeded, active, movable(0), &self.tape) {
            (Some((value, deriv)), ..) => Slot::new(value, deriv),
            (None, false, _, _) => Slot::inactive(index(&slot(regs, inst.base())?.value, &Deriv::Zero, &subs)?.0),
            (None, true, true, None) => {
                let base = into_slot(take_or_clone(regs, inst.base(), true))?;
                let (value, deriv) = index_owned(base.value, base.deriv, &subs)?;
                Slot::new(value, deriv)
            }
            (None, true, _, _) => self.index_slot(slot(regs, inst.base())?, &subs)?,
        };
        set(regs, inst.dests[0], Reg::Val(result));
        Ok(())
    }

    /// What the user's code asks of the host (warnings, output, `global`/`persistent` variables) and
    /// the errors it raises and catches.
    fn exec_effect(&mut self, inst: &Inst, activity: &Activity, frame: &mut Frame) -> Result<()> {
        let regs = &mut frame.regs;
        match &inst.op {
            Op::Warning => {
                let values: Vec<&Value> = slots(regs, &inst.args)?.iter().map(|s| &s.value).collect();
                let result = self.warning(&values)?;
                if let (Some(d), Some(v)) = (inst.dests.first(), result) {
                    set(regs, *d, Reg::Val(Slot::inactive(v)));
                }
            }
            Op::Output(output) => self.output(*output, &slots(regs, &inst.args)?)?,
            Op::DeclareShared(var) => self.declare_shared(var, inst.args.first().map(|&a| slot(regs, a)).transpose()?)?,
            Op::LoadShared(var) => {
                let loaded = self.load_shared(var, activity.is_active(inst.dests[0]))?;
                set(regs, inst.dests[0], Reg::Val(loaded));
            }
            Op::StoreShared(var) => self.store_shared(var, slot(regs, inst.args[0])?.clone())?,
            Op::LastWarning => {
                let values: Vec<&Value> = slots(regs, &inst.args)?.iter().map(|s| &s.value).collect();
                let last = self.lastwarn(&values)?;
                for (d, v) in inst.dests.iter().zip(last) {
                    set(regs, *d, Reg::Val(Slot::inactive(v)));
                }
            }
            Op::LastError => {
                let last = self.host_calls.iter().rev().find(|c| c.function == "lasterr").ok_or_else(|| {
                    Diagnostic::new(ErrorKind::Unsupported, "lasterr before an error was caught in the differentiated code")
                        .with_hint("read the caught error from 'catch err' instead")
                })?;
                for (d, text) in inst.dests.iter().zip(&last.args) {
                    set(regs, *d, Reg::Val(Slot::inactive(text.clone())));
                }
            }
            Op::Timer(timer) => {
                let values: Vec<&Value> = slots(regs, &inst.args)?.iter().map(|s| &s.value).collect();
                if let Some(result) = self.timer(*timer, &values, inst.dests.len())? {
                    set(regs, inst.dests[0], Reg::Val(Slot::inactive(result)));
                }
            }
            Op::CaughtError => {
                let error = frame.caught.as_ref().expect("a landing block is entered with its error");
                set(regs, inst.dests[0], Reg::Val(Slot::inactive(primitives::errors::error_value(error))));
            }
            Op::Fail(error) => return Err((**error).clone()),
            _ => unreachable!("exec_effect runs the host's effects only"),
        }
        Ok(())
    }

    /// Structs, cells and cs-lists: reading and assigning fields, cell elements and struct elements.
    fn exec_container(&mut self, inst: &Inst, movable: &dyn Fn(usize) -> bool, regs: &mut Regs) -> Result<()> {
        let result = match &inst.op {
            Op::Field { name, tolerant, list } => {
                let found = match (&regs[inst.base()], tolerant) {
                    (Reg::Undefined(_), true) => None,
                    _ => containers::field(slot(regs, inst.base())?, name, &self.tape)?,
                };
                match found {
                    Some(items) => spread::list_register(items, *list)?,
                    None if *tolerant => Reg::Undefined(name.clone()),
                    None => return Err(Diagnostic::new(ErrorKind::Runtime, format!("structure has no member '{name}'"))),
                }
            }
            Op::FieldAssign(name) => {
                let base = defined(take_or_clone(regs, inst.base(), movable(0)));
                let rhs = slot(regs, inst.stored())?.clone();
                Reg::Val(containers::assign_field(base, name, rhs, &mut self.tape)?)
            }
            Op::CellIndex { tolerant, list } => {
                let found = match (&regs[inst.base()], tolerant) {
                    (Reg::Undefined(_), true) => None,
                    _ => {
                        let subs = subscripts(regs, inst.subscripts())?;
                        containers::cell_elements(slot(regs, inst.base())?, &subs, *tolerant, &self.tape)?
                    }
                };
                match found {
                    Some(items) => spread::list_register(items, *list)?,
                    None => Reg::Undefined("cell element".into()),
                }
            }
            Op::CellAssign => {
                let base = defined(take_or_clone(regs, inst.base(), movable(0)));
                let rhs = slot(regs, inst.stored())?.clone();
                let subs = subscripts(regs, inst.subscripts())?;
                Reg::Val(containers::assign_cell(base, &subs, rhs, &mut self.tape)?)
            }
            Op::Element => {
                let base = defined(regs[inst.base()].clone());
                base.as_ref().map(|b| self.untaped(b)).transpose()?;
                let subs = subscripts(regs, inst.subscripts())?;
                match containers::element(base.as_ref(), &subs)? {
                    Some(element) => Reg::Val(element),
                    None => Reg::Undefined("struct element".into()),
                }
            }
            Op::ElementAssign => {
                let base = defined(take_or_clone(regs, inst.base(), movable(0)));
                base.as_ref().map(|b| self.untaped(b)).transpose()?;
                let rhs = slot(regs, inst.stored())?.clone();
                self.untaped(&rhs)?;
                let subs = subscripts(regs, inst.subscripts())?;
                Reg::Val(containers::assign_elements(base, &subs, rhs, true)?)
            }
            Op::TargetCount { field } => {
                let base = defined(regs[inst.base()].clone());
                let count = match field {
                    true => containers::field_target_count(base.as_ref()),
                    false => containers::cell_target_count(base.as_ref(), &subscripts(regs, inst.subscripts())?)?,
                };
                Reg::Val(Slot::inactive(Value::scalar(count as f64)))
            }
            Op::ListPart { cell } => {
                let [start, count] = [inst.args[1], inst.args[2]].map(|v| slot(regs, v).map(|s| spread::count_of(&s.value)));
                let Reg::List(list) = &regs[inst.base()] else {
                    return Err(not_a_value(&regs[inst.base()]));
                };
                Reg::Val(spread::list_part(list, start?, count?, *cell, &mut self.tape)?)
            }
            Op::ListAssign { field } => {
                let base = defined(take_or_clone(regs, inst.base(), movable(0)));
                let rhs = slot(regs, inst.stored())?.clone();
                Reg::Val(match field {
                    Some(name) => containers::assign_fields(base, name, rhs, &mut self.tape)?,
                    None => containers::assign_cells(base, &subscripts(regs, inst.subscripts())?, rhs, &mut self.tape)?,
                })
            }
            Op::CellLiteral { widths } => {
                let elements = slots(regs, &inst.args)?.iter().copied().cloned().collect::<Vec<_>>();
                Reg::Val(containers::literal(elements, widths.len(), &mut self.tape)?)
            }
            _ => unreachable!("exec_container runs container operations only"),
        };
        set(regs, inst.dests[0], result);
        Ok(())
    }
}
