//! Pretty-printer: source text that parses back to the same tree (modulo spans). Parentheses are inserted from
//! operator precedence; comments and the original layout are not kept.

use super::ast::*;

pub fn print_file(file: &File) -> String {
    let mut printer = Printer::default();
    if file.kind == FileKind::Classdef {
        return "classdef Unsupported\nend\n".to_string();
    }
    // A function file starts with its functions (statements after them stay after them); a script with its
    // statements.
    if file.kind == FileKind::Script {
        printer.stmts(&file.body);
    }
    for function in &file.functions {
        printer.function(function);
    }
    if file.kind == FileKind::Function {
        printer.stmts(&file.body);
    }
    printer.out
}

/// The text of statements, indented by `indent` levels.
pub fn print_stmts(stmts: &[Stmt], indent: usize) -> String {
    let mut printer = Printer { indent, ..Printer::default() };
    printer.stmts(stmts);
    printer.out
}

/// The text of a function definition (with its nested functions).
pub fn print_function(function: &Function) -> String {
    let mut printer = Printer::default();
    printer.function(function);
    printer.out
}

/// The arguments of an index or call, comma-separated.
pub fn print_args(args: &[Expr]) -> String {
    expr_list(args)
}

/// The text of one expression.
pub fn print_expr(expr: &Expr) -> String {
    let mut printer = Printer::default();
    printer.expr(expr, ANON, true);
    printer.out
}

#[derive(Default)]
struct Printer {
    out: String,
    indent: usize,
    /// How many brackets (or anonymous function bodies) enclose the current position: `end` is an index only
    /// inside one.
    brackets: usize,
}

/// Precedence levels, loosest to tightest, matching the parser. An assignment expression is written bare only
/// as an index argument; everywhere else it is bracketed.
pub(super) const ASSIGN: u8 = 0;
pub(super) const ANON: u8 = 1;
pub(super) const RANGE: u8 = 7;
pub(super) const UNARY: u8 = 10;
pub(super) const POWER: u8 = 11;
pub(super) const POSTFIX: u8 = 12;

pub(super) fn binary_precedence(op: BinOp) -> u8 {
    use BinOp::*;
    match op {
        OrOr => 2,
        AndAnd => 3,
        Or => 4,
        And => 5,
        Eq | Ne | Lt | Le | Gt | Ge => 6,
        Add | Sub => 8,
        Mul | Div | LeftDiv | ElMul | ElDiv | ElLeftDiv => 9,
        Pow | ElPow => POWER,
    }
}

pub(super) fn precedence(expr: &Expr) -> u8 {
    match &expr.kind {
        ExprKind::Assign { .. } => ASSIGN,
        ExprKind::AnonFn { .. } => ANON,
        ExprKind::Binary { op, .. } => binary_precedence(*op),
        ExprKind::Range { .. } => RANGE,
        ExprKind::Unary { .. } => UNARY,
        _ => POSTFIX,
    }
}

/// A power's exponent may be written with signs in front of a postfix-level operand (`2^-x(1)`), or of
/// an anonymous function when nothing follows. A transposed exponent is bracketed: `a^b'` is `(a^b)'`.
fn signed_postfix(expr: &Expr, at_end: bool) -> bool {
    match &expr.kind {
        ExprKind::Unary { operand, .. } => signed_postfix(operand, at_end),
        ExprKind::AnonFn { .. } => at_end,
        ExprKind::Postfix { .. } => false,
        _ => precedence(expr) >= POSTFIX,
    }
}

pub(super) fn number(value: f64) -> String {
    if value.is_infinite() {
        return "1e999".to_string();
    }
    let text = format!("{value:?}");
    text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
}

pub(super) fn quote_single(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

pub(super) fn quote_double(value: &str) -> String {
    let mut out = String::from("\"");
    for ch in value.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A command-syntax word: bare when it is a plain word, quoted otherwise (with escapes if it needs them).
fn command_word(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        word.to_string()
    } else if word.chars().any(char::is_control) {
        quote_double(word)
    } else {
        quote_single(word)
    }
}

impl Printer {
    fn line(&mut self, text: &str) {
        self.out.push_str(&"  ".repeat(self.indent));
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn function(&mut self, function: &Function) {
        let outputs: Vec<&str> = function.outputs.iter().map(|o| o.name.as_str()).collect();
        let outputs = match outputs.len() {
            0 => String::new(),
            1 => format!("{} = ", outputs[0]),
            _ => format!("[{}] = ", outputs.join(", ")),
        };
        let inputs = params(&function.inputs);
        self.line(&format!("function {outputs}{}({inputs})", function.name.name));
        self.indent += 1;
        self.stmts(&function.body);
        for nested in &function.nested {
            self.function(nested);
        }
        self.indent -= 1;
        self.line("end");
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for stmt in stmts {
            self.stmt(stmt);
        }
    }

    fn block(&mut self, stmts: &[Stmt]) {
        self.indent += 1;
        self.stmts(stmts);
        self.indent -= 1;
    }

    fn stmt(&mut self, stmt: &Stmt) {
        let terminator = if stmt.display { "" } else { ";" };
        let simple = match &stmt.kind {
            StmtKind::Expr(expr) => Some(print_expr(expr)),
            StmtKind::Assign { targets, rhs } => Some(match targets.as_slice() {
                [target @ LValue::Var { .. }] => format!("{} = {}", lvalue(target), print_expr(rhs)),
                _ => {
                    let targets: Vec<String> = targets.iter().map(lvalue).collect();
                    format!("[{}] = {}", targets.join(", "), print_expr(rhs))
                }
            }),
            StmtKind::OpAssign { target, op, rhs } => Some(format!("{} {}= {}", lvalue(target), op.symbol(), print_expr(rhs))),
            StmtKind::Break => Some("break".into()),
            StmtKind::Continue => Some("continue".into()),
            StmtKind::Return => Some("return".into()),
            StmtKind::Global(names) => Some(format!("global{}", declarations(names))),
            StmtKind::Persistent(names) => Some(format!("persistent{}", declarations(names))),
            StmtKind::Command { name, args } => {
                let words: Vec<String> = args.iter().map(|a| command_word(a)).collect();
                Some(format!("{} {}", name.name, words.join(" ")))
            }
            _ => None,
        };
        if let Some(text) = simple {
            self.line(&format!("{text}{terminator}"));
            return;
        }
        let closing = match &stmt.kind {
            StmtKind::If { clauses, else_body } => {
                for (index, (cond, body)) in clauses.iter().enumerate() {
                    let keyword = if index == 0 { "if" } else { "elseif" };
                    self.line(&format!("{keyword} {}", print_expr(cond)));
                    self.block(body);
                }
                if let Some(body) = else_body {
                    self.line("else");
                    self.block(body);
                }
                "end".to_string()
            }
            StmtKind::For { var, iter, body, parallel } => {
                let keyword = if *parallel { "parfor" } else { "for" };
                self.line(&format!("{keyword} {} = {}", lvalue(var), print_expr(iter)));
                self.block(body);
                "end".to_string()
            }
            StmtKind::ForKeyValue { value, key, iter, body } => {
                self.line(&format!("for [{}, {}] = {}", lvalue(value), lvalue(key), print_expr(iter)));
                self.block(body);
                "end".to_string()
            }
            StmtKind::While { cond, body } => {
                self.line(&format!("while {}", print_expr(cond)));
                self.block(body);
                "end".to_string()
            }
            StmtKind::DoUntil { body, cond } => {
                self.line("do");
                self.block(body);
                format!("until {}", print_expr(cond))
            }
            StmtKind::Switch { subject, cases, otherwise } => {
                self.line(&format!("switch {}", print_expr(subject)));
                self.indent += 1;
                for (value, body) in cases {
                    self.line(&format!("case {}", print_expr(value)));
                    self.block(body);
                }
                if let Some(body) = otherwise {
                    self.line("otherwise");
                    self.block(body);
                }
                self.indent -= 1;
                "end".to_string()
            }
            StmtKind::TryCatch { body, ident, catch_body } => {
                self.line("try");
                self.block(body);
                if ident.is_some() || !catch_body.is_empty() {
                    let ident = ident.as_ref().map(|i| format!(" {}", i.name)).unwrap_or_default();
                    self.line(&format!("catch{ident}"));
                    self.block(catch_body);
                }
                "end".to_string()
            }
            StmtKind::UnwindProtect { body, cleanup } => {
                self.line("unwind_protect");
                self.block(body);
                self.line("unwind_protect_cleanup");
                self.block(cleanup);
                "end_unwind_protect".to_string()
            }
            _ => unreachable!("simple statements are printed above"),
        };
        self.line(&format!("{closing}{terminator}"));
    }

    /// Writes `expr`, bracketed when it binds looser than `min_precedence`. `at_end` says nothing follows it
    /// before a closing bracket, comma or line end: an anonymous function there needs no brackets, since its
    /// body would extend to that point anyway.
    fn expr(&mut self, expr: &Expr, min_precedence: u8, at_end: bool) {
        let open_ended = at_end && matches!(expr.kind, ExprKind::AnonFn { .. });
        let bracketed = precedence(expr) < min_precedence && !open_ended;
        if bracketed {
            self.out.push('(');
            self.brackets += 1;
        }
        self.expr_unbracketed(expr, at_end || bracketed);
        if bracketed {
            self.out.push(')');
            self.brackets -= 1;
        }
    }

    /// The base of an index, field or transpose, which `follower` comes right after. Only `'x''` needs
    /// brackets (`''` would continue the string); a number is kept apart from a field's dot by a blank.
    fn postfix_base(&mut self, base: &Expr, follower: &str) {
        match base.kind {
            ExprKind::Str { double_quoted: false, .. } if follower == "'" => {
                self.out.push('(');
                self.expr_unbracketed(base, true);
                self.out.push(')');
            }
            ExprKind::Number(_) if follower == "." => {
                self.expr_unbracketed(base, false);
                self.out.push(' ');
            }
            // Transposes share the powers' level, left to right: `(a^b)'` is written `a^b'`.
            ExprKind::Binary { op: BinOp::Pow | BinOp::ElPow, .. } if matches!(follower, "'" | ".'") => self.expr(base, POWER, false),
            _ => self.expr(base, POSTFIX, false),
        }
        self.out.push_str(follower);
    }

    /// Comma-separated items inside brackets, each bracketed when it binds looser than `min_precedence`.
    fn list(&mut self, items: &[Expr], min_precedence: u8) {
        self.brackets += 1;
        for (index, item) in items.iter().enumerate() {
            if index > 0 {
                self.out.push_str(", ");
            }
            self.expr(item, min_precedence, true);
        }
        self.brackets -= 1;
    }

    fn expr_unbracketed(&mut self, expr: &Expr, at_end: bool) {
        match &expr.kind {
            ExprKind::Number(value) => self.out.push_str(&number(*value)),
            ExprKind::ImagNumber(value) => self.out.push_str(&format!("{}i", number(*value))),
            ExprKind::Str { value, double_quoted: false } => self.out.push_str(&quote_single(value)),
            ExprKind::Str { value, double_quoted: true } => self.out.push_str(&quote_double(value)),
            ExprKind::Ident(name) => self.out.push_str(name),
            ExprKind::Colon => self.out.push(':'),
            ExprKind::End if self.brackets == 0 => self.out.push_str("(end)"),
            ExprKind::End => self.out.push_str("end"),
            ExprKind::Binary { op, lhs, rhs } => {
                let precedence = binary_precedence(*op);
                self.expr(lhs, precedence, false);
                if precedence == POWER {
                    self.out.push_str(op.symbol());
                    let exponent_min = match &rhs.kind {
                        ExprKind::Postfix { .. } => POSTFIX + 1,
                        _ if signed_postfix(rhs, at_end) => UNARY,
                        _ => POSTFIX,
                    };
                    self.expr(rhs, exponent_min, at_end);
                } else {
                    self.out.push_str(&format!(" {} ", op.symbol()));
                    self.expr(rhs, precedence + 1, at_end);
                }
            }
            ExprKind::Unary { op, operand } => {
                self.out.push_str(match op {
                    UnOp::Neg => "-",
                    UnOp::Plus => "+",
                    UnOp::Not => "~",
                });
                // `--x` would read as a decrement; a blank keeps the signs apart without a bracket level.
                if matches!(operand.kind, ExprKind::Unary { .. }) {
                    self.out.push(' ');
                }
                self.expr(operand, UNARY, at_end);
            }
            ExprKind::Postfix { op, operand } => {
                self.postfix_base(operand, if *op == PostOp::Transpose { ".'" } else { "'" });
            }
            ExprKind::Range { start, step, stop } => {
                self.expr(start, RANGE + 1, false);
                if let Some(step) = step {
                    self.out.push(':');
                    self.expr(step, RANGE + 1, false);
                }
                self.out.push(':');
                self.expr(stop, RANGE + 1, at_end);
            }
            ExprKind::Call { base, args } => {
                self.postfix_base(base, "(");
                self.list(args, ASSIGN);
                self.out.push(')');
            }
            ExprKind::CellIndex { base, args } => {
                self.postfix_base(base, "{");
                self.list(args, ASSIGN);
                self.out.push('}');
            }
            ExprKind::Field { base, name } => {
                self.postfix_base(base, ".");
                self.out.push_str(&name.name);
            }
            ExprKind::DynField { base, name } => {
                self.postfix_base(base, ".");
                self.out.push('(');
                self.brackets += 1;
                self.expr(name, ANON, true);
                self.brackets -= 1;
                self.out.push(')');
            }
            ExprKind::Matrix(rows) => self.rows(rows, '[', ']'),
            ExprKind::CellArray(rows) => self.rows(rows, '{', '}'),
            ExprKind::AnonFn { params: ps, body } => {
                self.out.push_str(&format!("@({}) ", params(ps)));
                self.brackets += 1;
                self.expr(body, ANON, at_end);
                self.brackets -= 1;
            }
            ExprKind::FuncHandle(name) => {
                self.out.push('@');
                self.out.push_str(name);
            }
            ExprKind::Assign { target, rhs } => {
                self.out.push_str(&lvalue(target));
                self.out.push_str(" = ");
                self.expr(rhs, ASSIGN, at_end);
            }
            ExprKind::PostIncrement { target, op } => {
                self.out.push_str(&lvalue(target));
                self.out.push_str(if *op == BinOp::Add { "++" } else { "--" });
            }
        }
    }

    fn rows(&mut self, rows: &[Vec<Expr>], open: char, close: char) {
        self.out.push(open);
        for (index, row) in rows.iter().enumerate() {
            if index > 0 {
                self.out.push_str("; ");
            }
            self.list(row, ANON);
        }
        self.out.push(close);
    }
}

pub(super) fn params(params: &[Param]) -> String {
    let names: Vec<&str> = params
        .iter()
        .map(|p| match p {
            Param::Name(ident) => ident.name.as_str(),
            Param::Ignored(_) => "~",
        })
        .collect();
    names.join(", ")
}

fn lvalue(target: &LValue) -> String {
    let LValue::Var { name, accessors, .. } = target else { return "~".to_string() };
    let mut out = name.name.clone();
    for accessor in accessors {
        match accessor {
            Accessor::Paren(args, _) => out.push_str(&format!("({})", expr_list(args))),
            Accessor::Brace(args, _) => out.push_str(&format!("{{{}}}", expr_list(args))),
            Accessor::Field(field) => out.push_str(&format!(".{}", field.name)),
            Accessor::DynField(field, _) => out.push_str(&format!(".({})", expr_list(std::slice::from_ref(field)))),
        }
    }
    out
}

fn expr_list(items: &[Expr]) -> String {
    let mut printer = Printer::default();
    printer.list(items, ASSIGN);
    printer.out
}

fn declarations(names: &[(Ident, Option<Expr>)]) -> String {
    names
        .iter()
        .map(|(name, init)| match init {
            Some(init) => format!(" {} = {}", name.name, print_expr(init)),
            None => format!(" {}", name.name),
        })
        .collect()
}
