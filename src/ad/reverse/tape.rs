//! The tape: one step per operation whose operands depend on x, holding only what its reverse rule
//! reads (a primitive's operand and result values; index lists for indexing, no values at all). For
//! Hessians, a primitive's step also keeps the tangents of the operands its second-order term reads.
//! Gradient tapes record scalar code compactly (`Scalar`, `Element`): loop code runs one scalar
//! operation per step, and a general step's cloned values would cost more than the arithmetic.

use crate::diag::Result;
use crate::exec::index::{Subscript, assign_plan, gather_plan, resize_map};
use crate::exec::interp::Slot;
use crate::exec::deriv::Deriv;
use crate::exec::primitives::second_order::{SecondOrder, second_order};
use crate::exec::primitives::{self, PrimId};
use crate::exec::value::Value;

/// A value on the tape (each is defined by one step, or is the input x).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TapeVar(pub(super) u32);

impl TapeVar {
    pub(super) fn index(self) -> usize {
        self.0 as usize
    }
}

/// A step of the tape. The large ones are boxed: a scalar loop records millions of small steps.
pub(super) enum Step {
    Prim(Box<PrimStep>),
    /// `out = f(operands)` on real scalars, with `df/d operand` computed by the primal run (gradient
    /// tapes only: it has no second-order term).
    Scalar { operands: [Option<(TapeVar, f64)>; 2], out: TapeVar },
    /// `out = base(position)`, one element (linear index).
    Element { base: TapeVar, position: usize, out: TapeVar },
    /// `out = base(positions)` (linear indices).
    Gather { base: TapeVar, positions: Vec<usize>, out: TapeVar },
    /// `out = base; out(targets) = rhs`, the base's elements moved to `relocation` when it grew.
    Assign(Box<AssignStep>),
}

impl Step {
    /// Heap bytes beyond the step itself.
    fn bytes(&self) -> usize {
        match self {
            Step::Prim(step) => {
                let values: usize = step.inputs.iter().chain([&step.output]).map(value_bytes).sum();
                let tangents: usize = step.tangents.iter().map(deriv_bytes).sum();
                size_of::<PrimStep>() + values + tangents + step.vars.capacity() * size_of::<Option<TapeVar>>()
            }
            Step::Scalar { .. } | Step::Element { .. } => 0,
            Step::Gather { positions, .. } => positions.capacity() * size_of::<usize>(),
            Step::Assign(step) => {
                let relocation = step.relocation.as_ref().map_or(0, Vec::capacity);
                size_of::<AssignStep>() + (step.targets.capacity() + relocation) * size_of::<usize>()
            }
        }
    }
}

fn value_bytes(value: &Value) -> usize {
    let elements = match value {
        Value::Double(a) | Value::Int(_, a) => a.data.len() * size_of::<f64>(),
        Value::Logical(a) => a.data.len(),
        Value::Char(a) => a.data.len() * size_of::<u16>(),
        Value::Sparse(s) => s.values.len() * (size_of::<f64>() + size_of::<usize>()) + s.colptr.len() * size_of::<usize>(),
        Value::Cell(a) => a.data.iter().map(|v| size_of::<Value>() + value_bytes(v)).sum(),
        Value::Struct(_) | Value::Handle(_) => 0,
    };
    elements + value.dims().len() * size_of::<usize>()
}

fn deriv_bytes(deriv: &Deriv) -> usize {
    match deriv {
        Deriv::Zero => 0,
        Deriv::Dense(d) => d.data.len() * size_of::<f64>(),
        Deriv::Sparse(s) => (s.ptr.len() + s.cols.len()) * size_of::<usize>() + s.vals.len() * size_of::<f64>(),
        Deriv::Parts(parts) => parts.iter().map(|p| size_of::<Deriv>() + deriv_bytes(p)).sum(),
    }
}

pub(super) struct PrimStep {
    pub(super) id: PrimId,
    pub(super) inputs: Vec<Value>,
    pub(super) vars: Vec<Option<TapeVar>>,
    pub(super) output: Value,
    pub(super) out: TapeVar,
    /// Hessian tapes: the second-order term, and the operands' tangents when it reads them.
    pub(super) second: SecondOrder,
    pub(super) tangents: Vec<Deriv>,
}

pub(super) struct AssignStep {
    pub(super) base: Option<TapeVar>,
    pub(super) relocation: Option<Vec<usize>>,
    pub(super) rhs: Option<TapeVar>,
    pub(super) rhs_is_scalar: bool,
    pub(super) targets: Vec<usize>,
    pub(super) out: TapeVar,
}

#[derive(Default)]
pub struct Tape {
    pub(super) steps: Vec<Step>,
    /// Number of elements of each variable.
    pub(super) sizes: Vec<usize>,
    /// Records second-order terms: every primitive on the tape must have a second-order rule.
    pub(super) second_order: bool,
    /// Keeps the operands' tangents where second-order terms read them (the run carries tangents).
    pub(super) keep_tangents: bool,
}

impl Tape {
    /// A tape for Hessian-vector products: the run carries tangent directions.
    pub fn for_hessian() -> Tape {
        Tape { second_order: true, keep_tangents: true, ..Tape::default() }
    }

    /// A tape for the Hessian's sparsity (second-order terms, no tangents).
    pub fn for_hessian_pattern() -> Tape {
        Tape { second_order: true, ..Tape::default() }
    }

    /// Heap bytes the tape holds: its steps with their values, tangents and index lists, and the
    /// variables' sizes (what reverse mode keeps alive between the primal run and the sweep).
    pub fn bytes(&self) -> usize {
        let steps: usize = self.steps.iter().map(Step::bytes).sum();
        steps + self.steps.capacity() * size_of::<Step>() + self.sizes.capacity() * size_of::<usize>()
    }

    /// A new variable for an input of `numel` elements.
    pub fn input(&mut self, numel: usize) -> TapeVar {
        self.sizes.push(numel);
        TapeVar(self.sizes.len() as u32 - 1)
    }

    /// Records a primitive's first result when an operand is taped; returns its variable.
    pub fn record_prim(&mut self, id: PrimId, operands: &[&Slot], output: &Value) -> Result<Option<TapeVar>> {
        if operands.iter().all(|s| s.tape.is_none()) {
            return Ok(None);
        }
        primitives::require_derivative_rule(id)?;
        if !primitives::output_is_differentiable(id, 0) {
            return Ok(None);
        }
        let inputs: Vec<Value> = operands.iter().map(|s| s.value.clone()).collect();
        let (second, tangents) = if self.second_order {
            let values: Vec<&Value> = inputs.iter().collect();
            let taped: Vec<bool> = operands.iter().map(|s| s.tape.is_some()).collect();
            let second = second_order(id, &values, &taped)?;
            let tangents = match second {
                SecondOrder::Zero => vec![],
                _ if !self.keep_tangents => vec![],
                _ => operands.iter().map(|s| s.deriv.clone()).collect(),
            };
            (second, tangents)
        } else {
            (SecondOrder::Zero, vec![])
        };
        let out = self.input(output.numel());
        let vars = operands.iter().map(|s| s.tape).collect();
        self.steps.push(Step::Prim(Box::new(PrimStep { id, inputs, vars, output: output.clone(), out, second, tangents })));
        Ok(Some(out))
    }

    /// Whether scalar code may be recorded compactly (`record_scalar`, `record_element`): gradient
    /// tapes, whose sweeps need no second-order terms.
    pub fn records_scalars(&self) -> bool {
        !self.second_order
    }

    /// Records a real scalar result from its operands' variables and the partial derivatives with
    /// respect to them; None when no operand is taped.
    pub fn record_scalar(&mut self, operands: [Option<(TapeVar, f64)>; 2]) -> Option<TapeVar> {
        operands.iter().any(Option::is_some).then(|| {
            let out = self.input(1);
            self.steps.push(Step::Scalar { operands, out });
            out
        })
    }

    /// Records `base(position)` for one element of a taped base.
    pub fn record_element(&mut self, base: TapeVar, position: usize) -> TapeVar {
        let out = self.input(1);
        self.steps.push(Step::Element { base, position, out });
        out
    }

    pub fn record_index(&mut self, base: &Slot, subs: &[Subscript]) -> Result<Option<TapeVar>> {
        let Some(base_var) = base.tape else { return Ok(None) };
        let (_, positions) = gather_plan(&base.value.dims(), subs)?;
        let out = self.input(positions.len());
        self.steps.push(Step::Gather { base: base_var, positions, out });
        Ok(Some(out))
    }

    pub fn record_assign(&mut self, base: Option<&Slot>, rhs: &Slot, subs: &[Subscript]) -> Result<Option<TapeVar>> {
        let base_var = base.and_then(|s| s.tape);
        if base_var.is_none() && rhs.tape.is_none() {
            return Ok(None);
        }
        let old_dims = base.map_or(vec![0, 0], |s| s.value.dims());
        let (new_dims, targets) = assign_plan(&old_dims, subs)?;
        let relocation = (old_dims != new_dims).then(|| resize_map(&old_dims, &new_dims));
        let out = self.input(new_dims.iter().product());
        self.steps.push(Step::Assign(Box::new(AssignStep {
            base: base_var,
            relocation,
            rhs: rhs.tape,
            rhs_is_scalar: rhs.value.numel() == 1,
            targets,
            out,
        })));
        Ok(Some(out))
    }
}
