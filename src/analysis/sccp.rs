//! Sparse conditional constant propagation with class and dims: a forward fixpoint over the CFG in
//! reverse post-order, visiting only blocks reachable through edges whose branch is not constant-false.

use super::ArgSignature;
use crate::ir::{BlockId, Function, Inst, Op, Terminator};
use crate::primitives::index::{Subscript, gather_plan, index};
use crate::primitives::{self, Kernel};
use crate::value::deriv::Deriv;
use crate::value::{Array, IntClass, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    Double,
    Logical,
    Char,
    Cell,
    Struct,
    Handle,
    Int(IntClass),
}

impl Class {
    pub fn of(v: &Value) -> Class {
        match v {
            Value::Double(_) | Value::Sparse(_) | Value::Complex(_) | Value::ComplexSparse(_) => Class::Double,
            Value::Logical(_) => Class::Logical,
            Value::Char(_) => Class::Char,
            Value::Cell(_) => Class::Cell,
            Value::Struct(_) => Class::Struct,
            Value::Handle(_) => Class::Handle,
            Value::Int(c, _) => Class::Int(*c),
        }
    }
}

/// Knowledge about one SSA value, from most to least precise.
#[derive(Clone, Debug, PartialEq)]
pub enum Lattice {
    /// Not reached yet (or only on non-executable paths).
    Unreached,
    Const(Value),
    /// Varies between calls; class and dims where known.
    Varying {
        class: Option<Class>,
        dims: Option<Vec<usize>>,
    },
}

impl Lattice {
    const UNKNOWN: Lattice = Lattice::Varying { class: None, dims: None };

    fn class(&self) -> Option<Class> {
        match self {
            Lattice::Const(v) => Some(Class::of(v)),
            Lattice::Varying { class, .. } => *class,
            Lattice::Unreached => None,
        }
    }

    fn dims(&self) -> Option<Vec<usize>> {
        match self {
            Lattice::Const(v) => Some(v.dims()),
            Lattice::Varying { dims, .. } => dims.clone(),
            Lattice::Unreached => None,
        }
    }

    fn meet(&self, other: &Lattice) -> Lattice {
        match (self, other) {
            (Lattice::Unreached, x) | (x, Lattice::Unreached) => x.clone(),
            (Lattice::Const(a), Lattice::Const(b)) if a == b => self.clone(),
            _ => {
                let class = self.class().filter(|c| Some(*c) == other.class());
                let dims = self.dims().filter(|d| Some(d) == other.dims().as_ref());
                Lattice::Varying { class, dims }
            }
        }
    }
}

/// Constants folded only below this many elements, to keep prepared code small.
const MAX_FOLDED_ELEMENTS: usize = 4096;

/// Lattice value of every SSA value of `func` called with `args` (`None`: unknown argument).
pub fn propagate(func: &Function, args: &[Option<ArgSignature>]) -> Vec<Lattice> {
    let mut values = vec![Lattice::Unreached; func.value_count as usize];
    let mut executable = vec![false; func.blocks.len()];
    executable[0] = true;
    let order = func.reverse_postorder();
    loop {
        let mut changed = false;
        for &b in &order {
            if !executable[b.index()] {
                continue;
            }
            let block = func.block(b);
            for phi in &block.phis {
                let new = phi
                    .incoming
                    .iter()
                    .filter(|(from, _)| executable[from.index()] && edge_taken(func, &values, *from, b))
                    .fold(Lattice::Unreached, |acc, (_, v)| acc.meet(&values[v.index()]));
                changed |= update(&mut values[phi.dest.index()], new);
            }
            for inst in &block.insts {
                for (d, new) in inst.dests.iter().zip(transfer(inst, &values, args)) {
                    changed |= update(&mut values[d.index()], new);
                }
            }
            for s in func.successors(b) {
                if edge_taken(func, &values, b, s) && !executable[s.index()] {
                    executable[s.index()] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return values;
        }
    }
}

/// Moves `slot` down the lattice to its meet with `new`; true if it changed.
fn update(slot: &mut Lattice, new: Lattice) -> bool {
    let met = slot.meet(&new);
    if *slot == met {
        return false;
    }
    *slot = met;
    true
}

fn edge_taken(func: &Function, values: &[Lattice], from: BlockId, to: BlockId) -> bool {
    if func.block(from).handler == Some(to) {
        return true;
    }
    match &func.block(from).term {
        Terminator::Branch { cond, then_block, else_block } => match &values[cond.index()] {
            Lattice::Const(Value::Logical(a)) => (if a.data[0] { *then_block } else { *else_block }) == to,
            Lattice::Unreached => false,
            _ => true,
        },
        _ => true,
    }
}

fn transfer(inst: &Inst, values: &[Lattice], args: &[Option<ArgSignature>]) -> Vec<Lattice> {
    let operand = |i: usize| &values[inst.args[i].index()];
    let n = inst.dests.len();
    let unknown = || vec![Lattice::UNKNOWN; n];
    if inst.args.iter().any(|a| values[a.index()] == Lattice::Unreached) {
        return vec![Lattice::Unreached; n];
    }
    match &inst.op {
        Op::Const(v) => vec![Lattice::Const(v.clone())],
        Op::Param(i) => match args.get(*i) {
            Some(Some(sig)) => vec![Lattice::Varying { class: Some(sig.class), dims: Some(sig.dims.clone()) }],
            _ => unknown(),
        },
        Op::Undefined(_)
        | Op::MagicColon
        | Op::Call(_)
        | Op::Apply(_)
        | Op::IndexAssign
        | Op::Field { .. }
        | Op::FieldAssign(_)
        | Op::CellIndex { .. }
        | Op::CellAssign
        | Op::Element
        | Op::ElementAssign
        | Op::CellLiteral { .. }
        | Op::Fail(_)
        | Op::Nargin
        | Op::Nargout
        | Op::LastError
        | Op::Timer(_)
        | Op::LastWarning
        | Op::Output(_)
        | Op::DeclareShared(_)
        | Op::LoadShared(_)
        | Op::StoreShared(_)
        | Op::TargetCount { .. }
        | Op::Outputs(_)
        | Op::ListPart { .. }
        | Op::ListAssign { .. } => unknown(),
        Op::Warning => inst.dests.iter().map(|_| Lattice::Varying { class: Some(Class::Struct), dims: None }).collect(),
        Op::CaughtError => vec![Lattice::Varying { class: Some(Class::Struct), dims: Some(vec![1, 1]) }],
        Op::End { position, count } => match operand(0).dims() {
            Some(d) => {
                let n = crate::primitives::index::end_value(&d, *position, *count);
                vec![Lattice::Const(Value::scalar(n as f64))]
            }
            None => vec![Lattice::Varying { class: Some(Class::Double), dims: Some(vec![1, 1]) }],
        },
        Op::MakeHandle { .. } => vec![Lattice::Varying { class: Some(Class::Handle), dims: Some(vec![1, 1]) }],
        // Indexing a function handle calls it.
        Op::Index if operand(0).class() == Some(Class::Handle) || n != 1 => unknown(),
        Op::Index => index_transfer(inst, values),
        Op::Prim(id) => {
            let constants: Option<Vec<&Value>> = inst
                .args
                .iter()
                .map(|a| match &values[a.index()] {
                    Lattice::Const(v) => Some(v),
                    _ => None,
                })
                .collect();
            let size_query = size_query_operands(*id, inst, values);
            let constants = constants.or_else(|| size_query.as_ref().map(|operands| operands.iter().collect()));
            if let Some(constants) = constants.filter(|_| primitives::is_pure(*id))
                && let Ok(results) = primitives::eval(*id, &constants, n)
                && results.iter().all(|r| r.numel() <= MAX_FOLDED_ELEMENTS)
            {
                return results.into_iter().map(Lattice::Const).collect();
            }
            prim_transfer(*id, inst, values, n)
        }
    }
}

/// A size query's operands when the first one's dims and the others are known: the first is a stand-in
/// of those dims (the query never reads its elements; zeros of a large size cost untouched pages only).
/// Folding them makes `N = numel(y)` and the loops and tests built on it independent of x.
fn size_query_operands(id: primitives::PrimId, inst: &Inst, values: &[Lattice]) -> Option<Vec<Value>> {
    let (first, rest) = inst.args.split_first()?;
    let dims = match &values[first.index()] {
        Lattice::Varying { class: Some(Class::Double | Class::Logical | Class::Char | Class::Int(_)), dims: Some(dims) } => dims,
        _ => return None,
    };
    if !primitives::get(id).size_query {
        return None;
    }
    let stand_in = Value::Double(Array::new(dims.clone(), vec![0.0; dims.iter().product()]));
    let rest = rest.iter().map(|a| match &values[a.index()] {
        Lattice::Const(v) => Some(v.clone()),
        _ => None,
    });
    std::iter::once(Some(stand_in)).chain(rest).collect()
}

fn index_transfer(inst: &Inst, values: &[Lattice]) -> Vec<Lattice> {
    let base = &values[inst.args[0].index()];
    let count = inst.args.len() - 1;
    let subs: Option<Vec<Subscript>> = inst.args[1..]
        .iter()
        .enumerate()
        .map(|(k, a)| match &values[a.index()] {
            Lattice::Const(v) => Subscript::from_value(v, k, count).ok(),
            _ => None,
        })
        .collect();
    let dims = match (base.dims(), &subs) {
        (Some(d), Some(s)) => gather_plan(&d, s).ok().map(|(dims, _)| dims),
        _ => None,
    };
    // A few elements of a constant (`A(1, 1)` of a captured matrix) are a constant: the run then
    // does not copy the whole matrix into its register.
    if let (Lattice::Const(value), Some(subs), Some(d)) = (base, &subs, &dims)
        && d.iter().product::<usize>() <= FOLDED_ELEMENTS
        && let Ok((element, _)) = index(value, &Deriv::Zero, subs)
    {
        return vec![Lattice::Const(element)];
    }
    vec![Lattice::Varying { class: base.class(), dims }]
}

/// The most elements an index of a constant is folded to.
const FOLDED_ELEMENTS: usize = 64;

/// Class and dims of a primitive's result from its kernel kind.
fn prim_transfer(id: primitives::PrimId, inst: &Inst, values: &[Lattice], n: usize) -> Vec<Lattice> {
    let dims_of = |i: usize| values[inst.args[i].index()].dims();
    let mut out = vec![Lattice::UNKNOWN; n];
    if n == 0 {
        // A statement call (`error(...)`, `printf(...)`) has no result to describe.
        return out;
    }
    // Integer operands give integer results (or errors): nothing to say.
    if inst.args.iter().any(|a| matches!(values[a.index()].class(), Some(Class::Int(_)))) {
        return out;
    }
    out[0] = match primitives::get(id).kernel {
        Kernel::Unary { .. } => Lattice::Varying { class: Some(Class::Double), dims: dims_of(0) },
        Kernel::Binary { .. } | Kernel::Predicate(_) => {
            let class = if matches!(primitives::get(id).kernel, Kernel::Predicate(_)) { Class::Logical } else { Class::Double };
            let dims = match (dims_of(0), dims_of(1)) {
                (Some(a), Some(b)) => primitives::broadcast_dims(&a, &b),
                _ => None,
            };
            Lattice::Varying { class: Some(class), dims }
        }
        Kernel::General { .. } => Lattice::UNKNOWN,
    };
    out
}

/// Replaces every instruction whose results are all constants by `Const` instructions.
pub fn fold_constants(func: &mut Function, values: &[Lattice]) {
    for block in &mut func.blocks {
        let insts = std::mem::take(&mut block.insts);
        for inst in insts {
            let folded: Option<Vec<Value>> = inst
                .dests
                .iter()
                .map(|d| match &values[d.index()] {
                    Lattice::Const(v) => Some(v.clone()),
                    _ => None,
                })
                .collect();
            match folded {
                Some(consts) if !inst.dests.is_empty() && !matches!(inst.op, Op::Const(_)) => {
                    for (d, v) in inst.dests.iter().zip(consts) {
                        block.insts.push(Inst {
                            dests: vec![*d],
                            op: Op::Const(v),
                            args: vec![],
                            span: inst.span,
                            inlined: inst.inlined.clone(),
                        });
                    }
                }
                _ => block.insts.push(inst),
            }
        }
    }
}
