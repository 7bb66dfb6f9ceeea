//! `lu` and `qr` of a dense matrix, computed as LAPACK does (partial pivoting taking the first largest
//! pivot; Householder reflectors with `R(k,k) = -sign(alpha) norm`), so that the factors, their signs
//! and the packed one-output forms are Octave's.
//!
//! Each kernel is written once over `Field` and runs on `f64` for the values and on `Dual` numbers
//! (a value and its tangent along one direction) for the forward rule: the derivative of exactly the
//! factors returned, full Q's completion columns included, and on `HyperDual` numbers for the
//! second-order terms. Where that derivative does not exist (a
//! tie in the pivot choice that the direction breaks, a zero pivot, a reflector that appears or flips
//! sign) the rule fails with `msad:notDifferentiable`.

use super::dual::{Dual, Field, HyperDual, kernel_second_order};
use super::matrix::{gemm, matrix_2d};
use super::matrix_functions::linear_in;
use super::reverse::{Adjoints, Reverse, by_column, transposed_forward};
use super::second_order::{SecondOrder, Tangents};
use super::{Derivative, Forward, Hessian, Kernel, Prim, Primitive, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::deriv::Deriv;
use crate::value::{Array, Value};

primitive_names! {
    Lu = "lu",
    LuFactors = "[L, U, P] = lu",
    Qr = "qr",
    QrFactors = "[Q, R] = qr",
}

pub(super) fn entries() -> Vec<Primitive> {
    let outputs = |prim, eval, rule, differentiable| {
        Primitive::new(prim, Kernel::General { eval, derivative: Derivative::Outputs { rule, differentiable } })
    };
    vec![
        super::general(Prim::Lu, eval_lu_packed, |fw| forward(fw, Factorization::LuPacked, 0))
            .more_outputs(Prim::LuFactors)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(|t| second_order(Factorization::LuPacked, t))))),
        outputs(Prim::LuFactors, eval_lu_factors, |fw, k| forward(fw, Factorization::LuFactors, k), |k| k < 2)
            .vjp(reverse_lu)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(|t| second_order(Factorization::LuFactors, t))))),
        super::general(Prim::Qr, eval_qr_packed, |fw| forward(fw, Factorization::QrPacked, 0))
            .more_outputs(Prim::QrFactors)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(|t| second_order(Factorization::QrPacked, t))))),
        outputs(Prim::QrFactors, eval_qr_factors, |fw, k| forward(fw, Factorization::QrFactors, k), |_| true)
            .vjp(reverse_qr)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Term(|t| second_order(Factorization::QrFactors, t))))),
    ]
}

fn not_differentiable(message: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::NotDifferentiable, message.to_string())
}

// ---- LU ----

/// `P A = L U` with partial pivoting: L's multipliers below the diagonal and U on and above it in one
/// m x n array (LAPACK's getrf), and `rows[i]`, the row of A that row i of P A is.
struct LuParts<T> {
    packed: Vec<T>,
    rows: Vec<usize>,
}

/// The pivot row of column k: the first largest magnitude at or below the diagonal. A tie the
/// direction breaks (the magnitudes' tangents differ) has no derivative.
fn pivot<T: Field>(a: &[T], m: usize, k: usize) -> Result<usize> {
    let magnitude = |i: usize| a[i + m * k].value().abs();
    let best = (k..m).fold(k, |best, i| if magnitude(i) > magnitude(best) { i } else { best });
    let slope = |i: usize| a[i + m * k].slopes().map(|d| d * a[i + m * k].value().signum());
    if (k..m).any(|i| i != best && magnitude(i) == magnitude(best) && slope(i) != slope(best)) {
        return Err(not_differentiable("lu: two pivot candidates have equal magnitude: the factors jump where they part"));
    }
    Ok(best)
}

fn lu_factor<T: Field>(a: &[T], m: usize, n: usize) -> Result<LuParts<T>> {
    let mut packed = a.to_vec();
    let mut rows: Vec<usize> = (0..m).collect();
    for k in 0..m.min(n) {
        let p = pivot(&packed, m, k)?;
        if p != k {
            (0..n).for_each(|j| packed.swap(k + m * j, p + m * j));
            rows.swap(k, p);
        }
        let diagonal = packed[k + m * k];
        if diagonal.value() == 0.0 {
            // LAPACK leaves the column (all zeros) as it is; its derivative would divide by zero.
            if (k + 1..m).chain([k]).any(|i| packed[i + m * k].slopes() != [0.0; 2]) {
                return Err(not_differentiable("lu: a zero pivot (a singular leading block) has no derivative"));
            }
            continue;
        }
        (k + 1..m).for_each(|i| packed[i + m * k] = packed[i + m * k] / diagonal);
        for j in k + 1..n {
            let top = packed[k + m * j];
            (k + 1..m).for_each(|i| packed[i + m * j] = packed[i + m * j] - packed[i + m * k] * top);
        }
    }
    Ok(LuParts { packed, rows })
}

impl<T: Field> LuParts<T> {
    /// Unit lower L (m x k), its rows in A's order when `unpermuted` (`[L, U] = lu(A)`: `A = L U`).
    fn lower(&self, m: usize, n: usize, unpermuted: bool) -> Vec<T> {
        let k = m.min(n);
        let mut l = vec![T::constant(0.0); m * k];
        for j in 0..k {
            for i in j..m {
                let at = if unpermuted { self.rows[i] } else { i };
                l[at + m * j] = if i == j { T::constant(1.0) } else { self.packed[i + m * j] };
            }
        }
        l
    }

    fn upper(&self, m: usize, n: usize) -> Vec<T> {
        let k = m.min(n);
        (0..n).flat_map(|j| (0..k).map(move |i| if i <= j { self.packed[i + m * j] } else { T::constant(0.0) })).collect()
    }
}

fn permutation(rows: &[usize]) -> Vec<f64> {
    let m = rows.len();
    let mut p = vec![0.0; m * m];
    rows.iter().enumerate().for_each(|(i, &r)| p[i + m * r] = 1.0);
    p
}

// ---- QR ----

/// Householder QR as LAPACK's geqrf: R on and above the diagonal, each reflector's vector below it
/// (its leading 1 implied), and the reflectors' factors tau (`H = I - tau v v'`).
struct QrParts<T> {
    rows: usize,
    packed: Vec<T>,
    tau: Vec<T>,
}

fn householder<T: Field>(a: &[T], m: usize, n: usize) -> Result<QrParts<T>> {
    let mut packed = a.to_vec();
    let mut tau = Vec::with_capacity(m.min(n));
    for k in 0..m.min(n) {
        let alpha = packed[k + m * k];
        let below = k + 1..m;
        let squares = below.clone().fold(T::constant(0.0), |s, i| s + packed[i + m * k] * packed[i + m * k]);
        if squares.value() == 0.0 {
            if below.clone().any(|i| packed[i + m * k].slopes() != [0.0; 2]) {
                return Err(not_differentiable("qr: a column already zero below its diagonal: the reflector appears where it moves"));
            }
            tau.push(T::constant(0.0));
            continue;
        }
        if alpha.value() == 0.0 && alpha.slopes() != [0.0; 2] {
            return Err(not_differentiable("qr: a zero diagonal entry: R's sign flips where it moves"));
        }
        let norm = (alpha * alpha + squares).sqrt();
        let beta = if alpha.value() >= 0.0 { -norm } else { norm };
        let scale = T::constant(1.0) / (alpha - beta);
        below.clone().for_each(|i| packed[i + m * k] = packed[i + m * k] * scale);
        packed[k + m * k] = beta;
        let t = (beta - alpha) / beta;
        for j in k + 1..n {
            let w = below.clone().fold(packed[k + m * j], |s, i| s + packed[i + m * k] * packed[i + m * j]) * t;
            packed[k + m * j] = packed[k + m * j] - w;
            below.clone().for_each(|i| packed[i + m * j] = packed[i + m * j] - packed[i + m * k] * w);
        }
        tau.push(t);
    }
    Ok(QrParts { rows: m, packed, tau })
}

impl<T: Field> QrParts<T> {
    /// The first `cols` columns of `Q = H_1 H_2 ... H_k` (m x cols).
    fn q(&self, m: usize, cols: usize) -> Vec<T> {
        let mut q: Vec<T> = (0..m * cols).map(|e| T::constant(if e % m == e / m { 1.0 } else { 0.0 })).collect();
        for (k, &t) in self.tau.iter().enumerate().rev() {
            for j in 0..cols {
                let w = (k + 1..m).fold(q[k + m * j], |s, i| s + self.packed[i + m * k] * q[i + m * j]) * t;
                q[k + m * j] = q[k + m * j] - w;
                (k + 1..m).for_each(|i| q[i + m * j] = q[i + m * j] - self.packed[i + m * k] * w);
            }
        }
        q
    }

    /// Octave's one-output `qr(A)`: R, and below the diagonal each reflector's vector times its tau.
    fn scaled(mut self) -> Vec<T> {
        let m = self.rows;
        for (k, &t) in self.tau.iter().enumerate() {
            (k + 1..m).for_each(|i| self.packed[i + m * k] = self.packed[i + m * k] * t);
        }
        self.packed
    }

    /// The leading `rows` rows of R (zero below the diagonal), rows x n.
    fn r(&self, m: usize, n: usize, rows: usize) -> Vec<T> {
        (0..n).flat_map(|j| (0..rows).map(move |i| if i <= j { self.packed[i + m * j] } else { T::constant(0.0) })).collect()
    }
}

// ---- kernels and rules ----

#[derive(Clone, Copy)]
enum Factorization {
    /// `Y = lu(A)`: L's multipliers and U in one matrix.
    LuPacked,
    /// `[L, U] = lu(A)` or `[L, U, P] = lu(A)`.
    LuFactors,
    /// `X = qr(A)`: R and the reflectors' vectors in one matrix.
    QrPacked,
    /// `[Q, R] = qr(A)` or `[Q, R] = qr(A, 0)`.
    QrFactors,
}

impl Factorization {
    fn name(self) -> &'static str {
        match self {
            Factorization::LuPacked | Factorization::LuFactors => "lu",
            Factorization::QrPacked | Factorization::QrFactors => "qr",
        }
    }
}

/// The operand, finite and 2-D, and whether the call asks for the economy size (`qr(A, 0)`).
fn operand<'v>(f: Factorization, args: &[&'v Value]) -> Result<(std::borrow::Cow<'v, Array<f64>>, bool)> {
    let name = f.name();
    let economy = match f {
        Factorization::QrPacked | Factorization::QrFactors => {
            super::check_arity(name, args, 1, 2)?;
            match args.get(1) {
                None => false,
                Some(v)
                    if v.as_string().as_deref() == Some("econ") || (v.numel() == 1 && v.numeric().is_some_and(|a| a.data[0] == 0.0)) =>
                {
                    true
                }
                Some(_) => return Err(runtime("qr: the second argument must be 0 or \"econ\" (msad has no column pivoting)")),
            }
        }
        _ => {
            super::check_arity(name, args, 1, 1)?;
            false
        }
    };
    // Non-finite entries propagate as through LAPACK (a NaN never wins the pivot choice).
    Ok((matrix_2d(name, args[0])?, economy))
}

fn dense(rows: usize, cols: usize, data: Vec<f64>) -> Value {
    Value::Double(Array::new(vec![rows, cols], data))
}

/// The results of `f` on A's entries (f64 or duals): each with its dims.
fn factor<T: Field>(f: Factorization, a: &[T], m: usize, n: usize, economy: bool) -> Result<Vec<(usize, usize, Vec<T>)>> {
    let k = m.min(n);
    if matches!(f, Factorization::QrFactors) && !economy {
        // The full Q is m x m.
        crate::value::memory::check(m.saturating_mul(m), 8)?;
    }
    Ok(match f {
        Factorization::LuPacked => vec![(m, n, lu_factor(a, m, n)?.packed)],
        Factorization::LuFactors => {
            let lu = lu_factor(a, m, n)?;
            vec![(m, k, lu.lower(m, n, true)), (k, n, lu.upper(m, n)), (m, k, lu.lower(m, n, false))]
        }
        Factorization::QrPacked => vec![(m, n, householder(a, m, n)?.scaled())],
        Factorization::QrFactors => {
            let qr = householder(a, m, n)?;
            let rows = if economy { k } else { m };
            vec![(m, rows, qr.q(m, rows)), (rows, n, qr.r(m, n, rows))]
        }
    })
}

fn eval(f: Factorization, args: &[&Value]) -> Result<Vec<Value>> {
    let (a, economy) = operand(f, args)?;
    let (m, n) = (a.dims[0], a.dims[1]);
    Ok(factor(f, &a.data, m, n, economy)?.into_iter().map(|(r, c, data)| dense(r, c, data)).collect())
}

fn eval_lu_packed(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    eval(Factorization::LuPacked, args)
}

/// `[L, U] = lu(A)` (L with A's row order) or, with three outputs, `[L, U, P]` (`P A = L U`).
fn eval_lu_factors(args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    let mut results = eval(Factorization::LuFactors, args)?;
    if nargout < 3 {
        results.truncate(2);
        return Ok(results);
    }
    let (a, _) = operand(Factorization::LuFactors, args)?;
    let m = a.dims[0];
    results[0] = results.pop().expect("three results");
    results.push(dense(m, m, permutation(&lu_factor(&a.data, m, a.dims[1])?.rows)));
    Ok(results)
}

fn eval_qr_packed(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    eval(Factorization::QrPacked, args)
}

fn eval_qr_factors(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    eval(Factorization::QrFactors, args)
}

/// Which of the kernel's results is result `k` of the call (`output`): result 0 of `lu` with several
/// outputs is L in A's row order (`[L, U]`) or unit lower triangular (`[L, U, P]`), and the rules
/// differentiate the one the kernel returned (where no rows were swapped, both are the same).
fn kernel_result(f: Factorization, a: &Array<f64>, economy: bool, output: &Value, k: usize) -> Result<usize> {
    let (m, n) = (a.dims[0], a.dims[1]);
    Ok(match (f, k) {
        (Factorization::LuFactors, 0)
            if output.numeric().map(|l| l.data.clone()) != Some(factor(f, &a.data, m, n, economy)?.swap_remove(0).2) =>
        {
            2
        }
        _ => k,
    })
}

/// The derivative of result k: the kernel on duals, direction by direction.
fn forward(fw: &Forward, f: Factorization, k: usize) -> Result<Deriv> {
    let (a, economy) = operand(f, fw.inputs)?;
    let (m, n) = (a.dims[0], a.dims[1]);
    let index = kernel_result(f, &a, economy, fw.output, k)?;
    linear_in(fw.derivs[0], m * n, fw.output.numel(), |da| {
        let duals: Vec<Dual> = a.data.iter().zip(da).map(|(&v, &d)| Dual { v, d }).collect();
        let mut results = factor(f, &duals, m, n, economy)?;
        Ok(results.swap_remove(index).2.into_iter().map(|d| d.d).collect())
    })
}

/// The second-order term of result `t.result`: the kernel on hyper-duals (see `dual`).
fn second_order(f: Factorization, t: &Tangents) -> Result<Adjoints> {
    let (a, economy) = operand(f, t.inputs)?;
    let (m, n) = (a.dims[0], a.dims[1]);
    let index = kernel_result(f, &a, economy, t.output, t.result)?;
    kernel_second_order(t, |entries: &[HyperDual]| Ok(factor(f, entries, m, n, economy)?.swap_remove(index).2))
}

// ---- reverse rules of the factors ----
//
// The transposed forward rule runs the dual kernel once per entry of A: O(n^5). These take O(n^3)
// per adjoint column, from the factors' differentials.

/// `[L, U] = lu(A)` and `[L, U, P] = lu(A)` of a square A: `P dA = dL U + L dU` gives, with
/// `X = L^-1 P dA U^-1`, `dL = L tril(X, -1)` and `dU = triu(X) U`, so the adjoint of A is
/// `P' L^-T (tril(L' Lbar, -1) + triu(Ubar U')) U^-T`. L in A's row order (`[L, U]`) has its adjoint's
/// rows in P's order first. A rectangular A or a zero pivot takes the transposed forward rule.
fn reverse_lu(rv: &Reverse) -> Result<Adjoints> {
    let (a, _) = operand(Factorization::LuFactors, rv.inputs)?;
    let (m, n) = (a.dims[0], a.dims[1]);
    if m != n || rv.result > 1 {
        return transposed_forward(Prim::LuFactors, rv);
    }
    let lu = lu_factor(&a.data, n, n)?;
    let upper = lu.upper(n, n);
    if (0..n).any(|i| upper[i + n * i] == 0.0) {
        return transposed_forward(Prim::LuFactors, rv);
    }
    let lower = lu.lower(n, n, false);
    let in_a_order = rv.result == 0 && rv.output.numeric().is_some_and(|l| l.data == lu.lower(n, n, true));
    by_column(rv, |adjoint| {
        let mut middle = vec![0.0; n * n];
        if rv.result == 0 {
            let lbar: Vec<f64> = match in_a_order {
                true => (0..n * n).map(|e| adjoint[lu.rows[e % n] + n * (e / n)]).collect(),
                false => adjoint.to_vec(),
            };
            gemm(&mut middle, &transposed(&lower, n, n), &lbar, n, n, n, false);
            (0..n).for_each(|j| (0..=j).for_each(|i| middle[i + n * j] = 0.0));
        } else {
            gemm(&mut middle, adjoint, &transposed(&upper, n, n), n, n, n, false);
            (0..n).for_each(|j| (j + 1..n).for_each(|i| middle[i + n * j] = 0.0));
        }
        unit_lower_transposed_solve(&lower, &mut middle, n);
        right_upper_transposed_solve(&upper, &mut middle, n, n);
        let mut abar = vec![0.0; n * n];
        (0..n * n).for_each(|e| abar[lu.rows[e % n] + n * (e / n)] = middle[e]);
        Ok(vec![Some(abar)])
    })
}

/// `[Q, R] = qr(A)` of a square A and `qr(A, 0)` of a tall one (Q m x n, R n x n and invertible):
/// `dA = dQ R + Q dR` with `Q' dQ` skew and `dR R^-1` upper give the adjoint
/// `(Qbar + Q copyltu(R Rbar' - Qbar' Q)) R^-T`, copyltu(M) the lower triangle of M mirrored above.
/// Other shapes (the full Q of a tall A, a wide A) or a zero in R's diagonal take the transposed rule.
fn reverse_qr(rv: &Reverse) -> Result<Adjoints> {
    let (a, economy) = operand(Factorization::QrFactors, rv.inputs)?;
    let (m, n) = (a.dims[0], a.dims[1]);
    if m < n || (m > n && !economy) {
        return transposed_forward(Prim::QrFactors, rv);
    }
    let qr = householder(&a.data, m, n)?;
    let (q, r) = (qr.q(m, n), qr.r(m, n, n));
    if (0..n).any(|i| r[i + n * i] == 0.0) {
        return transposed_forward(Prim::QrFactors, rv);
    }
    by_column(rv, |adjoint| {
        let (qbar, rbar) = match rv.result {
            0 => (adjoint.to_vec(), vec![0.0; n * n]),
            _ => (vec![0.0; m * n], adjoint.to_vec()),
        };
        let mut middle = vec![0.0; n * n];
        gemm(&mut middle, &r, &transposed(&rbar, n, n), n, n, n, false);
        let mut qbar_q = vec![0.0; n * n];
        gemm(&mut qbar_q, &transposed(&qbar, m, n), &q, n, m, n, false);
        let lower = |i: usize, j: usize| middle[i.max(j) + n * i.min(j)] - qbar_q[i.max(j) + n * i.min(j)];
        let mirrored: Vec<f64> = (0..n * n).map(|e| lower(e % n, e / n)).collect();
        let mut abar = qbar;
        gemm(&mut abar, &q, &mirrored, m, n, n, true);
        right_upper_transposed_solve(&r, &mut abar, m, n);
        Ok(vec![Some(abar)])
    })
}

fn transposed(a: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    (0..rows * cols).map(|e| a[e / cols + rows * (e % cols)]).collect()
}

/// `y := L^-T y` for a unit lower triangular L (n x n) and y n x n.
fn unit_lower_transposed_solve(l: &[f64], y: &mut [f64], n: usize) {
    for c in 0..n {
        for i in (0..n).rev() {
            let above: f64 = (i + 1..n).map(|k| l[k + n * i] * y[k + n * c]).sum();
            y[i + n * c] -= above;
        }
    }
}

/// `y := y U^-T` for an upper triangular U (n x n) and y rows x n.
fn right_upper_transposed_solve(u: &[f64], y: &mut [f64], rows: usize, n: usize) {
    for i in (0..n).rev() {
        for k in i + 1..n {
            let c = u[i + n * k];
            (0..rows).for_each(|r| y[r + rows * i] -= c * y[r + rows * k]);
        }
        let d = u[i + n * i];
        y[rows * i..rows * (i + 1)].iter_mut().for_each(|v| *v /= d);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, check, matrix, value};
    use super::{Prim, Reverse, reverse_lu, reverse_qr, transposed_forward};
    use crate::value::Value;

    fn data(v: &crate::value::Value) -> Vec<f64> {
        v.numeric().unwrap().data.clone()
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4)
    }

    #[test]
    fn factors_are_octaves() {
        // Octave 7: A = [4 3 2; 6 3 1; 2 5 7]; lu(A), [L, U] = lu(A), [L, U, P] = lu(A).
        let a = matrix(3, 3, &[4.0, 6.0, 2.0, 3.0, 3.0, 5.0, 2.0, 1.0, 7.0]);
        let packed = value("lu", std::slice::from_ref(&a), 1);
        assert!(close(&data(&packed[0]), &[6.0, 1.0 / 3.0, 2.0 / 3.0, 3.0, 4.0, 0.25, 1.0, 20.0 / 3.0, -1.0 / 3.0]));
        let two = value("[L, U, P] = lu", std::slice::from_ref(&a), 2);
        assert!(close(&data(&two[0]), &[2.0 / 3.0, 1.0, 1.0 / 3.0, 0.25, 0.0, 1.0, 1.0, 0.0, 0.0]));
        let three = value("[L, U, P] = lu", std::slice::from_ref(&a), 3);
        assert_eq!(data(&three[2]), vec![0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        // Octave 7: B = [1 2; 3 4; 5 6]; qr(B), [Q, R] = qr(B, 0).
        let b = matrix(3, 2, &[1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
        assert!(close(&data(&value("qr", std::slice::from_ref(&b), 1)[0]), &[-5.9161, 0.5071, 0.8452, -7.4374, 0.8281, 0.9936]));
        let thin = value("[Q, R] = qr", &[b.clone(), crate::value::Value::scalar(0.0)], 2);
        assert!(close(&data(&thin[0]), &[-0.1690, -0.5071, -0.8452, 0.8971, 0.2760, -0.3450]));
        assert!(close(&data(&thin[1]), &[-5.9161, 0.0, -7.4374, 0.8281]));
        let full = value("[Q, R] = qr", std::slice::from_ref(&b), 2);
        assert!(close(&data(&full[0])[6..], &[0.4082, -0.8165, 0.4082]));
    }

    /// Each result's own reverse rule against the transposed forward rule (exact for every rule),
    /// square and tall, with and without row exchanges (random matrices pivot).
    #[test]
    fn factor_adjoints_match_the_transposed_forward_rule() {
        let mut rng = Random::new(29);
        for n in [1, 2, 4, 6] {
            let square = rng.matrix(n, n);
            let cases = [
                (Prim::LuFactors, vec![square.clone()], 2),
                (Prim::LuFactors, vec![square.clone()], 3),
                (Prim::QrFactors, vec![square], 2),
                (Prim::QrFactors, vec![rng.matrix(n + 2, n), Value::scalar(0.0)], 2),
            ];
            for (prim, args, nargout) in cases {
                let inputs: Vec<&Value> = args.iter().collect();
                let outputs = super::super::eval(prim, &inputs, nargout).unwrap();
                for (result, output) in outputs.iter().enumerate().take(2) {
                    let columns = 2;
                    let adjoint: Vec<f64> = (0..output.numel() * columns).map(|_| rng.next()).collect();
                    let wanted: Vec<bool> = (0..inputs.len()).map(|k| k == 0).collect();
                    let rv = Reverse { inputs: &inputs, result, output, adjoint: &adjoint, columns, wanted: &wanted };
                    let own = if prim == Prim::LuFactors { reverse_lu(&rv) } else { reverse_qr(&rv) };
                    let (own, expected) =
                        (own.unwrap().swap_remove(0).unwrap(), transposed_forward(prim, &rv).unwrap().swap_remove(0).unwrap());
                    let scale = expected.iter().fold(1.0_f64, |s, v| s.max(v.abs()));
                    let error = own.iter().zip(&expected).fold(0.0_f64, |e, (a, b)| e.max((a - b).abs())) / scale;
                    assert!(error < 1e-12, "{prim:?} n = {n}, {nargout} outputs, result {result}: {error:e}");
                }
            }
        }
    }

    /// Times of the reverse rules against the transposed forward rule (BENCHMARKS.md):
    /// `cargo test --release --lib factorizations -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn factor_adjoint_timings() {
        let mut rng = Random::new(31);
        for n in [50, 100, 200] {
            let a = rng.matrix(n, n);
            let inputs = [&a];
            for prim in [Prim::LuFactors, Prim::QrFactors] {
                let outputs = super::super::eval(prim, &inputs, 2).unwrap();
                let adjoint: Vec<f64> = (0..n * n).map(|_| rng.next()).collect();
                let rv = Reverse { inputs: &inputs, result: 0, output: &outputs[0], adjoint: &adjoint, columns: 1, wanted: &[true] };
                let start = std::time::Instant::now();
                let _ = if prim == Prim::LuFactors { reverse_lu(&rv) } else { reverse_qr(&rv) }.unwrap();
                let own = start.elapsed().as_secs_f64();
                // The transposed rule is O(n^5): timed up to n = 100.
                let transposed = (n <= 100).then(|| {
                    let start = std::time::Instant::now();
                    transposed_forward(prim, &rv).unwrap();
                    start.elapsed().as_secs_f64()
                });
                println!("{prim:?} n = {n}: own rule {own:.4} s, transposed forward rule {transposed:?} s");
            }
        }
    }

    #[test]
    fn packed_factors_match_finite_differences() {
        let mut rng = Random::new(61);
        for (m, n) in [(1, 1), (3, 3), (4, 2), (2, 4)] {
            check("lu", &[rng.matrix(m, n)], &[0]);
            check("qr", &[rng.matrix(m, n)], &[0]);
        }
    }
}
