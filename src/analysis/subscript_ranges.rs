//! Ranges read only as subscripts (`y(1:2:end)`, `x(a:b) = v`): the evaluator keeps them as (first,
//! step, count) and builds the index list straight from them, never the range as doubles.

use crate::ir::{Function, Op, Terminator, ValueId};
use crate::primitives::{self, Prim};

/// `ranges[v]`: value `v` is a `colon` result and every read of it is a subscript of `a(...)` or of
/// `a(...) = rhs`.
pub fn subscript_ranges(func: &Function) -> Vec<bool> {
    let mut ranges = vec![false; func.value_count as usize];
    for inst in func.blocks.iter().flat_map(|b| &b.insts) {
        if let ([dest], Op::Prim(id)) = (&inst.dests[..], &inst.op) {
            ranges[dest.index()] = *id == Prim::Colon;
        }
    }
    for block in &func.blocks {
        for inst in &block.insts {
            let subscripts_from = match inst.op {
                Op::Index => 1,
                Op::IndexAssign => 2,
                _ => inst.args.len(),
            };
            inst.args[..subscripts_from].iter().for_each(|a| ranges[a.index()] = false);
        }
        block.phis.iter().flat_map(|p| &p.incoming).for_each(|(_, v)| ranges[v.index()] = false);
        let read = match &block.term {
            Terminator::Branch { cond, .. } => std::slice::from_ref(cond),
            Terminator::Return(vs) => &vs[..],
            Terminator::Jump(_) => &[],
        };
        read.iter().for_each(|v| ranges[v.index()] = false);
    }
    ranges
}

/// Whether parameter `param` of `func` is read only as the base of one-result selections `x(...)`
/// whose subscripts are ranges, `:`, `end`, constants or primitive results (never cs-lists), by
/// `end`, and by primitives without derivative (`numel`, `size`): then a compressed run serves every
/// read from the seed's colouring and needs no seed block.
pub fn read_only_by_selections(func: &Function, param: usize) -> bool {
    let insts = || func.blocks.iter().flat_map(|b| &b.insts);
    let params: Vec<ValueId> = insts().filter(|i| matches!(i.op, Op::Param(p) if p == param)).flat_map(|i| i.dests.clone()).collect();
    let mut plain = vec![false; func.value_count as usize];
    for inst in insts() {
        if let Op::Prim(_) | Op::Const(_) | Op::MagicColon | Op::End { .. } = inst.op {
            inst.dests.iter().for_each(|d| plain[d.index()] = true);
        }
    }
    let reads_param = |vs: &[ValueId]| vs.iter().any(|v| params.contains(v));
    let selections_only = insts().all(|inst| match inst.op {
        Op::Index if inst.dests.len() == 1 && params.contains(&inst.args[0]) => {
            !reads_param(&inst.args[1..]) && inst.args[1..].iter().all(|a| plain[a.index()])
        }
        Op::End { .. } => !reads_param(&inst.args[1..]),
        // `numel(x)`, `size(x)`: results without derivative never read the operands' blocks.
        Op::Prim(id) => (0..inst.dests.len()).all(|k| !primitives::output_is_differentiable(id, k)) || !reads_param(&inst.args),
        _ => !reads_param(&inst.args),
    });
    let phis = func.blocks.iter().flat_map(|b| &b.phis).flat_map(|p| &p.incoming);
    let terms = func.blocks.iter().all(|b| match &b.term {
        Terminator::Branch { cond, .. } => !params.contains(cond),
        Terminator::Return(vs) => !reads_param(vs),
        Terminator::Jump(_) => true,
    });
    selections_only && terms && !phis.into_iter().any(|(_, v)| params.contains(v))
}
