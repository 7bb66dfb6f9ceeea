//! Two-sided branches: for a branch whose sides meet again at its immediate post-dominator without
//! looping back to it (an `if`, not a loop test), the join block. Sparsity detection runs both sides of
//! such a branch when its condition depends on x, so the pattern holds whichever side a later x takes.

use crate::ir::{BlockId, Function, Terminator};

/// `joins[b]`: the join of block b's branch when both sides can be run independently.
pub fn two_sided_joins(func: &Function) -> Vec<Option<BlockId>> {
    let ipdom = immediate_postdominators(func);
    (0..func.blocks.len())
        .map(|b| {
            let block = BlockId(b as u32);
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
        if b == barrier || std::mem::replace(&mut seen[b.0 as usize], true) {
            continue;
        }
        stack.extend(func.successors(b));
    }
    false
}

/// Immediate post-dominators (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm") on the
/// reversed CFG, rooted at the function's single returning block.
fn immediate_postdominators(func: &Function) -> Vec<Option<BlockId>> {
    let n = func.blocks.len();
    let exits: Vec<usize> = (0..n).filter(|&b| matches!(func.blocks[b].term, Terminator::Return(_))).collect();
    let mut ipdom: Vec<Option<usize>> = vec![None; n];
    // Lowering gives one returning block; unreachable fresh blocks also end in `Return(vec![])` but have
    // no predecessors and never run, so the root is the returning block that is reached.
    let order = func.reverse_postorder();
    let Some(&root) = exits.iter().find(|e| order.contains(&BlockId(**e as u32))) else { return vec![None; n] };
    ipdom[root] = Some(root);
    // Post-order of the reversed graph, by DFS from the root along predecessor edges.
    let mut rpo = Vec::new();
    let mut seen = vec![false; n];
    let mut stack = vec![(root, false)];
    while let Some((b, done)) = stack.pop() {
        if done {
            rpo.push(b);
            continue;
        }
        if std::mem::replace(&mut seen[b], true) {
            continue;
        }
        stack.push((b, true));
        for p in &func.blocks[b].preds {
            if !seen[p.0 as usize] {
                stack.push((p.0 as usize, false));
            }
        }
    }
    let mut index = vec![usize::MAX; n];
    rpo.iter().enumerate().for_each(|(i, &b)| index[b] = i);
    rpo.reverse();
    let intersect = |ipdom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while index[a] < index[b] {
                a = ipdom[a].expect("processed");
            }
            while index[b] < index[a] {
                b = ipdom[b].expect("processed");
            }
        }
        a
    };
    loop {
        let mut changed = false;
        for &b in rpo.iter().filter(|&&b| b != root) {
            let succs: Vec<usize> = func.successors(BlockId(b as u32)).iter().map(|s| s.0 as usize).collect();
            let mut new = None;
            for s in succs.into_iter().filter(|&s| ipdom[s].is_some()) {
                new = Some(match new {
                    None => s,
                    Some(cur) => intersect(&ipdom, s, cur),
                });
            }
            if new.is_some() && ipdom[b] != new {
                ipdom[b] = new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    ipdom.into_iter().enumerate().map(|(b, d)| d.filter(|&d| d != b).map(|d| BlockId(d as u32))).collect()
}
