//! Lexer for MATLAB/Octave source. It decides everything that depends on layout: whether `'` opens a string
//! or transposes, where whitespace separates elements inside `[]`/`{}`, which newlines end statements, when a
//! statement is command syntax, and whether `end` is an index. The parser then sees a context-free stream.

mod command;
mod literals;
pub use literals::simple_escape;

use super::ast::BinOp;
use super::token::{Tok, Token};
use crate::diag::{Diagnostic, ErrorKind, SourceFile, Span};
use std::sync::Arc;

/// The tokens of a file, ending with `Eof`. When lexing failed, `Eof` sits at the failure and `error` says why;
/// the parser reports it only if it gets that far without an earlier error.
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub error: Option<Diagnostic>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Nest {
    Paren,
    Bracket,
    Brace,
    /// `c{...}`: braces that index, where whitespace does not separate elements.
    IndexBrace,
    /// `@(` ... `)`: the parameter list of an anonymous function.
    AnonParams,
    /// The body of an anonymous function: whitespace is not an element separator there, even inside `[]`.
    AnonBody,
}

pub fn lex(file: &Arc<SourceFile>) -> Lexed {
    let mut lexer = Lexer {
        file,
        src: &file.text,
        // A UTF-8 byte-order mark is not part of the program.
        pos: if file.text.starts_with('\u{feff}') { 3 } else { 0 },
        tokens: Vec::new(),
        nesting: Vec::new(),
        at_stmt_start: true,
        space_before: false,
        closed_anon_params: false,
        in_classdef: false,
    };
    let error = lexer.run().err();
    let end = lexer.pos;
    lexer.tokens.push(Token { tok: Tok::Eof, span: Span::new(end, end) });
    Lexed { tokens: lexer.tokens, error }
}

struct Lexer<'a> {
    file: &'a Arc<SourceFile>,
    src: &'a str,
    pos: usize,
    tokens: Vec<Token>,
    nesting: Vec<Nest>,
    at_stmt_start: bool,
    /// Whitespace (or a comment or continuation) came before the current token.
    space_before: bool,
    /// The last token closed the parameters of an anonymous function, so it does not end an operand.
    closed_anon_params: bool,
    in_classdef: bool,
}

type LexResult<T> = Result<T, Diagnostic>;

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\r'
}

/// The operator of Octave's `op=` assignment spelled with `tok`.
fn op_assign_operator(tok: &Tok) -> Option<BinOp> {
    Some(match tok {
        Tok::Plus => BinOp::Add,
        Tok::Minus => BinOp::Sub,
        Tok::Star => BinOp::Mul,
        Tok::Slash => BinOp::Div,
        Tok::Caret => BinOp::Pow,
        Tok::DotStar => BinOp::ElMul,
        Tok::DotSlash => BinOp::ElDiv,
        Tok::DotCaret => BinOp::ElPow,
        Tok::Pipe => BinOp::Or,
        Tok::Amp => BinOp::And,
        _ => return None,
    })
}

impl<'a> Lexer<'a> {
    fn byte(&self, at: usize) -> u8 {
        self.src.as_bytes().get(at).copied().unwrap_or(0)
    }

    fn peek(&self) -> u8 {
        self.byte(self.pos)
    }

    fn error(&self, message: String, lo: usize, hi: usize) -> Diagnostic {
        Diagnostic::new(ErrorKind::Parse, format!("parse error: {message}")).at(self.file, Span::new(lo, hi))
    }

    fn push(&mut self, tok: Tok, lo: usize) {
        self.closed_anon_params = false;
        self.tokens.push(Token { tok, span: Span::new(lo, self.pos) });
    }

    fn run(&mut self) -> LexResult<()> {
        loop {
            self.space_before = self.skip_space()?;
            if self.pos >= self.src.len() {
                return Ok(());
            }
            if self.space_before && self.whitespace_separates() && self.prev_ends_operand() && self.element_starts() {
                self.push(Tok::Comma, self.pos);
            }
            self.token()?;
        }
    }

    fn top(&self) -> Option<Nest> {
        self.nesting.last().copied()
    }

    /// Inside `[]` or `{}` (and not in an anonymous function's body) whitespace can separate elements.
    fn whitespace_separates(&self) -> bool {
        matches!(self.top(), Some(Nest::Bracket | Nest::Brace))
    }

    fn leave_anon_bodies(&mut self) {
        while self.top() == Some(Nest::AnonBody) {
            self.nesting.pop();
        }
    }

    fn prev_ends_operand(&self) -> bool {
        match self.tokens.last().map(|t| &t.tok) {
            Some(Tok::RParen) => !self.closed_anon_params,
            Some(
                Tok::Num(_)
                | Tok::Imag(_)
                | Tok::Str { .. }
                | Tok::Ident(_)
                | Tok::EndIndex
                | Tok::RBracket
                | Tok::RBrace
                | Tok::Transpose
                | Tok::CTranspose,
            ) => true,
            _ => false,
        }
    }

    /// After whitespace inside brackets: does the text here begin a new element (`[a -b]`, `[a (1)]`, `[a 'x']`)
    /// rather than continue the expression with a binary operator (`[a - b]`, `[a == b]`)?
    fn element_starts(&self) -> bool {
        let (c, next) = (self.peek(), self.byte(self.pos + 1));
        match c {
            b'.' => next.is_ascii_digit(),
            b'"' | b'\'' | b'(' | b'[' | b'{' | b'@' => true,
            b'~' | b'!' => next != b'=',
            b'+' | b'-' => !(is_blank(next) || next == b'\n' || next == b'=' || next == 0),
            _ => is_ident_char(c),
        }
    }

    /// Skips blanks, comments, block comments and continuations; also newlines inside parentheses, which Octave
    /// ignores. Returns whether anything was skipped.
    fn skip_space(&mut self) -> LexResult<bool> {
        let start = self.pos;
        loop {
            let c = self.peek();
            if is_blank(c) || (c == b'\n' && self.newline_is_space()) {
                self.pos += 1;
            } else if c == b'%' || c == b'#' {
                if !self.skip_block_comment()? {
                    self.skip_to_line_end();
                }
            } else if self.src[self.pos..].starts_with("...") || self.backslash_continuation() {
                self.skip_to_line_end();
                self.pos = (self.pos + 1).min(self.src.len());
            } else {
                return Ok(self.pos > start);
            }
        }
    }

    fn skip_to_line_end(&mut self) {
        self.pos = self.src[self.pos..].find('\n').map_or(self.src.len(), |i| self.pos + i);
    }

    /// A newline inside parentheses (possibly within an anonymous function's body there) is just whitespace.
    fn newline_is_space(&mut self) -> bool {
        let enclosing = self.nesting.iter().rev().find(|&&n| n != Nest::AnonBody);
        if matches!(enclosing, Some(Nest::Paren | Nest::AnonParams | Nest::IndexBrace)) {
            self.leave_anon_bodies();
            return true;
        }
        false
    }

    /// Octave's deprecated `\` continuation: a backslash with only blanks after it on the line.
    fn backslash_continuation(&self) -> bool {
        self.peek() == b'\\' && {
            let rest = &self.src[self.pos + 1..];
            let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
            rest.contains('\n') && line.bytes().all(is_blank)
        }
    }

    /// `%{` or `#{` alone on a line opens a block comment that ends with `%}` or `#}` alone on a line;
    /// they nest. Returns false when the comment here is an ordinary line comment.
    fn skip_block_comment(&mut self) -> LexResult<bool> {
        let line_start = self.src[..self.pos].rfind('\n').map_or(0, |i| i + 1);
        let opens_block = |line: &str| matches!(line.trim(), "%{" | "#{");
        let line_end = self.src[self.pos..].find('\n').map_or(self.src.len(), |i| self.pos + i);
        if !opens_block(&self.src[line_start..line_end]) {
            return Ok(false);
        }
        let open = self.pos;
        let mut depth = 0;
        let mut at = line_start;
        while at < self.src.len() {
            let end = self.src[at..].find('\n').map_or(self.src.len(), |i| at + i);
            match self.src[at..end].trim() {
                "%{" | "#{" => depth += 1,
                "%}" | "#}" => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                self.pos = end;
                return Ok(true);
            }
            at = end + 1;
        }
        Err(self.error("block comment opened here is never closed".into(), open, open + 2))
    }

    fn token(&mut self) -> LexResult<()> {
        let lo = self.pos;
        let c = self.peek();
        let stmt_start = std::mem::replace(&mut self.at_stmt_start, false);
        if is_ident_start(c) {
            return self.word(lo, stmt_start);
        }
        if c.is_ascii_digit() || (c == b'.' && self.byte(lo + 1).is_ascii_digit()) {
            return self.number(lo);
        }
        match c {
            b'"' => return self.double_quoted(lo),
            b'\'' if self.prev_ends_operand() && !(self.space_before && self.whitespace_separates()) => {
                self.pos += 1;
                self.push(Tok::CTranspose, lo);
                return Ok(());
            }
            b'\'' => return self.single_quoted(lo),
            b'\n' => {
                self.pos += 1;
                self.leave_anon_bodies();
                self.push(Tok::Newline, lo);
                self.at_stmt_start = self.nesting.is_empty();
                return Ok(());
            }
            _ => {}
        }
        let (tok, len) = self.operator(c)?;
        self.pos += len;
        let closed_params = self.track_nesting(&tok);
        let ends_statement = matches!(tok, Tok::Comma | Tok::Semi) && self.nesting.is_empty();
        self.push(tok, lo);
        self.closed_anon_params = closed_params;
        self.at_stmt_start = ends_statement;
        Ok(())
    }

    /// Keeps the bracket stack in step with `tok`; returns whether it closed an anonymous function's parameters.
    fn track_nesting(&mut self, tok: &Tok) -> bool {
        let opened = match tok {
            Tok::LParen if self.tokens.last().map(|t| &t.tok) == Some(&Tok::At) => Nest::AnonParams,
            Tok::LParen => Nest::Paren,
            Tok::LBracket => Nest::Bracket,
            Tok::LBrace if self.prev_ends_operand() && !(self.space_before && self.whitespace_separates()) => Nest::IndexBrace,
            Tok::LBrace => Nest::Brace,
            Tok::RParen | Tok::RBracket | Tok::RBrace => {
                self.leave_anon_bodies();
                let closes = match self.top() {
                    Some(Nest::Paren | Nest::AnonParams) => *tok == Tok::RParen,
                    Some(Nest::Bracket) => *tok == Tok::RBracket,
                    Some(Nest::Brace | Nest::IndexBrace) => *tok == Tok::RBrace,
                    _ => false,
                };
                if closes && self.nesting.pop() == Some(Nest::AnonParams) {
                    self.nesting.push(Nest::AnonBody);
                    return true;
                }
                return false;
            }
            Tok::Comma | Tok::Semi => {
                self.leave_anon_bodies();
                return false;
            }
            _ => return false,
        };
        self.nesting.push(opened);
        false
    }

    /// The operator or punctuation token starting with `c`, and its length; `op=` forms included.
    fn operator(&self, c: u8) -> LexResult<(Tok, usize)> {
        let (tok, len) = self.plain_operator(c)?;
        let assigns = self.byte(self.pos + len) == b'=' && self.byte(self.pos + len + 1) != b'=';
        match op_assign_operator(&tok) {
            Some(op) if assigns => Ok((Tok::OpAssign(op), len + 1)),
            _ => Ok((tok, len)),
        }
    }

    fn plain_operator(&self, c: u8) -> LexResult<(Tok, usize)> {
        let next = self.byte(self.pos + 1);
        let pick = |matches: bool, long: Tok, short: Tok| if matches { (long, 2) } else { (short, 1) };
        Ok(match c {
            b'(' => (Tok::LParen, 1),
            b')' => (Tok::RParen, 1),
            b'[' => (Tok::LBracket, 1),
            b']' => (Tok::RBracket, 1),
            b'{' => (Tok::LBrace, 1),
            b'}' => (Tok::RBrace, 1),
            b',' => (Tok::Comma, 1),
            b';' => (Tok::Semi, 1),
            b':' => (Tok::Colon, 1),
            b'@' => (Tok::At, 1),
            b'\\' => (Tok::Backslash, 1),
            b'/' => (Tok::Slash, 1),
            b'^' => (Tok::Caret, 1),
            b'.' => match next {
                b'*' if self.byte(self.pos + 2) == b'*' => (Tok::DotCaret, 3),
                b'*' => (Tok::DotStar, 2),
                b'/' => (Tok::DotSlash, 2),
                b'\\' => (Tok::DotBackslash, 2),
                b'^' => (Tok::DotCaret, 2),
                b'\'' => (Tok::Transpose, 2),
                _ => (Tok::Dot, 1),
            },
            b'+' => pick(next == b'+', Tok::PlusPlus, Tok::Plus),
            b'-' => pick(next == b'-', Tok::MinusMinus, Tok::Minus),
            b'*' => pick(next == b'*', Tok::Caret, Tok::Star),
            b'=' => pick(next == b'=', Tok::EqEq, Tok::Assign),
            b'~' | b'!' => pick(next == b'=', Tok::Ne, Tok::Not),
            b'<' => pick(next == b'=', Tok::Le, Tok::Lt),
            b'>' => pick(next == b'=', Tok::Ge, Tok::Gt),
            b'&' => pick(next == b'&', Tok::AmpAmp, Tok::Amp),
            b'|' => pick(next == b'|', Tok::PipePipe, Tok::Pipe),
            _ => {
                let ch = self.src[self.pos..].chars().next().unwrap_or('?');
                return Err(self.error(format!("unexpected character '{ch}'"), self.pos, self.pos + ch.len_utf8()));
            }
        })
    }
}
