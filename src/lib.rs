//! msad: automatic differentiation of Octave/MATLAB code.
//!
//! Pipeline, one module per stage: `syntax` (lexer, parser, AST) -> `ir` (CFG in SSA form) -> `analysis`
//! (constant/class/shape propagation, activity) -> `ad` (sparsity, colouring, compression) -> `exec`
//! (values, the primitive table with kernels and forward rules, the evaluator) -> `mex` (the Octave/MATLAB
//! gateway, the only unsafe code). `engine` ties the stages together behind one call.

#![deny(unsafe_code)]

pub mod ad;
pub mod analysis;
pub mod diag;
pub mod engine;
pub mod exec;
pub mod host;
pub mod ids;
pub mod ir;
#[allow(unsafe_code)]
pub mod mex;
pub mod prim;
pub mod primitives;
pub mod syntax;
pub mod value;
