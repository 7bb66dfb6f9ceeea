//! Number and string literals.

use super::{LexResult, Lexer, is_ident_char};
use crate::diag::Diagnostic;
use crate::syntax::token::Tok;

impl<'a> Lexer<'a> {
    pub(super) fn number(&mut self, lo: usize) -> LexResult<()> {
        let radix = match (self.peek(), self.byte(lo + 1) | 0x20) {
            (b'0', b'x') if self.byte(lo + 2).is_ascii_hexdigit() => 16,
            (b'0', b'b') if matches!(self.byte(lo + 2), b'0' | b'1') => 2,
            _ => 10,
        };
        let value = if radix == 10 { self.decimal(lo) } else { self.radix_integer(lo, radix) };
        let imaginary = matches!(self.peek(), b'i' | b'j' | b'I' | b'J') && !is_ident_char(self.byte(self.pos + 1));
        if imaginary {
            self.pos += 1;
        }
        self.push(if imaginary { Tok::Imag(value) } else { Tok::Num(value) }, lo);
        Ok(())
    }

    /// Digits in `radix`, with Octave's `_` separators between them (`20_000`).
    fn skip_digits(&mut self, radix: u32) {
        let is_digit = |c: u8| (c as char).is_digit(radix);
        while is_digit(self.peek()) || (self.peek() == b'_' && is_digit(self.byte(self.pos + 1))) {
            self.pos += 1;
        }
    }

    /// `12`, `1.5`, `.5`, `1e3`, `1d-3`. A dot followed by an operator (`1./x`, `1.'`) is left to the operator.
    fn decimal(&mut self, lo: usize) -> f64 {
        self.skip_digits(10);
        if self.peek() == b'.' && !matches!(self.byte(self.pos + 1), b'*' | b'/' | b'\\' | b'^' | b'\'' | b'.') {
            self.pos += 1;
            self.skip_digits(10);
        }
        if matches!(self.peek(), b'e' | b'E' | b'd' | b'D') {
            let sign = usize::from(matches!(self.byte(self.pos + 1), b'+' | b'-'));
            if self.byte(self.pos + 1 + sign).is_ascii_digit() {
                self.pos += 1 + sign;
                self.skip_digits(10);
            }
        }
        let text: String =
            self.src[lo..self.pos].chars().filter(|&c| c != '_').map(|c| if c == 'd' || c == 'D' { 'e' } else { c }).collect();
        text.parse().unwrap_or(f64::NAN)
    }

    fn radix_integer(&mut self, lo: usize, radix: u32) -> f64 {
        self.pos = lo + 2;
        self.skip_digits(radix);
        let digits = self.src[lo + 2..self.pos].chars().filter_map(|c| c.to_digit(radix));
        digits.fold(0.0, |acc, digit| acc * radix as f64 + digit as f64)
    }

    pub(super) fn single_quoted(&mut self, lo: usize) -> LexResult<()> {
        let value = self.quoted_text(lo)?;
        self.push(Tok::Str { value, double_quoted: false }, lo);
        Ok(())
    }

    pub(super) fn double_quoted(&mut self, lo: usize) -> LexResult<()> {
        let value = self.escaped_text(lo)?;
        self.push(Tok::Str { value, double_quoted: true }, lo);
        Ok(())
    }

    fn unterminated(&self, lo: usize) -> Diagnostic {
        self.error("string is not terminated before the end of the line".into(), lo, lo + 1)
    }

    /// The text of the `'...'` string at `lo` (`''` stands for one quote); moves past it.
    pub(super) fn quoted_text(&mut self, lo: usize) -> LexResult<String> {
        let mut value = String::new();
        self.pos = lo + 1;
        loop {
            let rest = &self.src[self.pos..];
            let Some(close) = rest.find(['\'', '\n']) else { return Err(self.unterminated(lo)) };
            if rest.as_bytes()[close] == b'\n' {
                return Err(self.unterminated(lo));
            }
            value.push_str(&rest[..close]);
            self.pos += close + 1;
            if self.peek() != b'\'' {
                return Ok(value);
            }
            value.push('\'');
            self.pos += 1;
        }
    }

    /// The text of the `"..."` string at `lo` with Octave's escapes processed; moves past it.
    pub(super) fn escaped_text(&mut self, lo: usize) -> LexResult<String> {
        let mut value = String::new();
        self.pos = lo + 1;
        loop {
            let Some(ch) = self.src[self.pos..].chars().next() else { return Err(self.unterminated(lo)) };
            self.pos += ch.len_utf8();
            match ch {
                '\n' => return Err(self.unterminated(lo)),
                '"' if self.peek() == b'"' => {
                    value.push('"');
                    self.pos += 1;
                }
                '"' => return Ok(value),
                '\\' => {
                    if let Some(escaped) = self.escape(lo)? {
                        value.push(escaped);
                    }
                }
                _ => value.push(ch),
            }
        }
    }

    /// The character an escape after `\` stands for; `None` for a line continuation.
    fn escape(&mut self, lo: usize) -> LexResult<Option<char>> {
        let Some(ch) = self.src[self.pos..].chars().next() else { return Err(self.unterminated(lo)) };
        self.pos += ch.len_utf8();
        Ok(Some(match ch {
            '\n' => return Ok(None),
            '0'..='7' => self.escaped_code(ch, 8, 3),
            'x' if self.peek().is_ascii_hexdigit() => self.escaped_code('0', 16, 2),
            other => simple_escape(other),
        }))
    }

    /// A character given by up to `max_digits` digits in `radix`, the first of which (`first`) is consumed.
    fn escaped_code(&mut self, first: char, radix: u32, max_digits: usize) -> char {
        let mut code = first.to_digit(radix).unwrap_or(0);
        let mut digits = usize::from(radix == 8);
        while digits < max_digits && (self.peek() as char).is_digit(radix) {
            code = code * radix + (self.peek() as char).to_digit(radix).unwrap_or(0);
            self.pos += 1;
            digits += 1;
        }
        char::from_u32(code).unwrap_or('\u{fffd}')
    }
}

/// The character a one-letter escape (`\n`, `\t`, ...) stands for; any other character stands for itself.
/// Shared with `sprintf`'s format strings.
pub fn simple_escape(ch: char) -> char {
    match ch {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'a' => '\x07',
        'b' => '\x08',
        'f' => '\x0c',
        'v' => '\x0b',
        other => other,
    }
}
