//! Recursive-descent parser over the lexer's tokens: files and functions here, statements in `stmt`,
//! expressions in `expr`.

mod expr;
mod file;
mod stmt;

use super::ast::{File, Function, Ident, Param};
use super::lexer::Lexed;
use super::token::{Kw, Tok, Token};
use crate::diag::{Diagnostic, ErrorKind, Result, SourceFile, Span};
use std::sync::Arc;

/// Deeper nesting of expressions or blocks than this is a parse error rather than a stack overflow.
pub const MAX_DEPTH: usize = 100;

/// Deepest syntax tree accepted, counting operator chains (`1+1+...` is a deep tree built without recursion)
/// so that recursive consumers of the tree (printer, lowering, drop) stay within the stack.
pub const MAX_TREE_DEPTH: usize = 2000;

pub fn parse_tokens(file: &Arc<SourceFile>, lexed: Lexed) -> Result<File> {
    let functions_closed_by_end = file::functions_closed_by_end(&lexed.tokens);
    let mut parser = Parser {
        file,
        tokens: lexed.tokens,
        pos: 0,
        lex_error: lexed.error,
        depth: 0,
        tree_depth: 0,
        functions_closed_by_end,
        nested_functions: Vec::new(),
    };
    parser.file()
}

pub(super) struct Parser<'a> {
    file: &'a Arc<SourceFile>,
    tokens: Vec<Token>,
    pos: usize,
    lex_error: Option<Diagnostic>,
    depth: usize,
    tree_depth: usize,
    functions_closed_by_end: bool,
    /// For each function being parsed, the functions nested in it so far.
    nested_functions: Vec<Vec<Function>>,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        &self.tokens[self.pos].tok
    }

    fn peek_at(&self, ahead: usize) -> &Tok {
        let last = self.tokens.len() - 1;
        &self.tokens[(self.pos + ahead).min(last)].tok
    }

    fn span(&self) -> Span {
        self.tokens[self.pos].span
    }

    /// End of the previous token: where a construct that just finished ends.
    fn prev_end(&self) -> Span {
        let hi = self.tokens[self.pos.saturating_sub(1)].span.hi as usize;
        Span::new(hi, hi)
    }

    /// Moves past the current token (never past `Eof`); returns its span.
    fn bump(&mut self) -> Span {
        let span = self.span();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        span
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        let found = self.peek() == tok;
        if found {
            self.bump();
        }
        found
    }

    fn at_keyword(&self, kw: Kw) -> bool {
        *self.peek() == Tok::Kw(kw)
    }

    fn position(&self, span: Span) -> String {
        let (line, col) = self.file.line_col(span.lo);
        format!("{line}:{col}")
    }

    /// "expected X, found <current token>" at the current token; a lexing error if the lexer stopped here.
    fn expected(&self, what: &str) -> Diagnostic {
        if *self.peek() == Tok::Eof
            && let Some(lex_error) = &self.lex_error
        {
            return lex_error.clone();
        }
        let found = match self.peek() {
            Tok::Num(_) | Tok::Imag(_) => {
                let span = self.span();
                format!("number '{}'", &self.file.text[span.lo as usize..span.hi as usize])
            }
            tok => tok.to_string(),
        };
        let message = format!("parse error: expected {what}, found {found}");
        Diagnostic::new(ErrorKind::Parse, message).at(self.file, self.span())
    }

    fn expect(&mut self, tok: &Tok, what: &str) -> Result<Span> {
        if self.peek() == tok {
            return Ok(self.bump());
        }
        Err(self.expected(what))
    }

    /// Expects the closing bracket `close` of the `open` bracket at `open_span`.
    /// The message is built only on failure: the opening bracket's position costs a scan of its line.
    fn expect_close(&mut self, close: &Tok, open: &Tok, open_span: Span) -> Result<Span> {
        if self.peek() == close {
            return Ok(self.bump());
        }
        Err(self.expected(&format!("{close} to close {open} opened at {}", self.position(open_span))))
    }

    /// Runs `inner` one nesting level deeper, refusing to go beyond `MAX_DEPTH`.
    fn nested<T>(&mut self, inner: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_DEPTH {
            return Err(self.too_deep(MAX_DEPTH));
        }
        self.depth += 1;
        let tree_depth = self.tree_depth;
        self.link()?;
        let result = inner(self);
        self.depth -= 1;
        self.tree_depth = tree_depth;
        result
    }

    /// Counts one more level of the tree being built by a loop (an operator chain); the caller restores
    /// `tree_depth` when its chain is complete.
    fn link(&mut self) -> Result<()> {
        self.tree_depth += 1;
        if self.tree_depth > MAX_TREE_DEPTH {
            return Err(self.too_deep(MAX_TREE_DEPTH));
        }
        Ok(())
    }

    fn too_deep(&self, limit: usize) -> Diagnostic {
        let message = format!("parse error: expression or block nested more than {limit} levels deep");
        Diagnostic::new(ErrorKind::Parse, message).at(self.file, self.span())
    }

    fn skip_separators(&mut self) {
        while matches!(self.peek(), Tok::Newline | Tok::Semi | Tok::Comma) {
            self.bump();
        }
    }

    /// A parameter name or `~`.
    fn param(&mut self) -> Result<Param> {
        if *self.peek() == Tok::Not {
            return Ok(Param::Ignored(self.bump()));
        }
        Ok(Param::Name(self.ident("a parameter name")?))
    }

    fn ident(&mut self, what: &str) -> Result<Ident> {
        match self.peek().clone() {
            Tok::Ident(name) => Ok(Ident { name, span: self.bump() }),
            _ => Err(self.expected(what)),
        }
    }

    /// At `[`: whether the matching `]` is followed by `=` (a multi-assignment or a function's output list).
    fn bracket_followed_by_assign(&self) -> bool {
        let mut depth = 0usize;
        for (offset, token) in self.tokens[self.pos..].iter().enumerate() {
            match token.tok {
                Tok::LBracket | Tok::LParen | Tok::LBrace => depth += 1,
                Tok::RBracket | Tok::RParen | Tok::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        return *self.peek_at(offset + 1) == Tok::Assign;
                    }
                }
                Tok::Newline | Tok::Eof => return false,
                _ => {}
            }
        }
        false
    }

    /// Expects the `end` (or its specific spelling) closing the `opener` keyword at `open_span`.
    fn expect_end(&mut self, opener: Kw, open_span: Span) -> Result<()> {
        let specific = match opener {
            Kw::If => "endif",
            Kw::For => "endfor",
            Kw::Parfor => "endparfor",
            Kw::While => "endwhile",
            Kw::Switch => "endswitch",
            Kw::Try => "end_try_catch",
            Kw::UnwindProtect => "end_unwind_protect",
            Kw::Function => "endfunction",
            _ => "end",
        };
        if matches!(self.peek(), Tok::Kw(Kw::End)) || *self.peek() == Tok::Kw(Kw::EndSpelled(specific)) {
            self.bump();
            return Ok(());
        }
        let what = format!("'end' to close '{}' opened at {}", opener.spelling(), self.position(open_span));
        Err(self.expected(&what))
    }
}
