//! The engine's one entry point: given a function handle, its arguments and options, prepare (parse,
//! lower, analyse; cached) and evaluate the value and the Jacobian of the first output with respect to
//! argument `wrt`.

use crate::diag::{ErrorKind, Result, err};
use crate::exec::value::{FunctionHandle, Value};
use std::path::PathBuf;

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

pub struct Evaluation {
    pub value: Value,
    /// `numel(value) x numel(args[wrt])`, `Value::Double` or `Value::Sparse`.
    pub jacobian: Option<Value>,
    /// Lines printed when `options.verbose` is set.
    pub log: Vec<String>,
}

/// Holds the cache of prepared functions across calls.
#[derive(Default)]
pub struct Engine {}

impl Engine {
    pub fn new() -> Engine {
        Engine::default()
    }

    pub fn evaluate(&mut self, host: &mut dyn Host, request: &Request) -> Result<Evaluation> {
        let _ = (host, request);
        err(ErrorKind::Internal, "engine not written yet")
    }
}
