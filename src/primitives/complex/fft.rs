//! `fft(x)`, `fft(x, n)`, `fft(x, n, dim)` and `ifft` alike: the discrete Fourier transform along the
//! first non-singleton dimension (or `dim`), each vector padded with zeros or truncated to `n`
//! elements. The transforms are rustfft's (mixed radix, Bluestein or Rader for large prime factors),
//! planned once per length and kept. Results narrow to real as Octave's do, except where they
//! depend on x (see `derivative::keeps_complex`).
//!
//! Both are linear: the derivative of each direction is the transform of its block (`forward`), and
//! reverse mode transposes that rule.

use super::super::{Forward, Prim, PrimId, check_arity, runtime};
use crate::diag::Result;
use crate::value::deriv::{DenseDeriv, Deriv};
use crate::value::memory;
use crate::value::{Array, Complex64, Value};
use rustfft::{Fft, FftPlanner};
use std::sync::{Arc, Mutex, OnceLock};

type C = Complex64;

/// Which transform, and where: the length `n` along dimension `dim` (0-based) of the result.
struct Plan {
    inverse: bool,
    n: usize,
    dim: usize,
}

fn plan(id: PrimId, args: &[&Value]) -> Result<Plan> {
    let name = id.name();
    check_arity(name, args, 1, 3)?;
    let dims = args[0].dims();
    let count = |v: &Value, what: &str| -> Result<Option<usize>> {
        let a = v.numeric().ok_or_else(|| runtime(format!("{name}: {what} must be a real number")))?;
        match a.data.as_slice() {
            [] => Ok(None),
            [x] if *x >= 1.0 && x.fract() == 0.0 => Ok(Some(*x as usize)),
            _ => Err(runtime(format!("{name}: {what} must be greater than zero"))),
        }
    };
    let invalid_dim = || runtime(format!("{name}: DIM must be a valid dimension along which to perform FFT"));
    let dim = match args.get(2) {
        // Beyond 64 dimensions, an array's size list alone would be a large allocation.
        Some(v) => count(v, "DIM")?.filter(|&d| d <= 64).ok_or_else(invalid_dim)? - 1,
        None => dims.iter().position(|&d| d != 1).unwrap_or(0),
    };
    let length = dims.get(dim).copied().unwrap_or(1);
    let n = match args.get(1) {
        Some(v) => count(v, "N")?.unwrap_or(length),
        None => length,
    };
    Ok(Plan { inverse: id == Prim::Ifft, n, dim })
}

pub(super) fn eval(id: PrimId, args: &[&Value]) -> Result<Value> {
    let plan = plan(id, args)?;
    let x = args[0].complex_parts().ok_or_else(|| runtime(format!("{}: X must be a numeric array", id.name())))?;
    // rustfft's work vectors (Bluestein's, for a length with a large prime factor, are the largest).
    memory::check((2 * plan.n).next_power_of_two().saturating_mul(2), size_of::<C>())?;
    Ok(Value::narrowed(transform(&x, &plan, planned(plan.n).as_ref())))
}

/// The transform of every vector along `plan.dim`, by `fft` (planned for `plan.n`).
fn transform(x: &Array<C>, plan: &Plan, fft: &dyn Fft<f64>) -> Array<C> {
    let mut dims = x.dims.clone();
    while dims.len() <= plan.dim {
        dims.push(1);
    }
    let (before, length) = (dims[..plan.dim].iter().product::<usize>(), dims[plan.dim]);
    let after: usize = dims[plan.dim + 1..].iter().product();
    dims[plan.dim] = plan.n;
    let mut out = Array::filled(dims, C::new(0.0, 0.0));
    let mut vector = vec![C::new(0.0, 0.0); plan.n];
    for a in 0..after {
        for b in 0..before {
            let at = |k: usize| b + before * (k + length * a);
            vector.iter_mut().enumerate().for_each(|(k, v)| *v = if k < length { x.data[at(k)] } else { C::new(0.0, 0.0) });
            let result = dft(&vector, plan.inverse, fft);
            result.iter().enumerate().for_each(|(k, v)| out.data[b + before * (k + plan.n * a)] = *v);
        }
    }
    out
}

/// The forward transform of each length, planned once for the whole session.
fn planned(n: usize) -> Arc<dyn Fft<f64>> {
    static PLANNER: OnceLock<Mutex<FftPlanner<f64>>> = OnceLock::new();
    let planner = PLANNER.get_or_init(|| Mutex::new(FftPlanner::new()));
    // A panic while planning leaves the planner's cache as it was: the lock stays usable.
    planner.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).plan_fft_forward(n)
}

/// The transform of one vector; the inverse scaled by 1/n. As Octave's (FFTW's) results: that of a
/// real x is exactly conjugate-symmetric, and the inverse of an exactly conjugate-symmetric x is real.
fn dft(x: &[C], inverse: bool, fft: &dyn Fft<f64>) -> Vec<C> {
    let n = x.len();
    if n == 0 {
        return vec![];
    }
    let symmetric = |v: &[C]| (0..n).all(|k| v[k] == v[(n - k) % n].conj());
    if !inverse {
        let mut transformed = forward_dft(x, fft);
        if x.iter().all(|z| z.im == 0.0) {
            (1..n.div_ceil(2)).for_each(|k| transformed[n - k] = transformed[k].conj());
        }
        return transformed;
    }
    // ifft(x) = conj(fft(conj(x))) / n
    let conjugated: Vec<C> = x.iter().map(|z| z.conj()).collect();
    let real = symmetric(x);
    forward_dft(&conjugated, fft).into_iter().map(|z| if real { C::new(z.re, 0.0) } else { z.conj() } / n as f64).collect()
}

fn forward_dft(x: &[C], fft: &dyn Fft<f64>) -> Vec<C> {
    let n = x.len();
    let mut transformed = x.to_vec();
    fft.process(&mut transformed);
    // The sum and (n even) the alternating sum exactly, as Octave's FFTW gives them: a real x has real
    // ones, and their derivatives' imaginary rows are exact zeros.
    transformed[0] = x.iter().sum();
    if n.is_multiple_of(2) {
        transformed[n / 2] = x.iter().enumerate().map(|(j, z)| if j % 2 == 0 { *z } else { -z }).sum();
    }
    transformed
}

/// Each direction's block transformed as the value is (real operands' blocks have zero imaginary rows).
pub(super) fn forward(id: PrimId, fw: &Forward) -> Result<Deriv> {
    let plan = plan(id, fw.inputs)?;
    let (input, m) = (fw.inputs[0], fw.inputs[0].numel());
    let complex_input = matches!(input, Value::Complex(_));
    let Some(nd) = fw.derivs[0].nd() else { return Ok(Deriv::Zero) };
    let rows = if complex_input { 2 * m } else { m };
    let block = fw.derivs[0].to_dense(rows, nd);
    // A real result (a transform narrowed off x, see `derivative::keeps_complex`) has real rows only.
    let m_out = fw.output.numel();
    let out_rows = if matches!(fw.output, Value::Complex(_)) { 2 * m_out } else { m_out };
    let mut out = DenseDeriv::zeros(out_rows, nd);
    let fft = planned(plan.n);
    for d in 0..nd {
        let column = block.column(d);
        let part = |k: usize| C::new(column[k], if complex_input { column[m + k] } else { 0.0 });
        let direction = Array::new(input.dims(), (0..m).map(part).collect());
        let transformed = transform(&direction, &plan, fft.as_ref());
        let target = out.column_mut(d);
        for (k, z) in transformed.data.iter().enumerate() {
            target[k] = z.re;
            if out_rows > m_out {
                target[m_out + k] = z.im;
            }
        }
    }
    Ok(Deriv::Dense(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// The definition, O(n^2).
    fn naive(x: &[C], inverse: bool) -> Vec<C> {
        let n = x.len();
        let sign = if inverse { 1.0 } else { -1.0 };
        let scale = if inverse { 1.0 / n as f64 } else { 1.0 };
        (0..n)
            .map(|k| x.iter().enumerate().map(|(j, v)| v * C::from_polar(scale, sign * 2.0 * PI * ((j * k) % n) as f64 / n as f64)).sum())
            .collect()
    }

    #[test]
    fn transforms_of_every_length_match_the_definition() {
        for n in [1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 100, 128, 1009, 2310] {
            let x: Vec<C> = (0..n).map(|j| C::new((j as f64 * 0.7).sin(), (j as f64 * 0.3).cos() - 0.5)).collect();
            for inverse in [false, true] {
                let (fast, slow) = (dft(&x, inverse, planned(n).as_ref()), naive(&x, inverse));
                let err = fast.iter().zip(&slow).map(|(a, b)| (a - b).norm()).fold(0.0, f64::max);
                assert!(err <= 1e-12 * n as f64, "n = {n}, inverse {inverse}: {err:e}");
            }
        }
    }
}
