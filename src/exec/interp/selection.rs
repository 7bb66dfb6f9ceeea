//! Selections: the operands whose values decide which elements a derivative couples (subscripts,
//! masks, sizes, a sort's permutation) and that may differ between calls of a prepared plan. Each run
//! records a fingerprint of them in its control record, so a sparsity pattern detected on one call is
//! reused only where every selection made the same choice (see `engine::jacobian`).

use super::{Interpreter, Reg, Regs};
use crate::analysis::Activity;
use crate::ir::{HigherOrder, Inst, Op, ValueId};
use crate::primitives::{self, PatternRule, Prim, PrimId};
use crate::value::Value;
use std::hash::{Hash, Hasher};

/// What of an operand decides the pattern.
#[derive(Clone, Copy)]
enum Decides {
    /// Its values (subscripts, masks, sizes, dimensions).
    Values,
    /// Its shape, and its structure when sparse.
    Shape,
    /// The positions a selection by the operands' values picks.
    Selection(fn(&[&Value]) -> crate::diag::Result<Vec<usize>>),
}

/// Whether `inst` has operands that decide its derivative's pattern and may differ between calls
/// (what `deciding_operands` lists, found without building the list: the evaluator asks for every
/// instruction it runs).
pub(super) fn decides_pattern(inst: &Inst, activity: &Activity) -> bool {
    if !inst.dests.iter().any(|d| activity.is_active(*d)) {
        return false;
    }
    let varying = |a: &ValueId| activity.varies(*a);
    if let Some(first) = subscripts_from(&inst.op) {
        return inst.args.iter().skip(first).any(varying);
    }
    let Some(id) = primitive_of(&inst.op) else { return false };
    let selects = matches!(primitives::get(id).pattern, PatternRule::Selection(_));
    inst.args.iter().any(|a| varying(a) && !activity.is_active(*a)) || (selects && inst.args.iter().any(|a| activity.is_active(*a)))
}

/// The primitive whose record says what decides the pattern of `op`: its own, or accumarray's for
/// `accumarray` lowered as a call that may take a function handle (its groups come from the same
/// subscripts either way).
fn primitive_of(op: &Op) -> Option<PrimId> {
    match op {
        Op::Prim(id) => Some(*id),
        Op::Apply(HigherOrder::Accumarray) => Some(Prim::Accumarray),
        _ => None,
    }
}

/// Position of the first subscript of an indexing operation.
fn subscripts_from(op: &Op) -> Option<usize> {
    match op {
        Op::Index | Op::Element | Op::CellIndex { .. } => Some(1),
        Op::IndexAssign | Op::ElementAssign | Op::CellAssign => Some(2),
        _ => None,
    }
}

/// The operands of `inst` (by position) that decide its derivative's pattern and may differ between
/// calls, with what of each decides it.
fn deciding_operands(inst: &Inst, activity: &Activity) -> Vec<(usize, Decides)> {
    let varying = |k: &usize| activity.varies(inst.args[*k]);
    if let Some(first) = subscripts_from(&inst.op) {
        return (first..inst.args.len()).filter(varying).map(|k| (k, Decides::Values)).collect();
    }
    let Some(id) = primitive_of(&inst.op) else { return vec![] };
    let rule = primitives::get(id).pattern;
    let parameter = match rule {
        PatternRule::Structural => Decides::Shape,
        PatternRule::Parameters | PatternRule::Selection(_) => Decides::Values,
    };
    let inactive = |k: &usize| !activity.is_active(inst.args[*k]);
    let mut deciding: Vec<_> = (0..inst.args.len()).filter(varying).filter(inactive).map(|k| (k, parameter)).collect();
    if let PatternRule::Selection(select) = rule
        && inst.args.iter().any(|a| activity.is_active(*a))
    {
        deciding.push((0, Decides::Selection(select)));
    }
    deciding
}

impl Interpreter<'_> {
    /// Records in the control record what decides the pattern of `inst`'s derivative, when that may
    /// differ between calls: the pattern found on this run then holds only where it is the same.
    pub(super) fn note_selection(&mut self, inst: &Inst, activity: &Activity, regs: &Regs) {
        if !decides_pattern(inst, activity) {
            return;
        }
        // Indexing a function handle calls it: its arguments are no subscripts.
        if matches!(inst.op, Op::Index) && matches!(&regs[inst.args[0]], Reg::Val(s) if matches!(s.value, Value::Handle(_))) {
            return;
        }
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let mut shapes_only = true;
        for (k, decides) in deciding_operands(inst, activity) {
            shapes_only &= matches!(decides, Decides::Shape);
            match decides {
                Decides::Values => hash_values(&regs[inst.args[k]], &mut h),
                Decides::Shape => hash_shape(&regs[inst.args[k]], &mut h),
                Decides::Selection(select) => {
                    let operands: Option<Vec<&Value>> = inst.args.iter().map(|a| value_of(&regs[a])).collect();
                    // An operand the kernel cannot take fails the instruction itself next.
                    operands.and_then(|values| select(&values).ok()).hash(&mut h);
                }
            }
        }
        match shapes_only {
            true => self.control.shaped(h.finish()),
            false => self.control.decided(h.finish()),
        }
    }
}

fn value_of(reg: &Reg) -> Option<&Value> {
    match reg {
        Reg::Val(slot) => Some(&slot.value),
        _ => None,
    }
}

fn hash_values(reg: &Reg, h: &mut impl Hasher) {
    match reg {
        Reg::Val(slot) => slot.value.hash_content(h),
        Reg::Range(first, step, count) => (first, step, count).hash(h),
        Reg::List(slots) | Reg::Stray(slots) => slots.iter().for_each(|s| s.value.hash_content(h)),
        Reg::Colon => "colon".hash(h),
        Reg::Unset | Reg::Undefined(_) => "undefined".hash(h),
    }
}

fn hash_shape(reg: &Reg, h: &mut impl Hasher) {
    match reg {
        Reg::Val(slot) => {
            slot.value.dims().hash(h);
            if let Value::Sparse(s) = &slot.value {
                (s.colptr(), s.rowind()).hash(h);
            }
        }
        other => hash_values(other, h),
    }
}
