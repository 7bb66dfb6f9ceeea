//! Array construction, size queries, concatenation, reshaping, and the helpers the lowering emits for
//! control flow (`truth`, `for_count`, `for_item`, `switch_match`).

use super::arrays::{Joining, concatenate, forward_concatenate};
use super::elementwise::numeric;
use super::{
    Derivative, EvalFn, Forward, ForwardFn, IntegerArgs, Kernel, Linearity, PatternRule, Prim, Primitive, check_arity, runtime,
    zero_derivative,
};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::primitives::index::{Subscript, index};
use crate::value::buffers;
use crate::value::deriv::Deriv;
use crate::value::memory;
use crate::value::{Array, IntClass, SparseMatrix, Value, normalize_dims};

primitive_names! {
    Zeros = "zeros",
    Ones = "ones",
    Eye = "eye",
    Pi = "pi",
    E = "e",
    InfCapitalised = "Inf",
    Inf = "inf",
    NaN = "NaN",
    Nan = "nan",
    Eps = "eps",
    Flintmax = "flintmax",
    True = "true",
    False = "false",
    Size = "size",
    Numel = "numel",
    Length = "length",
    Ndims = "ndims",
    Isempty = "isempty",
    Colon = "colon",
    Not = "not",
    Truth = "truth",
    SwitchMatch = "switch_match",
    ForCount = "for_count",
    ForItem = "for_item",
    Horzcat = "horzcat",
    Vertcat = "vertcat",
    Reshape = "reshape",
    Double = "double",
    Constant = "__constant__",
}

fn with_rule(prim: Prim, eval: EvalFn, rule: ForwardFn) -> Primitive {
    Primitive::new(prim, Kernel::General { eval, derivative: Derivative::Rule(rule) })
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        constructor(Prim::Zeros, |a, _| filled("zeros", Classes::NUMERIC, a, 0.0)),
        constructor(Prim::Ones, |a, _| filled("ones", Classes::NUMERIC, a, 1.0)),
        constructor(Prim::Eye, eval_eye),
        constructor(Prim::Pi, |a, _| filled("pi", Classes::FLOAT_NAMED, a, std::f64::consts::PI)),
        constructor(Prim::E, |a, _| filled("e", Classes::FLOAT_NAMED, a, std::f64::consts::E)),
        constructor(Prim::InfCapitalised, |a, _| filled("Inf", Classes::FLOAT, a, f64::INFINITY)),
        constructor(Prim::Inf, |a, _| filled("inf", Classes::FLOAT, a, f64::INFINITY)),
        constructor(Prim::NaN, |a, _| filled("NaN", Classes::FLOAT, a, f64::NAN)),
        constructor(Prim::Nan, |a, _| filled("nan", Classes::FLOAT, a, f64::NAN)),
        zero_derivative(Prim::Eps, eval_eps),
        zero_derivative(Prim::Flintmax, |a, _| filled("flintmax", Classes::FLOAT_NAMED, a, 2f64.powi(53))),
        constructor(Prim::True, |a, _| filled("true", Classes::LOGICAL, a, 1.0)),
        constructor(Prim::False, |a, _| filled("false", Classes::LOGICAL, a, 0.0)),
        zero_derivative(Prim::Size, eval_size).integers(IntegerArgs::ClassFree).size_query(),
        zero_derivative(Prim::Numel, eval_numel).integers(IntegerArgs::ClassFree).size_query(),
        zero_derivative(Prim::Length, |a, _| count("length", a, |d| if d.contains(&0) { 0 } else { d.iter().copied().max().unwrap_or(0) }))
            .integers(IntegerArgs::ClassFree)
            .size_query(),
        zero_derivative(Prim::Ndims, |a, _| count("ndims", a, |d| d.len())).integers(IntegerArgs::ClassFree).size_query(),
        zero_derivative(Prim::Isempty, |a, _| {
            check_arity("isempty", a, 1, 1)?;
            Ok(vec![Value::Logical(Array::scalar(a[0].numel() == 0))])
        })
        .integers(IntegerArgs::ClassFree)
        .size_query(),
        zero_derivative(Prim::Colon, eval_colon)
            .integers(IntegerArgs::KeepClass)
            .warns(|a| super::complex::has_complex(a).then_some(super::complex::COLON_WARNING)),
        zero_derivative(Prim::Not, eval_not).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::Truth, eval_truth).integers(IntegerArgs::ClassFree).internal(),
        zero_derivative(Prim::SwitchMatch, eval_switch_match).integers(IntegerArgs::ClassFree).internal(),
        zero_derivative(Prim::ForCount, |a, _| {
            check_arity("for", a, 1, 1)?;
            let dims = a[0].dims();
            let columns = if a[0].numel() == 0 { 0 } else { dims[1..].iter().product() };
            Ok(vec![Value::scalar(columns as f64)])
        })
        .integers(IntegerArgs::ClassFree)
        .internal(),
        with_rule(Prim::ForItem, eval_for_item, forward_for_item)
            .linear(Linearity::PiecewiseLinear)
            .integers(IntegerArgs::KeepClass)
            .internal(),
        with_rule(
            Prim::Horzcat,
            |a, _| Ok(vec![concatenate(a, 1, Joining::Brackets)?]),
            |fw| forward_concatenate(fw.inputs, fw.derivs, 1, Joining::Brackets),
        )
        .linear(Linearity::Additive)
        .integers(IntegerArgs::KeepClass)
        .pattern(PatternRule::Structural),
        with_rule(
            Prim::Vertcat,
            |a, _| Ok(vec![concatenate(a, 0, Joining::Brackets)?]),
            |fw| forward_concatenate(fw.inputs, fw.derivs, 0, Joining::Brackets),
        )
        .linear(Linearity::Additive)
        .integers(IntegerArgs::KeepClass)
        .pattern(PatternRule::Structural),
        with_rule(Prim::Reshape, eval_reshape, |fw| Ok(fw.derivs[0].clone())).linear(Linearity::Additive).integers(IntegerArgs::KeepClass),
        with_rule(Prim::Double, eval_double, |fw| Ok(fw.derivs[0].clone())).linear(Linearity::Additive).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::Constant, |a, _| {
            super::check_arity("__constant__", a, 1, 1)?;
            Ok(vec![a[0].clone()])
        })
        .integers(IntegerArgs::KeepClass),
    ]
}

/// Dims from size arguments: `f(n)` is n x n, `f(m, n, ...)`, `f([m n ...])`. As in Octave, a size
/// argument of several elements counts by its first one, an empty one as 0, and negative sizes as 0.
fn dims_from_args(name: &str, args: &[&Value]) -> Result<Vec<usize>> {
    let as_count = |x: f64| -> Result<usize> {
        if x.is_finite() && x.fract() == 0.0 {
            Ok(x.max(0.0) as usize)
        } else {
            Err(runtime(format!("{name}: conversion of {x} to an integer value failed")))
        }
    };
    let dims = match args {
        [] => vec![1, 1],
        [v] => {
            let a = numeric(name, v)?;
            let is_vector = a.dims.len() == 2 && (a.dims[0] == 1 || a.dims[1] == 1);
            match a.data.len() {
                1 => vec![as_count(a.data[0])?; 2],
                0 if is_vector => vec![0, 0],
                _ if is_vector => a.data.iter().map(|&x| as_count(x)).collect::<Result<_>>()?,
                _ => return Err(runtime(format!("{name} (A): use {name} (size (A)) instead"))),
            }
        }
        _ => args.iter().map(|v| numeric(name, v)?.data.first().map_or(Ok(0), |&x| as_count(x))).collect::<Result<Vec<_>>>()?,
    };
    Ok(normalize_dims(dims))
}

/// A constructor: its result depends on no argument's value in a differentiable way, and it reads
/// integer-class size arguments and prototypes itself (a prototype's class is the result's).
fn constructor(prim: Prim, eval: EvalFn) -> Primitive {
    zero_derivative(prim, eval).integers(IntegerArgs::Own)
}

/// The kinds of array a constructor makes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    /// double, an integer class or logical (`zeros`, `ones`, `eye`).
    Numeric,
    /// double (`Inf`, `NaN`, `pi`, ...).
    Float,
    /// logical (`true`, `false`).
    Logical,
}

/// What a constructor's trailing class arguments may say, as in Octave 7: a class name of its family,
/// and, where `like` is set, `'like', prototype`.
#[derive(Clone, Copy)]
struct Classes {
    family: Family,
    like: bool,
}

impl Classes {
    const NUMERIC: Classes = Classes { family: Family::Numeric, like: true };
    const NUMERIC_NAMED: Classes = Classes { family: Family::Numeric, like: false };
    const FLOAT: Classes = Classes { family: Family::Float, like: true };
    const FLOAT_NAMED: Classes = Classes { family: Family::Float, like: false };
    const LOGICAL: Classes = Classes { family: Family::Logical, like: true };

    /// The class made when no class is given.
    fn default(self) -> Made {
        if self.family == Family::Logical { Made::Logical } else { Made::Double }
    }

    /// The class named by `class` (any letter case, as Octave reads it).
    fn named(self, name: &str, class: &str) -> Result<Made> {
        let class = class.to_lowercase();
        let made = match (self.family, class.as_str()) {
            (Family::Numeric | Family::Float, "double") => Made::Double,
            (Family::Numeric | Family::Logical, "logical") => Made::Logical,
            (Family::Numeric | Family::Float, "single") => {
                return Err(Diagnostic::new(
                    ErrorKind::Unsupported,
                    format!("{name}: class 'single' (msad has double, integer and logical classes)"),
                )
                .with_hint("make the array in double and convert it outside the differentiated function"));
            }
            (Family::Logical, _) => return Err(runtime(format!("{name}: invalid data type '{class}'"))),
            (family, _) => match IntClass::from_name(&class).filter(|_| family == Family::Numeric) {
                Some(int) => Made::Int(int),
                None => return Err(runtime(format!("{name}: invalid class name"))),
            },
        };
        Ok(made)
    }

    /// The class of `prototype` (Octave 7 makes a real array for a complex prototype).
    fn like(self, name: &str, prototype: &Value) -> Result<Made> {
        let made = match (self.family, prototype) {
            (Family::Numeric | Family::Float, Value::Double(_) | Value::Complex(_)) => Made::Double,
            (Family::Numeric | Family::Float, Value::Sparse(_)) => Made::Sparse,
            (Family::Numeric | Family::Logical, Value::Logical(_)) => Made::Logical,
            (Family::Numeric, Value::Int(int, _)) => Made::Int(*int),
            (Family::Numeric, _) => return Err(runtime("invalid data type specified")),
            (Family::Float, _) => return Err(runtime(format!("{name}: input followed by 'like' must be floating point"))),
            (Family::Logical, _) => return Err(runtime(format!("{name}: input followed by \"like\" must be logical"))),
        };
        Ok(made)
    }
}

/// The class of a constructor's result.
#[derive(Clone, Copy)]
enum Made {
    Double,
    Sparse,
    Logical,
    Int(IntClass),
}

impl Made {
    /// `a` as an array of this class.
    fn array(self, name: &str, a: Array<f64>) -> Result<Value> {
        Ok(match self {
            Made::Double => Value::Double(a),
            Made::Int(c) => Value::Int(c, a.map(|&x| c.convert(x))),
            Made::Logical => Value::Logical(a.map(|&x| x != 0.0)),
            Made::Sparse if a.dims.len() > 2 => return Err(runtime(format!("{name}: sparse ND arrays not supported."))),
            Made::Sparse => Value::Sparse(SparseMatrix::from_dense(&a)),
        })
    }
}

/// The size arguments and the result's class: a trailing `'like', prototype` or class name is not a
/// size (a letter's code would be read as one).
fn size_args<'a, 'v>(name: &str, classes: Classes, args: &'a [&'v Value]) -> Result<(&'a [&'v Value], Made)> {
    let (sizes, made) = match args {
        [sizes @ .., like, prototype] if classes.like && like.as_string().as_deref() == Some("like") => {
            (sizes, classes.like(name, prototype)?)
        }
        [sizes @ .., class] if matches!(class, Value::Char(_)) => (sizes, classes.named(name, &class.as_string().unwrap_or_default())?),
        sizes => (sizes, classes.default()),
    };
    if sizes.iter().any(|v| matches!(v, Value::Char(_))) {
        return Err(runtime(format!("Invalid call to {name}")));
    }
    Ok((sizes, made))
}

/// `name(sizes..., class)` filled with `x`.
fn filled(name: &str, classes: Classes, args: &[&Value], x: f64) -> Result<Vec<Value>> {
    let (sizes, made) = size_args(name, classes, args)?;
    let dims = dims_from_args(name, sizes)?;
    memory::check_dims(&dims, size_of::<f64>())?;
    let n = dims.iter().product();
    let mut data = buffers::take(n);
    data.resize(n, x);
    Ok(vec![made.array(name, Array::new(dims, data))?])
}

fn eval_eye(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (sizes, made) = size_args("eye", Classes::NUMERIC_NAMED, args)?;
    let dims = dims_from_args("eye", sizes)?;
    if dims.len() > 2 {
        return Err(runtime("eye: dimensions must be 2-D"));
    }
    memory::check_dims(&dims, size_of::<f64>())?;
    let mut a = Array::filled(dims.clone(), 0.0);
    (0..dims[0].min(dims[1])).for_each(|i| a.data[i * dims[0] + i] = 1.0);
    Ok(vec![made.array("eye", a)?])
}

/// `eps(x)`: the spacing of doubles at each element of x; otherwise, like `pi`, a constant array.
fn eval_eps(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    match args {
        [Value::Double(x)] => Ok(vec![Value::Double(x.map(|&x| spacing(x)))]),
        _ => filled("eps", Classes::FLOAT_NAMED, args, f64::EPSILON),
    }
}

/// The distance from |x| to the next larger double (the smallest subnormal below the normal range,
/// NaN for Inf and NaN): 2^(e - 52) for |x| in [2^e, 2^(e+1)).
fn spacing(x: f64) -> f64 {
    let x = x.abs();
    if !x.is_finite() {
        f64::NAN
    } else if x < f64::MIN_POSITIVE {
        f64::from_bits(1)
    } else {
        f64::from_bits(x.to_bits() & 0x7ff0_0000_0000_0000) * f64::EPSILON
    }
}

fn count(name: &str, args: &[&Value], f: impl Fn(&[usize]) -> usize) -> Result<Vec<Value>> {
    check_arity(name, args, 1, 1)?;
    Ok(vec![Value::scalar(f(&args[0].shape()) as f64)])
}

/// `numel(A)`, or `numel(A, i, j, ...)`: how many elements `A(i, j, ...)` would have.
fn eval_numel(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let Some((a, indices)) = args.split_first() else { return Err(runtime("Invalid call to numel")) };
    let n = if indices.is_empty() {
        a.numel()
    } else {
        let view = crate::primitives::index::folded_dims(&a.dims(), indices.len());
        indices.iter().zip(view).map(|(i, extent)| if i.as_string().as_deref() == Some(":") { extent } else { i.numel() }).product()
    };
    Ok(vec![Value::scalar(n as f64)])
}

fn eval_size(args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    if args.is_empty() {
        return Err(runtime("Invalid call to size"));
    }
    let dims = args[0].shape();
    if args.len() > 1 {
        // size(A, d1, d2, ...) or size(A, [d1 d2 ...]): the extents along the requested dims.
        let mut extents = Vec::new();
        for v in &args[1..] {
            for &k in &numeric("size", v)?.data {
                if k.fract() != 0.0 || k.is_nan() {
                    return Err(runtime(format!("size: conversion of {k} to an integer value failed")));
                }
                if k < 1.0 {
                    return Err(runtime(format!("size: requested dimension DIM (= {k}) out of range")));
                }
                extents.push(dims.get(k as usize - 1).copied().unwrap_or(1) as f64);
            }
        }
        return Ok(vec![Value::Double(Array::row(extents))]);
    }
    if nargout <= 1 {
        let row: Vec<f64> = dims.iter().map(|&d| d as f64).collect();
        return Ok(vec![Value::Double(Array::row(row))]);
    }
    // With several outputs the last one takes the product of the remaining dims.
    Ok((0..nargout)
        .map(|i| {
            let d =
                if i + 1 == nargout { dims.get(i..).map_or(1, |rest| rest.iter().product()) } else { dims.get(i).copied().unwrap_or(1) };
            Value::scalar(d as f64)
        })
        .collect())
}

fn eval_colon(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("colon", args, 2, 3)?;
    let bounds = args.iter().map(|v| Ok(numeric("colon", v)?.data.first().copied())).collect::<Result<Vec<_>>>()?;
    // An empty bound gives an empty range.
    let Some(bounds) = bounds.into_iter().collect::<Option<Vec<f64>>>() else {
        return Ok(vec![Value::Double(Array::row(vec![]))]);
    };
    let (start, step, stop) = match bounds[..] {
        [start, stop] => (start, 1.0, stop),
        [start, step, stop] => (start, step, stop),
        _ => unreachable!("arity checked"),
    };
    Ok(vec![Value::Double(Array::row(range(start, step, stop)?))])
}

/// The elements of `start:step:stop` as Octave computes them: `start + i*step`, the first one exactly
/// `start`, the last one never beyond `stop`; any NaN bound gives a single NaN.
fn range(start: f64, step: f64, stop: f64) -> Result<Vec<f64>> {
    if start.is_nan() || step.is_nan() || stop.is_nan() {
        return Ok(vec![f64::NAN]);
    }
    let n = range_count(start, step, stop)?;
    let mut values = buffers::take(n);
    values.extend((0..n).map(|i| start + i as f64 * step));
    // Exactly start even for an infinite step or a -0 start.
    if n > 0 {
        values[0] = start;
    }
    if n > 1 {
        values[n - 1] = range_last(start, step, stop, n);
    }
    Ok(values)
}

/// How many elements `start:step:stop` has (bounds not NaN).
fn range_count(start: f64, step: f64, stop: f64) -> Result<usize> {
    let span = (stop - start) / step;
    if step == 0.0 || span < 0.0 || start.is_infinite() && span.is_nan() {
        return Ok(0);
    }
    if span.is_infinite() {
        return Err(runtime("range with infinite number of elements cannot be stored"));
    }
    // Tolerance as in Octave's range: an end point within rounding counts.
    Ok((span * (1.0 + f64::EPSILON) + f64::EPSILON).floor() as usize + 1)
}

/// The last of `n > 1` elements: only it can pass the end point (by the tolerance of `range_count`),
/// so it is clipped.
fn range_last(start: f64, step: f64, stop: f64, n: usize) -> f64 {
    let last = start + (n - 1) as f64 * step;
    if step > 0.0 { last.min(stop) } else { last.max(stop) }
}

/// `colon`'s operands as a subscript: (zero-based first position, step, count), when every element
/// is a valid position (real double scalar bounds, integers from 1 to 2^53). None otherwise: the range
/// is then built and checked element by element, for Octave's message.
pub(crate) fn subscript_range(args: &[&Value]) -> Option<(usize, isize, usize)> {
    let scalar = |v: &Value| match v {
        Value::Double(a) if a.numel() == 1 => Some(a.data[0]),
        _ => None,
    };
    let (start, step, stop) = match args {
        [start, stop] => (scalar(start)?, 1.0, scalar(stop)?),
        [start, step, stop] => (scalar(start)?, scalar(step)?, scalar(stop)?),
        _ => return None,
    };
    let n = range_count(start, step, stop).ok()?;
    if n == 0 {
        return Some((0, 1, 0));
    }
    let last = if n > 1 { range_last(start, step, stop, n) } else { start };
    let position = |x: f64| (1.0..=POSITION_LIMIT).contains(&x) && x.fract() == 0.0;
    (position(start) && position(last) && step.fract() == 0.0 && step.abs() <= POSITION_LIMIT)
        .then(|| (start as usize - 1, step as isize, n))
}

/// Positions up to 2^53: every integer up to it is a double.
const POSITION_LIMIT: f64 = 9_007_199_254_740_992.0;

fn eval_not(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("not", args, 1, 1)?;
    let a = numeric("not", args[0])?;
    if a.data.iter().any(|x| x.is_nan()) {
        return Err(runtime("invalid conversion from NaN to logical value"));
    }
    Ok(vec![Value::Logical(a.map(|&x| x == 0.0))])
}

/// MATLAB's `if`/`while` truth: non-empty and every element non-zero.
fn eval_truth(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let a = numeric("if", args[0])?;
    if a.data.iter().any(|x| x.is_nan()) {
        return Err(runtime("if: conditional expression cannot contain NaN values"));
    }
    let t = !a.data.is_empty() && a.data.iter().all(|&x| x != 0.0);
    Ok(vec![Value::Logical(Array::scalar(t))])
}

/// `switch` semantics: strings compare as strings, numbers by equality, a cell case matches any member.
fn eval_switch_match(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (subject, label) = (args[0], args[1]);
    let matches = |l: &Value| match (subject.as_string(), l.as_string()) {
        (Some(s), Some(l)) => s == l,
        (None, None) => match (subject.numeric(), l.numeric()) {
            (Some(s), Some(l)) => !l.data.is_empty() && s.data.len() == 1 && l.data.contains(&s.data[0]),
            _ => false,
        },
        _ => false,
    };
    let hit = match label {
        Value::Cell(c) => c.data.iter().any(matches),
        l => matches(l),
    };
    Ok(vec![Value::Logical(Array::scalar(hit))])
}

fn column_subscripts(v: &Value, k: &Value) -> Result<Vec<Subscript>> {
    let k = numeric("for", k)?.data[0] as usize;
    let rows = v.dims()[0];
    let positions = (0..rows).map(|r| r + k * rows).collect();
    Ok(vec![Subscript::positions(positions)])
}

/// Column `k` (zero-based) of the loop's collection.
fn eval_for_item(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let subs = column_subscripts(args[0], args[1])?;
    Ok(vec![index(args[0], &Deriv::Zero, &subs)?.0])
}

fn forward_for_item(fw: &Forward) -> Result<Deriv> {
    let subs = column_subscripts(fw.inputs[0], fw.inputs[1])?;
    Ok(index(fw.inputs[0], fw.derivs[0], &subs)?.1)
}

fn eval_reshape(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    if args.len() < 2 {
        return Err(runtime("reshape: not enough input arguments"));
    }
    let n = args[0].numel();
    let dims = if args.len() == 2 {
        dims_from_args("reshape", &args[1..])?
    } else {
        // One empty `[]` size argument takes whatever is left.
        let mut known = 1;
        let mut free = None;
        let mut dims = Vec::new();
        for (i, a) in args[1..].iter().enumerate() {
            let v = numeric("reshape", a)?;
            match v.data.first() {
                None if free.is_none() => free = Some(i),
                Some(&x) => {
                    known *= x as usize;
                    dims.push(x as usize);
                    continue;
                }
                None => return Err(runtime("reshape: only a single dimension can be unknown")),
            }
            dims.push(0);
        }
        if let Some(i) = free {
            dims[i] = n.checked_div(known).unwrap_or(0);
        }
        normalize_dims(dims)
    };
    if dims.iter().product::<usize>() != n {
        return Err(runtime(format!(
            "reshape: can't reshape {} array to {} array",
            super::elementwise::dims_text(&args[0].dims()),
            super::elementwise::dims_text(&dims)
        )));
    }
    Ok(vec![match args[0] {
        Value::Double(a) => Value::Double(Array::new(dims, a.data.clone())),
        Value::Logical(a) => Value::Logical(Array::new(dims, a.data.clone())),
        Value::Char(a) => Value::Char(Array::new(dims, a.data.clone())),
        Value::Cell(a) => Value::Cell(Array::new(dims, a.data.clone())),
        other => Value::Double(Array::new(dims, numeric("reshape", other)?.data.clone())),
    }])
}

fn eval_double(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("double", args, 1, 1)?;
    Ok(vec![Value::Double(numeric("double", args[0])?.into_owned())])
}
