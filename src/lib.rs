//! msad: automatic differentiation of Octave/MATLAB code.
//!
//! Pipeline, one module per stage: `syntax` (lexer, parser, AST) -> `ir` (CFG in SSA form) -> `analysis`
//! (class/shape/constant/activity inference) -> `ad` (forward derivative rules, sparsity, colouring) ->
//! `exec` (values, primitive kernels, evaluator) -> `mex` (the Octave/MATLAB gateway, the only unsafe code).
//! `engine` ties the stages together behind one call.

pub mod diag;
pub mod syntax;
pub mod ad;
pub mod exec;
pub mod engine;
pub mod mex;
