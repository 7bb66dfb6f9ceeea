//! `legendre(n, x [, normalization])`: the associated Legendre functions P_n^m(x), m = 0..n, as the
//! rows of the result (one column per element of x), with Octave's normalisations: 'unnorm' (the
//! default, with the Condon-Shortley phase (-1)^m), 'sch' and 'norm'. The derivative in x is carried
//! through the three-term recurrence in m's column (value, slope and curvature together); n is a
//! constant.

use super::{all, constant_operand, unsupported};
use crate::diag::Result;
use crate::primitives::elementwise::numeric;
use crate::primitives::second_order::SecondOrder;
use crate::primitives::{Forward, Hessian, PatternRule, Prim, Primitive, check_arity, general, runtime};
use crate::value::deriv::{Deriv, RowOperator};
use crate::value::memory;
use crate::value::{Array, Value};

primitive_names! {
    Legendre = "legendre",
}

/// The largest degree msad evaluates (beyond it the unnormalised functions overflow).
const MAX_DEGREE: f64 = 1000.0;

pub(super) fn entry() -> Primitive {
    general(Prim::Legendre, eval_legendre, forward_legendre).pattern(PatternRule::Structural).hessian(Hessian::Own(|_, taped| {
        match taped.first() == Some(&true) {
            true => Err(constant_operand(Prim::Legendre, 0, "degree N")),
            false => Ok(SecondOrder::OfOneOperand(1, curvatures)),
        }
    }))
}

#[derive(Clone, Copy, PartialEq)]
enum Normalization {
    Unnormalized,
    Schmidt,
    Normalized,
}

struct Call<'v> {
    n: usize,
    x: std::borrow::Cow<'v, Array<f64>>,
    normalization: Normalization,
    dims: Vec<usize>,
}

impl<'v> Call<'v> {
    fn new(args: &[&'v Value]) -> Result<Call<'v>> {
        check_arity("legendre", args, 2, 3)?;
        let n = numeric("legendre", args[0])?;
        if n.numel() != 1 || n.data[0] < 0.0 || n.data[0].fract() != 0.0 {
            return Err(runtime("legendre: N must be a real non-negative integer"));
        }
        if n.data[0] > MAX_DEGREE {
            return Err(unsupported("legendre", &format!("msad evaluates degrees N up to {MAX_DEGREE}")));
        }
        let normalization = match args.get(2).map(|v| v.as_string().map(|s| s.to_lowercase())) {
            None => Normalization::Unnormalized,
            Some(Some(s)) if s == "unnorm" => Normalization::Unnormalized,
            Some(Some(s)) if s == "sch" => Normalization::Schmidt,
            Some(Some(s)) if s == "norm" => Normalization::Normalized,
            Some(_) => return Err(runtime("legendre: expecting NORMALIZATION option to be \"norm\", \"sch\", or \"unnorm\"")),
        };
        let x = numeric("legendre", args[1])?;
        if !all(&x, |v| (-1.0..=1.0).contains(&v)) {
            return Err(runtime("legendre: X must be real-valued vector in the range -1 <= X <= 1"));
        }
        let n = n.data[0] as usize;
        let vector = x.dims.len() == 2 && (x.dims[0] == 1 || x.dims[1] == 1);
        let dims = if vector { vec![n + 1, x.numel()] } else { std::iter::once(n + 1).chain(x.dims.iter().copied()).collect() };
        memory::ensure_dims(&dims, 3 * size_of::<f64>());
        Ok(Call { n, x, normalization, dims })
    }

    /// The factor of row m: 1 unnormalised; (-1)^m sqrt(c (n-m)!/(n+m)!) with c = 2 ('sch', m > 0) or
    /// n + 1/2 ('norm').
    fn scale(&self, m: usize) -> f64 {
        let c = match self.normalization {
            Normalization::Unnormalized => return 1.0,
            Normalization::Schmidt if m == 0 => return 1.0,
            Normalization::Schmidt => 2.0,
            Normalization::Normalized => self.n as f64 + 0.5,
        };
        let ratio: f64 = (self.n - m + 1..=self.n + m).map(|k| 1.0 / k as f64).product();
        let phase = if m.is_multiple_of(2) { 1.0 } else { -1.0 };
        phase * (c * ratio).sqrt()
    }

    /// `(P, dP/dx, d2P/dx2)` of every row at x.
    fn column(&self, x: f64) -> Vec<[f64; 3]> {
        (0..=self.n).map(|m| scaled(associated(self.n, m, x), self.scale(m))).collect()
    }
}

fn scaled(p: [f64; 3], s: f64) -> [f64; 3] {
    p.map(|v| v * s)
}

/// `(P_m^m, dP_m^m/dx, d2P_m^m/dx2)` of (-1)^m (2m - 1)!! (1 - x^2)^(m/2) (infinite slope at x = +-1
/// for m = 1).
fn sectoral(m: usize, x: f64) -> [f64; 3] {
    if m == 0 {
        return [1.0, 0.0, 0.0];
    }
    let double_factorial: f64 = (1..=m).map(|k| (2 * k - 1) as f64).product();
    let c = if m.is_multiple_of(2) { double_factorial } else { -double_factorial };
    let (v, e) = (1.0 - x * x, m as f64 / 2.0);
    // d2/dx2 v^e = 4 e (e - 1) x^2 v^(e-2) - 2 e v^(e-1), for v = 1 - x^2; the first term is 0 for m = 2.
    let bent = if m == 2 { 0.0 } else { 4.0 * e * (e - 1.0) * x * x * v.powf(e - 2.0) };
    [c * v.powf(e), -2.0 * c * e * x * v.powf(e - 1.0), c * (bent - 2.0 * e * v.powf(e - 1.0))]
}

/// P_n^m(x) and its first two derivatives: (l - m) P_l = (2l - 1) x P_(l-1) - (l + m - 1) P_(l-2),
/// from P_m^m, differentiated along.
fn associated(n: usize, m: usize, x: f64) -> [f64; 3] {
    let mut below = [0.0; 3];
    let mut at = sectoral(m, x);
    for l in m + 1..=n {
        let (a, b, c) = ((2 * l - 1) as f64, (l + m - 1) as f64, (l - m) as f64);
        let next = [
            (a * x * at[0] - b * below[0]) / c,
            (a * (at[0] + x * at[1]) - b * below[1]) / c,
            (a * (2.0 * at[1] + x * at[2]) - b * below[2]) / c,
        ];
        below = at;
        at = next;
    }
    at
}

/// Per result element, its element of x and the second derivative there.
fn curvatures(args: &[&Value]) -> Result<Vec<(usize, f64)>> {
    let call = Call::new(args)?;
    Ok(call.x.data.iter().enumerate().flat_map(|(i, &x)| call.column(x).into_iter().map(move |p| (i, p[2]))).collect())
}

fn eval_legendre(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let call = Call::new(args)?;
    let mut data = Vec::with_capacity(call.dims.iter().product());
    for &x in &call.x.data {
        data.extend(call.column(x).iter().map(|p| p[0]));
    }
    Ok(vec![Value::Double(Array::new(call.dims.clone(), data))])
}

fn forward_legendre(fw: &Forward) -> Result<Deriv> {
    if !fw.derivs[0].is_zero() || fw.derivs.get(2).is_some_and(|d| !d.is_zero()) {
        return Err(constant_operand(Prim::Legendre, 0, "degree N"));
    }
    let call = Call::new(fw.inputs)?;
    let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    for (i, &x) in call.x.data.iter().enumerate() {
        for p in call.column(x) {
            op.src.push(i);
            op.coef.push(p[1]);
            op.ptr.push(op.src.len());
        }
    }
    Ok(fw.derivs[1].apply(&op))
}
