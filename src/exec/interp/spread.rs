//! Cs-lists at their consumer: `c{:}` and `s.f` on a struct array read with `ListUse::Spread` leave a
//! `Reg::List` of values, and the instruction that reads it (a call, an index, a concatenation, a cell
//! literal) runs once on its operands with every list spread in place.

use super::{Frame, Interpreter, Reg, Regs, Slot, containers, into_slot, subscript_of};
use crate::ad::reverse::tape::Tape;
use crate::analysis::Activity;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::ir::{Inst, ListUse, Op};
use crate::primitives::Prim;
use crate::primitives::integers::OPERATORS;
use crate::value::Value;

impl Interpreter<'_> {
    /// Runs `inst`, one of whose operands is a cs-list, on the spread operands.
    pub(super) fn exec_spread(&mut self, inst: &Inst, activity: &Activity, frame: &mut Frame) -> Result<()> {
        let regs = &frame.regs;
        if let Some(error) = stray_list_error(inst, regs) {
            return Err(error);
        }
        let spread = |args: &[crate::ir::ValueId]| -> Vec<Reg> {
            args.iter()
                .flat_map(|a| match &regs[a] {
                    Reg::List(items) => items.iter().cloned().map(Reg::Val).collect(),
                    other => vec![other.clone()],
                })
                .collect()
        };
        let n = inst.dests.len();
        let results = match &inst.op {
            Op::IndexAssign => {
                let mut operands = spread(&inst.args).into_iter();
                let base = operands.next().and_then(|r| match r {
                    Reg::Val(s) => Some(s),
                    _ => None,
                });
                let rhs = into_slot(operands.next().expect("an assigned value"))?;
                let rest: Vec<Reg> = operands.collect();
                let subs = rest.iter().enumerate().map(|(k, r)| subscript_of(r, k, rest.len())).collect::<Result<Vec<_>>>()?;
                vec![self.assign_slot(base, &rhs, &subs, activity.is_active(inst.dests[0]))?]
            }
            Op::CellLiteral { widths } => {
                let mut rest = &inst.args[..];
                let row_values: Vec<Vec<Reg>> = widths
                    .iter()
                    .map(|&w| {
                        let (row, after) = rest.split_at(w);
                        rest = after;
                        spread(row)
                    })
                    .collect();
                // As Octave does: the first row sets the width, a later row a cs-list leaves empty is
                // skipped, and one value alone is a 0x0 cell when the list is empty.
                let mut kept: Vec<Vec<Reg>> = Vec::with_capacity(row_values.len());
                for row in row_values {
                    match kept.first() {
                        Some(first) if row.len() != first.len() && row.is_empty() => {}
                        Some(first) if row.len() != first.len() => {
                            return Err(Diagnostic::new(ErrorKind::Runtime, "number of columns must match"));
                        }
                        _ => kept.push(row),
                    }
                }
                let count = if widths.len() == 1 && kept[0].is_empty() { 0 } else { kept.len() };
                let elements = values(kept.into_iter().flatten().collect())?;
                vec![containers::literal(elements, count, &mut self.tape)?]
            }
            op => self.run_call(op, spread(&inst.args), n)?,
        };
        for (d, s) in inst.dests.iter().zip(results) {
            frame.regs[d] = Reg::Val(s);
        }
        Ok(())
    }
}

impl Interpreter<'_> {
    /// Runs a call-like instruction (`Prim`, `Call`, `Apply`, or `Index`, which calls a handle) on
    /// `operands`, asking for `nargout` results.
    pub(super) fn run_call(&mut self, op: &Op, operands: Vec<Reg>, nargout: usize) -> Result<Vec<Slot>> {
        Ok(match op {
            Op::Prim(id) => self.apply_prim(*id, &values(operands)?, nargout)?,
            Op::Call(id) => self.call(*id, values(operands)?, nargout)?,
            Op::Apply(kind) => self.apply(*kind, values(operands)?, nargout)?,
            Op::Index => {
                let base = into_slot(operands[0].clone())?;
                if matches!(base.value, Value::Handle(_)) {
                    self.call_handle(&base, values(operands[1..].to_vec())?, nargout)?
                } else {
                    let count = operands.len() - 1;
                    let subs = operands[1..].iter().enumerate().map(|(k, r)| subscript_of(r, k, count)).collect::<Result<Vec<_>>>()?;
                    vec![self.index_slot(&base, &subs)?]
                }
            }
            other => return Err(Diagnostic::new(ErrorKind::Internal, format!("a cs-list spread into {other:?}"))),
        })
    }

    /// `Op::Outputs`: the inner call asked for as many results as the count operand says.
    pub(super) fn exec_outputs(&mut self, inner: &Op, inst: &Inst, frame: &mut Frame) -> Result<()> {
        let count = into_slot(frame.regs[inst.args[0]].clone())?;
        let nargout = count_of(&count.value);
        let operands = inst.args[1..].iter().flat_map(|a| match &frame.regs[a] {
            Reg::List(items) => items.iter().cloned().map(Reg::Val).collect(),
            other => vec![other.clone()],
        });
        let results = self.run_call(inner, operands.collect(), nargout)?;
        frame.regs[inst.dests[0]] = Reg::List(results);
        Ok(())
    }
}

/// A count computed by the lowering (a non-negative whole double).
pub(super) fn count_of(v: &Value) -> usize {
    v.numeric().map_or(0, |a| a.data[0] as usize)
}

/// `Op::ListPart`: `count` values of `list` from `start`; a missing one is Octave's error.
pub(super) fn list_part(list: &[Slot], start: usize, count: usize, cell: bool, tape: &mut Option<Tape>) -> Result<Slot> {
    if list.len() < start + count {
        return Err(Diagnostic::new(ErrorKind::Runtime, format!("element number {} undefined in return list", list.len() + 1)));
    }
    let items = &list[start..start + count];
    if !cell {
        return Ok(items[0].clone());
    }
    containers::literal(items.to_vec(), 1, tape)
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
        (ListUse::Single, _) => Ok(Reg::Stray(items)),
    }
}

pub(super) fn one_value_needed(count: usize) -> Diagnostic {
    Diagnostic::new(ErrorKind::Runtime, format!("a cs-list of {count} values where one value is needed"))
        .with_hint("index one element, c{k} or s(k).f, or spread the list into a call or [ ]")
}

/// Unary operators' builtins and the symbols Octave's errors name them by.
const UNARY_OPERATORS: &[(Prim, &str)] =
    &[(Prim::Uminus, "-"), (Prim::Uplus, "+"), (Prim::Not, "!"), (Prim::Transpose, ".'"), (Prim::Ctranspose, "'")];

/// Octave's error for an instruction reading a `Reg::Stray` operand: an operator's names the operand
/// types, an index's says the list cannot be indexed.
fn stray_list_error(inst: &Inst, regs: &Regs) -> Option<Diagnostic> {
    let stray = |a: &crate::ir::ValueId| match &regs[a] {
        Reg::Stray(items) => Some(items.len()),
        _ => None,
    };
    let (position, count) = inst.args.iter().enumerate().find_map(|(k, a)| stray(a).map(|n| (k, n)))?;
    let type_of = |a: &crate::ir::ValueId| match &regs[a] {
        Reg::Val(s) => octave_type(&s.value),
        _ => "cs-list".to_string(),
    };
    let symbol = |table: &[(Prim, &'static str)], id: &Prim| table.iter().find(|(p, _)| p == id).map(|(_, symbol)| *symbol);
    let message = match (&inst.op, &inst.args[..]) {
        (Op::Prim(id), [a, b]) => symbol(OPERATORS, id)
            .map(|op| format!("binary operator '{op}' not implemented for '{}' by '{}' operations", type_of(a), type_of(b))),
        (Op::Prim(id), [_]) => {
            symbol(UNARY_OPERATORS, id).map(|op| format!("unary operator '{op}' not implemented for 'cs-list' operands"))
        }
        (Op::Index | Op::IndexAssign | Op::Field { .. } | Op::CellIndex { .. }, _) if position == 0 => {
            Some("a cs-list cannot be further indexed".to_string())
        }
        _ => None,
    };
    Some(message.map_or_else(|| one_value_needed(count), |m| Diagnostic::new(ErrorKind::Runtime, m)))
}

/// How Octave's operator errors name a value's type (logical and char values are converted to
/// double before the operator is looked up).
fn octave_type(v: &Value) -> String {
    let shape = if v.numel() == 1 { "scalar" } else { "matrix" };
    match v {
        Value::Int(class, _) => format!("{} {shape}", class.name()),
        Value::Complex(_) => format!("complex {shape}"),
        Value::Sparse(_) => "sparse matrix".to_string(),
        Value::Cell(_) => "cell".to_string(),
        Value::Struct(_) if v.numel() == 1 => "scalar struct".to_string(),
        Value::Struct(_) => "struct".to_string(),
        Value::Handle(_) => "function handle".to_string(),
        _ => shape.to_string(),
    }
}
