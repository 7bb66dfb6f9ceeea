//! Evenly spaced points and grids: `linspace`, `logspace`, `meshgrid`, `ndgrid`.
//!
//! `linspace` is linear in its end points: element j of a row is `(1 - w_j) base + w_j limit` with
//! `w_j = j / (n - 1)`, which is its derivative rule. Grids copy their vectors' elements, so their
//! rules gather, for every output of `meshgrid`/`ndgrid`.

use super::arrays::{Gather, gathered, index_map};
use super::elementwise::numeric;
use super::reverse::Adjoints;
use super::second_order::{SecondOrder, Tangents};
use super::{Derivative, Forward, Hessian, IndexPair, Kernel, Linearity, Prim, Primitive, check_arity, runtime};
use crate::diag::Result;
use crate::value::deriv::{Deriv, RowMap, combine};
use crate::value::{Array, Value, normalize_dims};

primitive_names! {
    Linspace = "linspace",
    Logspace = "logspace",
    Meshgrid = "meshgrid",
    Ndgrid = "ndgrid",
}

pub(super) fn entries() -> Vec<Primitive> {
    fn entry(prim: Prim, eval: super::EvalFn, derivative: Derivative) -> Primitive {
        Primitive::new(prim, Kernel::General { eval, derivative })
    }
    let grid = |rule: super::OutputsFn| Derivative::Outputs { rule, differentiable: |_| true };
    vec![
        entry(Prim::Linspace, eval_linspace, Derivative::Rule(forward_linspace)).linear(Linearity::PiecewiseLinear),
        entry(Prim::Logspace, eval_logspace, Derivative::Rule(forward_logspace)).hessian(Hessian::Own(|_, _| Ok(SecondOrder::LogSpacing))),
        entry(Prim::Meshgrid, eval_meshgrid, grid(|fw, k| forward_grid(fw, Grid::Mesh, k))).linear(Linearity::PiecewiseLinear),
        entry(Prim::Ndgrid, eval_ndgrid, grid(|fw, k| forward_grid(fw, Grid::Nd, k))).linear(Linearity::PiecewiseLinear),
    ]
}

/// `linspace(base, limit, n)`: one row per element of the (scalar or vector) end points.
struct Spacing {
    rows: usize,
    n: usize,
    base: Vec<f64>,
    limit: Vec<f64>,
}

fn spacing(name: &str, args: &[&Value], default_n: f64) -> Result<Spacing> {
    check_arity(name, args, 2, 3)?;
    let n = match args.get(2) {
        Some(n) => match numeric(name, n)?.data.as_slice() {
            [n] => *n,
            _ => return Err(runtime(format!("{name}: N must be a scalar"))),
        },
        None => default_n,
    };
    if !args[..2].iter().all(|v| v.numel() == 1 || is_vector(v)) {
        return Err(runtime(format!("{name}: START, END must be scalars or vectors")));
    }
    let (base, limit) = (numeric(name, args[0])?.into_owned().data, numeric(name, args[1])?.into_owned().data);
    let rows = if base.len() == 1 { limit.len() } else { base.len() };
    if limit.len() != 1 && limit.len() != rows {
        return Err(runtime(format!("{name}: vectors START and END must be the same length")));
    }
    // Octave truncates N; fewer than one point is an empty row.
    let n = if n >= 1.0 { n as usize } else { 0 };
    crate::value::memory::check_dims(&[rows, n], size_of::<f64>())?;
    Ok(Spacing { rows, n, base, limit })
}

impl Spacing {
    /// Source index in `base`/`limit` of each result row.
    fn source(&self, v: &[f64], row: usize) -> usize {
        if v.len() == 1 { 0 } else { row }
    }

    /// Weight of `limit` in element j of a row.
    fn weight(&self, j: usize) -> f64 {
        if self.n == 1 { 1.0 } else { j as f64 / (self.n - 1) as f64 }
    }

    /// Values as Octave computes them, ends exact: a single row steps symmetrically from both ends
    /// (the middle element of an odd count is the ends' average); several rows step from the start.
    fn values(&self) -> Array<f64> {
        let (rows, n) = (self.rows, self.n);
        let symmetric = self.base.len() == 1 && self.limit.len() == 1;
        let mut out = vec![0.0; rows * n];
        for r in 0..rows {
            let (a, b) = (self.base[self.source(&self.base, r)], self.limit[self.source(&self.limit, r)]);
            let mut at = |j: usize, x: f64| out[r + j * rows] = x;
            if n == 0 {
                continue;
            }
            let delta = (b - a) / (n - 1) as f64;
            at(0, a);
            if symmetric {
                for i in 1..n / 2 {
                    at(i, a + i as f64 * delta);
                    at(n - 1 - i, b - i as f64 * delta);
                }
                if n % 2 == 1 && n > 1 {
                    at(n / 2, if a == -b { 0.0 } else { (a + b) / 2.0 });
                }
            } else {
                (1..n - 1).for_each(|j| at(j, a + j as f64 * delta));
            }
            at(n - 1, b);
        }
        Array::new(vec![rows, n], out)
    }

    /// Derivative of the values given the end points' derivatives.
    fn derivative(&self, d_base: &Deriv, d_limit: &Deriv) -> Deriv {
        let total = self.rows * self.n;
        let (mut w_base, mut w_limit) = (Vec::with_capacity(total), Vec::with_capacity(total));
        let (mut from_base, mut from_limit) = (Vec::with_capacity(total), Vec::with_capacity(total));
        for k in 0..total {
            let (r, j) = (k % self.rows, k / self.rows);
            w_base.push(1.0 - self.weight(j));
            w_limit.push(self.weight(j));
            from_base.push(self.source(&self.base, r));
            from_limit.push(self.source(&self.limit, r));
        }
        combine(&[(&w_base, d_base, &RowMap::Gather(from_base)), (&w_limit, d_limit, &RowMap::Gather(from_limit))], total)
    }
}

fn eval_linspace(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    Ok(vec![Value::Double(spacing("linspace", args, 100.0)?.values())])
}

fn forward_linspace(fw: &Forward) -> Result<Deriv> {
    Ok(spacing("linspace", fw.inputs, 100.0)?.derivative(fw.derivs[0], fw.derivs[1]))
}

/// `logspace(a, b, n)` is `10 .^ linspace(a, b', n)` with `b' = log10(pi)` when `b == pi`.
fn log_spacing(args: &[&Value]) -> Result<Spacing> {
    if args.iter().any(|v| v.numel() != 1) {
        return Err(runtime("logspace: arguments A, B, and N must be scalars"));
    }
    let mut s = spacing("logspace", args, 50.0)?;
    if s.limit[0] == std::f64::consts::PI {
        s.limit[0] = std::f64::consts::PI.log10();
    }
    Ok(s)
}

fn eval_logspace(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let exponents = log_spacing(args)?.values();
    Ok(vec![Value::Double(exponents.map(|&e| 10f64.powf(e)))])
}

/// The first and second derivatives of the exponents' end b' with respect to b: through log10 when the
/// pi convention replaced b.
fn limit_slopes(args: &[&Value]) -> Result<(f64, f64)> {
    use std::f64::consts::{LN_10, PI};
    Ok(if numeric("logspace", args[1])?.data[0] == PI { (1.0 / (PI * LN_10), -1.0 / (PI * PI * LN_10)) } else { (1.0, 0.0) })
}

fn forward_logspace(fw: &Forward) -> Result<Deriv> {
    let s = log_spacing(fw.inputs)?;
    let (limit_scale, _) = limit_slopes(fw.inputs)?;
    let d_limit = combine(&[(&[limit_scale], fw.derivs[1], &RowMap::Identity)], 1);
    let d_exponents = s.derivative(fw.derivs[0], &d_limit);
    let y = numeric("logspace", fw.output)?;
    let scale: Vec<f64> = y.data.iter().map(|v| v * std::f64::consts::LN_10).collect();
    Ok(combine(&[(&scale, &d_exponents, &RowMap::Identity)], scale.len()))
}

/// The second-order term of `logspace(a, b, n)`: with `y_j = 10^e_j`, `e_j = (1 - w_j) a + w_j b'`,
/// the second partials are `ln(10)^2 y_j` times the products of the exponent's partials, plus
/// `ln(10) y_j w_j b''` for b with itself.
pub(super) fn logspace_second_order(t: &Tangents) -> Result<Adjoints> {
    let s = log_spacing(t.inputs)?;
    let (c, c2) = limit_slopes(t.inputs)?;
    let y = numeric("logspace", t.output)?;
    let ln = std::f64::consts::LN_10;
    let mut terms: Adjoints = vec![None; t.inputs.len()];
    for d in 0..t.directions {
        let tangent = |k: usize| t.tangents[k].map_or(0.0, |dv| dv.get(0, d));
        let (da, db) = (tangent(0), tangent(1));
        let (mut term_a, mut term_b) = (0.0, 0.0);
        for (j, (&yj, &ybar)) in y.data.iter().zip(t.adjoint).enumerate() {
            let (ea, eb) = (1.0 - s.weight(j), s.weight(j) * c);
            let curvature = ybar * ln * ln * yj;
            term_a += curvature * ea * (ea * da + eb * db);
            term_b += curvature * eb * (ea * da + eb * db) + ybar * ln * yj * s.weight(j) * c2 * db;
        }
        for (k, term) in [term_a, term_b].into_iter().enumerate().filter(|&(k, _)| t.wanted[k]) {
            terms[k].get_or_insert_with(|| vec![0.0; t.directions])[d] = term;
        }
    }
    Ok(terms)
}

#[derive(Clone, Copy)]
enum Grid {
    /// `meshgrid`: x varies along columns, y along rows, z along pages.
    Mesh,
    /// `ndgrid`: argument i varies along dimension i.
    Nd,
}

/// The grid's dims and, for each output, which argument and along which dimension it varies.
/// MATLAB's `isvector` as Octave 7 has it: 2-D with one dim of 1 (1x0 counts).
fn is_vector(v: &Value) -> bool {
    let d = v.dims();
    d.len() == 2 && (d[0] == 1 || d[1] == 1)
}

fn grid_layout(grid: Grid, args: &[&Value], nargout: usize) -> Result<(Vec<usize>, Vec<IndexPair>)> {
    match grid {
        Grid::Mesh => {
            if args.is_empty() || args.len() > 3 {
                return Err(runtime("Invalid call to meshgrid"));
            }
            let three_d = args.len() == 3 || nargout == 3;
            let pick = |i: usize| args[i.min(args.len() - 1)];
            let used: Vec<&Value> = (0..if three_d { 3 } else { 2 }).map(pick).collect();
            if !used.iter().all(|v| is_vector(v)) {
                return Err(runtime("meshgrid: X and Y must be vectors"));
            }
            let mut dims = vec![used[1].numel(), used[0].numel()];
            if three_d {
                dims.push(used[2].numel());
            }
            // Output i reads argument i (or the last one given) along dims 1, 0, 2.
            let axes = [1, 0, 2].iter().enumerate().take(dims.len()).map(|(i, &axis)| (i.min(args.len() - 1), axis));
            Ok((normalize_dims(dims), axes.collect()))
        }
        Grid::Nd => {
            let n = match args.len() {
                0 => return Err(runtime("Invalid call to ndgrid")),
                1 => nargout.max(1),
                k if k >= nargout => k,
                _ => return Err(runtime("ndgrid: wrong number of input arguments")),
            };
            let pick = |i: usize| args[i.min(args.len() - 1)];
            if (0..n).any(|i| !is_vector(pick(i)) && pick(i).numel() > 0) {
                return Err(runtime("ndgrid: arguments must be vectors"));
            }
            let mut dims: Vec<usize> = (0..n).map(|i| pick(i).numel()).collect();
            if n == 1 {
                dims.push(1);
            }
            Ok((normalize_dims(dims), (0..n).map(|i| (i.min(args.len() - 1), i)).collect()))
        }
    }
}

/// Output `(argument, axis)` of a grid of `dims`: element k copies the argument's element at k's
/// subscript along `axis`.
fn grid_gather(dims: &[usize], source: &Value, axis: usize) -> Gather {
    let n = source.numel();
    Gather { dims: dims.to_vec(), map: index_map(dims, &[n], |s, src| src[0] = s.get(axis).copied().unwrap_or(0)) }
}

fn eval_grid(grid: Grid, args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    let (dims, outputs) = grid_layout(grid, args, nargout)?;
    outputs.iter().take(nargout.max(1)).map(|&(arg, axis)| gathered(args[arg], grid_gather(&dims, args[arg], axis))).collect()
}

fn eval_meshgrid(args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    eval_grid(Grid::Mesh, args, nargout)
}

fn eval_ndgrid(args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    eval_grid(Grid::Nd, args, nargout)
}

/// Output k's derivative. The layout is that of as many outputs as the grid has dims (at least k + 1:
/// trailing singleton dims are dropped), which gives output k the same argument and axis.
fn forward_grid(fw: &Forward, grid: Grid, k: usize) -> Result<Deriv> {
    let dims = fw.output.dims();
    let (_, outputs) = grid_layout(grid, fw.inputs, dims.len().max(k + 1))?;
    let (arg, axis) = outputs[k];
    let gather = grid_gather(&dims, fw.inputs[arg], axis);
    let rows = gather.map.len();
    Ok(fw.derivs[arg].gather(&RowMap::Gather(gather.map), rows))
}
