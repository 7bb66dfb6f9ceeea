//! `[y, dy, done] = msad_apply(name, x1, dx1, x2, dx2, ...)`: the msad_eval library called by another
//! name (matlab/msad_apply.mex, a copy) runs one primitive on operands and their derivative matrices
//! (`numel x nd`, full or sparse; `[]` for a constant operand) for `@fmad`; name `subsref` or
//! `subsasgn` indexes (operands x, subscripts) or assigns (x, rhs, subscripts); see `engine::apply`.
//! Where the engine's rules do not apply (an operand or result they do not take, the operation's own
//! error, an infinite partial) `done` is false and y, dy are []: fmad's own rule decides, and raises
//! the error as Octave does. Only a malformed call or an internal error is raised here.

use super::array::{ArrayRef, CallOutput, Kind, OwnedArray};
use super::convert::{self, Place};
use super::ffi;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::engine::apply::{self, Operand};
use crate::value::Value;
use std::ffi::CStr;

const NAME: &str = "msad_apply";

/// Whether the host called this library as `msad_apply`.
pub fn called_as_apply() -> bool {
    // SAFETY: no precondition; the host's text (or NULL) stays valid during the call.
    let name = unsafe { ffi::msad_function_name() };
    // SAFETY: a NUL-terminated string from the host, checked for NULL.
    !name.is_null() && unsafe { CStr::from_ptr(name) }.to_bytes() == NAME.as_bytes()
}

/// The call's outputs: the value, its derivative matrix and whether the engine computed them.
pub fn outputs(inputs: &[ArrayRef], nlhs: usize) -> Result<Vec<CallOutput>> {
    let Some((name, operands)) = inputs.split_first().filter(|(_, rest)| !rest.is_empty() && rest.len() % 2 == 0) else {
        return Err(usage());
    };
    let name = convert::to_value(*name, &Place::Argument("name"))?.as_string().ok_or_else(usage)?;
    let applied = apply::resolve(&name).and_then(|rule| {
        let operands = operands.chunks(2).map(|pair| operand(pair[0], pair[1])).collect::<Result<Vec<_>>>()?;
        apply::apply(rule, operands)
    });
    let (value, derivs, done) = match applied {
        Ok(applied) if applied.finite => {
            let outputs = (convert::to_output(&applied.value)?, convert::to_output(&applied.derivs)?, true);
            Value::recycle(applied.value);
            Value::recycle(applied.derivs);
            outputs
        }
        Err(e) if e.kind == ErrorKind::Internal => return Err(e),
        _ => (CallOutput::doubles(&[0, 0], &[]), CallOutput::doubles(&[0, 0], &[]), false),
    };
    let mut outputs = vec![value, derivs, CallOutput::of(OwnedArray::logicals(&[1, 1], &[done]))];
    outputs.truncate(nlhs.max(1));
    Ok(outputs)
}

fn operand(value: ArrayRef, derivs: ArrayRef) -> Result<Operand> {
    let value = convert::to_value(value, &Place::Argument("x"))?;
    let constant = derivs.kind() == Kind::MSAD_DOUBLE && derivs.dims() == [0, 0];
    let derivs = if constant { None } else { Some(convert::to_value(derivs, &Place::Argument("dx"))?) };
    Ok(Operand { value, derivs })
}

fn usage() -> Diagnostic {
    Diagnostic::new(ErrorKind::BadInput, "call it as [y, dy, done] = msad_apply(name, x1, dx1, x2, dx2, ...)")
        .with_hint("it serves @fmad; dx is the numel(x) x nd derivative matrix, [] for a constant")
}
