//! Struct and cell builtins: `struct`, `cell`, `fieldnames`, `isfield` (`iscell`, `isstruct` are predicates).

use super::{IntegerArgs, Derivative, EvalFn, Forward, Kernel, Primitive, check_arity, runtime};
use crate::diag::Result;
use crate::exec::deriv::Deriv;
use crate::exec::value::{Array, StructArray, Value};

fn entry(name: &'static str, eval: EvalFn, derivative: Derivative) -> Primitive {
    Primitive::new(name, Kernel::General { eval, derivative })
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        entry("struct", eval_struct, Derivative::Rule(forward_struct)).integers(IntegerArgs::Own),
        entry("cell", eval_cell, Derivative::Zero).integers(IntegerArgs::Own),
        entry("fieldnames", eval_fieldnames, Derivative::Zero),
        entry("isfield", eval_isfield, Derivative::Zero),
    ]
}

/// `struct('a', 1, 'b', x)`: a scalar struct (cell values, which make struct arrays, are not supported).
fn eval_struct(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    if args.len() % 2 != 0 {
        return Err(runtime("struct: additional arguments must occur as \"field\", VALUE pairs"));
    }
    let mut s = StructArray { dims: vec![1, 1], fields: vec![], elements: vec![vec![]] };
    for pair in args.chunks(2) {
        let name = pair[0].as_string().ok_or_else(|| runtime("struct: field names must be strings"))?;
        if matches!(pair[1], Value::Cell(_)) {
            return Err(crate::diag::Diagnostic::new(crate::diag::ErrorKind::Unsupported, "struct arrays built from cell values"));
        }
        match s.fields.iter().position(|f| *f == name) {
            Some(k) => s.elements[0][k] = pair[1].clone(),
            None => {
                s.fields.push(name);
                s.elements[0].push(pair[1].clone());
            }
        }
    }
    Ok(vec![Value::Struct(s)])
}

fn forward_struct(fw: &Forward) -> Result<Deriv> {
    let Value::Struct(s) = fw.output else { unreachable!("struct returns a struct") };
    // The last value given for a field wins, as in the kernel.
    let parts = s
        .fields
        .iter()
        .map(|field| {
            fw.inputs
                .chunks(2)
                .zip(fw.derivs.chunks(2))
                .filter(|(pair, _)| pair[0].as_string().as_deref() == Some(field.as_str()))
                .last()
                .map_or(Deriv::Zero, |(_, d)| d[1].clone())
        })
        .collect();
    Ok(Deriv::from_parts(parts))
}

fn eval_cell(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let zeros = super::lookup("zeros").expect("zeros is a primitive");
    let dims = super::eval(zeros, args, 1)?.pop().expect("one result").dims();
    let n = dims.iter().product();
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
