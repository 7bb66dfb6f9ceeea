//! Reverse mode: the gradient of a scalar output. A primal run of the prepared code records a tape of
//! every operation on values that depend on x (control flow is resolved by the run, so the tape is a
//! linear trace); a backward sweep over it accumulates adjoints with the primitives' reverse rules.

mod sweep;
pub mod tape;

use crate::diag::Result;
use crate::exec::interp::{Interpreter, Slot};
use crate::exec::value::Value;
use crate::ir::FuncId;
use tape::Tape;

/// The first output's value and, when it is a scalar, its gradient with respect to `args[wrt]`
/// (one entry per element of that argument, column-major).
pub fn gradient(mut interpreter: Interpreter, args: &[Value], wrt: usize) -> Result<(Value, Option<Vec<f64>>)> {
    let mut tape = Tape::default();
    let x = tape.input(args[wrt].numel());
    let slots = args
        .iter()
        .enumerate()
        .map(|(i, v)| Slot { tape: (i == wrt).then_some(x), ..Slot::inactive(v.clone()) })
        .collect();
    interpreter.tape = Some(tape);
    let result = interpreter.call(FuncId(0), slots, 1)?.pop().expect("one result");
    let tape = interpreter.tape.take().expect("set above");
    if result.value.numel() != 1 {
        return Ok((result.value, None));
    }
    let gradient = sweep::gradient(&tape, result.tape, x)?;
    Ok((result.value, Some(gradient)))
}
