//! Loops of scalar code run as register programs. A loop whose every instruction is one the scalar
//! fast path runs (elementwise primitives, conditions, `for` items, `x(i)`, `a(i) = s`, scalar
//! constants) is compiled once per plan into steps on a file of f64 registers, each with an nd-wide
//! derivative row: no `Value`, no register matching and no dispatch through the general table per
//! operation. The steps call the same scalar kernels and combine rows in the same order as
//! `exec::scalar`, so results are bitwise those of the interpreter, and record on a gradient tape
//! what the fast path records. Arrays (the bases of `x(i)`, the array a loop fills) stay in the
//! interpreter's registers.
//!
//! Anything a step does not do at run time (a complex result, a subscript out of range, a register
//! holding other than a real scalar, a base not read for the last time) stops the program: the
//! registers it holds are written back and the interpreter resumes at that instruction, so errors,
//! their locations and the general semantics are the interpreter's own.

use super::{Frame, Interpreter, Reg, Regs, Slot, linear_position, phi_input, set_phis, value_slot};
use crate::ad::reverse::tape::{Tape, TapeVar};
use crate::analysis::{Activity, Moves, immediate_forward_dominators};
use crate::exec::scalar::{self, Operand, Outcome};
use crate::ir::{BlockId, Function, Op, Terminator, ValueId, ValueTable};
use crate::primitives::Kernel;
use crate::value::Value;
use crate::value::deriv::Deriv;
use crate::value::interrupt;
use std::collections::HashMap;

/// A register of the program's file.
type R = usize;

/// Where a loop's program handed control back to the interpreter.
pub(super) enum LoopExit {
    /// Along the edge `from -> to` out of the loop (`to`'s phis not set).
    Left { from: BlockId, to: BlockId },
    /// At instruction `inst` of `block` (its phis set), which the program does not run.
    Stopped { block: BlockId, inst: usize },
}

enum Step {
    /// An elementwise primitive on one or two scalars.
    Apply { dest: R, kernel: &'static Kernel, a: R, b: Option<R>, active: bool },
    /// `truth(a)`: a branch condition.
    Truth { dest: R, a: R },
    /// `for_item(collection, counter)`.
    Item { dest: R, collection: ValueId, counter: R },
    /// `base(subs)` of one or two scalar subscripts; `active`: a tape records it.
    Element { dest: R, base: ValueId, subs: Subscripts, active: bool },
    /// `dest = base; dest(subs) = rhs`, in place when `base` is read for the last time.
    Assign { dest: ValueId, base: ValueId, rhs: R, subs: Subscripts, movable: bool },
}

#[derive(Clone, Copy)]
struct Subscripts {
    count: usize,
    at: [R; 2],
}

enum Next {
    Jump(BlockId),
    /// `record`: the decision goes into the control record (the condition varies between calls);
    /// `local`: it also makes the pattern local (not a two-sided `if` on x), as always with a tape
    /// (a tape is a trace of one path).
    Branch {
        cond: R,
        then_block: BlockId,
        else_block: BlockId,
        record: bool,
        local: bool,
    },
}

/// The phis of a block set along one edge into it.
struct Edge {
    pred: BlockId,
    /// `(dest, source)` registers of the scalar phis.
    scalars: Vec<(R, R)>,
    /// A source is also a destination: all are read before any is set.
    parallel: bool,
    /// `(dest, input)` of the array phis when each input is read for the last time and none is a
    /// destination: each moves by a swap (the input keeps the phi's old slot as storage, as
    /// `set_phis` leaves it). None: `set_phis` sets them.
    swaps: Option<Vec<(ValueId, ValueId)>>,
}

struct CompiledBlock {
    id: BlockId,
    /// One per predecessor inside the loop.
    edges: Vec<Edge>,
    /// Positions of the phis of arrays.
    array_phis: Vec<usize>,
    /// Steps with the position of their instruction in the block.
    steps: Vec<(usize, Step)>,
    next: Next,
}

pub(super) struct ScalarLoop {
    header: BlockId,
    /// Index into `blocks` per block of the function; None outside the loop.
    position: Vec<Option<usize>>,
    blocks: Vec<CompiledBlock>,
    /// The value each register holds.
    values: Vec<ValueId>,
    /// Registers read from the interpreter on entry: values from before the loop read as scalars, and
    /// the header's scalar phis.
    inputs: Vec<R>,
    /// Per register: it holds a value from before the loop (never written back).
    from_before: Vec<bool>,
    /// Arrays read from the interpreter's registers whose derivative width fixes the file's.
    arrays: Vec<ValueId>,
    /// Registers of scalar constants, set on entry.
    constants: Vec<(R, Scalar)>,
}

#[derive(Clone, Copy, PartialEq)]
enum Scalar {
    Unset,
    /// A real double without derivative.
    Number(f64),
    /// A real double with its derivative row in the file.
    Row(f64),
    Logical(bool),
}

impl ScalarLoop {
    pub(super) fn contains(&self, block: BlockId) -> bool {
        self.position[block.index()].is_some()
    }

    /// Whether the program reads array `v` from the interpreter's registers.
    pub(super) fn reads_array(&self, v: ValueId) -> bool {
        self.arrays.contains(&v)
    }
}

/// The programs of the function's loops, by header block (None: not a header, or not scalar code).
pub(super) fn compile_all(func: &Function, facts: &Facts) -> Vec<Option<ScalarLoop>> {
    let idom = immediate_forward_dominators(func);
    (0..func.blocks.len()).map(|b| compile(func, BlockId::new(b), &idom, facts)).collect()
}

/// What the plan knows of the function that compilation reads.
pub(super) struct Facts<'a> {
    pub activity: &'a Activity,
    pub moves: &'a Moves,
    pub subscript_ranges: &'a ValueTable<bool>,
    pub joins: &'a [Option<BlockId>],
}

/// The blocks of the natural loop headed by `header`: the header and the blocks reaching one of its
/// back edges (from a block it dominates) without passing through it (None: not a loop header).
/// Blocks the entry does not reach (lowering leaves some after `break` and `continue`) are left out.
fn loop_blocks(func: &Function, header: BlockId, idom: &[Option<BlockId>]) -> Option<Vec<bool>> {
    let reachable = |b: BlockId| b == BlockId::new(0) || idom[b.index()].is_some();
    let dominated = |mut b: BlockId| loop {
        if b == header {
            return true;
        }
        match idom[b.index()] {
            Some(d) => b = d,
            None => return false,
        }
    };
    let latches: Vec<BlockId> = func.block(header).preds.iter().copied().filter(|&p| reachable(p) && dominated(p)).collect();
    if latches.is_empty() {
        return None;
    }
    let mut inside = vec![false; func.blocks.len()];
    inside[header.index()] = true;
    let mut stack = latches;
    while let Some(b) = stack.pop() {
        if !std::mem::replace(&mut inside[b.index()], true) {
            stack.extend(func.block(b).preds.iter().copied().filter(|&p| reachable(p)));
        }
    }
    Some(inside)
}

/// Registers by value while compiling.
struct Registers {
    of: HashMap<ValueId, R>,
    values: Vec<ValueId>,
}

impl Registers {
    fn get(&mut self, v: ValueId) -> R {
        *self.of.entry(v).or_insert_with(|| {
            self.values.push(v);
            self.values.len() - 1
        })
    }
}

fn compile(func: &Function, header: BlockId, idom: &[Option<BlockId>], facts: &Facts) -> Option<ScalarLoop> {
    let Facts { activity, moves, subscript_ranges, joins } = facts;
    let inside = loop_blocks(func, header, idom)?;
    let blocks: Vec<BlockId> = func.blocks.ids().filter(|b| inside[b.index()]).collect();
    // Values defined inside the loop, by kind: arrays (assignment results, bases of reads and
    // assignments, and the phis passing them on), the rest scalars.
    let mut defined = std::collections::HashSet::new();
    let mut arrays = std::collections::HashSet::new();
    for &b in &blocks {
        let block = func.block(b);
        if block.handler.is_some() {
            return None;
        }
        defined.extend(block.phis.iter().map(|phi| phi.dest));
        for inst in &block.insts {
            defined.extend(inst.dests.iter().copied());
            match &inst.op {
                Op::IndexAssign => arrays.extend(inst.dests.iter().chain(&inst.args[..1]).copied()),
                Op::Index => arrays.extend(&inst.args[..1]),
                Op::Prim(id) if scalar::is_for_item(*id) => arrays.extend(&inst.args[..1]),
                _ => {}
            }
        }
    }
    // A phi is of the kind of what it joins.
    loop {
        let before = arrays.len();
        for phi in blocks.iter().flat_map(|&b| &func.block(b).phis) {
            let joined = phi.incoming.iter().map(|(_, v)| v).filter(|v| defined.contains(*v));
            if arrays.contains(&phi.dest) {
                arrays.extend(joined.copied());
            } else if joined.clone().any(|v| arrays.contains(v)) {
                arrays.insert(phi.dest);
            }
        }
        if arrays.len() == before {
            break;
        }
    }
    let mut registers = Registers { of: HashMap::new(), values: Vec::new() };
    let mut inputs = Vec::new();
    let mut header_phis = Vec::new();
    let mut constants = Vec::new();
    let mut array_inputs = Vec::new();
    // A value read as a scalar: a scalar defined inside, or an input read on entry.
    let mut scalar = |v: ValueId, registers: &mut Registers| -> Option<R> {
        if arrays.contains(&v) {
            return None;
        }
        let r = registers.get(v);
        if !defined.contains(&v) && !inputs.contains(&r) {
            inputs.push(r);
        }
        Some(r)
    };
    // A value read as an array: one defined as such inside, or a value from before the loop.
    let mut array = |v: ValueId| -> Option<ValueId> {
        if defined.contains(&v) && !arrays.contains(&v) {
            return None;
        }
        if !array_inputs.contains(&v) {
            array_inputs.push(v);
        }
        Some(v)
    };
    let mut compiled = Vec::with_capacity(blocks.len());
    for &b in &blocks {
        let block = func.block(b);
        let (mut scalar_phis, mut array_phis) = (Vec::new(), Vec::new());
        for (k, phi) in block.phis.iter().enumerate() {
            if arrays.contains(&phi.dest) {
                if phi.incoming.iter().any(|(from, v)| inside[from.index()] && defined.contains(v) && !arrays.contains(v)) {
                    return None;
                }
                array_phis.push(k);
                if b == header {
                    array(phi.dest)?;
                }
                continue;
            }
            let dest = registers.get(phi.dest);
            if b == header {
                header_phis.push(dest);
            }
            scalar_phis.push((dest, phi));
        }
        let mut edges = Vec::new();
        for (position, &pred) in block.preds.iter().enumerate().filter(|(_, p)| inside[p.index()]) {
            let mut scalars = Vec::new();
            for &(dest, phi) in &scalar_phis {
                scalars.push((dest, scalar(phi_input(phi, pred), &mut registers)?));
            }
            let parallel = scalars.iter().any(|(_, source)| scalars.iter().any(|(dest, _)| dest == source));
            let moved: Vec<(ValueId, ValueId)> =
                array_phis.iter().map(|&k| (block.phis[k].dest, phi_input(&block.phis[k], pred))).collect();
            let disjoint = moved.iter().all(|(_, input)| moved.iter().all(|(dest, _)| dest != input));
            let movable = array_phis.iter().all(|&k| moves.phi(b, position, k));
            edges.push(Edge { pred, scalars, parallel, swaps: (disjoint && movable).then_some(moved) });
        }
        let mut steps = Vec::new();
        for (k, inst) in block.insts.iter().enumerate() {
            let [dest] = inst.dests[..] else { return None };
            // The interpreter records what decides its pattern.
            if super::selection::decides_pattern(inst, activity) {
                return None;
            }
            // A scalar read as an array would need writing back first.
            let array_result = matches!(inst.op, Op::IndexAssign);
            if subscript_ranges[dest] || arrays.contains(&dest) != array_result {
                return None;
            }
            let subscripts = |vs: &[ValueId], registers: &mut Registers, scalar: &mut dyn FnMut(ValueId, &mut Registers) -> Option<R>| {
                let at = match vs {
                    [i] => [scalar(*i, registers)?; 2],
                    [i, j] => [scalar(*i, registers)?, scalar(*j, registers)?],
                    _ => return None,
                };
                Some(Subscripts { count: vs.len(), at })
            };
            let step = match &inst.op {
                Op::Const(value) => {
                    let constant = match value {
                        Value::Double(a) if a.dims == [1, 1] => Scalar::Number(a.data[0]),
                        Value::Logical(a) if a.dims == [1, 1] => Scalar::Logical(a.data[0]),
                        _ => return None,
                    };
                    constants.push((registers.get(dest), constant));
                    continue;
                }
                Op::Prim(id) if scalar::is_truth(*id) => {
                    let [a] = inst.args[..] else { return None };
                    Step::Truth { dest: registers.get(dest), a: scalar(a, &mut registers)? }
                }
                Op::Prim(id) if scalar::is_for_item(*id) => {
                    let [collection, counter] = inst.args[..] else { return None };
                    Step::Item { dest: registers.get(dest), collection: array(collection)?, counter: scalar(counter, &mut registers)? }
                }
                Op::Prim(id) => {
                    let kernel = scalar::scalar_kernel(*id);
                    let arity_fits = match kernel {
                        Kernel::Unary { .. } => inst.args.len() == 1,
                        Kernel::Binary { .. } | Kernel::Predicate(_) => inst.args.len() == 2,
                        Kernel::General { .. } => false,
                    };
                    if !arity_fits {
                        return None;
                    }
                    let a = scalar(inst.args[0], &mut registers)?;
                    let b = match inst.args.get(1) {
                        Some(&b) => Some(scalar(b, &mut registers)?),
                        None => None,
                    };
                    Step::Apply { dest: registers.get(dest), kernel, a, b, active: activity.is_active(dest) }
                }
                Op::Index => {
                    let base = array(inst.base())?;
                    let subs = subscripts(inst.subscripts(), &mut registers, &mut scalar)?;
                    Step::Element { dest: registers.get(dest), base, subs, active: activity.is_active(dest) }
                }
                Op::IndexAssign => {
                    let base = array(inst.base())?;
                    let rhs = scalar(inst.stored(), &mut registers)?;
                    let subs = subscripts(inst.subscripts(), &mut registers, &mut scalar)?;
                    Step::Assign { dest, base, rhs, subs, movable: moves.arg(b, k, 0) }
                }
                _ => return None,
            };
            steps.push((k, step));
        }
        let next = match &block.term {
            Terminator::Jump(to) => Next::Jump(*to),
            Terminator::Branch { cond, then_block, else_block } => {
                // As the interpreter without sparsity detection: every decision where the condition
                // varies is recorded, and makes the pattern local unless the branch is a two-sided
                // `if` on x and no tape records.
                let record = activity.varies(*cond);
                let local = !(activity.depends_on_x(*cond) && joins[b.index()].is_some());
                let cond = scalar(*cond, &mut registers)?;
                Next::Branch { cond, then_block: *then_block, else_block: *else_block, record, local }
            }
            Terminator::Return(_) => return None,
        };
        compiled.push(CompiledBlock { id: b, edges, array_phis, steps, next });
    }
    let mut position = vec![None; func.blocks.len()];
    for (k, block) in compiled.iter().enumerate() {
        position[block.id.index()] = Some(k);
    }
    let from_before = (0..registers.values.len()).map(|r| inputs.contains(&r)).collect();
    inputs.extend(header_phis);
    Some(ScalarLoop { header, position, blocks: compiled, values: registers.values, inputs, from_before, arrays: array_inputs, constants })
}

/// The register file of a running program: each register's scalar, and for `Scalar::Row` its
/// derivative row at `rows[r * nd..]`.
struct File {
    cells: Vec<Scalar>,
    rows: Vec<f64>,
    nd: usize,
    /// Per register, its variable on the gradient tape being recorded (empty without a tape: the
    /// bookkeeping costs the untaped steps ~10 %).
    tapes: Vec<Option<TapeVar>>,
    /// Phi inputs on their way into the phis (all are read before any is set).
    pending: Vec<(R, Scalar, Option<TapeVar>)>,
    pending_rows: Vec<f64>,
}

impl File {
    /// The file on entry, read from the interpreter's registers; None when an input is not a real or
    /// logical scalar, or derivative widths differ.
    fn enter(program: &ScalarLoop, regs: &Regs, taping: bool) -> Option<File> {
        let mut nd = None;
        let mut width = |deriv: &Deriv| match (deriv, nd) {
            (Deriv::Dense(d), None) => {
                nd = Some(d.nd);
                true
            }
            (Deriv::Dense(d), Some(n)) => d.nd == n,
            _ => true,
        };
        let inputs_fit = program.inputs.iter().all(|&r| value_slot(regs, program.values[r]).is_some_and(|s| width(&s.deriv)));
        let arrays_fit = program.arrays.iter().all(|&v| value_slot(regs, v).is_none_or(|s| width(&s.deriv)));
        if !(inputs_fit && arrays_fit) {
            return None;
        }
        let nd = nd.unwrap_or(0);
        let count = program.values.len();
        let tapes = if taping { vec![None; count] } else { Vec::new() };
        let (cells, rows) = (vec![Scalar::Unset; count], vec![0.0; count * nd]);
        let mut file = File { cells, rows, nd, tapes, pending: Vec::new(), pending_rows: Vec::new() };
        for &r in &program.inputs {
            let slot = value_slot(regs, program.values[r])?;
            file.set_tape(r, slot.tape);
            file.cells[r] = match (&slot.value, scalar::operand(slot)) {
                (Value::Logical(a), _) if a.data.len() == 1 && slot.deriv.is_zero() => Scalar::Logical(a.data[0]),
                (_, Some(Operand { x, dx: None })) => Scalar::Number(x),
                (_, Some(Operand { x, dx: Some(dx) })) => {
                    file.rows[r * nd..(r + 1) * nd].copy_from_slice(dx);
                    Scalar::Row(x)
                }
                _ => return None,
            };
        }
        for &(r, constant) in &program.constants {
            file.cells[r] = constant;
        }
        Some(file)
    }

    /// Writes the registers set inside the loop back into the interpreter's.
    fn leave(&self, program: &ScalarLoop, regs: &mut Regs) {
        for (r, &v) in program.values.iter().enumerate().filter(|(r, _)| !program.from_before[*r]) {
            let dest = match &mut regs[v] {
                Reg::Val(slot) => Some(slot),
                _ => None,
            };
            let written = match self.cells[r] {
                Scalar::Unset => continue,
                Scalar::Number(x) => scalar::write_value(dest, x, Deriv::Zero),
                Scalar::Row(x) => scalar::write(dest, x, self.nd, |out| out.copy_from_slice(self.row(r))),
                Scalar::Logical(t) => scalar::write_logical(dest, t),
            };
            if let Some(slot) = written {
                regs[v] = Reg::Val(*slot);
            }
            if let (Reg::Val(slot), Some(&var)) = (&mut regs[v], self.tapes.get(r)) {
                slot.tape = var;
            }
        }
    }

    fn tape_of(&self, r: R) -> Option<TapeVar> {
        self.tapes.get(r).copied().flatten()
    }

    fn set_tape(&mut self, r: R, var: Option<TapeVar>) {
        if let Some(t) = self.tapes.get_mut(r) {
            *t = var;
        }
    }

    fn row(&self, r: R) -> &[f64] {
        &self.rows[r * self.nd..(r + 1) * self.nd]
    }

    /// A real scalar's value (None: a logical or unset register, which the fast path does not take).
    fn number(&self, r: R) -> Option<f64> {
        match self.cells[r] {
            Scalar::Number(x) | Scalar::Row(x) => Some(x),
            _ => None,
        }
    }

    fn set_phis(&mut self, edge: &Edge) {
        let nd = self.nd;
        if !edge.parallel {
            for &(dest, r) in &edge.scalars {
                self.cells[dest] = self.cells[r];
                self.set_tape(dest, self.tape_of(r));
                if let Scalar::Row(_) = self.cells[r] {
                    self.rows.copy_within(r * nd..(r + 1) * nd, dest * nd);
                }
            }
            return;
        }
        for &(dest, r) in &edge.scalars {
            self.pending.push((dest, self.cells[r], self.tape_of(r)));
            if let Scalar::Row(_) = self.cells[r] {
                self.pending_rows.extend_from_slice(&self.rows[r * nd..(r + 1) * nd]);
            }
        }
        let mut rows = 0;
        for (dest, cell, tape) in self.pending.drain(..) {
            self.cells[dest] = cell;
            if let Some(t) = self.tapes.get_mut(dest) {
                *t = tape;
            }
            if let Scalar::Row(_) = cell {
                self.rows[dest * nd..(dest + 1) * nd].copy_from_slice(&self.pending_rows[rows..rows + nd]);
                rows += nd;
            }
        }
        self.pending_rows.clear();
    }

    /// Runs `step` as the scalar fast path would; false: the fast path would not take it.
    fn run(&mut self, step: &Step, regs: &mut Regs, tape: Option<&mut Tape>) -> bool {
        match *step {
            Step::Apply { dest, kernel, a, b, active } => self.apply(dest, kernel, a, b, active, tape).is_some(),
            Step::Truth { dest, a } => {
                let t = match self.cells[a] {
                    Scalar::Logical(t) => t,
                    Scalar::Number(x) | Scalar::Row(x) if !x.is_nan() => x != 0.0,
                    _ => return false,
                };
                self.cells[dest] = Scalar::Logical(t);
                self.set_tape(dest, None);
                true
            }
            Step::Item { dest, collection, counter } => {
                let k = value_slot(regs, collection).zip(self.number(counter)).and_then(|(c, x)| Some((c, scalar::item_position(c, x)?)));
                k.is_some_and(|(collection, k)| self.element(dest, collection, k, tape))
            }
            Step::Element { dest, base, subs, active } => {
                let k = value_slot(regs, base).and_then(|b| Some((b, linear_position(b, subs.count, |i| self.position(subs.at[i]))?)));
                k.is_some_and(|(base, k)| self.element(dest, base, k, tape.filter(|_| active)))
            }
            // The fast path leaves taped assignments to the general one.
            Step::Assign { dest, base, rhs, subs, movable } => {
                let taped = std::iter::once(rhs).chain(subs.at[..subs.count].iter().copied()).any(|r| self.tape_of(r).is_some());
                movable && !taped && self.assign(dest, base, rhs, subs, regs)
            }
        }
    }

    fn apply(&mut self, dest: R, kernel: &Kernel, a: R, b: Option<R>, active: bool, tape: Option<&mut Tape>) -> Option<()> {
        let xb = match b {
            Some(b) => Some(self.number(b)?),
            None => None,
        };
        self.set_tape(dest, None);
        match scalar::apply(kernel, self.number(a)?, xb)? {
            Outcome::Logical(t) => self.cells[dest] = Scalar::Logical(t),
            Outcome::Number { y, partials: [c, e], differentiable } => {
                if let Some(tape) = tape.filter(|_| active && differentiable) {
                    let taped = |r: Option<R>, partial: f64| Some((self.tape_of(r?)?, partial));
                    let var = tape.record_scalar([taped(Some(a), c), taped(b, e)]);
                    self.set_tape(dest, var);
                }
                let has_row = |r: R| matches!(self.cells[r], Scalar::Row(_));
                let (row_a, row_b) = (has_row(a), b.filter(|&b| has_row(b)));
                if !(active && differentiable && (row_a || row_b.is_some())) {
                    self.cells[dest] = Scalar::Number(y);
                    return Some(());
                }
                // As `scalar::store`: the first present term, then the second added.
                let (nd, out) = (self.nd, dest * self.nd);
                match (row_a, row_b) {
                    (true, second) => {
                        (0..nd).for_each(|j| self.rows[out + j] = c * self.rows[a * nd + j]);
                        if let Some(b) = second {
                            (0..nd).for_each(|j| self.rows[out + j] += e * self.rows[b * nd + j]);
                        }
                    }
                    (false, Some(b)) => (0..nd).for_each(|j| self.rows[out + j] = e * self.rows[b * nd + j]),
                    (false, None) => unreachable!("a row is present"),
                }
                self.cells[dest] = Scalar::Row(y);
            }
        }
        Some(())
    }

    fn position(&self, r: R) -> Option<usize> {
        scalar::position_of(self.number(r)?)
    }

    /// `dest = base(k)`, as `scalar::element`.
    fn element(&mut self, dest: R, base: &Slot, k: usize, tape: Option<&mut Tape>) -> bool {
        let Some((y, block)) = scalar::element_of(base, k) else { return false };
        self.cells[dest] = match block {
            None => Scalar::Number(y),
            Some(d) if d.nd == self.nd => {
                let out = dest * self.nd;
                d.data.iter().skip(k).step_by(d.rows).zip(&mut self.rows[out..out + self.nd]).for_each(|(d, o)| *o = *d);
                Scalar::Row(y)
            }
            Some(_) => return false,
        };
        let var = tape.zip(base.tape).map(|(tape, base)| tape.record_element(base, k));
        self.set_tape(dest, var);
        true
    }

    /// `dest = base; dest(subs) = rhs` in place, as the interpreter's `assign_element` with a base read
    /// for the last time.
    fn assign(&self, dest: ValueId, base: ValueId, rhs: R, subs: Subscripts, regs: &mut Regs) -> bool {
        let Some(k) = value_slot(regs, base).and_then(|b| linear_position(b, subs.count, |i| self.position(subs.at[i]))) else {
            return false;
        };
        let r = match self.cells[rhs] {
            Scalar::Number(x) => Operand { x, dx: None },
            Scalar::Row(x) => Operand { x, dx: Some(self.row(rhs)) },
            _ => return false,
        };
        let Reg::Val(slot) = &mut regs[base] else { unreachable!("read above") };
        // `assign_operand` changes nothing when it refuses. The base is dead: it keeps the
        // destination's old slot as storage.
        let assigned = scalar::assign_operand(slot, k, &r);
        if assigned {
            regs.swap(base, dest);
        }
        assigned
    }
}

impl Interpreter<'_> {
    /// Runs the loop of `program` entered at its header (whose phis are set) until control leaves it
    /// or a step stops it, with the interpreter's registers updated as running the instructions would.
    pub(super) fn run_scalar_loop(&mut self, program: &ScalarLoop, func: &Function, moves: &Moves, frame: &mut Frame) -> LoopExit {
        let Some(mut file) = File::enter(program, &frame.regs, self.tape.is_some()) else {
            return LoopExit::Stopped { block: program.header, inst: 0 };
        };
        let (mut block, mut pred) = (program.header, None);
        loop {
            let compiled = &program.blocks[program.position[block.index()].expect("inside the loop")];
            if let Some(p) = pred {
                let edge = compiled.edges.iter().find(|e| e.pred == p).expect("an edge inside the loop");
                file.set_phis(edge);
                match &edge.swaps {
                    Some(swaps) => swaps.iter().for_each(|(dest, input)| frame.regs.swap(*dest, *input)),
                    None => set_phis(frame, func.block(block), moves, block, p, |k| compiled.array_phis.contains(&k)),
                }
            }
            if interrupt::due() {
                // Stopped as if its first step could not run: the general path reports the interrupt.
                file.leave(program, &mut frame.regs);
                let first = compiled.steps.first().map_or(func.block(block).insts.len(), |(k, _)| *k);
                return LoopExit::Stopped { block, inst: first };
            }
            if let Some((k, _)) = compiled.steps.iter().find(|(_, step)| !file.run(step, &mut frame.regs, self.tape.as_mut())) {
                file.leave(program, &mut frame.regs);
                return LoopExit::Stopped { block, inst: *k };
            }
            let to = match compiled.next {
                Next::Jump(to) => to,
                Next::Branch { cond, then_block, else_block, record, local } => {
                    let Scalar::Logical(taken) = file.cells[cond] else {
                        file.leave(program, &mut frame.regs);
                        return LoopExit::Stopped { block, inst: func.block(block).insts.len() };
                    };
                    match (record, local || self.tape.is_some()) {
                        (true, true) => self.control.branch(taken),
                        (true, false) => self.control.side(taken),
                        (false, _) => {}
                    }
                    if taken { then_block } else { else_block }
                }
            };
            if !program.contains(to) {
                file.leave(program, &mut frame.regs);
                return LoopExit::Left { from: block, to };
            }
            (pred, block) = (Some(block), to);
        }
    }
}
