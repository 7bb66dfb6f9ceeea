//! Recursive-descent parser over the lexer's tokens: files and functions here, statements in `stmt`,
//! expressions in `expr`.

mod expr;
mod stmt;

use super::ast::{BinOp, Expr, ExprKind, File, FileKind, Function, Ident, LValue, Param, Stmt, StmtKind};
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
    let functions_closed_by_end = functions_closed_by_end(&lexed.tokens);
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

/// Whether the file closes its functions with `end`: then it has one more block end per function than the
/// other blocks need.
fn functions_closed_by_end(tokens: &[Token]) -> bool {
    let (mut opened, mut closed) = (0usize, 0usize);
    for token in tokens {
        match token.tok {
            Tok::Kw(kw) if kw.opens_end_block() => opened += 1,
            Tok::Kw(kw) if kw.is_end() => closed += 1,
            _ => {}
        }
    }
    closed > opened
}

/// `if nargin < position, name = value; end`
fn default_value(name: Ident, position: usize, value: Expr) -> Stmt {
    let span = name.span.to(value.span);
    let expr = |kind| Expr { kind, span };
    let too_few = ExprKind::Binary {
        op: BinOp::Lt,
        lhs: Box::new(expr(ExprKind::Ident("nargin".into()))),
        rhs: Box::new(expr(ExprKind::Number(position as f64))),
    };
    let target = LValue::Var { name, accessors: Vec::new(), span };
    let assign = Stmt { kind: StmtKind::Assign { targets: vec![target], rhs: value }, span, display: false };
    let kind = StmtKind::If { clauses: vec![(expr(too_few), vec![assign])], else_body: None };
    Stmt { kind, span, display: true }
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

    fn bump(&mut self) -> Token {
        let token = self.tokens[self.pos].clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        token
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
        if *self.peek() == Tok::Eof {
            if let Some(lex_error) = &self.lex_error {
                return lex_error.clone();
            }
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
            return Ok(self.bump().span);
        }
        Err(self.expected(what))
    }

    /// Expects the closing bracket `close` of the `open` bracket at `open_span`.
    fn expect_close(&mut self, close: &Tok, open: &Tok, open_span: Span) -> Result<Span> {
        let what = format!("{close} to close {open} opened at {}", self.position(open_span));
        self.expect(close, &what)
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

    fn file(&mut self) -> Result<File> {
        self.skip_separators();
        let kind = match self.peek() {
            Tok::Kw(Kw::Function) => FileKind::Function,
            Tok::Kw(Kw::Classdef) => return self.classdef(),
            _ => FileKind::Script,
        };
        let mut body = Vec::new();
        let mut functions = Vec::new();
        loop {
            body.extend(self.block()?);
            match self.peek() {
                Tok::Eof => break,
                Tok::Kw(Kw::Function) => functions.push(self.function()?),
                _ => return Err(self.expected("a statement")),
            }
        }
        if let Some(error) = self.lex_error.take() {
            return Err(error);
        }
        Ok(File { kind, body, functions })
    }

    /// `function [out, ...] = name(in, ...)` with its body, nested functions and (if the file uses them) `end`.
    fn function(&mut self) -> Result<Function> {
        let start = self.expect(&Tok::Kw(Kw::Function), "'function'")?;
        let outputs = self.function_outputs()?;
        let name = self.function_name()?;
        let (inputs, defaults) = self.function_inputs()?;
        self.nested_functions.push(Vec::new());
        let body = self.block();
        let nested = self.nested_functions.pop().unwrap_or_default();
        let body = defaults.into_iter().chain(body?).collect();
        if self.functions_closed_by_end {
            self.expect_end(Kw::Function, start)?;
        } else if !matches!(self.peek(), Tok::Eof | Tok::Kw(Kw::Function)) {
            return Err(self.expected("a statement"));
        }
        Ok(Function { name, inputs, outputs, body, nested, span: start.to(self.prev_end()) })
    }

    /// Inside a function of a file whose functions end with `end`, a `function` (even within an `if`) is nested.
    pub(super) fn at_nested_function(&self) -> bool {
        self.functions_closed_by_end && !self.nested_functions.is_empty() && self.at_keyword(Kw::Function)
    }

    /// Parses a nested function into the list of the function being parsed.
    pub(super) fn nested_function(&mut self) -> Result<()> {
        let function = self.nested(Self::function)?;
        if let Some(siblings) = self.nested_functions.last_mut() {
            siblings.push(function);
        }
        Ok(())
    }

    fn function_outputs(&mut self) -> Result<Vec<Ident>> {
        if *self.peek() == Tok::LBracket {
            let open = self.bump().span;
            let mut outputs = Vec::new();
            while !self.eat(&Tok::RBracket) {
                if !self.eat(&Tok::Comma) {
                    if !matches!(self.peek(), Tok::Ident(_)) {
                        return Err(self.expected(&format!(
                            "an output name or ']' to close '[' opened at {}",
                            self.position(open)
                        )));
                    }
                    outputs.push(self.ident("an output name")?);
                }
            }
            self.bump();
            return Ok(outputs);
        }
        if matches!(self.peek(), Tok::Ident(_)) && *self.peek_at(1) == Tok::Assign {
            let output = self.ident("an output name")?;
            self.bump();
            return Ok(vec![output]);
        }
        Ok(Vec::new())
    }

    /// A function name; dotted for classdef property accessors (`get.Prop`).
    fn function_name(&mut self) -> Result<Ident> {
        let mut name = self.ident("a function name")?;
        while *self.peek() == Tok::Dot && matches!(self.peek_at(1), Tok::Ident(_)) {
            self.bump();
            let part = self.ident("a name")?;
            name.name = format!("{}.{}", name.name, part.name);
            name.span = name.span.to(part.span);
        }
        Ok(name)
    }

    /// The parameter list, and for Octave's default values (`opt = 0`) the statements
    /// `if nargin < k, opt = 0; end` that give them.
    fn function_inputs(&mut self) -> Result<(Vec<Param>, Vec<Stmt>)> {
        let mut inputs = Vec::new();
        let mut defaults = Vec::new();
        if *self.peek() != Tok::LParen {
            return Ok((inputs, defaults));
        }
        let open = self.bump().span;
        if self.eat(&Tok::RParen) {
            return Ok((inputs, defaults));
        }
        loop {
            let param = self.param()?;
            if let (Param::Name(name), true) = (&param, self.eat(&Tok::Assign)) {
                defaults.push(default_value(name.clone(), inputs.len() + 1, self.expr()?));
            }
            inputs.push(param);
            if !self.eat(&Tok::Comma) {
                self.expect_close(&Tok::RParen, &Tok::LParen, open)?;
                return Ok((inputs, defaults));
            }
        }
    }

    /// A parameter name or `~`.
    fn param(&mut self) -> Result<Param> {
        if *self.peek() == Tok::Not {
            return Ok(Param::Ignored(self.bump().span));
        }
        Ok(Param::Name(self.ident("a parameter name")?))
    }

    fn ident(&mut self, what: &str) -> Result<Ident> {
        match self.peek().clone() {
            Tok::Ident(name) => Ok(Ident { name, span: self.bump().span }),
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

    /// A classdef file: its body is skipped (classes are not supported by the lowering), but its blocks must
    /// balance.
    fn classdef(&mut self) -> Result<File> {
        let start = self.bump().span;
        let mut open_blocks = vec![start];
        while let Some(&open) = open_blocks.last() {
            match self.peek() {
                Tok::Eof => {
                    return Err(
                        self.expected(&format!("'end' to close 'classdef' block opened at {}", self.position(open)))
                    );
                }
                Tok::Kw(kw) if kw.is_end() => {
                    open_blocks.pop();
                }
                Tok::Kw(Kw::Function) if !self.functions_closed_by_end => {}
                Tok::Kw(kw) if kw.opens_end_block() || *kw == Kw::Function => open_blocks.push(self.span()),
                _ => {}
            }
            self.bump();
        }
        Ok(File { kind: FileKind::Classdef, body: Vec::new(), functions: Vec::new() })
    }
}
