//! Front-end: lexer, parser and pretty-printer for MATLAB/Octave source.

pub mod ast;
mod lexer;
pub use lexer::simple_escape;
pub mod octave_text;
mod parser;
pub mod printer;
mod token;

use crate::diag::{Result, SourceFile};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Parses a whole `.m` file (function file, script, or classdef which is reported as unsupported later).
pub fn parse(file: &Arc<SourceFile>) -> Result<ast::File> {
    parser::parse_tokens(file, lexer::lex(file))
}

/// A node's debug text with every span removed: equal for trees that differ only in source positions.
pub fn without_spans<T: std::fmt::Debug>(node: &T) -> String {
    let text = format!("{node:?}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(start) = rest.find("Span { lo: ") {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        rest = &rest[rest.find('}').map_or(rest.len(), |i| i + 1)..];
    }
    out.push_str(rest);
    out
}

/// All `.m` files under `dir` (recursively), sorted.
pub fn find_m_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "m") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[cfg(test)]
mod tests;
