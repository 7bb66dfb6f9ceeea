//! The IR's invariants, checked after lowering and after every pass in debug builds (and in tests,
//! which turn the checks on with `check_always`): block references in range, predecessor lists that
//! match the edges, one phi input per predecessor in the same order, each value defined once and
//! before every use on every path (dominance), and the operand counts of the fixed-arity operations.

use super::immediate_forward_dominators;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::ir::{BlockId, Function, Op, Program, Terminator, ValueId};
use std::sync::atomic::{AtomicBool, Ordering};

static ALWAYS: AtomicBool = AtomicBool::new(false);

/// Checks every program from now on, in release builds too (the test suites' hook).
pub fn check_always() {
    ALWAYS.store(true, Ordering::Relaxed);
}

/// `verify` of every function in debug builds (or after `check_always`); an internal error naming
/// the pass that broke an invariant.
pub fn after_pass(program: &Program, pass: &str) -> Result<()> {
    if !cfg!(debug_assertions) && !ALWAYS.load(Ordering::Relaxed) {
        return Ok(());
    }
    for func in &program.functions {
        verify(func)
            .map_err(|problem| Diagnostic::new(ErrorKind::Internal, format!("invalid IR after {pass} in '{}': {problem}", func.name)))?;
    }
    Ok(())
}

/// The first broken invariant of `func`, if any.
pub fn verify(func: &Function) -> std::result::Result<(), String> {
    check_block_references(func)?;
    check_predecessors(func)?;
    let defined_in = definitions(func)?;
    check_operand_counts(func)?;
    check_dominance(func, &defined_in)
}

fn check_block_references(func: &Function) -> std::result::Result<(), String> {
    let n = func.blocks.len();
    for (b, block) in func.blocks.iter().enumerate() {
        let targets = func.successors(BlockId::new(b)).into_iter().chain(block.preds.iter().copied());
        let incoming = block.phis.iter().flat_map(|phi| phi.incoming.iter().map(|(p, _)| *p));
        if let Some(bad) = targets.chain(incoming).find(|t| t.index() >= n) {
            return Err(format!("block b{b} refers to b{}, of {n} blocks", bad.index()));
        }
    }
    Ok(())
}

/// Each block's predecessor list holds each edge into it once (a branch to one block twice is two
/// edges), and each phi takes one input per predecessor, in their order.
fn check_predecessors(func: &Function) -> std::result::Result<(), String> {
    let mut edges = vec![Vec::new(); func.blocks.len()];
    for b in 0..func.blocks.len() {
        for s in func.successors(BlockId::new(b)) {
            edges[s.index()].push(BlockId::new(b));
        }
    }
    for (b, block) in func.blocks.iter().enumerate() {
        let (mut listed, mut actual) = (block.preds.clone(), std::mem::take(&mut edges[b]));
        listed.sort_unstable();
        actual.sort_unstable();
        if listed != actual {
            return Err(format!("block b{b} lists predecessors {listed:?}, its edges come from {actual:?}"));
        }
        for phi in &block.phis {
            let from: Vec<BlockId> = phi.incoming.iter().map(|(p, _)| *p).collect();
            if from != block.preds {
                return Err(format!(
                    "phi v{} in b{b} has inputs from {from:?}, the block's predecessors are {:?}",
                    phi.dest.index(),
                    block.preds
                ));
            }
        }
    }
    Ok(())
}

/// Where each value is defined: (block, position), phis at position 0 and instruction k at k + 1.
fn definitions(func: &Function) -> std::result::Result<Vec<Option<(usize, usize)>>, String> {
    let mut defined_in = vec![None; func.value_count as usize];
    let mut define = |v: ValueId, at: (usize, usize)| match defined_in.get_mut(v.index()) {
        None => Err(format!("v{} is out of range ({} values)", v.index(), func.value_count)),
        Some(Some(_)) => Err(format!("v{} is defined twice", v.index())),
        Some(slot) => {
            *slot = Some(at);
            Ok(())
        }
    };
    for (b, block) in func.blocks.iter().enumerate() {
        for phi in &block.phis {
            define(phi.dest, (b, 0))?;
        }
        for (k, inst) in block.insts.iter().enumerate() {
            inst.dests.iter().try_for_each(|&d| define(d, (b, k + 1)))?;
        }
    }
    Ok(defined_in)
}

/// Operations with a fixed number of operands and results.
fn check_operand_counts(func: &Function) -> std::result::Result<(), String> {
    for (b, block) in func.blocks.iter().enumerate() {
        for inst in &block.insts {
            let (min_args, max_args, dests) = match inst.op {
                Op::Const(_) | Op::Param(_) | Op::MagicColon | Op::Nargin | Op::Nargout | Op::CaughtError => (0, 0, Some(1)),
                Op::Field { .. } | Op::CellIndex { .. } | Op::Index | Op::FieldAssign(_) | Op::CellAssign | Op::IndexAssign => {
                    (1, usize::MAX, None)
                }
                _ => (0, usize::MAX, None),
            };
            let arity_ok = (min_args..=max_args).contains(&inst.args.len());
            if !arity_ok || dests.is_some_and(|d| d != inst.dests.len()) {
                return Err(format!("{:?} in b{b} has {} operands and {} results", inst.op, inst.args.len(), inst.dests.len()));
            }
        }
    }
    Ok(())
}

/// Every use in a block reached from the entry is defined earlier in its block or in a dominating
/// block; a phi's input, by the end of the predecessor it comes from.
fn check_dominance(func: &Function, defined_in: &[Option<(usize, usize)>]) -> std::result::Result<(), String> {
    let idom = immediate_forward_dominators(func);
    let reached: Vec<bool> = {
        let mut reached = vec![false; func.blocks.len()];
        func.reverse_postorder().into_iter().for_each(|b| reached[b.index()] = true);
        reached
    };
    let dominates = |a: usize, mut b: usize| loop {
        if a == b {
            return true;
        }
        match idom[b] {
            Some(d) => b = d.index(),
            None => return false,
        }
    };
    // `at`: the block and position of the use (usize::MAX: the end of the block).
    let available = |v: ValueId, (b, position): (usize, usize)| match defined_in.get(v.index()).copied().flatten() {
        None => Err(format!("v{} is used in b{b} but never defined", v.index())),
        Some((d, k)) if (d == b && k < position) || (d != b && dominates(d, b)) => Ok(()),
        Some((d, _)) => Err(format!("v{} is used in b{b} where its definition in b{d} does not dominate the use", v.index())),
    };
    for (b, block) in func.blocks.iter().enumerate().filter(|(b, _)| reached[*b]) {
        for phi in &block.phis {
            for &(pred, v) in phi.incoming.iter().filter(|(p, _)| reached[p.index()]) {
                available(v, (pred.index(), usize::MAX))?;
            }
        }
        for (k, inst) in block.insts.iter().enumerate() {
            inst.args.iter().try_for_each(|&v| available(v, (b, k + 1)))?;
        }
        let used = match &block.term {
            Terminator::Branch { cond, .. } => vec![*cond],
            Terminator::Return(values) => values.clone(),
            Terminator::Jump(_) => vec![],
        };
        used.into_iter().try_for_each(|v| available(v, (b, usize::MAX)))?;
    }
    Ok(())
}
