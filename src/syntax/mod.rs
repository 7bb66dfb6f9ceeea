//! Front-end: lexer, parser and pretty-printer for MATLAB/Octave source.

pub mod ast;
mod lexer;
pub use lexer::simple_escape;
mod parser;
pub mod printer;
mod token;

use crate::diag::{Result, SourceFile};
use std::sync::Arc;

/// Parses a whole `.m` file (function file, script, or classdef which is reported as unsupported later).
pub fn parse(file: &Arc<SourceFile>) -> Result<ast::File> {
    parser::parse_tokens(file, lexer::lex(file))
}
