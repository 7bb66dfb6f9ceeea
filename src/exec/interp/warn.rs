//! The user's `warning(...)` and `lastwarn(...)`: answered from the run's own warning state, and
//! passed on to the host after the run (see `HostCall`).

use super::{HostCall, Interpreter, Slot};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::host::warnings::WarningState;
use crate::ir::Output;
use crate::primitives::errors::{identified_message, raised};
use crate::value::Value;

impl Interpreter<'_> {
    fn warning_state(&mut self) -> &mut WarningState {
        self.warnings.get_or_insert_with(|| self.plan.warnings.clone())
    }

    /// `warning(...)`: a state change or query gives the (old) state struct, a message is issued
    /// unless its identifier is off, or raised as an error when it is set to `error`.
    pub(super) fn warning(&mut self, args: &[&Value]) -> Result<Option<Value>> {
        if let [s @ Value::Struct(_)] = args {
            for (state, id) in self.warning_state().restore(s)? {
                self.host_calls.push(HostCall::with_text("warning", [state, id]));
            }
            return Ok(None);
        }
        let keyword = args.first().and_then(|a| a.as_string()).map(|s| s.to_ascii_lowercase());
        let id = || args.get(1).map_or(Ok("all".to_string()), |a| text(a));
        match (keyword.as_deref(), args.len()) {
            (_, 0) => Ok(Some(self.warning_state().query("all"))),
            (Some("query"), 1 | 2) => Ok(Some(self.warning_state().query(&id()?))),
            (Some(state @ ("on" | "off" | "error")), 1..=3) => {
                let local = match args.get(2) {
                    None => false,
                    Some(mode) if text(mode)?.eq_ignore_ascii_case("local") => true,
                    Some(_) => return Err(Diagnostic::new(ErrorKind::Runtime, "warning: invalid MODE, expected \"local\"")),
                };
                let id = id()?;
                let old = self.warning_state().query(&id);
                if local {
                    self.save_local_warning(&id, old.clone());
                }
                self.warning_state().set(state, &id);
                self.host_calls.push(HostCall::with_text("warning", [state.to_string(), id]));
                Ok(Some(old))
            }
            (Some("on" | "off" | "query" | "error"), _) => Err(Diagnostic::new(
                ErrorKind::Unsupported,
                "this form of warning (several states); msad supports warning(msg, ...), warning(id, msg, ...), warning(STATE, id[, 'local']) and warning(s)",
            )),
            _ => {
                let (identifier, message) = identified_message("warning", args)?;
                let id = identifier.clone().unwrap_or_default();
                match self.warning_state().state_of(if id.is_empty() { "all" } else { &id }) {
                    "off" => {}
                    "error" => return Err(raised(identifier, &message)),
                    _ => {
                        let passed: Vec<String> = identifier.into_iter().chain(["%s".to_string(), message.clone()]).collect();
                        self.host_calls.push(HostCall::with_text("warning", passed));
                        self.warning_state().last = (message, id);
                    }
                }
                Ok(None)
            }
        }
    }

    /// Output of the user's code, passed on to the host after the run. Out of line: the interpreter's
    /// loop keeps a small frame for deep recursion.
    #[inline(never)]
    pub(super) fn output(&mut self, output: Output, args: &[&Slot]) -> Result<()> {
        let call = output.host_call(args.iter().map(|s| s.value.clone()).collect())?;
        self.host_calls.push(call);
        Ok(())
    }

    /// Saves `id`'s state before a `warning(STATE, id, 'local')` of the running function: as in Octave,
    /// a later local change of the same id in the same function replaces the saved state.
    fn save_local_warning(&mut self, id: &str, old: Value) {
        let mark = self.local_warnings_mark;
        match self.local_warnings[mark..].iter_mut().find(|(saved, _)| saved == id) {
            Some(entry) => entry.1 = old,
            None => self.local_warnings.push((id.to_string(), old)),
        }
    }

    /// Restores the states the running function saved (from `mark` on), in the order first saved, as
    /// Octave does when that function returns.
    pub(super) fn restore_local_warnings(&mut self, mark: usize) -> Result<()> {
        let saved: Vec<(String, Value)> = self.local_warnings.drain(mark..).collect();
        for (_, old) in &saved {
            self.warning(&[old])?;
        }
        Ok(())
    }

    /// `[msg, id] = lastwarn(...)`: the last warning; with arguments it is set to them.
    pub(super) fn lastwarn(&mut self, args: &[&Value]) -> Result<[Value; 2]> {
        let (message, id) = self.warning_state().last.clone();
        if let Some(m) = args.first() {
            let set = (text(m)?, args.get(1).map_or(Ok(String::new()), |a| text(a))?);
            self.host_calls.push(HostCall::with_text("lastwarn", [set.0.clone(), set.1.clone()]));
            self.warning_state().last = set;
        }
        Ok([Value::string(&message), Value::string(&id)])
    }
}

fn text(v: &Value) -> Result<String> {
    v.as_string().ok_or_else(|| Diagnostic::new(ErrorKind::Runtime, "warning: arguments must be strings"))
}
