//! Differentiation: sparsity patterns, colouring and compression; forward derivative rules live with
//! the primitives in `primitives`.

pub mod bicoloring;
pub mod coloring;
pub mod hessian;
mod ordering;
pub mod pattern;
pub mod reverse;
pub mod slot;
