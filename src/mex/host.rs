//! The engine's `Host` inside Octave/MATLAB: function lookup through the host's `which` (again when
//! its path or current folder changed), edits of source files through `watch`.

use super::array::{self, Kind, OwnedArray};
use super::convert::{Place, to_array, to_value};
use super::watch;
use crate::diag::{ErrorKind, Result, err};
use crate::engine::{Host, WarningState};
use crate::host::HostCall;
use crate::value::Value;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// Calls into the host interpreter, which allows that only from the thread of the MEX call: the
/// raw-pointer marker keeps this type (and so the engine's use of it) off other threads.
#[derive(Default)]
pub struct MexHost {
    calling_thread_only: PhantomData<*const ()>,
}

impl Host for MexHost {
    fn progress(&mut self, line: &str) {
        array::print(&format!("{line}\n"));
    }

    /// Only `.m` files count: built-ins and MEX files are not source the engine can read.
    fn which(&mut self, name: &str) -> Option<PathBuf> {
        let text = OwnedArray::text(name);
        // Octave's `which` parses the file it finds and fails on a syntax error: the path alone is
        // then enough for msad's parser to report the error where it is.
        let outputs = array::call("which", &[text.as_ref()], 1)
            .or_else(|| array::call("file_in_loadpath", &[OwnedArray::text(&format!("{name}.m")).as_ref()], 1))?;
        let found = outputs[0].as_ref();
        if found.kind() != Kind::MSAD_CHAR {
            return None;
        }
        let path = PathBuf::from(array::host_text(&found.char_units()));
        (path.extension().is_some_and(|ext| ext == "m") && path.is_file()).then_some(path)
    }

    /// Whether `exist` knows the name (a built-in or compiled function msad has no source for).
    fn defines(&mut self, name: &str) -> bool {
        let outputs = array::call("exist", &[OwnedArray::text(name).as_ref()], 1);
        outputs
            .is_some_and(|out| out[0].as_ref().kind() == Kind::MSAD_DOUBLE && out[0].as_ref().doubles().first().is_some_and(|&k| k >= 2.0))
    }

    fn call(&mut self, call: &HostCall) {
        let Ok(args) = call.args.iter().map(to_array).collect::<crate::diag::Result<Vec<OwnedArray>>>() else { return };
        let refs: Vec<_> = args.iter().map(OwnedArray::as_ref).collect();
        // A warning the host turned into an error ('error' state) is not msad's to report.
        let _ = array::call(call.function, &refs, 0);
    }

    fn global(&mut self, name: &str) -> Result<Option<Value>> {
        let Some(array) = array::global(name) else { return Ok(None) };
        to_value(array.as_ref(), &Place::Argument(&format!("the global variable {name}"))).map(Some)
    }

    fn set_global(&mut self, name: &str, value: &Value) -> Result<()> {
        let array = to_array(value)?;
        match array::set_global(name, array.as_ref()) {
            true => Ok(()),
            false => err(ErrorKind::Internal, format!("the host did not take the global variable '{name}'")),
        }
    }

    fn set_workspace_variable(&mut self, frame: u64, name: &str, value: &Value) -> Result<()> {
        let array = to_array(value)?;
        match array::assign_in_frame(frame, name, array.as_ref()) {
            true => Ok(()),
            false => err(ErrorKind::Internal, format!("the host did not take the variable '{name}' of a nested function's workspace")),
        }
    }

    /// Octave's `warning()` states and `lastwarn`; what cannot be read stays at the defaults.
    fn warnings(&mut self) -> WarningState {
        let mut state = WarningState::default();
        let states = array::call("warning", &[], 1).and_then(|out| to_value(out[0].as_ref(), &Place::Argument("warning")).ok());
        if let Some(states) = states {
            let _ = state.restore(&states);
        }
        if let Some(last) = array::call("lastwarn", &[], 2) {
            let text = |a: &OwnedArray| match a.as_ref().kind() {
                Kind::MSAD_CHAR => array::host_text(&a.as_ref().char_units()),
                _ => String::new(),
            };
            state.last = (text(&last[0]), text(&last[1]));
        }
        state
    }

    fn watch(&mut self, path: &Path) -> bool {
        watch::watch(path)
    }

    fn edits(&mut self) -> Option<u64> {
        watch::edits()
    }

    /// The host's `path` and the process's current folder (which `cd` changes; Octave's path starts
    /// with it), read again only when the host's `path_generation` moved (reading the path costs more
    /// than the rest of a small call).
    fn resolution_state(&mut self) -> Option<u64> {
        static LAST: Mutex<Option<([u64; 5], u64)>> = Mutex::new(None);
        let generation = array::path_generation();
        let mut last = LAST.lock().unwrap_or_else(PoisonError::into_inner);
        if let (Some(generation), Some((seen, state))) = (generation, *last)
            && generation == seen
        {
            return Some(state);
        }
        let state = path_and_folder_hash()?;
        *last = generation.map(|generation| (generation, state));
        Some(state)
    }
}

fn path_and_folder_hash() -> Option<u64> {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match array::load_path_hash() {
        Some(path) => path.hash(&mut h),
        None => array::call("path", &[], 1)?[0].as_ref().char_units().hash(&mut h),
    }
    std::env::current_dir().ok().hash(&mut h);
    Some(h.finish())
}
