//! Evaluator of prepared SSA code: runs the primal computation and, for active values, the forward rules,
//! so every value carries its derivative block alongside.

mod apply;
mod control;
mod instruction;
mod primitive;
mod scalar_loop;
mod selection;
mod shared;
mod sides;
mod spread;
mod timer;
mod warn;

use super::containers;
use super::scalar;
use crate::ad::reverse::Recorder;
use crate::ad::reverse::tape::Tape;
use crate::ad::slot::Slot;
use crate::analysis::{Activity, Moves};
use crate::diag::{Diagnostic, ErrorKind, Result, SourceFile, Span, StackFrame};
use crate::host::HostCall;
use crate::host::warnings::WarningState;
use crate::ids::IdVec;
use crate::ir::{Block, BlockId, FuncId, Function, Inst, Op, PerFunction, Phi, Program, Terminator, ValueId, ValueTable};
use crate::primitives::index::{Subscript, Subscripts, assign, index};
use crate::primitives::{self, Forward, PrimId, Reused};
use crate::value::buffers;
use crate::value::deriv::{Deriv, SeedColours};
use crate::value::interrupt;
use crate::value::small_list::Operands;
use crate::value::{Array, Value};
pub use control::ControlRecord;
use scalar_loop::LoopExit;
pub use shared::SharedValues;
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Clone, Debug)]
enum Reg {
    Unset,
    Undefined(String),
    Colon,
    /// A range read only as a subscript: zero-based first position, step, count.
    Range(usize, isize, usize),
    Val(Slot),
    /// The values of a cs-list, for the instruction that spreads them (see `spread`).
    List(Vec<Slot>),
    /// A cs-list of other than one value read where one value is needed: the instruction reading it
    /// raises Octave's error, which names that instruction (see `spread::stray_list_error`).
    Stray(Vec<Slot>),
}

impl Reg {
    fn worth_keeping(&self) -> bool {
        match self {
            Reg::Val(Slot { value: Value::Double(a), deriv, tape: None }) if a.numel() == 1 => match deriv {
                Deriv::Zero => true,
                Deriv::Dense(d) => d.data.len() <= KEPT_DERIVATIVE_ENTRIES,
                Deriv::Sparse(_) | Deriv::Parts(_) => false,
            },
            // Constants find themselves in place on the next call (see `set_constant`).
            Reg::Val(Slot { value: Value::Double(a), deriv: Deriv::Zero, tape: None }) => a.numel() <= KEPT_ARRAY_ELEMENTS,
            Reg::Val(Slot { value: Value::Logical(a), deriv: Deriv::Zero, tape: None }) => a.numel() == 1,
            Reg::Val(_) | Reg::List(_) | Reg::Stray(_) => false,
            Reg::Unset | Reg::Undefined(_) | Reg::Colon | Reg::Range(..) => true,
        }
    }
}

const MAX_CALL_DEPTH: usize = 256;

/// Per-function facts the evaluator relies on, indexed by `FuncId`.
pub struct Plan<'p> {
    pub program: &'p Program,
    pub activity: &'p PerFunction<Activity>,
    pub moves: &'p PerFunction<Moves>,
    /// Per function and value: a range read only as a subscript (kept as `Reg::Range`).
    pub subscript_ranges: &'p PerFunction<ValueTable<bool>>,
    /// Join blocks of two-sided branches, per function and block.
    pub joins: &'p PerFunction<Vec<Option<BlockId>>>,
    /// Values of the entry function whose derivative is the same on every call with the same seed.
    pub constant_derivatives: &'p ValueTable<bool>,
    /// Their derivative blocks, by seed and value.
    pub derivative_cache: &'p DerivativeCache,
    pub frames: &'p Frames,
    /// The host calls of the latest run that finished (see `Interpreter::host_calls`).
    pub host_calls: &'p std::sync::Mutex<Vec<HostCall>>,
    /// The host's warning state when the evaluation started.
    pub warnings: &'p WarningState,
    /// The `global` and `persistent` variables when the evaluation started, and the changes of the
    /// latest run that finished (see `shared`).
    pub shared: &'p SharedValues,
    pub shared_changes: &'p Mutex<Vec<(crate::ir::SharedVar, Value)>>,
}

/// Register files kept between runs of a prepared plan, per function. A repeated call finds its
/// scalars' buffers in place, and the scalar fast path writes into them, instead of allocating a frame
/// and every result again. SSA code never reads a register before setting it, so what a register held
/// on an earlier run is only ever reused as storage.
pub struct Frames {
    kept: PerFunction<Mutex<Vec<KeptFrame>>>,
    /// Per function, compiled on its first run: the register program of each loop header whose
    /// loop is scalar code (see `scalar_loop`); empty when the plan runs every loop here.
    scalar_loops: Vec<std::sync::OnceLock<Vec<Option<scalar_loop::ScalarLoop>>>>,
}

/// A frame's registers and its phi-input buffer (see `Frame`).
type KeptFrame = (Regs, Vec<Reg>);
/// A frame's registers: one per value of its function.
type Regs = ValueTable<Reg>;

/// A register keeps its slot between runs when it holds a scalar whose derivative row has at most this
/// many entries: big blocks are not reused in place, and would only hold memory.
const KEPT_DERIVATIVE_ENTRIES: usize = 4096;
/// A register also keeps an array without derivative up to this many elements (larger ones go back
/// to the pool between calls, which bounds what a plan holds).
const KEPT_ARRAY_ELEMENTS: usize = 2048;

impl Frames {
    /// `scalar_loops`: run loops of scalar code as register programs.
    pub fn new(function_count: usize, scalar_loops: bool) -> Frames {
        Frames {
            kept: (0..function_count).map(|_| Mutex::new(Vec::new())).collect(),
            scalar_loops: (0..function_count).filter(|_| scalar_loops).map(|_| std::sync::OnceLock::new()).collect(),
        }
    }

    /// The program of the loop headed by `header` when it is entered from `pred`, outside the loop.
    fn scalar_loop(
        &self,
        id: FuncId,
        header: BlockId,
        pred: BlockId,
        compile: impl FnOnce() -> Vec<Option<scalar_loop::ScalarLoop>>,
    ) -> Option<&scalar_loop::ScalarLoop> {
        let program = self.scalar_loops.get(id.index())?.get_or_init(compile).get(header.index())?.as_ref()?;
        (!program.contains(pred)).then_some(program)
    }

    /// A register file for function `id` (one per concurrent run: rayon chunks and recursion take
    /// their own).
    fn take(&self, id: FuncId, size: usize) -> KeptFrame {
        let kept = self.kept[id].lock().unwrap_or_else(|e| e.into_inner()).pop();
        kept.filter(|(regs, _)| regs.len() == size).unwrap_or_else(|| (IdVec::filled(Reg::Unset, size), Vec::new()))
    }

    fn give_back(&self, id: FuncId, mut regs: Regs, incoming: Vec<Reg>) {
        // Registers not kept give their large buffers to the pool for the next call's kernels.
        for reg in regs.iter_mut().filter(|reg| !reg.worth_keeping()) {
            recycle(std::mem::replace(reg, Reg::Unset));
        }
        self.kept[id].lock().unwrap_or_else(|e| e.into_inner()).push((regs, incoming));
    }
}

/// Reverse mode's runs: every operation on taped values is recorded on the tape; the control record
/// holds the x-dependent branch decisions taken.
impl Recorder for Interpreter<'_> {
    type Control = ControlRecord;

    fn record(mut self, tape: Tape, args: Vec<Slot>) -> Result<(Slot, Tape, ControlRecord)> {
        self.tape = Some(tape);
        let result = self.call(FuncId::new(0), args, 1)?.pop().expect("one result");
        let tape = self.tape.take().expect("set above");
        Ok((result, tape, self.control))
    }
}

/// Derivative blocks of constant-derivative values, keyed by the seed they were computed for.
pub type DerivativeCache = std::sync::Mutex<HashMap<(u64, ValueId), Deriv>>;

struct Frame {
    regs: Regs,
    /// Phi inputs on their way into the phis (kept to reuse its buffer).
    incoming: Vec<Reg>,
    args: Vec<Option<Slot>>,
    nargin: usize,
    nargout: usize,
    /// The error the running `catch` block handles.
    caught: Option<Diagnostic>,
    /// Sparsity detection running one side of a branch on this frame: what the side must leave in
    /// place (see `sides`).
    side: Option<sides::Journal>,
}

impl Frame {
    /// A frame for running the region that starts at `start` (entered from `pred`): a copy of the
    /// registers it can read (those live into it and its phis' inputs from `pred`), the others unset.
    /// Copying the whole frame made each x-dependent `if` in a loop cost the size of every array.
    fn for_region(&self, live_in: &[ValueId], start: &Block, pred: BlockId) -> Frame {
        let mut regs: Regs = std::iter::repeat_with(|| Reg::Unset).take(self.regs.len()).collect();
        let phi_inputs = start.phis.iter().map(|phi| phi_input(phi, pred));
        for v in live_in.iter().copied().chain(phi_inputs) {
            regs[v] = self.regs[v].clone();
        }
        Frame {
            regs,
            incoming: Vec::new(),
            args: self.args.clone(),
            nargin: self.nargin,
            nargout: self.nargout,
            caught: self.caught.clone(),
            side: None,
        }
    }
}

enum Exit {
    Returned(Vec<Slot>),
    /// Control reached the stop block, coming from block `from`; `phis_set`: a branch nested in the
    /// region that joins there too (an `elseif`) already set the stop block's phis to both its sides.
    Reached {
        from: BlockId,
        phis_set: bool,
    },
}

pub struct Interpreter<'p> {
    plan: Plan<'p>,
    depth: usize,
    /// Identifies the seed of this run, for the derivative cache (None: do not cache).
    seed_key: Option<u64>,
    /// The entry function's seeded parameter and its seed as a colouring, and the value that parameter
    /// was read into (a double array): selections from that value build their rows from the colours,
    /// so the run may get no seed block when nothing else reads the value (the block, when there is
    /// one, is intact while the value can be read: rules only take over blocks read for the last time).
    seed: Option<(usize, SeedColours<'p>)>,
    seeded_value: Option<ValueId>,
    /// Run both sides of x-dependent `if`s to get a pattern valid for every x.
    detect_sparsity: bool,
    pub control: ControlRecord,
    /// Reverse mode: every operation on taped values is recorded here (see `Recorder`).
    tape: Option<Tape>,
    /// What the host must do for the user's code on the path taken, in order: every run of one
    /// evaluation takes the same path, so whichever finishes last tells the host.
    host_calls: Vec<HostCall>,
    /// When the code's last `tic` without an output ran, in microseconds since 1970 (see `timer`).
    tic_at: Option<f64>,
    /// The warning state as the user's code changes it (a copy of the host's, made at the first
    /// `warning` or `lastwarn`).
    warnings: Option<WarningState>,
    /// `(id, old state)` to restore when the function that set them with `warning(STATE, id, 'local')`
    /// returns; the running function's start at `local_warnings_mark`.
    local_warnings: Vec<(String, Value)>,
    local_warnings_mark: usize,
    /// Sparsity detection: the branches (function, block) whose other side is being run.
    exploring: Vec<(FuncId, BlockId)>,
    shared: shared::SharedStore,
}

impl<'p> Interpreter<'p> {
    pub fn new(plan: Plan<'p>, detect_sparsity: bool) -> Interpreter<'p> {
        Interpreter {
            plan,
            depth: 0,
            seed_key: None,
            seed: None,
            seeded_value: None,
            detect_sparsity,
            control: ControlRecord::default(),
            tape: None,
            host_calls: vec![],
            tic_at: None,
            warnings: None,
            local_warnings: vec![],
            local_warnings_mark: 0,
            exploring: vec![],
            shared: Default::default(),
        }
    }

    /// Tells this run that parameter `param` of the entry function carries the seed `colours`.
    pub fn with_seed_colours(mut self, param: usize, colours: SeedColours<'p>) -> Interpreter<'p> {
        self.seed = Some((param, colours));
        self
    }

    /// Gives the seeded value the seed block its selections did without, for code that reads the block
    /// itself (a loop's register program); later selections read the block too.
    fn write_seed_block(&mut self, regs: &mut Regs) {
        let (Some(v), Some((_, colours))) = (self.seeded_value.take(), self.seed.take()) else { return };
        if let Reg::Val(slot) = &mut regs[v] {
            let n = slot.value.numel();
            slot.deriv = colours.gather(0..n, n);
        }
    }

    /// Lets this run reuse (and fill) cached constant derivatives for the seed named `key`.
    pub fn with_seed_key(mut self, key: u64) -> Interpreter<'p> {
        self.seed_key = Some(key);
        self
    }

    /// Calls function `id` with `args`, returning its first `nargout` results.
    pub fn call(&mut self, id: FuncId, args: Vec<Slot>, nargout: usize) -> Result<Vec<Slot>> {
        let func = self.plan.program.function(id);
        let nargin = args.len();
        let args = pack_varargin(func, args, &mut self.tape)?;
        if args.len() > func.params.len() {
            return Err(Diagnostic::new(ErrorKind::Runtime, format!("{}: function called with too many inputs", func.name))
                .at(&func.file, func.span));
        }
        if nargout > func.outputs.len() && !has_varargout(func) {
            return Err(Diagnostic::new(ErrorKind::Runtime, format!("{}: function called with too many outputs", func.name))
                .at(&func.file, func.span));
        }
        if self.depth >= MAX_CALL_DEPTH {
            let error = Diagnostic::new(ErrorKind::Runtime, "max_recursion_depth exceeded");
            return Err(error.with_identifier("Octave:recursion-depth").at(&func.file, func.span));
        }
        self.depth += 1;
        let result = self.run(id, func, args, nargin, nargout);
        self.depth -= 1;
        if self.depth == 0
            && let Ok(mut published) = self.plan.host_calls.lock()
        {
            *published = std::mem::take(&mut self.host_calls);
        }
        if self.depth == 0 {
            self.publish_shared();
        }
        result
    }

    fn run(&mut self, id: FuncId, func: &Function, args: Vec<Option<Slot>>, nargin: usize, nargout: usize) -> Result<Vec<Slot>> {
        let (regs, incoming) = self.plan.frames.take(id, func.value_count as usize);
        let mut frame = Frame { regs, incoming, args, nargin, nargout, caught: None, side: None };
        let callers_mark = std::mem::replace(&mut self.local_warnings_mark, self.local_warnings.len());
        let exit = self.run_region(id, func, &mut frame, BlockId::new(0), None, None, nargout);
        self.plan.frames.give_back(id, frame.regs, frame.incoming);
        let mark = std::mem::replace(&mut self.local_warnings_mark, callers_mark);
        self.restore_local_warnings(mark)?;
        match exit? {
            Exit::Returned(results) => Ok(results),
            Exit::Reached { .. } => unreachable!("no stop block was given"),
        }
    }

    /// Runs from `start` (entered from `pred`; `pred == None` with a start block other than the entry
    /// means its phis are already set) until the function returns or control reaches `stop`.
    #[allow(clippy::too_many_arguments)]
    fn run_region(
        &mut self,
        id: FuncId,
        func: &Function,
        frame: &mut Frame,
        start: BlockId,
        entered_from: Option<BlockId>,
        stop: Option<BlockId>,
        nargout: usize,
    ) -> Result<Exit> {
        let (activity, moves) = (&self.plan.activity[id], &self.plan.moves[id]);
        let subscript_ranges = &self.plan.subscript_ranges[id];
        let (mut block, mut pred) = (start, entered_from);
        let mut phis_done = entered_from.is_none();
        // Where a scalar loop's program stopped inside a block: the general path resumes there.
        let mut first_inst = 0;
        loop {
            interrupt::check()?;
            if Some(block) == stop {
                let from = pred.expect("a stop block is entered through an edge");
                return Ok(Exit::Reached { from, phis_set: phis_done });
            }
            let b = func.block(block);
            if let (Some(p), false) = (pred, phis_done) {
                set_phis(frame, b, moves, block, p, |_| true);
            }
            phis_done = false;
            let mut first = std::mem::take(&mut first_inst);
            // A loop of scalar code entered from outside runs as a register program, until it leaves
            // the loop or meets what the program does not do (then the rest runs here).
            let (frames, joins) = (self.plan.frames, &self.plan.joins[id]);
            let compile = || scalar_loop::compile_all(func, &scalar_loop::Facts { activity, moves, subscript_ranges, joins });
            let records_scalars = self.tape.as_ref().is_none_or(Tape::records_scalars);
            let eligible = first == 0 && stop.is_none() && records_scalars && !self.detect_sparsity;
            if let Some(program) = pred.filter(|_| eligible).and_then(|p| frames.scalar_loop(id, block, p, compile)) {
                if self.depth == 1 && self.seeded_value.is_some_and(|v| program.reads_array(v)) {
                    self.write_seed_block(&mut frame.regs);
                }
                match self.run_scalar_loop(program, func, moves, frame) {
                    LoopExit::Left { from, to } => {
                        (pred, block) = (Some(from), to);
                        continue;
                    }
                    LoopExit::Stopped { block: at, inst } if at != block || inst != 0 => {
                        (pred, block, phis_done, first_inst) = (Some(at), at, true, inst);
                        continue;
                    }
                    LoopExit::Stopped { .. } => first = 0,
                }
            }
            if b.handler.is_some() && self.control.global && may_fail_with_x(b, activity) {
                self.control.local();
            }
            if let Some(error) = self.run_insts(id, func, block, first, frame) {
                (pred, block) = (Some(block), self.landing(id, block, b.handler, error, frame)?);
                continue;
            }
            match &b.term {
                Terminator::Jump(to) => (pred, block) = (Some(block), *to),
                Terminator::Branch { cond, then_block, else_block } => {
                    (pred, block, phis_done) = self.follow_branch(id, func, frame, block, *cond, [*then_block, *else_block], nargout)?;
                }
                Terminator::Return(outputs) => return Ok(Exit::Returned(self.returned(func, outputs, nargout, frame)?)),
            }
        }
    }

    /// Runs the instructions of block `block` from the `first`: the error that left one, if any.
    fn run_insts(&mut self, id: FuncId, func: &Function, block: BlockId, first: usize, frame: &mut Frame) -> Option<Diagnostic> {
        let (activity, moves) = (&self.plan.activity[id], &self.plan.moves[id]);
        let subscript_ranges = &self.plan.subscript_ranges[id];
        for (k, inst) in func.block(block).insts.iter().enumerate().skip(first) {
            let base_last_use = || !inst.args.is_empty() && moves.arg(block, k, 0);
            let held = frame.side.as_mut().map_or(0, |side| held_operands(side, inst, base_last_use(), activity, &frame.regs));
            let movable = |arg: usize| moves.arg(block, k, arg) && held >> arg.min(63) & 1 == 0;
            if let Some(range) = subscript_range(inst, subscript_ranges, &frame.regs) {
                frame.regs[inst.dests[0]] = range;
                continue;
            }
            self.note_selection(inst, activity, &frame.regs);
            let cache_key = self.cache_key(id, inst);
            if let Err(error) = self.exec(func, activity, inst, cache_key, &movable, frame) {
                return Some(passed_through(error, func, inst));
            }
        }
        None
    }

    /// Where `error`, raised in block `block` of function `id`, is caught: the landing block `handler`
    /// of its `try`, which reads the error from the frame (Octave records it for `lasterr`); an error
    /// nothing catches goes on.
    fn landing(&mut self, id: FuncId, block: BlockId, handler: Option<BlockId>, error: Diagnostic, frame: &mut Frame) -> Result<BlockId> {
        match handler {
            Some(landing) if error.catchable() => {
                self.control.decided(caught_at(id, block));
                let args = vec![error.message.clone(), error.caught_identifier().to_string()];
                self.host_calls.push(HostCall::with_text("lasterr", args));
                frame.caught = Some(error);
                Ok(landing)
            }
            _ => Err(error),
        }
    }

    /// The edge a branch takes, recorded on the control path: `(pred, block, phis_done)` to go on from.
    /// Sparsity detection runs both sides of an x-dependent `if` and goes on at its join.
    #[allow(clippy::too_many_arguments)]
    fn follow_branch(
        &mut self,
        id: FuncId,
        func: &Function,
        frame: &mut Frame,
        block: BlockId,
        cond: ValueId,
        [then_block, else_block]: [BlockId; 2],
        nargout: usize,
    ) -> Result<(Option<BlockId>, BlockId, bool)> {
        let taken = match &frame.regs[cond] {
            Reg::Val(Slot { value: Value::Logical(a), .. }) => a.data[0],
            _ => unreachable!("branch conditions are logical scalars from 'truth'"),
        };
        let (next, other) = if taken { (then_block, else_block) } else { (else_block, then_block) };
        let activity = &self.plan.activity[id];
        if activity.varies(cond) {
            let join = self.plan.joins[id][block.index()].filter(|_| activity.depends_on_x(cond));
            match join {
                // Detection explores both sides of an x-dependent `if`: its pattern holds on either,
                // unless a side fails (see `ControlRecord::same_path`).
                Some(join) if self.detect_sparsity => {
                    self.control.side(taken);
                    let arrived_from = self.run_both_sides(id, func, frame, block, next, other, join, nargout)?;
                    return Ok((Some(arrived_from), join, true));
                }
                // A tape is a trace of one control path.
                Some(_) if self.tape.is_none() => self.control.side(taken),
                _ => self.control.branch(taken),
            }
        }
        Ok((Some(block), next, false))
    }

    /// The first `nargout` outputs of `func` at its return.
    fn returned(&self, func: &Function, outputs: &[ValueId], nargout: usize, frame: &mut Frame) -> Result<Vec<Slot>> {
        let fixed = func.outputs.len() - usize::from(has_varargout(func));
        let mut results = outputs
            .iter()
            .take(nargout.min(fixed))
            .zip(&func.outputs)
            .map(|(v, name)| match std::mem::replace(&mut frame.regs[v], Reg::Unset) {
                Reg::Val(s) => Ok(s),
                _ => Err(Diagnostic::new(
                    ErrorKind::Runtime,
                    format!("{}: some elements undefined in return list: '{name}' is not set", func.name),
                )
                .at(&func.file, func.span)),
            })
            .collect::<Result<Vec<_>>>()?;
        if nargout > fixed {
            results.extend(varargout_values(func, &frame.regs[outputs[fixed]], nargout - fixed, &self.tape)?);
        }
        Ok(results)
    }

    /// Sparsity detection at a branch whose condition depends on x: runs the taken side for the values,
    /// and the other side from the same state for its pattern, and sets the join's phis to the taken
    /// side's values with the union of both sides' patterns. Returns the taken side's block into the join.
    /// A frame running a side already runs this branch's sides on a copy of the registers the other side
    /// reads; any other runs them on the frame itself (see `sides`).
    #[allow(clippy::too_many_arguments)]
    fn run_both_sides(
        &mut self,
        id: FuncId,
        func: &Function,
        frame: &mut Frame,
        branch: BlockId,
        taken: BlockId,
        other: BlockId,
        join: BlockId,
        nargout: usize,
    ) -> Result<BlockId> {
        // Met again on its own other side, a branch is in a recursion that detection would follow to
        // the depth limit (a problem that calls itself through feval to dispatch on an action): that
        // side fails now, as it would there.
        if self.exploring.contains(&(id, branch)) {
            return Err(Diagnostic::new(ErrorKind::Internal, "a branch met again while its other side is run"));
        }
        if frame.side.is_none() {
            return self.run_sides_in_place(id, func, frame, branch, [taken, other], join, nargout);
        }
        let moves = &self.plan.moves[id];
        let mut other_frame = frame.for_region(moves.live_in(other), func.block(other), branch);
        let Exit::Reached { from: from_taken, phis_set: taken_phis_set } =
            self.run_region(id, func, frame, taken, Some(branch), Some(join), nargout)?
        else {
            unreachable!("the join post-dominates the branch")
        };
        let (trace_mark, calls_len, shared_mark) = (self.control.mark(), self.host_calls.len(), self.shared_mark());
        self.exploring.push((id, branch));
        let other_side = self.run_region(id, func, &mut other_frame, other, Some(branch), Some(join), nargout);
        self.exploring.pop();
        self.control.rewind(trace_mark);
        self.host_calls.truncate(calls_len);
        self.rewind_shared(shared_mark);
        let from_other = match other_side {
            Ok(Exit::Reached { from, phis_set }) => Some((from, phis_set)),
            // The other side fails at this x (e.g. it indexes out of range): its pattern is unknown.
            _ => {
                self.control.unexplored_side();
                None
            }
        };
        for phi in &func.block(join).phis {
            let taken_input = frame.regs[sides::arriving(phi, (from_taken, taken_phis_set))].clone();
            // A variable the taken side leaves undefined stays so (reading it later is an error).
            let Reg::Val(mut slot) = taken_input else {
                frame.regs[phi.dest] = taken_input;
                continue;
            };
            if let Some(arrival) = from_other
                && let Reg::Val(alt) = &other_frame.regs[sides::arriving(phi, arrival)]
            {
                self.unite_sides(&mut slot, alt);
            }
            frame.regs[phi.dest] = Reg::Val(slot);
        }
        Ok(from_taken)
    }

    /// `base(subs...)` with its derivative, recorded on the tape.
    fn index_slot(&mut self, base: &Slot, subs: &[Subscript]) -> Result<Slot> {
        let tape = match &mut self.tape {
            Some(tape) => tape.record_index(base, subs)?,
            None => None,
        };
        let (value, deriv) = index(&base.value, &base.deriv, subs)?;
        // A taped complex value's elements stay complex: their variable has rows for both parts.
        let value = if tape.is_some() && matches!(base.value, Value::Complex(_)) { primitives::complex::widened(value) } else { value };
        Ok(Slot { value, deriv, tape })
    }

    /// `base(subs) = rhs` with its derivative, recorded on the tape; into a cell, `rhs` is a cell of
    /// the elements or one element (Octave's `c(2) = 5`).
    /// `base(subs) = rhs`; an inactive result is neither recorded nor given a derivative.
    fn assign_slot(&mut self, base: Option<Slot>, rhs: &Slot, subs: &[Subscript], active: bool) -> Result<Slot> {
        if matches!(rhs.value, Value::Cell(_)) || matches!(base, Some(Slot { value: Value::Cell(_), .. })) {
            return containers::assign_cell_array(base, subs, rhs.clone(), &mut self.tape);
        }
        if matches!(rhs.value, Value::Struct(_)) || matches!(base, Some(Slot { value: Value::Struct(_), .. })) {
            self.untaped(rhs)?;
            base.as_ref().map(|b| self.untaped(b)).transpose()?;
            return containers::assign_elements(base, subs, rhs.clone(), false);
        }
        let tape = match &mut self.tape {
            Some(tape) if active => tape.record_assign(base.as_ref(), rhs, subs)?,
            _ => None,
        };
        let zero = Deriv::Zero;
        let rhs_deriv = if active { &rhs.deriv } else { &zero };
        let base = base.map(|s| (s.value, if active { s.deriv } else { Deriv::Zero }));
        let (value, deriv) = assign(base, &rhs.value, rhs_deriv, subs)?;
        if matches!(value, Value::Int(..)) && tape.is_some() {
            return Err(primitives::integers::not_differentiable("subsasgn", value.class_name()));
        }
        if matches!(value, Value::Complex(_)) && tape.is_some() {
            return Err(primitives::complex::on_tape("subsasgn"));
        }
        Ok(Slot { value, deriv, tape })
    }

    /// What keeps no tape variables (struct arrays, handles' captured values, cellfun's cells): an
    /// x-dependent value entering one stops reverse mode (auto mode then runs forward).
    fn untaped<'s>(&self, slot: &'s Slot) -> Result<&'s Slot> {
        match &self.tape {
            Some(tape) if slot.tape.is_some() => Err(tape.container_refused()),
            _ => Ok(slot),
        }
    }

    /// The derivative-cache key of an instruction's first result, when it has a constant derivative.
    fn cache_key(&self, id: FuncId, inst: &Inst) -> Option<(u64, ValueId)> {
        let (seed, dest) = (self.seed_key?, *inst.dests.first()?);
        let constant = id == FuncId::new(0) && self.plan.constant_derivatives.get(dest) == Some(&true);
        constant.then_some((seed, dest))
    }
}

/// Runs `inst` on scalars without the general machinery (see `scalar`) when it is an elementwise
/// primitive or a branch condition, an element read `x(i)`/`x(i, j)` or an element write `a(i) = s`/
/// `a(i, j) = s` on real scalars, or a constant already in its register; false: nothing was done, run the
/// general path. `tape`: a gradient tape, which records elementwise primitives and element reads here.
fn scalar_fast_path(inst: &Inst, activity: &Activity, movable: &dyn Fn(usize) -> bool, regs: &mut Regs, tape: Option<&mut Tape>) -> bool {
    let [dest] = inst.dests[..] else { return false };
    let taped = tape.is_some() && inst.args.iter().any(|v| matches!(&regs[v], Reg::Val(s) if s.tape.is_some()));
    let written = match &inst.op {
        Op::Prim(id) if scalar::is_concatenation(*id) && !taped => {
            // SSA: the destination is none of the operands, so its old slot can be taken out meanwhile.
            let mut out = defined(std::mem::replace(&mut regs[dest], Reg::Unset));
            let operand_at = |k: usize| value_slot(regs, inst.args[k]);
            let written = scalar::concatenate(*id, inst.args.len(), operand_at, activity.is_active(dest), out.as_mut());
            if let (Some(None), Some(out)) = (&written, out) {
                regs[dest] = Reg::Val(out);
            }
            written
        }
        Op::Prim(id) if inst.args.len() <= 2 => {
            with_destination(regs, dest, &inst.args, |out, operands| scalar::primitive(*id, operands, activity.is_active(dest), out, tape))
        }
        Op::Index => match element_position(regs, &inst.base(), inst.subscripts()) {
            Some(k) => {
                let tape = tape.filter(|_| activity.is_active(dest));
                with_destination(regs, dest, &inst.args[..1], |out, base| scalar::element(base[0], k, out, tape))
            }
            None => None,
        },
        Op::IndexAssign if !taped => return assign_element(inst, movable, regs),
        // Constants are set again on every pass through a loop: a register that holds one already
        // keeps it.
        Op::Const(v) => {
            return matches!(&regs[dest], Reg::Val(Slot { value, deriv: Deriv::Zero, tape: None }) if value == v);
        }
        _ => None,
    };
    match written {
        None => false,
        Some(None) => true,
        Some(Some(slot)) => {
            regs[dest] = Reg::Val(*slot);
            true
        }
    }
}

/// Calls `f` with the destination register's slot (mutable, when it holds one) and the operand slots:
/// `None` when an operand is not a value.
fn with_destination<R>(
    regs: &mut Regs,
    dest: ValueId,
    args: &[ValueId],
    f: impl FnOnce(Option<&mut Slot>, &[&Slot]) -> Option<R>,
) -> Option<R> {
    let d = dest.index();
    let (before, rest) = regs.as_mut_slice().split_at_mut(d);
    let (out, after) = rest.split_first_mut()?;
    let operand = |v: &ValueId| match v.index() {
        i if i < d => Some(&before[i]),
        i if i > d => Some(&after[i - d - 1]),
        _ => None,
    };
    let slots = |v: &ValueId| match operand(v)? {
        Reg::Val(s) => Some(s),
        _ => None,
    };
    let operands: [&Slot; 2] = match args {
        [a] => [slots(a)?; 2],
        [a, b] => [slots(a)?, slots(b)?],
        _ => return None,
    };
    let out = match out {
        Reg::Val(s) => Some(s),
        _ => None,
    };
    f(out, &operands[..args.len()])
}

/// `a(i) = s` or `a(i, j) = s` in place, for a scalar `s` inside a real double `a` (see `scalar_fast_path`).
fn assign_element(inst: &Inst, movable: &dyn Fn(usize) -> bool, regs: &mut Regs) -> bool {
    let Some(k) = element_position(regs, &inst.base(), inst.subscripts()) else { return false };
    let Reg::Val(mut base) = take_or_clone(regs, inst.args[0], movable(0)) else { return false };
    let assigned = value_slot(regs, inst.args[1]).is_some_and(|rhs| scalar::assign_element(&mut base, k, rhs));
    if assigned {
        regs[inst.dests[0]] = Reg::Val(base);
    } else if movable(0) {
        regs[inst.args[0]] = Reg::Val(base);
    }
    assigned
}

/// The 0-based linear position `base(subs...)` names when `subs` are one or two scalar positions inside
/// a 2-D `base` (None: anything else, including out-of-range and growing subscripts).
fn element_position(regs: &Regs, base: &ValueId, subs: &[ValueId]) -> Option<usize> {
    linear_position(value_slot(regs, *base)?, subs.len(), |k| value_slot(regs, subs[k]).and_then(scalar::position))
}

/// `element_position` of `count` subscripts, the k-th position given by `at(k)`.
fn linear_position(base: &Slot, count: usize, at: impl Fn(usize) -> Option<usize>) -> Option<usize> {
    let dims = match &base.value {
        Value::Double(a) => &a.dims,
        _ => return None,
    };
    match count {
        1 => Some(at(0)?).filter(|&k| k < dims.iter().product()),
        2 if dims.len() == 2 => {
            let (i, j) = (at(0)?, at(1)?);
            (i < dims[0] && j < dims[1]).then_some(i + j * dims[0])
        }
        _ => None,
    }
}

/// The operands of `inst` a side of a branch must leave in place, as bits by position (see
/// `sides::Journal`; from the 64th on, all): an element assignment it records moves its base.
fn held_operands(side: &mut sides::Journal, inst: &Inst, base_last_use: bool, activity: &Activity, regs: &Regs) -> u64 {
    let recorded = side.record(inst, base_last_use, activity, regs);
    let held = |(k, v): (usize, &ValueId)| if (k == 0 && recorded) || !side.holds(*v) { 0 } else { 1 << k.min(63) };
    inst.args.iter().enumerate().map(held).fold(0, |bits, bit| bits | bit)
}

/// Sets the phis of block `block` (`b`) entered from `pred` that `wanted` selects (by position).
fn set_phis(frame: &mut Frame, b: &Block, moves: &Moves, block: BlockId, pred: BlockId, wanted: impl Fn(usize) -> bool) {
    let position = b.preds.iter().position(|q| *q == pred).expect("edge from a predecessor");
    let phis = b.phis.iter().enumerate().filter(|(k, _)| wanted(*k));
    // All inputs are read before any phi is set (a phi may read another phi of this block).
    // A side of a branch being detected leaves what it holds in place (see `sides`).
    let side = &frame.side;
    let incoming = phis.clone().map(|(k, phi)| {
        let input = phi_input(phi, pred);
        let movable = moves.phi(block, position, k) && side.as_ref().is_none_or(|side| !side.holds(input));
        take_or_clone(&mut frame.regs, input, movable)
    });
    frame.incoming.extend(incoming);
    for ((_, phi), r) in phis.zip(frame.incoming.drain(..)) {
        let old = std::mem::replace(&mut frame.regs[phi.dest], r);
        // An input moved out is dead: it gets the phi's old slot as storage, which the loop's next
        // iteration rewrites in place.
        let input = &mut frame.regs[phi_input(phi, pred)];
        if matches!(input, Reg::Unset) {
            *input = old;
        }
    }
}

/// A caught error's place in the control record.
fn caught_at(id: FuncId, block: BlockId) -> u64 {
    ((id.index() as u64) << 32 | block.index() as u64) ^ 0xCA06_4700_0000_0000
}

/// Whether an error in a `try` block could depend on x: an operand or the branch condition does.
fn may_fail_with_x(b: &Block, activity: &Activity) -> bool {
    let cond = match &b.term {
        Terminator::Branch { cond, .. } => Some(*cond),
        _ => None,
    };
    b.insts.iter().flat_map(|i| &i.args).chain(&cond).any(|v| activity.depends_on_x(*v))
}

/// An error leaving instruction `inst` of `func`: located at the innermost instruction, with this
/// function (and the callee an inlined instruction came from) on its stack.
fn passed_through(mut error: Diagnostic, func: &Function, inst: &Inst) -> Diagnostic {
    let file = inst.inlined.as_ref().map_or(&func.file, |from| &from.file);
    // Octave places an undefined name.
    if error.kind == ErrorKind::Undefined && error.location.is_none() {
        let (line, column) = file.line_col(inst.span.lo);
        error.message = format!("{} near line {line}, column {column}", error.message);
    }
    error = error.at(file, inst.span);
    let variable = inst.dests.first().and_then(|d| func.indexed_variables.get(d));
    if let (Some(name), Some(rest)) = (variable, error.message.strip_prefix("index (")) {
        error.message = format!("{name}({rest}");
    }
    // Every error keeps its way out: `err.stack` in a `catch`, the call chain in msad's message.
    if !error.stack_fixed {
        match &inst.inlined {
            Some(from) => {
                error.stack.push(stack_frame(&from.file, &from.name, inst.span));
                error.stack.push(stack_frame(&func.file, &func.name, from.call_span));
            }
            None => error.stack.push(stack_frame(&func.file, &func.name, inst.span)),
        }
    }
    error
}

/// The `err.stack` entry of function `name` of `file` stopped at `span`.
fn stack_frame(file: &SourceFile, name: &str, span: Span) -> StackFrame {
    let (line, column) = file.line_col(span.lo);
    // Octave names a subfunction `file>name`.
    let name = match file.path.file_stem().and_then(|s| s.to_str()) {
        Some(stem) if stem != name && !name.starts_with('@') => format!("{stem}>{name}"),
        _ => name.to_string(),
    };
    StackFrame { file: file.path.display().to_string(), name, line, column }
}

/// The results of primitive `id`: complex values that depend on x carry derivatives (a first result
/// narrowed to real by the kernel stays complex, see `complex::keeps_complex`); the tape decides
/// whether it follows them (gradients do, Hessians refuse).
pub(super) fn complex_results<R>(id: primitives::PrimId, results: R, operands: &[&Slot]) -> Result<R>
where
    R: std::ops::Deref<Target = [Value]> + IntoIterator<Item = Value> + FromIterator<Value>,
{
    let values: Operands<&Value> = operands.iter().map(|s| &s.value).collect();
    let depends_on_x = operands.iter().any(|s| !s.deriv.is_zero() || s.tape.is_some());
    match results.first() {
        Some(first) if depends_on_x && primitives::complex::keeps_complex(id, &values, first) => {
            Ok(results.into_iter().enumerate().map(|(k, v)| if k == 0 { primitives::complex::widened(v) } else { v }).collect())
        }
        _ => Ok(results),
    }
}

fn phi_input(phi: &Phi, pred: BlockId) -> ValueId {
    phi.incoming.iter().find(|(from, _)| *from == pred).expect("phi covers every predecessor").1
}

/// A register's slot, or None for an undefined variable (assignments create it).
fn defined(reg: Reg) -> Option<Slot> {
    match reg {
        Reg::Val(s) => Some(s),
        _ => None,
    }
}

fn has_varargout(func: &Function) -> bool {
    func.outputs.last().is_some_and(|o| o == "varargout")
}

/// The first `count` values of a function's `varargout` cell, for the outputs after its fixed ones.
fn varargout_values(func: &Function, varargout: &Reg, count: usize, tape: &Option<Tape>) -> Result<Vec<Slot>> {
    let fixed = func.outputs.len() - 1;
    let missing = |given: usize| {
        Diagnostic::new(ErrorKind::Runtime, format!("element number {} undefined in return list", fixed + given + 1))
            .at(&func.file, func.span)
    };
    match varargout {
        Reg::Val(Slot { value: Value::Cell(c), deriv, tape: var }) if c.data.len() >= count => Ok(c
            .data
            .iter()
            .take(count)
            .enumerate()
            .map(|(k, v)| Slot { tape: containers::part_var(tape, *var, k), ..Slot::new(v.clone(), deriv.part(k)) })
            .collect()),
        Reg::Val(Slot { value: Value::Cell(c), .. }) => Err(missing(c.data.len())),
        Reg::Val(_) => Err(Diagnostic::new(ErrorKind::Runtime, "varargout must be a cell array object").at(&func.file, func.span)),
        _ => Err(missing(0)),
    }
}

/// The arguments by parameter position (None: not passed). With `varargin` as the last parameter,
/// the arguments from its position on become one cell.
fn pack_varargin(func: &Function, args: Vec<Slot>, tape: &mut Option<Tape>) -> Result<Vec<Option<Slot>>> {
    let mut args: Vec<Option<Slot>> = args.into_iter().map(Some).collect();
    if func.params.last().map(String::as_str) != Some("varargin") {
        return Ok(args);
    }
    let fixed = func.params.len() - 1;
    let rest = if args.len() > fixed { args.split_off(fixed) } else { vec![] };
    args.resize_with(fixed, || None);
    args.push(Some(containers::literal(rest.into_iter().flatten().collect(), 1, tape)?));
    Ok(args)
}

/// `a:s:b` as `Reg::Range` when the analysis found it read only as a subscript and its elements are
/// valid positions (see `primitives::subscript_range`).
fn subscript_range(inst: &Inst, subscript_ranges: &ValueTable<bool>, regs: &Regs) -> Option<Reg> {
    let [dest] = inst.dests[..] else { return None };
    if !subscript_ranges[dest] {
        return None;
    }
    let bounds = slots(regs, &inst.args).ok()?;
    let values: Operands<&Value> = bounds.iter().map(|s| &s.value).collect();
    let (first, step, count) = primitives::subscript_range(&values)?;
    Some(Reg::Range(first, step, count))
}

/// An argument of a call: a subscript range is built as the row it stands for.
fn argument(regs: &Regs, v: ValueId) -> Result<Slot> {
    match regs[v] {
        Reg::Range(first, step, count) => {
            let mut row = buffers::take(count);
            row.extend((0..count).map(|k| (first as f64 + 1.0) + k as f64 * step as f64));
            Ok(Slot::inactive(Value::Double(crate::value::Array::row(row))))
        }
        _ => Ok(slot(regs, v)?.clone()),
    }
}

/// Sets `reg` to the constant `v`. A register holding an array of its size (an earlier call's copy,
/// since updated in place, as `f = zeros(n, 1)` filled by a loop) takes the elements back without a
/// new allocation.
fn set_constant(reg: &mut Reg, v: &Value) {
    match (reg, v) {
        (Reg::Val(Slot { value: Value::Double(kept), deriv, tape }), Value::Double(c)) if kept.dims == c.dims => {
            kept.data.copy_from_slice(&c.data);
            std::mem::replace(deriv, Deriv::Zero).recycle();
            *tape = None;
        }
        (reg, _) => recycle(std::mem::replace(reg, Reg::Val(Slot::inactive(v.clone())))),
    }
}

/// The values and derivatives of an elementwise instruction's one or two operands, on the stack: the
/// in-place checks run for every primitive and must not allocate.
fn operand_pair<'r>(regs: &'r Regs, inst: &Inst) -> Option<([&'r Value; 2], [&'r Deriv; 2])> {
    let first = value_slot(regs, *inst.args.first()?)?;
    let second = match inst.args.len() {
        1 => first,
        2 => value_slot(regs, inst.args[1])?,
        _ => return None,
    };
    Some(([&first.value, &second.value], [&first.deriv, &second.deriv]))
}

/// The derivative block of an operand of `inst` read for the last time, taken out of its register (its
/// derivative left `Zero`) when the forward rule of `id` can write the result `output`'s block into it.
fn take_dying_block(
    id: PrimId,
    inst: &Inst,
    movable: &dyn Fn(usize) -> bool,
    regs: &mut Regs,
    output: &Value,
    written_into: Option<usize>,
) -> Option<Reused> {
    if !(0..inst.args.len()).any(movable) {
        return None;
    }
    let (mut values, derivs) = operand_pair(regs, inst)?;
    if let Some(k) = written_into {
        values[k] = output;
    }
    let n = inst.args.len();
    let forward = Forward { inputs: &values[..n], derivs: &derivs[..n], output };
    let position = (0..n).find(|&k| movable(k) && primitives::writes_into_operand(id, &forward, k))?;
    let Reg::Val(dying) = &mut regs[inst.args[position]] else { return None };
    match std::mem::replace(&mut dying.deriv, Deriv::Zero) {
        Deriv::Dense(block) => Some(Reused { position, block }),
        _ => unreachable!("writes_into_operand accepts dense blocks only"),
    }
}

/// The value of an operand of `inst` read for the last time, taken out of its register (an array
/// without dims or elements left in its place, never read, so that nothing is allocated) when the kernel of `id` can write its result into it; `derivative`: the forward
/// rule runs next.
fn take_dying_value(
    id: PrimId,
    inst: &Inst,
    movable: &dyn Fn(usize) -> bool,
    regs: &mut Regs,
    derivative: bool,
) -> Option<(usize, Array<f64>)> {
    if !(0..inst.args.len()).any(movable) {
        return None;
    }
    let (values, derivs) = operand_pair(regs, inst)?;
    let n = inst.args.len();
    let position = (0..n).find(|&k| movable(k) && primitives::value_into_operand(id, &values[..n], &derivs[..n], k, derivative))?;
    let Reg::Val(dying) = &mut regs[inst.args[position]] else { return None };
    match std::mem::replace(&mut dying.value, Value::Double(Array { dims: Vec::new(), data: Vec::new() })) {
        Value::Double(own) => Some((position, own)),
        _ => unreachable!("value_into_operand accepts full doubles only"),
    }
}

/// Gives the large buffers of a register no longer needed to the pool.
fn recycle(reg: Reg) {
    if let Reg::Val(slot) = reg {
        slot.value.recycle();
        slot.deriv.recycle();
    }
}

/// The register's content, moved out when this is its last read.
fn take_or_clone(regs: &mut Regs, v: ValueId, last_use: bool) -> Reg {
    let r = &mut regs[v];
    if last_use { std::mem::replace(r, Reg::Unset) } else { r.clone() }
}

fn slot(regs: &Regs, v: ValueId) -> Result<&Slot> {
    value_slot(regs, v).ok_or_else(|| not_a_value(&regs[v]))
}

/// The register's slot, when it holds a value (without building the error the fast paths drop).
fn value_slot(regs: &Regs, v: ValueId) -> Option<&Slot> {
    match &regs[v] {
        Reg::Val(s) => Some(s),
        _ => None,
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
        Reg::Range(..) => Diagnostic::new(ErrorKind::Internal, "a subscript range read as a value"),
        Reg::List(_) => Diagnostic::new(ErrorKind::Runtime, "a cs-list cannot be used as one value here"),
        Reg::Stray(items) => spread::one_value_needed(items.len()),
        Reg::Val(_) | Reg::Unset => unreachable!("SSA value read before its definition"),
    }
}

fn slots<'r>(regs: &'r Regs, vs: &[ValueId]) -> Result<Operands<&'r Slot>> {
    vs.iter().map(|&v| slot(regs, v)).collect()
}

fn subscripts(regs: &Regs, vs: &[ValueId]) -> Result<Subscripts> {
    vs.iter().enumerate().map(|(k, &v)| subscript_of(&regs[v], k, vs.len())).collect()
}

/// Subscript `position` of `count`.
fn subscript_of(reg: &Reg, position: usize, count: usize) -> Result<Subscript> {
    match reg {
        Reg::Colon => Ok(Subscript::All),
        &Reg::Range(first, step, count) => Ok(Subscript::range(first, step, count)),
        Reg::Val(s) => Subscript::from_value(&s.value, position, count),
        other => Err(not_a_value(other)),
    }
}
