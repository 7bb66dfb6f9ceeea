//! Octave's order of complex numbers: by modulus, then by argument in (-pi, pi] (an argument of -pi
//! counts as pi). In a comparison of a real operand with a complex one, the real operand's argument is
//! taken as 0. `max`, `min` and `sort` of complex arrays follow the same order; equality compares parts.

use super::super::slices::Slices;
use super::super::sort::sort_order;
use super::super::{Prim, broadcast_dims, check_arity, row_maps, runtime};
use crate::diag::Result;
use crate::value::{Array, Complex64, Value};
use std::cmp::Ordering;
use std::f64::consts::PI;

type C = Complex64;

/// The sort key of an element: modulus and argument.
fn key(z: C, real_operand: bool) -> (f64, f64) {
    if real_operand {
        return (z.re.abs(), 0.0);
    }
    let arg = z.im.atan2(z.re);
    (z.norm(), if arg == -PI { PI } else { arg })
}

/// Order of two keys; None when either is NaN.
fn order(a: (f64, f64), b: (f64, f64)) -> Option<Ordering> {
    match a.0.partial_cmp(&b.0)? {
        Ordering::Equal => a.1.partial_cmp(&b.1),
        unequal => Some(unequal),
    }
}

fn parts<'v>(name: &str, v: &'v Value) -> Result<(std::borrow::Cow<'v, Array<C>>, bool)> {
    let z = v.complex_parts().ok_or_else(|| runtime(format!("{name}: wrong type argument '{}'", v.class_name())))?;
    Ok((z, !matches!(v, Value::Complex(_))))
}

/// `==`, `~=`, `<`, `<=`, `>`, `>=` with at least one complex operand.
pub(super) fn compare(prim: Prim, args: &[&Value]) -> Result<Value> {
    let name = prim.name();
    check_arity(name, args, 2, 2)?;
    let ((a, a_real), (b, b_real)) = (parts(name, args[0])?, parts(name, args[1])?);
    let dims = broadcast_dims(&a.dims, &b.dims)
        .ok_or_else(|| super::super::elementwise::nonconformant(&format!("mx_el_{name}"), &a.dims, &b.dims))?;
    let (ma, mb) = row_maps(&a.dims, &b.dims, &dims);
    let test = |x: C, y: C| -> bool {
        match prim {
            Prim::Eq => x == y,
            Prim::Ne => x != y,
            _ => {
                let o = order(key(x, a_real), key(y, b_real));
                match prim {
                    Prim::Lt => o == Some(Ordering::Less),
                    Prim::Le => matches!(o, Some(Ordering::Less | Ordering::Equal)),
                    Prim::Gt => o == Some(Ordering::Greater),
                    _ => matches!(o, Some(Ordering::Greater | Ordering::Equal)),
                }
            }
        }
    };
    let n: usize = dims.iter().product();
    Ok(Value::Logical(Array::new(dims, (0..n).map(|k| test(a.data[ma.source(k)], b.data[mb.source(k)])).collect())))
}

/// `max`/`min` of one complex array along a dimension (NaNs skipped unless a slice has nothing else;
/// the first of equal elements wins), or of two operands elementwise.
pub(super) fn extreme(prim: Prim, args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    let name = prim.name();
    check_arity(name, args, 1, 3)?;
    let wanted = if prim == Prim::Max { Ordering::Greater } else { Ordering::Less };
    if args.len() == 2 {
        let ((a, a_real), (b, b_real)) = (parts(name, args[0])?, parts(name, args[1])?);
        let dims = broadcast_dims(&a.dims, &b.dims).ok_or_else(|| super::super::elementwise::nonconformant(name, &a.dims, &b.dims))?;
        let (ma, mb) = row_maps(&a.dims, &b.dims, &dims);
        let n: usize = dims.iter().product();
        // As Octave: the second operand only when it orders strictly beyond the first (never a NaN).
        let pick = |x: C, y: C| -> C { if order(key(y, b_real), key(x, a_real)) == Some(wanted) { y } else { x } };
        let data = (0..n).map(|k| pick(a.data[ma.source(k)], b.data[mb.source(k)])).collect();
        return Ok(vec![Value::narrowed(Array::new(dims, data))]);
    }
    if args.len() == 3 && args[1].numel() != 0 {
        return Err(runtime(format!("{name}: second argument is ignored")));
    }
    let z = parts(name, args[0])?.0;
    let dims = if z.dims == [0, 0] { vec![0, 1] } else { z.dims.clone() };
    let slices = Slices::new(&dims, dimension(name, &dims, args.get(2).copied())?);
    if slices.len == 0 {
        let empty = Array::new(slices.dims_with_len(0), vec![]);
        return Ok(vec![Value::Double(empty.clone()), Value::Double(empty)].into_iter().take(nargout.max(1)).collect());
    }
    let out_dims = slices.dims_with_len(1);
    let mut values = Vec::with_capacity(slices.count());
    let mut positions = Vec::with_capacity(slices.count());
    for s in 0..slices.count() {
        let mut best: Option<usize> = None;
        for k in 0..slices.len {
            let x = z.data[slices.index(s, k)];
            if x.re.is_nan() || x.im.is_nan() {
                continue;
            }
            if best.is_none_or(|b| order(key(x, false), key(z.data[slices.index(s, b)], false)) == Some(wanted)) {
                best = Some(k);
            }
        }
        let k = best.unwrap_or(0);
        values.push(z.data[slices.index(s, k)]);
        positions.push(k as f64 + 1.0);
    }
    let mut out = vec![Value::narrowed(Array::new(out_dims.clone(), values))];
    if nargout > 1 {
        out.push(Value::Double(Array::new(out_dims, positions)));
    }
    Ok(out)
}

/// DIM (1-based) or the first non-singleton dimension, 0-based.
fn dimension(name: &str, dims: &[usize], dim: Option<&Value>) -> Result<usize> {
    match dim {
        None => Ok(dims.iter().position(|&d| d != 1).unwrap_or(0)),
        Some(v) => match v.numeric().filter(|d| d.is_scalar()).map(|d| d.data[0]) {
            Some(d) if d >= 1.0 && d.fract() == 0.0 => Ok(d as usize - 1),
            _ => Err(runtime(format!("{name}: DIM must be a valid dimension"))),
        },
    }
}

/// `sort(z)`, `sort(z, dim)`, `sort(z, mode)`, `sort(z, dim, mode)` of a complex array (stable; NaNs
/// last when ascending, first when descending).
pub(super) fn sort(args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    check_arity("sort", args, 1, 3)?;
    let z = parts("sort", args[0])?.0;
    let mut dim = None;
    let mut descending = false;
    for a in &args[1..] {
        match a.as_string().map(|s| s.to_lowercase()) {
            Some(mode) if mode == "ascend" => descending = false,
            Some(mode) if mode == "descend" => descending = true,
            Some(mode) => return Err(runtime(format!("sort: MODE must be either \"ascend\" or \"descend\", not \"{mode}\""))),
            None => dim = Some(*a),
        }
    }
    let dim = dimension("sort", &z.dims, dim)?;
    let slices = Slices::new(&z.dims, dim);
    let mut values = z.data.clone();
    let mut positions = vec![0.0; z.data.len()];
    let is_nan = |x: C| x.re.is_nan() || x.im.is_nan();
    for s in 0..slices.count() {
        let mut ks: Vec<usize> = (0..slices.len).collect();
        let at = |k: usize| z.data[slices.index(s, k)];
        ks.sort_by(|&i, &j| {
            let (x, y) = (at(i), at(j));
            sort_order(is_nan(x), is_nan(y), descending, || order(key(x, false), key(y, false)).unwrap_or(Ordering::Equal))
        });
        for (k, &from) in ks.iter().enumerate() {
            values[slices.index(s, k)] = at(from);
            positions[slices.index(s, k)] = from as f64 + 1.0;
        }
    }
    let mut out = vec![Value::narrowed(Array::new(z.dims.clone(), values))];
    if nargout > 1 {
        out.push(Value::Double(Array::new(z.dims.clone(), positions)));
    }
    Ok(out)
}
