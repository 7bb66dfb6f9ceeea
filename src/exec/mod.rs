//! The evaluator of prepared code: the interpreter (modes, tape recording, control flow), the scalar
//! register machine of loops, and the containers (cells, structs) it builds.

pub mod containers;
pub mod interp;
mod scalar;
