//! Dense factorizations through faer on column-major slices: LU with partial pivoting (solves, inverse,
//! determinant, condition estimate), QR pseudo-inverses and SVDs, for the linear-algebra rules.

use crate::value::interrupt;
use faer::linalg::solvers::{DenseSolveCore, PartialPivLu, Solve, SolveLstsq};
use faer::{Mat, MatMut, MatRef};
use std::cell::RefCell;
use std::rc::Rc;

/// Column-major copy of a faer matrix.
pub(super) fn to_vec(m: MatRef<'_, f64>) -> Vec<f64> {
    (0..m.ncols()).flat_map(|j| (0..m.nrows()).map(move |i| m[(i, j)])).collect()
}

/// Column-major transpose of an m x n matrix.
pub(super) fn transpose<T: Copy>(a: &[T], m: usize, n: usize) -> Vec<T> {
    (0..m).flat_map(|i| (0..n).map(move |j| a[i + m * j])).collect()
}

fn view(a: &[f64], m: usize, n: usize) -> MatRef<'_, f64> {
    MatRef::from_column_major_slice(a, m, n)
}

/// A square matrix factored once, for the primal solve and every derivative direction.
pub(super) struct Lu {
    n: usize,
    lu: PartialPivLu<f64>,
}

thread_local! {
    /// The last matrix factored on this thread and its factors: a rule runs right after its kernel on
    /// the same matrix, so the primal and every derivative direction share one factorization.
    static LAST_FACTORED: RefCell<Option<(Vec<f64>, Rc<Lu>)>> = const { RefCell::new(None) };
}

impl Lu {
    /// A factorization long enough for the user to want to stop it (about n^3 / 3 multiply-adds)
    /// runs where Ctrl-C can interrupt it (`interrupt::abandonable`).
    pub fn new(a: &[f64], n: usize) -> Lu {
        let lu = if interrupt::items_per_poll(n * n) >= n {
            view(a, n, n).partial_piv_lu()
        } else {
            interrupt::abandonable(a.to_vec(), move |a| view(&a, n, n).partial_piv_lu())
        };
        Lu { n, lu }
    }

    /// The factors of the n x n matrix `a`, reused when it equals the last matrix factored here.
    pub fn shared(a: &[f64], n: usize) -> Rc<Lu> {
        LAST_FACTORED.with(|last| {
            let mut last = last.borrow_mut();
            if let Some((matrix, lu)) = last.as_ref()
                && matrix.as_slice() == a
            {
                return lu.clone();
            }
            let lu = Rc::new(Lu::new(a, n));
            *last = Some((a.to_vec(), lu.clone()));
            lu
        })
    }

    /// An exactly zero pivot: the matrix is singular.
    pub fn is_singular(&self) -> bool {
        (0..self.n).any(|i| self.lu.U()[(i, i)] == 0.0)
    }

    /// Solves `A X = rhs` in place for `cols` right-hand sides (column-major n x cols).
    pub fn solve_in_place(&self, rhs: &mut [f64], cols: usize) {
        self.lu.solve_in_place(MatMut::from_column_major_slice_mut(rhs, self.n, cols));
    }

    fn solve_transpose_in_place(&self, rhs: &mut [f64]) {
        self.lu.solve_transpose_in_place(MatMut::from_column_major_slice_mut(rhs, self.n, 1));
    }

    pub fn inverse(&self) -> Vec<f64> {
        to_vec(self.lu.inverse().as_ref())
    }

    pub fn determinant(&self) -> f64 {
        let negative = is_odd(self.lu.P().arrays().0);
        let product: f64 = (0..self.n).map(|i| self.lu.U()[(i, i)]).product();
        if negative { -product } else { product }
    }

    /// Reciprocal condition number in the 1-norm, `||A^-1||_1` estimated by Hager's method with
    /// Higham's safeguard (as LAPACK's dgecon does).
    pub fn rcond(&self, a: &[f64]) -> f64 {
        let n = self.n;
        if n == 0 {
            return f64::INFINITY;
        }
        if self.is_singular() {
            return 0.0;
        }
        let norm1 = |v: &[f64]| v.iter().map(|x| x.abs()).sum::<f64>();
        let a_norm = (0..n).map(|j| norm1(&a[j * n..(j + 1) * n])).fold(0.0, f64::max);
        let mut x = vec![1.0 / n as f64; n];
        let mut estimate = 0.0;
        for iteration in 0..5 {
            let mut y = x.clone();
            self.solve_in_place(&mut y, 1);
            let new_estimate = norm1(&y);
            if iteration > 0 && new_estimate <= estimate {
                break;
            }
            estimate = new_estimate;
            let mut z: Vec<f64> = y.iter().map(|&v| if v >= 0.0 { 1.0 } else { -1.0 }).collect();
            self.solve_transpose_in_place(&mut z);
            let (j, zj) = z.iter().enumerate().fold((0, 0.0), |best, (i, &v)| if v.abs() > best.1 { (i, v.abs()) } else { best });
            let ztx: f64 = z.iter().zip(&x).map(|(a, b)| a * b).sum();
            if zj <= ztx {
                break;
            }
            x.fill(0.0);
            x[j] = 1.0;
        }
        let mut alternating: Vec<f64> =
            (0..n).map(|i| (if i % 2 == 0 { 1.0 } else { -1.0 }) * (1.0 + i as f64 / (n.max(2) - 1) as f64)).collect();
        self.solve_in_place(&mut alternating, 1);
        let estimate = f64::max(estimate, 2.0 * norm1(&alternating) / (3.0 * n as f64));
        1.0 / (a_norm * estimate)
    }
}

/// Whether the permutation `forward` is odd: its sign is (-1)^(n - number of cycles).
pub(super) fn is_odd(forward: &[usize]) -> bool {
    let mut seen = vec![false; forward.len()];
    let mut negative = false;
    for start in 0..forward.len() {
        let mut length = 0;
        let mut i = start;
        while !seen[i] {
            seen[i] = true;
            i = forward[i];
            length += 1;
        }
        negative ^= length > 0 && length % 2 == 0;
    }
    negative
}

/// Pseudo-inverse (n x m) of a full-rank m x n matrix through QR; `None` when it is rank-deficient.
pub(super) fn pseudo_inverse(a: &[f64], m: usize, n: usize) -> Option<Vec<f64>> {
    if m < n {
        return pseudo_inverse(&transpose(a, m, n), n, m).map(|p| transpose(&p, m, n));
    }
    let qr = view(a, m, n).qr();
    let r = qr.thin_R();
    let largest = (0..n).map(|i| r[(i, i)].abs()).fold(0.0, f64::max);
    if (0..n).any(|i| r[(i, i)].abs() <= largest * m as f64 * f64::EPSILON) {
        return None;
    }
    let mut identity = Mat::<f64>::identity(m, m);
    qr.solve_lstsq_in_place(identity.as_mut());
    Some(to_vec(identity.as_ref().subrows(0, n)))
}

/// Singular value decomposition `A = U diag(s) V'` (full U, V; s nonincreasing); `None` when it does
/// not converge (NaN entries).
pub(super) struct Svd {
    pub u: Vec<f64>,
    pub s: Vec<f64>,
    pub v: Vec<f64>,
}

pub(super) fn svd(a: &[f64], m: usize, n: usize) -> Option<Svd> {
    let svd = view(a, m, n).svd().ok()?;
    let s = svd.S().column_vector();
    Some(Svd { u: to_vec(svd.U()), s: (0..m.min(n)).map(|i| s[i]).collect(), v: to_vec(svd.V()) })
}

#[cfg(test)]
mod tests {
    use super::Lu;
    use std::rc::Rc;

    #[test]
    fn a_matrix_is_factored_once_for_its_kernel_and_rule() {
        let (a, b) = ([2.0, 1.0, 1.0, 3.0], [2.0, 1.0, 1.0, 4.0]);
        assert!(Rc::ptr_eq(&Lu::shared(&a, 2), &Lu::shared(&a, 2)));
        let first = Lu::shared(&a, 2);
        assert!(!Rc::ptr_eq(&first, &Lu::shared(&b, 2)));
        assert_eq!(Lu::shared(&b, 2).determinant(), 7.0);
    }
}
