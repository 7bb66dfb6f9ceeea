//! Structs and cells with their derivatives: a scalar struct's derivative has one part per field, a
//! cell's one part per element (`Deriv::Parts`), so active values keep their derivatives inside them.
//! On a reverse-mode tape a container's variable names its parts' variables in the same order (see
//! `Tape::container`), so values that depend on x stay on the tape through cells and struct fields.

use crate::ad::reverse::tape::{Tape, TapeVar};
use crate::ad::slot::Slot;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::primitives::index::{Subscript, assign_plan, delete, gather_plan, gather_struct, is_null};
use crate::primitives::runtime;
use crate::value::deriv::Deriv;
use crate::value::memory;
use crate::value::{Array, StructArray, Value};

/// The tape variable of part `k` of a container slot's variable (None without a tape).
pub fn part_var(tape: &Option<Tape>, container: Option<TapeVar>, k: usize) -> Option<TapeVar> {
    tape.as_ref().and_then(|t| t.part(container, k))
}

/// The tape variable of a container with these parts' variables (None without a tape).
pub fn container_var(tape: &mut Option<Tape>, parts: Vec<Option<TapeVar>>) -> Option<TapeVar> {
    tape.as_mut().and_then(|t| t.container(parts))
}

/// A container slot holding the parts' derivatives and, on a tape, their variables.
fn container_slot(value: Value, parts: Vec<Deriv>, vars: Vec<Option<TapeVar>>, tape: &mut Option<Tape>) -> Slot {
    Slot { tape: container_var(tape, vars), ..Slot::new(value, Deriv::from_parts(parts)) }
}

/// Part `k` of a container slot: its value, derivative and tape variable.
fn part_slot(value: Value, container: &Slot, k: usize, tape: &Option<Tape>) -> Slot {
    Slot { tape: part_var(tape, container.tape, k), ..Slot::new(value, container.deriv.part(k)) }
}

fn unsupported(what: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("msad does not support {what} yet"))
}

/// `s.f = v` on a struct array (Octave 7 words it so whatever the array's size).
fn not_scalar_struct(v: &Value) -> Diagnostic {
    match v {
        Value::Struct(_) => runtime(
            "invalid dot name structure assignment because the structure array is empty.  Specify a subscript on the structure array to resolve.",
        )
        .with_hint("assign one element's field, s(k).f = v, or all of them with [s.f] = deal(...)"),
        other => runtime(format!("invalid use of a {} value as a struct", other.class_name())),
    }
}

/// `s.name`: one value per element of the struct array `s` (a cs-list); None when the field does
/// not exist. A struct array's derivative has one part per element and field, element by element.
pub fn field(base: &Slot, name: &str, tape: &Option<Tape>) -> Result<Option<Vec<Slot>>> {
    let s = match &base.value {
        Value::Struct(s) => s,
        other => return Err(runtime(format!("invalid use of a {} value as a struct", other.class_name()))),
    };
    let Some(k) = s.fields.iter().position(|f| f == name) else { return Ok(None) };
    let width = s.fields.len();
    Ok(Some(s.elements.iter().enumerate().map(|(e, values)| part_slot(values[k].clone(), base, e * width + k, tape)).collect()))
}

/// `s.name = rhs`, creating the struct (`base = None`) or the field as needed.
pub fn assign_field(base: Option<Slot>, name: &str, rhs: Slot, tape: &mut Option<Tape>) -> Result<Slot> {
    let (mut s, deriv, base_var) = match base {
        None => (new_struct(), Deriv::Zero, None),
        Some(Slot { value: Value::Struct(s), deriv, tape }) if s.elements.len() == 1 => (s, deriv, tape),
        Some(Slot { value: Value::Double(a), .. }) if a.data.is_empty() => (new_struct(), Deriv::Zero, None),
        Some(Slot { value, .. }) => return Err(not_scalar_struct(&value)),
    };
    let mut parts: Vec<Deriv> = (0..s.fields.len()).map(|k| deriv.part(k)).collect();
    let mut vars: Vec<Option<TapeVar>> = (0..s.fields.len()).map(|k| part_var(tape, base_var, k)).collect();
    match s.fields.iter().position(|f| f == name) {
        Some(k) => {
            s.elements[0][k] = rhs.value;
            parts[k] = rhs.deriv;
            vars[k] = rhs.tape;
        }
        None => {
            s.fields.push(name.to_string());
            s.elements[0].push(rhs.value);
            parts.push(rhs.deriv);
            vars.push(rhs.tape);
        }
    }
    Ok(container_slot(Value::Struct(s), parts, vars, tape))
}

fn empty_value() -> Value {
    Value::Double(Array::new(vec![0, 0], vec![]))
}

/// `s(subs)` read inside `s(subs).f = v`: the elements named, or past the end new elements with the
/// struct's fields all `[]`; None when `base` is undefined or `[]` (the assignment creates it).
pub fn element(base: Option<&Slot>, subs: &[Subscript]) -> Result<Option<Slot>> {
    let (s, deriv) = match base {
        None => return Ok(None),
        Some(Slot { value: Value::Double(a), .. }) if a.data.is_empty() => return Ok(None),
        Some(Slot { value: Value::Struct(s), deriv, .. }) => (s, deriv),
        Some(Slot { value, .. }) => return Err(runtime(format!("invalid use of a {} value as a struct", value.class_name()))),
    };
    if let Ok((dims, positions)) = gather_plan(&s.dims, subs) {
        let (value, deriv) = gather_struct(s, deriv, dims, &positions);
        return Ok(Some(Slot::new(value, deriv)));
    }
    let count = assign_plan(&s.dims, subs, &[1, 1])?.1.len();
    let elements = vec![vec![empty_value(); s.fields.len()]; count];
    Ok(Some(Slot::inactive(Value::Struct(StructArray { dims: vec![1, count], fields: s.fields.clone(), elements }))))
}

/// `s(subs) = rhs` for a struct `rhs` (`merge`: the elements `element` read and changed, whose new
/// fields every element gains; else `rhs` must have the struct's fields, in any order), or `s(subs) = []`.
pub fn assign_elements(base: Option<Slot>, subs: &[Subscript], rhs: Slot, merge: bool) -> Result<Slot> {
    let (s, deriv) = match base {
        Some(Slot { value: Value::Struct(s), deriv, .. }) => (s, deriv),
        Some(Slot { value: Value::Double(a), .. }) if a.data.is_empty() => (empty_struct(), Deriv::Zero),
        None => (empty_struct(), Deriv::Zero),
        Some(Slot { value, .. }) => return Err(runtime(format!("invalid use of a {} value as a struct", value.class_name()))),
    };
    if is_null(&rhs.value) {
        let (value, deriv) = delete(&Value::Struct(s), &deriv, subs)?;
        return Ok(Slot::new(value, deriv));
    }
    let Value::Struct(r) = rhs.value else { return Err(runtime("invalid structure assignment")) };
    let fresh = s.fields.is_empty() && s.elements.is_empty();
    let same_fields = r.fields.len() == s.fields.len() && r.fields.iter().all(|f| s.fields.contains(f));
    if !merge && !fresh && !same_fields {
        return Err(runtime("incompatible fields in struct assignment"));
    }
    let mut fields = s.fields.clone();
    fields.extend(r.fields.iter().filter(|f| !s.fields.contains(f)).cloned());
    let (old_width, width) = (s.fields.len(), fields.len());
    let (dims, targets) = assign_plan(&s.dims, subs, &r.dims)?;
    if r.elements.len() != 1 && r.elements.len() != targets.len() {
        return Err(runtime(format!(
            "=: nonconformant arguments (op1 is {} elements, op2 is {} elements)",
            targets.len(),
            r.elements.len()
        ))
        .with_identifier("Octave:nonconformant-args"));
    }
    let n = grown_count(&dims, width)?;
    let mut elements = vec![vec![empty_value(); width]; n];
    let mut parts = vec![Deriv::Zero; n * width];
    for (k, (values, &e)) in s.elements.into_iter().zip(&resize_positions(&s.dims, &dims)).enumerate() {
        for (f, value) in values.into_iter().enumerate() {
            elements[e][f] = value;
            parts[e * width + f] = deriv.part(k * old_width + f);
        }
    }
    let rhs_field: Vec<Option<usize>> = fields.iter().map(|f| r.fields.iter().position(|g| g == f)).collect();
    for (j, &e) in targets.iter().enumerate() {
        let source = if r.elements.len() == 1 { 0 } else { j };
        for (f, g) in rhs_field.iter().enumerate() {
            let Some(g) = *g else { continue };
            elements[e][f] = r.elements[source][g].clone();
            parts[e * width + f] = rhs.deriv.part(source * r.fields.len() + g);
        }
    }
    Ok(Slot::new(Value::Struct(StructArray { dims, fields, elements }), Deriv::from_parts(parts)))
}

fn empty_struct() -> StructArray {
    StructArray { dims: vec![0, 0], fields: vec![], elements: vec![] }
}

fn cell(v: &Value) -> Result<&Array<Value>> {
    match v {
        Value::Cell(c) => Ok(c),
        other => Err(runtime(format!("'{{' undefined for arguments of type '{}': matrix cannot be indexed with {{", other.class_name()))),
    }
}

/// `c{subs}`: the elements it names, in order (a cs-list); None when a subscript is out of range
/// (for tolerant reads).
pub fn cell_elements(base: &Slot, subs: &[Subscript], tolerant: bool, tape: &Option<Tape>) -> Result<Option<Vec<Slot>>> {
    let c = cell(&base.value)?;
    let positions = match gather_plan(&c.dims, subs) {
        Ok((_, p)) => p,
        Err(_) if tolerant => return Ok(None),
        Err(e) => return Err(e),
    };
    Ok(Some(positions.iter().map(|&k| part_slot(c.data[k].clone(), base, k, tape)).collect()))
}

/// `c{subs} = rhs`: grows the cell with empty elements like an array grows with zeros.
pub fn assign_cell(base: Option<Slot>, subs: &[Subscript], rhs: Slot, tape: &mut Option<Tape>) -> Result<Slot> {
    let (dims, targets) = assign_plan(&cell_dims(base.as_ref())?, subs, &[1, 1])?;
    if targets.len() != 1 {
        return Err(unsupported("brace assignment to several elements").with_hint("write [c{subs}] = deal(...)"));
    }
    place_in_cell(base, dims, &targets, vec![rhs], tape)
}

/// `[c{subs}] = ...`: the values of `rhs`, a cell, go to the elements `subs` names, in order.
pub fn assign_cells(base: Option<Slot>, subs: &[Subscript], rhs: Slot, tape: &mut Option<Tape>) -> Result<Slot> {
    let (dims, targets) = assign_plan(&cell_dims(base.as_ref())?, subs, &NO_EXTENT)?;
    let values = elements_of(rhs, tape);
    if values.len() != targets.len() {
        return Err(runtime("some elements undefined in index list"));
    }
    place_in_cell(base, dims, &targets, values, tape)
}

/// `c(subs) = rhs`: the elements of a cell `rhs` in order, or its one element everywhere (a value
/// that is not a cell is that one element, as in Octave's `c(2) = 5`).
pub fn assign_cell_array(base: Option<Slot>, subs: &[Subscript], rhs: Slot, tape: &mut Option<Tape>) -> Result<Slot> {
    let rhs_dims = match &rhs.value {
        Value::Cell(c) => c.dims.clone(),
        _ => vec![1, 1],
    };
    let (dims, targets) = assign_plan(&cell_dims(base.as_ref())?, subs, &rhs_dims)?;
    let mut values = elements_of(rhs, tape);
    if values.len() == 1 {
        values = vec![values[0].clone(); targets.len()];
    }
    if values.len() != targets.len() {
        return Err(runtime(format!("=: nonconformant arguments (op1 is {} elements, op2 is {} elements)", targets.len(), values.len()))
            .with_identifier("Octave:nonconformant-args"));
    }
    place_in_cell(base, dims, &targets, values, tape)
}

/// How many values the target `c{subs}` of a multiple assignment takes (`base` None: undefined).
pub fn cell_target_count(base: Option<&Slot>, subs: &[Subscript]) -> Result<usize> {
    Ok(assign_plan(&cell_dims(base)?, subs, &NO_EXTENT)?.1.len())
}

/// The rhs dims of a multiple assignment `[c{subs}] = ...`, whose count its targets decide: colons on
/// an empty cell name no elements.
const NO_EXTENT: [usize; 2] = [0, 0];

/// How many values the target `s.f` of a multiple assignment takes: one per element of a struct.
pub fn field_target_count(base: Option<&Slot>) -> usize {
    match base {
        Some(Slot { value: Value::Struct(s), .. }) => s.elements.len(),
        _ => 1,
    }
}

fn cell_dims(base: Option<&Slot>) -> Result<Vec<usize>> {
    match base.map(|s| &s.value) {
        None => Ok(vec![0, 0]),
        Some(Value::Double(a)) if a.data.is_empty() => Ok(vec![0, 0]),
        Some(v) => Ok(cell(v)?.dims.clone()),
    }
}

/// A cell's elements with their derivatives and tape variables.
fn elements_of(c: Slot, tape: &Option<Tape>) -> Vec<Slot> {
    let Value::Cell(a) = &c.value else { return vec![c] };
    a.data.iter().enumerate().map(|(k, v)| part_slot(v.clone(), &c, k, tape)).collect()
}

/// The cell `base` resized to `dims` with `values` at positions `targets`.
fn place_in_cell(base: Option<Slot>, dims: Vec<usize>, targets: &[usize], values: Vec<Slot>, tape: &mut Option<Tape>) -> Result<Slot> {
    let empty = || Value::Double(Array::new(vec![0, 0], vec![]));
    let (c, deriv, base_var) = match base {
        Some(Slot { value: Value::Cell(c), deriv, tape }) => (c, deriv, tape),
        _ => (Array::new(vec![0, 0], vec![]), Deriv::Zero, None),
    };
    let n = grown_count(&dims, 1)?;
    let moved = resize_positions(&c.dims, &dims);
    let mut data: Vec<Value> = vec![empty(); n];
    let mut parts = vec![Deriv::Zero; n];
    let mut vars = vec![None; n];
    for (k, value) in c.data.into_iter().enumerate() {
        parts[moved[k]] = deriv.part(k);
        vars[moved[k]] = part_var(tape, base_var, k);
        data[moved[k]] = value;
    }
    for (&target, rhs) in targets.iter().zip(values) {
        data[target] = rhs.value;
        parts[target] = rhs.deriv;
        vars[target] = rhs.tape;
    }
    Ok(container_slot(Value::Cell(Array::new(dims, data)), parts, vars, tape))
}

/// `[s.name] = ...`: element k of the struct (array) `base` gets value k of the cell `rhs`; an
/// undefined base becomes a 1x1 struct.
pub fn assign_fields(base: Option<Slot>, name: &str, rhs: Slot, tape: &mut Option<Tape>) -> Result<Slot> {
    let (mut s, deriv, base_var) = match base {
        Some(Slot { value: Value::Struct(s), deriv, tape }) => (s, deriv, tape),
        Some(Slot { value: Value::Double(a), .. }) if a.data.is_empty() => (new_struct(), Deriv::Zero, None),
        None => (new_struct(), Deriv::Zero, None),
        Some(Slot { value, .. }) => return Err(runtime(format!("invalid use of a {} value as a struct", value.class_name()))),
    };
    let values = elements_of(rhs, tape);
    if values.len() != s.elements.len() {
        return Err(runtime("some elements undefined in index list"));
    }
    let width = s.fields.len();
    let k = s.fields.iter().position(|f| f == name).unwrap_or(width);
    let new_width = width.max(k + 1);
    let mut parts = vec![Deriv::Zero; s.elements.len() * new_width];
    let mut vars = vec![None; s.elements.len() * new_width];
    for (e, (element, rhs)) in s.elements.iter_mut().zip(values).enumerate() {
        for f in 0..width {
            parts[e * new_width + f] = deriv.part(e * width + f);
            vars[e * new_width + f] = part_var(tape, base_var, e * width + f);
        }
        element.resize(new_width, Value::Double(Array::new(vec![0, 0], vec![])));
        element[k] = rhs.value;
        parts[e * new_width + k] = rhs.deriv;
        vars[e * new_width + k] = rhs.tape;
    }
    if k == width {
        s.fields.push(name.to_string());
    }
    Ok(container_slot(Value::Struct(s), parts, vars, tape))
}

fn new_struct() -> StructArray {
    StructArray { dims: vec![1, 1], fields: vec![], elements: vec![vec![]] }
}

/// The element count of a container grown to `dims`, each element holding `width` values with their
/// derivatives, when memory can hold it.
fn grown_count(dims: &[usize], width: usize) -> Result<usize> {
    memory::check_dims(dims, (size_of::<Value>() + size_of::<Deriv>()) * width.max(1))?;
    Ok(dims.iter().product())
}

/// Where each element of an array of `old` dims lands in the grown `new` dims.
fn resize_positions(old: &[usize], new: &[usize]) -> Vec<usize> {
    let n: usize = old.iter().product();
    (0..n)
        .map(|mut k| {
            let (mut index, mut stride) = (0, 1);
            for (d, &extent) in old.iter().enumerate() {
                index += (k % extent) * stride;
                k /= extent;
                stride *= new.get(d).copied().unwrap_or(1);
            }
            index
        })
        .collect()
}

/// `{a, b; c, d}` from its elements given row by row.
pub fn literal(elements: Vec<Slot>, rows: usize, tape: &mut Option<Tape>) -> Result<Slot> {
    if rows == 0 {
        return Ok(Slot::inactive(Value::Cell(Array::new(vec![0, 0], vec![]))));
    }
    let cols = elements.len() / rows;
    let mut by_column: Vec<Option<Slot>> = vec![None; elements.len()];
    for (k, e) in elements.into_iter().enumerate() {
        by_column[(k % cols) * rows + k / cols] = Some(e);
    }
    let (values, (parts, vars)): (Vec<_>, (Vec<_>, Vec<_>)) =
        by_column.into_iter().map(|s| s.expect("every element placed")).map(|s| (s.value, (s.deriv, s.tape))).unzip();
    Ok(container_slot(Value::Cell(Array::new(vec![rows, cols], values)), parts, vars, tape))
}
