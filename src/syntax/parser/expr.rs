//! Expressions, by precedence climbing. From loosest to tightest: `||`, `&&`, `|`, `&`, comparisons, `:`,
//! `+ -`, `* / \ .* ./ .\`, unary `+ - ~`, `^ .^` (whose right operand may carry unary operators: `2^-1`),
//! postfix `'`, `.'`, indexing and fields.

use super::Parser;
use crate::diag::{Result, Span};
use crate::syntax::ast::{BinOp, Expr, ExprKind, LValue, Param, PostOp, UnOp};
use crate::syntax::token::Tok;

/// Binding strength of the range operator `:` among the binary operators.
const RANGE_PRECEDENCE: u8 = 6;

/// The binary operator a token stands for and its precedence (higher binds tighter); `None` op for `:`.
fn binary_operator(tok: &Tok) -> Option<(Option<BinOp>, u8)> {
    use BinOp::*;
    let (op, precedence) = match tok {
        Tok::PipePipe => (OrOr, 1),
        Tok::AmpAmp => (AndAnd, 2),
        Tok::Pipe => (Or, 3),
        Tok::Amp => (And, 4),
        Tok::EqEq => (Eq, 5),
        Tok::Ne => (Ne, 5),
        Tok::Lt => (Lt, 5),
        Tok::Le => (Le, 5),
        Tok::Gt => (Gt, 5),
        Tok::Ge => (Ge, 5),
        Tok::Colon => return Some((None, RANGE_PRECEDENCE)),
        Tok::Plus => (Add, 7),
        Tok::Minus => (Sub, 7),
        Tok::Star => (Mul, 8),
        Tok::Slash => (Div, 8),
        Tok::Backslash => (LeftDiv, 8),
        Tok::DotStar => (ElMul, 8),
        Tok::DotSlash => (ElDiv, 8),
        Tok::DotBackslash => (ElLeftDiv, 8),
        _ => return None,
    };
    Some((Some(op), precedence))
}

fn unary_operator(tok: &Tok) -> Option<UnOp> {
    match tok {
        Tok::Minus => Some(UnOp::Neg),
        Tok::Plus => Some(UnOp::Plus),
        Tok::Not => Some(UnOp::Not),
        _ => None,
    }
}

fn transpose_operator(tok: &Tok) -> Option<PostOp> {
    match tok {
        Tok::Transpose => Some(PostOp::Transpose),
        Tok::CTranspose => Some(PostOp::CTranspose),
        _ => None,
    }
}

fn target_span(target: &LValue) -> Span {
    match target {
        LValue::Var { span, .. } | LValue::Ignored(span) => *span,
    }
}

impl<'a> Parser<'a> {
    pub(super) fn expr(&mut self) -> Result<Expr> {
        self.nested(|parser| parser.binary(1))
    }

    /// An expression, or (in parentheses and arguments) Octave's assignment expression `x = e`.
    fn expr_or_assignment(&mut self) -> Result<Expr> {
        let expr = self.expr()?;
        if *self.peek() != Tok::Assign {
            return Ok(expr);
        }
        self.bump();
        let target = Box::new(self.lvalue(expr)?);
        let rhs = self.nested(Self::expr_or_assignment)?;
        let span = target_span(&target).to(rhs.span);
        Ok(Expr { kind: ExprKind::Assign { target, rhs: Box::new(rhs) }, span })
    }

    fn binary(&mut self, min_precedence: u8) -> Result<Expr> {
        let tree_depth = self.tree_depth;
        let mut lhs = self.unary()?;
        loop {
            // MATLAB's `a--b` is `a - -b`.
            if matches!(self.peek(), Tok::PlusPlus | Tok::MinusMinus) {
                self.split_double_sign();
            }
            let Some((op, precedence)) = binary_operator(self.peek()) else { break };
            if precedence < min_precedence {
                break;
            }
            self.link()?;
            self.bump();
            let rhs = self.binary(precedence + 1)?;
            lhs = match op {
                Some(op) => self.binary_expr(op, lhs, rhs),
                None => self.range(lhs, rhs)?,
            };
        }
        self.tree_depth = tree_depth;
        Ok(lhs)
    }

    fn binary_expr(&self, op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        let span = lhs.span.to(rhs.span);
        Expr { kind: ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span }
    }

    /// `start:second` has been read; a further `:third` makes `second` the step.
    fn range(&mut self, start: Expr, second: Expr) -> Result<Expr> {
        let (step, stop) =
            if self.eat(&Tok::Colon) { (Some(Box::new(second)), self.binary(RANGE_PRECEDENCE + 1)?) } else { (None, second) };
        let span = start.span.to(stop.span);
        Ok(Expr { kind: ExprKind::Range { start: Box::new(start), step, stop: Box::new(stop) }, span })
    }

    /// Turns the `++`/`--` token here into two single signs: the first is returned as the current token.
    fn split_double_sign(&mut self) {
        let token = &mut self.tokens[self.pos];
        let single = if token.tok == Tok::PlusPlus { Tok::Plus } else { Tok::Minus };
        let first = Span { lo: token.span.lo, hi: token.span.lo + 1 };
        token.tok = single.clone();
        token.span.lo += 1;
        self.tokens.insert(self.pos, crate::syntax::token::Token { tok: single, span: first });
    }

    /// Unary operators bind looser than `^`: `-2^2` is `-(2^2)`. Outside statements `++x` is `+(+x)`.
    fn unary(&mut self) -> Result<Expr> {
        if matches!(self.peek(), Tok::PlusPlus | Tok::MinusMinus) {
            self.split_double_sign();
        }
        let Some(op) = unary_operator(self.peek()) else { return self.power() };
        let sign = self.bump();
        let operand = self.nested(Self::unary)?;
        let span = sign.to(operand.span);
        Ok(Expr { kind: ExprKind::Unary { op, operand: Box::new(operand) }, span })
    }

    /// Left-associative `^`/`.^`; the exponent may be signed (`2^-1`) and binds only to its postfix operand.
    /// Transposes share the powers' precedence level, left to right: `a.^b.'` is `(a.^b).'`.
    fn power(&mut self) -> Result<Expr> {
        let tree_depth = self.tree_depth;
        let mut base = self.postfix()?;
        loop {
            let op = match self.peek() {
                Tok::Caret => BinOp::Pow,
                Tok::DotCaret => BinOp::ElPow,
                _ => {
                    self.tree_depth = tree_depth;
                    return Ok(base);
                }
            };
            self.link()?;
            self.bump();
            let exponent = self.exponent()?;
            base = self.binary_expr(op, base, exponent);
            while let Some(op) = transpose_operator(self.peek()) {
                self.link()?;
                self.bump();
                let span = Span { lo: base.span.lo, hi: self.prev_end().hi };
                base = Expr { kind: ExprKind::Postfix { op, operand: Box::new(base) }, span };
            }
        }
    }

    fn exponent(&mut self) -> Result<Expr> {
        if matches!(self.peek(), Tok::PlusPlus | Tok::MinusMinus) {
            self.split_double_sign();
        }
        let Some(op) = unary_operator(self.peek()) else { return self.postfix_chain(false) };
        let sign = self.bump();
        let operand = self.nested(Self::exponent)?;
        let span = sign.to(operand.span);
        Ok(Expr { kind: ExprKind::Unary { op, operand: Box::new(operand) }, span })
    }

    /// A primary followed by any chain of `(args)`, `{args}`, `.name`, `.(expr)`, `'`, `.'`.
    pub(super) fn postfix(&mut self) -> Result<Expr> {
        self.postfix_chain(true)
    }

    /// A postfix chain; without `transposes` it stops before `'` and `.'` (an exponent's operand).
    fn postfix_chain(&mut self, transposes: bool) -> Result<Expr> {
        let tree_depth = self.tree_depth;
        let mut expr = self.primary()?;
        loop {
            self.link()?;
            let lo = expr.span.lo;
            let kind = match self.peek() {
                Tok::LParen => {
                    let args = self.arguments(Tok::LParen, Tok::RParen)?;
                    ExprKind::Call { base: Box::new(expr), args }
                }
                Tok::LBrace => {
                    let args = self.arguments(Tok::LBrace, Tok::RBrace)?;
                    ExprKind::CellIndex { base: Box::new(expr), args }
                }
                Tok::Dot => {
                    self.bump();
                    if *self.peek() == Tok::LParen {
                        let open = self.bump();
                        let name = self.expr()?;
                        self.expect_close(&Tok::RParen, &Tok::LParen, open)?;
                        ExprKind::DynField { base: Box::new(expr), name: Box::new(name) }
                    } else {
                        let name = self.ident("a field name or '(' after '.'")?;
                        ExprKind::Field { base: Box::new(expr), name }
                    }
                }
                Tok::PlusPlus | Tok::MinusMinus if self.is_post_increment() => {
                    let op = if *self.peek() == Tok::PlusPlus { BinOp::Add } else { BinOp::Sub };
                    self.bump();
                    ExprKind::PostIncrement { target: Box::new(self.lvalue(expr)?), op }
                }
                Tok::Transpose | Tok::CTranspose if transposes => {
                    let op = transpose_operator(self.peek()).expect("a transpose token");
                    self.bump();
                    ExprKind::Postfix { op, operand: Box::new(expr) }
                }
                _ => {
                    self.tree_depth = tree_depth;
                    return Ok(expr);
                }
            };
            expr = Expr { kind, span: Span { lo, hi: self.prev_end().hi } };
        }
    }

    /// `++`/`--` right after an operand (Octave requires them to touch) and not followed by one (`a--b`).
    fn is_post_increment(&self) -> bool {
        let touches = self.tokens[self.pos - 1].span.hi == self.span().lo;
        let operand_follows = matches!(
            self.peek_at(1),
            Tok::Num(_)
                | Tok::Imag(_)
                | Tok::Str { .. }
                | Tok::Ident(_)
                | Tok::EndIndex
                | Tok::LParen
                | Tok::LBracket
                | Tok::LBrace
                | Tok::At
                | Tok::Not
        );
        touches && !operand_follows
    }

    /// Comma-separated index arguments between `open` and `close`; a lone `:` is `Colon`.
    fn arguments(&mut self, open: Tok, close: Tok) -> Result<Vec<Expr>> {
        let open_span = self.bump();
        let mut args = Vec::new();
        if self.eat(&close) {
            return Ok(args);
        }
        loop {
            // A range cannot start with `:`, so here it is the whole-dimension index.
            if *self.peek() == Tok::Colon {
                args.push(Expr { kind: ExprKind::Colon, span: self.bump() });
            } else {
                args.push(self.expr_or_assignment()?);
            }
            if !self.eat(&Tok::Comma) {
                self.expect_close(&close, &open, open_span)?;
                return Ok(args);
            }
        }
    }

    fn primary(&mut self) -> Result<Expr> {
        let span = self.span();
        let kind = match self.peek().clone() {
            Tok::Num(value) => ExprKind::Number(value),
            Tok::Imag(value) => ExprKind::ImagNumber(value),
            Tok::Str { value, double_quoted } => ExprKind::Str { value, double_quoted },
            Tok::Ident(name) => ExprKind::Ident(name),
            Tok::EndIndex => ExprKind::End,
            Tok::LParen => {
                self.bump();
                let inner = self.expr_or_assignment()?;
                self.expect_close(&Tok::RParen, &Tok::LParen, span)?;
                return Ok(Expr { kind: inner.kind, span: span.to(self.prev_end()) });
            }
            Tok::LBracket => return self.matrix(Tok::LBracket, Tok::RBracket),
            Tok::LBrace => return self.matrix(Tok::LBrace, Tok::RBrace),
            Tok::At => return self.function_handle(),
            _ => return Err(self.expected("an expression")),
        };
        self.bump();
        Ok(Expr { kind, span })
    }

    /// `[...]` or `{...}`: rows separated by `;` or newlines, elements by `,` (or whitespace, made `,` by the
    /// lexer). Empty rows are dropped.
    fn matrix(&mut self, open: Tok, close: Tok) -> Result<Expr> {
        let open_span = self.bump();
        let mut rows = Vec::new();
        let mut row = Vec::new();
        let mut need_separator = false;
        loop {
            match self.peek() {
                Tok::Semi | Tok::Newline => {
                    self.bump();
                    if !row.is_empty() {
                        rows.push(std::mem::take(&mut row));
                    }
                    need_separator = false;
                }
                Tok::Comma if need_separator => {
                    self.bump();
                    need_separator = false;
                }
                tok if *tok == close => {
                    self.bump();
                    break;
                }
                _ if need_separator => {
                    self.expect_close(&close, &open, open_span)?;
                }
                _ => {
                    row.push(self.expr()?);
                    need_separator = true;
                }
            }
        }
        if !row.is_empty() {
            rows.push(row);
        }
        let span = open_span.to(self.prev_end());
        let kind = if open == Tok::LBracket { ExprKind::Matrix(rows) } else { ExprKind::CellArray(rows) };
        Ok(Expr { kind, span })
    }

    /// `@name`, `@pkg.name`, or `@(params) body`.
    fn function_handle(&mut self) -> Result<Expr> {
        let start = self.bump();
        if *self.peek() == Tok::LParen {
            let open = self.bump();
            let mut params: Vec<Param> = Vec::new();
            if !self.eat(&Tok::RParen) {
                loop {
                    params.push(self.param()?);
                    if !self.eat(&Tok::Comma) {
                        self.expect_close(&Tok::RParen, &Tok::LParen, open)?;
                        break;
                    }
                }
            }
            let body = self.expr()?;
            let span = start.to(body.span);
            return Ok(Expr { kind: ExprKind::AnonFn { params, body: Box::new(body) }, span });
        }
        let mut name = self.ident("a function name or '(' after '@'")?;
        while *self.peek() == Tok::Dot && matches!(self.peek_at(1), Tok::Ident(_)) {
            self.bump();
            name.name = format!("{}.{}", name.name, self.ident("a name")?.name);
        }
        Ok(Expr { kind: ExprKind::FuncHandle(name.name), span: start.to(self.prev_end()) })
    }
}
