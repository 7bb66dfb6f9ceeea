//! Errors and warnings. `error` raises the user's error (formatted message, optional identifier);
//! `rethrow(err)`, `error(err)` and `throw(err)` raise the error a struct describes: the `err` of a
//! `catch err` block (built by `error_value`), or one `MException` built. Octave 7 has no MException
//! class: msad follows MATLAB's call forms and builds the same struct Octave's `catch err` gives.
//! `identified_message` words the user's `warning(...)` too (see `interp::warn`).

use super::check_arity;
use super::printf::sprintf;
use super::runtime;
use super::strings::template;
use super::{IntegerArgs, Prim, Primitive, zero_derivative};
use crate::diag::{Diagnostic, ErrorKind, Result, StackFrame};
use crate::value::{StructArray, Value};

primitive_names! {
    Error = "error",
    Rethrow = "rethrow",
    Throw = "throw",
    MException = "MException",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        zero_derivative(Prim::Error, eval_error).integers(IntegerArgs::ClassFree).raises(),
        zero_derivative(Prim::Rethrow, |args, _| eval_rethrow("rethrow", args)).raises(),
        zero_derivative(Prim::Throw, |args, _| eval_rethrow("throw", args)).raises(),
        zero_derivative(Prim::MException, eval_mexception),
    ]
}

const STACK_FIELDS: [&str; 4] = ["file", "name", "line", "column"];

/// The struct a `catch err` block sees, as Octave 7 builds it: `message`, `identifier`, `stack`
/// (an N x 1 struct array with `file`, `name`, `line`, `column`).
pub fn error_value(error: &Diagnostic) -> Value {
    let frames = error
        .stack
        .iter()
        .map(|f| vec![Value::string(&f.file), Value::string(&f.name), Value::scalar(f.line as f64), Value::scalar(f.column as f64)])
        .collect::<Vec<_>>();
    let stack = StructArray { dims: vec![frames.len(), 1], fields: STACK_FIELDS.map(String::from).to_vec(), elements: frames };
    error_struct(&error.message, error.caught_identifier(), stack)
}

fn error_struct(message: &str, identifier: &str, stack: StructArray) -> Value {
    Value::Struct(StructArray {
        dims: vec![1, 1],
        fields: ["message", "identifier", "stack"].map(String::from).to_vec(),
        elements: vec![vec![Value::string(message), Value::string(identifier), Value::Struct(stack)]],
    })
}

pub(crate) fn raised(identifier: Option<String>, message: &str) -> Diagnostic {
    // Octave drops one trailing newline (which in Octave also suppresses the traceback).
    let mut error = Diagnostic::new(ErrorKind::Runtime, message.strip_suffix('\n').unwrap_or(message));
    error.user_identifier = identifier.filter(|id| !id.is_empty());
    error
}

fn is_identifier(s: &str) -> bool {
    s.contains(':') && !s.ends_with(':') && !s.contains(char::is_whitespace)
}

/// The identifier and message of `message`, `template, args...` or `id, template, args...`, as
/// Octave's `error` and `warning` word them (one argument is taken literally).
pub(crate) fn identified_message(name: &str, args: &[&Value]) -> Result<(Option<String>, String)> {
    let Some(first) = args.first() else { return Err(runtime(format!("Invalid call to {name}"))) };
    let first = template(name, first)?;
    Ok(match args.len() {
        1 if is_identifier(&first) => (None, format!("call to {name} with message identifier '{first}' requires message")),
        1 => (None, first),
        _ if is_identifier(&first) => (Some(first), sprintf(&template(name, args[1])?, &args[2..])?),
        _ => (None, sprintf(&first, &args[1..])?),
    })
}

/// `error(message)`, `error(template, args...)`, `error(id, template, args...)`: raises the user's
/// error with its identifier and message; `error(err)` raises the error a struct describes, nothing
/// when its message is empty.
fn eval_error(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    if let [err @ Value::Struct(_)] = args {
        let error = from_struct("error", err, false)?;
        return if error.message.is_empty() { Ok(vec![]) } else { Err(error) };
    }
    let (identifier, message) = identified_message("error", args)?;
    Err(raised(identifier, &message))
}

/// `rethrow(err)`, `throw(err)`: raises the error of a struct with `message` and `identifier` (and
/// optionally `stack`, which is kept).
fn eval_rethrow(name: &str, args: &[&Value]) -> Result<Vec<Value>> {
    check_arity(name, args, 1, 1)?;
    Err(from_struct(name, args[0], true)?)
}

/// `MException(id, template, args...)`: the error struct (not raised), with an empty stack.
fn eval_mexception(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    if args.len() < 2 {
        return Err(runtime("MException: ID and TEMPLATE are required"));
    }
    let identifier = template("MException", args[0])?;
    if !is_identifier(&identifier) {
        return Err(runtime(format!("MException: ID '{identifier}' must have the form 'component:mnemonic'")));
    }
    let message = sprintf(&template("MException", args[1])?, &args[2..])?;
    let stack = StructArray { dims: vec![0, 1], fields: STACK_FIELDS.map(String::from).to_vec(), elements: vec![] };
    Ok(vec![error_struct(&message, &identifier, stack)])
}

/// The error a struct describes; `strict`: `message` and `identifier` must both be fields.
fn from_struct(name: &str, v: &Value, strict: bool) -> Result<Diagnostic> {
    let Value::Struct(s) = v else { return Err(runtime(format!("{name}: ERR must be a struct"))) };
    let field = |f: &str| s.fields.iter().position(|g| g == f).and_then(|k| s.elements.first().map(|e| &e[k]));
    let (message, identifier) = (field("message"), field("identifier"));
    if strict && (message.is_none() || identifier.is_none()) {
        return Err(runtime(format!("{name}: ERR struct must contain the fields 'message' and 'identifier'")));
    }
    let text = |v: Option<&Value>, what: &str| match v {
        None => Ok(String::new()),
        Some(v) if v.numel() == 0 => Ok(String::new()),
        Some(v) => v.as_string().ok_or_else(|| runtime(format!("{name}: ERR.{what} must be a string"))),
    };
    let mut error = raised(Some(text(identifier, "identifier")?), &text(message, "message")?);
    if let Some(Value::Struct(frames)) = field("stack") {
        error.stack = stack_frames(frames);
        error.stack_fixed = true;
    }
    Ok(error)
}

/// The frames of an `err.stack` struct array (fields it lacks read as empty or 0).
fn stack_frames(s: &StructArray) -> Vec<StackFrame> {
    let position = |f: &str| s.fields.iter().position(|g| g == f);
    let text = |e: &[Value], f: &str| position(f).and_then(|k| e[k].as_string()).unwrap_or_default();
    let number =
        |e: &[Value], f: &str| position(f).and_then(|k| e[k].numeric().and_then(|a| a.data.first().copied())).unwrap_or(0.0) as usize;
    s.elements
        .iter()
        .map(|e| StackFrame { file: text(e, "file"), name: text(e, "name"), line: number(e, "line"), column: number(e, "column") })
        .collect()
}
