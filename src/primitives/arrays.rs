//! Rearranging arrays: repetition, permutation, flips, rotation, circular shifts and N-D concatenation.
//! Every result element is a copy of one input element, so each forward rule gathers the derivative
//! rows with the map that moved the values (structural entries move with them, none is dropped).

use super::elementwise::{dims_text, numeric};
use super::{Derivative, EvalFn, Forward, ForwardFn, IntegerArgs, Kernel, Linearity, Prim, Primitive, RuleReads, check_arity, runtime};
use crate::diag::Result;
use crate::primitives::index::gather_value;
use crate::value::deriv::{DenseDeriv, Deriv, RowMap};
use crate::value::{Array, SparseMatrix, Value, normalize_dims};
use crate::value::{buffers, memory};

primitive_names! {
    Repmat = "repmat",
    Permute = "permute",
    Ipermute = "ipermute",
    Squeeze = "squeeze",
    Flip = "flip",
    Fliplr = "fliplr",
    Flipud = "flipud",
    Rot90 = "rot90",
    Circshift = "circshift",
    Cat = "cat",
}

fn structural(prim: Prim, eval: EvalFn, rule: ForwardFn) -> Primitive {
    Primitive::new(prim, Kernel::General { eval, derivative: Derivative::Rule(rule) })
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        structural(Prim::Repmat, |a, _| rearrange(a, repmat), |fw| gather_rule(fw, repmat))
            .linear(Linearity::Additive)
            .integers(IntegerArgs::KeepClass),
        structural(
            Prim::Permute,
            |a, _| rearrange(a, |a| permutation("permute", a, false)),
            |fw| gather_rule(fw, |a| permutation("permute", a, false)),
        )
        .linear(Linearity::Additive)
        .integers(IntegerArgs::KeepClass),
        structural(
            Prim::Ipermute,
            |a, _| rearrange(a, |a| permutation("ipermute", a, true)),
            |fw| gather_rule(fw, |a| permutation("ipermute", a, true)),
        )
        .linear(Linearity::PiecewiseLinear)
        .reads(RuleReads::NONE),
        structural(Prim::Squeeze, |a, _| rearrange(a, squeeze), |fw| gather_rule(fw, squeeze))
            .linear(Linearity::Additive)
            .integers(IntegerArgs::KeepClass),
        structural(Prim::Flip, |a, _| rearrange(a, |a| flip("flip", a, None)), |fw| gather_rule(fw, |a| flip("flip", a, None)))
            .linear(Linearity::PiecewiseLinear)
            .reads(RuleReads::NONE)
            .integers(IntegerArgs::KeepClass),
        structural(Prim::Fliplr, |a, _| rearrange(a, |a| flip("fliplr", a, Some(1))), |fw| gather_rule(fw, |a| flip("fliplr", a, Some(1))))
            .linear(Linearity::Additive)
            .integers(IntegerArgs::KeepClass),
        structural(Prim::Flipud, |a, _| rearrange(a, |a| flip("flipud", a, Some(0))), |fw| gather_rule(fw, |a| flip("flipud", a, Some(0))))
            .linear(Linearity::Additive)
            .integers(IntegerArgs::KeepClass),
        structural(Prim::Rot90, |a, _| rearrange(a, rot90), |fw| gather_rule(fw, rot90))
            .linear(Linearity::PiecewiseLinear)
            .reads(RuleReads::NONE)
            .integers(IntegerArgs::KeepClass),
        structural(Prim::Circshift, |a, _| rearrange(a, circshift), |fw| gather_rule(fw, circshift))
            .linear(Linearity::Additive)
            .integers(IntegerArgs::KeepClass),
        structural(Prim::Cat, eval_cat, forward_cat).linear(Linearity::Additive).integers(IntegerArgs::KeepClass),
    ]
}

/// Where the result's elements come from: its dims and, for element k (column-major), the linear
/// index of its source element in the (first) input.
pub(super) struct Gather {
    pub dims: Vec<usize>,
    pub map: Vec<usize>,
}

type Plan = fn(&[&Value]) -> Result<Gather>;

fn rearrange(args: &[&Value], plan: Plan) -> Result<Vec<Value>> {
    if args.is_empty() {
        return Err(runtime("not enough input arguments"));
    }
    let gather = plan(args)?;
    Ok(vec![gathered(args[0], gather)?])
}

/// `value`'s elements moved as `gather` says; sparse matrices stay sparse, as in Octave.
pub(super) fn gathered(value: &Value, gather: Gather) -> Result<Value> {
    let out = gather_value(value, gather.dims, &gather.map)?;
    Ok(match (value, out) {
        (Value::Sparse(_), Value::Double(a)) if a.dims.len() == 2 => Value::Sparse(SparseMatrix::from_dense(&a)),
        (_, out) => out,
    })
}

fn gather_rule(fw: &Forward, plan: Plan) -> Result<Deriv> {
    let gather = plan(fw.inputs)?;
    let rows = gather.map.len();
    Ok(fw.derivs[0].gather(&RowMap::Gather(gather.map), rows))
}

/// Column-major strides of an array of `dims`.
fn strides(dims: &[usize]) -> Vec<usize> {
    let mut stride = 1;
    dims.iter()
        .map(|&d| {
            let s = stride;
            stride *= d;
            s
        })
        .collect()
}

/// For every element of an array of `out_dims` (column-major), the linear index in an array of
/// `in_dims` of the element that `source(out_subscripts, in_subscripts)` picks.
pub(super) fn index_map(out_dims: &[usize], in_dims: &[usize], source: impl Fn(&[usize], &mut [usize])) -> Vec<usize> {
    let total = memory::ensure_dims(out_dims, size_of::<usize>());
    let in_strides = strides(in_dims);
    let mut sub = vec![0; out_dims.len()];
    let mut src = vec![0; in_dims.len()];
    let mut map = Vec::with_capacity(total);
    for _ in 0..total {
        source(&sub, &mut src);
        map.push(src.iter().zip(&in_strides).map(|(s, t)| s * t).sum());
        for (s, &d) in sub.iter_mut().zip(out_dims) {
            *s += 1;
            if *s < d {
                break;
            }
            *s = 0;
        }
    }
    map
}

/// `dims` padded with trailing singletons to `n` dims.
pub(super) fn padded(dims: &[usize], n: usize) -> Vec<usize> {
    memory::ensure(n, size_of::<usize>());
    let mut d = dims.to_vec();
    d.resize(n.max(dims.len()), 1);
    d
}

/// MATLAB's default dimension: the first non-singleton one (0-based; 0 for scalars).
pub(super) fn first_non_singleton(dims: &[usize]) -> usize {
    dims.iter().position(|&d| d != 1).unwrap_or(0)
}

/// A real integer scalar argument.
pub(super) fn integer_scalar(name: &str, what: &str, v: &Value) -> Result<i64> {
    let a = match v {
        Value::Double(_) | Value::Logical(_) | Value::Sparse(_) => numeric(name, v)?,
        _ => return Err(runtime(format!("{name}: {what} must be a real integer scalar"))),
    };
    match a.data.as_slice() {
        [x] if x.fract() == 0.0 => Ok(*x as i64),
        _ => Err(runtime(format!("{name}: {what} must be a real integer scalar"))),
    }
}

/// A dimension argument (1-based in MATLAB), returned 0-based.
pub(super) fn dimension(name: &str, v: &Value) -> Result<usize> {
    match integer_scalar(name, "DIM", v) {
        Ok(d) if d >= 1 => Ok(d as usize - 1),
        _ => Err(runtime(format!("{name}: DIM must be a valid dimension"))),
    }
}

fn repmat(args: &[&Value]) -> Result<Gather> {
    if args.len() < 2 {
        return Err(runtime("Invalid call to repmat"));
    }
    let mut counts = Vec::new();
    for v in &args[1..] {
        for &x in &numeric("repmat", v)?.data {
            if x.fract() != 0.0 {
                return Err(runtime(format!("repmat: conversion of {x} to an integer value failed")));
            }
            // NaN and negative counts repeat nothing.
            counts.push(if x > 0.0 { x as usize } else { 0 });
        }
    }
    if args.len() == 2 && counts.len() == 1 {
        counts.push(counts[0]);
    }
    // Trailing dimensions repeated once stay singletons: leave them out of the walk.
    let repeated = counts.iter().rposition(|&c| c != 1).map_or(0, |last| last + 1);
    let n = repeated.max(args[0].dims().len());
    counts.truncate(n);
    let (dims, counts) = (padded(&args[0].dims(), n), padded(&counts, n));
    let out: Vec<usize> = dims.iter().zip(&counts).map(|(d, c)| d.saturating_mul(*c)).collect();
    let map = index_map(&out, &dims, |s, src| src.iter_mut().zip(s).zip(&dims).for_each(|((t, s), d)| *t = s % d));
    Ok(Gather { dims: normalize_dims(out), map })
}

/// `permute(A, perm)`, or `ipermute` (`inverse`): result dim i is input dim `perm[i]`.
fn permutation(name: &str, args: &[&Value], inverse: bool) -> Result<Gather> {
    check_arity(name, args, 2, 2)?;
    let dims = args[0].dims();
    let given = numeric(name, args[1])?;
    let n = given.data.len();
    let mut perm = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for &p in &given.data {
        let valid = p >= 1.0 && p.fract() == 0.0 && (p as usize) <= n;
        if !valid || seen[p as usize - 1] {
            return Err(runtime(format!("{name}: PERM is not a valid permutation vector")));
        }
        seen[p as usize - 1] = true;
        perm.push(p as usize - 1);
    }
    if n < dims.len() {
        return Err(runtime(format!("{name}: PERM does not match the dimensions of A")));
    }
    if inverse {
        let mut inv = vec![0; n];
        perm.iter().enumerate().for_each(|(i, &p)| inv[p] = i);
        perm = inv;
    }
    let dims = padded(&dims, n);
    let out: Vec<usize> = perm.iter().map(|&p| dims[p]).collect();
    let map = index_map(&out, &dims, |s, src| perm.iter().zip(s).for_each(|(&p, &s)| src[p] = s));
    Ok(Gather { dims: normalize_dims(out), map })
}

fn squeeze(args: &[&Value]) -> Result<Gather> {
    check_arity("squeeze", args, 1, 1)?;
    let dims = args[0].dims();
    let out = if dims.len() > 2 {
        let kept: Vec<usize> = dims.iter().copied().filter(|&d| d != 1).collect();
        normalize_dims(if kept.len() == 1 { vec![kept[0], 1] } else { kept })
    } else {
        dims
    };
    memory::ensure(args[0].numel(), size_of::<usize>());
    Ok(Gather { map: (0..args[0].numel()).collect(), dims: out })
}

/// `flip(A, dim)`; `fixed` is the dimension of `fliplr`/`flipud`, which take no DIM argument.
fn flip(name: &str, args: &[&Value], fixed: Option<usize>) -> Result<Gather> {
    check_arity(name, args, 1, if fixed.is_some() { 1 } else { 2 })?;
    let dims = args[0].dims();
    let dim = match (fixed, args.get(1)) {
        (Some(d), _) => d,
        (None, Some(d)) => dimension(name, d)?,
        (None, None) => first_non_singleton(&dims),
    };
    let dims = padded(&dims, dim + 1);
    let map = index_map(&dims, &dims, |s, src| {
        src.copy_from_slice(s);
        src[dim] = dims[dim] - 1 - s[dim];
    });
    Ok(Gather { dims: normalize_dims(dims), map })
}

/// Rotation by `k` quarter turns counterclockwise in the plane of the first two dims.
fn rot90(args: &[&Value]) -> Result<Gather> {
    check_arity("rot90", args, 1, 2)?;
    let k = match args.get(1) {
        Some(k) => integer_scalar("rot90", "K", k)?.rem_euclid(4),
        None => 1,
    };
    let dims = args[0].dims();
    let (r, c) = (dims[0], dims[1]);
    let mut out = dims.clone();
    if k % 2 == 1 {
        out.swap(0, 1);
    }
    let map = index_map(&out, &dims, |s, src| {
        src.copy_from_slice(s);
        (src[0], src[1]) = match k {
            0 => (s[0], s[1]),
            1 => (s[1], c - 1 - s[0]),
            2 => (r - 1 - s[0], c - 1 - s[1]),
            _ => (r - 1 - s[1], s[0]),
        };
    });
    Ok(Gather { dims: out, map })
}

fn circshift(args: &[&Value]) -> Result<Gather> {
    check_arity("circshift", args, 2, 3)?;
    let dims = args[0].dims();
    // Octave returns an empty array unchanged before looking at N.
    if args[0].numel() == 0 {
        return Ok(Gather { dims, map: vec![] });
    }
    let amounts = numeric("circshift", args[1])?;
    if amounts.data.iter().any(|x| x.fract() != 0.0) {
        return Err(runtime("circshift: all values of N must be integers"));
    }
    // Shift per dimension: N along DIM, a scalar N along the first non-singleton dim, a vector N
    // along dims 1, 2, ...
    let shifts: Vec<(usize, i64)> = match (args.get(2), amounts.data.as_slice()) {
        (Some(d), [n]) => vec![(dimension("circshift", d)?, *n as i64)],
        (Some(_), _) => return Err(runtime("circshift: N must be a scalar when DIM is given")),
        (None, [n]) => vec![(first_non_singleton(&dims), *n as i64)],
        (None, many) => many.iter().enumerate().map(|(d, &n)| (d, n as i64)).collect(),
    };
    if shifts.iter().any(|&(d, _)| d >= dims.len()) {
        return Err(runtime("circshift: N must be a vector, no longer than the number of dimensions in X"));
    }
    let map = index_map(&dims, &dims, |s, src| {
        src.copy_from_slice(s);
        for &(d, shift) in &shifts {
            let len = dims[d] as i64;
            src[d] = (s[d] as i64 - shift).rem_euclid(len) as usize;
        }
    });
    Ok(Gather { dims: normalize_dims(dims), map })
}

// ---- concatenation ----

/// Which empty operands a concatenation may skip when their dims do not match: `[a, b]` (and
/// `horzcat`, `vertcat`) skips `[]` and 1x0 / 0x1 arrays, `cat` only `[]`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Joining {
    Brackets,
    Cat,
}

fn eval_cat(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let dim = cat_dimension(args)?;
    Ok(vec![concatenate(&args[1..], dim, Joining::Cat)?])
}

fn forward_cat(fw: &Forward) -> Result<Deriv> {
    let dim = cat_dimension(fw.inputs)?;
    forward_concatenate(&fw.inputs[1..], &fw.derivs[1..], dim, Joining::Cat)
}

fn cat_dimension(args: &[&Value]) -> Result<usize> {
    let Some(dim) = args.first() else { return Err(runtime("Invalid call to cat")) };
    let d = match dim {
        Value::Double(_) | Value::Logical(_) => numeric("cat", dim)?.data.first().copied().unwrap_or(0.0),
        _ => return Err(runtime("cat: DIM must be an integer")),
    };
    // Octave reads DIM as an integer, dropping any fraction.
    if d < 1.0 || d.is_nan() { Err(runtime("cat: DIM must be a valid dimension")) } else { Ok(d as usize - 1) }
}

/// Folds `next` into the accumulated dims `acc` along `dim` with Octave's rules; false on a mismatch.
fn join_dims(acc: &mut Vec<usize>, next: &[usize], dim: usize, joining: Joining) -> Join {
    let n = acc.len().max(next.len()).max(dim + 1);
    let (a, b) = (padded(acc, n), padded(next, n));
    if (0..n).all(|i| i == dim || a[i] == b[i]) {
        let mut joined = a;
        joined[dim] += b[dim];
        *acc = normalize_dims(joined);
        return Join::Appended;
    }
    let zero_by_zero = |d: &[usize]| d == [0, 0];
    // 1x0 and 0x1 count as empty only between 2-D operands of a bracket expression.
    let both_2d = joining == Joining::Brackets && acc.len() == 2 && next.len() == 2;
    let vector_empty = |d: &[usize]| both_2d && d[0] + d[1] == 1;
    if zero_by_zero(next) {
        Join::Skipped
    } else if zero_by_zero(acc) {
        *acc = next.to_vec();
        Join::Replaced
    } else if vector_empty(next) {
        if vector_empty(acc) {
            *acc = vec![0, 0];
        }
        Join::Skipped
    } else if vector_empty(acc) {
        *acc = next.to_vec();
        Join::Replaced
    } else {
        Join::Mismatch
    }
}

enum Join {
    Appended,
    Skipped,
    Replaced,
    Mismatch,
}

/// Where each element of one operand goes in the concatenation's result.
type Placement = Vec<usize>;

/// The result dims, and each operand's offset along `dim` (None: it contributes none).
fn joined_dims(dims: &[Vec<usize>], dim: usize, joining: Joining) -> Result<(Vec<usize>, Vec<Option<usize>>)> {
    let mut acc: Option<Vec<usize>> = None;
    let mut offsets = vec![None; dims.len()];
    let mut offset = 0;
    for (k, d) in dims.iter().enumerate() {
        // Brackets ignore [] altogether: it never starts the result's dims.
        let Some(a) = acc.as_mut() else {
            if !(joining == Joining::Brackets && d[..] == [0, 0]) {
                acc = Some(d.clone());
                offsets[k] = Some(0);
                offset = padded(d, dim + 1)[dim];
            }
            continue;
        };
        let before = a.clone();
        match join_dims(a, d, dim, joining) {
            Join::Appended => {
                offsets[k] = Some(offset);
                offset += padded(d, dim + 1)[dim];
            }
            Join::Replaced => {
                offsets[k] = Some(0);
                offset = padded(d, dim + 1)[dim];
            }
            Join::Skipped => {}
            Join::Mismatch => {
                return Err(runtime(match (joining, dim) {
                    (Joining::Cat, _) => "cat: dimension mismatch".to_string(),
                    (_, 0) => format!("vertical dimensions mismatch ({} vs {})", dims_text(&before), dims_text(d)),
                    _ => format!("horizontal dimensions mismatch ({} vs {})", dims_text(&before), dims_text(d)),
                }));
            }
        }
    }
    Ok((acc.unwrap_or_else(|| vec![0, 0]), offsets))
}

/// The result dims, and where each operand's elements go in the result (None: it contributes none).
fn placement(dims: &[Vec<usize>], dim: usize, joining: Joining) -> Result<(Vec<usize>, Vec<Option<Placement>>)> {
    let (out, offsets) = joined_dims(dims, dim, joining)?;
    let n = out.len().max(dim + 1);
    let padded_out = padded(&out, n);
    // Joined along the last non-singleton dimension, every operand is one contiguous run.
    let contiguous = padded_out[dim + 1..].iter().all(|&d| d == 1);
    let stride: usize = padded_out[..dim].iter().product();
    let maps = dims
        .iter()
        .zip(offsets)
        .map(|(d, offset)| {
            let offset = offset?;
            if contiguous {
                let start = offset * stride;
                return Some((start..start + d.iter().product::<usize>()).collect());
            }
            Some(index_map(&padded(d, n), &padded_out, |s, target| {
                target.copy_from_slice(s);
                target[dim] += offset;
            }))
        })
        .collect();
    Ok((out, maps))
}

/// The class of a concatenation: char wins, then double; logical only when every operand is.
enum Joined {
    Char,
    Logical,
    Double { sparse: bool },
    Cell,
}

fn joined_class(args: &[&Value]) -> Result<Joined> {
    if args.iter().all(|v| matches!(v, Value::Cell(_))) && !args.is_empty() {
        return Ok(Joined::Cell);
    }
    if let Some(v) = args.iter().find(|v| matches!(v, Value::Cell(_) | Value::Struct(_) | Value::Handle(_))) {
        return Err(runtime(format!("concatenation operator not implemented for '{}' arrays", v.class_name())));
    }
    Ok(if args.iter().any(|v| matches!(v, Value::Char(_))) {
        Joined::Char
    } else if !args.is_empty() && args.iter().all(|v| matches!(v, Value::Logical(_))) {
        Joined::Logical
    } else {
        Joined::Double { sparse: args.iter().any(|v| matches!(v, Value::Sparse(_))) }
    })
}

/// The result's dims when every operand of a concatenation along `dim` is one contiguous run of the
/// result, in order (non-empty full double column vectors stacked by `[a; b]`, or matrices of one
/// height side by side by `[a, b]`): the elements then simply follow one another, without the
/// general placement's position maps. None: anything else.
fn stacked_dims(args: &[&Value], dim: usize) -> Option<[usize; 2]> {
    let mut out = [0, 0];
    for (k, v) in args.iter().enumerate() {
        let Value::Double(a) = v else { return None };
        let &[rows, cols] = &a.dims[..] else { return None };
        match dim {
            _ if rows == 0 || cols == 0 => return None,
            0 if cols == 1 => out = [out[0] + rows, 1],
            1 if k == 0 || rows == out[0] => out = [rows, out[1] + cols],
            _ => return None,
        }
    }
    (!args.is_empty()).then_some(out)
}

/// Concatenation of `args` along `dim` (0-based).
pub(super) fn concatenate(args: &[&Value], dim: usize, joining: Joining) -> Result<Value> {
    if let Some(dims) = stacked_dims(args, dim) {
        let mut data = buffers::take(dims[0] * dims[1]);
        args.iter().filter_map(|v| v.numeric()).for_each(|a| data.extend_from_slice(&a.data));
        return Ok(Value::Double(Array::new(dims.to_vec(), data)));
    }
    let dims: Vec<Vec<usize>> = args.iter().map(|v| v.dims()).collect();
    if dim <= 1 && dims.iter().all(|d| d.len() == 2) && matches!(joined_class(args)?, Joined::Double { sparse: true }) {
        // Sparse: no map per element, the operands that take part stacked as they are.
        let (out_dims, offsets) = joined_dims(&dims, dim, joining)?;
        let operands: Vec<&Value> = args.iter().zip(&offsets).filter(|(_, o)| o.is_some()).map(|(v, _)| *v).collect();
        return Ok(Value::Sparse(super::sparse::concatenate(&operands, dim, &out_dims)?));
    }
    // The placement maps have one entry per element of the result.
    memory::ensure(args.iter().map(|v| v.numel()).fold(0usize, usize::saturating_add), size_of::<usize>());
    let (out_dims, maps) = placement(&dims, dim, joining)?;
    let n: usize = out_dims.iter().product();
    let parts: Vec<(&Value, Vec<usize>)> = args.iter().zip(maps).filter_map(|(v, m)| Some((*v, m?))).collect();
    fn fill<T: Clone>(n: usize, zero: T, parts: Vec<(Vec<T>, &Vec<usize>)>) -> Vec<T> {
        let mut data = vec![zero; n];
        for (values, map) in parts {
            map.iter().zip(values).for_each(|(&t, v)| data[t] = v);
        }
        data
    }
    let numbers = |v: &Value| Ok(numeric("concatenation", v)?.into_owned().data);
    Ok(match joined_class(args)? {
        Joined::Cell => {
            let cells = parts.iter().map(|(v, m)| match v {
                Value::Cell(c) => (c.data.clone(), m),
                _ => unreachable!("all operands are cells"),
            });
            let empty = Value::Double(Array::new(vec![0, 0], vec![]));
            Value::Cell(Array::new(out_dims, fill(n, empty, cells.collect())))
        }
        Joined::Char => {
            let chars = parts.iter().map(|(v, m)| match v {
                Value::Char(a) => Ok((a.data.clone(), m)),
                other => Ok((numbers(other)?.iter().map(|&x| char_code(x)).collect(), m)),
            });
            Value::Char(Array::new(out_dims, fill(n, 0, chars.collect::<Result<_>>()?)))
        }
        Joined::Logical => {
            let bools = parts.iter().map(|(v, m)| match v {
                Value::Logical(a) => (a.data.clone(), m),
                _ => unreachable!("all operands are logical"),
            });
            Value::Logical(Array::new(out_dims, fill(n, false, bools.collect())))
        }
        Joined::Double { sparse } => {
            // A sparse operand here is joined along a third dimension or with an N-D operand.
            let doubles = parts.iter().map(|(v, m)| Ok((numbers(v)?, m)));
            let a = Array::new(out_dims, fill(n, 0.0, doubles.collect::<Result<_>>()?));
            if sparse && a.dims.len() == 2 { Value::Sparse(SparseMatrix::from_dense(&a)) } else { Value::Double(a) }
        }
    })
}

/// A number as Octave's (byte) chars hold it: truncated, modulo 256; NaN and infinities give 0.
fn char_code(x: f64) -> u16 {
    if x.is_finite() { x as i64 as u8 as u16 } else { 0 }
}

/// The concatenation's derivative: each operand's rows scattered to where its elements went.
pub(super) fn forward_concatenate(args: &[&Value], derivs: &[&Deriv], dim: usize, joining: Joining) -> Result<Deriv> {
    if let (Some(dims), Some(nd)) = (stacked_dims(args, dim), dense_width(args, derivs)) {
        return Ok(stacked_derivative(args, derivs, dims[0] * dims[1], nd));
    }
    let dims: Vec<Vec<usize>> = args.iter().map(|v| v.dims()).collect();
    let (out_dims, maps) = placement(&dims, dim, joining)?;
    let rows: usize = out_dims.iter().product();
    let blocks: Vec<(&Deriv, &[usize])> = derivs.iter().zip(&maps).filter_map(|(d, map)| Some((*d, map.as_deref()?))).collect();
    Ok(Deriv::placed(&blocks, rows))
}

/// The common width of the operands' derivative blocks when each is dense (one row per element) or
/// zero, and one at least is dense.
fn dense_width(args: &[&Value], derivs: &[&Deriv]) -> Option<usize> {
    let mut width = None;
    for (v, d) in args.iter().zip(derivs) {
        match d {
            Deriv::Zero => {}
            Deriv::Dense(b) if b.rows == v.numel() && width.is_none_or(|nd| nd == b.nd) => width = Some(b.nd),
            _ => return None,
        }
    }
    width
}

/// The derivative of a concatenation whose operands follow one another (see `stacked_dims`): each
/// direction's column is the operands' columns one after another, zeros for constant operands.
fn stacked_derivative(args: &[&Value], derivs: &[&Deriv], rows: usize, nd: usize) -> Deriv {
    let mut data = buffers::take(rows * nd);
    for j in 0..nd {
        for (v, d) in args.iter().zip(derivs) {
            match d {
                Deriv::Dense(b) => data.extend_from_slice(b.column(j)),
                _ => data.resize(data.len() + v.numel(), 0.0),
            }
        }
    }
    Deriv::Dense(DenseDeriv { rows, nd, data })
}
