//! Patterns, column colouring, seeding and decompression (src/ad/pattern.rs, src/ad/coloring.rs).

mod patterns;

use msad::ad::coloring::{Coloring, color_columns, decompress, decompress_exact, seed_matrix};
use msad::ad::pattern::Pattern;
use msad::value::SparseMatrix;
use patterns::{Rng, banded, brusselator, laplacian_2d, random_rows};

/// Every colour class is structurally orthogonal: no row holds two columns of one colour.
fn assert_valid(pattern: &Pattern, coloring: &Coloring) {
    assert_eq!(coloring.colors.len(), pattern.ncols());
    assert!(coloring.colors.iter().all(|&c| c < coloring.ncolors));
    assert!(coloring.ncolors >= pattern.max_row_nnz());
    let mut row_with_color = vec![usize::MAX; coloring.ncolors];
    for i in 0..pattern.nrows() {
        for &j in pattern.row(i) {
            let color = coloring.colors[j];
            assert_ne!(row_with_color[color], i, "row {i} has two columns of colour {color}");
            row_with_color[color] = i;
        }
    }
}

fn colors_of(rows: &[Vec<usize>], ncols: usize) -> usize {
    let pattern = Pattern::from_rows(ncols, rows);
    let coloring = color_columns(&pattern);
    assert_valid(&pattern, &coloring);
    coloring.ncolors
}

#[test]
fn from_rows_sorts_and_deduplicates() {
    let pattern = Pattern::from_rows(4, &[vec![3, 0, 3, 1], vec![], vec![2, 2]]);
    assert_eq!((pattern.nrows(), pattern.ncols(), pattern.nnz()), (3, 4, 4));
    assert_eq!(pattern.row(0), &[0, 1, 3]);
    assert_eq!(pattern.row(1), &[] as &[usize]);
    assert_eq!(pattern.col(3), &[0]);
    assert_eq!(pattern.max_row_nnz(), 3);
    assert_eq!(pattern.csr(), (&[0, 3, 3, 4][..], &[0, 1, 3, 2][..]));
    assert_eq!(pattern.csc(), (&[0, 1, 2, 3, 4][..], &[0, 0, 2, 0][..]));
}

#[test]
#[should_panic(expected = "out of range")]
fn from_rows_rejects_a_column_out_of_range() {
    Pattern::from_rows(2, &[vec![0, 2]]);
}

#[test]
fn constructors_agree_on_random_patterns() {
    let mut rng = Rng::new(7);
    for (nrows, ncols) in [(0, 0), (0, 3), (3, 0), (1, 1), (5, 9), (40, 17), (100, 100)] {
        let rows = if ncols == 0 { vec![vec![]; nrows] } else { random_rows(&mut rng, nrows, ncols, 6) };
        let pattern = Pattern::from_rows(ncols, &rows);
        let dense = pattern.to_dense();
        for (i, row) in rows.iter().enumerate() {
            assert!(row.iter().all(|&j| dense[j * nrows + i]));
        }
        assert_eq!(dense.iter().filter(|&&b| b).count(), pattern.nnz());
        assert_eq!(Pattern::from_dense(nrows, ncols, &dense), pattern);
        let (colptr, rowind) = pattern.csc();
        assert_eq!(Pattern::from_csc(nrows, ncols, colptr, rowind), pattern);
        let (row_start, col_index) = pattern.csr();
        assert_eq!(Pattern::from_csr(nrows, ncols, row_start, col_index), pattern);
        let sparse = SparseMatrix::new(nrows, ncols, colptr.to_vec(), rowind.to_vec(), vec![0.0; rowind.len()]);
        assert_eq!(Pattern::from_sparse(&sparse), pattern, "explicit zeros are structure");
        let transposed = pattern.clone().transpose();
        assert_eq!((transposed.nrows(), transposed.ncols()), (ncols, nrows));
        assert_eq!(transposed.csr(), pattern.csc());
        let transposed_dense: Vec<bool> = (0..nrows * ncols).map(|k| dense[(k % ncols) * nrows + k / ncols]).collect();
        assert_eq!(Pattern::from_dense(ncols, nrows, &transposed_dense), transposed);
        assert_eq!(transposed.transpose(), pattern);
    }
}

#[test]
fn union_holds_entries_of_either() {
    let mut rng = Rng::new(11);
    let a = Pattern::from_rows(30, &random_rows(&mut rng, 20, 30, 5));
    let b = Pattern::from_rows(30, &random_rows(&mut rng, 20, 30, 5));
    let union = a.union(&b);
    let expected: Vec<bool> = a.to_dense().iter().zip(b.to_dense()).map(|(&x, y)| x || y).collect();
    assert_eq!(union.to_dense(), expected);
    assert_eq!(a.union(&a), a);
}

#[test]
fn random_colorings_are_valid() {
    let mut rng = Rng::new(2024);
    for trial in 0..200 {
        let nrows = 1 + rng.below(60);
        let ncols = 1 + rng.below(60);
        let rows = random_rows(&mut rng, nrows, ncols, 1 + trial % 12);
        colors_of(&rows, ncols);
    }
}

#[test]
#[should_panic(expected = "two columns of colour 0")]
fn validity_check_rejects_a_shared_row() {
    let pattern = Pattern::from_rows(3, &banded(3, 1, 1));
    assert_valid(&pattern, &Coloring { colors: vec![0, 1, 0], ..color_columns(&pattern) });
}

#[test]
fn full_row_gives_one_color_per_column() {
    let coloring = color_columns(&Pattern::from_rows(5, &[vec![0], vec![4, 3, 2, 1, 0]]));
    assert_eq!(coloring.colors, vec![0, 1, 2, 3, 4]);
}

#[test]
fn banded_patterns_reach_the_row_bound() {
    assert_eq!(colors_of(&banded(1, 1, 1), 1), 1);
    assert_eq!(colors_of(&banded(50, 0, 0), 50), 1);
    for n in [3, 10, 1000] {
        assert_eq!(colors_of(&banded(n, 1, 1), n), 3, "tridiagonal n = {n}");
        assert_eq!(colors_of(&banded(n, 2, 2), n), n.min(5), "pentadiagonal n = {n}");
    }
    for n in [10, 100, 5000] {
        assert_eq!(colors_of(&banded(n, 5, 1), n), 7, "Broyden banded n = {n}");
    }
}

/// The literature's 5 colours come from the bandwidth; the row bound 4 is reachable, e.g. with
/// period-4 colours (u, v) = (0, 1), (2, 3), (1, 0), (3, 2).
#[test]
fn brusselator_reaches_the_row_bound() {
    for points in [3, 4, 5, 10, 101, 10000] {
        let rows = brusselator(points);
        let pattern = Pattern::from_rows(2 * points, &rows);
        assert_eq!(pattern.nnz(), 8 * points - 4);
        assert_eq!(colors_of(&rows, 2 * points), 4, "Brusselator N = {points}");
    }
}

#[test]
fn laplacian_within_two_of_the_bound() {
    for side in [3, 10, 50, 200] {
        let ncolors = colors_of(&laplacian_2d(side), side * side);
        assert!(ncolors <= 5 + 2, "Laplacian {side} x {side}: {ncolors} colours");
    }
}

/// A random sparse J with nonzero values on `pattern`, as a dense column-major matrix.
fn random_values(rng: &mut Rng, pattern: &Pattern) -> Vec<f64> {
    let mut dense = vec![0.0; pattern.nrows() * pattern.ncols()];
    for j in 0..pattern.ncols() {
        for &i in pattern.col(j) {
            dense[j * pattern.nrows() + i] = rng.nonzero_value();
        }
    }
    dense
}

/// B = J * S for a dense column-major J (m x n) and seed S (n x p).
fn times_seed(jacobian: &[f64], m: usize, coloring: &Coloring) -> Vec<f64> {
    let seed = seed_matrix(coloring);
    let (n, p) = (seed.rows(), seed.cols());
    assert_eq!((n, p), (coloring.colors.len(), coloring.ncolors));
    let mut product = vec![0.0; m * p];
    for c in 0..p {
        for j in 0..n {
            for i in 0..m {
                product[c * m + i] += jacobian[j * m + i] * seed.data[c * n + j];
            }
        }
    }
    product
}

#[test]
fn decompression_recovers_j_exactly() {
    let mut rng = Rng::new(99);
    for _ in 0..50 {
        let (m, n) = (1 + rng.below(40), 1 + rng.below(40));
        let pattern = Pattern::from_rows(n, &random_rows(&mut rng, m, n, 5));
        let coloring = color_columns(&pattern);
        let jacobian = random_values(&mut rng, &pattern);
        let recovered = decompress(&pattern, &coloring, &times_seed(&jacobian, m, &coloring)).unwrap();
        assert_eq!(recovered.colptr(), pattern.csc().0);
        assert_eq!(recovered.rowind(), pattern.csc().1);
        assert_eq!(recovered.to_dense().data, jacobian);
    }
}

#[test]
fn decompression_drops_exact_zeros() {
    let pattern = Pattern::from_rows(3, &banded(3, 1, 1));
    let coloring = color_columns(&pattern);
    let mut jacobian = random_values(&mut Rng::new(5), &pattern);
    jacobian[3 + 1] = 0.0; // J(2,2), 1-based
    let recovered = decompress(&pattern, &coloring, &times_seed(&jacobian, 3, &coloring)).unwrap();
    assert_eq!(recovered.nnz(), pattern.nnz() - 1);
    assert_eq!(recovered.to_dense().data, jacobian);
}

/// The single-pass decompression against the matrix itself, as Octave's `sparse` would store it:
/// structural entries that are zero (of either sign) dropped, every other entry bit for bit, the
/// checked and unchecked paths alike.
#[test]
fn single_pass_decompression_equals_sparse_of_the_matrix_bit_for_bit() {
    let mut rng = Rng::new(11);
    for (m, n) in [(1, 1), (7, 5), (40, 40), (30, 90), (120, 60)] {
        let pattern = Pattern::from_rows(n, &random_rows(&mut rng, m, n, 5));
        let coloring = color_columns(&pattern);
        let mut jacobian = random_values(&mut rng, &pattern);
        // Structurally present entries whose value is zero: +0, -0, and in a whole column.
        let mut present: Vec<usize> = (0..n).flat_map(|j| pattern.col(j).iter().map(move |&i| j * m + i)).collect();
        present.retain(|_| rng.below(4) == 0);
        for (k, &at) in present.iter().enumerate() {
            jacobian[at] = if k % 2 == 0 { 0.0 } else { -0.0 };
        }
        pattern.col(n / 2).iter().for_each(|&i| jacobian[n / 2 * m + i] = 0.0);
        let expected = SparseMatrix::from_dense(&msad::value::Array::new(vec![m, n], jacobian.clone()));
        let compressed = times_seed(&jacobian, m, &coloring);
        let checked = decompress(&pattern, &coloring, &compressed).unwrap();
        let exact = decompress_exact(&pattern, &coloring, &compressed);
        for got in [&checked, &exact] {
            assert_eq!((got.nrows(), got.ncols()), (m, n));
            assert_eq!(got.colptr(), expected.colptr(), "{m} x {n}");
            assert_eq!(got.rowind(), expected.rowind(), "{m} x {n}");
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(got.values()), bits(expected.values()), "{m} x {n}");
        }
    }
}

#[test]
fn wrong_pattern_is_rejected() {
    let n = 12;
    let pattern = Pattern::from_rows(n, &banded(n, 1, 1));
    let coloring = color_columns(&pattern);
    // An entry (row, column) whose colour the row's pattern lacks: the guard must see it.
    let (row, column) = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .find(|&(i, j)| pattern.row(i).iter().all(|&k| coloring.colors[k] != coloring.colors[j]))
        .unwrap();
    let mut jacobian = random_values(&mut Rng::new(3), &pattern);
    jacobian[column * n + row] = 1.0;
    let error = decompress(&pattern, &coloring, &times_seed(&jacobian, n, &coloring)).unwrap_err();
    assert_eq!(error.identifier(), "msad:badPattern");
    let color = coloring.colors[column];
    assert!(error.message.contains(&format!("row {} ", row + 1)), "{}", error.message);
    assert!(error.message.contains(&format!("colour group {}", color + 1)), "{}", error.message);
    assert!(error.hint.unwrap().contains("opts.sparsity = 'none'"));
}

#[test]
fn nan_outside_the_pattern_is_not_a_wrong_pattern() {
    // Every row of a tridiagonal pattern lacks some colour, so all-NaN puts NaN outside each row.
    let pattern = Pattern::from_rows(6, &banded(6, 1, 1));
    let coloring = color_columns(&pattern);
    let recovered = decompress(&pattern, &coloring, &vec![f64::NAN; 6 * coloring.ncolors]).unwrap();
    assert_eq!(recovered.nnz(), pattern.nnz(), "NaN is not an exact zero");
}

/// The power-flow Jacobian's pattern on a meshed network (benches/octave/bench_complex.m's: a ring plus
/// chords k -> 7k + 3): rows P_i and Q_i hold Va_j and Vm_j for j = i and i's neighbours. The three
/// greedy orderings alone need 20 colours at 2000 buses; the recolouring class by class needs fewer.
#[test]
fn recolouring_needs_fewer_colours_on_a_meshed_network() {
    let n = 2000;
    let mut neighbours: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    for k in 0..n {
        for to in [(k + 1) % n, (7 * k + 3) % n] {
            if to != k {
                neighbours[k].push(to);
                neighbours[to].push(k);
            }
        }
    }
    let row = |i: usize| neighbours[i].iter().flat_map(|&j| [j, n + j]).collect::<Vec<usize>>();
    let rows: Vec<Vec<usize>> = (0..2 * n).map(|r| row(r % n)).collect();
    let colours = colors_of(&rows, 2 * n);
    assert!(colours <= 18, "{colours} colours (row bound {})", Pattern::from_rows(2 * n, &rows).max_row_nnz());
}
