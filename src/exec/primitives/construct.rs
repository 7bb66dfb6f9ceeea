//! Array construction, size queries, concatenation, reshaping, and the helpers the lowering emits for
//! control flow (`truth`, `for_count`, `for_item`, `switch_match`).

use super::elementwise::numeric;
use super::{Derivative, EvalFn, Forward, ForwardFn, Kernel, Primitive, check_arity, runtime};
use crate::diag::Result;
use crate::exec::deriv::{self, Deriv};
use crate::exec::index::{Subscript, index};
use crate::exec::value::{Array, Value, normalize_dims};

fn zero_derivative(name: &'static str, eval: EvalFn) -> Primitive {
    Primitive { name, kernel: Kernel::General { eval, derivative: Derivative::Zero } }
}

fn with_rule(name: &'static str, eval: EvalFn, rule: ForwardFn) -> Primitive {
    Primitive { name, kernel: Kernel::General { eval, derivative: Derivative::Rule(rule) } }
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        zero_derivative("zeros", |a, _| filled("zeros", a, 0.0)),
        zero_derivative("ones", |a, _| filled("ones", a, 1.0)),
        zero_derivative("eye", eval_eye),
        zero_derivative("pi", |a, _| filled("pi", a, std::f64::consts::PI)),
        zero_derivative("e", |a, _| filled("e", a, std::f64::consts::E)),
        zero_derivative("Inf", |a, _| filled("Inf", a, f64::INFINITY)),
        zero_derivative("inf", |a, _| filled("inf", a, f64::INFINITY)),
        zero_derivative("NaN", |a, _| filled("NaN", a, f64::NAN)),
        zero_derivative("nan", |a, _| filled("nan", a, f64::NAN)),
        zero_derivative("eps", |a, _| filled("eps", a, f64::EPSILON)),
        zero_derivative("true", |a, _| logical_constant("true", a, true)),
        zero_derivative("false", |a, _| logical_constant("false", a, false)),
        zero_derivative("size", eval_size),
        zero_derivative("numel", |a, _| count("numel", a, |d| d.iter().product())),
        zero_derivative("length", |a, _| {
            count("length", a, |d| if d.contains(&0) { 0 } else { d.iter().copied().max().unwrap_or(0) })
        }),
        zero_derivative("ndims", |a, _| count("ndims", a, |d| d.len())),
        zero_derivative("isempty", |a, _| {
            check_arity("isempty", a, 1, 1)?;
            Ok(vec![Value::Logical(Array::scalar(a[0].numel() == 0))])
        }),
        zero_derivative("colon", eval_colon),
        zero_derivative("not", eval_not),
        zero_derivative("truth", eval_truth),
        zero_derivative("switch_match", eval_switch_match),
        zero_derivative("for_count", |a, _| {
            check_arity("for", a, 1, 1)?;
            let dims = a[0].dims();
            let columns = if a[0].numel() == 0 { 0 } else { dims[1..].iter().product() };
            Ok(vec![Value::scalar(columns as f64)])
        }),
        with_rule("for_item", eval_for_item, forward_for_item),
        with_rule("horzcat", |a, _| concatenate(a, 1).map(|v| vec![v]), |fw| forward_concat(fw, 1)),
        with_rule("vertcat", |a, _| concatenate(a, 0).map(|v| vec![v]), |fw| forward_concat(fw, 0)),
        with_rule("reshape", eval_reshape, |fw| Ok(fw.derivs[0].clone())),
        with_rule("double", eval_double, |fw| Ok(fw.derivs[0].clone())),
    ]
}

/// Dims from size arguments: `f(n)` is n x n, `f(m, n, ...)`, `f([m n ...])`.
fn dims_from_args(name: &str, args: &[&Value]) -> Result<Vec<usize>> {
    let as_count = |x: f64| if x.is_nan() || x < 0.0 { 0 } else { x as usize };
    let dims = match args {
        [] => vec![1, 1],
        [v] => {
            let a = numeric(name, v)?;
            match a.data.len() {
                1 => vec![as_count(a.data[0]); 2],
                _ => a.data.iter().map(|&x| as_count(x)).collect(),
            }
        }
        _ => args
            .iter()
            .map(|v| {
                let a = numeric(name, v)?;
                if a.data.len() != 1 {
                    return Err(runtime(format!("{name}: dimensions must be scalars")));
                }
                Ok(as_count(a.data[0]))
            })
            .collect::<Result<Vec<_>>>()?,
    };
    Ok(normalize_dims(dims))
}

/// Size arguments, without a trailing class name such as `'double'`.
fn size_args<'a, 'v>(name: &str, args: &'a [&'v Value]) -> Result<&'a [&'v Value]> {
    match args.last().and_then(|v| v.as_string()) {
        Some(class) if class == "double" => Ok(&args[..args.len() - 1]),
        Some(class) => Err(runtime(format!("{name}: msad supports class 'double' only, not '{class}'"))),
        None => Ok(args),
    }
}

fn filled(name: &str, args: &[&Value], x: f64) -> Result<Vec<Value>> {
    let dims = dims_from_args(name, size_args(name, args)?)?;
    Ok(vec![Value::Double(Array::filled(dims, x))])
}

fn logical_constant(name: &str, args: &[&Value], x: bool) -> Result<Vec<Value>> {
    Ok(vec![Value::Logical(Array::filled(dims_from_args(name, args)?, x))])
}

fn eval_eye(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let dims = dims_from_args("eye", size_args("eye", args)?)?;
    if dims.len() > 2 {
        return Err(runtime("eye: dimensions must be 2-D"));
    }
    let mut a = Array::filled(dims.clone(), 0.0);
    (0..dims[0].min(dims[1])).for_each(|i| a.data[i * dims[0] + i] = 1.0);
    Ok(vec![Value::Double(a)])
}

fn count(name: &str, args: &[&Value], f: impl Fn(&[usize]) -> usize) -> Result<Vec<Value>> {
    check_arity(name, args, 1, 1)?;
    Ok(vec![Value::scalar(f(&args[0].dims()) as f64)])
}

fn eval_size(args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    check_arity("size", args, 1, 2)?;
    let dims = args[0].dims();
    if let Some(d) = args.get(1) {
        let d = numeric("size", d)?;
        let k = d.data.first().copied().unwrap_or(0.0);
        if k < 1.0 || k.fract() != 0.0 {
            return Err(runtime("size: requested dimension DIM (= 0) out of range"));
        }
        return Ok(vec![Value::scalar(dims.get(k as usize - 1).copied().unwrap_or(1) as f64)]);
    }
    if nargout <= 1 {
        let row: Vec<f64> = dims.iter().map(|&d| d as f64).collect();
        return Ok(vec![Value::Double(Array::row(row))]);
    }
    // With several outputs the last one takes the product of the remaining dims.
    Ok((0..nargout)
        .map(|i| {
            let d = if i + 1 == nargout {
                dims.get(i..).map_or(1, |rest| rest.iter().product())
            } else {
                dims.get(i).copied().unwrap_or(1)
            };
            Value::scalar(d as f64)
        })
        .collect())
}

fn eval_colon(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("colon", args, 2, 3)?;
    let first = |v: &Value| -> Result<f64> {
        let a = numeric("colon", v)?;
        a.data.first().copied().ok_or_else(|| runtime("colon: empty range bound"))
    };
    let start = first(args[0])?;
    let (step, stop) = if args.len() == 3 { (first(args[1])?, first(args[2])?) } else { (1.0, first(args[1])?) };
    let n = if step == 0.0 || (stop - start) / step < 0.0 || start.is_nan() || stop.is_nan() || step.is_nan() {
        0
    } else {
        // Tolerance as in Octave's range: an end point within rounding counts.
        ((stop - start) / step * (1.0 + f64::EPSILON) + f64::EPSILON).floor() as usize + 1
    };
    let data = (0..n).map(|i| start + i as f64 * step).collect();
    Ok(vec![Value::Double(Array::row(data))])
}

fn eval_not(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("not", args, 1, 1)?;
    let a = numeric("not", args[0])?;
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
    Ok(vec![Subscript::List { positions, dims: vec![rows, 1], is_logical: false }])
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

/// Positions of each operand's elements in the concatenation along `axis` (0 rows, 1 columns).
/// Empty 0x0 operands are skipped, as in MATLAB.
fn concat_plan(dims: &[Vec<usize>], axis: usize) -> Result<(Vec<usize>, Vec<Option<Vec<usize>>>)> {
    let kept: Vec<&Vec<usize>> = dims.iter().filter(|d| !is_empty_matrix(d)).collect();
    let Some(first) = kept.first() else { return Ok((vec![0, 0], dims.iter().map(|_| None).collect())) };
    let other = 1 - axis;
    let mut out = (*first).clone();
    out[axis] = 0;
    for d in &kept {
        if d.len() > 2 || d[other] != first[other] {
            return Err(runtime(format!(
                "{}: dimension mismatch ({} vs {})",
                if axis == 0 { "vertical dimensions mismatch" } else { "horizontal dimensions mismatch" },
                super::elementwise::dims_text(first),
                super::elementwise::dims_text(d)
            )));
        }
        out[axis] += d[axis];
    }
    let mut offset = 0;
    let maps = dims
        .iter()
        .map(|d| {
            if is_empty_matrix(d) {
                return None;
            }
            let (r, c) = (d[0], d[1]);
            let map = (0..r * c)
                .map(|k| {
                    let (i, j) = (k % r, k / r);
                    if axis == 0 { i + offset + j * out[0] } else { i + (j + offset) * out[0] }
                })
                .collect();
            offset += d[axis];
            Some(map)
        })
        .collect();
    Ok((out, maps))
}

fn is_empty_matrix(d: &[usize]) -> bool {
    d == [0, 0]
}

fn concatenate(args: &[&Value], axis: usize) -> Result<Value> {
    let dims: Vec<Vec<usize>> = args.iter().map(|v| v.dims()).collect();
    let (out_dims, maps) = concat_plan(&dims, axis)?;
    let n: usize = out_dims.iter().product();
    let all_char = args.iter().all(|v| matches!(v, Value::Char(_)));
    let all_logical = args.iter().all(|v| matches!(v, Value::Logical(_)));
    if all_char {
        let mut data = vec![0u16; n];
        for (v, map) in args.iter().zip(&maps) {
            if let (Value::Char(a), Some(map)) = (v, map) {
                map.iter().enumerate().for_each(|(k, &t)| data[t] = a.data[k]);
            }
        }
        return Ok(Value::Char(Array::new(out_dims, data)));
    }
    let mut data = vec![0.0; n];
    for (v, map) in args.iter().zip(&maps) {
        if let Some(map) = map {
            let a = numeric("concatenation", v)?;
            map.iter().enumerate().for_each(|(k, &t)| data[t] = a.data[k]);
        }
    }
    let a = Array::new(out_dims, data);
    Ok(if all_logical && !args.is_empty() { Value::Logical(a.map(|&x| x != 0.0)) } else { Value::Double(a) })
}

fn forward_concat(fw: &Forward, axis: usize) -> Result<Deriv> {
    let dims: Vec<Vec<usize>> = fw.inputs.iter().map(|v| v.dims()).collect();
    let (out_dims, maps) = concat_plan(&dims, axis)?;
    let rows: usize = out_dims.iter().product();
    let parts = fw
        .derivs
        .iter()
        .zip(&maps)
        .filter_map(|(d, map)| {
            let pairs: Vec<(usize, usize)> = map.as_ref()?.iter().enumerate().map(|(k, &t)| (t, k)).collect();
            Some(d.scatter(&pairs, rows))
        })
        .collect();
    Ok(deriv::sum(parts, rows))
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
            dims[i] = if known == 0 { 0 } else { n / known };
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
