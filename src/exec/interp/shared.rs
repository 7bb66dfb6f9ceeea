//! `global` and `persistent` variables during a run. Every run of an evaluation starts from the values
//! read before its first run (`Plan::shared`) and changes a copy of its own; the latest run that
//! finishes publishes its changes (`Plan::shared_changes`), which the engine hands the host (globals)
//! or keeps (persistents) once the evaluation ends. However often msad runs the code (sparsity
//! detection, both sides of a branch on x, reverse and forward passes), each change is seen once, as
//! in Octave. A value that depends on x carries its derivative within the run; only the value
//! outlives it.

use super::{Interpreter, Slot};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::ir::SharedVar;
use crate::value::{Array, Value};
use std::collections::{HashMap, HashSet};

/// The shared variables' values when an evaluation starts; a variable missing does not exist yet.
pub type SharedValues = HashMap<SharedVar, Value>;

/// A run's shared variables: those it read or changed, and which it changed.
#[derive(Clone, Default)]
pub(super) struct SharedStore {
    slots: HashMap<SharedVar, Slot>,
    changed: HashSet<SharedVar>,
}

impl Interpreter<'_> {
    /// The variable's slot in this run, read from the evaluation's start on first use.
    fn shared_slot(&mut self, var: &SharedVar) -> Option<&mut Slot> {
        if !self.shared.slots.contains_key(var) {
            let start = self.plan.shared.get(var)?;
            self.shared.slots.insert(var.clone(), Slot::inactive(start.clone()));
        }
        self.shared.slots.get_mut(var)
    }

    /// `global g` / `persistent p = init`: a variable that does not exist yet is created with the
    /// initial value, or `[]`.
    pub(super) fn declare_shared(&mut self, var: &SharedVar, init: Option<&Slot>) -> Result<()> {
        match self.shared_slot(var) {
            Some(_) => Ok(()),
            None => self.store_shared(var, init.cloned().unwrap_or_else(|| Slot::inactive(Value::Double(Array::new(vec![0, 0], vec![]))))),
        }
    }

    /// The variable's value now; `active`: whether its derivative is wanted.
    pub(super) fn load_shared(&mut self, var: &SharedVar, active: bool) -> Result<Slot> {
        let slot = self.shared_slot(var).ok_or_else(|| Diagnostic::new(ErrorKind::Undefined, format!("'{}' undefined", var.name())))?;
        Ok(match active {
            true => slot.clone(),
            false => Slot::inactive(slot.value.clone()),
        })
    }

    pub(super) fn store_shared(&mut self, var: &SharedVar, slot: Slot) -> Result<()> {
        // A handle made by prepared code belongs to that code; a persistent or workspace variable outlives it.
        let kept_in = match var {
            SharedVar::Persistent { .. } => Some("the persistent variable"),
            SharedVar::Workspace { .. } => Some("the nested function's shared variable"),
            SharedVar::Global(_) => None,
        };
        if let Some(kept_in) = kept_in.filter(|_| slot.value.holds_handle()) {
            return Err(Diagnostic::new(
                ErrorKind::Unsupported,
                format!("msad does not support a function handle kept in {kept_in} '{}' yet", var.name()),
            )
            .with_hint("keep the data in the variable and make the handle on each call"));
        }
        self.shared.slots.insert(var.clone(), slot);
        self.shared.changed.insert(var.clone());
        Ok(())
    }

    /// The shared variables as they stand, to go back to after running the other side of a branch.
    pub(super) fn shared_mark(&self) -> SharedStore {
        self.shared.clone()
    }

    pub(super) fn rewind_shared(&mut self, mark: SharedStore) {
        self.shared = mark;
    }

    /// Hands the run's changes to the engine (the latest run to finish is the one that counts).
    pub(super) fn publish_shared(&mut self) {
        let store = std::mem::take(&mut self.shared);
        if store.changed.is_empty() {
            return;
        }
        let mut slots = store.slots;
        let changes = store.changed.into_iter().filter_map(|var| Some((var.clone(), slots.remove(&var)?.value))).collect();
        *self.plan.shared_changes.lock().unwrap_or_else(|e| e.into_inner()) = changes;
    }
}
