//! Common-subexpression elimination: global value numbering over the dominator tree. An operation
//! with the same operands as one that dominates it computes the same value (primitives are pure), so
//! its results are replaced by the earlier ones and the instruction is dropped. Constants are numbered
//! by value (each literal `2` is its own instruction), so `x.^2` written twice is found repeated.
//! Values that only constants and index markers feed are dropped once nothing reads them.

use super::dominance::immediate_forward_dominators;
use crate::ids::IdVec;
use crate::ir::{BlockId, Function, Op, Terminator, ValueId};
use crate::primitives::{self, PrimId};
use crate::value::Value;
use std::collections::{HashMap, HashSet};
use std::hash::Hasher;

#[derive(Clone, PartialEq, Eq, Hash)]
enum Operation {
    Prim(PrimId),
    Index,
    End(usize, usize),
    Colon,
    /// A constant, by a hash of its class, size and elements (equal values are checked on a match).
    Const(u64),
}

type Key = (Operation, Vec<ValueId>, usize);

/// Eliminates repeated computations in `func`; returns how many instructions were removed.
pub fn eliminate_common_subexpressions(func: &mut Function) -> usize {
    let idom = immediate_forward_dominators(func);
    let mut children: IdVec<BlockId, Vec<BlockId>> = IdVec::filled(vec![], func.blocks.len());
    for (b, d) in func.blocks.ids().zip(&idom) {
        if let Some(d) = d {
            children[*d].push(b);
        }
    }
    let mut alias: HashMap<ValueId, ValueId> = HashMap::new();
    let mut available: HashMap<Key, Vec<ValueId>> = HashMap::new();
    let mut constants: HashMap<ValueId, Value> = HashMap::new();
    let mut removed = 0;
    // Depth-first over the dominator tree; each block's entries leave scope after its subtree.
    let mut stack: Vec<(BlockId, Option<Vec<Key>>)> = vec![(BlockId::ENTRY, None)];
    while let Some((b, scope)) = stack.pop() {
        if let Some(keys) = scope {
            keys.iter().for_each(|k| {
                available.remove(k);
            });
            continue;
        }
        let mut added = Vec::new();
        let insts = std::mem::take(&mut func.blocks[b].insts);
        for mut inst in insts {
            inst.args.iter_mut().for_each(|v| *v = crate::ir::resolve_alias(&alias, *v));
            let Some(operation) = operation(&inst.op) else {
                func.blocks[b].insts.push(inst);
                continue;
            };
            let key = (operation, inst.args.clone(), inst.dests.len());
            let same_constant = |earlier: &[ValueId]| match &inst.op {
                Op::Const(v) => constants.get(&earlier[0]) == Some(v),
                _ => true,
            };
            match available.get(&key).filter(|earlier| same_constant(earlier)) {
                Some(earlier) => {
                    inst.dests.iter().zip(earlier).for_each(|(d, e)| {
                        alias.insert(*d, *e);
                    });
                    removed += 1;
                }
                None => {
                    if let Op::Const(v) = &inst.op {
                        constants.insert(inst.dests[0], v.clone());
                    }
                    available.insert(key.clone(), inst.dests.clone());
                    added.push(key);
                    func.blocks[b].insts.push(inst);
                }
            }
        }
        stack.push((b, Some(added)));
        stack.extend(children[b].iter().map(|&c| (c, None)));
    }
    func.replace_uses(&alias);
    removed + remove_unread_markers(func)
}

fn operation(op: &Op) -> Option<Operation> {
    match op {
        Op::Prim(id) if primitives::is_pure(*id) => Some(Operation::Prim(*id)),
        Op::Index => Some(Operation::Index),
        Op::End { position, count } => Some(Operation::End(*position, *count)),
        Op::MagicColon => Some(Operation::Colon),
        Op::Const(v) => {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            v.hash_content(&mut h);
            Some(Operation::Const(h.finish()))
        }
        _ => None,
    }
}

/// Drops constants and `:` markers nothing reads (what folding and elimination leave behind); they
/// cannot fail, so dropping them changes nothing the user can see.
fn remove_unread_markers(func: &mut Function) -> usize {
    let mut read: HashSet<ValueId> = HashSet::new();
    for block in &func.blocks {
        block.phis.iter().for_each(|p| read.extend(p.incoming.iter().map(|(_, v)| *v)));
        block.insts.iter().for_each(|i| read.extend(i.args.iter().copied()));
        match &block.term {
            Terminator::Branch { cond, .. } => {
                read.insert(*cond);
            }
            Terminator::Return(vs) => read.extend(vs.iter().copied()),
            Terminator::Jump(_) => {}
        }
    }
    let mut removed = 0;
    for block in &mut func.blocks {
        let before = block.insts.len();
        block.insts.retain(|i| !(matches!(i.op, Op::Const(_) | Op::MagicColon) && i.dests.iter().all(|d| !read.contains(d))));
        removed += before - block.insts.len();
    }
    removed
}
