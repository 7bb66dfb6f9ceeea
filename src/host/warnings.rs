//! Octave's warning state inside a run: which identifiers are on, off or errors, and the last warning.
//! A run starts from the host's state and changes its own copy as the user's `warning(...)` and
//! `lastwarn(...)` calls do; the same calls go to the host afterwards (see `HostCall`), so both agree.

use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::{StructArray, Value};

/// The state of every identifier with one of its own, `"all"` first, and the last warning.
#[derive(Clone, Debug, PartialEq)]
pub struct WarningState {
    /// `(identifier, state)` with state `on`, `off` or `error`, in Octave's order.
    pub states: Vec<(String, String)>,
    /// Message and identifier of the last warning issued.
    pub last: (String, String),
}

impl Default for WarningState {
    fn default() -> Self {
        WarningState { states: vec![("all".into(), "on".into())], last: (String::new(), String::new()) }
    }
}

impl WarningState {
    /// The state that applies to `id`: its own, else that of `all`.
    pub fn state_of(&self, id: &str) -> &str {
        let own = self.states.iter().find(|(i, _)| i == id);
        let all = self.states.iter().find(|(i, _)| i == "all");
        own.or(all).map_or("on", |(_, s)| s.as_str())
    }

    /// Sets `id`'s state; for `all`, every identifier's (their own states go).
    pub fn set(&mut self, state: &str, id: &str) {
        if id == "all" {
            self.states = vec![("all".into(), state.into())];
            return;
        }
        match self.states.iter_mut().find(|(i, _)| i == id) {
            Some(entry) => entry.1 = state.into(),
            None => self.states.push((id.into(), state.into())),
        }
    }

    /// `warning('query', id)`: a 1x1 struct; for `all`, the struct array of every state.
    pub fn query(&self, id: &str) -> Value {
        match id {
            "all" => states_struct(&self.states),
            _ => states_struct(&[(id.to_string(), self.state_of(id).to_string())]),
        }
    }

    /// `warning(s)`: the states of a struct array with fields `identifier` and `state`, in order.
    pub fn restore(&mut self, s: &Value) -> Result<Vec<(String, String)>> {
        let Value::Struct(s) = s else { return Err(runtime("warning: STATE structure must be a struct")) };
        let field = |name: &str| s.fields.iter().position(|f| f == name);
        let (Some(id), Some(state)) = (field("identifier"), field("state")) else {
            return Err(runtime("warning: STATE structure must have fields 'identifier' and 'state'"));
        };
        let text = |v: &Value| v.as_string().ok_or_else(|| runtime("warning: STATE structure must hold strings"));
        let mut set = Vec::with_capacity(s.elements.len());
        for element in &s.elements {
            let (id, state) = (text(&element[id])?, text(&element[state])?);
            self.set(&state, &id);
            set.push((state, id));
        }
        Ok(set)
    }
}

fn states_struct(states: &[(String, String)]) -> Value {
    let elements = states.iter().map(|(id, state)| vec![Value::string(id), Value::string(state)]).collect();
    Value::Struct(StructArray { dims: vec![1, states.len()], fields: vec!["identifier".into(), "state".into()], elements })
}

fn runtime(message: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::Runtime, message)
}
