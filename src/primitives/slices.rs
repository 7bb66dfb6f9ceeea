//! The geometry shared by every function that works along one dimension (reductions, products,
//! `max`/`min`, `sort`, `diff`): an array seen as `before x len x after` around that dimension.

use super::elementwise::numeric;
use super::runtime;
use crate::diag::Result;
use crate::value::{Value, normalize_dims};

/// An array of `dims` cut into `before * after` slices along dimension `dim`; slice `s = b + before a`
/// holds the elements `b + before (k + len a)` for `k < len`.
pub(super) struct Slices {
    pub dims: Vec<usize>,
    pub dim: usize,
    pub before: usize,
    pub len: usize,
    pub after: usize,
}

impl Slices {
    pub fn new(dims: &[usize], dim: usize) -> Slices {
        // Every dimension past the last is a singleton: the first of them stands for all (`sum(x, 1e12)`
        // must not walk or pad a trillion dims).
        let dim = dim.min(dims.len());
        let size = |i: usize| dims.get(i).copied().unwrap_or(1);
        Slices {
            dims: dims.to_vec(),
            dim,
            before: (0..dim).map(size).product(),
            len: size(dim),
            after: dims.iter().skip(dim + 1).product(),
        }
    }

    pub fn count(&self) -> usize {
        self.before * self.after
    }

    /// Linear index of element `k` of slice `s`.
    #[inline]
    pub fn index(&self, s: usize, k: usize) -> usize {
        let (b, a) = (s % self.before.max(1), s / self.before.max(1));
        b + self.before * (k + self.len * a)
    }

    /// Slice and position in it of the element at linear index `i`.
    #[inline]
    pub fn locate(&self, i: usize) -> (usize, usize) {
        let (b, rest) = (i % self.before.max(1), i / self.before.max(1));
        let (k, a) = (rest % self.len.max(1), rest / self.len.max(1));
        (b + self.before * a, k)
    }

    /// The dims with dimension `dim` replaced by `len` (1 for a reduction).
    pub fn dims_with_len(&self, len: usize) -> Vec<usize> {
        let mut out = self.dims.clone();
        out.resize(out.len().max(self.dim + 1), 1);
        out[self.dim] = len;
        normalize_dims(out)
    }
}

/// MATLAB's default working dimension: the first non-singleton one (the first for scalars).
pub(super) fn first_non_singleton(dims: &[usize]) -> usize {
    dims.iter().position(|&d| d != 1).unwrap_or(0)
}

/// A zero-based dimension from a `DIM` argument (a positive integer scalar).
pub(super) fn dim_argument(name: &str, v: &Value) -> Result<usize> {
    match numeric(name, v)?.data.as_slice() {
        [k] if *k >= 1.0 && k.fract() == 0.0 => Ok(*k as usize - 1),
        _ => Err(runtime(format!("{name}: DIM must be a valid dimension"))),
    }
}

/// The dimension given by `arg`, or the default one.
pub(super) fn working_dim(name: &str, dims: &[usize], arg: Option<&Value>) -> Result<usize> {
    arg.map_or_else(|| Ok(first_non_singleton(dims)), |v| dim_argument(name, v))
}
