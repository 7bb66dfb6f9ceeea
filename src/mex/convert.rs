//! Host arrays <-> `Value`s. Inputs msad cannot represent (single, objects) are
//! `msad:badInput` errors naming where they were found, e.g. `x{2}.k`.

use super::array::{self, ArrayRef, CallOutput, Kind, OwnedArray};
use super::request;
use crate::diag::{Diagnostic, ErrorKind, Result, err};
use crate::exec::value::{Array, Complex64, FunctionHandle, IntClass, StructArray, Value};
use std::fmt;
use std::sync::Arc;

/// Where a value sits in the call's arguments, for error messages.
#[derive(Clone, Copy)]
pub enum Place<'a> {
    Argument(&'a str),
    Cell(&'a Place<'a>, usize),
    Element(&'a Place<'a>, usize),
    Field(&'a Place<'a>, &'a str),
}

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Argument(name) => write!(f, "{name}"),
            Place::Cell(outer, index) => write!(f, "{outer}{{{}}}", index + 1),
            Place::Element(outer, index) => write!(f, "{outer}({})", index + 1),
            Place::Field(outer, name) => write!(f, "{outer}.{name}"),
        }
    }
}

pub fn to_value(array: ArrayRef, place: &Place) -> Result<Value> {
    let dims = array.dims();
    Ok(match array.kind() {
        Kind::MSAD_DOUBLE => Value::Double(Array::new(dims, array.doubles())),
        Kind::MSAD_SPARSE => Value::Sparse(array.sparse()),
        Kind::MSAD_LOGICAL => Value::Logical(Array::new(dims, array.logicals())),
        Kind::MSAD_CHAR => Value::Char(Array::new(dims, array.char_units())),
        Kind::MSAD_CELL => {
            let elements = (0..array.numel())
                .map(|index| element_value(array.cell(index), &Place::Cell(place, index)))
                .collect::<Result<_>>()?;
            Value::Cell(Array::new(dims, elements))
        }
        Kind::MSAD_STRUCT => {
            let fields = array.field_names();
            let elements = (0..array.numel())
                .map(|index| {
                    let element_place = if array.numel() == 1 { *place } else { Place::Element(place, index) };
                    (0..fields.len())
                        .map(|field| {
                            element_value(array.field(index, field), &Place::Field(&element_place, &fields[field]))
                        })
                        .collect::<Result<_>>()
                })
                .collect::<Result<_>>()?;
            Value::Struct(StructArray { dims, fields, elements })
        }
        Kind::MSAD_FUNCTION_HANDLE => Value::Handle(Arc::new(function_handle(array, place)?)),
        Kind::MSAD_COMPLEX => complex_value(array, &dims, place)?,
        Kind::MSAD_SPARSE_LOGICAL => {
            return bad_input(place, "is a sparse logical array: pass full(...) or double(...)");
        }
        Kind::MSAD_OTHER => match IntClass::from_name(&array.class_name()) {
            Some(class) => Value::Int(class, Array::new(dims, converted("double", array)?.as_ref().doubles())),
            None => return bad_input(place, &format!("is of class {}, which msad does not support", array.class_name())),
        },
    })
}

/// An unset cell element or field reads as `[]`, as in the host.
fn element_value(array: Option<ArrayRef>, place: &Place) -> Result<Value> {
    match array {
        Some(array) => to_value(array, place),
        None => Ok(request::empty_matrix()),
    }
}

fn bad_input<T>(place: &Place, problem: &str) -> Result<T> {
    err(ErrorKind::BadInput, format!("{place} {problem}"))
}

/// Decodes a handle: a named function (read directly where the host allows), or with the host's
/// `functions`, an anonymous function's text and captured variables.
fn function_handle(handle: ArrayRef, place: &Place) -> Result<FunctionHandle> {
    if let Some(name) = handle.simple_handle_name() {
        return Ok(FunctionHandle::Named(name));
    }
    let description = describe_handle(handle, place)?;
    let text_field = |name: &str| match struct_field(&description, name) {
        Some(Value::Char(units)) => Ok(array::host_text(&units.data)),
        _ => err(ErrorKind::Internal, format!("functions() of {place} has no text field '{name}'")),
    };
    match text_field("type")?.as_str() {
        "simple" => Ok(FunctionHandle::Named(text_field("function")?)),
        "anonymous" => {
            // Octave 7 writes a literal `{}` in an anonymous function's text as the constant it folded it
            // to, `{}(0x0)` and a line break.
            let text = text_field("function")?.replace("{}(0x0)\n", "{}");
            Ok(FunctionHandle::Anonymous { text, captured: captured_variables(&description) })
        }
        other => Err(Diagnostic::new(ErrorKind::Unsupported, format!("{place} is a handle of type '{other}'"))
            .with_hint("pass a handle to a function on the path (@name) or an anonymous function")),
    }
}

fn describe_handle(handle: ArrayRef, place: &Place) -> Result<Value> {
    let outputs = array::call("functions", &[handle], 1)
        .ok_or_else(|| Diagnostic::new(ErrorKind::Internal, format!("functions() failed on {place}")))?;
    to_value(outputs[0].as_ref(), &Place::Field(place, "functions"))
}

fn struct_field(value: &Value, name: &str) -> Option<Value> {
    match value {
        Value::Struct(s) if s.elements.len() == 1 => {
            s.fields.iter().position(|field| field == name).map(|field| s.elements[0][field].clone())
        }
        _ => None,
    }
}

/// The variables an anonymous function captured: the fields of `workspace{1}`.
fn captured_variables(description: &Value) -> Vec<(String, Value)> {
    match struct_field(description, "workspace") {
        Some(Value::Cell(cell)) => match cell.data.first() {
            Some(Value::Struct(workspace)) if workspace.elements.len() == 1 => {
                workspace.fields.iter().cloned().zip(workspace.elements[0].iter().cloned()).collect()
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// An output of the call: doubles and sparse matrices go to the host without a copy of its own.
pub fn to_output(value: &Value) -> Result<CallOutput> {
    Ok(match value {
        Value::Double(a) => CallOutput::doubles(&a.dims, &a.data),
        Value::Sparse(s) => CallOutput::sparse(s),
        other => CallOutput::of(to_array(other)?),
    })
}

pub fn to_array(value: &Value) -> Result<OwnedArray> {
    Ok(match value {
        Value::Double(a) => OwnedArray::doubles(&a.dims, &a.data),
        Value::Logical(a) => OwnedArray::logicals(&a.dims, &a.data),
        Value::Char(a) => OwnedArray::chars(&a.dims, &a.data),
        Value::Sparse(s) => OwnedArray::sparse(s),
        Value::Cell(a) => OwnedArray::cell(&a.dims, a.data.iter().map(to_array).collect::<Result<_>>()?),
        Value::Struct(s) => {
            let elements =
                s.elements.iter().map(|values| values.iter().map(to_array).collect()).collect::<Result<_>>()?;
            OwnedArray::structure(&s.dims, &s.fields, elements)
        }
        Value::Handle(handle) => handle_array(handle)?,
        Value::Int(class, a) => converted(class.name(), OwnedArray::doubles(&a.dims, &a.data).as_ref())?,
        Value::Complex(a) => complex_array(a)?,
    })
}

/// A complex host array, read through the host's `full`, `real` and `imag` (the C shim reads real
/// doubles only; msad's complex values are full). Only values the function reads may be complex: the
/// differentiated argument is checked later.
fn complex_value(array: ArrayRef, dims: &[usize], place: &Place) -> Result<Value> {
    let call = |name: &str, input: ArrayRef| -> Result<OwnedArray> {
        let mut outputs = array::call(name, &[input], 1)
            .ok_or_else(|| Diagnostic::new(ErrorKind::Internal, format!("the host's {name} failed on {place}")))?;
        Ok(outputs.remove(0))
    };
    let full = call("full", array)?;
    let (re, im) = (call("real", full.as_ref())?.as_ref().doubles(), call("imag", full.as_ref())?.as_ref().doubles());
    let data = re.into_iter().zip(im).map(|(re, im)| Complex64::new(re, im)).collect();
    Ok(Value::Complex(Array::new(dims.to_vec(), data)))
}

/// A complex result made by the host's `complex(re, im)`, which keeps it complex even when every
/// imaginary part is zero (as msad's value is).
fn complex_array(a: &Array<Complex64>) -> Result<OwnedArray> {
    let re: Vec<f64> = a.data.iter().map(|z| z.re).collect();
    let im: Vec<f64> = a.data.iter().map(|z| z.im).collect();
    let (re, im) = (OwnedArray::doubles(&a.dims, &re), OwnedArray::doubles(&a.dims, &im));
    let mut outputs = array::call("complex", &[re.as_ref(), im.as_ref()], 1)
        .ok_or_else(|| Diagnostic::new(ErrorKind::Internal, "the host's complex conversion failed"))?;
    Ok(outputs.remove(0))
}

/// `array` converted by the host's `double` or integer class function (msad's C shim reads and makes
/// doubles only).
fn converted(class: &str, array: ArrayRef) -> Result<OwnedArray> {
    let mut outputs = array::call(class, &[array], 1)
        .ok_or_else(|| Diagnostic::new(ErrorKind::Internal, format!("the host's {class} conversion failed")))?;
    Ok(outputs.remove(0))
}

/// Named handles are rebuilt with `str2func`; anonymous ones cannot carry their captured values back.
fn handle_array(handle: &FunctionHandle) -> Result<OwnedArray> {
    let FunctionHandle::Named(name) = handle else {
        return err(ErrorKind::Unsupported, "msad cannot return anonymous function handles");
    };
    let name = OwnedArray::text(name);
    let mut outputs = array::call("str2func", &[name.as_ref()], 1)
        .ok_or_else(|| Diagnostic::new(ErrorKind::Internal, "str2func failed"))?;
    Ok(outputs.remove(0))
}
