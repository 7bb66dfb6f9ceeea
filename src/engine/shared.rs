//! The `global` and `persistent` variables of a plan's code (see `exec::interp::shared`): read when an
//! evaluation starts (globals from the host, persistents from the engine), never folded into the
//! plan, and changed once when it ends, with the values its last run left. So are the variables of a
//! nested function's parent that the code assigns through a handle from the host (`Workspaces`):
//! read from the workspace the handle holds, and written back into it.
//!
//! msad keeps its own copy of each persistent variable, by file and function: Octave's copy (of calls
//! Octave runs itself) is another. msad's is forgotten when the file changes (Octave reloads it) and
//! when msad_eval is cleared (`clear msad_eval`, `clear functions`, `clear all`); `clear f` alone does
//! not reach it.

use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::exec::interp::SharedValues;
use crate::ir::{Op, Program, SharedVar};
use crate::value::{FunctionHandle, HostFrame, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::{Host, Request};

/// msad's persistent variables: each value with its file's modification time when it was set.
pub(super) type Persistents = HashMap<SharedVar, (Option<SystemTime>, Value)>;

/// Every `global` and `persistent` variable the program declares, and every variable of a nested
/// function's workspace it uses.
pub(super) fn declared(program: &Program) -> Vec<SharedVar> {
    let mut vars: Vec<SharedVar> = vec![];
    for inst in program.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.insts) {
        let var = match &inst.op {
            Op::DeclareShared(var) => var,
            Op::LoadShared(var @ SharedVar::Workspace { .. }) | Op::StoreShared(var @ SharedVar::Workspace { .. }) => var,
            _ => continue,
        };
        if !vars.contains(var) {
            vars.push(var.clone());
        }
    }
    vars
}

/// The workspaces held by the handles to nested functions that a request passes (the function, its
/// arguments, and the handles captured in them), where the code uses a variable of one.
pub(super) struct Workspaces(Vec<Workspace>);

struct Workspace {
    file: PathBuf,
    frame: Option<HostFrame>,
    captured: std::sync::Arc<[(String, Value)]>,
    unmodelled: Vec<(String, String)>,
}

impl Workspaces {
    pub(super) fn of(request: &Request, vars: &[SharedVar]) -> Workspaces {
        let mut found = vec![];
        if vars.iter().any(|var| matches!(var, SharedVar::Workspace { .. })) {
            let mut visit = |h: &FunctionHandle| {
                if let FunctionHandle::Nested { file, captured, unmodelled, frame, .. } = h {
                    let (captured, unmodelled) = (captured.clone(), unmodelled.clone());
                    found.push(Workspace { file: file.clone(), frame: frame.clone(), captured, unmodelled });
                }
            };
            request.function.visit_handles(&mut visit);
            request.args.iter().for_each(|arg| arg.visit_handles(&mut visit));
        }
        Workspaces(found)
    }

    /// The one workspace of `parent` in `file` that the request passes; an error for none (a host that
    /// gives no access to it) or several (handles from different calls of the parent).
    fn find(&self, file: &Path, parent: &str, name: &str) -> Result<&Workspace> {
        let mut matching = self.0.iter().filter(|w| w.file == file && w.frame.as_ref().is_some_and(|f| f.parent == parent));
        let first = matching.next();
        let unsupported = |what: String, hint: &str| Err(Diagnostic::new(ErrorKind::Unsupported, what).with_hint(hint));
        match first {
            None => unsupported(
                format!("msad does not support writing '{name}' of the workspace of '{parent}' here: the host gives no access to it"),
                "return the new value as an output of the nested function",
            ),
            Some(w) if matching.any(|other| other.frame.as_ref().map(|f| f.id) != w.frame.as_ref().map(|f| f.id)) => unsupported(
                format!(
                    "msad does not support handles to nested functions of two calls of '{parent}' in one call when the code assigns '{name}'"
                ),
                "call msad_eval with one of the handles at a time",
            ),
            Some(w) => Ok(w),
        }
    }

    /// The value variable `name` has in the workspace when the call starts; `None` when it does not exist.
    fn value(&self, file: &Path, parent: &str, name: &str) -> Result<Option<Value>> {
        let workspace = self.find(file, parent, name)?;
        if let Some((_, class)) = workspace.unmodelled.iter().find(|(n, _)| n == name) {
            return Err(Diagnostic::new(
                ErrorKind::Unsupported,
                format!("msad does not support assigning the variable '{name}' of class {class} of the workspace of '{parent}'"),
            )
            .with_hint("keep the numbers the nested function changes in a variable of their own"));
        }
        Ok(workspace.captured.iter().find(|(n, _)| n == name).map(|(_, value)| value.clone()))
    }

    fn frame(&self, file: &Path, parent: &str, name: &str) -> Result<u64> {
        Ok(self.find(file, parent, name)?.frame.as_ref().expect("found by its frame").id)
    }
}

/// The modification time the plan saw for `file`.
fn stamp(stamps: &[(PathBuf, Option<SystemTime>)], file: &Path) -> Option<SystemTime> {
    stamps.iter().find(|(path, _)| path == file).and_then(|(_, stamp)| *stamp)
}

/// The values `vars` have as the evaluation starts; a persistent set before its file changed is gone.
pub(super) fn at_start(
    host: &mut dyn Host,
    vars: &[SharedVar],
    stamps: &[(PathBuf, Option<SystemTime>)],
    persistents: &Persistents,
    workspaces: &Workspaces,
) -> Result<SharedValues> {
    let mut values = SharedValues::new();
    for var in vars {
        let value = match var {
            SharedVar::Global(name) => host.global(name)?,
            SharedVar::Workspace { file, parent, name } => workspaces.value(file, parent, name)?,
            SharedVar::Persistent { file, .. } => {
                persistents.get(var).filter(|(set, _)| *set == stamp(stamps, file)).map(|(_, value)| value.clone())
            }
        };
        if let Some(value) = value {
            values.insert(var.clone(), value);
        }
    }
    Ok(values)
}

/// Gives the host the globals and workspace variables the evaluation changed, and keeps its persistents.
pub(super) fn commit(
    host: &mut dyn Host,
    changes: Vec<(SharedVar, Value)>,
    stamps: &[(PathBuf, Option<SystemTime>)],
    persistents: &mut Persistents,
    workspaces: &Workspaces,
) -> Result<()> {
    for (var, value) in changes {
        match &var {
            SharedVar::Global(name) => host.set_global(name, &value)?,
            SharedVar::Workspace { file, parent, name } => {
                host.set_workspace_variable(workspaces.frame(file, parent, name)?, name, &value)?
            }
            // Run-time checks keep handles out (see `Interpreter::store_shared`).
            SharedVar::Persistent { file, .. } => {
                persistents.insert(var.clone(), (stamp(stamps, file), value));
            }
        }
    }
    Ok(())
}
