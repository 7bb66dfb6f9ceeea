//! Abstract syntax tree of MATLAB/Octave source, with spans. Lossless enough to pretty-print code that parses
//! back to the same tree (comments and layout are not kept).

use crate::diag::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Function,
    Script,
    Classdef,
}

/// One parsed `.m` file (or the text of an anonymous function, as a script of one expression).
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    pub kind: FileKind,
    /// Statements of a script file (empty for function files).
    pub body: Vec<Stmt>,
    /// The primary function first, then subfunctions, in source order.
    pub functions: Vec<Function>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: Ident,
    pub inputs: Vec<Param>,
    pub outputs: Vec<Ident>,
    pub body: Vec<Stmt>,
    /// Functions defined inside this one (they share its workspace).
    pub nested: Vec<Function>,
    pub span: Span,
}

/// An input parameter; `~` ignores the argument, `varargin` collects the rest.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    Name(Ident),
    Ignored(Span),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
    /// True when the statement is not terminated by `;` (its result would be displayed).
    pub display: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Expr(Expr),
    /// `a = e`, `[a, b(2), ~] = e`. A single target is a one-element vector.
    Assign {
        targets: Vec<LValue>,
        rhs: Expr,
    },
    /// Octave's `a += e` family.
    OpAssign {
        target: LValue,
        op: BinOp,
        rhs: Expr,
    },
    If {
        clauses: Vec<(Expr, Vec<Stmt>)>,
        else_body: Option<Vec<Stmt>>,
    },
    For {
        var: LValue,
        iter: Expr,
        body: Vec<Stmt>,
        parallel: bool,
    },
    /// Octave's loop over a struct's fields, `for [value, key] = s`.
    ForKeyValue {
        value: LValue,
        key: LValue,
        iter: Expr,
        body: Vec<Stmt>,
    },
    While {
        cond: Expr,
        body: Vec<Stmt>,
    },
    DoUntil {
        body: Vec<Stmt>,
        cond: Expr,
    },
    Switch {
        subject: Expr,
        cases: Vec<(Expr, Vec<Stmt>)>,
        otherwise: Option<Vec<Stmt>>,
    },
    TryCatch {
        body: Vec<Stmt>,
        ident: Option<Ident>,
        catch_body: Vec<Stmt>,
    },
    UnwindProtect {
        body: Vec<Stmt>,
        cleanup: Vec<Stmt>,
    },
    Break,
    Continue,
    Return,
    Global(Vec<(Ident, Option<Expr>)>),
    Persistent(Vec<(Ident, Option<Expr>)>),
    /// Command syntax: `hold on`, `format long` (words are passed as char arguments).
    Command {
        name: Ident,
        args: Vec<String>,
    },
}

/// Assignment target: a name followed by any chain of `(...)`, `{...}`, `.name`, `.(expr)`; or `~`.
#[derive(Clone, Debug, PartialEq)]
pub enum LValue {
    Var { name: Ident, accessors: Vec<Accessor>, span: Span },
    Ignored(Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Accessor {
    Paren(Vec<Expr>, Span),
    Brace(Vec<Expr>, Span),
    Field(Ident),
    DynField(Box<Expr>, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Number(f64),
    /// Imaginary literal `3i`, `2.5j`: the value is the imaginary part.
    ImagNumber(f64),
    /// `'...'` (single) or `"..."` (double, escapes already processed).
    Str {
        value: String,
        double_quoted: bool,
    },
    Ident(String),
    /// `:` used as a whole index (`a(:, 1)`).
    Colon,
    /// `end` inside an index.
    End,
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Unary {
        op: UnOp,
        operand: Box<Expr>,
    },
    Postfix {
        op: PostOp,
        operand: Box<Expr>,
    },
    /// `a:b` or `a:s:b`.
    Range {
        start: Box<Expr>,
        step: Option<Box<Expr>>,
        stop: Box<Expr>,
    },
    /// `base(args)`: indexing or call, decided by name resolution.
    Call {
        base: Box<Expr>,
        args: Vec<Expr>,
    },
    /// `base{args}`.
    CellIndex {
        base: Box<Expr>,
        args: Vec<Expr>,
    },
    Field {
        base: Box<Expr>,
        name: Ident,
    },
    DynField {
        base: Box<Expr>,
        name: Box<Expr>,
    },
    /// `[a, b; c, d]`: rows of elements.
    Matrix(Vec<Vec<Expr>>),
    /// `{a, b; c, d}`.
    CellArray(Vec<Vec<Expr>>),
    AnonFn {
        params: Vec<Param>,
        body: Box<Expr>,
    },
    /// `@name` (also `@pkg.name`).
    FuncHandle(String),
    /// Octave's `x++` / `x--` inside an expression: the value of `target` before `target op= 1` (`op` is
    /// `Add` or `Sub`). As a whole statement, `x++` is `OpAssign` instead.
    PostIncrement {
        target: Box<LValue>,
        op: BinOp,
    },
    /// Octave's assignment inside parentheses or arguments, `(x = e)`, `ischar (ln = fgets (fid))`: assigns
    /// and yields the value.
    Assign {
        target: Box<LValue>,
        rhs: Box<Expr>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    LeftDiv,
    Pow,
    ElMul,
    ElDiv,
    ElLeftDiv,
    ElPow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    AndAnd,
    OrOr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PostOp {
    /// `.'`
    Transpose,
    /// `'`
    CTranspose,
}

impl BinOp {
    /// Source spelling (MATLAB form; Octave aliases such as `!=` and `**` parse to the same op).
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            LeftDiv => "\\",
            Pow => "^",
            ElMul => ".*",
            ElDiv => "./",
            ElLeftDiv => ".\\",
            ElPow => ".^",
            Eq => "==",
            Ne => "~=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            And => "&",
            Or => "|",
            AndAnd => "&&",
            OrOr => "||",
        }
    }
}
