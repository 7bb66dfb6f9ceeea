//! `interp1` (linear) and `polyval`, differentiable with respect to every numeric argument: the sample
//! points, the sample values and the query points (interp1), the coefficients and the points (polyval).

use super::elementwise::numeric;
use super::reverse::Adjoints;
use super::second_order::{Element, SecondOrder, Tangents};
use super::{Forward, Hessian, PatternRule, Prim, Primitive, general, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{self, Deriv, RowMap, RowOperator, combine};
use crate::value::interrupt;
use crate::value::{Array, Value};

primitive_names! {
    Interp1 = "__interp1__",
    Polyval = "polyval",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        general(Prim::Interp1, eval_interp1, forward_interp1).hessian(Hessian::Own(|_, _| Ok(SecondOrder::Interpolation))),
        general(Prim::Polyval, eval_polyval, forward_polyval)
            .pattern(PatternRule::Structural)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Polynomial))),
    ]
}

/// Octave's NA ("missing"), the default value outside the sample range: a NaN with its own payload.
const NA: f64 = f64::from_bits(0x7FF8_40F4_4000_0000);

fn unsupported(what: String) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, what)
}

/// A parsed `interp1` call: samples sorted by increasing x (remembering each one's original position),
/// the queries and the treatment of queries outside the samples.
struct Interp1 {
    /// Argument positions of x (absent in `interp1(y, xi)`), y and xi.
    roles: (Option<usize>, usize, usize),
    x: Vec<f64>,
    order: Vec<usize>,
    y: Array<f64>,
    columns: usize,
    xi: Array<f64>,
    /// The value of queries outside the samples; None extrapolates.
    outside: Option<f64>,
    out_dims: Vec<usize>,
}

fn is_vector(dims: &[usize]) -> bool {
    dims.len() == 2 && (dims[0] == 1 || dims[1] == 1)
}

impl Interp1 {
    fn new(args: &[&Value]) -> Result<Interp1> {
        super::check_arity("interp1", args, 2, 6)?;
        let (mut xi_arg, mut outside) = (None, Some(NA));
        // A number after the method or 'extrap' is the outside value (`interp1(y, xi, 'linear', v)`).
        let first_text = args.iter().position(|a| a.as_string().is_some()).unwrap_or(args.len());
        for (i, arg) in args.iter().enumerate().skip(2) {
            match arg.as_string().map(|s| s.to_lowercase()) {
                Some(s) if s == "extrap" => outside = None,
                Some(s) if s == "linear" || s == "*linear" => {}
                Some(s) => {
                    return Err(unsupported(format!("interp1: method or option '{s}'")).with_hint("msad supports linear interpolation"));
                }
                None if xi_arg.is_none() && i < first_text => xi_arg = Some(i),
                None => outside = Some(numeric("interp1", arg)?.data.first().copied().unwrap_or(NA)),
            }
        }
        let roles = match xi_arg {
            Some(xi) => (Some(0), 1, xi),
            None => (None, 0, 1),
        };
        let y = numeric("interp1", args[roles.1])?.into_owned();
        if y.dims.len() > 2 {
            return Err(unsupported("interp1: N-D sample values".into()));
        }
        let (n, columns) = if is_vector(&y.dims) { (y.numel(), 1) } else { (y.dims[0], y.dims[1]) };
        let x = match roles.0 {
            Some(i) => numeric("interp1", args[i])?.data.clone(),
            None => (1..=n).map(|k| k as f64).collect(),
        };
        if x.len() < 2 || n < 2 {
            return Err(runtime("interp1: minimum of 2 points required in each dimension"));
        }
        if x.len() != n {
            return Err(runtime(format!("interp1: X has {} points but Y has {n}", x.len())));
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
        let x: Vec<f64> = order.iter().map(|&k| x[k]).collect();
        if x.windows(2).any(|w| w[0] >= w[1]) {
            return Err(unsupported("interp1: repeated sample points (discontinuities) or NaN in X".into()));
        }
        let xi = numeric("interp1", args[roles.2])?.into_owned();
        let out_dims = match (columns, is_vector(&xi.dims)) {
            (1, _) => xi.dims.clone(),
            (_, true) => vec![xi.numel(), columns],
            (_, false) => xi.dims.iter().copied().chain([columns]).collect(),
        };
        Ok(Interp1 { roles, x, order, y, columns, xi, outside, out_dims })
    }

    /// The interval (left sample, sorted) used for query q, or None when q gets the outside value.
    fn interval(&self, q: f64) -> Option<usize> {
        let n = self.x.len();
        let inside = q >= self.x[0] && q <= self.x[n - 1];
        if !inside && self.outside.is_some() {
            return None;
        }
        Some(self.x.partition_point(|&v| v <= q).saturating_sub(1).min(n - 2))
    }

    /// Original position of the sorted sample j of column c in y.
    fn y_index(&self, j: usize, c: usize) -> usize {
        self.order[j] + self.x.len() * c
    }

    /// `(value, slope, t)` for query q in column c on interval j, with `t = (q - x_j) / h`.
    fn linear(&self, q: f64, j: usize, c: usize) -> (f64, f64, f64) {
        let (y0, y1) = (self.y.data[self.y_index(j, c)], self.y.data[self.y_index(j + 1, c)]);
        let h = self.x[j + 1] - self.x[j];
        let slope = (y1 - y0) / h;
        (slope * (q - self.x[j]) + y0, slope, (q - self.x[j]) / h)
    }

    /// Visits the output elements as (output index, query index, column).
    fn elements(&self) -> impl Iterator<Item = (usize, usize, usize)> + use<> {
        let queries = self.xi.numel();
        (0..self.columns).flat_map(move |c| (0..queries).map(move |q| (q + queries * c, q, c)))
    }
}

fn eval_interp1(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let p = Interp1::new(args)?;
    let mut out = vec![0.0; p.out_dims.iter().product()];
    for (r, q, c) in p.elements() {
        let xq = p.xi.data[q];
        out[r] = p.interval(xq).map_or(p.outside.unwrap_or(NA), |j| p.linear(xq, j, c).0);
    }
    Ok(vec![Value::Double(Array::new(p.out_dims, out))])
}

fn empty_operator() -> RowOperator {
    RowOperator { ptr: vec![0], src: vec![], coef: vec![] }
}

/// One row operator per argument role (x, y, xi). When a query or the sample points move, the interval
/// can change, so sparse blocks get every sample's entries (coefficient 0 where unused).
fn forward_interp1(fw: &Forward) -> Result<Deriv> {
    let p = Interp1::new(fw.inputs)?;
    let (x_arg, y_arg, xi_arg) = p.roles;
    let dx = x_arg.map_or(&Deriv::Zero, |i| fw.derivs[i]);
    let moving = !dx.is_zero() || !fw.derivs[xi_arg].is_zero();
    let all_samples = moving && fw.derivs.iter().any(|d| matches!(d, Deriv::Sparse(_)));
    let n = p.x.len();
    let (mut op_x, mut op_y, mut op_xi) = (empty_operator(), empty_operator(), empty_operator());
    for (_, q, c) in p.elements() {
        let xq = p.xi.data[q];
        if all_samples {
            op_x.src.extend(0..n);
            op_y.src.extend((0..n).map(|j| j + n * c));
            op_x.coef.extend(std::iter::repeat_n(0.0, n));
            op_y.coef.extend(std::iter::repeat_n(0.0, n));
        }
        if let Some(j) = p.interval(xq) {
            let (_, slope, t) = p.linear(xq, j, c);
            op_x.src.extend([p.order[j], p.order[j + 1]]);
            op_x.coef.extend([slope * (t - 1.0), -slope * t]);
            op_y.src.extend([p.y_index(j, c), p.y_index(j + 1, c)]);
            op_y.coef.extend([1.0 - t, t]);
            op_xi.src.push(q);
            op_xi.coef.push(slope);
        } else if all_samples {
            op_xi.src.push(q);
            op_xi.coef.push(0.0);
        }
        for op in [&mut op_x, &mut op_y, &mut op_xi] {
            op.ptr.push(op.src.len());
        }
    }
    let terms = vec![dx.apply(&op_x), fw.derivs[y_arg].apply(&op_y), fw.derivs[xi_arg].apply(&op_xi)];
    Ok(deriv::sum(terms, op_y.rows()))
}

/// The second-order term of linear `interp1`. On interval j with ends a = x_j, b = x_(j+1), h = b - a,
/// values y0, y1, slope s and t = (q - a) / h, the value `y0 + s (q - a)` has the second partials below
/// (over a, b, y0, y1, q; zero between the values and for q with itself); each operand's term is the
/// result's adjoint times those partials times the tangents.
pub(super) fn interp1_second_order(t: &Tangents) -> Result<Adjoints> {
    let p = Interp1::new(t.inputs)?;
    let (x_arg, y_arg, xi_arg) = p.roles;
    let mut terms: Adjoints = vec![None; t.inputs.len()];
    for (r, q, c) in p.elements() {
        let xq = p.xi.data[q];
        let Some(j) = p.interval(xq) else { continue };
        let (_, s, tq) = p.linear(xq, j, c);
        let h = p.x[j + 1] - p.x[j];
        // Local variables a, b, y0, y1, q as (operand, element).
        let local = [
            x_arg.map(|i| (i, p.order[j])),
            x_arg.map(|i| (i, p.order[j + 1])),
            Some((y_arg, p.y_index(j, c))),
            Some((y_arg, p.y_index(j + 1, c))),
            Some((xi_arg, q)),
        ];
        let hessian = [
            [2.0 * s * (tq - 1.0), -s * (2.0 * tq - 1.0), 1.0 - tq, tq - 1.0, s],
            [-s * (2.0 * tq - 1.0), 2.0 * s * tq, tq, -tq, -s],
            [1.0 - tq, tq, 0.0, 0.0, -1.0],
            [tq - 1.0, -tq, 0.0, 0.0, 1.0],
            [s, -s, -1.0, 1.0, 0.0],
        ];
        for (u, &(op, element)) in local.iter().enumerate().filter_map(|(u, l)| l.as_ref().map(|l| (u, l))) {
            if !t.wanted[op] {
                continue;
            }
            let size = t.inputs[op].numel();
            let term = terms[op].get_or_insert_with(|| vec![0.0; size * t.directions]);
            for d in 0..t.directions {
                let along: f64 = local
                    .iter()
                    .enumerate()
                    .filter_map(|(v, l)| l.and_then(|(o, e)| t.tangents[o].map(|dv| hessian[u][v] * dv.get(e, d))))
                    .sum();
                term[d * size + element] += t.adjoint[r] * along / h;
            }
        }
    }
    Ok(terms)
}

/// The pairs linear `interp1` may combine, whatever interval each query falls in: the sample points
/// with each other and with the values of each column, each query with the sample points and the
/// values of its column.
pub(super) fn interp1_pairs(inputs: &[&Value], pair: &mut impl FnMut(Element, Element)) {
    let Ok(p) = Interp1::new(inputs) else { return };
    let (x_arg, y_arg, xi_arg) = p.roles;
    let n = p.x.len();
    let column = |c: usize| (0..n).map(move |j| (y_arg, j + n * c));
    if let Some(x) = x_arg {
        (0..n).for_each(|a| (a..n).for_each(|b| pair((x, a), (x, b))));
        (0..p.columns).for_each(|c| (0..n).for_each(|a| column(c).for_each(|y| pair((x, a), y))));
    }
    for (_, q, c) in p.elements() {
        column(c).for_each(|y| pair((xi_arg, q), y));
        x_arg.into_iter().for_each(|x| (0..n).for_each(|a| pair((xi_arg, q), (x, a))));
    }
}

/// `(p, x̂)` of a polyval call, x̂ = (x - mu(1)) / mu(2) when mu is given, and mu(2).
fn polyval_operands(args: &[&Value]) -> Result<(Vec<f64>, Array<f64>, f64)> {
    super::check_arity("polyval", args, 2, 4)?;
    let p = numeric("polyval", args[0])?;
    if !is_vector(&p.dims) && p.numel() != 0 {
        return Err(runtime("polyval: P must be a numeric floating point vector"));
    }
    let mut x = numeric("polyval", args[1])?.into_owned();
    let mut scale = 1.0;
    if let Some(mu) = args.get(3) {
        let mu = numeric("polyval", mu)?;
        if mu.numel() < 2 {
            return Err(runtime("polyval: MU must be numeric floating point with 2 values"));
        }
        x.data.iter_mut().for_each(|v| *v = (*v - mu.data[0]) / mu.data[1]);
        scale = mu.data[1];
    }
    Ok((p.data.clone(), x, scale))
}

fn eval_polyval(args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    if nargout > 1 {
        return Err(unsupported("polyval: the error estimate output".into()));
    }
    let (p, x, _) = polyval_operands(args)?;
    let y = if p.is_empty() {
        vec![0.0; x.numel()]
    } else {
        // Horner's scheme in Octave's order: y = p(1); y = y .* x + p(i). Long polynomials at many
        // points take long: ask about Ctrl-C between chunks.
        let mut y = Vec::with_capacity(x.numel());
        for chunk in x.data.chunks(interrupt::items_per_poll(p.len())) {
            y.extend(chunk.iter().map(|&v| p[1..].iter().fold(p[0], |y, &c| y * v + c)));
            if y.len() < x.numel() {
                interrupt::stop_if_requested();
            }
        }
        y
    };
    Ok(vec![Value::Double(Array::new(x.dims, y))])
}

/// The second-order term of `polyval` (MU constant). With `P(t) = sum_k p_k t^(n-1-k)` and `s = mu(2)`,
/// x_i's adjoint is `ybar_i P'(x̂_i) / s` and p_k's `sum_i ybar_i x̂_i^(n-1-k)`; their derivatives along
/// the tangents are `ybar_i (P''(x̂_i) dx_i / s^2 + sum_k dp_k e_k x̂_i^(e_k - 1) / s)` and
/// `sum_i ybar_i e_k x̂_i^(e_k - 1) dx_i / s`, with `e_k = n - 1 - k`.
pub(super) fn polyval_second_order(t: &Tangents) -> Result<Adjoints> {
    let (p, x, scale) = polyval_operands(t.inputs)?;
    let mut terms = vec![None; t.inputs.len()];
    let (n, m) = (p.len(), x.numel());
    if n == 0 {
        return Ok(terms);
    }
    // d/dt t^e_k at t = v.
    let slope = |v: f64, k: usize| match n - 1 - k {
        0 => 0.0,
        e => e as f64 * v.powi(e as i32 - 1),
    };
    // P''(v) by Horner's scheme for the value and both derivatives.
    let curvature = |v: f64| {
        let (mut y, mut d1, mut d2) = (p[0], 0.0, 0.0);
        for &c in &p[1..] {
            (d2, d1, y) = (d2 * v + 2.0 * d1, d1 * v + y, y * v + c);
        }
        d2
    };
    let (dp, dx) = (t.tangents[0], t.tangents[1]);
    if t.wanted[1] {
        let mut term = vec![0.0; m * t.directions];
        for j in 0..t.directions {
            for (i, &v) in x.data.iter().enumerate() {
                let from_x = dx.map_or(0.0, |dx| curvature(v) * dx.get(i, j) / (scale * scale));
                let from_p = dp.map_or(0.0, |dp| (0..n).map(|k| dp.get(k, j) * slope(v, k)).sum::<f64>() / scale);
                term[j * m + i] = t.adjoint[i] * (from_x + from_p);
            }
        }
        terms[1] = Some(term);
    }
    if let (true, Some(dx)) = (t.wanted[0], dx) {
        let term = (0..t.directions)
            .flat_map(|j| (0..n).map(move |k| (j, k)))
            .map(|(j, k)| x.data.iter().enumerate().map(|(i, &v)| t.adjoint[i] * slope(v, k) * dx.get(i, j)).sum::<f64>() / scale)
            .collect();
        terms[0] = Some(term);
    }
    Ok(terms)
}

/// The pairs of operand elements `polyval` multiplies: each point with itself and with each coefficient.
pub(super) fn polyval_pairs(inputs: &[&Value], pair: &mut impl FnMut(Element, Element)) {
    let (p, x) = (inputs[0].numel(), inputs[1].numel());
    for i in 0..x {
        pair((1, i), (1, i));
        (0..p).for_each(|k| pair((0, k), (1, i)));
    }
}

/// `dy = sum_k x̂^(n-1-k) dp_k + p'(x̂) dx / mu(2)`.
fn forward_polyval(fw: &Forward) -> Result<Deriv> {
    if fw.derivs.get(3).is_some_and(|d| !d.is_zero()) {
        return Err(Diagnostic::new(ErrorKind::NotDifferentiable, "msad has no derivative of polyval with respect to MU"));
    }
    let (p, x, scale) = polyval_operands(fw.inputs)?;
    let n = p.len();
    if n == 0 {
        return Ok(Deriv::Zero);
    }
    let mut powers = empty_operator();
    let mut slopes = Vec::with_capacity(x.numel());
    for &v in &x.data {
        let mut power = 1.0;
        for k in (0..n).rev() {
            powers.src.push(k);
            powers.coef.push(power);
            power *= v;
        }
        powers.ptr.push(powers.src.len());
        // Horner for the value and the derivative together.
        let (_, slope) = p[1..].iter().fold((p[0], 0.0), |(y, dy), &c| (y * v + c, dy * v + y));
        slopes.push(slope / scale);
    }
    let rows = x.numel();
    let from_x = combine(&[(&slopes, fw.derivs[1], &RowMap::Identity)], rows);
    Ok(deriv::sum(vec![fw.derivs[0].apply(&powers), from_x], rows))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, SHAPES, check, matrix, value};
    use crate::value::Value;

    fn samples(n: usize, rng: &mut Random) -> Value {
        let mut at = 0.0;
        matrix(
            1,
            n,
            &(0..n)
                .map(|_| {
                    at += 0.5 + rng.next().abs();
                    at
                })
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn linear_interpolation_matches_finite_differences() {
        let mut rng = Random::new(14);
        let x = samples(5, &mut rng);
        let range = |v: f64| 0.6 + 2.0 * (v + 1.0);
        for (m, n) in SHAPES.into_iter().chain([(0, 0)]) {
            let xi: Vec<f64> = (0..m * n).map(|_| range(rng.next())).collect();
            let xi = matrix(m, n, &xi);
            let y = rng.matrix(5, 1);
            for active in [&[0][..], &[1], &[2], &[0, 1, 2]] {
                check("__interp1__", &[x.clone(), y.clone(), xi.clone()], active);
                check("__interp1__", &[x.clone(), rng.matrix(5, 2), xi.clone(), Value::string("linear")], active);
                check("__interp1__", &[x.clone(), y.clone(), xi.clone(), Value::string("linear"), Value::string("extrap")], active);
            }
            check("__interp1__", &[y, xi], &[0, 1]);
        }
    }

    #[test]
    fn outside_points_and_unsorted_samples_follow_octave() {
        let out =
            value("__interp1__", &[matrix(1, 3, &[1.0, 2.0, 3.0]), matrix(1, 3, &[4.0, 5.0, 6.0]), matrix(1, 3, &[0.0, 2.5, 4.0])], 1);
        let v = out[0].numeric().unwrap().data.clone();
        assert!(v[0].is_nan() && v[0].to_bits() == super::NA.to_bits() && v[1] == 5.5 && v[2].is_nan());
        let out = value("__interp1__", &[matrix(1, 3, &[3.0, 1.0, 2.0]), matrix(1, 3, &[4.0, 5.0, 6.0]), matrix(1, 2, &[1.5, 2.5])], 1);
        assert_eq!(out[0].numeric().unwrap().data, vec![5.5, 5.0]);
        let extrapolated = value(
            "__interp1__",
            &[matrix(1, 3, &[1.0, 2.0, 3.0]), matrix(1, 3, &[4.0, 5.0, 6.0]), matrix(1, 2, &[0.0, 4.0]), Value::string("extrap")],
            1,
        );
        assert_eq!(extrapolated[0].numeric().unwrap().data, vec![3.0, 7.0]);
    }

    #[test]
    fn polynomials_match_finite_differences() {
        let mut rng = Random::new(15);
        for (m, n) in SHAPES.into_iter().chain([(0, 0)]) {
            let x = rng.matrix(m, n);
            for degree in [0, 1, 4] {
                let p = rng.matrix(1, degree + 1);
                check("polyval", &[p.clone(), x.clone()], &[0, 1]);
                let mu = matrix(2, 1, &[0.3, 1.7]);
                check("polyval", &[p, x.clone(), matrix(0, 0, &[]), mu], &[0, 1]);
            }
            check("polyval", &[matrix(0, 0, &[]), x.clone()], &[1]);
        }
    }

    #[test]
    fn polynomial_value() {
        let y = value("polyval", &[matrix(1, 3, &[1.0, 2.0, 3.0]), matrix(2, 2, &[1.0, 3.0, 2.0, 4.0])], 1);
        assert_eq!(y[0].numeric().unwrap().data, vec![6.0, 18.0, 11.0, 27.0]);
    }
}
