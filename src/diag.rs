//! Diagnostics: every error msad reports carries an identifier (`msad:...`), a message and, where the
//! cause is in user code, the source position. The MEX layer turns them into Octave errors.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Byte range in one source text. `lo == hi` marks a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(lo: usize, hi: usize) -> Span {
        Span { lo: lo as u32, hi: hi as u32 }
    }
    pub fn to(self, other: Span) -> Span {
        Span { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }
}

/// A source file as read once: its path (or a pseudo name like `<anonymous>`) and text.
#[derive(Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> Arc<SourceFile> {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Arc::new(SourceFile { path: path.into(), text, line_starts })
    }

    /// 1-based line and column (columns count characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = (offset as usize).min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let col = self.text[start..offset].chars().count() + 1;
        (line + 1, col)
    }

    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self.line_starts.get(line).copied().unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// The error classes of DESIGN.md §3, plus pattern and input errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Parse,
    Unsupported,
    NotDifferentiable,
    BadInput,
    BadPattern,
    Runtime,
    Undefined,
    Internal,
    /// The user interrupted the run (Ctrl-C).
    Interrupted,
}

impl ErrorKind {
    pub fn identifier(self) -> &'static str {
        match self {
            ErrorKind::Parse => "msad:parse",
            ErrorKind::Unsupported => "msad:unsupported",
            ErrorKind::NotDifferentiable => "msad:notDifferentiable",
            ErrorKind::BadInput => "msad:badInput",
            ErrorKind::BadPattern => "msad:badPattern",
            ErrorKind::Runtime => "msad:runtime",
            ErrorKind::Undefined => "Octave:undefined-function",
            ErrorKind::Internal => "msad:internal",
            ErrorKind::Interrupted => "Octave:interrupt",
        }
    }
}

/// One entry of an error's call stack, as Octave's `err.stack` lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct StackFrame {
    pub file: String,
    pub name: String,
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub kind: ErrorKind,
    /// Identifier raised by user code (`error('pkg:id', ...)`); overrides the kind's identifier.
    pub user_identifier: Option<String>,
    pub message: String,
    pub location: Option<(Arc<SourceFile>, Span)>,
    /// What the user can do instead, printed after the message.
    pub hint: Option<String>,
    /// Octave's `err.stack`: where a runtime error passed on its way out, innermost first.
    pub stack: Vec<StackFrame>,
    /// The stack came with a rethrown error struct: kept as it is.
    pub stack_fixed: bool,
}

pub type Result<T> = std::result::Result<T, Diagnostic>;

impl Diagnostic {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Diagnostic {
        Diagnostic { kind, user_identifier: None, message: message.into(), location: None, hint: None, stack: vec![], stack_fixed: false }
    }
    pub fn at(mut self, file: &Arc<SourceFile>, span: Span) -> Diagnostic {
        if self.location.is_none() {
            self.location = Some((file.clone(), span));
        }
        self
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }
    /// An error with Octave's own identifier, e.g. `Octave:index-out-of-bounds`.
    pub fn with_identifier(mut self, identifier: &str) -> Diagnostic {
        self.user_identifier = Some(identifier.into());
        self
    }
    pub fn identifier(&self) -> &str {
        self.user_identifier.as_deref().unwrap_or(self.kind.identifier())
    }
    /// Whether a `try` in the user's code catches this error: errors Octave would raise too. msad's own
    /// (unsupported, not differentiable, internal) pass through, as Octave would not have raised them.
    pub fn catchable(&self) -> bool {
        matches!(self.kind, ErrorKind::Runtime | ErrorKind::Undefined)
    }
    /// The identifier a `catch err` block sees: Octave's, or empty for an error raised without one.
    pub fn caught_identifier(&self) -> &str {
        match (&self.user_identifier, self.kind) {
            (Some(id), _) => id,
            (None, ErrorKind::Undefined) => self.kind.identifier(),
            (None, _) => "",
        }
    }
    /// `file:line:col` of the error, when known.
    pub fn position(&self) -> Option<(String, usize, usize)> {
        self.location.as_ref().map(|(f, s)| {
            let (l, c) = f.line_col(s.lo);
            (f.path.display().to_string(), l, c)
        })
    }
}

pub fn err<T>(kind: ErrorKind, message: impl Into<String>) -> Result<T> {
    Err(Diagnostic::new(kind, message))
}

impl fmt::Display for Diagnostic {
    /// Message, then `file:line:col`, the source line and a caret under the column.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        if let Some((file, span)) = &self.location {
            let (line, col) = file.line_col(span.lo);
            let text = file.line_text(line);
            write!(f, "\n  at {}:{}:{}\n  {}\n  {}^", file.path.display(), line, col, text, " ".repeat(col - 1))?;
        }
        if let Some(hint) = &self.hint {
            write!(f, "\n  {}", hint)?;
        }
        // The calls it passed on its way out, back to the user's line (the first frame is the location).
        for frame in self.stack.iter().skip(1) {
            write!(f, "\n  called from {} at {}:{}:{}", frame.name, frame.file, frame.line, frame.column)?;
        }
        Ok(())
    }
}
