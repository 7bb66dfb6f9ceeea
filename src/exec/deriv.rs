//! Derivative blocks ("derivvec"): for a value with `m = numel(v)` elements and `nd` directions, the
//! `m x nd` matrix of directional derivatives, stored column-major (row i = element i of v).
//! Every forward rule is linear in these blocks.

#[derive(Clone, Debug, PartialEq)]
pub enum Deriv {
    /// The value does not depend on the differentiated input.
    Zero,
    Dense(DenseDeriv),
}

#[derive(Clone, Debug, PartialEq)]
pub struct DenseDeriv {
    pub rows: usize,
    pub nd: usize,
    pub data: Vec<f64>,
}

impl DenseDeriv {
    pub fn zeros(rows: usize, nd: usize) -> DenseDeriv {
        DenseDeriv { rows, nd, data: vec![0.0; rows * nd] }
    }
    pub fn identity(n: usize) -> DenseDeriv {
        let mut d = DenseDeriv::zeros(n, n);
        (0..n).for_each(|i| d.data[i * n + i] = 1.0);
        d
    }
    #[inline]
    pub fn get(&self, row: usize, dir: usize) -> f64 {
        self.data[dir * self.rows + row]
    }
    pub fn column(&self, dir: usize) -> &[f64] {
        &self.data[dir * self.rows..(dir + 1) * self.rows]
    }
    pub fn column_mut(&mut self, dir: usize) -> &mut [f64] {
        &mut self.data[dir * self.rows..(dir + 1) * self.rows]
    }
}

/// How output element k of an elementwise operation reads one operand.
#[derive(Clone, Debug)]
pub enum RowMap {
    /// Element k reads element k.
    Identity,
    /// Every element reads the operand's single element.
    Scalar,
    /// Element k reads element `map[k]` (implicit expansion, indexing).
    Gather(Vec<usize>),
}

impl RowMap {
    #[inline]
    pub fn source(&self, k: usize) -> usize {
        match self {
            RowMap::Identity => k,
            RowMap::Scalar => 0,
            RowMap::Gather(m) => m[k],
        }
    }
}

impl Deriv {
    pub fn is_zero(&self) -> bool {
        matches!(self, Deriv::Zero)
    }

    /// Rows of `self` selected by `map`, `rows` of them.
    pub fn gather(&self, map: &RowMap, rows: usize) -> Deriv {
        let Deriv::Dense(d) = self else { return Deriv::Zero };
        if let RowMap::Identity = map {
            if d.rows == rows {
                return self.clone();
            }
        }
        let mut out = DenseDeriv::zeros(rows, d.nd);
        for j in 0..d.nd {
            let src = d.column(j);
            for (k, o) in out.column_mut(j).iter_mut().enumerate() {
                *o = src[map.source(k)];
            }
        }
        Deriv::Dense(out)
    }
}

impl Deriv {
    /// A block of `rows` rows, zero except row `o` = row `i` of `self` for each pair `(o, i)`.
    pub fn scatter(&self, pairs: &[(usize, usize)], rows: usize) -> Deriv {
        let Deriv::Dense(d) = self else { return Deriv::Zero };
        let mut out = DenseDeriv::zeros(rows, d.nd);
        for j in 0..d.nd {
            let (src, dst) = (d.column(j), out.column_mut(j));
            pairs.iter().for_each(|&(o, i)| dst[o] = src[i]);
        }
        Deriv::Dense(out)
    }
}

/// `sum_t coef_t[k] * d_t[map_t(k), :]` over the non-zero terms: the forward rule of every elementwise
/// operation. `coefs` has one entry per output element.
pub fn combine(terms: &[(&[f64], &Deriv, &RowMap)], rows: usize) -> Deriv {
    let mut out: Option<DenseDeriv> = None;
    for (coefs, deriv, map) in terms {
        let Deriv::Dense(d) = deriv else { continue };
        let o = out.get_or_insert_with(|| DenseDeriv::zeros(rows, d.nd));
        for j in 0..d.nd {
            let src = d.column(j);
            for (k, dst) in o.column_mut(j).iter_mut().enumerate() {
                *dst += coefs[k] * src[map.source(k)];
            }
        }
    }
    out.map_or(Deriv::Zero, Deriv::Dense)
}
