//! Dominator trees of the CFG, forward (from the entry) and reversed (post-dominators, from the
//! returning block).

use crate::ir::{BlockId, Function, Terminator};

/// Immediate post-dominators: dominators of the reversed CFG, rooted at the function's returning
/// block (unreachable fresh blocks also end in `Return` but are never reached from the entry).
pub fn immediate_postdominators(func: &Function) -> Vec<Option<BlockId>> {
    let order = func.reverse_postorder();
    let root = func.blocks.ids().find(|&b| matches!(func.block(b).term, Terminator::Return(_)) && order.contains(&b));
    let Some(root) = root else { return vec![None; func.blocks.len()] };
    let root = root.index();
    let preds = |b: usize| func.block(BlockId::new(b)).preds.iter().map(|p| p.index()).collect();
    let succs = |b: usize| func.successors(BlockId::new(b)).iter().map(|s| s.index()).collect();
    to_blocks(immediate_dominators(func.blocks.len(), root, preds, succs))
}

/// Immediate dominators of the CFG from the entry block.
pub fn immediate_forward_dominators(func: &Function) -> Vec<Option<BlockId>> {
    let preds = |b: usize| func.block(BlockId::new(b)).preds.iter().map(|p| p.index()).collect();
    let succs = |b: usize| func.successors(BlockId::new(b)).iter().map(|s| s.index()).collect();
    to_blocks(immediate_dominators(func.blocks.len(), 0, succs, preds))
}

fn to_blocks(idom: Vec<Option<usize>>) -> Vec<Option<BlockId>> {
    idom.into_iter().enumerate().map(|(b, d)| d.filter(|&d| d != b).map(BlockId::new)).collect()
}

/// Cooper, Harvey, Kennedy, "A Simple, Fast Dominance Algorithm", on a graph given by `forward`
/// (edges followed from the root) and `backward` (their reverse). Nodes not reached stay `None`; the
/// root is its own dominator.
fn immediate_dominators(
    n: usize,
    root: usize,
    forward: impl Fn(usize) -> Vec<usize>,
    backward: impl Fn(usize) -> Vec<usize>,
) -> Vec<Option<usize>> {
    let mut postorder = Vec::new();
    let mut seen = vec![false; n];
    let mut stack = vec![(root, false)];
    while let Some((b, done)) = stack.pop() {
        if done {
            postorder.push(b);
            continue;
        }
        if std::mem::replace(&mut seen[b], true) {
            continue;
        }
        stack.push((b, true));
        stack.extend(forward(b).into_iter().filter(|&s| !seen[s]).map(|s| (s, false)));
    }
    let mut index = vec![usize::MAX; n];
    postorder.iter().enumerate().for_each(|(i, &b)| index[b] = i);
    let mut idom: Vec<Option<usize>> = vec![None; n];
    idom[root] = Some(root);
    let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while index[a] < index[b] {
                a = idom[a].expect("processed");
            }
            while index[b] < index[a] {
                b = idom[b].expect("processed");
            }
        }
        a
    };
    loop {
        let mut changed = false;
        for &b in postorder.iter().rev().filter(|&&b| b != root) {
            let mut new = None;
            for p in backward(b).into_iter().filter(|&p| idom[p].is_some()) {
                new = Some(match new {
                    None => p,
                    Some(cur) => intersect(&idom, p, cur),
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
        if !changed {
            return idom;
        }
    }
}
