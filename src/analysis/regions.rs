//! Two-sided branches: for a branch whose sides meet again at its immediate post-dominator without
//! looping back to it (an `if`, not a loop test), the join block. Sparsity detection runs both sides of
//! such a branch when its condition depends on x, so the pattern holds whichever side a later x takes.

use super::dominance::immediate_postdominators;
use crate::ir::{BlockId, Function, Terminator};

/// `joins[b]`: the join of block b's branch when both sides can be run independently.
pub fn two_sided_joins(func: &Function) -> Vec<Option<BlockId>> {
    let ipdom = immediate_postdominators(func);
    (0..func.blocks.len())
        .map(|b| {
            let block = BlockId::new(b);
            let Terminator::Branch { then_block, else_block, .. } = func.block(block).term else { return None };
            let join = ipdom[b]?;
            let cyclic = [then_block, else_block].iter().any(|&side| reaches(func, side, block, join));
            (!cyclic).then_some(join)
        })
        .collect()
}

/// Whether `target` is reachable from `from` without passing through `barrier`.
fn reaches(func: &Function, from: BlockId, target: BlockId, barrier: BlockId) -> bool {
    let mut seen = vec![false; func.blocks.len()];
    let mut stack = vec![from];
    while let Some(b) = stack.pop() {
        if b == target {
            return true;
        }
        if b == barrier || std::mem::replace(&mut seen[b.index()], true) {
            continue;
        }
        stack.extend(func.successors(b));
    }
    false
}
