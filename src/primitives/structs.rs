//! Struct and cell builtins: `struct`, `cell`, `fieldnames`, `isfield`, `getfield` and `setfield` of one
//! field of a scalar struct (`iscell`, `isstruct` are predicates).

use super::{Derivative, EvalFn, Forward, IntegerArgs, Kernel, Prim, Primitive, check_arity, runtime};
use crate::diag::Result;
use crate::value::deriv::Deriv;
use crate::value::{Array, StructArray, Value};

primitive_names! {
    Struct = "struct",
    Cell = "cell",
    Fieldnames = "fieldnames",
    Isfield = "isfield",
    Getfield = "getfield",
    Setfield = "setfield",
}

fn entry(prim: Prim, eval: EvalFn, derivative: Derivative) -> Primitive {
    Primitive::new(prim, Kernel::General { eval, derivative })
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        entry(Prim::Struct, eval_struct, Derivative::Rule(forward_struct)).integers(IntegerArgs::Own),
        entry(Prim::Cell, eval_cell, Derivative::Zero).integers(IntegerArgs::Own),
        entry(Prim::Fieldnames, eval_fieldnames, Derivative::Zero),
        entry(Prim::Isfield, eval_isfield, Derivative::Zero),
        // A field named at run time (`s.(name)` in other code): msad has no rule for values that depend on x.
        entry(Prim::Getfield, eval_getfield, Derivative::Missing),
        entry(Prim::Setfield, eval_setfield, Derivative::Missing),
    ]
}

/// The scalar struct and field name of `getfield(s, name)` and `setfield(s, name, v)`.
/// `arity` is the builtin's count of arguments.
fn named_field<'v>(prim: Prim, arity: usize, args: &[&'v Value]) -> Result<(&'v StructArray, String)> {
    let function = prim.name();
    check_arity(function, args, arity, arity)?;
    let Value::Struct(s) = args[0] else { return Err(runtime(format!("{function}: S must be a struct"))) };
    if s.elements.len() != 1 {
        return Err(runtime(format!("{function}: msad takes one field of a 1 x 1 struct (no subscripts)")));
    }
    let name = args[1].as_string().ok_or_else(|| runtime(format!("{function}: FIELD must be a string")))?;
    Ok((s, name))
}

/// `getfield(s, name)`: `s.(name)`.
fn eval_getfield(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (s, name) = named_field(Prim::Getfield, 2, args)?;
    let k =
        s.fields.iter().position(|f| *f == name).ok_or_else(|| runtime(format!("invalid use of undefined value: no field '{name}'")))?;
    Ok(vec![s.elements[0][k].clone()])
}

/// `setfield(s, name, v)`: s with `s.(name) = v` (a new field after the others).
fn eval_setfield(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (s, name) = named_field(Prim::Setfield, 3, args)?;
    let mut s = s.clone();
    match s.fields.iter().position(|f| *f == name) {
        Some(k) => s.elements[0][k] = args[2].clone(),
        None => {
            s.fields.push(name);
            s.elements[0].push(args[2].clone());
        }
    }
    Ok(vec![Value::Struct(s)])
}

/// `struct('a', 1, 'b', {x, y})`: cell values make a struct array of their size (1x1 cells and other
/// values are the same in every element); the last value given for a field wins.
fn eval_struct(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let layout = struct_layout(args)?;
    let width = layout.fields.len();
    let elements = (0..layout.count()).map(|e| (0..width).map(|k| element_value(args[layout.sources[k]], e)).collect()).collect();
    Ok(vec![Value::Struct(StructArray { dims: layout.dims, fields: layout.fields, elements })])
}

/// The shape of `struct(args...)`: its dims, its fields, and the argument giving each field's values.
struct Layout {
    dims: Vec<usize>,
    fields: Vec<String>,
    sources: Vec<usize>,
}

impl Layout {
    fn count(&self) -> usize {
        self.dims.iter().product()
    }
}

fn struct_layout(args: &[&Value]) -> Result<Layout> {
    if !args.len().is_multiple_of(2) {
        return Err(runtime("struct: additional arguments must occur as \"field\", VALUE pairs"));
    }
    let mut layout = Layout { dims: vec![1, 1], fields: vec![], sources: vec![] };
    // The 1-based position of the first cell argument that set the dims.
    let mut sized_by: Option<usize> = None;
    for (p, pair) in args.chunks(2).enumerate() {
        let name = pair[0].as_string().ok_or_else(|| runtime("struct: field names must be strings"))?;
        if let Value::Cell(c) = pair[1]
            && c.data.len() != 1
        {
            if let Some(first) = sized_by.filter(|_| c.dims != layout.dims) {
                return Err(runtime(format!("struct: dimensions of parameter {first} do not match those of parameter {}", 2 * p + 2)));
            }
            layout.dims = c.dims.clone();
            sized_by = sized_by.or(Some(2 * p + 2));
        }
        match layout.fields.iter().position(|f| *f == name) {
            Some(k) => layout.sources[k] = 2 * p + 1,
            None => {
                layout.fields.push(name);
                layout.sources.push(2 * p + 1);
            }
        }
    }
    Ok(layout)
}

/// Element `e`'s value of a field given as `v`: a cell's element, or `v` itself.
fn element_value(v: &Value, e: usize) -> Value {
    match v {
        Value::Cell(c) if c.data.len() == 1 => c.data[0].clone(),
        Value::Cell(c) => c.data[e].clone(),
        other => other.clone(),
    }
}

fn forward_struct(fw: &Forward) -> Result<Deriv> {
    let layout = struct_layout(fw.inputs)?;
    let width = layout.fields.len();
    let part = |e: usize, k: usize| {
        let source = layout.sources[k];
        match fw.inputs[source] {
            Value::Cell(c) if c.data.len() == 1 => fw.derivs[source].part(0),
            Value::Cell(_) => fw.derivs[source].part(e),
            _ => fw.derivs[source].clone(),
        }
    };
    Ok(Deriv::from_parts((0..layout.count() * width).map(|p| part(p / width, p % width)).collect()))
}

fn eval_cell(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let dims = super::eval(Prim::Zeros, args, 1)?.pop().expect("one result").dims();
    let n = dims.iter().product();
    crate::value::memory::check(n, size_of::<Value>())?;
    let empty = Value::Double(Array::new(vec![0, 0], vec![]));
    Ok(vec![Value::Cell(Array::new(dims, vec![empty; n]))])
}

fn eval_fieldnames(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("fieldnames", args, 1, 1)?;
    let Value::Struct(s) = args[0] else { return Err(runtime("fieldnames: Invalid input argument")) };
    Ok(vec![Value::Cell(Array::column(s.fields.iter().map(|f| Value::string(f)).collect()))])
}

fn eval_isfield(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("isfield", args, 2, 2)?;
    let has = |name: &Value| match (args[0], name.as_string()) {
        (Value::Struct(s), Some(n)) => s.fields.contains(&n),
        _ => false,
    };
    Ok(vec![match args[1] {
        Value::Cell(names) => Value::Logical(names.map(has)),
        name => Value::Logical(Array::scalar(has(name))),
    }])
}
