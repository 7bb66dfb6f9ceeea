//! Cs-lists at their consumer: `c{:}` and `s.f` on a struct array read with `ListUse::Spread` leave a
//! `Reg::List` of values, and the instruction that reads it (a call, an index, a concatenation, a cell
//! literal) runs once on its operands with every list spread in place.

use super::{Frame, Interpreter, Reg, Slot, containers, into_slot, subscript_of};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::exec::value::Value;
use crate::ir::{Inst, ListUse, Op};

impl Interpreter<'_> {
    /// Runs `inst`, one of whose operands is a cs-list, on the spread operands.
    pub(super) fn exec_spread(&mut self, inst: &Inst, frame: &mut Frame) -> Result<()> {
        let regs = &frame.regs;
        let spread = |args: &[crate::ir::ValueId]| -> Vec<Reg> {
            args.iter()
                .flat_map(|a| match &regs[a.0 as usize] {
                    Reg::List(items) => items.iter().cloned().map(Reg::Val).collect(),
                    other => vec![other.clone()],
                })
                .collect()
        };
        let n = inst.dests.len();
        let results = match &inst.op {
            Op::Prim(id) => self.apply_prim(*id, &values(spread(&inst.args))?, n)?,
            Op::Call(id) => self.call(*id, values(spread(&inst.args))?, n)?,
            Op::Apply(kind) => self.apply(*kind, values(spread(&inst.args))?, n)?,
            Op::Index => {
                let operands = spread(&inst.args);
                let base = into_slot(operands[0].clone())?;
                if matches!(base.value, Value::Handle(_)) {
                    self.call_handle(&base, values(operands[1..].to_vec())?, n)?
                } else {
                    let count = operands.len() - 1;
                    let subs = operands[1..].iter().enumerate().map(|(k, r)| subscript_of(r, k, count)).collect::<Result<Vec<_>>>()?;
                    vec![self.index_slot(&base, &subs)?]
                }
            }
            Op::CellLiteral { rows } => {
                let width = inst.args.len() / rows;
                let row_values: Vec<Vec<Reg>> = inst.args.chunks(width).map(|row| spread(row)).collect();
                // Rows a cs-list leaves empty do not count, as in Octave's `{c{:}; 1, 2}` with c empty.
                let filled: Vec<Vec<Reg>> = row_values.into_iter().filter(|r| !r.is_empty()).collect();
                if let Some(r) = filled.iter().find(|r| r.len() != filled[0].len()) {
                    return Err(Diagnostic::new(
                        ErrorKind::Runtime,
                        format!("vertical dimensions mismatch (1x{} vs 1x{})", filled[0].len(), r.len()),
                    ));
                }
                let count = filled.len();
                let elements = values(filled.into_iter().flatten().collect())?;
                elements.iter().try_for_each(|e| self.untaped(e).map(drop))?;
                let literal = match count {
                    0 => Slot::inactive(Value::Cell(crate::exec::value::Array::new(vec![0, 0], vec![]))),
                    _ => containers::literal(elements, count)?,
                };
                vec![literal]
            }
            other => {
                return Err(Diagnostic::new(ErrorKind::Internal, format!("a cs-list spread into {other:?}")));
            }
        };
        for (d, s) in inst.dests.iter().zip(results) {
            frame.regs[d.0 as usize] = Reg::Val(s);
        }
        Ok(())
    }
}

fn values(regs: Vec<Reg>) -> Result<Vec<Slot>> {
    regs.into_iter().map(into_slot).collect()
}

/// The values a cs-list names, used as `list` says: a `Reg::List` to spread, or the one value wanted.
pub(super) fn list_register(mut items: Vec<Slot>, list: ListUse) -> Result<Reg> {
    match (list, items.len()) {
        (ListUse::Spread, _) => Ok(Reg::List(items)),
        (_, 1) | (ListUse::First, 2..) => Ok(Reg::Val(items.swap_remove(0))),
        (ListUse::First, _) => Err(Diagnostic::new(ErrorKind::Runtime, "invalid number of elements on RHS of assignment")),
        (ListUse::Single, count) => Err(Diagnostic::new(
            ErrorKind::Runtime,
            format!("a cs-list of {count} values where one value is needed"),
        )
        .with_hint("index one element, c{k} or s(k).f, or spread the list into a call or [ ]")),
    }
}
