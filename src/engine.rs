//! The engine's one entry point: given a function handle, its arguments and options, prepare (parse,
//! lower, analyse; cached) and evaluate the value and the Jacobian of the first output with respect to
//! argument `wrt`.

use crate::analysis::{Activity, ArgSignature, Class, Moves, activity, fold_constants, moves, propagate};
use crate::diag::{Diagnostic, ErrorKind, Result, err};
use crate::exec::deriv::{DenseDeriv, Deriv};
use crate::exec::interp::{Interpreter, Plan, Slot};
use crate::exec::value::{Array, FunctionHandle, SparseMatrix, Value};
use crate::ir::program::Loader;
use crate::ir::{FuncId, Program};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// What the engine needs from its host (Octave through the MEX, or a plain directory search path).
pub trait Host {
    /// The `.m` file that defines `name` on the host's path (MATLAB's `which`), if any.
    fn which(&mut self, name: &str) -> Option<PathBuf>;
}

/// Looks functions up as `<dir>/<name>.m` in a list of directories.
pub struct PathHost {
    pub dirs: Vec<PathBuf>,
}

impl Host for PathHost {
    fn which(&mut self, name: &str) -> Option<PathBuf> {
        self.dirs.iter().map(|d| d.join(format!("{name}.m"))).find(|p| p.is_file())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum JacobianStorage {
    #[default]
    Auto,
    Full,
    Sparse,
}

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub jacobian: JacobianStorage,
    /// Index (0-based) of the argument to differentiate with respect to.
    pub wrt: usize,
    pub threads: Option<usize>,
    pub verbose: bool,
}

pub struct Request {
    pub function: FunctionHandle,
    pub args: Vec<Value>,
    pub options: Options,
    /// How many outputs the caller wants: 1 = value only, 2 = value and Jacobian.
    pub nargout: usize,
}

#[derive(Debug)]
pub struct Evaluation {
    pub value: Value,
    /// `numel(value) x numel(args[wrt])`, `Value::Double` or `Value::Sparse`.
    pub jacobian: Option<Value>,
    /// Lines printed when `options.verbose` is set.
    pub log: Vec<String>,
}

/// Code prepared for one function and one input signature: lowered, constant-folded, with activity.
struct Prepared {
    program: Program,
    activity: Vec<Activity>,
    moves: Vec<Moves>,
    /// Modification times of every source file read, to notice edits.
    stamps: Vec<(PathBuf, Option<SystemTime>)>,
}

impl Prepared {
    fn is_current(&self) -> bool {
        self.stamps.iter().all(|(path, stamp)| modified(path) == *stamp)
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Identity of a prepared plan: the function, every argument's signature and which one is active.
#[derive(Clone, PartialEq, Eq, Hash)]
struct PlanKey {
    function: String,
    args: Vec<Option<ArgSignature>>,
    wrt: usize,
}

/// Holds the cache of prepared functions across calls.
#[derive(Default)]
pub struct Engine {
    plans: HashMap<PlanKey, Prepared>,
}

impl Engine {
    pub fn new() -> Engine {
        Engine::default()
    }

    pub fn evaluate(&mut self, host: &mut dyn Host, request: &Request) -> Result<Evaluation> {
        let wrt = request.options.wrt;
        let x = request.args.get(wrt).ok_or_else(|| {
            Diagnostic::new(ErrorKind::BadInput, format!("opts.wrt = {} but only {} arguments were given", wrt + 1, request.args.len()))
        })?;
        let Value::Double(x_array) = x else {
            return err(ErrorKind::BadInput, format!(
                "the differentiated argument must be a real double array, not {}", x.class_name()
            ));
        };
        let mut log = Vec::new();
        let key = PlanKey {
            function: describe(&request.function),
            args: request.args.iter().map(signature).collect(),
            wrt,
        };
        if !self.plans.get(&key).is_some_and(Prepared::is_current) {
            let prepared = prepare(host, &request.function, &key.args, wrt)?;
            self.plans.insert(key.clone(), prepared);
            log.push(format!("msad: prepared {} ({} functions)", key.function, self.plans[&key].program.functions.len()));
        } else {
            log.push(format!("msad: cache hit for {}", key.function));
        }
        let plan = &self.plans[&key];
        let n = x_array.numel();
        let nargout = request.nargout.max(1);
        let args = request
            .args
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let deriv = if i == wrt && nargout > 1 { Deriv::Dense(DenseDeriv::from_seed(n, n, identity(n))) } else { Deriv::Zero };
                Slot { value: v.clone(), deriv }
            })
            .collect();
        let mut interp = Interpreter::new(Plan { program: &plan.program, activity: &plan.activity, moves: &plan.moves });
        let result = interp.call(FuncId(0), args, 1)?.pop().expect("one result requested");
        let m = match &result.value {
            Value::Double(_) | Value::Logical(_) | Value::Sparse(_) => result.value.numel(),
            other => {
                return err(ErrorKind::BadInput, format!(
                    "the function must return a numeric array, not a {}", other.class_name()
                ));
            }
        };
        let jacobian = (nargout > 1).then(|| jacobian_matrix(&result.deriv, m, n, request.options.jacobian));
        Ok(Evaluation { value: result.value, jacobian, log })
    }
}

fn describe(f: &FunctionHandle) -> String {
    match f {
        FunctionHandle::Named(name) => name.clone(),
        FunctionHandle::Anonymous { text, .. } => text.clone(),
    }
}

fn signature(v: &Value) -> Option<ArgSignature> {
    Some(ArgSignature { class: Class::of(v), dims: v.dims() })
}

fn prepare(host: &mut dyn Host, function: &FunctionHandle, args: &[Option<ArgSignature>], wrt: usize) -> Result<Prepared> {
    let loader = Loader::new(host);
    let mut program = match function {
        FunctionHandle::Named(name) => loader.load_named(name)?,
        FunctionHandle::Anonymous { text, captured } => loader.load_anonymous(text, captured)?,
    };
    for (i, func) in program.functions.iter_mut().enumerate() {
        let lattice = propagate(func, if i == 0 { args } else { &[] });
        fold_constants(func, &lattice);
    }
    let activity = activity(&program, wrt);
    let moves = program.functions.iter().map(moves).collect();
    let stamps = program.sources.iter().map(|s| (s.path.clone(), modified(&s.path))).collect();
    Ok(Prepared { program, activity, moves, stamps })
}

/// The m x n Jacobian from the result's derivative block.
fn jacobian_matrix(deriv: &Deriv, m: usize, n: usize, storage: JacobianStorage) -> Value {
    let full = Array::new(vec![m, n], deriv.to_dense(m, n).data);
    match storage {
        JacobianStorage::Sparse => Value::Sparse(SparseMatrix::from_dense(&full)),
        JacobianStorage::Auto | JacobianStorage::Full => Value::Double(full),
    }
}

fn identity(n: usize) -> Vec<f64> {
    let mut data = vec![0.0; n * n];
    (0..n).for_each(|i| data[i * n + i] = 1.0);
    data
}
