//! Liveness of SSA values, used to move instead of copy: when an instruction is the last reader of an
//! array (typically `y(i) = v` in a loop), the evaluator takes the array out of its register and updates
//! it in place, so a loop that fills an array costs O(n), not O(n^2).

use crate::ir::{BlockId, Function, Op, Terminator, ValueId};
use std::collections::HashSet;

/// Which operands may be moved out of their registers.
#[derive(Clone, Debug, Default)]
pub struct Moves {
    /// `inst_moves[block][inst][arg]`: this read is the value's last.
    inst_moves: Vec<Vec<Vec<bool>>>,
    /// `phi_moves[block][pred_position][phi]`: the incoming value may be moved into the phi.
    phi_moves: Vec<Vec<Vec<bool>>>,
    /// `live_in[block]`: the values read in or after the block that are defined before it (sorted).
    live_in: Vec<Vec<ValueId>>,
}

impl Moves {
    pub fn arg(&self, block: BlockId, inst: usize, arg: usize) -> bool {
        self.inst_moves[block.index()][inst][arg]
    }
    pub fn phi(&self, block: BlockId, pred_position: usize, phi: usize) -> bool {
        self.phi_moves[block.index()][pred_position][phi]
    }
    pub fn live_in(&self, block: BlockId) -> &[ValueId] {
        &self.live_in[block.index()]
    }
}

fn term_uses(term: &Terminator) -> Vec<ValueId> {
    match term {
        Terminator::Branch { cond, .. } => vec![*cond],
        Terminator::Return(vs) => vs.clone(),
        Terminator::Jump(_) => vec![],
    }
}

/// Values live on entry to each block (phi results excluded; values read by phis count as live at the
/// end of the predecessor they come from).
fn live_in(func: &Function) -> Vec<HashSet<ValueId>> {
    let n = func.blocks.len();
    let mut live_in: Vec<HashSet<ValueId>> = vec![HashSet::new(); n];
    let order = func.reverse_postorder();
    loop {
        let mut changed = false;
        for &b in order.iter().rev() {
            let live = live_out(func, &live_in, b);
            let block = func.block(b);
            let mut live = live;
            term_uses(&block.term).into_iter().for_each(|v| {
                live.insert(v);
            });
            for inst in block.insts.iter().rev() {
                inst.dests.iter().for_each(|d| {
                    live.remove(d);
                });
                live.extend(inst.args.iter().copied());
            }
            block.phis.iter().for_each(|p| {
                live.remove(&p.dest);
            });
            if live != live_in[b.index()] {
                live_in[b.index()] = live;
                changed = true;
            }
        }
        if !changed {
            return live_in;
        }
    }
}

fn live_out(func: &Function, live_in: &[HashSet<ValueId>], b: BlockId) -> HashSet<ValueId> {
    let mut out = HashSet::new();
    for s in func.successors(b) {
        out.extend(live_in[s.index()].iter().copied());
        for phi in &func.block(s).phis {
            out.extend(phi.incoming.iter().filter(|(from, _)| *from == b).map(|(_, v)| *v));
        }
    }
    out
}

/// Constants are never moved out: their registers keep them from one call to the next, and the
/// evaluator sets a constant already in its register without copying it again.
/// Per operand, whether the instruction reads it only once (sorted: a concatenation of a long literal
/// has thousands of operands).
fn read_once(args: &[ValueId]) -> Vec<bool> {
    let mut sorted = args.to_vec();
    sorted.sort_unstable();
    args.iter().map(|a| sorted.get(sorted.partition_point(|x| x < a) + 1) != Some(a)).collect()
}

pub fn moves(func: &Function) -> Moves {
    let live_in = live_in(func);
    let constants: HashSet<ValueId> =
        func.blocks.iter().flat_map(|b| &b.insts).filter(|i| matches!(i.op, Op::Const(_))).flat_map(|i| i.dests.iter().copied()).collect();
    let mut moves = Moves::default();
    for (bi, block) in func.blocks.iter().enumerate() {
        let b = BlockId::new(bi);
        let mut live = live_out(func, &live_in, b);
        live.extend(term_uses(&block.term));
        let mut per_inst = vec![vec![]; block.insts.len()];
        for (ii, inst) in block.insts.iter().enumerate().rev() {
            // An operand read twice by one instruction is never moved.
            per_inst[ii] =
                inst.args.iter().zip(read_once(&inst.args)).map(|(a, once)| once && !live.contains(a) && !constants.contains(a)).collect();
            inst.dests.iter().for_each(|d| {
                live.remove(d);
            });
            live.extend(inst.args.iter().copied());
        }
        moves.inst_moves.push(per_inst);
        let per_pred = block
            .preds
            .iter()
            .map(|&p| {
                let incoming: Vec<Option<ValueId>> =
                    block.phis.iter().map(|phi| phi.incoming.iter().find(|(from, _)| *from == p).map(|(_, v)| *v)).collect();
                incoming
                    .iter()
                    .map(|v| v.is_some_and(|v| !live_in[bi].contains(&v) && incoming.iter().filter(|x| **x == Some(v)).count() == 1))
                    .collect()
            })
            .collect();
        moves.phi_moves.push(per_pred);
    }
    moves.live_in = live_in
        .into_iter()
        .map(|set| {
            let mut values: Vec<ValueId> = set.into_iter().collect();
            values.sort_unstable();
            values
        })
        .collect();
    moves
}
