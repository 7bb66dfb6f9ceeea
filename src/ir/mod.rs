//! Intermediate representation: each user function becomes a control-flow graph of three-address
//! instructions in SSA form (phi nodes at joins). Variables disappear: every assignment defines a new value.

mod dump;
pub mod library;
pub mod lower;
pub mod program;

use crate::diag::{Diagnostic, ErrorKind, SourceFile, Span};
use crate::host::HostCall;
use crate::ids::IdVec;
pub use crate::prim::{Callee, FuncId, HigherOrder};
use crate::primitives::PrimId;
use crate::value::Value;
use std::collections::HashMap;
use std::sync::Arc;

crate::ids::opaque_id!(
    /// An SSA value of a function.
    ValueId
);
crate::ids::opaque_id!(
    /// A basic block of a function.
    BlockId
);

impl BlockId {
    /// A function's first block.
    pub const ENTRY: BlockId = BlockId::new(0);
}

#[derive(Clone, Debug)]
pub enum Op {
    Const(Value),
    /// The i-th input argument.
    Param(usize),
    /// A variable read on a path where it was never assigned; using it is an error.
    Undefined(String),
    /// The `:` of `a(:, 1)`: a marker understood by indexing only.
    MagicColon,
    /// Operator or builtin from the primitive table, `nargout` results.
    Prim(PrimId),
    /// Call of a user function with as many results as `dests`.
    Call(FuncId),
    /// `@name` or `@(params) body`: a function handle to `target`; `args` are the values an anonymous
    /// function captured, passed to the target before the call's own arguments. `text` is what
    /// `func2str` gives.
    MakeHandle {
        target: Callee,
        text: String,
    },
    /// A builtin that calls the function handle it is given (`feval`, `cellfun`, `arrayfun`), with as
    /// many results as `dests`.
    Apply(HigherOrder),
    /// `args[0](args[1..])`.
    Index,
    /// `args[0](args[2..]) = args[1]`: a new array value.
    IndexAssign,
    /// The value of `end` in index position `position` of `count` indices into `args[0]`.
    End {
        position: usize,
        count: usize,
    },
    /// `args[0](args[1..])` read inside `s(k).f = v` to be changed and put back by `ElementAssign`: a
    /// subscript past the end names a new element with the struct's fields all `[]`; an undefined or
    /// `[]` base gives an undefined value.
    Element,
    /// `args[0](args[2..]) = args[1]`, the element `Element` read and changed: fields it gained are
    /// added to every element, as Octave's `s(2).g = v` does.
    ElementAssign,
    /// `args[0].name`. `tolerant`: a missing field or an undefined base gives an undefined value instead
    /// of an error (the read inside a nested assignment such as `s.a.b = v`). On a struct array it names
    /// one value per element (a cs-list), used as `list` says.
    Field {
        name: String,
        tolerant: bool,
        list: ListUse,
    },
    /// `args[0].name = args[1]`: a new struct value.
    FieldAssign(String),
    /// `args[0]{args[1..]}`: the elements of a cell array it names (`tolerant` as for `Field`), used as
    /// `list` says.
    CellIndex {
        tolerant: bool,
        list: ListUse,
    },
    /// `args[0]{args[2..]} = args[1]`: a new cell value.
    CellAssign,
    /// `[t1, c{subs}, s.f] = ...`: how many values target `args[0]{args[1..]}` (or with `field`,
    /// `args[0].field`, one per struct element) takes; `args[0]` may be undefined.
    TargetCount {
        field: bool,
    },
    /// The inner call (a `Prim`, `Call`, `Apply` or `Index`) of `args[1..]` asked for `args[0]` results,
    /// which are left as one cs-list.
    Outputs(Box<Op>),
    /// From the cs-list `args[0]`, the `args[2]` values from position `args[1]` (0-based): one value,
    /// or with `cell` a 1-by-n cell of them.
    ListPart {
        cell: bool,
    },
    /// `[..., c{subs}, ...] = ...` (`field` None: `args[0]{args[2..]}`) or `[..., s.f, ...] = ...`:
    /// the elements of the cell `args[1]` assigned in order.
    ListAssign {
        field: Option<String>,
    },
    /// `{...}`: rows of `widths[r]` operands, given row by row; rows differ in width only when a
    /// cs-list among them spreads them to equal widths at run time (`{c{:}; 1, 2}`).
    CellLiteral {
        widths: Vec<usize>,
    },
    /// Raises this error when it runs: a call of a name nothing defines. As in MATLAB, it is an error
    /// only on paths that reach it (Octave's library functions call unsupported functions on paths
    /// that validate arguments).
    Fail(Box<Diagnostic>),
    /// How many inputs the running call was given.
    Nargin,
    /// How many outputs the running call was asked for.
    Nargout,
    /// In a `catch` block, the error that was caught, as Octave's struct: `message`, `identifier`, `stack`.
    CaughtError,
    /// `warning(...)`: changes or queries the run's warning state (its result: the state struct) or
    /// issues a warning, passed on to the host's `warning` after the run.
    Warning,
    /// `lastwarn(...)`: the last warning's message and identifier; arguments set them.
    LastWarning,
    /// `lasterr`: the message (and identifier) of the error caught last.
    LastError,
    /// `tic` or `toc`: the clock, read when the instruction runs (never folded, never cached).
    Timer(Timer),
    /// Output of the user's code (`fprintf`, `disp`, ...): passed on to the host after the run, so it
    /// appears once per call however often msad runs the code.
    Output(Output),
    /// `global` or `persistent` declaration: a variable that does not exist yet takes `args[0]` (the
    /// declaration's initial value) or `[]`.
    DeclareShared(SharedVar),
    /// The value a `global` or `persistent` variable has now (another function may have changed it).
    LoadShared(SharedVar),
    /// `args[0]` becomes the variable's value. The host sees it after the call (see
    /// `exec::interp::shared`), however often msad runs the code.
    StoreShared(SharedVar),
}

/// A variable that outlives the call that assigns it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SharedVar {
    /// The host's global variable of this name.
    Global(String),
    /// A persistent variable of function `function` in file `file`.
    Persistent { file: std::path::PathBuf, function: String, name: String },
    /// A variable of function `parent` in file `file` that its nested functions assign, run through a
    /// handle from the host: the handle holds the parent's workspace, which keeps the value.
    Workspace { file: std::path::PathBuf, parent: String, name: String },
}

impl SharedVar {
    /// The variable's name in the code.
    pub fn name(&self) -> &str {
        match self {
            SharedVar::Global(name) | SharedVar::Persistent { name, .. } | SharedVar::Workspace { name, .. } => name,
        }
    }
}

/// Octave's stopwatch (see `Op::Timer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    Tic,
    Toc,
}

impl Timer {
    pub fn named(name: &str) -> Option<Timer> {
        match name {
            "tic" => Some(Timer::Tic),
            "toc" => Some(Timer::Toc),
            _ => None,
        }
    }
}

/// The host's output functions that user code calls for their effect only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    Printf,
    Fprintf,
    Disp,
    Display,
    Drawnow,
}

impl Output {
    pub fn named(name: &str) -> Option<Output> {
        match name {
            "printf" => Some(Output::Printf),
            "fprintf" => Some(Output::Fprintf),
            "disp" => Some(Output::Disp),
            "display" => Some(Output::Display),
            "drawnow" => Some(Output::Drawnow),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Output::Printf => "printf",
            Output::Fprintf => "fprintf",
            Output::Disp => "disp",
            Output::Display => "display",
            Output::Drawnow => "drawnow",
        }
    }

    /// The host call that gives this output of `args`; `fprintf` writes to the screen only (file
    /// identifier 1 or 2, or none).
    pub fn host_call(self, args: Vec<Value>) -> crate::diag::Result<HostCall> {
        if self == Output::Fprintf
            && let Some(fid) = args.first().filter(|a| !matches!(a, Value::Char(_)))
            && !matches!(fid.numeric().filter(|a| a.numel() == 1).map(|a| a.data[0]), Some(1.0 | 2.0))
        {
            return Err(Diagnostic::new(ErrorKind::Unsupported, "msad does not support fprintf to a file yet")
                .with_hint("write to the file outside the differentiated function"));
        }
        Ok(HostCall { function: self.name(), args })
    }
}

/// How the values of a cs-list (`c{:}`, `s.f` on a struct array) are used where they are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListUse {
    /// Exactly one value is wanted (an operand of an operator, an indexed base).
    Single,
    /// The right side of `v = c{:}`: the first value, as in Octave.
    First,
    /// Spread into the argument list or the elements of the instruction that reads it (a call,
    /// an index, a concatenation, a cell literal), which then takes as many operands as there are values.
    Spread,
}

#[derive(Clone, Debug)]
pub struct Inst {
    pub dests: Vec<ValueId>,
    pub op: Op,
    pub args: Vec<ValueId>,
    /// In the file of `inlined` when it is set, else in the function's own file.
    pub span: Span,
    /// Set on an instruction copied from another function's body in place of a call to it.
    pub inlined: Option<Arc<InlinedFrom>>,
}

impl Inst {
    /// What a read or an assignment acts on (`args[0]` of `Index`, `Element`, `Field`, `CellIndex`,
    /// `End`, `TargetCount`, `ListPart` and of the assignments).
    pub fn base(&self) -> ValueId {
        self.args[0]
    }
    /// The value an assignment stores (`args[1]` of `IndexAssign`, `ElementAssign`, `FieldAssign`,
    /// `CellAssign`, `ListAssign`).
    pub fn stored(&self) -> ValueId {
        self.args[1]
    }
    /// The subscripts of a read (`args[1..]`) or of an assignment (`args[2..]`).
    pub fn subscripts(&self) -> &[ValueId] {
        match self.op {
            Op::IndexAssign | Op::ElementAssign | Op::CellAssign | Op::ListAssign { .. } => &self.args[2..],
            _ => &self.args[1..],
        }
    }
}

/// The call an inlined instruction replaces: its errors name the callee, then the caller at the call.
#[derive(Clone, Debug)]
pub struct InlinedFrom {
    pub name: String,
    pub file: Arc<SourceFile>,
    pub call_span: Span,
}

#[derive(Clone, Debug)]
pub struct Phi {
    pub dest: ValueId,
    /// The source variable, for dumps and error messages.
    pub var: String,
    pub incoming: Vec<(BlockId, ValueId)>,
}

#[derive(Clone, Debug)]
pub enum Terminator {
    Jump(BlockId),
    /// Branch on a logical scalar (conditions are converted by the `truth` primitive).
    Branch {
        cond: ValueId,
        then_block: BlockId,
        else_block: BlockId,
    },
    /// Returns the values of the output variables.
    Return(Vec<ValueId>),
}

#[derive(Clone, Debug)]
pub struct Block {
    pub phis: Vec<Phi>,
    pub insts: Vec<Inst>,
    pub term: Terminator,
    pub preds: Vec<BlockId>,
    /// Inside `try`: the `catch` landing block an error raised by one of this block's instructions goes
    /// to. The landing's phis see the variables as they are at this block's end, which is the state
    /// at any of its instructions: lowering puts a try block's assignments before its instructions.
    pub handler: Option<BlockId>,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub file: Arc<SourceFile>,
    pub params: Vec<String>,
    pub outputs: Vec<String>,
    /// `BlockId::ENTRY` is the entry.
    pub blocks: IdVec<BlockId, Block>,
    pub value_count: u32,
    pub span: Span,
    /// The variable an indexing instruction (by its result) reads or assigns into, for Octave's index
    /// error messages (`x(5): out of bound 3`).
    pub indexed_variables: HashMap<ValueId, String>,
}

impl Function {
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id]
    }
    /// Successors of a block, in branch order, then its `catch` landing.
    pub fn successors(&self, id: BlockId) -> Vec<BlockId> {
        let block = self.block(id);
        let mut out = match &block.term {
            Terminator::Jump(b) => vec![*b],
            Terminator::Branch { then_block, else_block, .. } => vec![*then_block, *else_block],
            Terminator::Return(_) => vec![],
        };
        out.extend(block.handler);
        out
    }
    /// Blocks in reverse post-order from the entry (unreachable blocks omitted).
    pub fn reverse_postorder(&self) -> Vec<BlockId> {
        let mut seen = vec![false; self.blocks.len()];
        let mut order = Vec::with_capacity(self.blocks.len());
        let mut stack = vec![(BlockId::new(0), false)];
        while let Some((b, done)) = stack.pop() {
            if done {
                order.push(b);
                continue;
            }
            if std::mem::replace(&mut seen[b.index()], true) {
                continue;
            }
            stack.push((b, true));
            for s in self.successors(b).into_iter().rev() {
                if !seen[s.index()] {
                    stack.push((s, false));
                }
            }
        }
        order.reverse();
        order
    }
}

impl Function {
    /// The values that are cs-lists spread into the instruction reading them: such an operand stands
    /// for a number of operands known only when the instruction runs.
    pub fn spread_lists(&self) -> std::collections::HashSet<ValueId> {
        let insts = self.blocks.iter().flat_map(|b| &b.insts);
        insts
            .filter(|i| matches!(i.op, Op::Field { list: ListUse::Spread, .. } | Op::CellIndex { list: ListUse::Spread, .. }))
            .flat_map(|i| i.dests.iter().copied())
            .collect()
    }
}

/// Follows `alias` from `v` to the value that finally replaces it.
pub fn resolve_alias(alias: &HashMap<ValueId, ValueId>, mut v: ValueId) -> ValueId {
    while let Some(&a) = alias.get(&v) {
        v = a;
    }
    v
}

impl Function {
    /// Rewrites every use of a value in `alias` (phi inputs, operands, branch conditions, results) to
    /// the value that replaces it.
    pub fn replace_uses(&mut self, alias: &HashMap<ValueId, ValueId>) {
        if alias.is_empty() {
            return;
        }
        for block in &mut self.blocks {
            for phi in &mut block.phis {
                phi.incoming.iter_mut().for_each(|(_, v)| *v = resolve_alias(alias, *v));
            }
            for inst in &mut block.insts {
                inst.args.iter_mut().for_each(|v| *v = resolve_alias(alias, *v));
            }
            match &mut block.term {
                Terminator::Branch { cond, .. } => *cond = resolve_alias(alias, *cond),
                Terminator::Return(vs) => vs.iter_mut().for_each(|v| *v = resolve_alias(alias, *v)),
                Terminator::Jump(_) => {}
            }
        }
    }
}

/// All functions of one prepared call: `functions[0]` is the entry.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub functions: IdVec<FuncId, Function>,
    /// Every source file read, for cache invalidation.
    pub sources: Vec<Arc<SourceFile>>,
}

impl Program {
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id]
    }
}
