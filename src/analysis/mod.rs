//! Static analysis of a lowered program for one input signature:
//! - sparse conditional constant propagation over a lattice of class, dims and constant value
//!   (`types`): constants are folded by running the primitive's own kernel, so folding can never
//!   disagree with evaluation; branches on constants make only one side executable;
//! - liveness (`moves`): the last read of each value, so the evaluator can move instead of copy;
//! - activity (`activity`): which values depend on the differentiated argument. Inactive values are
//!   computed by the primal kernels only, never differentiated.

mod activity;
mod liveness;
mod sccp;

pub use activity::{Activity, activity};
pub use liveness::{Moves, moves};
pub use sccp::{Class, Lattice, fold_constants, propagate};

/// What is known about one argument at the call: class and dims (values are not constants).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArgSignature {
    pub class: Class,
    pub dims: Vec<usize>,
}
