//! The runtime's view of its host (Octave through the MEX, or a directory search path in tests and
//! benches): where functions are found, and the calls made for the user's code's effects.

pub mod warnings;

use crate::diag::{ErrorKind, Result, err};
use crate::value::Value;
use std::path::{Path, PathBuf};
use warnings::WarningState;

/// What the engine and the loader need from their host (Octave through the MEX, or a plain directory search path).
pub trait Host {
    /// The `.m` file that defines `name` on the host's path (MATLAB's `which`), if any.
    fn which(&mut self, name: &str) -> Option<PathBuf>;
    /// Whether the host has a function `name` that `which` gives no `.m` source for (a built-in).
    fn defines(&mut self, _name: &str) -> bool {
        false
    }
    /// Calls a host function for its effect (`warning`, `lasterr`: see `HostCall`), so that warnings,
    /// `lastwarn`, `lasterr` and warning states behave as when the host runs the user's code.
    fn call(&mut self, call: &HostCall) {
        let _ = call;
    }
    /// The host's warning states and last warning, which the user's `warning(...)` and `lastwarn`
    /// read and change during a run.
    fn warnings(&mut self) -> WarningState {
        WarningState::default()
    }
    /// Reports edits of `path` through `edits` from now on; false when it cannot.
    fn watch(&mut self, _path: &Path) -> bool {
        false
    }
    /// A count that moves whenever a watched file may have changed; `None` (no watching): the engine
    /// compares every source file's modification time on every call.
    fn edits(&mut self) -> Option<u64> {
        None
    }
    /// A hash of what decides where `which` finds a name (the search path and the current folder), read
    /// once per call of a plan that looked names up; `None`: it cannot change.
    fn resolution_state(&mut self) -> Option<u64> {
        None
    }
    /// The host's global variable `name`, when it exists; an error when msad cannot represent it.
    fn global(&mut self, _name: &str) -> Result<Option<Value>> {
        Ok(None)
    }
    /// Sets the host's global variable `name`, after a call of code that changed it.
    fn set_global(&mut self, _name: &str, _value: &Value) -> Result<()> {
        Ok(())
    }
    /// Sets variable `name` of a nested function's parent's workspace (`HostFrame::id`), after a call of
    /// code that changed it.
    fn set_workspace_variable(&mut self, _frame: u64, name: &str, _value: &Value) -> Result<()> {
        err(ErrorKind::Unsupported, format!("the host offers no way to write the variable '{name}' of a nested function's workspace"))
    }
    /// Shows a progress line during a long first call (Octave prints it right away).
    fn progress(&mut self, _line: &str) {}
}

/// A host function called for its effect: `warning` for the user's warnings and warning states,
/// `lasterr` for each error caught (as Octave records it), the user's output (`fprintf`, `disp`, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct HostCall {
    pub function: &'static str,
    pub args: Vec<Value>,
}

impl HostCall {
    /// Out of line: it is called in the interpreter's error path, whose frame deep recursion repeats.
    #[inline(never)]
    pub fn with_text(function: &'static str, args: impl IntoIterator<Item = String>) -> HostCall {
        HostCall { function, args: args.into_iter().map(|a| Value::string(&a)).collect() }
    }
}
