//! Forward derivatives through complex values. x is real, so each element `z = u + i v` of a complex
//! value that depends on x has a real derivative for `u` and one for `v`: the value's block stacks
//! them, rows `0..m` for the real parts and `m..2m` for the imaginary parts (`m = numel(z)`). The
//! sparse and dense algebra of `deriv`, sparsity detection, colouring and compression run on it
//! unchanged. Holomorphic functions follow `dz = f'(w) dw`; `abs`, `angle`, `conj`, `real` and `imag`
//! are defined through the real and imaginary parts, which is exact because x is real.

use super::super::{Derivative, Forward, Holomorphic, Kernel, Linearity, Prim, PrimId, get, linearity, output_is_differentiable, row_maps};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::{Coef, DenseDeriv, Deriv, RowMap, combine_terms};
use crate::value::{Array, Complex64, SparseMatrix, Value};
use std::borrow::Cow;

type C = Complex64;

/// Rows of the derivative block of `value`: two per element of a complex value.
pub(crate) fn rows(value: &Value) -> usize {
    match value {
        Value::Complex(a) => 2 * a.numel(),
        other => other.numel(),
    }
}

/// Whether a forward rule meets complex values: a complex result, or a complex operand with a derivative.
pub(crate) fn involved(fw: &Forward) -> bool {
    is_complex(fw.output) || fw.inputs.iter().zip(fw.derivs).any(|(v, d)| matches!(v, Value::Complex(_)) && !d.is_zero())
}

/// Functions that are piecewise constant on the reals but not on complex values: activity analysis
/// must let their results carry derivatives.
pub(crate) fn varies_on_complex(id: PrimId) -> bool {
    matches!(id, Prim::Imag | Prim::Angle | Prim::Arg)
}

/// Primitives whose result is real for complex operands.
fn real_valued(id: PrimId) -> bool {
    matches!(id, Prim::Real | Prim::Imag | Prim::Abs | Prim::Angle | Prim::Arg | Prim::Norm) || !output_is_differentiable(id, 0)
}

/// Whether the first result of `id`, computed from `operands` of which some depend on x, must stay
/// complex: Octave narrows a result whose imaginary parts are all zero, but their derivatives need not
/// be zero (`exp(1i * x)` at x = 0, `fft` of a symmetric x).
pub(crate) fn keeps_complex(id: PrimId, operands: &[&Value], result: &Value) -> bool {
    let complex_valued = matches!(id, Prim::Fft | Prim::Ifft) || operands.iter().any(|v| is_complex(v));
    matches!(result, Value::Double(_)) && complex_valued && !real_valued(id)
}

/// Whether a value is complex (full or sparse).
pub(crate) fn is_complex(value: &Value) -> bool {
    matches!(value, Value::Complex(_) | Value::ComplexSparse(_))
}

/// `value` as a complex value (zero imaginary parts).
pub(crate) fn widened(value: Value) -> Value {
    match value {
        Value::Double(a) => Value::Complex(a.map(|&x| C::new(x, 0.0))),
        other => other,
    }
}

/// The error for indexed assignment into a complex value that depends on x, met by reverse mode or a
/// Hessian.
pub(crate) fn on_tape(what: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Unsupported,
        format!("{what}: reverse mode and Hessians do not follow indexed assignment into complex values that depend on x"),
    )
    .with_hint(
        "J works as it is (forward mode); for g or a Hessian, build the complex value without indexed assignment \
        ([...], complex(re, im)) or assign its real and imaginary parts separately",
    )
}

/// The derivative of the first result of `id` where complex values are involved (see `involved`).
pub(crate) fn forward(id: PrimId, fw: &Forward) -> Result<Deriv> {
    if matches!(fw.output, Value::ComplexSparse(_)) {
        return Err(sparse_depends_on_x(id));
    }
    let m = fw.output.numel();
    match rule(id, fw.inputs)? {
        Rule::Real => Ok(half(fw.inputs[0], fw.derivs[0], Part::Re).into_owned()),
        Rule::Imag => Ok(half(fw.inputs[0], fw.derivs[0], Part::Im).into_owned()),
        Rule::Conj => Ok(conjugate(&stacked(fw.inputs[0], fw.derivs[0]), m)),
        Rule::Ctranspose => Ok(conjugate(&split_linear(Prim::Transpose, fw)?, m)),
        Rule::Polar => Ok(polar(id, fw)),
        Rule::Complex => forward_complex(fw),
        Rule::Elementwise(op) => elementwise(op, fw),
        Rule::Bilinear => bilinear(id, fw),
        Rule::Solve => solve(fw),
        Rule::RightSolve => right_solve(fw),
        Rule::Fourier => super::fft::forward(id, fw),
        Rule::Eigenvalues => super::super::decompositions::forward_complex_eigenvalues(fw),
        Rule::Holomorphic => unary(id, fw),
        Rule::Linear => split_linear(id, fw),
        Rule::Zero => Ok(Deriv::Zero),
    }
}

/// The rule that differentiates `id` on complex values: the forward rules and the second-order terms
/// (`second_order`) dispatch on it.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Rule {
    Real,
    Imag,
    Conj,
    Ctranspose,
    /// `abs`, `angle`, `arg`: real functions of the real and imaginary parts.
    Polar,
    Complex,
    /// An elementwise operator (`Plus`, `Minus`, `Times`, `Rdivide`, `Ldivide`, `Power`), also for the
    /// matrix operators with scalar operands.
    Elementwise(Prim),
    /// `A * B` of matrices.
    Bilinear,
    /// `A \ B` of matrices.
    Solve,
    /// `B / A` of matrices.
    RightSolve,
    Fourier,
    /// The eigenvalues of a real matrix, some of them complex.
    Eigenvalues,
    /// A holomorphic elementwise function (see `holomorphic`).
    Holomorphic,
    /// A linear primitive, on the real and imaginary parts apart.
    Linear,
    /// A result constant in the operands' values.
    Zero,
}

/// The rule of `id` on `inputs` (an error for a primitive without one).
pub(super) fn rule(id: PrimId, inputs: &[&Value]) -> Result<Rule> {
    if let Some(twin) = super::super::elementwise_twin(id, inputs) {
        return Ok(Rule::Elementwise(twin));
    }
    Ok(match id {
        Prim::Real => Rule::Real,
        Prim::Imag => Rule::Imag,
        Prim::Conj => Rule::Conj,
        Prim::Ctranspose => Rule::Ctranspose,
        Prim::Abs | Prim::Angle | Prim::Arg => Rule::Polar,
        Prim::Complex => Rule::Complex,
        Prim::Times | Prim::Plus | Prim::Minus | Prim::Rdivide | Prim::Ldivide | Prim::Power => Rule::Elementwise(id),
        Prim::Mtimes => Rule::Bilinear,
        Prim::Mldivide => Rule::Solve,
        Prim::Mrdivide => Rule::RightSolve,
        Prim::Fft | Prim::Ifft => Rule::Fourier,
        Prim::Eig if matches!(inputs.first(), Some(Value::Double(_))) => Rule::Eigenvalues,
        _ if holomorphic(id).is_some() => Rule::Holomorphic,
        _ if linearity(id) == Linearity::Additive || id == Prim::ForItem => Rule::Linear,
        _ if zero_on_complex(id) => Rule::Zero,
        _ => return Err(unsupported_derivative(id)),
    })
}

pub(crate) fn unsupported_derivative(id: PrimId) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("{}: msad has no derivative rule for complex values that depend on x", id.name()))
        .with_hint("apply it to real(...) and imag(...) of the value, or compute this part outside the differentiated function")
}

fn sparse_depends_on_x(id: PrimId) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("{}: complex sparse matrices that depend on x are not supported", id.name()))
        .with_hint("keep the complex sparse matrix constant (e.g. Ybus * V with V depending on x), or build it with full(...) values")
}

/// Results constant in the operands' values also for complex operands (sizes, comparisons, rounding
/// of each part); `sign` is not one (`z / abs(z)`).
fn zero_on_complex(id: PrimId) -> bool {
    match get(id).kernel {
        Kernel::Unary { df: None, .. } => id != Prim::Sign,
        Kernel::Predicate(_) | Kernel::General { derivative: Derivative::Zero, .. } => true,
        _ => false,
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Part {
    Re,
    Im,
}

/// The real or imaginary part of a value (an operand that is not complex is its own real part, and
/// keeps its value for the imaginary part's rule too: a linear rule reads only sizes and parameters).
fn part_value(value: &Value, part: Part) -> Cow<'_, Value> {
    match (value, part) {
        (Value::Complex(a), Part::Re) => Cow::Owned(Value::Double(a.map(|z| z.re))),
        (Value::Complex(a), Part::Im) => Cow::Owned(Value::Double(a.map(|z| z.im))),
        (Value::ComplexSparse(a), part) => Cow::Owned(Value::Sparse(a.part(part == Part::Im))),
        (other, _) => Cow::Borrowed(other),
    }
}

/// The derivative of the real or imaginary part of `value`, given its block.
fn half<'d>(value: &Value, deriv: &'d Deriv, part: Part) -> Cow<'d, Deriv> {
    let m = value.numel();
    match (value, part) {
        (Value::Complex(_), Part::Re) => Cow::Owned(deriv.gather(&RowMap::Identity, m)),
        (Value::Complex(_), Part::Im) => Cow::Owned(deriv.gather(&RowMap::Gather((m..2 * m).collect()), m)),
        (_, Part::Re) => Cow::Borrowed(deriv),
        (_, Part::Im) => Cow::Owned(Deriv::Zero),
    }
}

/// A complex value's block from the blocks of its real and imaginary parts (m elements).
fn stack(re: &Deriv, im: &Deriv, m: usize) -> Deriv {
    let (top, bottom): (Vec<usize>, Vec<usize>) = ((0..m).collect(), (m..2 * m).collect());
    Deriv::placed(&[(re, &top), (im, &bottom)], 2 * m)
}

/// The block of an operand as a complex value's (a real operand's stacked over a zero imaginary part).
fn stacked<'d>(value: &Value, deriv: &'d Deriv) -> Cow<'d, Deriv> {
    match value {
        Value::Complex(_) => Cow::Borrowed(deriv),
        real => Cow::Owned(stack(deriv, &Deriv::Zero, real.numel())),
    }
}

/// `conj` of a complex value's block: the imaginary parts' rows negated.
fn conjugate(block: &Deriv, m: usize) -> Deriv {
    let signs: Vec<f64> = (0..2 * m).map(|k| if k < m { 1.0 } else { -1.0 }).collect();
    combine_terms(&[(Coef::Each(&signs), block, &RowMap::Identity)], 2 * m)
}

/// A linear primitive on the real and imaginary parts apart: `d f(z) = f(du) + i f(dv)`.
fn split_linear(id: PrimId, fw: &Forward) -> Result<Deriv> {
    let re = real_rule(id, fw, Part::Re)?;
    let im = real_rule(id, fw, Part::Im)?;
    Ok(stack(&re, &im, fw.output.numel()))
}

/// The real rule of `id` on the real or imaginary parts of the operands and result.
fn real_rule(id: PrimId, fw: &Forward, part: Part) -> Result<Deriv> {
    let derivs: Vec<Cow<Deriv>> = fw.inputs.iter().zip(fw.derivs).map(|(v, d)| half(v, d, part)).collect();
    if derivs.iter().all(|d| d.is_zero()) {
        return Ok(Deriv::Zero);
    }
    let values: Vec<Cow<Value>> = fw.inputs.iter().map(|v| part_value(v, part)).collect();
    let output = part_value(fw.output, part);
    let (values, derivs): (Vec<&Value>, Vec<&Deriv>) = (values.iter().map(|v| &**v).collect(), derivs.iter().map(|d| &**d).collect());
    super::super::forward(id, &Forward { inputs: &values, derivs: &derivs, output: &output })
}

/// One term of a complex elementwise rule: output element k gets `coef[k] * d operand[map(k)]`.
struct Term<'a> {
    coef: Vec<C>,
    operand: &'a Value,
    deriv: &'a Deriv,
    map: RowMap,
}

/// `sum_t coef_t dw_t` over complex coefficients, on the stacked blocks: the real part of each product
/// is `Re c du - Im c dv`, its imaginary part `Im c du + Re c dv`.
fn combine_complex(terms: &[Term], m: usize) -> Deriv {
    let active: Vec<&Term> = terms.iter().filter(|t| !t.deriv.is_zero()).collect();
    if !active.is_empty() && active.iter().all(|t| matches!(t.deriv, Deriv::Dense(_))) {
        return combine_complex_dense(&active, m);
    }
    let mut real_terms: Vec<(Vec<f64>, &Deriv, RowMap)> = Vec::new();
    for t in terms.iter().filter(|t| !t.deriv.is_zero()) {
        let n = t.operand.numel();
        let twice = |offset: usize| RowMap::Gather((0..2 * m).map(|k| offset + t.map.source(k % m)).collect());
        let on_re: Vec<f64> = t.coef.iter().map(|c| c.re).chain(t.coef.iter().map(|c| c.im)).collect();
        real_terms.push((on_re, t.deriv, twice(0)));
        if matches!(t.operand, Value::Complex(_)) {
            let on_im: Vec<f64> = t.coef.iter().map(|c| -c.im).chain(t.coef.iter().map(|c| c.re)).collect();
            real_terms.push((on_im, t.deriv, twice(n)));
        }
    }
    let refs: Vec<(Coef, &Deriv, &RowMap)> = real_terms.iter().map(|(c, d, map)| (Coef::Each(c), *d, map)).collect();
    combine_terms(&refs, 2 * m)
}

/// `combine_complex` of dense blocks: one pass per term and direction writes the real and imaginary
/// rows together (four gathered real terms per complex operand would read the block four times).
fn combine_complex_dense(terms: &[&Term], m: usize) -> Deriv {
    fn dense<'a>(t: &Term<'a>) -> &'a DenseDeriv {
        match t.deriv {
            Deriv::Dense(d) => d,
            _ => unreachable!("dense terms"),
        }
    }
    let nd = dense(terms[0]).nd;
    let mut out = DenseDeriv::zeros(2 * m, nd);
    for t in terms {
        let (block, n) = (dense(t), t.operand.numel());
        let complex = matches!(t.operand, Value::Complex(_));
        for j in 0..nd {
            let (u, v) = block.column(j).split_at(if complex { n } else { block.rows });
            let (re, im) = out.column_mut(j).split_at_mut(m);
            match (&t.map, complex) {
                // The common case (operands of the result's shape) in loops that vectorise.
                (RowMap::Identity, true) => {
                    for ((((re, im), c), u), v) in re.iter_mut().zip(im.iter_mut()).zip(&t.coef).zip(u).zip(v) {
                        *re += c.re * u - c.im * v;
                        *im += c.im * u + c.re * v;
                    }
                }
                (RowMap::Identity, false) => {
                    for (((re, im), c), u) in re.iter_mut().zip(im.iter_mut()).zip(&t.coef).zip(u) {
                        *re += c.re * u;
                        *im += c.im * u;
                    }
                }
                (map, _) => {
                    for (k, c) in t.coef.iter().enumerate() {
                        let s = map.source(k);
                        let (u, v) = (u[s], if complex { v[s] } else { 0.0 });
                        re[k] += c.re * u - c.im * v;
                        im[k] += c.im * u + c.re * v;
                    }
                }
            }
        }
    }
    Deriv::Dense(out)
}

pub(super) fn complex_data(value: &Value) -> Cow<'_, Array<C>> {
    value.complex_parts().unwrap_or_else(|| Cow::Owned(Array::new(vec![0, 0], vec![])))
}

/// The derivatives of a holomorphic elementwise function: the complex facet of its record.
pub(super) fn holomorphic(id: PrimId) -> Option<Holomorphic> {
    super::super::get(id).complex?.holomorphic
}

fn unary(id: PrimId, fw: &Forward) -> Result<Deriv> {
    let df = holomorphic(id).ok_or_else(|| unsupported_derivative(id))?.first;
    let (w, z) = (complex_data(fw.inputs[0]), complex_data(fw.output));
    let coef = w.data.iter().zip(&z.data).map(|(&w, &z)| df(w, z)).collect();
    let term = Term { coef, operand: fw.inputs[0], deriv: fw.derivs[0], map: RowMap::Identity };
    Ok(combine_complex(&[term], z.numel()))
}

/// Partials `(dz/da, dz/db)` of an elementwise operator at `(a, b, z)`.
fn partials(id: PrimId) -> fn(C, C, C) -> (C, C) {
    match id {
        Prim::Plus => |_, _, _| (C::new(1.0, 0.0), C::new(1.0, 0.0)),
        Prim::Minus => |_, _, _| (C::new(1.0, 0.0), C::new(-1.0, 0.0)),
        Prim::Times => |a, b, _| (b, a),
        Prim::Rdivide => |_, b: C, z: C| (b.inv(), -z / b),
        Prim::Ldivide => |a: C, _, z: C| (-z / a, a.inv()),
        _ => |a: C, b: C, z: C| (power_partial(a, b), z * a.ln()),
    }
}

/// `d(a^b)/da = b a^(b-1)`, with integer powers of zero exact (`0^2` has derivative 0).
fn power_partial(a: C, b: C) -> C {
    power_below(a, b, 1) * b
}

/// `a^(b - k)`, by repeated multiplication for an integer b.
pub(super) fn power_below(a: C, b: C, k: i32) -> C {
    if b.im == 0.0 && b.re.fract() == 0.0 && b.re.abs() < f64::from(i32::MAX - k) {
        return a.powi(b.re as i32 - k);
    }
    a.powc(b - f64::from(k))
}

fn elementwise(id: PrimId, fw: &Forward) -> Result<Deriv> {
    let (a, b, z) = (complex_data(fw.inputs[0]), complex_data(fw.inputs[1]), complex_data(fw.output));
    let (map_a, map_b) = row_maps(&a.dims, &b.dims, &z.dims);
    let partial = partials(id);
    let (mut coef_a, mut coef_b) = (Vec::with_capacity(z.numel()), Vec::with_capacity(z.numel()));
    for (k, &z) in z.data.iter().enumerate() {
        let (pa, pb) = partial(a.data[map_a.source(k)], b.data[map_b.source(k)], z);
        coef_a.push(pa);
        coef_b.push(pb);
    }
    let terms = [
        Term { coef: coef_a, operand: fw.inputs[0], deriv: fw.derivs[0], map: map_a },
        Term { coef: coef_b, operand: fw.inputs[1], deriv: fw.derivs[1], map: map_b },
    ];
    Ok(combine_complex(&terms, z.numel()))
}

/// `abs`, `angle` of complex operands: `d|z| = (u du + v dv) / |z|`, `d angle z = (u dv - v du) / |z|^2`
/// (zero at z = 0, as the real rules' subgradient choice).
fn polar(id: PrimId, fw: &Forward) -> Deriv {
    let (value, deriv) = (fw.inputs[0], stacked(fw.inputs[0], fw.derivs[0]));
    let z = complex_data(value);
    let m = z.numel();
    let (on_re, on_im): (Vec<f64>, Vec<f64>) = z
        .data
        .iter()
        .map(|z| {
            let r2 = z.norm_sqr();
            match (id, r2 == 0.0) {
                (_, true) => (0.0, 0.0),
                (Prim::Abs, false) => (z.re / r2.sqrt(), z.im / r2.sqrt()),
                _ => (-z.im / r2, z.re / r2),
            }
        })
        .unzip();
    let bottom = RowMap::Gather((m..2 * m).collect());
    combine_terms(&[(Coef::Each(&on_re), &deriv, &RowMap::Identity), (Coef::Each(&on_im), &deriv, &bottom)], m)
}

/// `complex(a, b)`: the blocks of the real operands placed as the real and imaginary parts.
pub(super) fn forward_complex(fw: &Forward) -> Result<Deriv> {
    let m = fw.output.numel();
    let map = |k: usize| match fw.inputs.get(k) {
        Some(v) if v.numel() == 1 => RowMap::Scalar,
        _ => RowMap::Identity,
    };
    let re = fw.derivs[0].gather(&map(0), m);
    let im = fw.derivs.get(1).map_or(Deriv::Zero, |d| d.gather(&map(1), m));
    Ok(stack(&re, &im, m))
}

/// A product linear in each operand (`A * B` of matrices): `d(AB) = dA B + A dB`, each complex
/// product written with the real rule on real and imaginary parts (`(p + iq) r = pr + i qr`).
fn bilinear(id: PrimId, fw: &Forward) -> Result<Deriv> {
    if let ([Value::ComplexSparse(a), b], [da, Deriv::Dense(db)]) = (fw.inputs, fw.derivs)
        && da.is_zero()
    {
        return Ok(super::sparse::times_block(a, b, db));
    }
    let m = fw.output.numel();
    let output = part_value(fw.output, Part::Re);
    let mut terms: Vec<(f64, Deriv, Part)> = Vec::new();
    for active in 0..2 {
        let other = 1 - active;
        for d_part in [Part::Re, Part::Im] {
            let d = half(fw.inputs[active], fw.derivs[active], d_part);
            if d.is_zero() {
                continue;
            }
            for o_part in [Part::Re, Part::Im] {
                if o_part == Part::Im && !is_complex(fw.inputs[other]) {
                    continue;
                }
                let o = part_value(fw.inputs[other], o_part);
                let zero = Deriv::Zero;
                let mut values = [fw.inputs[0], fw.inputs[1]];
                values[other] = &o;
                let a_value = part_value(values[active], Part::Re);
                values[active] = &a_value;
                let mut derivs = [&zero, &zero];
                derivs[active] = &d;
                let product = super::super::forward(id, &Forward { inputs: &values, derivs: &derivs, output: &output })?;
                // (du + i dv)(p + i q): du p and -dv q real, du q and dv p imaginary.
                let (sign, part) = match (d_part, o_part) {
                    (Part::Re, Part::Re) => (1.0, Part::Re),
                    (Part::Im, Part::Im) => (-1.0, Part::Re),
                    (Part::Re, Part::Im) | (Part::Im, Part::Re) => (1.0, Part::Im),
                };
                terms.push((sign, product, part));
            }
        }
    }
    let sum_of = |part: Part| {
        let refs: Vec<(Coef, &Deriv, &RowMap)> =
            terms.iter().filter(|t| t.2 == part).map(|(s, d, _)| (Coef::Same(*s), d, &RowMap::Identity)).collect();
        combine_terms(&refs, m)
    };
    Ok(stack(&sum_of(Part::Re), &sum_of(Part::Im), m))
}

/// `base(subs)` of a complex value with a derivative: the real and imaginary parts apart.
pub(crate) fn index(value: &Value, deriv: &Deriv, select: impl Fn(&Value, &Deriv) -> Result<(Value, Deriv)>) -> Result<(Value, Deriv)> {
    let (re, d_re) = select(&part_value(value, Part::Re), &half(value, deriv, Part::Re))?;
    let (im, d_im) = select(&part_value(value, Part::Im), &half(value, deriv, Part::Im))?;
    Ok(joined(re, im, &d_re, &d_im))
}

/// The complex value of real and imaginary parts (never narrowed: it carries a derivative), and its block.
fn joined(re: Value, im: Value, d_re: &Deriv, d_im: &Deriv) -> (Value, Deriv) {
    let (Value::Double(re), Value::Double(im)) = (re, im) else { unreachable!("parts of complex values are doubles") };
    let m = re.numel();
    let data = re.data.iter().zip(&im.data).map(|(&r, &i)| C::new(r, i)).collect();
    (Value::Complex(Array::new(re.dims, data)), stack(d_re, d_im, m))
}

/// Whether `base(subs) = rhs` involves complex values with derivatives.
pub(crate) fn assignment_involved(base: Option<&(Value, Deriv)>, rhs: &Value, rhs_deriv: &Deriv) -> bool {
    let complex = |v: &Value| matches!(v, Value::Complex(_));
    let base_complex = base.is_some_and(|(v, _)| complex(v));
    let derivs = !rhs_deriv.is_zero() || base.is_some_and(|(_, d)| !d.is_zero());
    (base_complex || complex(rhs)) && derivs
}

type Assign<'a> = &'a dyn Fn(Option<(Value, Deriv)>, &Value, &Deriv) -> Result<(Value, Deriv)>;

/// `base(subs) = rhs` through the real and imaginary parts apart (a real rhs has zero imaginary parts).
pub(crate) fn assign(base: Option<(Value, Deriv)>, rhs: &Value, rhs_deriv: &Deriv, store: Assign) -> Result<(Value, Deriv)> {
    let part_of = |part: Part| -> Result<(Value, Deriv)> {
        let base = base.as_ref().map(|(v, d)| (imaginary_of_real(v, part), half(v, d, part).into_owned()));
        let rhs_value = imaginary_of_real(rhs, part);
        store(base, &rhs_value, &half(rhs, rhs_deriv, part))
    };
    let (re, d_re) = part_of(Part::Re)?;
    let (im, d_im) = part_of(Part::Im)?;
    Ok(joined(re, im, &d_re, &d_im))
}

/// A value's real or imaginary part as a double (zeros for the imaginary part of a real value).
fn imaginary_of_real(value: &Value, part: Part) -> Value {
    match (value, part) {
        (Value::Complex(_), _) => part_value(value, part).into_owned(),
        (real, Part::Re) => real.numeric().map_or_else(|| real.clone(), |a| Value::Double(a.into_owned())),
        (real, Part::Im) => real.numeric().map_or_else(|| real.clone(), |a| Value::Double(a.map(|_| 0.0))),
    }
}

/// f and J as returned: a complex f narrowed as Octave's (it stayed complex for its derivative), and
/// its Jacobian from the real one of its stacked parts (2m x n), `J_re + i J_im`, full (msad has no
/// complex sparse values yet), or with `pattern` the union of both parts' patterns.
pub(crate) fn outputs(value: Value, stacked_jacobian: Value, pattern: bool) -> (Value, Value) {
    let Value::Complex(z) = value else { return (value, stacked_jacobian) };
    let jacobian = jacobian(&z, stacked_jacobian, pattern);
    (Value::narrowed(z), jacobian)
}

fn jacobian(z: &Array<C>, stacked_jacobian: Value, pattern: bool) -> Value {
    let m = z.numel();
    let full = match &stacked_jacobian {
        Value::Sparse(s) => s.to_dense(),
        Value::Double(a) => a.clone(),
        _ => return stacked_jacobian,
    };
    let n = full.cols();
    let entries = (0..n).flat_map(|j| {
        let column = &full.data[j * 2 * m..(j + 1) * 2 * m];
        (0..m).map(move |i| C::new(column[i], column[m + i]))
    });
    match pattern {
        true => {
            let ones = entries.map(|z| if z.re != 0.0 || z.im != 0.0 { 1.0 } else { 0.0 }).collect();
            Value::Sparse(SparseMatrix::from_dense(&Array::new(vec![m, n], ones)))
        }
        false => Value::Complex(Array::new(vec![m, n], entries.collect())),
    }
}

/// `X = A \ B` of matrices: `dX = A \ (dB - dA X)`, every direction solved at once as the columns of one
/// complex right-hand side (one factorisation of A).
fn solve(fw: &Forward) -> Result<Deriv> {
    let (a, b, x) = (fw.inputs[0], fw.inputs[1], fw.output);
    let m_b = b.numel();
    let mut rhs = stacked(b, fw.derivs[1]).into_owned();
    if !fw.derivs[0].is_zero() {
        let zero = Deriv::Zero;
        let product = bilinear(Prim::Mtimes, &Forward { inputs: &[a, x], derivs: &[fw.derivs[0], &zero], output: b })?;
        rhs = combine_terms(&[(Coef::Same(1.0), &rhs, &RowMap::Identity), (Coef::Same(-1.0), &product, &RowMap::Identity)], 2 * m_b);
    }
    let (Some(nd), Some(&rows_b)) = (rhs.nd(), b.dims().first()) else { return Ok(Deriv::Zero) };
    if m_b == 0 {
        return Ok(Deriv::Zero);
    }
    let block = rhs.to_dense(2 * m_b, nd);
    let columns = (0..nd).flat_map(|d| {
        let column = block.column(d);
        (0..m_b).map(move |i| C::new(column[i], column[m_b + i]))
    });
    let directions = Value::Complex(Array::new(vec![rows_b, m_b / rows_b * nd], columns.collect()));
    let solved = super::linalg::mldivide(&[a, &directions])?;
    let (z, m_x) = (complex_data(&solved), x.numel());
    let mut out = DenseDeriv::zeros(2 * m_x, nd);
    for d in 0..nd {
        let column = out.column_mut(d);
        for (i, v) in z.data[d * m_x..(d + 1) * m_x].iter().enumerate() {
            (column[i], column[m_x + i]) = (v.re, v.im);
        }
    }
    Ok(Deriv::Dense(out))
}

/// `X = B / A` of matrices, as `(A.' \ B.').'` on transposed values and blocks.
fn right_solve(fw: &Forward) -> Result<Deriv> {
    let (b, a) = (fw.inputs[0], fw.inputs[1]);
    let ((at, dat), (bt, dbt)) = (transposed(a, fw.derivs[1])?, transposed(b, fw.derivs[0])?);
    let xt = transposed_value(fw.output)?;
    let dxt = solve(&Forward { inputs: &[&at, &bt], derivs: &[&dat, &dbt], output: &xt })?;
    let x = widened(fw.output.clone());
    split_linear(Prim::Transpose, &Forward { inputs: &[&xt], derivs: &[&dxt], output: &x })
}

/// `v.'` as a complex value (its block then stacks both parts).
fn transposed_value(v: &Value) -> Result<Value> {
    Ok(widened(super::super::eval(Prim::Transpose, &[v], 1)?.swap_remove(0)))
}

/// `v.'` and its block, stacked as a complex value's.
fn transposed(v: &Value, d: &Deriv) -> Result<(Value, Deriv)> {
    let vt = transposed_value(v)?;
    let dt = split_linear(Prim::Transpose, &Forward { inputs: &[v], derivs: &[d], output: &vt })?;
    Ok((vt, dt))
}
