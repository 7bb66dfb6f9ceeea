//! Products: `prod` and `cumprod` along a dimension (exact with zero factors: each partial is a
//! product of the other factors, never a quotient), `dot` and `kron`.

use super::elementwise::{dims_text, numeric};
use super::matrix::matrix_2d;
use super::reduce::plan;
use super::second_order::{Element, Pairing, SecondOrder, Tangents};
use super::slices::{Slices, working_dim};
use super::{Forward, Hessian, IntegerArgs, Linearity, Prim, Primitive, general, runtime};
use crate::diag::Result;
use crate::value::deriv::{self, Deriv, RowOperator};
use crate::value::{Array, Value};

primitive_names! {
    Prod = "prod",
    Cumprod = "cumprod",
    Dot = "dot",
    Kron = "kron",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        general(Prim::Prod, eval_prod, forward_prod)
            .integers(IntegerArgs::ClassFree)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Product { cumulative: false }))),
        general(Prim::Cumprod, eval_cumprod, forward_cumprod)
            .integers(IntegerArgs::ClassFree)
            .hessian(Hessian::Own(|_, _| Ok(SecondOrder::Product { cumulative: true }))),
        general(Prim::Dot, eval_dot, forward_dot).linear(Linearity::Bilinear).hessian(Hessian::Bilinear(Pairing::SamePosition)),
        general(Prim::Kron, eval_kron, forward_kron).linear(Linearity::Bilinear),
    ]
}

/// Element values of slice `s`.
fn slice_values(slices: &Slices, x: &[f64], s: usize) -> Vec<f64> {
    (0..slices.len).map(|k| x[slices.index(s, k)]).collect()
}

fn eval_prod(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let p = plan(Prim::Prod, args, false)?;
    let x = numeric("prod", args[0])?;
    let n: usize = p.out_dims.iter().product();
    let out = (0..n).map(|s| slice_values(&p.slices, &x.data, s).iter().product()).collect();
    Ok(vec![Value::Double(Array::new(p.out_dims, out))])
}

/// `d prod(x) / d x_k = prod_{j != k} x_j` from prefix and suffix products.
fn forward_prod(fw: &Forward) -> Result<Deriv> {
    let p = plan(Prim::Prod, fw.inputs, false)?;
    let x = numeric("", fw.inputs[0])?;
    let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    for s in 0..p.slices.count() {
        let v = slice_values(&p.slices, &x.data, s);
        let mut suffix = vec![1.0; v.len() + 1];
        (0..v.len()).rev().for_each(|k| suffix[k] = suffix[k + 1] * v[k]);
        let mut prefix = 1.0;
        for (k, &vk) in v.iter().enumerate() {
            op.src.push(p.slices.index(s, k));
            op.coef.push(prefix * suffix[k + 1]);
            prefix *= vk;
        }
        op.ptr.push(op.src.len());
    }
    Ok(fw.derivs[0].apply(&op))
}

/// The second-order term of `prod` or (`cumulative`) `cumprod` (None: x's adjoint is not wanted).
/// Along a slice v with result adjoints w (the slice's adjoint at its end for `prod`, one per element for
/// `cumprod`), x_i's adjoint is `A_i R_i` with `A_i = prod_{j < i} v_j` and `R_i = w_i + v_{i+1} R_{i+1}`;
/// the term is its derivative along the tangent, `dA_i R_i + A_i dR_i`, recursions that never divide:
/// exact with zero factors.
pub(super) fn products_second_order(t: &Tangents, cumulative: bool) -> Result<Option<Vec<f64>>> {
    let Some(dx) = t.tangents[0].filter(|_| t.wanted[0]) else { return Ok(None) };
    let p = plan(if cumulative { Prim::Cumprod } else { Prim::Prod }, t.inputs, cumulative)?;
    let x = numeric("", t.inputs[0])?;
    let n = x.numel();
    let mut term = vec![0.0; n * t.directions];
    for j in 0..t.directions {
        for s in 0..p.slices.count() {
            let (v, dv) = (slice_values(&p.slices, &x.data, s), slice_values(&p.slices, dx.column(j), s));
            let len = v.len();
            let weight = |k: usize| match cumulative {
                true => t.adjoint[p.slices.index(s, k)],
                false if k + 1 == len => t.adjoint[s],
                false => 0.0,
            };
            // (R_k, dR_k), from the end of the slice.
            let mut rest = vec![(0.0, 0.0); len];
            for k in (0..len).rev() {
                let (next, d_next) = if k + 1 < len { rest[k + 1] } else { (0.0, 0.0) };
                let (v_next, dv_next) = if k + 1 < len { (v[k + 1], dv[k + 1]) } else { (0.0, 0.0) };
                rest[k] = (weight(k) + v_next * next, dv_next * next + v_next * d_next);
            }
            let (mut a, mut da) = (1.0, 0.0);
            for k in 0..len {
                let (r, dr) = rest[k];
                term[j * n + p.slices.index(s, k)] += da * r + a * dr;
                (a, da) = (a * v[k], da * v[k] + a * dv[k]);
            }
        }
    }
    Ok(Some(term))
}

/// The pairs of factors `prod` and `cumprod` multiply: every two elements of a slice.
pub(super) fn product_pairs(inputs: &[&Value], cumulative: bool, pair: &mut impl FnMut(Element, Element)) {
    let Ok(p) = plan(if cumulative { Prim::Cumprod } else { Prim::Prod }, inputs, cumulative) else { return };
    for s in 0..p.slices.count() {
        for a in 0..p.slices.len {
            (a + 1..p.slices.len).for_each(|b| pair((0, p.slices.index(s, a)), (0, p.slices.index(s, b))));
        }
    }
}

fn eval_cumprod(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let p = plan(Prim::Cumprod, args, true)?;
    let x = numeric("cumprod", args[0])?;
    let mut out = x.data.clone();
    for s in 0..p.slices.count() {
        let mut acc = 1.0;
        for k in 0..p.slices.len {
            acc *= x.data[p.slices.index(s, k)];
            out[p.slices.index(s, k)] = acc;
        }
    }
    Ok(vec![Value::Double(Array::new(p.out_dims, out))])
}

/// `d y_k / d x_i = prod_{j <= k, j != i} x_j` for `i <= k`.
fn forward_cumprod(fw: &Forward) -> Result<Deriv> {
    let p = plan(Prim::Cumprod, fw.inputs, true)?;
    let x = numeric("", fw.inputs[0])?;
    let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    for r in 0..x.data.len() {
        let (s, k) = p.slices.locate(r);
        let v = slice_values(&p.slices, &x.data, s);
        let prefix: Vec<f64> = std::iter::once(1.0)
            .chain(v.iter().scan(1.0, |acc, &vi| {
                *acc *= vi;
                Some(*acc)
            }))
            .collect();
        let mut after = 1.0;
        for i in (0..=k).rev() {
            op.src.push(p.slices.index(s, i));
            op.coef.push(prefix[i] * after);
            after *= v[i];
        }
        op.ptr.push(op.src.len());
    }
    Ok(fw.derivs[0].apply(&op))
}

/// The slices `dot` pairs up: vectors of any orientation as columns, otherwise equal dims along `DIM`.
fn dot_slices(args: &[&Value]) -> Result<(Slices, Vec<usize>)> {
    super::check_arity("dot", args, 2, 3)?;
    let (mut dx, mut dy) = (args[0].dims(), args[1].dims());
    let is_vector = |d: &[usize]| d.len() == 2 && (d[0] == 1 || d[1] == 1);
    if dx != dy && args.len() == 2 && is_vector(&dx) && is_vector(&dy) {
        dx = vec![dx.iter().product(), 1];
        dy = vec![dy.iter().product(), 1];
    }
    if dx != dy {
        return Err(runtime(format!("dot: sizes of X and Y must match ({} vs {})", dims_text(&dx), dims_text(&dy))));
    }
    let slices = Slices::new(&dx, working_dim("dot", &dx, args.get(2).copied())?);
    let out_dims = slices.dims_with_len(1);
    Ok((slices, out_dims))
}

fn eval_dot(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let (slices, out_dims) = dot_slices(args)?;
    let (a, b) = (numeric("dot", args[0])?, numeric("dot", args[1])?);
    let out = (0..slices.count()).map(|s| (0..slices.len).map(|k| a.data[slices.index(s, k)] * b.data[slices.index(s, k)]).sum()).collect();
    Ok(vec![Value::Double(Array::new(out_dims, out))])
}

/// `sum(b .* da + a .* db)` along the slices.
fn forward_dot(fw: &Forward) -> Result<Deriv> {
    let (slices, _) = dot_slices(fw.inputs)?;
    let (a, b) = (numeric("", fw.inputs[0])?, numeric("", fw.inputs[1])?);
    let weighted_sum = |weights: &[f64]| {
        let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
        for s in 0..slices.count() {
            for k in 0..slices.len {
                op.src.push(slices.index(s, k));
                op.coef.push(weights[slices.index(s, k)]);
            }
            op.ptr.push(op.src.len());
        }
        op
    };
    let terms = vec![fw.derivs[0].apply(&weighted_sum(&b.data)), fw.derivs[1].apply(&weighted_sum(&a.data))];
    Ok(deriv::sum(terms, slices.count()))
}

/// For every element of `kron(A, B)`, the element of A and the element of B it multiplies.
fn kron_pairs(a_dims: &[usize], b_dims: &[usize]) -> (Vec<usize>, Vec<(usize, usize)>) {
    let (ma, na, mb, nb) = (a_dims[0], a_dims[1], b_dims[0], b_dims[1]);
    let count = crate::value::memory::ensure_dims(&[ma, na, mb, nb], size_of::<(usize, usize)>());
    let mut pairs = Vec::with_capacity(count);
    for ja in 0..na {
        for jb in 0..nb {
            for ia in 0..ma {
                for ib in 0..mb {
                    pairs.push((ia + ma * ja, ib + mb * jb));
                }
            }
        }
    }
    (vec![ma * mb, na * nb], pairs)
}

fn eval_kron(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    super::check_arity("kron", args, 2, 2)?;
    if args.iter().any(|a| matches!(a, Value::Sparse(_))) {
        return super::sparse::kron(args[0], args[1]).map(|k| vec![Value::Sparse(k)]);
    }
    let (a, b) = (matrix_2d("kron", args[0])?, matrix_2d("kron", args[1])?);
    let (dims, pairs) = kron_pairs(&a.dims, &b.dims);
    Ok(vec![Value::Double(Array::new(dims, pairs.iter().map(|&(i, j)| a.data[i] * b.data[j]).collect()))])
}

/// Row operator whose row k reads one side of `pairs[k]` scaled by `factor` at the other side
/// (`from_b` picks B's side); zero scale factors of a constant factor are structural and left out.
fn pair_operator(pairs: &[(usize, usize)], from_b: bool, factor: &[f64], skip_zeros: bool) -> RowOperator {
    let mut op = RowOperator { ptr: vec![0], src: vec![], coef: vec![] };
    for &(i, j) in pairs {
        let (src, other) = if from_b { (j, i) } else { (i, j) };
        if factor[other] != 0.0 || !skip_zeros {
            op.src.push(src);
            op.coef.push(factor[other]);
        }
        op.ptr.push(op.src.len());
    }
    op
}

/// `kron(dA, B) + kron(A, dB)`.
fn forward_kron(fw: &Forward) -> Result<Deriv> {
    if fw.inputs.iter().any(|a| matches!(a, Value::Sparse(_))) {
        return Err(super::sparse::depends_on_x());
    }
    let (a, b) = (numeric("", fw.inputs[0])?, numeric("", fw.inputs[1])?);
    let (_, pairs) = kron_pairs(&a.dims, &b.dims);
    let terms = vec![
        fw.derivs[0].apply(&pair_operator(&pairs, false, &b.data, fw.derivs[1].is_zero())),
        fw.derivs[1].apply(&pair_operator(&pairs, true, &a.data, fw.derivs[0].is_zero())),
    ];
    Ok(deriv::sum(terms, pairs.len()))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, SHAPES, check, matrix, value};

    #[test]
    fn products_along_dimensions_match_finite_differences() {
        let mut rng = Random::new(6);
        for (m, n) in SHAPES.into_iter().chain([(0, 0), (0, 3), (2, 0)]) {
            let x = rng.matrix(m, n);
            for name in ["prod", "cumprod"] {
                check(name, std::slice::from_ref(&x), &[0]);
                for dim in [1.0, 2.0, 3.0] {
                    check(name, &[x.clone(), matrix(1, 1, &[dim])], &[0]);
                }
            }
        }
    }

    #[test]
    fn products_with_zero_factors_are_exact() {
        for data in [[0.0, 2.0, 3.0, 4.0], [0.0, 2.0, 0.0, 4.0], [1.5, 2.0, 3.0, 0.0]] {
            check("prod", &[matrix(1, 4, &data)], &[0]);
            check("cumprod", &[matrix(1, 4, &data)], &[0]);
        }
        let p = value("prod", &[matrix(0, 3, &[])], 1).remove(0);
        assert_eq!((p.dims(), p.numeric().unwrap().data.clone()), (vec![1, 3], vec![1.0; 3]));
    }

    #[test]
    fn dot_and_kron_match_finite_differences() {
        let mut rng = Random::new(7);
        for (m, n) in SHAPES {
            let (a, b) = (rng.matrix(m, n), rng.matrix(m, n));
            for active in [&[0][..], &[1], &[0, 1]] {
                check("dot", &[a.clone(), b.clone()], active);
                check("dot", &[a.clone(), b.clone(), matrix(1, 1, &[2.0])], active);
                check("kron", &[a.clone(), rng.matrix(n, 2)], active);
            }
        }
        check("dot", &[rng.matrix(1, 4), rng.matrix(4, 1)], &[0, 1]);
        check("kron", &[matrix(2, 2, &[1.0, 0.0, 0.0, 1.0]), rng.matrix(2, 3)], &[1]);
    }
}
