//! Linearity: values whose derivative block is the same on every call (for the same seed), because
//! they are linear maps with constant coefficients of x: `A*x`, `x(2:end) - x(1:end-1)`, `sum(x)`.
//! Their forward rules run once per plan and seed; later calls reuse the block.

use super::Activity;
use crate::ir::{Function, Op, ValueId};
use crate::primitives::{self, Linearity};

/// `true` for every value of `func` (the entry function, argument `wrt` differentiated) whose
/// derivative does not depend on the arguments' values.
pub fn constant_derivatives(func: &Function, activity: &Activity, wrt: usize) -> Vec<bool> {
    let mut constant = vec![false; func.value_count as usize];
    let mut is_const = vec![false; func.value_count as usize];
    for b in func.reverse_postorder() {
        for inst in &func.block(b).insts {
            if let Op::Const(_) | Op::MagicColon = inst.op {
                inst.dests.iter().for_each(|d| is_const[d.index()] = true);
                continue;
            }
            let kind = |v: &ValueId| match (constant[v.index()], is_const[v.index()]) {
                (true, _) => Operand::Linear,
                (_, true) => Operand::Constant,
                _ => Operand::Varying,
            };
            let operands: Vec<Operand> = inst.args.iter().map(kind).collect();
            let linear = match &inst.op {
                Op::Param(i) => *i == wrt,
                Op::Prim(id) => linear_in(primitives::linearity(*id), &operands),
                Op::Index => operands[0] == Operand::Linear && operands[1..].iter().all(|o| *o == Operand::Constant),
                Op::IndexAssign => {
                    operands[2..].iter().all(|o| *o == Operand::Constant)
                        && operands[..2].iter().all(|o| *o != Operand::Varying)
                        && operands[..2].contains(&Operand::Linear)
                }
                _ => false,
            };
            if linear && inst.dests.first().is_some_and(|d| activity.is_active(*d)) {
                constant[inst.dests[0].index()] = true;
            }
        }
    }
    constant
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Operand {
    /// Active, with a derivative that is the same on every call.
    Linear,
    /// A constant of the prepared code.
    Constant,
    Varying,
}

fn linear_in(class: Linearity, operands: &[Operand]) -> bool {
    let linear = operands.iter().filter(|o| **o == Operand::Linear).count();
    let constant = operands.iter().filter(|o| **o == Operand::Constant).count();
    match class {
        Linearity::Additive => linear >= 1 && linear + constant == operands.len(),
        Linearity::Bilinear => linear == 1 && linear + constant == operands.len(),
        Linearity::Numerator => operands.first() == Some(&Operand::Linear) && constant == operands.len() - 1,
        Linearity::Denominator => operands.get(1) == Some(&Operand::Linear) && constant == operands.len() - 1,
        Linearity::PiecewiseLinear | Linearity::Nonlinear => false,
    }
}
