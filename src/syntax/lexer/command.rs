//! Identifiers, keywords and MATLAB's command syntax (`hold on`).

use super::{LexResult, Lexer, is_blank, is_ident_char};
use crate::syntax::token::{Kw, Tok, Token};

/// Binary operators, longest first, for the command-syntax test.
const BINARY_OPERATORS: [&str; 26] = [
    "==", "~=", "!=", "<=", ">=", "&&", "||", ".*", "./", ".\\", ".^", "++", "--", "**", "+", "-", "*", "/", "\\", "^", "<", ">", "&", "|",
    ":", "=",
];

/// Whether the rest of a line has an assignment `=` outside brackets and strings (`vals {end} = 1` is not a
/// command).
fn assigns_later(line: &str) -> bool {
    let bytes = line.as_bytes();
    let mut depth = 0i32;
    let mut at = 0;
    while at < bytes.len() && bytes[at] != b'\n' {
        let c = bytes[at];
        let prev = if at > 0 { bytes[at - 1] } else { b' ' };
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'"' => {
                at = string_end(bytes, at);
                continue;
            }
            b'\'' if !(is_ident_char(prev) || matches!(prev, b')' | b']' | b'}' | b'.' | b'\'')) => {
                at = string_end(bytes, at);
                continue;
            }
            b'%' | b'#' => return false,
            b'=' if depth == 0 => {
                let next = bytes.get(at + 1).copied().unwrap_or(b' ');
                if next != b'=' && !matches!(prev, b'=' | b'~' | b'!' | b'<' | b'>') {
                    return true;
                }
                at += 1;
            }
            _ => {}
        }
        at += 1;
    }
    false
}

/// Index just past the string whose opening quote is at `open` (doubled quotes, and backslash escapes in `"`
/// strings, stay inside), or of the end of the line if it is not closed.
fn string_end(bytes: &[u8], open: usize) -> usize {
    let quote = bytes[open];
    let mut at = open + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\n' => return at,
            b'\\' if quote == b'"' => at += 2,
            c if c == quote && bytes.get(at + 1) == Some(&quote) => at += 2,
            c if c == quote => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

impl<'a> Lexer<'a> {
    /// An identifier, keyword, or the start of a command-syntax statement.
    pub(super) fn word(&mut self, lo: usize, stmt_start: bool) -> LexResult<()> {
        while is_ident_char(self.peek()) {
            self.pos += 1;
        }
        let word = &self.src[lo..self.pos];
        let after_dot = matches!(self.tokens.last(), Some(Token { tok: Tok::Dot, .. }));
        let keyword = if after_dot { None } else { Kw::from_word(word, self.in_classdef) };
        let tok = match keyword {
            Some(Kw::End) if !self.nesting.is_empty() => Tok::EndIndex,
            Some(kw) => {
                self.in_classdef |= kw == Kw::Classdef && self.tokens.is_empty();
                self.at_stmt_start =
                    matches!(kw, Kw::Else | Kw::Otherwise | Kw::Try | Kw::Do | Kw::UnwindProtect | Kw::UnwindProtectCleanup);
                Tok::Kw(kw)
            }
            None => Tok::Ident(word.to_string()),
        };
        let is_command = keyword.is_none() && stmt_start && self.nesting.is_empty() && self.command_follows();
        self.push(tok, lo);
        if is_command {
            self.command_words()?;
        }
        Ok(())
    }

    /// MATLAB's rule: a statement-initial name followed by whitespace is a command unless what follows is `=`,
    /// `(`, the end of the statement, or a binary operator that is itself followed by whitespace.
    fn command_follows(&self) -> bool {
        let rest = &self.src[self.pos..];
        let after = rest.trim_start_matches([' ', '\t']);
        if after.len() == rest.len() || after.starts_with("...") {
            return false;
        }
        match after.bytes().next() {
            None | Some(b'\n' | b'\r' | b';' | b',' | b'%' | b'#' | b'(') => return false,
            _ => {}
        }
        match BINARY_OPERATORS.iter().find(|op| after.starts_with(*op)) {
            Some(&"=") => false,
            Some(op) => {
                // An operator followed by a blank is binary; followed by `=` it is an `op=` assignment.
                let following = after.as_bytes().get(op.len()).copied().unwrap_or(b'\n');
                !(is_blank(following) || following == b'\n' || following == b'=')
            }
            None => !assigns_later(after),
        }
    }

    /// The words of a command-syntax statement up to the end of the line, `;`, `,` or a comment. Quotes group
    /// words with blanks (`disp 'a b'`).
    fn command_words(&mut self) -> LexResult<()> {
        loop {
            while is_blank(self.peek()) {
                self.pos += 1;
            }
            let lo = self.pos;
            let mut word = String::new();
            loop {
                match self.peek() {
                    0 | b'\n' | b';' | b',' => break,
                    c if is_blank(c) => break,
                    b'%' | b'#' if word.is_empty() => break,
                    b'\'' => word.push_str(&self.quoted_text(self.pos)?),
                    b'"' => word.push_str(&self.escaped_text(self.pos)?),
                    _ => {
                        let ch = self.src[self.pos..].chars().next().unwrap_or(' ');
                        word.push(ch);
                        self.pos += ch.len_utf8();
                    }
                }
            }
            if self.pos == lo {
                return Ok(());
            }
            self.push(Tok::CmdWord(word), lo);
        }
    }
}
