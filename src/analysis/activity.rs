//! Dependence and activity. A value depends on x when it may vary with the differentiated argument (any
//! operation of a dependent operand); it is active when it may also carry a non-zero derivative (the
//! operation is differentiable). Computed for the whole program at once: a callee's parameter is
//! active when some call site passes an active argument, and a call's results are active when the callee
//! can return an active value; likewise for dependence.

use super::two_sided_joins;
use crate::ir::{Callee, FuncId, Function, Op, Program, SharedVar, Terminator, ValueId};
use crate::primitives;
use crate::value::{FunctionHandle, Value};
use std::collections::HashSet;

#[derive(Clone, Debug, Default)]
pub struct Activity {
    active: Vec<bool>,
    depends: Vec<bool>,
    varies: Vec<bool>,
}

impl Activity {
    pub fn is_active(&self, v: ValueId) -> bool {
        self.active[v.index()]
    }
    /// Whether the value may vary with x (branch conditions that do make the control path x-dependent).
    pub fn depends_on_x(&self, v: ValueId) -> bool {
        self.depends[v.index()]
    }
    /// Whether the value may differ between calls of a prepared plan: it depends on any argument (x or
    /// another), through operations or through the side taken at a branch that does. A sparsity
    /// pattern decided by such a value (a subscript, a mask, a size) holds only while it is the same.
    pub fn varies(&self, v: ValueId) -> bool {
        self.varies[v.index()]
    }
    pub fn count(&self) -> usize {
        self.active.iter().filter(|a| **a).count()
    }
}

/// Activity and dependence of every value of every function when argument `wrt` of the entry is x.
/// `first_output_only`: only the entry's first output is differentiated (false when the entry calls
/// itself, and a call may need another output's derivative): an entry's value that output cannot be
/// computed from is not active (no derivative, nothing recorded on a tape).
pub fn activity(program: &Program, wrt: usize, first_output_only: bool) -> Vec<Activity> {
    let unforced = no_forced_phis(program);
    let mut active = propagate(program, &[wrt], &unforced, Reach::Derivatives);
    let depends = propagate(program, &[wrt], &unforced, Reach::Values);
    let varies = varying(program);
    if first_output_only {
        let needed = first_output_inputs(&program.functions[FuncId::ENTRY]);
        active[0].iter_mut().zip(needed).for_each(|(a, needed)| *a &= needed);
    }
    let per_function = active.into_iter().zip(depends).zip(varies);
    per_function.map(|((active, depends), varies)| Activity { active, depends, varies }).collect()
}

fn no_forced_phis(program: &Program) -> Vec<Vec<bool>> {
    program.functions.iter().map(|f| vec![false; f.value_count as usize]).collect()
}

/// Values depending on any argument of the entry, also through control: the phis at the join of a
/// branch whose condition varies vary.
fn varying(program: &Program) -> Vec<Vec<bool>> {
    let every_argument: Vec<usize> = (0..program.functions[FuncId::ENTRY].params.len()).collect();
    let joins: Vec<_> = program.functions.iter().map(two_sided_joins).collect();
    let mut forced = no_forced_phis(program);
    loop {
        let varies = propagate(program, &every_argument, &forced, Reach::Selections);
        let mut changed = false;
        for (fi, func) in program.functions.iter().enumerate() {
            for (b, block) in func.blocks.iter().enumerate() {
                let (Terminator::Branch { cond, .. }, Some(join)) = (&block.term, joins[fi][b]) else { continue };
                if !varies[fi][cond.index()] {
                    continue;
                }
                for phi in &func.block(join).phis {
                    changed |= !std::mem::replace(&mut forced[fi][phi.dest.index()], true);
                }
            }
        }
        if !changed {
            return varies;
        }
    }
}

/// The values a function's first output is computed from, through any instruction (an over-estimate
/// of the values its derivative needs) but not through branch conditions: values computed for the
/// other outputs or for tests only are not.
fn first_output_inputs(func: &Function) -> Vec<bool> {
    let mut needed = vec![false; func.value_count as usize];
    let mut changed = true;
    while changed {
        changed = false;
        let mut mark = |needed: &mut Vec<bool>, v: ValueId| {
            changed |= !std::mem::replace(&mut needed[v.index()], true);
        };
        for block in func.blocks.iter().rev() {
            if let Terminator::Return(outputs) = &block.term {
                outputs.first().into_iter().for_each(|&v| mark(&mut needed, v));
            }
            for inst in block.insts.iter().rev() {
                if inst.dests.iter().any(|d| needed[d.index()]) {
                    inst.args.iter().for_each(|&v| mark(&mut needed, v));
                }
            }
            for phi in &block.phis {
                if needed[phi.dest.index()] {
                    phi.incoming.iter().for_each(|&(_, v)| mark(&mut needed, v));
                }
            }
        }
    }
    needed
}

/// Functions some handle refers to (one made by the code, or one from the host held in a constant).
/// Calls through handles are not followed: every input of these may be active, and a handle call's
/// results are active when any of its arguments (the handle, which holds the captured values,
/// included) is.
fn handle_targets(program: &Program) -> Vec<usize> {
    let mut targets = vec![];
    for inst in program.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.insts) {
        match &inst.op {
            Op::MakeHandle { target: Callee::User(id), .. } => targets.push(id.index()),
            Op::Const(value) => constant_handle_targets(value, &mut targets),
            _ => {}
        }
    }
    targets
}

fn constant_handle_targets(value: &Value, out: &mut Vec<usize>) {
    match value {
        Value::Handle(h) => {
            if let FunctionHandle::Compiled { target, captured, .. } = &**h {
                if let Callee::User(id) = target {
                    out.push(id.index());
                }
                captured.iter().for_each(|v| constant_handle_targets(v, out));
            }
        }
        Value::Cell(a) => a.data.iter().for_each(|v| constant_handle_targets(v, out)),
        Value::Struct(s) => s.elements.iter().flatten().for_each(|v| constant_handle_targets(v, out)),
        _ => {}
    }
}

/// What a closure follows.
#[derive(Clone, Copy, PartialEq)]
enum Reach {
    /// Non-zero derivatives: it stops at operations whose result has a zero derivative.
    Derivatives,
    /// Values.
    Values,
    /// Values that may change between calls of a plan with a given control record: as `Values`, but
    /// not through `end`, which reads only a shape (fixed by the plan's signature, or decided by a
    /// subscript or control decision the record holds).
    Selections,
}

/// Forward closure from the entry's arguments `from` and the `forced` phis, as far as `reach` says.
fn propagate(program: &Program, from: &[usize], forced: &[Vec<bool>], reach: Reach) -> Vec<Vec<bool>> {
    let through_derivatives = reach == Reach::Derivatives;
    let mut acts: Vec<Vec<bool>> = program.functions.iter().map(|f| vec![false; f.value_count as usize]).collect();
    let mut active_params: Vec<Vec<bool>> = program.functions.iter().map(|f| vec![false; f.params.len()]).collect();
    for &argument in from {
        if let Some(p) = active_params[0].get_mut(argument) {
            *p = true;
        }
    }
    for target in handle_targets(program) {
        active_params[target].iter_mut().for_each(|p| *p = true);
    }
    let mut active_results: Vec<bool> = vec![false; program.functions.len()];
    // `global` and `persistent` variables some store reaches (with `Selections`, every one: they may
    // change between calls).
    let mut reached_shared: HashSet<&SharedVar> = HashSet::new();
    let lists: Vec<_> = program.functions.iter().map(Function::spread_lists).collect();
    loop {
        let mut changed = false;
        for (fi, func) in program.functions.iter().enumerate() {
            let act = &mut acts[fi];
            let mark = |v: ValueId, on: bool, act: &mut Vec<bool>| {
                if on && !act[v.index()] {
                    act[v.index()] = true;
                    true
                } else {
                    false
                }
            };
            for block in &func.blocks {
                for phi in &block.phis {
                    let on = forced[fi][phi.dest.index()] || phi.incoming.iter().any(|(_, v)| act[v.index()]);
                    changed |= mark(phi.dest, on, act);
                }
                for inst in &block.insts {
                    let any_arg = inst.args.iter().any(|a| act[a.index()]);
                    let on = match &inst.op {
                        Op::Param(i) => active_params[fi][*i],
                        Op::Prim(_) => any_arg,
                        // Only the indexed array and the assigned value carry derivatives; a function handle's
                        // call `f(x)` (also an index) passes every argument's.
                        Op::IndexAssign if through_derivatives => act[inst.args[0].index()] || act[inst.args[1].index()],
                        Op::Index | Op::IndexAssign => any_arg,
                        // Called code is reached through handles the analysis cannot follow: see `handle_targets`.
                        Op::MakeHandle { .. } | Op::Apply(_) => any_arg,
                        // Containers carry their parts' derivatives; indices never do.
                        Op::Field { .. } | Op::CellIndex { .. } | Op::Element if through_derivatives => act[inst.args[0].index()],
                        Op::FieldAssign(_) | Op::CellAssign | Op::ElementAssign if through_derivatives => {
                            act[inst.args[0].index()] || act[inst.args[1].index()]
                        }
                        Op::Field { .. } | Op::CellIndex { .. } | Op::FieldAssign(_) | Op::CellAssign => any_arg,
                        Op::Element | Op::ElementAssign => any_arg,
                        Op::CellLiteral { .. } => any_arg,
                        Op::Nargin | Op::Nargout | Op::Fail(_) | Op::Timer(_) => false,
                        // The error's message may quote values of x: taken as x-dependent, never active.
                        Op::CaughtError | Op::LastError => !through_derivatives,
                        Op::Warning | Op::LastWarning | Op::Output(_) => false,
                        Op::DeclareShared(var) | Op::StoreShared(var) => {
                            changed |= any_arg && reached_shared.insert(var);
                            false
                        }
                        Op::LoadShared(var) => reach == Reach::Selections || reached_shared.contains(var),
                        Op::TargetCount { .. } => false,
                        Op::ListPart { .. } => act[inst.args[0].index()],
                        Op::ListAssign { .. } if through_derivatives => act[inst.args[0].index()] || act[inst.args[1].index()],
                        Op::ListAssign { .. } => any_arg,
                        Op::Outputs(inner) => match **inner {
                            Op::Call(callee) => {
                                let params = &mut active_params[callee.index()];
                                if any_arg && params.iter().any(|p| !p) {
                                    params.iter_mut().for_each(|p| *p = true);
                                    changed = true;
                                }
                                active_results[callee.index()]
                            }
                            _ => any_arg,
                        },
                        Op::Call(callee) => {
                            let varargin = program.function(*callee).params.last().is_some_and(|p| p == "varargin");
                            let spread_from = inst.args.iter().position(|a| lists[fi].contains(a));
                            let params = &mut active_params[callee.index()];
                            let last = params.len().saturating_sub(1);
                            for (k, _) in inst.args.iter().enumerate().filter(|(_, a)| act[a.index()]) {
                                // After a cs-list, an argument may land at any later parameter; varargin
                                // takes every argument from its position on.
                                let reach = match spread_from {
                                    Some(s) if k >= s => s.min(last)..params.len(),
                                    _ => k..k + 1,
                                };
                                for p in reach.map(|p| if varargin { p.min(last) } else { p }) {
                                    if p < params.len() && !params[p] {
                                        params[p] = true;
                                        changed = true;
                                    }
                                }
                            }
                            active_results[callee.index()]
                        }
                        Op::End { .. } => reach == Reach::Values && any_arg,
                        Op::Const(_) | Op::Undefined(_) | Op::MagicColon => false,
                    };
                    // A primitive's results are active one by one: find's indices never are, its values are.
                    for (k, d) in inst.dests.iter().enumerate() {
                        let differentiable = match &inst.op {
                            Op::Prim(id) if through_derivatives => primitives::output_is_differentiable(*id, k),
                            _ => true,
                        };
                        changed |= mark(*d, on && differentiable, act);
                    }
                }
                if let Terminator::Return(outs) = &block.term
                    && outs.iter().any(|v| act[v.index()])
                    && !active_results[fi]
                {
                    active_results[fi] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return acts;
        }
    }
}
