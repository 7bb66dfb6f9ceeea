//! Complex sparse matrices (a power-flow admittance matrix `Ybus`): `sprs` compressed-column storage of
//! complex doubles. They are constants of the differentiated code (read from the caller, made by
//! `conj`, `.'`, sums and products of such constants); derivative rules meet them through their real
//! and imaginary parts, real sparse matrices (`part`). Real and complex sparse values share the
//! conversions in `value` (generic over the scalar).

use crate::value::{Array, Complex64, SparseMatrix, Value, csc_from_dense, csc_to_dense, without_zeros};
use sprs::CsMat;

#[derive(Clone, Debug, PartialEq)]
pub struct ComplexSparse(pub CsMat<Complex64>);

impl ComplexSparse {
    /// A real sparse matrix as a complex one of the same pattern.
    pub fn from_real(re: &SparseMatrix) -> ComplexSparse {
        ComplexSparse(re.0.map(|&x| Complex64::new(x, 0.0)))
    }
    /// The matrix whose stored entries have the real parts and the pattern of `re` and the imaginary
    /// parts `im` (one per stored entry: Octave's storage of a complex sparse matrix).
    pub fn from_stored(re: SparseMatrix, im: &[f64]) -> ComplexSparse {
        let (shape, (colptr, rowind, values)) = (re.0.shape(), re.0.into_raw_storage());
        let values = values.into_iter().zip(im).map(|(re, &im)| Complex64::new(re, im)).collect();
        ComplexSparse(CsMat::new_csc(shape, colptr, rowind, values))
    }
    /// The stored entries of a complex dense matrix (exact zeros dropped, as Octave's `sparse` does).
    pub fn from_dense(a: &Array<Complex64>) -> ComplexSparse {
        ComplexSparse(csc_from_dense(a))
    }
    pub fn rows(&self) -> usize {
        self.0.rows()
    }
    pub fn cols(&self) -> usize {
        self.0.cols()
    }
    pub fn nnz(&self) -> usize {
        self.0.nnz()
    }
    /// The real (`imaginary` false) or imaginary parts at every stored entry (zeros kept: the pattern
    /// is the complex matrix's).
    pub fn part(&self, imaginary: bool) -> SparseMatrix {
        SparseMatrix(self.0.map(|z| if imaginary { z.im } else { z.re }))
    }
    pub fn to_dense(&self) -> Array<Complex64> {
        csc_to_dense(&self.0)
    }
    /// The matrix as Octave stores it: no entry whose value is exactly zero.
    pub fn without_zeros(&self) -> ComplexSparse {
        ComplexSparse(without_zeros(&self.0))
    }
    /// The value as Octave keeps it: real sparse when every imaginary part is zero.
    pub fn narrowed(self) -> Value {
        match self.0.data().iter().all(|z| z.im == 0.0) {
            true => Value::Sparse(self.part(false).as_stored().into_owned()),
            false => Value::ComplexSparse(self),
        }
    }
    /// The element at column-major index `k`.
    pub fn at(&self, k: usize) -> Complex64 {
        let rows = self.rows();
        self.0.get(k % rows, k / rows).copied().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_parts_join_and_split_back() {
        // 3 x 2: a real entry, an imaginary entry, and one with both parts.
        let re = SparseMatrix::new(3, 2, vec![0, 2, 3], vec![0, 1, 2], vec![1.5, 0.0, -2.0]);
        let z = ComplexSparse::from_stored(re.clone(), &[0.0, 3.0, 4.0]);
        assert_eq!(z.nnz(), 3);
        let dense = z.to_dense();
        let expected = [(1.5, 0.0), (0.0, 3.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0), (-2.0, 4.0)];
        assert_eq!(dense.data, expected.iter().map(|&(r, i)| Complex64::new(r, i)).collect::<Vec<_>>());
        assert_eq!((0..6).map(|k| z.at(k)).collect::<Vec<_>>(), dense.data);
        assert_eq!(z.part(false).to_dense().data, [1.5, 0.0, 0.0, 0.0, 0.0, -2.0]);
        assert_eq!(z.part(true).to_dense().data, [0.0, 3.0, 0.0, 0.0, 0.0, 4.0]);
        assert_eq!(ComplexSparse::from_dense(&dense), z);
        assert_eq!(
            ComplexSparse::from_real(&re).to_dense().data,
            re.to_dense().data.iter().map(|&r| Complex64::new(r, 0.0)).collect::<Vec<_>>()
        );
    }
}
