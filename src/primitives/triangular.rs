//! `tril` and `triu`: the elements on and below (above) diagonal k kept, the rest zero; the derivative
//! keeps the same rows.

use super::elementwise::numeric;
use super::matrix::matrix_2d;
use super::{Forward, IntegerArgs, Linearity, Prim, Primitive, general, runtime};
use crate::diag::Result;
use crate::value::deriv::Deriv;
use crate::value::{Array, Value};

primitive_names! {
    Tril = "tril",
    Triu = "triu",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        general(Prim::Tril, |a, _| eval(Side::Lower, a), |fw| forward(Side::Lower, fw))
            .linear(Linearity::Additive)
            .integers(IntegerArgs::KeepClass),
        general(Prim::Triu, |a, _| eval(Side::Upper, a), |fw| forward(Side::Upper, fw))
            .linear(Linearity::Additive)
            .integers(IntegerArgs::KeepClass),
    ]
}

#[derive(Clone, Copy)]
enum Side {
    Lower,
    Upper,
}

impl Side {
    fn name(self) -> &'static str {
        match self {
            Side::Lower => "tril",
            Side::Upper => "triu",
        }
    }
}

/// Linear indices of the elements kept.
fn kept(side: Side, args: &[&Value]) -> Result<Vec<usize>> {
    super::check_arity(side.name(), args, 1, 2)?;
    let k = match args.get(1) {
        Some(v) => match numeric(side.name(), v)?.data.as_slice() {
            [k] if k.fract() == 0.0 => *k as i64,
            _ => return Err(runtime(format!("{}: K must be a real scalar", side.name()))),
        },
        None => 0,
    };
    let dims = matrix_2d(side.name(), args[0])?.dims.clone();
    let keep = |i: usize, j: usize| {
        let offset = j as i64 - i as i64;
        match side {
            Side::Lower => offset <= k,
            Side::Upper => offset >= k,
        }
    };
    Ok((0..dims[1]).flat_map(|j| (0..dims[0]).map(move |i| (i, j))).filter(|&(i, j)| keep(i, j)).map(|(i, j)| i + dims[0] * j).collect())
}

fn eval(side: Side, args: &[&Value]) -> Result<Vec<Value>> {
    let positions = kept(side, args)?;
    let a = numeric(side.name(), args[0])?;
    let mut out = Array::filled(a.dims.clone(), 0.0);
    positions.iter().for_each(|&i| out.data[i] = a.data[i]);
    Ok(vec![Value::Double(out)])
}

fn forward(side: Side, fw: &Forward) -> Result<Deriv> {
    let pairs: Vec<(usize, usize)> = kept(side, fw.inputs)?.into_iter().map(|i| (i, i)).collect();
    Ok(fw.derivs[0].scatter(&pairs, fw.inputs[0].numel()))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Random, SHAPES, check, matrix, value};

    #[test]
    fn triangles_match_finite_differences() {
        let mut rng = Random::new(13);
        for (m, n) in SHAPES.into_iter().chain([(0, 0)]) {
            let x = rng.matrix(m, n);
            for name in ["tril", "triu"] {
                check(name, std::slice::from_ref(&x), &[0]);
                for k in [-1.0, 1.0, 5.0] {
                    check(name, &[x.clone(), matrix(1, 1, &[k])], &[0]);
                }
            }
        }
    }

    #[test]
    fn kept_elements() {
        let a = matrix(2, 2, &[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(value("tril", std::slice::from_ref(&a), 1)[0].numeric().unwrap().data, vec![1.0, 2.0, 0.0, 4.0]);
        assert_eq!(value("triu", &[a, matrix(1, 1, &[1.0])], 1)[0].numeric().unwrap().data, vec![0.0, 0.0, 3.0, 0.0]);
    }
}
