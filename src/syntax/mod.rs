//! Front-end: lexer, parser and pretty-printer for MATLAB/Octave source.

pub mod ast;

use crate::diag::{Result, SourceFile};
use std::sync::Arc;

/// Parses a whole `.m` file (function file, script, or classdef which is reported as unsupported later).
pub fn parse(file: &Arc<SourceFile>) -> Result<ast::File> {
    let _ = file;
    crate::diag::err(crate::diag::ErrorKind::Internal, "parser not written yet")
}
