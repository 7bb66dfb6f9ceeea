//! The `global` and `persistent` variables of a plan's code (see `exec::interp::shared`): read when an
//! evaluation starts (globals from the host, persistents from the engine), never folded into the
//! plan, and changed once when it ends, with the values its last run left.
//!
//! msad keeps its own copy of each persistent variable, by file and function: Octave's copy (of calls
//! Octave runs itself) is another. msad's is forgotten when the file changes (Octave reloads it) and
//! when msad_eval is cleared (`clear msad_eval`, `clear functions`, `clear all`); `clear f` alone does
//! not reach it.

use crate::diag::Result;
use crate::exec::interp::SharedValues;
use crate::exec::value::Value;
use crate::ir::{Op, Program, SharedVar};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::Host;

/// msad's persistent variables: each value with its file's modification time when it was set.
pub(super) type Persistents = HashMap<SharedVar, (Option<SystemTime>, Value)>;

/// Every `global` and `persistent` variable the program declares.
pub(super) fn declared(program: &Program) -> Vec<SharedVar> {
    let mut vars: Vec<SharedVar> = vec![];
    for inst in program.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.insts) {
        if let Op::DeclareShared(var) = &inst.op
            && !vars.contains(var)
        {
            vars.push(var.clone());
        }
    }
    vars
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
) -> Result<SharedValues> {
    let mut values = SharedValues::new();
    for var in vars {
        let value = match var {
            SharedVar::Global(name) => host.global(name)?,
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

/// Gives the host the globals the evaluation changed, and keeps its persistents.
pub(super) fn commit(
    host: &mut dyn Host,
    changes: Vec<(SharedVar, Value)>,
    stamps: &[(PathBuf, Option<SystemTime>)],
    persistents: &mut Persistents,
) -> Result<()> {
    for (var, value) in changes {
        match &var {
            SharedVar::Global(name) => host.set_global(name, &value)?,
            // Run-time checks keep handles out (see `Interpreter::store_shared`).
            SharedVar::Persistent { file, .. } => {
                persistents.insert(var.clone(), (stamp(stamps, file), value));
            }
        }
    }
    Ok(())
}
