//! The Hessian's sparsity from a tape recorded with sparse identity tangents (each operand element's
//! row lists the elements of x it depends on). Entry (i, j) is possible when some primitive's result
//! depends nonlinearly on a pair of operand elements u, v (its second-order `interactions`) with x_i in
//! u's dependencies and x_j in v's, or the reverse.

use super::tape::{Step, Tape};
use crate::ad::pattern::Pattern;
use crate::exec::deriv::Deriv;
use crate::exec::primitives::second_order::interactions;
use crate::exec::value::Value;

/// The (structurally symmetric) Hessian pattern, `n x n`.
pub(super) fn hessian_pattern(tape: &Tape, n: usize) -> Pattern {
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); n];
    for step in &tape.steps {
        let Step::Prim { id, inputs, output, second, tangents, .. } = step else { continue };
        if tangents.is_empty() {
            continue;
        }
        let values: Vec<&Value> = inputs.iter().collect();
        interactions(*id, *second, &values, output, |(a, i), (b, j)| {
            let (u, v) = (dependencies(&tangents[a], i), dependencies(&tangents[b], j));
            for &p in u {
                rows[p].extend_from_slice(v);
            }
            for &q in v {
                rows[q].extend_from_slice(u);
            }
        });
        // Keep rows from growing with repeats (a scalar objective of a long sum repeats each pair).
        for row in rows.iter_mut().filter(|r| r.len() > 2 * n) {
            row.sort_unstable();
            row.dedup();
        }
    }
    Pattern::from_rows(n, &rows)
}

/// Which elements of x element `i` of a value depends on (its sparse tangent row).
fn dependencies(tangent: &Deriv, i: usize) -> &[usize] {
    match tangent {
        Deriv::Sparse(s) => s.row(i).0,
        _ => &[],
    }
}
