//! A value as the evaluator holds it: with its derivative block and its variable on the reverse-mode tape.

use crate::value::Value;
use crate::value::deriv::Deriv;

/// A value with its derivative block.
#[derive(Clone, Debug)]
pub struct Slot {
    pub value: Value,
    pub deriv: Deriv,
    /// The value's variable on the reverse-mode tape, when one is recorded and the value depends on x.
    pub tape: Option<TapeVar>,
}

impl Slot {
    pub fn inactive(value: Value) -> Slot {
        Slot::new(value, Deriv::Zero)
    }
    pub fn new(value: Value, deriv: Deriv) -> Slot {
        Slot { value, deriv, tape: None }
    }
}

crate::ids::opaque_id!(
    /// A value on the tape (each is defined by one step, or is the input x).
    TapeVar
);
