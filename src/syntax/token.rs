//! Tokens produced by the lexer. Context-sensitive decisions (string vs transpose, element separators inside
//! brackets, command syntax, `end` as an index) are already made here, so the parser is context-free.

use super::ast::BinOp;
use crate::diag::Span;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Num(f64),
    Imag(f64),
    Str {
        value: String,
        double_quoted: bool,
    },
    Ident(String),
    Kw(Kw),
    /// `end` inside parentheses, brackets or braces: the last index.
    EndIndex,
    /// One argument word of a command-syntax statement (`hold on` gives `Ident(hold)`, `CmdWord(on)`).
    CmdWord(String),
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    /// An explicit `,` or the element separator implied by whitespace inside brackets.
    Comma,
    Semi,
    Newline,
    Dot,
    Colon,
    At,
    Assign,
    Plus,
    Minus,
    Star,
    Slash,
    Backslash,
    Caret,
    DotStar,
    DotSlash,
    DotBackslash,
    DotCaret,
    EqEq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Amp,
    Pipe,
    AmpAmp,
    PipePipe,
    /// `~` or `!`
    Not,
    /// `.'`
    Transpose,
    /// `'` after an operand
    CTranspose,
    PlusPlus,
    MinusMinus,
    /// Octave's `+=`, `-=`, `*=`, `/=`, `^=`, `.*=`, `./=`, `.^=`, `|=`, `&=`.
    OpAssign(BinOp),
    Eof,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kw {
    Break,
    Case,
    Catch,
    Classdef,
    Continue,
    Do,
    Else,
    Elseif,
    /// `end` closing a block.
    End,
    /// `endif`, `endfor`, ... : the spelling is kept for messages.
    EndSpelled(&'static str),
    For,
    Function,
    Global,
    If,
    Otherwise,
    Parfor,
    Persistent,
    Return,
    Switch,
    Try,
    Until,
    UnwindProtect,
    UnwindProtectCleanup,
    While,
    /// Class-definition blocks; keywords only inside a `classdef` file.
    Properties,
    Methods,
    Events,
    Enumeration,
}

const BLOCK_ENDS: [&str; 14] = [
    "endif",
    "endwhile",
    "endfor",
    "endparfor",
    "endfunction",
    "endswitch",
    "end_try_catch",
    "end_unwind_protect",
    "endclassdef",
    "endmethods",
    "endproperties",
    "endevents",
    "endenumeration",
    "endspmd",
];

impl Kw {
    /// The keyword spelled `word`; class-definition words only when `in_classdef`.
    pub fn from_word(word: &str, in_classdef: bool) -> Option<Kw> {
        use Kw::*;
        let kw = match word {
            "break" => Break,
            "case" => Case,
            "catch" => Catch,
            "classdef" => Classdef,
            "continue" => Continue,
            "do" => Do,
            "else" => Else,
            "elseif" => Elseif,
            "end" => End,
            "for" => For,
            "function" => Function,
            "global" => Global,
            "if" => If,
            "otherwise" => Otherwise,
            "parfor" => Parfor,
            "persistent" => Persistent,
            "return" => Return,
            "switch" => Switch,
            "try" => Try,
            "until" => Until,
            "unwind_protect" => UnwindProtect,
            "unwind_protect_cleanup" => UnwindProtectCleanup,
            "while" => While,
            "properties" if in_classdef => Properties,
            "methods" if in_classdef => Methods,
            "events" if in_classdef => Events,
            "enumeration" if in_classdef => Enumeration,
            _ => return BLOCK_ENDS.iter().find(|&&e| e == word).map(|&e| EndSpelled(e)),
        };
        Some(kw)
    }

    pub fn spelling(self) -> &'static str {
        use Kw::*;
        match self {
            Break => "break",
            Case => "case",
            Catch => "catch",
            Classdef => "classdef",
            Continue => "continue",
            Do => "do",
            Else => "else",
            Elseif => "elseif",
            End => "end",
            EndSpelled(s) => s,
            For => "for",
            Function => "function",
            Global => "global",
            If => "if",
            Otherwise => "otherwise",
            Parfor => "parfor",
            Persistent => "persistent",
            Return => "return",
            Switch => "switch",
            Try => "try",
            Until => "until",
            UnwindProtect => "unwind_protect",
            UnwindProtectCleanup => "unwind_protect_cleanup",
            While => "while",
            Properties => "properties",
            Methods => "methods",
            Events => "events",
            Enumeration => "enumeration",
        }
    }

    /// Whether this keyword opens a block that `end` closes (functions aside: their `end` is optional).
    pub fn opens_end_block(self) -> bool {
        use Kw::*;
        matches!(self, If | For | Parfor | While | Switch | Try | UnwindProtect | Classdef | Properties | Methods | Events | Enumeration)
    }

    /// Whether this keyword closes a block (`end` or one of its specific spellings).
    pub fn is_end(self) -> bool {
        matches!(self, Kw::End | Kw::EndSpelled(_))
    }
}

impl Tok {
    /// Fixed spelling of punctuation and operator tokens.
    pub fn symbol(&self) -> Option<&'static str> {
        use Tok::*;
        Some(match self {
            LParen => "(",
            RParen => ")",
            LBracket => "[",
            RBracket => "]",
            LBrace => "{",
            RBrace => "}",
            Comma => ",",
            Semi => ";",
            Dot => ".",
            Colon => ":",
            At => "@",
            Assign => "=",
            Plus => "+",
            Minus => "-",
            Star => "*",
            Slash => "/",
            Backslash => "\\",
            Caret => "^",
            DotStar => ".*",
            DotSlash => "./",
            DotBackslash => ".\\",
            DotCaret => ".^",
            EqEq => "==",
            Ne => "~=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Amp => "&",
            Pipe => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Not => "~",
            Transpose => ".'",
            CTranspose => "'",
            PlusPlus => "++",
            MinusMinus => "--",
            _ => return None,
        })
    }
}

/// How a token is named in "expected ..., found ..." messages.
impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Num(_) | Tok::Imag(_) => write!(f, "number"),
            Tok::Str { .. } => write!(f, "string"),
            Tok::Ident(name) => write!(f, "identifier '{name}'"),
            Tok::Kw(kw) => write!(f, "'{}'", kw.spelling()),
            Tok::EndIndex => write!(f, "'end'"),
            Tok::CmdWord(word) => write!(f, "command word '{word}'"),
            Tok::OpAssign(op) => write!(f, "'{}='", op.symbol()),
            Tok::Newline => write!(f, "end of line"),
            Tok::Eof => write!(f, "end of input"),
            other => write!(f, "'{}'", other.symbol().unwrap_or("?")),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}
