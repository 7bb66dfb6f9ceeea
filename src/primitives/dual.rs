//! Numbers the factorization kernels (`lu`, `qr`, `chol`) compute with, so that each kernel is
//! written once: `f64` for the values, `Dual` (a value and its tangent along one direction) for the
//! forward rules and `HyperDual` (two directions and their mixed second derivative) for the
//! second-order terms.

use super::reverse::Adjoints;
use super::second_order::Tangents;
use crate::diag::Result;
use crate::value::interrupt;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// A number the kernels compute with.
pub(super) trait Field:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self> + Neg<Output = Self>
{
    fn constant(v: f64) -> Self;
    fn value(self) -> f64;
    /// Its first derivatives along the directions it carries (zero where it carries fewer).
    fn slopes(self) -> [f64; 2];
    fn sqrt(self) -> Self;
    /// `a * b` (m x k times k x n, column-major).
    fn product(a: &[Self], b: &[Self], m: usize, k: usize, n: usize) -> Vec<Self> {
        let mut c = vec![Self::constant(0.0); m * n];
        for j in 0..n {
            for l in 0..k {
                let factor = b[l + k * j];
                (0..m).for_each(|i| c[i + m * j] = c[i + m * j] + a[i + m * l] * factor);
            }
        }
        c
    }
}

impl Field for f64 {
    fn constant(v: f64) -> f64 {
        v
    }
    fn value(self) -> f64 {
        self
    }
    fn slopes(self) -> [f64; 2] {
        [0.0; 2]
    }
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
    fn product(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
        let mut c = vec![0.0; m * n];
        super::matrix::gemm(&mut c, a, b, m, k, n, false);
        c
    }
}

/// A value and its derivative along one direction.
#[derive(Clone, Copy, Debug)]
pub(super) struct Dual {
    pub v: f64,
    pub d: f64,
}

impl Add for Dual {
    type Output = Dual;
    fn add(self, o: Dual) -> Dual {
        Dual { v: self.v + o.v, d: self.d + o.d }
    }
}

impl Sub for Dual {
    type Output = Dual;
    fn sub(self, o: Dual) -> Dual {
        Dual { v: self.v - o.v, d: self.d - o.d }
    }
}

impl Mul for Dual {
    type Output = Dual;
    fn mul(self, o: Dual) -> Dual {
        Dual { v: self.v * o.v, d: self.d * o.v + self.v * o.d }
    }
}

impl Div for Dual {
    type Output = Dual;
    fn div(self, o: Dual) -> Dual {
        let v = self.v / o.v;
        Dual { v, d: (self.d - v * o.d) / o.v }
    }
}

impl Neg for Dual {
    type Output = Dual;
    fn neg(self) -> Dual {
        Dual { v: -self.v, d: -self.d }
    }
}

impl Field for Dual {
    fn constant(v: f64) -> Dual {
        Dual { v, d: 0.0 }
    }
    fn value(self) -> f64 {
        self.v
    }
    fn slopes(self) -> [f64; 2] {
        [self.d, 0.0]
    }
    fn sqrt(self) -> Dual {
        let v = self.v.sqrt();
        Dual { v, d: self.d / (2.0 * v) }
    }
}

/// `v + a e1 + b e2 + ab e1 e2` with `e1^2 = e2^2 = 0`: a function of it carries its derivatives along
/// the two directions in a and b, and the mixed second derivative in ab (exactly, as no step is taken).
#[derive(Clone, Copy, Debug)]
pub(super) struct HyperDual {
    v: f64,
    a: f64,
    b: f64,
    ab: f64,
}

impl HyperDual {
    /// `f(self)` for a scalar function with `f(v) = value`, `f'(v) = first`, `f''(v) = second`.
    fn chain(self, value: f64, first: f64, second: f64) -> HyperDual {
        HyperDual { v: value, a: first * self.a, b: first * self.b, ab: first * self.ab + second * self.a * self.b }
    }
}

impl Add for HyperDual {
    type Output = HyperDual;
    fn add(self, o: HyperDual) -> HyperDual {
        HyperDual { v: self.v + o.v, a: self.a + o.a, b: self.b + o.b, ab: self.ab + o.ab }
    }
}

impl Sub for HyperDual {
    type Output = HyperDual;
    fn sub(self, o: HyperDual) -> HyperDual {
        self + -o
    }
}

impl Mul for HyperDual {
    type Output = HyperDual;
    fn mul(self, o: HyperDual) -> HyperDual {
        HyperDual {
            v: self.v * o.v,
            a: self.a * o.v + self.v * o.a,
            b: self.b * o.v + self.v * o.b,
            ab: self.ab * o.v + self.a * o.b + self.b * o.a + self.v * o.ab,
        }
    }
}

impl Div for HyperDual {
    type Output = HyperDual;
    /// From `self = q o`, part by part: the value is f64's quotient, so that a kernel's choices (pivots,
    /// zero tests) on hyper-duals are those of its run on f64.
    fn div(self, o: HyperDual) -> HyperDual {
        let v = self.v / o.v;
        let (a, b) = ((self.a - v * o.a) / o.v, (self.b - v * o.b) / o.v);
        HyperDual { v, a, b, ab: (self.ab - v * o.ab - a * o.b - b * o.a) / o.v }
    }
}

impl Neg for HyperDual {
    type Output = HyperDual;
    fn neg(self) -> HyperDual {
        HyperDual { v: -self.v, a: -self.a, b: -self.b, ab: -self.ab }
    }
}

impl Field for HyperDual {
    fn constant(v: f64) -> HyperDual {
        HyperDual { v, a: 0.0, b: 0.0, ab: 0.0 }
    }
    fn value(self) -> f64 {
        self.v
    }
    fn slopes(self) -> [f64; 2] {
        [self.a, self.b]
    }
    fn sqrt(self) -> HyperDual {
        let root = self.v.sqrt();
        self.chain(root, 0.5 / root, -0.25 / (root * self.v))
    }
}

/// The second-order term of a result computed by `kernel` from its first operand's entries (the
/// others are constants): for each tangent direction dA and each entry a_i, `sum_k ybar_k d2y_k /
/// (da_i ddA)`, the kernel run on hyper-duals with e1 along a_i and e2 along dA. Exact, at the cost of
/// numel(A) kernel runs per direction.
pub(super) fn kernel_second_order(t: &Tangents, kernel: impl Fn(&[HyperDual]) -> Result<Vec<HyperDual>>) -> Result<Adjoints> {
    if t.tangents[0].is_none() || !t.wanted[0] {
        return Ok(vec![None; t.inputs.len()]);
    }
    kernel_second_order_at(t, &super::matrix::matrix_2d("", t.inputs[0])?.data, kernel)
}

/// `kernel_second_order` with the first operand's entries given (a sparse operand's stored entries).
pub(super) fn kernel_second_order_at(
    t: &Tangents,
    values: &[f64],
    kernel: impl Fn(&[HyperDual]) -> Result<Vec<HyperDual>>,
) -> Result<Adjoints> {
    let mut terms = vec![None; t.inputs.len()];
    let Some(da) = t.tangents[0].filter(|_| t.wanted[0]) else { return Ok(terms) };
    let n = values.len();
    let mut term = Vec::with_capacity(n * t.directions);
    for j in 0..t.directions {
        let direction = da.column(j);
        let mut entries: Vec<HyperDual> = values.iter().zip(direction).map(|(&v, &b)| HyperDual { v, a: 0.0, b, ab: 0.0 }).collect();
        for i in 0..n {
            entries[i].a = 1.0;
            let result = kernel(&entries)?;
            term.push(result.iter().zip(t.adjoint).map(|(y, w)| y.ab * w).sum());
            entries[i].a = 0.0;
        }
        interrupt::stop_if_requested();
    }
    terms[0] = Some(term);
    Ok(terms)
}

#[cfg(test)]
mod tests {
    use super::{Field, HyperDual};

    /// `f(x, y) = sqrt(x * y) / (x - y)`: the e1 e2 part against the exact mixed partial.
    #[test]
    fn hyper_duals_carry_the_mixed_second_derivative() {
        let (x, y) = (3.0, 1.5);
        let hx = HyperDual { v: x, a: 1.0, b: 0.0, ab: 0.0 };
        let hy = HyperDual { v: y, a: 0.0, b: 1.0, ab: 0.0 };
        let f = (hx * hy).sqrt() / (hx - hy);
        let g = |x: f64, y: f64| (x * y).sqrt() / (x - y);
        let h = 1e-4;
        let mixed = (g(x + h, y + h) - g(x + h, y - h) - g(x - h, y + h) + g(x - h, y - h)) / (4.0 * h * h);
        assert!((f.value() - g(x, y)).abs() < 1e-15);
        assert!((f.ab - mixed).abs() < 1e-6, "{} {mixed}", f.ab);
    }
}
