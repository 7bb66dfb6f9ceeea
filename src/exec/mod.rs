//! Runtime: values, derivative blocks, indexing, the primitive table and the evaluator of prepared code.

pub(crate) mod buffers;
pub mod complex_sparse;
pub mod containers;
pub mod deriv;
pub mod host;
pub mod index;
pub mod interp;
pub mod interrupt;
pub mod memory;
pub mod primitives;
mod scalar;
pub mod slot;
pub mod small_list;
pub mod value;
pub mod warnings;
