//! Statements and blocks.

use super::Parser;
use crate::diag::{Diagnostic, ErrorKind, Result, Span};
use crate::syntax::ast::{Accessor, BinOp, Expr, ExprKind, Ident, LValue, Stmt, StmtKind};
use crate::syntax::token::{Kw, Tok};

/// Keywords that end a statement list; the enclosing construct decides whether they fit.
fn ends_block(tok: &Tok) -> bool {
    match tok {
        Tok::Eof => true,
        Tok::Kw(kw) => matches!(
            kw,
            Kw::End
                | Kw::EndSpelled(_)
                | Kw::Else
                | Kw::Elseif
                | Kw::Case
                | Kw::Otherwise
                | Kw::Catch
                | Kw::Until
                | Kw::UnwindProtectCleanup
                | Kw::Function
        ),
        _ => false,
    }
}

impl<'a> Parser<'a> {
    /// Statements up to a keyword that ends the block (left for the caller) or the end of input.
    pub(super) fn block(&mut self) -> Result<Vec<Stmt>> {
        self.nested(|parser| {
            let mut stmts = Vec::new();
            loop {
                parser.skip_separators();
                if parser.at_nested_function() {
                    parser.nested_function()?;
                    continue;
                }
                if ends_block(parser.peek()) {
                    return Ok(stmts);
                }
                parser.statement(&mut stmts)?;
            }
        })
    }

    /// Parses one statement onto `stmts` (a chained assignment gives several).
    fn statement(&mut self, stmts: &mut Vec<Stmt>) -> Result<()> {
        let start = self.span();
        let mut before = Vec::new();
        let kind = self.statement_kind(&mut before)?;
        let span = start.to(self.prev_end());
        let display = match self.peek() {
            Tok::Semi => false,
            Tok::Comma | Tok::Newline => true,
            tok if ends_block(tok) => true,
            _ => return Err(self.expected("';', ',' or end of line after the statement")),
        };
        stmts.extend(before.into_iter().map(|kind| Stmt { kind, span, display: false }));
        stmts.push(Stmt { kind, span, display });
        Ok(())
    }

    fn statement_kind(&mut self, before: &mut Vec<StmtKind>) -> Result<StmtKind> {
        let kw = match self.peek() {
            Tok::Kw(kw) => *kw,
            Tok::Ident(_) if matches!(self.peek_at(1), Tok::CmdWord(_)) => return self.command(),
            Tok::LBracket if self.bracket_followed_by_assign() => return self.multi_assignment(),
            Tok::PlusPlus | Tok::MinusMinus => return self.prefix_increment(),
            _ => return self.expression_statement(before),
        };
        let start = self.bump();
        Ok(match kw {
            Kw::If => self.if_statement(start)?,
            Kw::For | Kw::Parfor => self.for_statement(kw, start)?,
            Kw::While => {
                let cond = self.expr()?;
                let body = self.block()?;
                self.expect_end(kw, start)?;
                StmtKind::While { cond, body }
            }
            Kw::Do => {
                let body = self.block()?;
                self.expect(&Tok::Kw(Kw::Until), &format!("'until' to close 'do' opened at {}", self.position(start)))?;
                StmtKind::DoUntil { body, cond: self.expr()? }
            }
            Kw::Switch => self.switch_statement(start)?,
            Kw::Try => self.try_statement(start)?,
            Kw::UnwindProtect => {
                let body = self.block()?;
                let what = format!("'unwind_protect_cleanup' for 'unwind_protect' opened at {}", self.position(start));
                self.expect(&Tok::Kw(Kw::UnwindProtectCleanup), &what)?;
                let cleanup = self.block()?;
                self.expect_end(kw, start)?;
                StmtKind::UnwindProtect { body, cleanup }
            }
            Kw::Break => StmtKind::Break,
            Kw::Continue => StmtKind::Continue,
            Kw::Return => StmtKind::Return,
            Kw::Global => StmtKind::Global(self.declarations()?),
            Kw::Persistent => StmtKind::Persistent(self.declarations()?),
            _ => {
                self.pos -= 1;
                return Err(self.expected("a statement"));
            }
        })
    }

    fn command(&mut self) -> Result<StmtKind> {
        let name = self.ident("a command name")?;
        let mut args = Vec::new();
        while let Tok::CmdWord(word) = self.peek() {
            args.push(word.clone());
            self.bump();
        }
        Ok(StmtKind::Command { name, args })
    }

    /// An expression statement, `target = rhs`, `target op= rhs` or `target++`. Octave's chained
    /// `a = b = rhs` becomes `b = rhs;` (pushed to `before`) and `a = b`.
    fn expression_statement(&mut self, before: &mut Vec<StmtKind>) -> Result<StmtKind> {
        let expr = self.expr()?;
        match self.peek() {
            Tok::Assign => {
                let mut chain = vec![expr];
                while self.eat(&Tok::Assign) {
                    chain.push(self.expr()?);
                }
                let mut rhs = chain.pop().expect("an assignment has a right-hand side");
                while let Some(target) = chain.pop() {
                    let assignment = StmtKind::Assign { targets: vec![self.lvalue(target.clone())?], rhs };
                    before.push(assignment);
                    rhs = target;
                }
                Ok(before.pop().expect("an assignment has a target"))
            }
            Tok::OpAssign(op) => {
                let op = *op;
                self.bump();
                let target = self.lvalue(expr)?;
                Ok(StmtKind::OpAssign { target, op, rhs: self.expr()? })
            }
            _ => match expr.kind {
                ExprKind::PostIncrement { target, op } => {
                    let one = Expr { kind: ExprKind::Number(1.0), span: self.prev_end() };
                    Ok(StmtKind::OpAssign { target: *target, op, rhs: one })
                }
                kind => Ok(StmtKind::Expr(Expr { kind, span: expr.span })),
            },
        }
    }

    /// Octave's `++x` / `--x`.
    fn prefix_increment(&mut self) -> Result<StmtKind> {
        let op = if *self.peek() == Tok::PlusPlus { BinOp::Add } else { BinOp::Sub };
        let span = self.bump();
        let target = self.postfix()?;
        let target = self.lvalue(target)?;
        Ok(StmtKind::OpAssign { target, op, rhs: Expr { kind: ExprKind::Number(1.0), span } })
    }

    /// `[a, b(2), ~] = rhs`
    fn multi_assignment(&mut self) -> Result<StmtKind> {
        let open = self.bump();
        let mut targets = Vec::new();
        while !self.eat(&Tok::RBracket) {
            if self.eat(&Tok::Comma) {
                continue;
            }
            if *self.peek() == Tok::Not {
                targets.push(LValue::Ignored(self.bump()));
                continue;
            }
            if !matches!(self.peek(), Tok::Ident(_)) {
                let what = format!("an assignment target or ']' to close '[' opened at {}", self.position(open));
                return Err(self.expected(&what));
            }
            let target = self.postfix()?;
            targets.push(self.lvalue(target)?);
        }
        self.expect(&Tok::Assign, "'='")?;
        Ok(StmtKind::Assign { targets, rhs: self.expr()? })
    }

    /// The assignment target written as the expression `expr`: a name followed by accessors.
    pub(super) fn lvalue(&self, expr: Expr) -> Result<LValue> {
        let span = expr.span;
        let mut accessors = Vec::new();
        let mut current = expr;
        let name = loop {
            let here = current.span;
            let (base, accessor) = match current.kind {
                ExprKind::Ident(name) => break Ident { name, span: here },
                ExprKind::Call { base, args } => (base, Accessor::Paren(args, here)),
                ExprKind::CellIndex { base, args } => (base, Accessor::Brace(args, here)),
                ExprKind::Field { base, name } => (base, Accessor::Field(name)),
                ExprKind::DynField { base, name } => (base, Accessor::DynField(name, here)),
                _ => {
                    let message = "parse error: expected an assignment target (a name, possibly indexed), found an \
                                   expression";
                    return Err(Diagnostic::new(ErrorKind::Parse, message).at(self.file, here));
                }
            };
            accessors.push(accessor);
            current = *base;
        };
        accessors.reverse();
        Ok(LValue::Var { name, accessors, span })
    }

    fn if_statement(&mut self, start: Span) -> Result<StmtKind> {
        let mut clauses = vec![(self.expr()?, self.block()?)];
        while self.eat(&Tok::Kw(Kw::Elseif)) {
            self.skip_separators();
            clauses.push((self.expr()?, self.block()?));
        }
        let else_body = if self.eat(&Tok::Kw(Kw::Else)) { Some(self.block()?) } else { None };
        self.expect_end(Kw::If, start)?;
        Ok(StmtKind::If { clauses, else_body })
    }

    /// `for v = e`, `for (v = e)`, `parfor (v = e, max_workers)` (the worker limit is not kept).
    fn for_statement(&mut self, kw: Kw, start: Span) -> Result<StmtKind> {
        if kw == Kw::For && *self.peek() == Tok::LBracket {
            return self.for_key_value(start);
        }
        let open = (*self.peek() == Tok::LParen).then(|| self.bump());
        let target = self.postfix()?;
        let var = self.lvalue(target)?;
        self.expect(&Tok::Assign, "'=' after the loop variable")?;
        let iter = self.expr()?;
        if let Some(open) = open {
            if kw == Kw::Parfor && self.eat(&Tok::Comma) {
                self.expr()?;
            }
            self.expect_close(&Tok::RParen, &Tok::LParen, open)?;
        }
        let body = self.block()?;
        self.expect_end(kw, start)?;
        Ok(StmtKind::For { var, iter, body, parallel: kw == Kw::Parfor })
    }

    /// Octave's `for [value, key] = s`.
    fn for_key_value(&mut self, start: Span) -> Result<StmtKind> {
        let open = self.bump();
        let value = self.postfix()?;
        let value = self.lvalue(value)?;
        self.expect(&Tok::Comma, "',' between the value and key variables")?;
        let key = self.postfix()?;
        let key = self.lvalue(key)?;
        self.expect_close(&Tok::RBracket, &Tok::LBracket, open)?;
        self.expect(&Tok::Assign, "'=' after the loop variables")?;
        let iter = self.expr()?;
        let body = self.block()?;
        self.expect_end(Kw::For, start)?;
        Ok(StmtKind::ForKeyValue { value, key, iter, body })
    }

    fn switch_statement(&mut self, start: Span) -> Result<StmtKind> {
        let subject = self.expr()?;
        let mut cases = Vec::new();
        let mut otherwise = None;
        loop {
            self.skip_separators();
            if self.eat(&Tok::Kw(Kw::Case)) {
                cases.push((self.expr()?, self.block()?));
            } else if otherwise.is_none() && self.eat(&Tok::Kw(Kw::Otherwise)) {
                otherwise = Some(self.block()?);
            } else {
                self.expect_end(Kw::Switch, start)?;
                return Ok(StmtKind::Switch { subject, cases, otherwise });
            }
        }
    }

    /// `try ... catch [err] ... end`; the identifier must be on the `catch` line and end it.
    fn try_statement(&mut self, start: Span) -> Result<StmtKind> {
        let body = self.block()?;
        let mut ident = None;
        let mut catch_body = Vec::new();
        if self.eat(&Tok::Kw(Kw::Catch)) {
            let alone = matches!(self.peek_at(1), Tok::Newline | Tok::Semi | Tok::Comma | Tok::Eof);
            if matches!(self.peek(), Tok::Ident(_)) && alone {
                ident = Some(self.ident("an identifier")?);
            }
            catch_body = self.block()?;
        }
        self.expect_end(Kw::Try, start)?;
        Ok(StmtKind::TryCatch { body, ident, catch_body })
    }

    /// The names (with optional initial values) after `global` or `persistent`.
    fn declarations(&mut self) -> Result<Vec<(Ident, Option<Expr>)>> {
        let mut names = Vec::new();
        while matches!(self.peek(), Tok::Ident(_)) {
            let name = self.ident("a variable name")?;
            let init = if self.eat(&Tok::Assign) { Some(self.expr()?) } else { None };
            names.push((name, init));
        }
        if names.is_empty() {
            return Err(self.expected("a variable name"));
        }
        Ok(names)
    }
}
