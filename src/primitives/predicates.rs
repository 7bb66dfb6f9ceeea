//! Queries about values: class and shape predicates (`isnumeric`, `isvector`, ...), `class`, `isa`,
//! `isequal`, `columns`/`rows`, elementwise tests (`isnan`, `isinf`, `isfinite`), conversion to
//! logical, and the logical reductions `any`/`all` and `xor`. None of them has a derivative.

use super::arrays::{first_non_singleton, padded};
use super::elementwise::{broadcast_dims, dims_text, numeric, row_maps};
use super::{IntegerArgs, Prim, Primitive, check_arity, runtime, zero_derivative};
use crate::diag::Result;
use crate::value::{Array, Value, normalize_dims};

primitive_names! {
    Isnumeric = "isnumeric",
    Isreal = "isreal",
    Isfloat = "isfloat",
    Isinteger = "isinteger",
    Iscomplex = "iscomplex",
    Islogical = "islogical",
    Isbool = "isbool",
    Ischar = "ischar",
    Iscell = "iscell",
    Iscellstr = "iscellstr",
    Isstruct = "isstruct",
    Isobject = "isobject",
    IsFunctionHandle = "is_function_handle",
    Func2str = "func2str",
    Isscalar = "isscalar",
    Isvector = "isvector",
    Isrow = "isrow",
    Iscolumn = "iscolumn",
    Ismatrix = "ismatrix",
    Issquare = "issquare",
    Isnan = "isnan",
    Isinf = "isinf",
    Isfinite = "isfinite",
    Class = "class",
    Isa = "isa",
    Isequal = "isequal",
    SizeEqual = "size_equal",
    Columns = "columns",
    Rows = "rows",
    Logical = "logical",
    Any = "any",
    All = "all",
    Xor = "xor",
}

/// A predicate on one value's class or shape, giving a logical scalar.
macro_rules! is {
    ($prim:expr, $test:expr) => {
        zero_derivative($prim, |a, _| {
            check_arity($prim.name(), a, 1, 1)?;
            let test: fn(&Value) -> bool = $test;
            Ok(vec![truth(test(a[0]))])
        })
        .integers(IntegerArgs::Own)
    };
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        is!(Prim::Isnumeric, |v| matches!(
            v,
            Value::Double(_) | Value::Sparse(_) | Value::Int(..) | Value::Complex(_) | Value::ComplexSparse(_)
        )),
        is!(Prim::Isreal, |v| !matches!(
            v,
            Value::Cell(_) | Value::Struct(_) | Value::Handle(_) | Value::Complex(_) | Value::ComplexSparse(_)
        )),
        is!(Prim::Isfloat, |v| matches!(v, Value::Double(_) | Value::Sparse(_) | Value::Complex(_) | Value::ComplexSparse(_))),
        is!(Prim::Isinteger, |v| matches!(v, Value::Int(..))),
        is!(Prim::Iscomplex, |v| matches!(v, Value::Complex(_) | Value::ComplexSparse(_))),
        is!(Prim::Islogical, |v| matches!(v, Value::Logical(_))),
        is!(Prim::Isbool, |v| matches!(v, Value::Logical(_))),
        is!(Prim::Ischar, |v| matches!(v, Value::Char(_))),
        is!(Prim::Iscell, |v| matches!(v, Value::Cell(_))),
        is!(Prim::Iscellstr, |v| matches!(v, Value::Cell(c) if c.data.iter().all(|e| matches!(e, Value::Char(_))))),
        is!(Prim::Isstruct, |v| matches!(v, Value::Struct(_))),
        is!(Prim::IsFunctionHandle, |v| matches!(v, Value::Handle(_))),
        // Values msad runs on are never objects (a captured value-class object is answered when the
        // code is lowered: `Lowerer::object_query`).
        is!(Prim::Isobject, |_| false),
        zero_derivative(Prim::Func2str, |a, _| {
            check_arity("func2str", a, 1, 1)?;
            match a[0] {
                Value::Handle(h) => Ok(vec![Value::string(h.text())]),
                _ => Err(runtime("func2str: FCN_HANDLE argument must be a valid function handle")),
            }
        }),
        is!(Prim::Isscalar, |v| v.numel() == 1).size_query(),
        is!(Prim::Isvector, |v| is_2d(v, |r, c| r == 1 || c == 1)).size_query(),
        is!(Prim::Isrow, |v| is_2d(v, |r, _| r == 1)).size_query(),
        is!(Prim::Iscolumn, |v| is_2d(v, |_, c| c == 1)).size_query(),
        is!(Prim::Ismatrix, |v| is_2d(v, |_, _| true)).size_query(),
        is!(Prim::Issquare, |v| is_2d(v, |r, c| r == c)).size_query(),
        zero_derivative(Prim::Isnan, |a, _| elementwise_test("isnan", a, f64::is_nan)).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::Isinf, |a, _| elementwise_test("isinf", a, f64::is_infinite)).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::Isfinite, |a, _| elementwise_test("isfinite", a, f64::is_finite)).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::Class, |a, _| {
            check_arity("class", a, 1, 1)?;
            Ok(vec![Value::string(a[0].class_name())])
        })
        .integers(IntegerArgs::Own),
        zero_derivative(Prim::Isa, eval_isa).integers(IntegerArgs::Own),
        zero_derivative(Prim::Isequal, eval_isequal).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::SizeEqual, eval_size_equal).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::Columns, |a, _| extent("columns", a, 1)).integers(IntegerArgs::ClassFree).size_query(),
        zero_derivative(Prim::Rows, |a, _| extent("rows", a, 0)).integers(IntegerArgs::ClassFree).size_query(),
        zero_derivative(Prim::Logical, |a, _| {
            check_arity("logical", a, 1, 1)?;
            Ok(vec![Value::Logical(logical("logical", a[0])?)])
        })
        .integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::Any, |a, _| eval_any_all("any", a, false)).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::All, |a, _| eval_any_all("all", a, true)).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::Xor, eval_xor).integers(IntegerArgs::ClassFree),
    ]
}

fn truth(b: bool) -> Value {
    Value::Logical(Array::scalar(b))
}

fn is_2d(v: &Value, test: fn(usize, usize) -> bool) -> bool {
    let d = v.dims();
    d.len() == 2 && test(d[0], d[1])
}

fn elementwise_test(name: &str, args: &[&Value], test: fn(f64) -> bool) -> Result<Vec<Value>> {
    check_arity(name, args, 1, 1)?;
    Ok(vec![Value::Logical(numeric(name, args[0])?.map(|&x| test(x)))])
}

fn extent(name: &str, args: &[&Value], dim: usize) -> Result<Vec<Value>> {
    check_arity(name, args, 1, 1)?;
    Ok(vec![Value::scalar(args[0].dims()[dim] as f64)])
}

/// `isa(x, class)`, with the class categories `numeric` and `float`.
fn eval_isa(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("isa", args, 2, 2)?;
    let class = args[1].as_string().ok_or_else(|| runtime("isa: CLASSNAME must be a string"))?;
    let v = args[0];
    let float = matches!(v, Value::Double(_) | Value::Sparse(_) | Value::Complex(_) | Value::ComplexSparse(_));
    Ok(vec![truth(match class.as_str() {
        "float" => float,
        "numeric" => float || matches!(v, Value::Int(..)),
        "integer" => matches!(v, Value::Int(..)),
        other => v.class_name() == other,
    })])
}

/// Logical values of a numeric array; NaN cannot convert, as in Octave.
pub(super) fn logical(name: &str, v: &Value) -> Result<Array<bool>> {
    match v {
        Value::Logical(a) => Ok(a.clone()),
        Value::Double(_) | Value::Sparse(_) => {
            let a = numeric(name, v)?;
            if a.data.iter().any(|x| x.is_nan()) {
                return Err(runtime(format!("{name}: NaN can't be converted to logical value")));
            }
            Ok(a.map(|&x| x != 0.0))
        }
        other => Err(runtime(format!("{name}: wrong type argument '{}'", other.class_name()))),
    }
}

/// `isequal(a, b, ...)`: equal dims and values, whatever the classes (`isequal('a', 97)` holds);
/// NaN is never equal.
fn eval_isequal(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    if args.len() < 2 {
        return Err(runtime("Invalid call to isequal"));
    }
    Ok(vec![truth(args[1..].iter().all(|b| equal(args[0], b)))])
}

/// `size_equal(a, b, ...)`: whether all arguments have the same dims (true for fewer than two).
fn eval_size_equal(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    Ok(vec![truth(args.iter().skip(1).all(|b| b.dims() == args[0].dims()))])
}

fn equal(a: &Value, b: &Value) -> bool {
    if a.dims() != b.dims() {
        return false;
    }
    match (a, b) {
        (Value::Cell(x), Value::Cell(y)) => x.data.iter().zip(&y.data).all(|(p, q)| equal(p, q)),
        (Value::Struct(x), Value::Struct(y)) => {
            let mut fields: Vec<_> = x.fields.iter().collect();
            fields.sort();
            let mut other: Vec<_> = y.fields.iter().collect();
            other.sort();
            fields == other
                && x.elements.iter().zip(&y.elements).all(|(p, q)| {
                    x.fields.iter().enumerate().all(|(i, f)| {
                        let j = y.fields.iter().position(|g| g == f).expect("same fields");
                        equal(&p[i], &q[j])
                    })
                })
        }
        (Value::Handle(x), Value::Handle(y)) => x == y,
        // Real values equal complex ones whose imaginary parts are zero.
        (Value::Complex(_), _) | (_, Value::Complex(_)) => match (a.complex_parts(), b.complex_parts()) {
            (Some(x), Some(y)) => x.data == y.data,
            _ => false,
        },
        _ => match (a.numeric(), b.numeric()) {
            (Some(x), Some(y)) => x.data == y.data,
            _ => false,
        },
    }
}

/// `any(x, dim)` / `all(x, dim)`. NaN counts as false for `any`; for `all` it counts as true along
/// the first dimension of a slice and false otherwise (Octave's two loops differ).
fn eval_any_all(name: &str, args: &[&Value], all: bool) -> Result<Vec<Value>> {
    check_arity(name, args, 1, 2)?;
    let x = numeric(name, args[0])?;
    // As for sum, [] is 0x1.
    let dims = if x.dims == [0, 0] { vec![0, 1] } else { x.dims.clone() };
    // DIM reads as an integer, dropping any fraction; 0 means the default.
    let dim = match args.get(1).map(|d| numeric(name, d)).transpose()?.and_then(|d| d.data.first().copied()) {
        Some(d) if d >= 1.0 => d as usize - 1,
        Some(0.0) => first_non_singleton(&dims),
        Some(_) => return Err(runtime(format!("{name}: DIM must be a valid dimension"))),
        None => first_non_singleton(&dims),
    };
    let padded_dims = padded(&dims, dim + 1);
    let (before, len) = (padded_dims[..dim].iter().product::<usize>(), padded_dims[dim]);
    let after: usize = padded_dims[dim + 1..].iter().product();
    let mut out_dims = padded_dims;
    out_dims[dim] = 1;
    let nan_holds = all && before == 1;
    let holds = |v: f64| if v.is_nan() { nan_holds } else { v != 0.0 };
    let mut data = Vec::with_capacity(before * after);
    for a in 0..after {
        for b in 0..before {
            let mut slice = (0..len).map(|k| x.data[b + before * (k + len * a)]);
            data.push(if all { slice.all(holds) } else { slice.any(holds) });
        }
    }
    Ok(vec![Value::Logical(Array::new(normalize_dims(out_dims), data))])
}

/// `xor(a, b, ...)`: elementwise with implicit expansion, folded left over extra arguments.
fn eval_xor(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    if args.len() < 2 {
        return Err(runtime("Invalid call to xor"));
    }
    let mut acc = logical("xor", args[0])?;
    for b in &args[1..] {
        let b = logical("xor", b)?;
        let dims = broadcast_dims(&acc.dims, &b.dims).ok_or_else(|| {
            runtime(format!("xor: X and Y must be of compatible size or scalars ({} vs {})", dims_text(&acc.dims), dims_text(&b.dims)))
        })?;
        let (ma, mb) = row_maps(&acc.dims, &b.dims, &dims);
        let n = dims.iter().product();
        acc = Array::new(dims, (0..n).map(|k| acc.data[ma.source(k)] != b.data[mb.source(k)]).collect());
    }
    Ok(vec![Value::Logical(acc)])
}
