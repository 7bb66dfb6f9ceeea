//! Static analysis of a lowered program for one input signature:
//! - inlining (`inline_calls`): calls of small straight-line user functions become copies of their
//!   bodies, which keep the callee's name and file for errors;
//! - sparse conditional constant propagation over a lattice of class, dims and constant value
//!   (`types`): constants are folded by running the primitive's own kernel, so folding can never
//!   disagree with evaluation; branches on constants make only one side executable;
//! - common-subexpression elimination (`eliminate_common_subexpressions`) over the dominator tree;
//! - linearity (`constant_derivatives`): derivatives that are the same on every call;
//! - liveness (`moves`): the last read of each value, so the evaluator can move instead of copy;
//! - ranges read only as subscripts (`subscript_ranges`), which the evaluator never materialises;
//! - activity (`activity`): which values depend on the differentiated argument. Inactive values are
//!   computed by the primal kernels only, never differentiated.

mod activity;
mod cse;
mod dominance;
mod inline;
mod linearity;
mod liveness;
mod regions;
mod sccp;
mod subscript_ranges;
pub mod verify;

pub use activity::{Activity, activity};
pub use cse::eliminate_common_subexpressions;
pub use dominance::immediate_forward_dominators;
pub use inline::inline_calls;
pub use linearity::constant_derivatives;
pub use liveness::{Moves, moves};
pub use regions::two_sided_joins;
pub use sccp::{Class, Lattice, fold_constants, propagate};
pub use subscript_ranges::{read_only_by_selections, subscript_ranges};

/// What is known about one argument at the call: class and dims (values are not constants).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArgSignature {
    pub class: Class,
    pub dims: Vec<usize>,
}
