//! The engine's one entry point: given a function handle, its arguments and options, prepare (parse,
//! lower, analyse; cached) and evaluate the value and the Jacobian of the first output with respect to
//! argument `wrt`. `jacobian` chooses how the Jacobian is computed (full, detected sparsity with
//! compression, or a user pattern).

pub mod apply;
mod bidirectional;
mod export;
mod hessian;
mod jacobian;
mod mode;
mod shared;

pub use mode::Mode;

use crate::ad::pattern::Pattern;
use crate::ad::slot::Slot;
use crate::analysis::verify;
use crate::analysis::{
    Activity, ArgSignature, Class, Moves, activity, constant_derivatives, eliminate_common_subexpressions, fold_constants, inline_calls,
    moves, propagate, read_only_by_selections, subscript_ranges, two_sided_joins,
};
use crate::diag::{Diagnostic, ErrorKind, Result, err};
use crate::exec::interp::{DerivativeCache, Frames, Interpreter, Plan, SharedValues};
pub use crate::host::Host;
use crate::host::HostCall;
pub use crate::host::warnings::WarningState;
use crate::ir::lower::Captures;
use crate::ir::program::Loader;
use crate::ir::{BlockId, Callee, FuncId, Op, Program, SharedVar};
use crate::value::{Array, FunctionHandle, Value};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// The stack of the thread a first call detects on: as deep as the host gives the engine.
const DETECTION_STACK: usize = 1 << 30;

/// A first call that has taken this long by the time its preparation ends says what comes next.
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

/// `12.3 ms`, for the verbose timings.
fn milliseconds(since: Instant) -> String {
    format!("{:.1} ms", since.elapsed().as_secs_f64() * 1e3)
}

/// Looks functions up as `<dir>/<name>.m` in a list of directories.
pub struct PathHost {
    pub dirs: Vec<PathBuf>,
}

impl Host for PathHost {
    fn which(&mut self, name: &str) -> Option<PathBuf> {
        self.dirs.iter().map(|d| d.join(format!("{name}.m"))).find(|p| p.is_file())
    }

    fn resolution_state(&mut self) -> Option<u64> {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.dirs.hash(&mut h);
        Some(h.finish())
    }
}

/// A host that records the names looked up through it and what they resolved to.
struct Recording<'h> {
    host: &'h mut dyn Host,
    lookups: Vec<(String, Option<PathBuf>)>,
}

impl Host for Recording<'_> {
    fn which(&mut self, name: &str) -> Option<PathBuf> {
        let found = self.host.which(name);
        if !self.lookups.iter().any(|(seen, _)| seen == name) {
            self.lookups.push((name.to_string(), found.clone()));
        }
        found
    }
    fn defines(&mut self, name: &str) -> bool {
        self.host.defines(name)
    }
    fn call(&mut self, call: &HostCall) {
        self.host.call(call)
    }
    fn warnings(&mut self) -> WarningState {
        self.host.warnings()
    }
    fn watch(&mut self, path: &Path) -> bool {
        self.host.watch(path)
    }
    fn edits(&mut self) -> Option<u64> {
        self.host.edits()
    }
    fn resolution_state(&mut self) -> Option<u64> {
        self.host.resolution_state()
    }
    fn global(&mut self, name: &str) -> Result<Option<Value>> {
        self.host.global(name)
    }
    fn set_global(&mut self, name: &str, value: &Value) -> Result<()> {
        self.host.set_global(name, value)
    }
    fn set_workspace_variable(&mut self, frame: u64, name: &str, value: &Value) -> Result<()> {
        self.host.set_workspace_variable(frame, name, value)
    }
}

/// What the second output is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum JacobianStorage {
    /// Sparse when compression pays (see `jacobian::Strategy`), full otherwise.
    #[default]
    Auto,
    Full,
    Sparse,
    /// The sparsity pattern (a sparse matrix of ones) instead of the Jacobian.
    Pattern,
}

/// Where the sparsity pattern comes from.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Sparsity {
    /// Detected by msad on the first call (and again when an x-dependent loop changes path).
    #[default]
    Auto,
    /// No sparsity: all n directions, full Jacobian.
    None,
    /// Given by the user; a Jacobian entry outside it raises `msad:badPattern`.
    Pattern(Pattern),
}

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub mode: Mode,
    pub jacobian: JacobianStorage,
    pub sparsity: Sparsity,
    /// A user seed matrix S (n x p): the derivative output is the compressed product J S, full (MAD's
    /// compressed mode). Forward mode; takes the place of `jacobian` and `sparsity`.
    pub seed: Option<Array<f64>>,
    /// Index (0-based) of the argument to differentiate with respect to.
    pub wrt: usize,
    /// Threads for the derivative directions, at most `MAX_THREADS` (larger counts are reduced to it);
    /// `None`: one per core.
    pub threads: Option<usize>,
    pub verbose: bool,
    /// Instead of evaluating, write the code of a standalone .m file whose main function has this
    /// name (`msad_export`).
    pub export: Option<String>,
    /// Prepare without common-subexpression elimination, derivative caching and compiled scalar loops
    /// (to measure them).
    pub unoptimized: bool,
}

/// The most threads msad runs directions on.
pub const MAX_THREADS: usize = 256;

pub struct Request {
    pub function: FunctionHandle,
    pub args: Vec<Value>,
    pub options: Options,
    /// How many outputs the caller wants: 1 = value only, 2 = value and Jacobian, 3 = value, gradient
    /// and Hessian (scalar output).
    pub nargout: usize,
}

#[derive(Debug)]
pub struct Evaluation {
    pub value: Value,
    /// `numel(value) x numel(args[wrt])`, `Value::Double` or `Value::Sparse`.
    pub jacobian: Option<Value>,
    /// `n x n` (sparse or full), when three outputs were asked for.
    pub hessian: Option<Value>,
    /// Lines printed when `options.verbose` is set.
    pub log: Vec<String>,
}

/// Code prepared for one function and one input signature: lowered, constant-folded, with activity,
/// and, once known, its sparsity pattern and colouring.
struct Prepared {
    program: Program,
    activity: Vec<Activity>,
    moves: Vec<Moves>,
    subscript_ranges: Vec<Vec<bool>>,
    /// The differentiated argument is read only by selections (compressed runs need no seed block).
    seed_read_by_selections: bool,
    joins: Vec<Vec<Option<BlockId>>>,
    constant_derivatives: Vec<bool>,
    derivative_cache: DerivativeCache,
    frames: Frames,
    /// Modification times of every source file read, to notice edits.
    stamps: Vec<(PathBuf, Option<SystemTime>)>,
    /// Whether the host watches every source file for edits.
    watched: bool,
    /// The host's edit count when the stamps were last found current, and when that was.
    checked: Option<(u64, Instant)>,
    compression: Option<jacobian::Compression>,
    /// Whether the first output was scalar on the last run (reverse mode applies), once known.
    scalar_output: Option<bool>,
    /// Whether reverse mode refused this plan's code ('auto' then runs forward; an explicit 'reverse'
    /// request tries again and raises the refusal).
    reverse_refused: bool,
    hessian: Option<hessian::HessianCompression>,
    /// What the latest run asks the host to do.
    host_calls: std::sync::Mutex<Vec<HostCall>>,
    /// The host's warning state at the start of the current evaluation, read from the host only when
    /// the code calls `warning` or `lastwarn` (`reads_warnings`).
    warnings: WarningState,
    reads_warnings: bool,
    /// Every name looked up on the host's path and what it resolved to, and the host's
    /// `resolution_state` when they were last found to resolve so.
    lookups: Vec<(String, Option<PathBuf>)>,
    resolved_in: Option<u64>,
    /// Whether the entry's captured values can be passed as inputs (it reads neither `nargin` nor
    /// `varargin`, which would count them).
    captured_as_inputs: bool,
    /// The `global` and `persistent` variables the code declares, their values when the current
    /// evaluation started, and the changes of its latest run.
    shared_vars: Vec<SharedVar>,
    shared: SharedValues,
    shared_changes: std::sync::Mutex<Vec<(SharedVar, Value)>>,
}

impl Prepared {
    /// Whether the plan still serves: its names resolve to the same files, which were not edited.
    fn is_current(&mut self, host: &mut dyn Host) -> bool {
        self.resolves_alike(host) && self.sources_unchanged(host)
    }

    /// Whether every name resolves to the same file as when prepared: asked again of the host only
    /// when the path or the current folder changed since they were last found to.
    fn resolves_alike(&mut self, host: &mut dyn Host) -> bool {
        if self.lookups.is_empty() {
            return true;
        }
        let state = host.resolution_state();
        if state == self.resolved_in {
            return true;
        }
        let alike = self.lookups.iter().all(|(name, found)| host.which(name) == *found);
        if alike {
            self.resolved_in = state;
        }
        alike
    }

    /// Whether no source file changed since preparation. Known without looking at the files when the
    /// host watches them all and saw no edit since they were last compared, less than `RECHECK` ago
    /// (which bounds how long an edit the host cannot see goes unnoticed, e.g. one made on a network
    /// file system from another machine).
    fn sources_unchanged(&mut self, host: &mut dyn Host) -> bool {
        let edits = if self.watched { host.edits() } else { None };
        if let (Some(edits), Some((seen, at))) = (edits, self.checked)
            && edits == seen
            && at.elapsed() < RECHECK
        {
            return true;
        }
        let current = self.stamps.iter().all(|(path, stamp)| modified(path) == *stamp);
        self.checked = edits.filter(|_| current).map(|edits| (edits, Instant::now()));
        current
    }

    /// Estimated bytes of the prepared code: its instructions and constants.
    fn bytes(&self) -> usize {
        let insts = self.program.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.insts);
        insts
            .map(|i| {
                std::mem::size_of_val(i)
                    + match &i.op {
                        Op::Const(v) => value_bytes(v),
                        _ => 0,
                    }
            })
            .sum()
    }

    fn interpreter(&self, detect_sparsity: bool) -> Interpreter<'_> {
        let plan = Plan {
            program: &self.program,
            activity: &self.activity,
            moves: &self.moves,
            subscript_ranges: &self.subscript_ranges,
            joins: &self.joins,
            constant_derivatives: &self.constant_derivatives,
            derivative_cache: &self.derivative_cache,
            frames: &self.frames,
            host_calls: &self.host_calls,
            warnings: &self.warnings,
            shared: &self.shared,
            shared_changes: &self.shared_changes,
        };
        Interpreter::new(plan, detect_sparsity)
    }
}

/// See `Prepared::is_current`.
const RECHECK: Duration = Duration::from_secs(1);

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Identity of a prepared plan: the function (with a hash of its captured values: the contents of
/// those folded in as constants, the class and size of those passed as inputs), every argument's
/// signature and which one is active.
#[derive(Clone, PartialEq, Eq)]
struct PlanKey {
    function: String,
    captured: u64,
    args: Vec<Option<ArgSignature>>,
    wrt: usize,
    unoptimized: bool,
}

impl PlanKey {
    fn of(request: &Request, captured: u64) -> PlanKey {
        PlanKey {
            function: request.function.text().to_string(),
            captured,
            args: request.args.iter().map(signature).collect(),
            wrt: request.options.wrt,
            unoptimized: request.options.unoptimized,
        }
    }

    /// Whether `request` is for this plan, compared in place: a repeated call builds no key.
    fn matches(&self, request: &Request, captured: u64) -> bool {
        self.function == request.function.text()
            && self.captured == captured
            && self.wrt == request.options.wrt
            && self.unoptimized == request.options.unoptimized
            && self.args.len() == request.args.len()
            && self
                .args
                .iter()
                .zip(&request.args)
                .all(|(sig, v)| sig.as_ref().is_some_and(|sig| sig.class == Class::of(v) && v.has_dims(&sig.dims)))
    }
}

/// Hash of the fields `PlanKey::matches` compares, from the request itself.
fn plan_hash(request: &Request, captured: u64) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    request.function.text().hash(&mut h);
    captured.hash(&mut h);
    request.args.iter().for_each(|v| Class::of(v).hash(&mut h));
    (request.options.wrt, request.options.unoptimized).hash(&mut h);
    h.finish()
}

/// At most this many plans are cached; beyond it, or beyond `MAX_CACHED_BYTES` of prepared code
/// (`Prepared::bytes`), the least recently used are dropped.
const MAX_PLANS: usize = 64;
const MAX_CACHED_BYTES: usize = 256 << 20;

struct Cached {
    key: PlanKey,
    prepared: Prepared,
    /// `Engine::clock` at the plan's last use.
    used: u64,
    bytes: usize,
}

/// Holds the cache of prepared functions across calls.
#[derive(Default)]
pub struct Engine {
    /// Plans by `plan_hash`, each with its key.
    plans: HashMap<u64, Vec<Cached>>,
    /// Counts calls, to find the least recently used plan.
    clock: u64,
    /// Which captured values of each anonymous function (by its text) changed between calls.
    captured: HashMap<String, CapturedHistory>,
    /// The persistent variables of the code msad ran (shared with the plan being evaluated).
    persistents: std::sync::Arc<std::sync::Mutex<shared::Persistents>>,
}

impl Engine {
    pub fn new() -> Engine {
        Engine::default()
    }

    pub fn evaluate(&mut self, host: &mut dyn Host, request: &Request) -> Result<Evaluation> {
        if let Some(name) = &request.options.export {
            let code = self.export(host, request, name)?;
            return Ok(Evaluation { value: Value::string(&code), jacobian: None, hessian: None, log: Vec::new() });
        }
        let wrt = request.options.wrt;
        let x = request.args.get(wrt).ok_or_else(|| {
            Diagnostic::new(ErrorKind::BadInput, format!("opts.wrt = {} but only {} arguments were given", wrt + 1, request.args.len()))
        })?;
        let Value::Double(x_array) = x else {
            if matches!(x, Value::Complex(_)) {
                return err(
                    ErrorKind::BadInput,
                    "the differentiated argument is complex: msad differentiates with respect to real x; pass [real(z); imag(z)] \
                     and build z inside the function (complex(x(1:n), x(n+1:end)))"
                        .to_string(),
                );
            }
            if matches!(x, Value::Sparse(_)) {
                return err(ErrorKind::BadInput, "the differentiated argument is sparse: pass full(x) (J keeps its sparsity)".to_string());
            }
            return err(ErrorKind::BadInput, format!("the differentiated argument must be a real double array, not {}", x.class_name()));
        };
        if let Some(seed) = request.options.seed.as_ref().filter(|s| s.rows() != x_array.numel()) {
            return err(
                ErrorKind::BadInput,
                format!("opts.seed has {} rows but x has {} elements: the seed must be numel(x) x p", seed.rows(), x_array.numel()),
            );
        }
        let mut log = Vec::new();
        let started = Instant::now();
        let mut captured = self.captured_now(&request.function);
        captured.fix_arguments(request);
        let persistents = self.persistents.clone();
        let plan = &mut self.plan(host, request, &captured, &mut log)?.prepared;
        let workspaces = shared::Workspaces::of(request, &plan.shared_vars);
        if !plan.shared_vars.is_empty() {
            let persistents = persistents.lock().unwrap_or_else(|e| e.into_inner());
            plan.shared = shared::at_start(host, &plan.shared_vars, &plan.stamps, &persistents, &workspaces)?;
        }
        let detects = match request.nargout {
            2 => plan.compression.is_none(),
            3 => plan.hessian.is_none(),
            _ => false,
        };
        let announced = started.elapsed() > PROGRESS_AFTER;
        if announced {
            host.progress(&format!(
                "msad: {} prepared in {:.1} s; now evaluating{} ...",
                request.function.text(),
                started.elapsed().as_secs_f64(),
                if request.nargout > 1 { " (a first call also detects and colours the sparsity pattern)" } else { "" }
            ));
        }
        let evaluating = Instant::now();
        let args = match captured.inputs.is_empty() {
            true => std::borrow::Cow::Borrowed(&request.args[..]),
            false => std::borrow::Cow::Owned(request.args.iter().chain(&captured.inputs).cloned().collect()),
        };
        if plan.reads_warnings {
            plan.warnings = host.warnings();
        }
        let n = x_array.numel();
        let outcome = match detects && !announced {
            true => with_progress_line(host, started, request.function.text(), || run_plan(plan, request, &args, n, &mut log)),
            false => run_plan(plan, request, &args, n, &mut log),
        }
        .map_err(|e| container_result(plan, request, &args, e));
        log.push(format!("msad: evaluation took {}", milliseconds(evaluating)));
        // Warnings come out as the user's code raised them, also when it failed afterwards.
        for call in std::mem::take(&mut *plan.host_calls.lock().unwrap_or_else(|e| e.into_inner())) {
            host.call(&call);
        }
        // So do the changes of global and persistent variables.
        let changes = std::mem::take(&mut *plan.shared_changes.lock().unwrap_or_else(|e| e.into_inner()));
        let mut persistents = persistents.lock().unwrap_or_else(|e| e.into_inner());
        let committed = shared::commit(host, changes, &plan.stamps, &mut persistents, &workspaces);
        if request.options.verbose {
            let (count, bytes) = self.cached_plans();
            log.push(format!("msad: {count} plans cached (about {} kB of prepared code)", bytes.div_ceil(1024)));
        }
        let (value, jacobian, hessian) = outcome?;
        committed?;
        value.check_function_result()?;
        Ok(Evaluation { value, jacobian, hessian, log })
    }

    /// How many plans the cache holds, and their estimated bytes.
    fn cached_plans(&self) -> (usize, usize) {
        self.plans.values().flatten().fold((0, 0), |(count, bytes), c| (count + 1, bytes + c.bytes))
    }

    /// The plan for `request`, from the cache when it is current, else prepared (and cached).
    fn plan(&mut self, host: &mut dyn Host, request: &Request, captured: &CapturedNow, log: &mut Vec<String>) -> Result<&mut Cached> {
        self.clock += 1;
        let hash = plan_hash(request, captured.key);
        let plans = self.plans.entry(hash).or_default();
        let found = plans.iter().position(|c| c.key.matches(request, captured.key));
        if let Some(index) = found.filter(|&index| plans[index].prepared.is_current(host)) {
            log.push(format!("msad: cache hit for {}", plans[index].key.function));
            plans[index].used = self.clock;
            return Ok(&mut self.plans.get_mut(&hash).expect("looked up above")[index]);
        }
        if let Some(index) = found {
            plans.swap_remove(index);
        }
        let key = PlanKey::of(request, captured.key);
        let signatures: Vec<_> = key.args.iter().cloned().chain(captured.inputs.iter().map(signature)).collect();
        let started = Instant::now();
        let prepared = prepare(host, &request.function, &signatures, request.options.wrt, !key.unoptimized, captured, log)?;
        log.push(format!("msad: prepared {} ({} functions) in {}", key.function, prepared.program.functions.len(), milliseconds(started)));
        if let Some(history) = self.captured.get_mut(request.function.text()) {
            history.as_inputs_possible = Some(prepared.captured_as_inputs);
        }
        let bytes = prepared.bytes();
        self.evict(bytes);
        let plans = self.plans.entry(hash).or_default();
        plans.push(Cached { key, prepared, used: self.clock, bytes });
        Ok(plans.last_mut().expect("pushed above"))
    }

    /// Drops the least recently used plans until one more of `bytes` fits the limits.
    fn evict(&mut self, bytes: usize) {
        loop {
            let (count, cached_bytes) = self.cached_plans();
            if count == 0 || (count < MAX_PLANS && cached_bytes + bytes <= MAX_CACHED_BYTES) {
                return;
            }
            let oldest = self.plans.iter().flat_map(|(hash, plans)| plans.iter().enumerate().map(move |(i, c)| (c.used, *hash, i))).min();
            let Some((_, hash, index)) = oldest else { return };
            let plans = self.plans.get_mut(&hash).expect("found above");
            plans.swap_remove(index);
            if plans.is_empty() {
                self.plans.remove(&hash);
            }
        }
    }

    /// Whether the captured histories reached `MAX_CAPTURED_HISTORIES` or hold more than
    /// `MAX_CACHED_BYTES` of values.
    fn captured_histories_full(&self) -> bool {
        let bytes: usize = self.captured.values().flat_map(|h| &h.last).map(|(_, value, _)| value_bytes(value)).sum();
        self.captured.len() >= MAX_CAPTURED_HISTORIES || bytes > MAX_CACHED_BYTES
    }

    /// This call's captured values: which are passed as inputs (those that changed since the function
    /// was first seen, where its plans can take them), and the plan key's part for them.
    fn captured_now(&mut self, function: &FunctionHandle) -> CapturedNow {
        // Nested functions of one name in two files are two functions.
        let (text, captured) = match function {
            FunctionHandle::Anonymous { text, captured, .. } => (text.clone(), captured),
            FunctionHandle::Nested { name, file, captured, .. } => (format!("{}>{name}", file.display()), captured),
            _ => return CapturedNow { key: 0, as_inputs: vec![], inputs: vec![], fixed: vec![] },
        };
        if !self.captured.contains_key(&text) && self.captured_histories_full() {
            self.captured.clear();
        }
        let mut h = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut h);
        let history = self.captured.entry(text).or_default();
        let hashes = history.record(captured);
        // A handle called again and again gets a plan of its own, its values constants of it: passing
        // them as inputs copies them on every call.
        let own_plan = history.repeats >= OWN_PLAN_AFTER_REPEATS;
        let as_inputs: Vec<bool> = captured
            .iter()
            .zip(&history.changed)
            .map(|((_, value), &changed)| changed && !own_plan && history.as_inputs_possible == Some(true) && !decides_calls(value))
            .collect();
        for ((name, value), (&input, content)) in captured.iter().zip(as_inputs.iter().zip(&hashes)) {
            match input {
                true => (name, signature(value)).hash(&mut h),
                false => content.hash(&mut h),
            }
        }
        let inputs = captured.iter().zip(&as_inputs).filter(|(_, input)| **input).map(|((_, v), _)| v.clone()).collect();
        CapturedNow { key: h.finish(), as_inputs, inputs, fixed: vec![] }
    }
}

/// Whether the code is specialised for this value rather than passed it: handles (also in cells and
/// struct fields) and text, which may name the functions the code calls (`feval(name, ...)`).
fn decides_calls(value: &Value) -> bool {
    matches!(value, Value::Char(_)) || value.holds_handle()
}

/// The captured values of one anonymous function: their hashes as first seen, which have changed
/// since, and the values of the last call with their hashes.
#[derive(Default)]
struct CapturedHistory {
    first: Vec<u64>,
    changed: Vec<bool>,
    /// Whether its plans can take captured values as inputs, once a plan was prepared.
    as_inputs_possible: Option<bool>,
    last: Vec<(String, Value, u64)>,
    /// The captured values of the last call, shared with the handle's own: the same again are known
    /// without comparing them (see `FunctionHandle::Anonymous`).
    last_shared: Option<std::sync::Arc<[(String, Value)]>>,
    /// How many calls in a row before this one passed the same handle (the same shared values).
    repeats: usize,
}

/// Calls in a row with one handle, after which its changed captured values are constants of a plan
/// of its own rather than inputs: an input is copied into the run on every call (in proportion to its
/// size), a constant read by a few subscripts is folded when the plan is prepared.
const OWN_PLAN_AFTER_REPEATS: usize = 2;

impl CapturedHistory {
    /// Records this call's captured values and returns their content hashes: a value bit for bit the
    /// same as the last call's keeps its hash (comparing costs a fraction of hashing, which made most
    /// of a call with a large captured matrix).
    fn record(&mut self, captured: &std::sync::Arc<[(String, Value)]>) -> Vec<u64> {
        if self.last_shared.as_ref().is_some_and(|last| std::sync::Arc::ptr_eq(last, captured)) {
            self.repeats = self.repeats.saturating_add(1);
            return self.last.iter().map(|&(_, _, hash)| hash).collect();
        }
        self.repeats = 0;
        if captured.len() != self.last.len() {
            *self = CapturedHistory::default();
            self.last = captured.iter().map(|(name, value)| (name.clone(), value.clone(), content_hash(name, value))).collect();
            self.first = self.last.iter().map(|&(_, _, hash)| hash).collect();
            self.changed = vec![false; captured.len()];
        }
        for ((name, value), last) in captured.iter().zip(&mut self.last) {
            if last.0 != *name || !last.1.same_content(value) {
                *last = (name.clone(), value.clone(), content_hash(name, value));
            }
        }
        let hashes: Vec<u64> = self.last.iter().map(|&(_, _, hash)| hash).collect();
        self.changed.iter_mut().zip(self.first.iter().zip(&hashes)).for_each(|(changed, (a, b))| *changed |= a != b);
        self.last_shared = Some(captured.clone());
        hashes
    }
}

/// Histories kept at most (they are small); beyond, they are forgotten and learnt again.
const MAX_CAPTURED_HISTORIES: usize = 4 * MAX_PLANS;

struct CapturedNow {
    key: u64,
    as_inputs: Vec<bool>,
    /// The values passed as inputs, after the arguments.
    inputs: Vec<Value>,
    /// The arguments the code is specialised for (`decides_calls`), by position; `None` for the others.
    fixed: Vec<Option<Value>>,
}

impl CapturedNow {
    /// Adds the request's arguments that decide calls to what the plan is specialised for: a
    /// different handle or name is another plan.
    fn fix_arguments(&mut self, request: &Request) {
        let wrt = request.options.wrt;
        if !request.args.iter().enumerate().any(|(i, v)| i != wrt && decides_calls(v)) {
            return;
        }
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.key.hash(&mut h);
        self.fixed = request.args.iter().enumerate().map(|(i, v)| (i != wrt && decides_calls(v)).then(|| v.clone())).collect();
        for (i, value) in self.fixed.iter().enumerate() {
            if let Some(value) = value {
                i.hash(&mut h);
                value.hash_content(&mut h);
            }
        }
        self.key = h.finish();
    }
}

/// Hash of a captured variable: its name, class, size and contents.
fn content_hash(name: &str, value: &Value) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    name.hash(&mut h);
    value.hash_content(&mut h);
    h.finish()
}

/// Estimated heap bytes of a value.
fn value_bytes(value: &Value) -> usize {
    match value {
        Value::Cell(a) => a.data.iter().map(value_bytes).sum(),
        Value::Struct(s) => s.elements.iter().flatten().map(value_bytes).sum(),
        Value::Sparse(s) => 16 * s.values().len() + 8 * s.colptr().len(),
        Value::Complex(_) => 16 * value.numel(),
        Value::ComplexSparse(s) => 24 * s.nnz() + 8 * s.cols(),
        _ => 8 * value.numel(),
    }
}

/// The value, and the derivatives the request's outputs ask for: J (or g), and H.
/// `args`: the request's, then the captured values passed as inputs.
/// Runs a first call's detection on a thread of its own, so that this one (the host's) can say what
/// is going on once the call has taken `PROGRESS_AFTER`.
fn with_progress_line<T: Send>(host: &mut dyn Host, started: Instant, function: &str, work: impl FnOnce() -> T + Send) -> T {
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .stack_size(DETECTION_STACK)
            .spawn_scoped(scope, move || {
                let result = work();
                let _ = done.send(());
                result
            })
            .expect("a thread for a first call");
        let wait = PROGRESS_AFTER.saturating_sub(started.elapsed());
        // A worker that failed drops its sender: that is no reason to say anything.
        if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(wait) {
            host.progress(&format!(
                "msad: first call of {function}: detecting and colouring the sparsity pattern ({:.1} s so far) ...",
                started.elapsed().as_secs_f64()
            ));
        }
        worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

fn run_plan(
    plan: &mut Prepared,
    request: &Request,
    args: &[Value],
    n: usize,
    log: &mut Vec<String>,
) -> Result<(Value, Option<Value>, Option<Value>)> {
    let wrt = request.options.wrt;
    if request.nargout > 2 {
        let (value, gradient, hessian) = hessian::evaluate(plan, args, wrt, n, &request.options, log)?;
        return Ok((value, Some(gradient), Some(hessian)));
    }
    if request.nargout > 1 {
        let (value, j) = mode::evaluate(plan, args, wrt, n, &request.options, log)?;
        return Ok((value, Some(j), None));
    }
    Ok((value_only(plan, args)?, None, None))
}

fn value_only(plan: &Prepared, args: &[Value]) -> Result<Value> {
    let args = args.iter().cloned().map(Slot::inactive).collect();
    Ok(plan.interpreter(false).call(FuncId::new(0), args, 1)?.pop().expect("one result").value)
}

/// msad's refusal of a struct or cell on the derivative path (reverse mode, Hessians) hides the
/// user's error when the function returns one: then that is the error.
fn container_result(plan: &Prepared, request: &Request, args: &[Value], error: Diagnostic) -> Diagnostic {
    if request.nargout < 2 || !matches!(error.kind, ErrorKind::Unsupported | ErrorKind::NotDifferentiable) {
        return error;
    }
    match value_only(plan, args) {
        Ok(value) => value.check_function_result().err().unwrap_or(error),
        Err(_) => error,
    }
}

/// Whether `path` is in Octave's own function library (or an installed package) rather than the user's.
fn is_octave_library(path: &std::path::Path) -> bool {
    let text = path.to_string_lossy();
    text.contains("/share/octave/") || text.contains("/lib/octave/")
}

fn signature(v: &Value) -> Option<ArgSignature> {
    Some(ArgSignature { class: Class::of(v), dims: v.dims() })
}

fn prepare(
    host: &mut dyn Host,
    function: &FunctionHandle,
    args: &[Option<ArgSignature>],
    wrt: usize,
    optimize: bool,
    captured: &CapturedNow,
    log: &mut Vec<String>,
) -> Result<Prepared> {
    let parsing = Instant::now();
    let captured_as_inputs = &captured.as_inputs;
    let resolved_in = host.resolution_state();
    let host = &mut Recording { host, lookups: vec![] };
    let mut program = match function {
        // A handle to a builtin (`@sin`, or `@expint`, which Octave writes in .m) calls the primitive
        // through a wrapper, as a call in the code would; a user's own file of that name comes first.
        FunctionHandle::Named(name)
            if crate::primitives::builtin(name).is_some() && host.which(name).is_none_or(|path| is_octave_library(&path)) =>
        {
            let params: Vec<String> = (1..=args.len()).map(|i| format!("a{i}")).collect();
            let text = format!("@({0}) {name}({0})", params.join(", "));
            Loader::new(host).load_anonymous(&text, Captures::Values { values: &[], as_inputs: &[], unmodelled: &[] })?
        }
        FunctionHandle::Named(name) => Loader::new(host).with_fixed_arguments(captured.fixed.clone()).load_named(name)?,
        FunctionHandle::Anonymous { text, captured: values, unmodelled } => {
            let captures = Captures::Values { values, as_inputs: captured_as_inputs, unmodelled };
            Loader::new(host).with_fixed_arguments(captured.fixed.clone()).load_anonymous(text, captures)?
        }
        FunctionHandle::Nested { name, file, captured: values, unmodelled, .. } => {
            let captures = Captures::Values { values, as_inputs: captured_as_inputs, unmodelled };
            Loader::new(host).with_fixed_arguments(captured.fixed.clone()).load_nested(file, name, captures)?
        }
        FunctionHandle::Compiled { text, .. } => {
            return err(ErrorKind::BadInput, format!("'{text}' is a handle made inside msad's prepared code"));
        }
    };
    log.push(format!("msad: parsing and lowering took {}", milliseconds(parsing)));
    let analysing = Instant::now();
    // The entry is specialised for the caller's arguments, and its x-constant derivatives cached, unless
    // it calls itself (directly or through other functions): a recursive call passes other values.
    let recursive = program
        .functions
        .iter()
        .flat_map(|f| &f.blocks)
        .flat_map(|b| &b.insts)
        .any(|i| matches!(i.op, Op::Call(f) | Op::MakeHandle { target: Callee::User(f), .. } if f == FuncId::new(0)));
    verify::after_pass(&program, "lowering")?;
    let entry = &program.functions[FuncId::ENTRY];
    let counts_inputs = entry.params.last().is_some_and(|p| p == "varargin")
        || entry.blocks.iter().flat_map(|b| &b.insts).any(|i| matches!(i.op, Op::Nargin));
    if optimize {
        inline_calls(&mut program);
        verify::after_pass(&program, "inlining")?;
    }
    for (i, func) in program.functions.iter_mut().enumerate() {
        let lattice = propagate(func, if i == 0 && !recursive { args } else { &[] });
        fold_constants(func, &lattice);
    }
    verify::after_pass(&program, "constant folding")?;
    if optimize {
        for func in &mut program.functions {
            eliminate_common_subexpressions(func);
        }
        verify::after_pass(&program, "common subexpression elimination")?;
    }
    let activity = activity(&program, wrt, !recursive);
    let moves = program.functions.iter().map(moves).collect();
    let subscript_ranges = program.functions.iter().map(subscript_ranges).collect();
    let seed_read_by_selections = read_only_by_selections(&program.functions[FuncId::ENTRY], wrt);
    let joins = program.functions.iter().map(two_sided_joins).collect();
    let constant_derivatives =
        if optimize && !recursive { constant_derivatives(&program.functions[FuncId::ENTRY], &activity[0], wrt) } else { vec![] };
    let stamps: Vec<_> = program.sources.iter().map(|s| (s.path.clone(), modified(&s.path))).collect();
    // Sources with no file (anonymous functions, msad's library) cannot change.
    let watched = stamps.iter().all(|(path, stamp)| stamp.is_none() || host.watch(path));
    let frames = Frames::new(program.functions.len(), optimize);
    let insts = program.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.insts);
    let reads_warnings = insts.into_iter().any(|i| matches!(i.op, Op::Warning | Op::LastWarning));
    log.push(format!("msad: analysis took {}", milliseconds(analysing)));
    let shared_vars = shared::declared(&program);
    Ok(Prepared {
        program,
        activity,
        moves,
        subscript_ranges,
        seed_read_by_selections,
        joins,
        constant_derivatives,
        derivative_cache: DerivativeCache::default(),
        frames,
        stamps,
        watched,
        checked: None,
        compression: None,
        scalar_output: None,
        reverse_refused: false,
        hessian: None,
        host_calls: Default::default(),
        warnings: WarningState::default(),
        reads_warnings,
        lookups: std::mem::take(&mut host.lookups),
        resolved_in,
        captured_as_inputs: !counts_inputs,
        shared_vars,
        shared: SharedValues::new(),
        shared_changes: Default::default(),
    })
}
