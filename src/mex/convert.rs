//! Host arrays <-> `Value`s. Inputs msad cannot represent (single, objects) are
//! `msad:badInput` errors naming where they were found, e.g. `x{2}.k`.

use super::array::{self, ArrayRef, CallOutput, Kind, OwnedArray};
use super::request;
use crate::diag::{Diagnostic, ErrorKind, Result, err};
use crate::value::{Array, Complex64, ComplexSparse, FunctionHandle, HostFrame, IntClass, StructArray, Value};
use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

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

impl Place<'_> {
    /// The argument this place lies in.
    fn argument(&self) -> &str {
        let mut place = self;
        loop {
            match place {
                Place::Argument(name) => return name,
                Place::Cell(outer, _) | Place::Element(outer, _) | Place::Field(outer, _) => place = outer,
            }
        }
    }
}

/// Deepest nesting of cells, structs and handles' captured variables converted; deeper input is an
/// error, not a stack overflow (the large stack, see `stack`, holds many times this).
pub const MAX_NESTING: usize = 10_000;

pub fn to_value(array: ArrayRef, place: &Place) -> Result<Value> {
    value_at(array, place, 0)
}

/// The value of `array`, `depth` levels inside its argument.
fn value_at(array: ArrayRef, place: &Place, depth: usize) -> Result<Value> {
    if depth > MAX_NESTING {
        return Err(Diagnostic::new(
            ErrorKind::BadInput,
            format!("{} nests cells, structs or captured variables more than {MAX_NESTING} levels deep", place.argument()),
        )
        .with_hint("pass flatter data: msad reads nested values recursively"));
    }
    let dims = array.dims();
    Ok(match array.kind() {
        Kind::MSAD_DOUBLE => Value::Double(Array::new(dims, array.doubles())),
        Kind::MSAD_SPARSE => Value::Sparse(array.sparse()),
        Kind::MSAD_LOGICAL => Value::Logical(Array::new(dims, array.logicals())),
        Kind::MSAD_CHAR => Value::Char(Array::new(dims, array.char_units())),
        Kind::MSAD_CELL => {
            let elements = (0..array.numel())
                .map(|index| element_value(array.cell(index), &Place::Cell(place, index), depth + 1))
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
                            let field_place = Place::Field(&element_place, &fields[field]);
                            element_value(array.field(index, field), &field_place, depth + 1)
                        })
                        .collect::<Result<_>>()
                })
                .collect::<Result<_>>()?;
            Value::Struct(StructArray { dims, fields, elements })
        }
        Kind::MSAD_FUNCTION_HANDLE => Value::Handle(Arc::new(function_handle(array, place, depth)?)),
        Kind::MSAD_COMPLEX => Value::Complex(complex_array_value(array, &dims)),
        Kind::MSAD_SPARSE_COMPLEX => Value::ComplexSparse(ComplexSparse::from_stored(array.sparse(), &array.imag_parts())),
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
fn element_value(array: Option<ArrayRef>, place: &Place, depth: usize) -> Result<Value> {
    match array {
        Some(array) => value_at(array, place, depth),
        None => Ok(request::empty_matrix()),
    }
}

fn bad_input<T>(place: &Place, problem: &str) -> Result<T> {
    err(ErrorKind::BadInput, format!("{place} {problem}"))
}

/// Decodes a handle: a named function (read directly where the host allows), or with the host's
/// `functions`, an anonymous function's text and captured variables. Only what the handle's type
/// needs is read: a nested function's workspace holds the handle itself.
fn function_handle(handle: ArrayRef, place: &Place, depth: usize) -> Result<FunctionHandle> {
    if let Some(name) = handle.simple_handle_name() {
        return Ok(FunctionHandle::Named(name));
    }
    let Some(identity) = handle.hold_anonymous_handle() else { return described_handle(handle, place, depth) };
    let mut seen = SEEN_HANDLES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = seen.find(identity) {
        return Ok(known);
    }
    drop(seen);
    let read = described_handle(handle, place, depth);
    let mut seen = SEEN_HANDLES.lock().unwrap_or_else(PoisonError::into_inner);
    match &read {
        Ok(function) if !holds_nested_handle(function) => seen.add(identity, function.clone()),
        _ => array::release_handle(identity),
    }
    read
}

/// Whether a handle holds a handle to a nested function (in its captured values): the workspace such
/// a handle holds changes when the nested function assigns its parent's variables, so the captured
/// values are read on every call.
fn holds_nested_handle(function: &FunctionHandle) -> bool {
    let mut nested = false;
    function.visit_handles(&mut |h| nested |= matches!(h, FunctionHandle::Nested { .. }));
    nested
}

/// Anonymous handles read lately, by identity (see `msad_hold_anonymous_handle`): a handle passed
/// again is not read again, so a call costs the same whatever the size of its captured values.
static SEEN_HANDLES: Mutex<SeenHandles> = Mutex::new(SeenHandles(VecDeque::new()));

/// At most this many handles are kept (with their captured values), the latest first.
const MAX_SEEN_HANDLES: usize = 16;

struct SeenHandles(VecDeque<(u64, FunctionHandle)>);

/// Lets the host free the handles read lately (`clear msad_eval`).
pub fn forget_handles() {
    let mut seen = SEEN_HANDLES.lock().unwrap_or_else(PoisonError::into_inner);
    for (identity, _) in seen.0.drain(..) {
        array::release_handle(identity);
    }
}

impl SeenHandles {
    fn find(&mut self, identity: u64) -> Option<FunctionHandle> {
        let index = self.0.iter().position(|(seen, _)| *seen == identity)?;
        let entry = self.0.remove(index)?;
        self.0.push_front(entry);
        Some(self.0[0].1.clone())
    }

    fn add(&mut self, identity: u64, function: FunctionHandle) {
        self.0.push_front((identity, function));
        while self.0.len() > MAX_SEEN_HANDLES {
            if let Some((forgotten, _)) = self.0.pop_back() {
                array::release_handle(forgotten);
            }
        }
    }
}

/// Reads a handle through the host's `functions`.
fn described_handle(handle: ArrayRef, place: &Place, depth: usize) -> Result<FunctionHandle> {
    let description = array::call("functions", &[handle], 1)
        .ok_or_else(|| Diagnostic::new(ErrorKind::Internal, format!("functions() failed on {place}")))?;
    let description = description[0].as_ref();
    let text_field = |name: &str| match scalar_field(description, name) {
        Some(text) if text.kind() == Kind::MSAD_CHAR => Ok(array::host_text(&text.char_units())),
        _ => err(ErrorKind::Internal, format!("functions() of {place} has no text field '{name}'")),
    };
    match text_field("type")?.as_str() {
        "simple" => Ok(FunctionHandle::Named(text_field("function")?)),
        "anonymous" => {
            // Octave 7 writes a literal `{}` in an anonymous function's text as the constant it folded it
            // to, `{}(0x0)` and a line break.
            let text = text_field("function")?.replace("{}(0x0)\n", "{}");
            let (captured, unmodelled) = captured_variables(description, place, depth)?;
            Ok(FunctionHandle::Anonymous { text, captured: captured.into(), unmodelled })
        }
        "nested" => nested_handle(handle, description, text_field("function")?, place, depth),
        other => Err(Diagnostic::new(ErrorKind::Unsupported, format!("{place} is a handle of type '{other}'"))
            .with_hint("pass a handle to a function on the path (@name) or an anonymous function")),
    }
}

/// A handle to nested function `name`: its parent's file and the workspace it holds (read on every
/// call, as code run by Octave may have changed it). The workspace holds the handle itself: handles to
/// nested functions in it are not read again (their workspace is this one), and the code may not call them.
fn nested_handle(handle: ArrayRef, description: ArrayRef, name: String, place: &Place, depth: usize) -> Result<FunctionHandle> {
    let file = handle
        .nested_handle_file()
        .filter(|file| !file.is_empty())
        .or_else(|| scalar_field(description, "file").filter(|f| f.kind() == Kind::MSAD_CHAR).map(|f| array::host_text(&f.char_units())));
    let Some(file) = file.filter(|file| !file.is_empty()) else {
        return err(ErrorKind::Unsupported, format!("{place} is a handle to nested function '{name}' whose file the host does not name"));
    };
    if READING_NESTED_WORKSPACE.get() {
        return Err(Diagnostic::new(
            ErrorKind::Unsupported,
            format!("{place} is a handle to nested function '{name}' inside the workspace of another nested function's handle"),
        )
        .with_hint("pass the handle itself to msad_eval, or capture it in an anonymous function"));
    }
    READING_NESTED_WORKSPACE.set(true);
    let read = captured_variables(description, place, depth);
    READING_NESTED_WORKSPACE.set(false);
    let (captured, unmodelled) = read?;
    let frame = handle.nested_handle_frame().map(|(id, parent)| HostFrame { parent, id });
    Ok(FunctionHandle::Nested { name, file: file.into(), captured: captured.into(), unmodelled, frame })
}

thread_local! {
    /// Whether a nested function's handle's workspace is being read (see `nested_handle`).
    static READING_NESTED_WORKSPACE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Field `name` of a scalar struct.
fn scalar_field<'a>(array: ArrayRef<'a>, name: &str) -> Option<ArrayRef<'a>> {
    if array.kind() != Kind::MSAD_STRUCT || array.numel() != 1 {
        return None;
    }
    array.field(0, array.field_names().iter().position(|field| field == name)?)
}

/// Captured variables: their values, and the names and classes of those msad does not model.
type Captured = (Vec<(String, Value)>, Vec<(String, String)>);

/// The variables an anonymous function captured: the fields of its description's `workspace{1}`,
/// one level deeper than the handle. Objects (classdef, containers.Map, Java) are left for the code
/// to refuse if it reads them.
fn captured_variables(description: ArrayRef, place: &Place, depth: usize) -> Result<Captured> {
    let workspace = scalar_field(description, "workspace")
        .filter(|cell| cell.kind() == Kind::MSAD_CELL && cell.numel() > 0)
        .and_then(|cell| cell.cell(0))
        .filter(|workspace| workspace.kind() == Kind::MSAD_STRUCT && workspace.numel() == 1);
    let Some(workspace) = workspace else { return Ok((Vec::new(), Vec::new())) };
    let names = workspace.field_names();
    let (mut captured, mut unmodelled) = (Vec::new(), Vec::new());
    for (field, name) in names.iter().enumerate() {
        let array = workspace.field(0, field);
        let nested = array.is_some_and(|a| a.kind() == Kind::MSAD_FUNCTION_HANDLE && a.nested_handle_file().is_some());
        if nested && READING_NESTED_WORKSPACE.get() {
            // Octave puts a nested function's handle in the workspace it holds: not read again.
            unmodelled.push((name.clone(), "function_handle (a handle to a nested function, holding this workspace)".into()));
            continue;
        }
        match array.filter(|a| a.kind() == Kind::MSAD_OTHER && IntClass::from_name(&a.class_name()).is_none()) {
            Some(object) => {
                if let Some(properties) = value_object_properties(object, &Place::Field(place, name), depth + 1) {
                    captured.push((name.clone(), properties));
                }
                unmodelled.push((name.clone(), object.class_name()));
            }
            None => match element_value(array, &Place::Field(place, name), depth + 1) {
                Ok(value) => captured.push((name.clone(), value)),
                // A struct or cell holding an object: refused where the code reads it.
                Err(error) if array.is_some_and(holds_object) => {
                    let class = array.map_or_else(String::new, |a| a.class_name());
                    unmodelled.push((name.clone(), format!("{class} ({})", error.message)));
                }
                Err(error) => return Err(error),
            },
        }
    }
    Ok((captured, unmodelled))
}

/// Whether a cell or struct holds an object (a class msad does not model) at any depth.
fn holds_object(array: ArrayRef) -> bool {
    match array.kind() {
        Kind::MSAD_OTHER => IntClass::from_name(&array.class_name()).is_none(),
        Kind::MSAD_CELL => (0..array.numel()).any(|index| array.cell(index).is_some_and(holds_object)),
        Kind::MSAD_STRUCT => {
            let fields = array.field_names().len();
            (0..array.numel()).any(|index| (0..fields).any(|field| array.field(index, field).is_some_and(holds_object)))
        }
        _ => false,
    }
}

/// A value-class object's public properties as a scalar struct, read through the host's `isa`,
/// `properties` and `getfield`; `None` for handle objects (their properties may change while a
/// handle that captured them stays the same), other objects, and properties msad cannot represent.
fn value_object_properties(object: ArrayRef, place: &Place, depth: usize) -> Option<Value> {
    let handle_class = OwnedArray::text("handle");
    let is_handle = array::call("isa", &[object, handle_class.as_ref()], 1)?;
    if is_handle[0].as_ref().kind() != Kind::MSAD_LOGICAL || is_handle[0].as_ref().logicals() != [false] {
        return None;
    }
    let names = array::call("properties", &[object], 1)?;
    let names = names[0].as_ref();
    if names.kind() != Kind::MSAD_CELL {
        return None;
    }
    let (mut fields, mut values) = (vec![], vec![]);
    for index in 0..names.numel() {
        let name = names.cell(index).filter(|n| n.kind() == Kind::MSAD_CHAR)?;
        let property = array::call("getfield", &[object, name], 1)?;
        let field = array::host_text(&name.char_units());
        values.push(value_at(property[0].as_ref(), &Place::Field(place, &field), depth).ok()?);
        fields.push(field);
    }
    Some(Value::Struct(StructArray { dims: vec![1, 1], fields, elements: vec![values] }))
}

/// An output of the call: doubles and sparse matrices go to the host without a copy of its own.
pub fn to_output(value: &Value) -> Result<CallOutput> {
    Ok(match value {
        Value::Double(a) => CallOutput::doubles(&a.dims, &a.data),
        Value::Sparse(s) => CallOutput::sparse(&s.as_stored()),
        other => CallOutput::of(to_array(other)?),
    })
}

pub fn to_array(value: &Value) -> Result<OwnedArray> {
    Ok(match value {
        Value::Double(a) => OwnedArray::doubles(&a.dims, &a.data),
        Value::Logical(a) => OwnedArray::logicals(&a.dims, &a.data),
        Value::Char(a) => OwnedArray::chars(&a.dims, &a.data),
        Value::Sparse(s) => OwnedArray::sparse(&s.as_stored()),
        Value::Cell(a) => OwnedArray::cell(&a.dims, a.data.iter().map(to_array).collect::<Result<_>>()?),
        Value::Struct(s) => {
            let elements = s.elements.iter().map(|values| values.iter().map(to_array).collect()).collect::<Result<_>>()?;
            OwnedArray::structure(&s.dims, &s.fields, elements)
        }
        Value::Handle(handle) => handle_array(handle)?,
        Value::Int(class, a) => converted(class.name(), OwnedArray::doubles(&a.dims, &a.data).as_ref())?,
        Value::Complex(a) => complex_array(a)?,
        Value::ComplexSparse(s) => complex_sparse_array(s)?,
    })
}

/// A complex full host array from its real and imaginary parts. Only values the function reads may be
/// complex: the differentiated argument is checked later.
fn complex_array_value(array: ArrayRef, dims: &[usize]) -> Array<Complex64> {
    let data = array.doubles().into_iter().zip(array.imag_parts()).map(|(re, im)| Complex64::new(re, im)).collect();
    Array::new(dims.to_vec(), data)
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

/// A complex sparse result made by the host's `complex(re, im)` of its real sparse parts.
fn complex_sparse_array(s: &ComplexSparse) -> Result<OwnedArray> {
    let (re, im) = (OwnedArray::sparse(&s.part(false).without_zeros()), OwnedArray::sparse(&s.part(true).without_zeros()));
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
    let mut outputs =
        array::call("str2func", &[name.as_ref()], 1).ok_or_else(|| Diagnostic::new(ErrorKind::Internal, "str2func failed"))?;
    Ok(outputs.remove(0))
}
