//! `fft(x)`, `fft(x, n)`, `fft(x, n, dim)` and `ifft` alike: the discrete Fourier transform along the
//! first non-singleton dimension (or `dim`), each vector padded with zeros or truncated to `n`
//! elements. Lengths that are powers of two run radix-2; others through Bluestein's chirp, a
//! convolution of power-of-two length. Results narrow to real as Octave's do, except where they
//! depend on x (see `derivative::keeps_complex`).
//!
//! Both are linear: the derivative of each direction is the transform of its block (`forward`), and
//! reverse mode transposes that rule.

use super::super::{Forward, Prim, PrimId, check_arity, runtime};
use crate::diag::Result;
use crate::exec::deriv::{DenseDeriv, Deriv};
use crate::exec::memory;
use crate::exec::value::{Array, Complex64, Value};
use std::f64::consts::PI;

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
    // Bluestein's two work vectors of power-of-two length.
    memory::check((2 * plan.n).next_power_of_two().saturating_mul(2), size_of::<C>())?;
    Ok(Value::narrowed(transform(&x, &plan)))
}

/// The transform of every vector along `plan.dim`.
fn transform(x: &Array<C>, plan: &Plan) -> Array<C> {
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
            let result = dft(&vector, plan.inverse);
            result.iter().enumerate().for_each(|(k, v)| out.data[b + before * (k + plan.n * a)] = *v);
        }
    }
    out
}

/// The transform of one vector; the inverse scaled by 1/n. As Octave's (FFTW's) results: that of a
/// real x is exactly conjugate-symmetric, and the inverse of an exactly conjugate-symmetric x is real.
fn dft(x: &[C], inverse: bool) -> Vec<C> {
    let n = x.len();
    if n == 0 {
        return vec![];
    }
    let symmetric = |v: &[C]| (0..n).all(|k| v[k] == v[(n - k) % n].conj());
    if !inverse {
        let mut transformed = forward_dft(x);
        if x.iter().all(|z| z.im == 0.0) {
            (1..n.div_ceil(2)).for_each(|k| transformed[n - k] = transformed[k].conj());
        }
        return transformed;
    }
    // ifft(x) = conj(fft(conj(x))) / n
    let conjugated: Vec<C> = x.iter().map(|z| z.conj()).collect();
    let real = symmetric(x);
    forward_dft(&conjugated).into_iter().map(|z| if real { C::new(z.re, 0.0) } else { z.conj() } / n as f64).collect()
}

fn forward_dft(x: &[C]) -> Vec<C> {
    let n = x.len();
    if n.is_power_of_two() {
        let mut data = x.to_vec();
        radix2(&mut data, false);
        return data;
    }
    let mut transformed = bluestein(x);
    // The sum and (n even) the alternating sum exactly, as radix-2 and Octave's FFTW give them: a real
    // x has real ones, and their derivatives' imaginary rows are exact zeros.
    transformed[0] = x.iter().sum();
    if n.is_multiple_of(2) {
        transformed[n / 2] = x.iter().enumerate().map(|(j, z)| if j % 2 == 0 { *z } else { -z }).sum();
    }
    transformed
}

/// In-place iterative radix-2 transform (`backward`: the sign of the exponent flipped, unscaled).
fn radix2(data: &mut [C], backward: bool) {
    let n = data.len();
    let bits = n.trailing_zeros();
    if bits == 0 {
        return;
    }
    for i in 0..n {
        let j = i.reverse_bits() >> (usize::BITS - bits);
        if i < j {
            data.swap(i, j);
        }
    }
    let sign = if backward { 1.0 } else { -1.0 };
    let mut len = 2;
    while len <= n {
        let step = C::from_polar(1.0, sign * 2.0 * PI / len as f64);
        for start in (0..n).step_by(len) {
            let mut w = C::new(1.0, 0.0);
            for k in 0..len / 2 {
                // Twiddles from the angle directly at every 64th step keep round-off from accumulating.
                if k % 64 == 0 {
                    w = C::from_polar(1.0, sign * 2.0 * PI * k as f64 / len as f64);
                }
                let (u, v) = (data[start + k], data[start + k + len / 2] * w);
                data[start + k] = u + v;
                data[start + k + len / 2] = u - v;
                w *= step;
            }
        }
        len *= 2;
    }
}

/// Bluestein: `X_k = conj(c_k) sum_j (x_j conj(c_j)) c_(k-j)` with the chirp `c_j = exp(i pi j^2 / n)`,
/// the sum a circular convolution of power-of-two length.
fn bluestein(x: &[C]) -> Vec<C> {
    let n = x.len();
    let size = (2 * n - 1).next_power_of_two();
    // j^2 mod 2n keeps the chirp's angle exact for large j.
    let chirp: Vec<C> = (0..n).map(|j| C::from_polar(1.0, PI * ((j * j) % (2 * n)) as f64 / n as f64)).collect();
    let mut a = vec![C::new(0.0, 0.0); size];
    let mut b = vec![C::new(0.0, 0.0); size];
    for j in 0..n {
        a[j] = x[j] * chirp[j].conj();
        b[j] = chirp[j];
        if j > 0 {
            b[size - j] = chirp[j];
        }
    }
    radix2(&mut a, false);
    radix2(&mut b, false);
    a.iter_mut().zip(&b).for_each(|(p, q)| *p *= q);
    radix2(&mut a, true);
    (0..n).map(|k| a[k] * chirp[k].conj() / size as f64).collect()
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
    for d in 0..nd {
        let column = block.column(d);
        let part = |k: usize| C::new(column[k], if complex_input { column[m + k] } else { 0.0 });
        let direction = Array::new(input.dims(), (0..m).map(part).collect());
        let transformed = transform(&direction, &plan);
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
        for n in [1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 100, 128] {
            let x: Vec<C> = (0..n).map(|j| C::new((j as f64 * 0.7).sin(), (j as f64 * 0.3).cos() - 0.5)).collect();
            for inverse in [false, true] {
                let (fast, slow) = (dft(&x, inverse), naive(&x, inverse));
                let err = fast.iter().zip(&slow).map(|(a, b)| (a - b).norm()).fold(0.0, f64::max);
                assert!(err <= 1e-12 * n as f64, "n = {n}, inverse {inverse}: {err:e}");
            }
        }
    }
}
