//! Runtime: values, primitive kernels and the evaluator of prepared code.

pub mod value;
