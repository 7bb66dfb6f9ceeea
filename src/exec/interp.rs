//! Evaluator of prepared SSA code: runs the primal computation and, for active values, the forward rules,
//! so every value carries its derivative block alongside.

use super::deriv::Deriv;
use super::index::{Subscript, assign, end_value, index};
use super::primitives::{self, Forward};
use super::value::Value;
use crate::analysis::{Activity, Moves};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::ir::{BlockId, FuncId, Function, Inst, Op, Program, Terminator, ValueId};

/// A value with its derivative block.
#[derive(Clone, Debug)]
pub struct Slot {
    pub value: Value,
    pub deriv: Deriv,
}

impl Slot {
    pub fn inactive(value: Value) -> Slot {
        Slot { value, deriv: Deriv::Zero }
    }
}

#[derive(Clone, Debug)]
enum Reg {
    Unset,
    Undefined(String),
    Colon,
    Val(Slot),
}

const MAX_CALL_DEPTH: usize = 256;

/// Per-function facts the evaluator relies on, indexed by `FuncId`.
pub struct Plan<'p> {
    pub program: &'p Program,
    pub activity: &'p [Activity],
    pub moves: &'p [Moves],
}

pub struct Interpreter<'p> {
    plan: Plan<'p>,
    depth: usize,
}

impl<'p> Interpreter<'p> {
    pub fn new(plan: Plan<'p>) -> Interpreter<'p> {
        Interpreter { plan, depth: 0 }
    }

    /// Calls function `id` with `args`, returning its first `nargout` results.
    pub fn call(&mut self, id: FuncId, args: Vec<Slot>, nargout: usize) -> Result<Vec<Slot>> {
        let func = self.plan.program.function(id);
        if args.len() > func.params.len() {
            return Err(Diagnostic::new(ErrorKind::Runtime, format!("{}: function called with too many inputs", func.name))
                .at(&func.file, func.span));
        }
        if nargout > func.outputs.len() {
            return Err(Diagnostic::new(ErrorKind::Runtime, format!("{}: function called with too many outputs", func.name))
                .at(&func.file, func.span));
        }
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Diagnostic::new(ErrorKind::Runtime, "max_recursion_depth exceeded").at(&func.file, func.span));
        }
        self.depth += 1;
        let result = self.run(id, func, args, nargout);
        self.depth -= 1;
        result
    }

    fn run(&mut self, id: FuncId, func: &Function, args: Vec<Slot>, nargout: usize) -> Result<Vec<Slot>> {
        let (activity, moves) = (&self.plan.activity[id.0 as usize], &self.plan.moves[id.0 as usize]);
        let mut regs = vec![Reg::Unset; func.value_count as usize];
        let mut args: Vec<Option<Slot>> = args.into_iter().map(Some).collect();
        let (mut block, mut pred) = (BlockId(0), None::<BlockId>);
        loop {
            let b = func.block(block);
            if let Some(p) = pred {
                let position = b.preds.iter().position(|q| *q == p).expect("edge from a predecessor");
                let incoming: Vec<Reg> = b
                    .phis
                    .iter()
                    .enumerate()
                    .map(|(k, phi)| {
                        let (_, v) = phi.incoming.iter().find(|(from, _)| *from == p).expect("phi covers every predecessor");
                        take_or_clone(&mut regs, *v, moves.phi(block, position, k))
                    })
                    .collect();
                for (phi, r) in b.phis.iter().zip(incoming) {
                    regs[phi.dest.0 as usize] = r;
                }
            }
            for (k, inst) in b.insts.iter().enumerate() {
                let movable = |arg: usize| moves.arg(block, k, arg);
                self.exec(func, activity, inst, &movable, &mut regs, &mut args)
                    .map_err(|d| d.at(&func.file, inst.span))?;
            }
            match &b.term {
                Terminator::Jump(to) => (pred, block) = (Some(block), *to),
                Terminator::Branch { cond, then_block, else_block } => {
                    let taken = match &regs[cond.0 as usize] {
                        Reg::Val(Slot { value: Value::Logical(a), .. }) => a.data[0],
                        _ => unreachable!("branch conditions are logical scalars from 'truth'"),
                    };
                    (pred, block) = (Some(block), if taken { *then_block } else { *else_block });
                }
                Terminator::Return(outputs) => {
                    return outputs
                        .iter()
                        .take(nargout)
                        .zip(&func.outputs)
                        .map(|(v, name)| match std::mem::replace(&mut regs[v.0 as usize], Reg::Unset) {
                            Reg::Val(s) => Ok(s),
                            _ => Err(Diagnostic::new(
                                ErrorKind::Runtime,
                                format!("{}: some elements undefined in return list: '{name}' is not set", func.name),
                            )
                            .at(&func.file, func.span)),
                        })
                        .collect();
                }
            }
        }
    }

    fn exec(
        &mut self,
        func: &Function,
        activity: &Activity,
        inst: &Inst,
        movable: &dyn Fn(usize) -> bool,
        regs: &mut [Reg],
        args: &mut [Option<Slot>],
    ) -> Result<()> {
        let set = |regs: &mut [Reg], v: ValueId, r: Reg| regs[v.0 as usize] = r;
        match &inst.op {
            Op::Const(v) => set(regs, inst.dests[0], Reg::Val(Slot::inactive(v.clone()))),
            Op::Param(i) => {
                let r = match args.get_mut(*i).and_then(Option::take) {
                    Some(s) => Reg::Val(s),
                    None => Reg::Undefined(func.params[*i].clone()),
                };
                set(regs, inst.dests[0], r);
            }
            Op::Undefined(name) => set(regs, inst.dests[0], Reg::Undefined(name.clone())),
            Op::MagicColon => set(regs, inst.dests[0], Reg::Colon),
            Op::Prim(id) => {
                let operands = slots(regs, &inst.args)?;
                let values: Vec<&Value> = operands.iter().map(|s| &s.value).collect();
                let results = primitives::eval(*id, &values, inst.dests.len())?;
                let derivs: Vec<&Deriv> = operands.iter().map(|s| &s.deriv).collect();
                let first_active = inst.dests.first().is_some_and(|d| activity.is_active(*d));
                let deriv = if first_active && derivs.iter().any(|d| !d.is_zero()) {
                    primitives::forward(*id, &Forward { inputs: &values, derivs: &derivs, output: &results[0] })?
                } else {
                    Deriv::Zero
                };
                let mut derivs = std::iter::once(deriv).chain(std::iter::repeat(Deriv::Zero));
                for (d, value) in inst.dests.iter().zip(results) {
                    set(regs, *d, Reg::Val(Slot { value, deriv: derivs.next().expect("endless") }));
                }
            }
            Op::Call(id) => {
                let operands = (0..inst.args.len())
                    .map(|k| into_slot(take_or_clone(regs, inst.args[k], movable(k))))
                    .collect::<Result<Vec<_>>>()?;
                let results = self.call(*id, operands, inst.dests.len())?;
                for (d, s) in inst.dests.iter().zip(results) {
                    set(regs, *d, Reg::Val(s));
                }
            }
            Op::Index => {
                let base = slot(regs, inst.args[0])?;
                let subs = subscripts(regs, &inst.args[1..])?;
                let (value, deriv) = index(&base.value, &base.deriv, &subs)?;
                set(regs, inst.dests[0], Reg::Val(Slot { value, deriv }));
            }
            Op::IndexAssign => {
                let base = match take_or_clone(regs, inst.args[0], movable(0)) {
                    Reg::Val(s) => Some((s.value, s.deriv)),
                    _ => None,
                };
                let rhs = slot(regs, inst.args[1])?;
                let subs = subscripts(regs, &inst.args[2..])?;
                let (value, deriv) = assign(base, &rhs.value, &rhs.deriv, &subs)?;
                set(regs, inst.dests[0], Reg::Val(Slot { value, deriv }));
            }
            Op::End { position, count } => {
                let base = slot(regs, inst.args[0])?;
                let n = end_value(&base.value.dims(), *position, *count);
                set(regs, inst.dests[0], Reg::Val(Slot::inactive(Value::scalar(n as f64))));
            }
        }
        Ok(())
    }
}

/// The register's content, moved out when this is its last read.
fn take_or_clone(regs: &mut [Reg], v: ValueId, last_use: bool) -> Reg {
    let r = &mut regs[v.0 as usize];
    if last_use { std::mem::replace(r, Reg::Unset) } else { r.clone() }
}

fn slot(regs: &[Reg], v: ValueId) -> Result<&Slot> {
    match &regs[v.0 as usize] {
        Reg::Val(s) => Ok(s),
        other => Err(not_a_value(other)),
    }
}

fn into_slot(reg: Reg) -> Result<Slot> {
    match reg {
        Reg::Val(s) => Ok(s),
        other => Err(not_a_value(&other)),
    }
}

fn not_a_value(reg: &Reg) -> Diagnostic {
    match reg {
        Reg::Undefined(name) => Diagnostic::new(ErrorKind::Undefined, format!("'{name}' undefined")),
        Reg::Colon => Diagnostic::new(ErrorKind::Runtime, "':' is only valid as an index"),
        Reg::Val(_) | Reg::Unset => unreachable!("SSA value read before its definition"),
    }
}

fn slots<'r>(regs: &'r [Reg], vs: &[ValueId]) -> Result<Vec<&'r Slot>> {
    vs.iter().map(|&v| slot(regs, v)).collect()
}

fn subscripts(regs: &[Reg], vs: &[ValueId]) -> Result<Vec<Subscript>> {
    vs.iter()
        .map(|&v| match &regs[v.0 as usize] {
            Reg::Colon => Ok(Subscript::All),
            _ => Subscript::from_value(&slot(regs, v)?.value),
        })
        .collect()
}
