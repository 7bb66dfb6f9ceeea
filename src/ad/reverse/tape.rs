//! The tape: one step per operation whose operands depend on x, holding only what its reverse rule
//! reads (of a primitive's operand and result values, those its entry's `RuleReads` names, shapes for
//! the others; index lists for indexing, no values at all). For
//! Hessians, a primitive's step also keeps the tangents of the operands its second-order term reads.
//! Gradient tapes record scalar code compactly (`Scalar`, `Element`): loop code runs one scalar
//! operation per step, and a general step's cloned values would cost more than the arithmetic.

use crate::ad::slot::Slot;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::primitives::index::{Subscript, assign_plan, gather_plan, pick_sparse, resize_map};
use crate::primitives::reverse::Seen;
use crate::primitives::second_order::{SecondOrder, no_second_order, second_order};
use crate::primitives::sparse_reverse;
use crate::primitives::{self, Kernel, PrimId, Reads, complex};
use crate::value::deriv::Deriv;
use crate::value::{Array, Value};
use std::borrow::Cow;
use std::collections::HashMap;

pub use crate::ad::slot::TapeVar;

/// A step of the tape. The large ones are boxed: a scalar loop records millions of small steps.
pub(super) enum Step {
    Prim(Box<PrimStep>),
    /// `out = f(operands)` on real scalars, with `df/d operand` computed by the primal run (gradient
    /// tapes only: it has no second-order term).
    Scalar {
        operands: [Option<(TapeVar, f64)>; 2],
        out: TapeVar,
    },
    /// `out = base(position)`, one element (linear index).
    Element {
        base: TapeVar,
        position: usize,
        out: TapeVar,
    },
    /// `out = base(positions)` (linear indices).
    Gather {
        base: TapeVar,
        positions: Vec<usize>,
        out: TapeVar,
    },
    /// `out = base; out(targets) = rhs`, the base's elements moved to `relocation` when it grew.
    Assign(Box<AssignStep>),
}

impl Step {
    /// Heap bytes beyond the step itself.
    fn bytes(&self) -> usize {
        match self {
            Step::Prim(step) => {
                let values: usize = step.inputs.iter().chain([&step.output]).map(Kept::bytes).sum();
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
        Value::Complex(a) => a.data.len() * size_of::<crate::value::Complex64>(),
        Value::Logical(a) => a.data.len(),
        Value::Char(a) => a.data.len() * size_of::<u16>(),
        Value::Sparse(s) => s.nnz() * (size_of::<f64>() + size_of::<usize>()) + size_of_val(s.colptr()),
        Value::ComplexSparse(s) => {
            s.nnz() * (size_of::<crate::value::Complex64>() + size_of::<usize>()) + (s.cols() + 1) * size_of::<usize>()
        }
        Value::Cell(a) => a.data.iter().map(|v| size_of::<Value>() + value_bytes(v)).sum(),
        Value::Struct(_) | Value::Handle(_) => 0,
    };
    elements + value.dims().len() * size_of::<usize>()
}

fn deriv_bytes(deriv: &Deriv) -> usize {
    match deriv {
        Deriv::Zero => 0,
        Deriv::Dense(d) => d.data.len() * size_of::<f64>(),
        Deriv::Sparse(s) => s.heap_bytes(),
        Deriv::Parts(parts) => parts.iter().map(|p| size_of::<Deriv>() + deriv_bytes(p)).sum(),
    }
}

pub(super) struct PrimStep {
    pub(super) id: PrimId,
    /// Which result of the call `out` is (0: the first; `[L, U] = lu(A)` records one step per result).
    pub(super) result: usize,
    pub(super) inputs: Vec<Kept>,
    pub(super) vars: Vec<Option<TapeVar>>,
    pub(super) output: Kept,
    pub(super) out: TapeVar,
    /// Hessian tapes: the second-order term, and the operands' tangents when it reads them.
    pub(super) second: SecondOrder,
    pub(super) tangents: Vec<Deriv>,
}

/// A value on a primitive's step: whole when its rules read it (see `RuleReads`), else its shape.
pub(super) enum Kept {
    Value(Value),
    Shape(Vec<usize>),
}

impl Kept {
    /// The value the rules see; for a shape only, NaN of that shape, so that a rule reading a value its
    /// entry says it does not read gives NaN (which the consistency tests catch) rather than a plausible
    /// derivative.
    pub(super) fn value(&self) -> Cow<'_, Value> {
        match self {
            Kept::Value(v) => Cow::Borrowed(v),
            Kept::Shape(dims) => Cow::Owned(Value::Double(Array::new(dims.clone(), vec![f64::NAN; dims.iter().product()]))),
        }
    }

    /// As the elementwise rules see it, without a stand-in.
    pub(super) fn seen(&self) -> Seen<'_> {
        match self {
            Kept::Value(v) => Seen::Values(v),
            Kept::Shape(dims) => Seen::Shape(dims),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Kept::Value(v) => value_bytes(v),
            Kept::Shape(dims) => dims.capacity() * size_of::<usize>(),
        }
    }
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
    /// Keeps every value whole: the Hessian pattern runs forward rules on them.
    pub(super) keep_values: bool,
    /// The parts' variables of each container variable (see `container`), by its index.
    containers: HashMap<TapeVar, Vec<Option<TapeVar>>>,
}

impl Tape {
    /// A tape for Hessian-vector products: the run carries tangent directions.
    pub fn for_hessian() -> Tape {
        Tape { second_order: true, keep_tangents: true, ..Tape::default() }
    }

    /// A tape for the Hessian's sparsity (second-order terms, no tangents).
    pub fn for_hessian_pattern() -> Tape {
        Tape { second_order: true, keep_values: true, ..Tape::default() }
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
        TapeVar::new(self.sizes.len() - 1)
    }

    /// A variable for a cell or struct holding values that depend on x: it names its parts'
    /// variables (None: a part that does not depend on x), element by element (a struct's fields
    /// within each element), and has no adjoint of its own: the values inside keep theirs. None when
    /// no part is taped.
    pub fn container(&mut self, parts: Vec<Option<TapeVar>>) -> Option<TapeVar> {
        if parts.iter().all(Option::is_none) {
            return None;
        }
        let var = self.input(0);
        self.containers.insert(var, parts);
        Some(var)
    }

    /// The variable of part `k` of a container (see `container`).
    pub fn part(&self, container: Option<TapeVar>, k: usize) -> Option<TapeVar> {
        self.containers.get(&container?)?.get(k).copied().flatten()
    }

    fn is_container(&self, var: Option<TapeVar>) -> bool {
        var.is_some_and(|v| self.containers.contains_key(&v))
    }

    /// Records a primitive's first result when an operand is taped; returns its variable.
    pub fn record_prim(&mut self, id: PrimId, operands: &[&Slot], output: &Value) -> Result<Option<TapeVar>> {
        self.record_result(id, 0, operands, output)
    }

    /// Records result `result` (0-based) of a primitive's call when an operand is taped: each result
    /// of a call has its own step, whose reverse rule gives the operands' adjoints from that result's.
    pub fn record_result(&mut self, id: PrimId, result: usize, operands: &[&Slot], output: &Value) -> Result<Option<TapeVar>> {
        if operands.iter().all(|s| s.tape.is_none()) {
            return Ok(None);
        }
        primitives::require_derivative_rule(id)?;
        if !primitives::output_is_differentiable(id, result) {
            return Ok(None);
        }
        if operands.iter().any(|s| self.is_container(s.tape)) || matches!(output, Value::Cell(_) | Value::Struct(_)) {
            return Err(Diagnostic::new(
                ErrorKind::Unsupported,
                format!("'{}' from or into a cell or struct holding values that depend on x, in reverse mode", primitives::get(id).name()),
            )
            .with_hint("build the container with {...}, c{k} = v or s.f = v, or use opts.mode = 'forward'"));
        }
        let taped: Vec<bool> = operands.iter().map(|s| s.tape.is_some()).collect();
        let on_complex = complex::is_complex(output) || operands.iter().any(|s| s.tape.is_some() && complex::is_complex(&s.value));
        match on_complex {
            true if result > 0 => return Err(complex::unsupported_derivative(id)),
            true => return self.record_complex(id, operands, &taped, output),
            false => {}
        }
        let values: Vec<&Value> = operands.iter().map(|s| &s.value).collect();
        let second = if self.second_order { second_order(id, &values, &taped)? } else { SecondOrder::Zero };
        if result > 0 && !matches!(second, SecondOrder::Zero | SecondOrder::Term(_)) {
            // Second-order terms are written for a call's first result, except a primitive's own term.
            return Err(no_second_order(id));
        }
        let tangents = self.tangents(second, operands);
        let (read_operands, read_output) = match sparse_reverse::involved(&values, output, &taped) {
            // Sparse rules read the patterns (O(nnz)) whatever their entries say.
            true => (vec![true; operands.len()], true),
            false => self.read_values(id, second, operands, &taped),
        };
        let keep = |value: &Value, read: bool| if read { Kept::Value(value.clone()) } else { Kept::Shape(value.dims()) };
        let inputs = operands.iter().zip(read_operands).map(|(s, read)| keep(&s.value, read)).collect();
        let out = self.input(sparse_reverse::adjoint_rows(output));
        let vars = operands.iter().map(|s| s.tape).collect();
        let output = keep(output, read_output);
        self.steps.push(Step::Prim(Box::new(PrimStep { id, result, inputs, vars, output, out, second, tangents })));
        Ok(Some(out))
    }

    /// The error for indexing or assigning a sparse matrix that depends on x on the tape.
    fn sparse_elements_refused(what: &str) -> Diagnostic {
        Diagnostic::new(ErrorKind::Unsupported, format!("{what} a sparse matrix that depends on x, in reverse mode"))
            .with_hint("use opts.mode = 'forward' (msad's default picks it here), or build the part you need with sparse(i, j, v)")
    }

    /// The operands' tangents a step keeps: on Hessian tapes that carry them, where its second-order
    /// term reads them.
    fn tangents(&self, second: SecondOrder, operands: &[&Slot]) -> Vec<Deriv> {
        match second {
            SecondOrder::Zero => vec![],
            _ if !self.keep_tangents => vec![],
            _ => operands.iter().map(|s| s.deriv.clone()).collect(),
        }
    }

    /// A step on complex values: its variables have two adjoint rows per complex element (real parts,
    /// then imaginary parts, as forward blocks), and its rules, the transposed complex forward rule
    /// and on Hessian tapes `complex::second_order_term`, read every value.
    fn record_complex(&mut self, id: PrimId, operands: &[&Slot], taped: &[bool], output: &Value) -> Result<Option<TapeVar>> {
        let values: Vec<&Value> = operands.iter().map(|s| &s.value).collect();
        let second = if self.second_order { complex::second_order(id, &values, taped)? } else { SecondOrder::Zero };
        let tangents = self.tangents(second, operands);
        let inputs = operands.iter().map(|s| Kept::Value(s.value.clone())).collect();
        let out = self.input(complex::rows(output));
        let vars = operands.iter().map(|s| s.tape).collect();
        let output = Kept::Value(output.clone());
        self.steps.push(Step::Prim(Box::new(PrimStep { id, result: 0, inputs, vars, output, out, second, tangents })));
        Ok(Some(out))
    }

    /// Which operands' values, and whether the result's, the step's rules read: the reverse rule of each
    /// taped operand, and on Hessian tapes the second-order term. Scalars are kept (they cost no more
    /// than their shape), and so are a general primitive's operands that do not depend on x (its
    /// parameters: sizes, dimensions, which its rules read whatever it is).
    fn read_values(&self, id: PrimId, second: SecondOrder, operands: &[&Slot], taped: &[bool]) -> (Vec<bool>, bool) {
        let count = operands.len();
        if self.keep_values {
            return (vec![true; count], true);
        }
        let entry = primitives::get(id);
        let mut rules: Vec<(usize, Reads)> = (0..count).filter(|&k| taped[k]).map(|k| (k, entry.reads.adjoint_of(k))).collect();
        if !matches!(second, SecondOrder::Zero) {
            rules.extend((0..count).filter(|&k| taped[k]).map(|k| (k, second.reads(entry.reads.second))));
        }
        let general = matches!(entry.kernel, Kernel::General { .. });
        let operands = (0..count)
            .map(|i| {
                let parameter = general && !taped[i];
                parameter || operands[i].value.numel() == 1 || rules.iter().any(|&(k, reads)| reads.operand(k, i))
            })
            .collect();
        (operands, rules.iter().any(|(_, reads)| reads.result()))
    }

    /// Structs and cells are not recorded: the error for an x-dependent value entering one, with what
    /// works instead (a gradient runs forward; a Hessian needs the values outside containers).
    pub fn container_refused(&self) -> Diagnostic {
        let what = "struct arrays, cellfun cells or function handles holding values that depend on x";
        if self.second_order {
            return Diagnostic::new(ErrorKind::Unsupported, format!("{what}, in a Hessian")).with_hint(
                "keep the values that depend on x in variables, arrays, cells or struct fields; J and g work as they are (two outputs)",
            );
        }
        Diagnostic::new(ErrorKind::Unsupported, format!("{what}, in reverse mode")).with_hint("use opts.mode = 'forward'")
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
        let (dims, positions) = gather_plan(&base.value.dims(), subs)?;
        if let Value::Sparse(s) = &base.value {
            // The result is sparse (see `index`): its adjoints gather those of the entries it picked.
            if dims.len() != 2 {
                return Err(Tape::sparse_elements_refused("indexing"));
            }
            let entries = pick_sparse(s, &dims, &positions).1;
            let out = self.input(entries.len());
            self.steps.push(Step::Gather { base: base_var, positions: entries, out });
            return Ok(Some(out));
        }
        if self.is_container(base.tape) {
            // A struct's parts are its elements' fields, element by element.
            let width = match &base.value {
                Value::Struct(s) => s.fields.len(),
                _ => 1,
            };
            let parts = positions.iter().flat_map(|&p| p * width..(p + 1) * width).map(|k| self.part(base.tape, k)).collect();
            return Ok(self.container(parts));
        }
        // A complex value's real parts' rows, then its imaginary parts'.
        let positions = match &base.value {
            Value::Complex(a) => positions.iter().copied().chain(positions.iter().map(|p| p + a.numel())).collect(),
            _ => positions,
        };
        let out = self.input(positions.len());
        self.steps.push(Step::Gather { base: base_var, positions, out });
        Ok(Some(out))
    }

    pub fn record_assign(&mut self, base: Option<&Slot>, rhs: &Slot, subs: &[Subscript]) -> Result<Option<TapeVar>> {
        let base_var = base.and_then(|s| s.tape);
        if base_var.is_none() && rhs.tape.is_none() {
            return Ok(None);
        }
        let sparse = |slot: &Slot| slot.tape.is_some() && matches!(slot.value, Value::Sparse(_));
        if base.is_some_and(sparse) || sparse(rhs) {
            return Err(Tape::sparse_elements_refused("assigning into or from"));
        }
        let old_dims = base.map_or(vec![0, 0], |s| s.value.dims());
        let (new_dims, targets) = assign_plan(&old_dims, subs, &rhs.value.dims())?;
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
