//! Which inputs besides x may decide the sparsity pattern of a plan's Jacobian or Hessian. Prepared
//! code takes every argument (and every captured value that changes between calls) as an input, so
//! it serves any value of them; a detected pattern does not when such a value decided a branch, a
//! subscript or another operation on an x-dependent value. Those inputs' contents key the detected
//! patterns: when they change, the pattern is detected again.

use crate::analysis::Activity;
use crate::exec::primitives::{self, Kernel, Linearity};
use crate::ir::{Function, Inst, Op, Terminator, ValueId};

/// Parameters of the entry `func` (other than `wrt`) whose values may decide the pattern: a value
/// computed from one is a branch condition, or an operand of an operation on an x-dependent value
/// other than an elementwise one or a product with a scalar (whose pattern follows x's alone).
/// Conservative: calls and indexing count. `scalar`: which values are known to be scalars.
pub(super) fn pattern_inputs(func: &Function, activity: &Activity, wrt: usize, scalar: &[bool]) -> Vec<usize> {
    let params = func.blocks.iter().flat_map(|b| &b.insts).filter_map(|i| match i.op {
        Op::Param(k) if k != wrt => Some((k, i.dests[0])),
        _ => None,
    });
    let mut inputs: Vec<usize> =
        params.filter(|(_, dest)| decides_pattern(func, activity, scalar, *dest)).map(|(k, _)| k).collect();
    inputs.sort_unstable();
    inputs.dedup();
    inputs
}

/// Whether a value computed from `source` reaches a branch or a pattern-deciding operand.
fn decides_pattern(func: &Function, activity: &Activity, scalar: &[bool], source: ValueId) -> bool {
    let from_source = reached_from(func, source);
    let reached = |v: &ValueId| from_source[v.0 as usize];
    let deciding = |i: &Inst| {
        let reached_scalars_only = i.args.iter().filter(|v| reached(v)).all(|v| scalar.get(v.0 as usize) == Some(&true));
        i.args.iter().any(reached)
            && i.args.iter().any(|v| activity.depends_on_x(*v))
            && !elementwise(&i.op)
            && !(reached_scalars_only && scales(&i.op))
    };
    func.blocks.iter().any(|b| matches!(&b.term, Terminator::Branch { cond, .. } if reached(cond)) || b.insts.iter().any(deciding))
}

/// Values computed from `source` (through instructions and phis; loops to a fixed point).
fn reached_from(func: &Function, source: ValueId) -> Vec<bool> {
    let mut reached = vec![false; func.value_count as usize];
    reached[source.0 as usize] = true;
    let order = func.reverse_postorder();
    let mut changed = true;
    while changed {
        changed = false;
        for block in order.iter().map(|b| func.block(*b)) {
            for phi in &block.phis {
                if phi.incoming.iter().any(|(_, v)| reached[v.0 as usize]) {
                    changed |= mark(&mut reached, std::slice::from_ref(&phi.dest));
                }
            }
            for inst in &block.insts {
                if inst.args.iter().any(|v| reached[v.0 as usize]) {
                    changed |= mark(&mut reached, &inst.dests);
                }
            }
        }
    }
    reached
}

/// Marks `values` reached; whether any was not before.
fn mark(reached: &mut [bool], values: &[ValueId]) -> bool {
    values.iter().fold(false, |new, v| !std::mem::replace(&mut reached[v.0 as usize], true) || new)
}

/// Elementwise primitives: an operand's value scales or shifts x's derivative entries but moves none.
fn elementwise(op: &Op) -> bool {
    matches!(op, Op::Prim(id) if matches!(primitives::get(*id).kernel, Kernel::Unary { .. } | Kernel::Binary { .. } | Kernel::Predicate(_)))
}

/// Products and quotients (`t * y`, `y / t`, `t \ y`): with a scalar operand, elementwise.
fn scales(op: &Op) -> bool {
    matches!(op, Op::Prim(id) if matches!(primitives::linearity(*id), Linearity::Bilinear | Linearity::Numerator | Linearity::Denominator))
}
