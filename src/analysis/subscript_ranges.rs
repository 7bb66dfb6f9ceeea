//! Ranges read only as subscripts (`y(1:2:end)`, `x(a:b) = v`): the evaluator keeps them as (first,
//! step, count) and builds the index list straight from them, never the range as doubles.

use crate::exec::primitives;
use crate::ir::{Function, Op, Terminator};

/// `ranges[v]`: value `v` is a `colon` result and every read of it is a subscript of `a(...)` or of
/// `a(...) = rhs`.
pub fn subscript_ranges(func: &Function) -> Vec<bool> {
    let colon = primitives::lookup("colon");
    let mut ranges = vec![false; func.value_count as usize];
    for inst in func.blocks.iter().flat_map(|b| &b.insts) {
        if let ([dest], Op::Prim(id)) = (&inst.dests[..], &inst.op) {
            ranges[dest.0 as usize] = Some(*id) == colon;
        }
    }
    for block in &func.blocks {
        for inst in &block.insts {
            let subscripts_from = match inst.op {
                Op::Index => 1,
                Op::IndexAssign => 2,
                _ => inst.args.len(),
            };
            inst.args[..subscripts_from].iter().for_each(|a| ranges[a.0 as usize] = false);
        }
        block.phis.iter().flat_map(|p| &p.incoming).for_each(|(_, v)| ranges[v.0 as usize] = false);
        let read = match &block.term {
            Terminator::Branch { cond, .. } => std::slice::from_ref(cond),
            Terminator::Return(vs) => &vs[..],
            Terminator::Jump(_) => &[],
        };
        read.iter().for_each(|v| ranges[v.0 as usize] = false);
    }
    ranges
}
