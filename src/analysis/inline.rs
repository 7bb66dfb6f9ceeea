//! Inlining: a call of a small user function whose body is straight-line code (one path) becomes a
//! copy of that body in the caller, so the call's frame set-up disappears and the caller's constant
//! folding and CSE see through it. The copies keep the callee's name and file for error messages.

use crate::ir::{Block, BlockId, Function, InlinedFrom, Inst, Op, Program, Terminator, ValueId};
use std::collections::HashMap;
use std::sync::Arc;

/// Callees with more instructions than this are still called.
const MAX_INSTRUCTIONS: usize = 32;

/// Inlines, in every function, the calls of functions that `inlinable` accepts (each call site once:
/// inlined bodies contain no calls).
pub fn inline_calls(program: &mut Program) {
    let originals = program.functions.clone();
    for func in &mut program.functions {
        // A cs-list argument spreads into a number of arguments known only when the call runs.
        let lists = func.spread_lists();
        for b in func.blocks.ids() {
            let insts = std::mem::take(&mut func.blocks[b].insts);
            let mut out = Vec::with_capacity(insts.len());
            let mut alias = HashMap::new();
            for inst in insts {
                match &inst.op {
                    Op::Call(id) if inlinable(&originals[*id], &inst) && !inst.args.iter().any(|a| lists.contains(a)) => {
                        copy_body(func, &originals[*id], &inst, &mut out, &mut alias)
                    }
                    _ => out.push(inst),
                }
            }
            func.blocks[b].insts = out;
            func.replace_uses(&alias);
        }
    }
}

/// Whether a call can become a copy of the callee's body with the same behaviour: one path, no calls,
/// nothing that asks about its own call (argument counts, caught errors), exactly its parameters
/// passed and only defined outputs asked for.
fn inlinable(callee: &Function, call: &Inst) -> bool {
    let Some((path, results)) = straight_line(callee) else { return false };
    let insts = || path.iter().flat_map(|b| &b.insts);
    let plain = |i: &Inst| {
        matches!(
            i.op,
            Op::Const(_)
                | Op::Param(_)
                | Op::MagicColon
                | Op::Prim(_)
                | Op::Index
                | Op::IndexAssign
                | Op::End { .. }
                | Op::Field { .. }
                | Op::FieldAssign(_)
                | Op::CellIndex { .. }
                | Op::CellAssign
                | Op::CellLiteral { .. }
                | Op::Element
                | Op::ElementAssign
        )
    };
    let undefined: Vec<ValueId> = insts().filter(|i| matches!(i.op, Op::Undefined(_))).flat_map(|i| i.dests.clone()).collect();
    insts().count() <= MAX_INSTRUCTIONS
        && insts().all(|i| plain(i) || matches!(i.op, Op::Undefined(_)))
        && !callee.params.iter().chain(&callee.outputs).any(|n| n == "varargin" || n == "varargout")
        && call.args.len() == callee.params.len()
        && call.dests.len() <= callee.outputs.len()
        && results[..call.dests.len()].iter().all(|r| !undefined.contains(r))
}

/// The blocks of a function whose entry jumps from block to block to its return, with no `try` and no
/// joins, and the returned values.
fn straight_line(func: &Function) -> Option<(Vec<&Block>, &[ValueId])> {
    let mut path = vec![];
    let mut id = BlockId::new(0);
    loop {
        let block = func.block(id);
        if block.handler.is_some() || !block.phis.is_empty() || path.len() == func.blocks.len() {
            return None;
        }
        path.push(block);
        match &block.term {
            Terminator::Jump(next) => id = *next,
            Terminator::Return(results) => return Some((path, results)),
            Terminator::Branch { .. } => return None,
        }
    }
}

/// Appends to `out` the callee's body with fresh values, its parameters replaced by the call's
/// arguments; the call's results become aliases of the returned values.
fn copy_body(caller: &mut Function, callee: &Function, call: &Inst, out: &mut Vec<Inst>, alias: &mut HashMap<ValueId, ValueId>) {
    let from = Arc::new(InlinedFrom { name: callee.name.clone(), file: callee.file.clone(), call_span: call.span });
    let base = caller.value_count;
    caller.value_count += callee.value_count;
    let fresh = |v: ValueId| ValueId::new(base as usize + v.index());
    let (path, results) = straight_line(callee).expect("inlinable checked the callee is straight-line");
    for inst in path.iter().flat_map(|b| &b.insts) {
        let dests: Vec<ValueId> = inst.dests.iter().map(|&d| fresh(d)).collect();
        if let Op::Param(i) = inst.op {
            alias.insert(dests[0], call.args[i]);
            continue;
        }
        for (d, &original) in dests.iter().zip(&inst.dests) {
            if let Some(name) = callee.indexed_variables.get(&original) {
                caller.indexed_variables.insert(*d, name.clone());
            }
        }
        let args = inst.args.iter().map(|&a| fresh(a)).collect();
        out.push(Inst { dests, op: inst.op.clone(), args, span: inst.span, inlined: Some(from.clone()) });
    }
    for (d, r) in call.dests.iter().zip(results) {
        alias.insert(*d, fresh(*r));
    }
}
