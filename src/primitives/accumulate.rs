//! `accumarray(subs, vals, sz, [], fillval)`: sums of `vals` grouped by subscript rows, linear in the
//! values (a function other than the sum is applied by the evaluator, which groups with
//! `accumarray_groups` and calls it). `num2cell` and `deal` hand values on whole.

use super::elementwise::numeric;
use super::{Derivative, Forward, Kernel, Linearity, Prim, Primitive, check_arity, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::primitives::index::gather_value;
use crate::value::deriv::{Deriv, RowMap, RowOperator};
use crate::value::{Array, Value};

primitive_names! {
    Accumarray = "accumarray",
    Num2cell = "num2cell",
    Deal = "deal",
    Merge = "merge",
    Ifelse = "ifelse",
}

pub(super) fn entries() -> Vec<Primitive> {
    let general = |prim, eval, derivative| Primitive::new(prim, Kernel::General { eval, derivative });
    vec![
        general(Prim::Accumarray, eval_accumarray, Derivative::Rule(forward_accumarray)).linear(Linearity::PiecewiseLinear),
        general(Prim::Num2cell, eval_num2cell, Derivative::Rule(forward_num2cell)).linear(Linearity::Additive),
        general(Prim::Deal, eval_deal, Derivative::Outputs { rule: forward_deal, differentiable: |_| true }).linear(Linearity::Additive),
        general(Prim::Merge, eval_merge, Derivative::Rule(forward_merge)).linear(Linearity::PiecewiseLinear),
        general(Prim::Ifelse, eval_merge, Derivative::Rule(forward_merge)).linear(Linearity::PiecewiseLinear),
    ]
}

/// Where each row of `subs` lands in the result (0-based, column-major), and the result's dims.
pub fn accumarray_groups(args: &[&Value]) -> Result<(Vec<usize>, Vec<usize>)> {
    check_arity("accumarray", args, 2, 6)?;
    let subs = numeric("accumarray", args[0])?;
    let (n, d) = (subs.rows(), subs.cols());
    if subs.data.iter().any(|&s| s < 1.0 || s.fract() != 0.0) {
        return Err(runtime("accumarray: all SUBS must be positive integers"));
    }
    let vals = args[1].numel();
    if vals != 1 && vals != n {
        return Err(runtime("accumarray: dimension mismatch"));
    }
    let largest: Vec<usize> = (0..d).map(|j| subs.data[j * n..(j + 1) * n].iter().fold(0.0f64, |m, &s| m.max(s)) as usize).collect();
    let dims = match args.get(2).map(|v| numeric("accumarray", v)).transpose()? {
        Some(sz) if sz.numel() > 0 => {
            let sz: Vec<usize> = sz.data.iter().map(|&s| s as usize).collect();
            // One subscript column indexes linearly into any size.
            let fits =
                (d == 1 && sz.iter().product::<usize>() >= largest[0]) || (sz.len() == d && sz.iter().zip(&largest).all(|(s, m)| s >= m));
            if !fits {
                return Err(runtime("accumarray: dimensions mismatch"));
            }
            sz
        }
        _ if d == 1 => vec![largest[0], 1],
        _ => largest,
    };
    let extent = |j: usize| if d == 1 { usize::MAX } else { dims[j] };
    crate::value::memory::check_dims(&dims, size_of::<f64>())?;
    let positions = (0..n).map(|k| (0..d).rev().fold(0, |p, j| p * extent(j) + subs.data[j * n + k] as usize - 1)).collect();
    Ok((positions, dims))
}

/// The 5th argument (fill value for positions no subscript names), 0 by default.
pub fn accumarray_fill(args: &[&Value]) -> Result<f64> {
    if args.get(5).and_then(|v| v.numeric()).is_some_and(|a| a.data.iter().any(|&b| b != 0.0)) {
        return Err(Diagnostic::new(ErrorKind::Unsupported, "accumarray with a sparse result"));
    }
    match args.get(4).map(|v| numeric("accumarray", v)).transpose()? {
        Some(f) if f.numel() == 1 => Ok(f.data[0]),
        Some(f) if f.numel() == 0 => Ok(0.0),
        Some(_) => Err(runtime("accumarray: FILLVAL must be a scalar")),
        None => Ok(0.0),
    }
}

fn eval_accumarray(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (positions, dims) = accumarray_groups(args)?;
    if args.get(3).is_some_and(|f| f.numel() > 0) {
        return Err(runtime("accumarray: FUNC is applied by the evaluator"));
    }
    let fill = accumarray_fill(args)?;
    let vals = numeric("accumarray", args[1])?;
    let mut out: Vec<Option<f64>> = Array::filled(dims.clone(), None).data;
    for (k, &p) in positions.iter().enumerate() {
        let v = vals.data[if vals.numel() == 1 { 0 } else { k }];
        out[p] = Some(out[p].unwrap_or(0.0) + v);
    }
    Ok(vec![Value::Double(Array::new(dims, out.into_iter().map(|v| v.unwrap_or(fill)).collect()))])
}

/// Each result element is the sum of the values' rows that land on it.
fn forward_accumarray(fw: &Forward) -> Result<Deriv> {
    let (positions, _) = accumarray_groups(fw.inputs)?;
    let scalar = fw.inputs[1].numel() == 1;
    let mut sources: Vec<Vec<usize>> = vec![Vec::new(); fw.output.numel()];
    for (k, &p) in positions.iter().enumerate() {
        sources[p].push(if scalar { 0 } else { k });
    }
    let ptr = std::iter::once(0)
        .chain(sources.iter().scan(0, |n, s| {
            *n += s.len();
            Some(*n)
        }))
        .collect();
    let src: Vec<usize> = sources.into_iter().flatten().collect();
    let op = RowOperator { ptr, coef: vec![1.0; src.len()], src };
    Ok(fw.derivs[1].apply(&op))
}

/// The cells' dims, the slices' dims and each slice's positions in the array.
type CellPlan = (Vec<usize>, Vec<usize>, Vec<Vec<usize>>);

/// `num2cell(a)` and `num2cell(a, dims)`: cells of `a`'s size with `dims` collapsed to 1, each holding
/// the slice of `a` along `dims` (one element without `dims`). Gives the cells' dims, the slices' dims
/// and each slice's positions in `a`.
fn num2cell_plan(args: &[&Value]) -> Result<CellPlan> {
    check_arity("num2cell", args, 1, 2)?;
    if let Value::Struct(_) | Value::Handle(_) | Value::Sparse(_) = args[0] {
        let what = if matches!(args[0], Value::Sparse(_)) { "sparse matrix" } else { args[0].class_name() };
        return Err(Diagnostic::new(ErrorKind::Unsupported, format!("num2cell of a {what}")));
    }
    let collapse: Vec<usize> = match args.get(1) {
        Some(d) => numeric("num2cell", d)?
            .data
            .iter()
            .map(|&d| {
                if d >= 1.0 && d.fract() == 0.0 {
                    Ok(d as usize - 1)
                } else {
                    Err(runtime("num2cell: DIMS must be a valid array of integer dimensions"))
                }
            })
            .collect::<Result<_>>()?,
        None => vec![],
    };
    // Dimensions past the last have extent 1 whether collapsed or kept.
    let dims = args[0].dims();
    let collapsed: Vec<bool> = (0..dims.len()).map(|j| collapse.contains(&j)).collect();
    let kept = |j: usize| !collapsed[j];
    let cell_dims: Vec<usize> = dims.iter().enumerate().map(|(j, &d)| if kept(j) { d } else { 1 }).collect();
    let slice_dims: Vec<usize> = dims.iter().enumerate().map(|(j, &d)| if kept(j) { 1 } else { d }).collect();
    let mut slices = vec![Vec::new(); cell_dims.iter().product()];
    for p in 0..dims.iter().product() {
        // The cell of position p: its subscripts with the collapsed ones dropped.
        let (mut rest, mut cell, mut stride) = (p, 0, 1);
        for (j, &d) in dims.iter().enumerate() {
            if kept(j) {
                cell += (rest % d) * stride;
                stride *= d;
            }
            rest /= d;
        }
        slices[cell].push(p);
    }
    Ok((cell_dims, slice_dims, slices))
}

fn eval_num2cell(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (cell_dims, slice_dims, slices) = num2cell_plan(args)?;
    let cells = slices.iter().map(|p| gather_value(args[0], slice_dims.clone(), p)).collect::<Result<Vec<_>>>()?;
    Ok(vec![Value::Cell(Array::new(cell_dims, cells))])
}

fn forward_num2cell(fw: &Forward) -> Result<Deriv> {
    let (_, _, slices) = num2cell_plan(fw.inputs)?;
    Ok(Deriv::from_parts(slices.into_iter().map(|p| fw.derivs[0].gather(&RowMap::Gather(p.clone()), p.len())).collect()))
}

/// `[a, b, ...] = deal(x)` copies x to every output; `deal(x1, x2, ...)` gives each its own.
fn eval_deal(args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    let n = nargout.max(1);
    match args.len() {
        0 => Err(runtime("Invalid call to deal")),
        1 => Ok(vec![args[0].clone(); n]),
        m if m == n => Ok(args.iter().map(|v| (*v).clone()).collect()),
        _ => Err(runtime("deal: nargin > 1 and nargin != nargout")),
    }
}

fn forward_deal(fw: &Forward, k: usize) -> Result<Deriv> {
    Ok(fw.derivs[if fw.derivs.len() == 1 { 0 } else { k }].clone())
}

/// For `merge(mask, tval, fval)`: which operand each result element comes from (true: tval), and
/// the result's dims. A scalar mask picks one operand whole.
fn merge_plan(args: &[&Value]) -> Result<(Vec<bool>, Vec<usize>)> {
    check_arity("merge", args, 3, 3)?;
    let mask = merge_mask(args[0])?;
    if mask.is_scalar() {
        let picked = if mask.data[0] { args[1] } else { args[2] };
        return Ok((vec![mask.data[0]; picked.numel()], picked.dims()));
    }
    for v in &args[1..] {
        if v.numel() != 1 && v.dims() != mask.dims {
            return Err(runtime("merge: MASK, TVAL, and FVAL must have the same dimensions"));
        }
    }
    if matches!((args[1], args[2]), (Value::Logical(_), Value::Logical(_))) {
        return Err(runtime("merge: cannot merge logical with logical with array mask"));
    }
    Ok((mask.data, mask.dims))
}

fn merge_mask(mask: &Value) -> Result<Array<bool>> {
    match mask {
        Value::Logical(mask) => Ok(mask.clone()),
        other => {
            let values = numeric("merge", other)?;
            if values.data.iter().any(|m| m.is_nan()) {
                return Err(runtime("invalid conversion from NaN to logical"));
            }
            Ok(values.map(|&m| m != 0.0))
        }
    }
}

fn eval_merge(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (from_true, dims) = merge_plan(args)?;
    if let (Value::Logical(t), Value::Logical(f)) = (args[1], args[2]) {
        return Ok(vec![Value::Logical(Array::new(dims, pick(&from_true, &t.data, &f.data)))]);
    }
    let (t, f) = (numeric("merge", args[1])?, numeric("merge", args[2])?);
    Ok(vec![Value::Double(Array::new(dims, pick(&from_true, &t.data, &f.data)))])
}

/// Element k from `t` or `f` (a scalar operand gives its one element everywhere).
fn pick<T: Copy>(from_true: &[bool], t: &[T], f: &[T]) -> Vec<T> {
    let at = |data: &[T], k: usize| data[if data.len() == 1 { 0 } else { k }];
    from_true.iter().enumerate().map(|(k, &b)| if b { at(t, k) } else { at(f, k) }).collect()
}

/// Each result element's row comes from the operand it was picked from.
fn forward_merge(fw: &Forward) -> Result<Deriv> {
    let mask = merge_mask(fw.inputs[0])?;
    if mask.is_scalar() {
        return Ok(fw.derivs[if mask.data[0] { 1 } else { 2 }].clone());
    }
    let (from_true, _) = merge_plan(fw.inputs)?;
    let rows = from_true.len();
    let map = |v: &Value| if v.numel() == 1 { RowMap::Scalar } else { RowMap::Identity };
    let (t_map, f_map) = (map(fw.inputs[1]), map(fw.inputs[2]));
    let t_coef: Vec<f64> = from_true.iter().map(|&b| if b { 1.0 } else { 0.0 }).collect();
    let f_coef: Vec<f64> = t_coef.iter().map(|c| 1.0 - c).collect();
    Ok(crate::value::deriv::combine(&[(&t_coef, fw.derivs[1], &t_map), (&f_coef, fw.derivs[2], &f_map)], rows))
}
