//! Second-order (Hessian) terms through complex values (the real ones: `primitives::second_order`).
//!
//! A complex value's adjoint stacks its real parts' rows over its imaginary parts' (as its derivative
//! block). Read as one complex adjoint `wbar = ubar + i vbar` per element, the reverse rule of a
//! holomorphic `y = g(w)` is `wbar = conj(g'(w)) ybar`, so its term along a tangent `dw` is
//! `conj(g''(w) dw) ybar`; binary operators take their second partials the same way. A real operand
//! is its complex self with a real tangent, and keeps the real part of its term.
//! - `abs`, `angle`: real functions of `(u, v)`; the term is the adjoint times their 2 x 2 Hessian in
//!   the parts (zero at z = 0, as the first-order rules).
//! - `A * B` of matrices: the reverse rule with the other operand replaced by its tangent.
//! - `A \ B`, `B / A` of matrices: the real rules of `matrix_second_order` with conjugate transposes.
//! - Linear rules (`real`, `imag`, `conj`, sums, indexing, concatenation, `fft`, products and
//!   quotients linear in the operands that depend on x): none.

use super::derivative::{Rule, complex_data, holomorphic, is_complex, power_below, rule};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::primitives::matrix_second_order::matrix_pairs;
use crate::primitives::reverse::Adjoints;
use crate::primitives::second_order::{Element, Pairing, SecondOrder, Tangents, bilinear, interactions as real_interactions};
use crate::primitives::{Prim, PrimId, row_maps};
use crate::value::{Array, Complex64, Value};

type C = Complex64;

const ZERO: C = C::new(0.0, 0.0);
const ONE: C = C::new(1.0, 0.0);

/// The second-order kind of a step on complex values whose operands `taped` depend on x: none where
/// its rule is linear in them.
pub(crate) fn second_order(id: PrimId, operands: &[&Value], taped: &[bool]) -> Result<SecondOrder> {
    let only = |k: usize| taped.iter().enumerate().all(|(i, &t)| !t || i == k);
    let all = taped.iter().all(|&t| t);
    let nonlinear = match rule(id, operands)? {
        Rule::Polar | Rule::Holomorphic => true,
        Rule::Elementwise(Prim::Plus | Prim::Minus) => false,
        Rule::Elementwise(Prim::Times) | Rule::Bilinear => all,
        Rule::Elementwise(Prim::Rdivide) => !only(0),
        Rule::Elementwise(Prim::Ldivide) => !only(1),
        Rule::Elementwise(_) => true,
        Rule::Solve => taped[0],
        Rule::RightSolve => taped[1],
        Rule::Eigenvalues => {
            return Err(Diagnostic::new(ErrorKind::NotDifferentiable, "eig: msad has no second derivative of complex eigenvalues")
                .with_hint("ask for the gradient (two outputs), or for the Hessian of a function of real eigenvalues"));
        }
        _ => false,
    };
    Ok(if nonlinear { SecondOrder::Complex } else { SecondOrder::Zero })
}

/// Per wanted operand, its second-order contribution to the adjoint tangents (`adjoint rows x p`).
pub(crate) fn second_order_term(id: PrimId, t: &Tangents) -> Result<Adjoints> {
    match rule(id, t.inputs)? {
        Rule::Holomorphic => Ok(vec![holomorphic_term(id, t)]),
        Rule::Polar => Ok(vec![polar_term(id, t)]),
        Rule::Elementwise(op) => Ok(elementwise_term(op, t)),
        Rule::Bilinear => bilinear(id, t),
        Rule::Solve => solve_term(t, false),
        Rule::RightSolve => solve_term(t, true),
        _ => Ok(vec![None; t.inputs.len()]),
    }
}

/// The complex elements of a value from its adjoint rows (real parts over imaginary parts; a real
/// value's rows are its real parts).
fn from_rows(value: &Value, rows: &[f64]) -> Vec<C> {
    let m = value.numel();
    match value {
        Value::Complex(_) => (0..m).map(|i| C::new(rows[i], rows[m + i])).collect(),
        _ => rows[..m].iter().map(|&r| C::new(r, 0.0)).collect(),
    }
}

/// `value` with its elements replaced by those of `rows` (its adjoint rows or tangent column).
pub(crate) fn with_rows(value: &Value, rows: &[f64]) -> Value {
    let elements = Array::new(value.dims(), from_rows(value, rows));
    match value {
        Value::Complex(_) => Value::Complex(elements),
        _ => Value::Double(elements.map(|z| z.re)),
    }
}

/// The tangents of operand k as complex elements, direction by direction (None: constant operand).
fn tangents_of(t: &Tangents, k: usize) -> Option<Vec<Vec<C>>> {
    let d = t.tangents[k]?;
    Some((0..t.directions).map(|j| from_rows(t.inputs[k], d.column(j))).collect())
}

/// An operand's term, `adjoint rows x p`: a complex contribution adds its real part to the element's
/// real row and, for a complex operand, its imaginary part to the imaginary row.
struct Term {
    numel: usize,
    rows: usize,
    complex: bool,
    data: Vec<f64>,
}

impl Term {
    fn new(operand: &Value, directions: usize) -> Term {
        let (numel, complex) = (operand.numel(), is_complex(operand));
        let rows = if complex { 2 * numel } else { numel };
        Term { numel, rows, complex, data: vec![0.0; rows * directions] }
    }

    fn add(&mut self, element: usize, direction: usize, c: C) {
        let at = direction * self.rows + element;
        self.data[at] += c.re;
        if self.complex {
            self.data[at + self.numel] += c.im;
        }
    }

    /// Adds a whole direction's contribution, element by element.
    fn add_column(&mut self, direction: usize, value: &Value) {
        let c = complex_data(value);
        c.data.iter().enumerate().for_each(|(i, &c)| self.add(i, direction, c));
    }
}

/// `conj(g''(w) dw) ybar`.
fn holomorphic_term(id: PrimId, t: &Tangents) -> Option<Vec<f64>> {
    let dw = tangents_of(t, 0)?;
    let second = holomorphic(id).expect("a holomorphic rule").second;
    let (w, z, ybar) = (complex_data(t.inputs[0]), complex_data(t.output), from_rows(t.output, t.adjoint));
    let weights: Vec<C> = (0..w.numel()).map(|i| second(w.data[i], z.data[i])).collect();
    let mut term = Term::new(t.inputs[0], t.directions);
    for (j, dw) in dw.iter().enumerate() {
        (0..w.numel()).for_each(|i| term.add(i, j, (weights[i] * dw[i]).conj() * ybar[i]));
    }
    Some(term.data)
}

/// The adjoint times the Hessian of `|z|` or `angle(z)` in `(u, v)` along `(du, dv)`.
fn polar_term(id: PrimId, t: &Tangents) -> Option<Vec<f64>> {
    let dz = tangents_of(t, 0)?;
    let z = complex_data(t.inputs[0]);
    let mut term = Term::new(t.inputs[0], t.directions);
    for (i, z) in z.data.iter().enumerate() {
        let (u, v, r2) = (z.re, z.im, z.norm_sqr());
        if r2 == 0.0 {
            continue;
        }
        let [uu, uv, vv] = match id {
            Prim::Abs => [v * v, -u * v, u * u].map(|h| h / (r2 * r2.sqrt())),
            _ => [2.0 * u * v, v * v - u * u, -2.0 * u * v].map(|h| h / (r2 * r2)),
        };
        let weight = t.adjoint[i];
        for (j, dz) in dz.iter().enumerate() {
            let (du, dv) = (dz[i].re, dz[i].im);
            term.add(i, j, C::new(uu * du + uv * dv, uv * du + vv * dv) * weight);
        }
    }
    Some(term.data)
}

/// Second partials `(d2z/da2, d2z/da db, d2z/db2)` of an elementwise operator at `(a, b, z)`.
fn second_partials(op: Prim) -> fn(C, C, C) -> (C, C, C) {
    match op {
        Prim::Times => |_, _, _| (ZERO, ONE, ZERO),
        Prim::Rdivide => |_, b: C, z: C| (ZERO, -(b * b).inv(), z * 2.0 / (b * b)),
        Prim::Ldivide => |a: C, _, z: C| (z * 2.0 / (a * a), -(a * a).inv(), ZERO),
        Prim::Power => |a: C, b: C, z: C| {
            let log = a.ln();
            (power_below(a, b, 2) * b * (b - 1.0), power_below(a, b, 1) * (b * log + 1.0), z * log * log)
        },
        _ => |_, _, _| (ZERO, ZERO, ZERO),
    }
}

/// `conj(z_aa da + z_ab db) ybar` for a, `conj(z_ab da + z_bb db) ybar` for b; an operand expanded
/// to the result's size sums the terms of the elements it fed.
fn elementwise_term(op: Prim, t: &Tangents) -> Adjoints {
    let (a, b, z) = (complex_data(t.inputs[0]), complex_data(t.inputs[1]), complex_data(t.output));
    let (map_a, map_b) = row_maps(&a.dims, &b.dims, &z.dims);
    let (second, ybar) = (second_partials(op), from_rows(t.output, t.adjoint));
    let (da, db) = (tangents_of(t, 0), tangents_of(t, 1));
    let [mut term_a, mut term_b] = [0, 1].map(|k| t.wanted[k].then(|| Term::new(t.inputs[k], t.directions)));
    for (k, &zk) in z.data.iter().enumerate() {
        let (ia, ib) = (map_a.source(k), map_b.source(k));
        let (aa, ab, bb) = second(a.data[ia], b.data[ib], zk);
        for j in 0..t.directions {
            // Only the partials of operands with tangents: one that does not apply may be NaN (the
            // exponent's partials at a zero base).
            let (from_a, from_b) = match (&da, &db) {
                (Some(da), Some(db)) => (aa * da[j][ia] + ab * db[j][ib], ab * da[j][ia] + bb * db[j][ib]),
                (Some(da), None) => (aa * da[j][ia], ZERO),
                (None, Some(db)) => (ZERO, bb * db[j][ib]),
                (None, None) => (ZERO, ZERO),
            };
            if let Some(term) = &mut term_a {
                term.add(ia, j, from_a.conj() * ybar[k]);
            }
            if let Some(term) = &mut term_b {
                term.add(ib, j, from_b.conj() * ybar[k]);
            }
        }
    }
    vec![term_a.map(|term| term.data), term_b.map(|term| term.data)]
}

fn apply(op: Prim, args: &[&Value]) -> Result<Value> {
    Ok(crate::primitives::eval(op, args, 1)?.swap_remove(0))
}

fn negated(value: &Value) -> Value {
    let c = complex_data(value);
    Value::Complex(c.map(|z| -*z))
}

/// `Y = A \ B` (`right`: `Y = B / A`), with `Bbar = A^H \ Ybar`, `Abar = -Bbar Y^H` (`Ybar / A^H`,
/// `-Y^H Bbar`): along `(dA, dB)`, with `dY = A \ (dB - dA Y)` (`(dB - Y dA) / A`),
/// `dBbar = -A^H \ (dA^H Bbar)` (`-(Bbar dA^H) / A^H`) and `dAbar = -(dBbar Y^H + Bbar dY^H)`
/// (`-(dY^H Bbar + Y^H dBbar)`).
fn solve_term(t: &Tangents, right: bool) -> Result<Adjoints> {
    let (ka, kb) = if right { (1, 0) } else { (0, 1) };
    let (a, y) = (t.inputs[ka], t.output);
    let mut terms: Vec<Option<Term>> = (0..2).map(|k| t.wanted[k].then(|| Term::new(t.inputs[k], t.directions))).collect();
    let Some(da) = t.tangents[ka] else { return Ok(vec![None, None]) };
    let solve = |a: &Value, b: &Value| if right { apply(Prim::Mrdivide, &[b, a]) } else { apply(Prim::Mldivide, &[a, b]) };
    // `a b` read from the left for `A\B`, from the right for `B/A`.
    let times = |a: &Value, b: &Value| if right { apply(Prim::Mtimes, &[b, a]) } else { apply(Prim::Mtimes, &[a, b]) };
    let ah = apply(Prim::Ctranspose, &[a])?;
    let yh = apply(Prim::Ctranspose, &[y])?;
    let bbar = solve(&ah, &with_rows(y, t.adjoint))?;
    for j in 0..t.directions {
        let da = with_rows(a, da.column(j));
        let change = times(&da, y)?;
        let rhs = match t.tangents[kb] {
            Some(db) => apply(Prim::Minus, &[&with_rows(t.inputs[kb], db.column(j)), &change])?,
            None => negated(&change),
        };
        let dy = solve(a, &rhs)?;
        let dbbar = negated(&solve(&ah, &times(&apply(Prim::Ctranspose, &[&da])?, &bbar)?)?);
        let dyh = apply(Prim::Ctranspose, &[&dy])?;
        let dabar = apply(Prim::Plus, &[&times(&dbbar, &yh)?, &times(&bbar, &dyh)?])?;
        if let Some(term) = &mut terms[ka] {
            term.add_column(j, &negated(&dabar));
        }
        if let Some(term) = &mut terms[kb] {
            term.add_column(j, &dbbar);
        }
    }
    Ok(terms.into_iter().map(|term| term.map(|term| term.data)).collect())
}

/// Calls `pair(u, v)` for the pairs of operand rows (see `rows`) a step on complex values makes
/// interact: the real and imaginary parts of each element that interacts (`second_order::interactions`).
pub(crate) fn interactions(id: PrimId, inputs: &[&Value], output: &Value, taped: &[bool], pair: &mut dyn FnMut(Element, Element)) {
    let rows = |(k, e): Element| {
        let imaginary = is_complex(inputs[k]).then_some((k, e + inputs[k].numel()));
        std::iter::once((k, e)).chain(imaginary)
    };
    let mut expanded = |u: Element, v: Element| rows(u).for_each(|r| rows(v).for_each(|s| pair(r, s)));
    let Ok(kind) = rule(id, inputs) else { return };
    match kind {
        Rule::Holomorphic | Rule::Polar => (0..inputs[0].numel()).for_each(|i| expanded((0, i), (0, i))),
        Rule::Elementwise(op) => {
            let (map_a, map_b) = row_maps(&inputs[0].dims(), &inputs[1].dims(), &output.dims());
            for k in 0..output.numel() {
                let (a, b) = ((0, map_a.source(k)), (1, map_b.source(k)));
                expanded(a, b);
                if op != Prim::Times {
                    expanded(a, a);
                    expanded(b, b);
                }
            }
        }
        Rule::Bilinear => real_interactions(id, SecondOrder::Bilinear(Pairing::MatrixProduct), inputs, output, taped, expanded),
        Rule::Solve | Rule::RightSolve => {
            let numel: Vec<usize> = inputs.iter().map(|v| v.numel()).collect();
            matrix_pairs(id, &numel, &mut expanded);
        }
        _ => {}
    }
}
