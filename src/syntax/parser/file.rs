//! Files and functions: the file kind, function headers and bodies, nested functions, classdef skipping.

use super::Parser;
use crate::diag::Result;
use crate::syntax::ast::{BinOp, Expr, ExprKind, File, FileKind, Function, Ident, LValue, Param, Stmt, StmtKind};
use crate::syntax::token::{Kw, Tok, Token};

/// Whether the file closes its functions with `end`: then it has one more block end per function than the
/// other blocks need.
pub(super) fn functions_closed_by_end(tokens: &[Token]) -> bool {
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

impl<'a> Parser<'a> {
    pub(super) fn file(&mut self) -> Result<File> {
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
            let open = self.bump();
            let mut outputs = Vec::new();
            while !self.eat(&Tok::RBracket) {
                if !self.eat(&Tok::Comma) {
                    if !matches!(self.peek(), Tok::Ident(_)) {
                        return Err(self.expected(&format!("an output name or ']' to close '[' opened at {}", self.position(open))));
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
        let open = self.bump();
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

    /// A classdef file: its body is skipped (classes are not supported by the lowering), but its blocks must
    /// balance.
    fn classdef(&mut self) -> Result<File> {
        let start = self.bump();
        let mut open_blocks = vec![start];
        while let Some(&open) = open_blocks.last() {
            match self.peek() {
                Tok::Eof => {
                    return Err(self.expected(&format!("'end' to close 'classdef' block opened at {}", self.position(open))));
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
