//! `Deriv::scatter` of a dense block (src/value/deriv.rs): rows in increasing order are written in one
//! pass with the gaps zeroed; any other order zero-fills first. Both give the block with row `o` equal
//! to source row `i` for each pair `(o, i)` and zero elsewhere, bit for bit.

use msad::value::deriv::{DenseDeriv, Deriv};

fn expected(source: &DenseDeriv, pairs: &[(usize, usize)], rows: usize) -> Vec<f64> {
    let mut out = vec![0.0; rows * source.nd];
    for j in 0..source.nd {
        pairs.iter().for_each(|&(o, i)| out[j * rows + o] = source.get(i, j));
    }
    out
}

#[test]
fn scatter_places_rows_and_zeroes_the_rest_in_any_order() {
    let (n, nd) = (5, 3);
    let data: Vec<f64> = (0..n * nd).map(|k| if k % 4 == 0 { -0.0 } else { 1.0 / (k as f64 + 0.5) }).collect();
    let source = DenseDeriv::from_seed(n, nd, data);
    let cases: [(&[(usize, usize)], usize); 6] = [
        (&[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4)], 7), // [1; u; 1]: gaps at both ends
        (&[(0, 4), (3, 0), (6, 2)], 8),                 // gaps between rows, and after
        (&[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)], 5), // no gap
        (&[], 4),                                       // nothing placed
        (&[(3, 0), (1, 1), (0, 4)], 4),                 // decreasing: zero-filled first
        (&[(2, 0), (2, 3)], 3),                         // a row written twice: the last pair wins
    ];
    for (pairs, rows) in cases {
        let Deriv::Dense(got) = Deriv::Dense(source.clone()).scatter(pairs, rows) else { panic!("a dense block") };
        assert_eq!((got.rows, got.nd), (rows, nd));
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&got.data), bits(&expected(&source, pairs, rows)), "{pairs:?}");
    }
}
