//! An expression written the way Octave writes it back (`func2str`, `disp` of a handle): blanks around
//! binary operators, `!` and `!=` for `~` and `~=`, a blank before an index's bracket except inside
//! `[...]` and `{...}`, a blank after an anonymous function's parameters only at the outermost level.
//! Octave keeps the user's own brackets and number spellings; the AST keeps neither, so brackets are
//! the ones precedence needs and numbers are written shortest.

use super::ast::{BinOp, Expr, ExprKind, PostOp, UnOp};
use super::printer::{
    ANON, ASSIGN, POSTFIX, POWER, RANGE, UNARY, binary_precedence, number, params, precedence, quote_double, quote_single,
};

/// Octave's text of `expr`.
pub fn octave_text(expr: &Expr) -> String {
    let mut out = String::new();
    match &expr.kind {
        // A blank after the parameters only at the outermost level: `@(x) f (@(y)y + 1)`.
        ExprKind::AnonFn { params: ps, body } => {
            out.push_str(&format!("@({}) ", params(ps)));
            write(body, ANON, false, &mut out);
        }
        _ => write(expr, ANON, false, &mut out),
    }
    out
}

/// Writes `expr`, bracketed when it binds looser than `min`; `in_matrix`: directly inside `[...]`/`{...}`.
fn write(expr: &Expr, min: u8, in_matrix: bool, out: &mut String) {
    if precedence(expr) < min {
        out.push('(');
        write(expr, ASSIGN, in_matrix, out);
        out.push(')');
        return;
    }
    let list = |items: &[Expr], in_matrix: bool, out: &mut String| {
        for (k, item) in items.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            write(item, ASSIGN, in_matrix, out);
        }
    };
    match &expr.kind {
        ExprKind::Number(x) => out.push_str(&number(*x)),
        ExprKind::ImagNumber(x) => out.push_str(&format!("{}i", number(*x))),
        ExprKind::Str { value, double_quoted: false } => out.push_str(&quote_single(value)),
        ExprKind::Str { value, double_quoted: true } => out.push_str(&quote_double(value)),
        ExprKind::Ident(name) => out.push_str(name),
        ExprKind::Colon => out.push(':'),
        ExprKind::End => out.push_str("end"),
        ExprKind::FuncHandle(name) => out.push_str(&format!("@{name}")),
        ExprKind::Binary { op, lhs, rhs } => {
            let level = binary_precedence(*op);
            write(lhs, level, in_matrix, out);
            out.push_str(&format!(" {} ", if *op == BinOp::Ne { "!=" } else { op.symbol() }));
            let rhs_min = match rhs.kind {
                ExprKind::Unary { .. } if level == POWER => UNARY,
                _ => level + 1,
            };
            write(rhs, rhs_min, in_matrix, out);
        }
        ExprKind::Unary { op, operand } => {
            out.push_str(match op {
                UnOp::Neg => "-",
                UnOp::Plus => "+",
                UnOp::Not => "!",
            });
            write(operand, UNARY, in_matrix, out);
        }
        ExprKind::Postfix { op, operand } => {
            write(operand, POSTFIX, in_matrix, out);
            out.push_str(if *op == PostOp::Transpose { ".'" } else { "'" });
        }
        ExprKind::Range { start, step, stop } => {
            write(start, RANGE + 1, in_matrix, out);
            if let Some(step) = step {
                out.push(':');
                write(step, RANGE + 1, in_matrix, out);
            }
            out.push(':');
            write(stop, RANGE + 1, in_matrix, out);
        }
        ExprKind::Call { base, args } | ExprKind::CellIndex { base, args } => {
            let (open, close) = if matches!(expr.kind, ExprKind::Call { .. }) { ('(', ')') } else { ('{', '}') };
            write(base, POSTFIX, in_matrix, out);
            if !in_matrix {
                out.push(' ');
            }
            out.push(open);
            list(args, false, out);
            out.push(close);
        }
        ExprKind::Field { base, name } => {
            write(base, POSTFIX, in_matrix, out);
            out.push('.');
            out.push_str(&name.name);
        }
        ExprKind::DynField { base, name } => {
            write(base, POSTFIX, in_matrix, out);
            out.push_str(".(");
            write(name, ASSIGN, false, out);
            out.push(')');
        }
        ExprKind::Matrix(rows) | ExprKind::CellArray(rows) => {
            let (open, close) = if matches!(expr.kind, ExprKind::Matrix(_)) { ('[', ']') } else { ('{', '}') };
            out.push(open);
            for (k, row) in rows.iter().enumerate() {
                if k > 0 {
                    out.push_str("; ");
                }
                list(row, true, out);
            }
            out.push(close);
        }
        ExprKind::AnonFn { params: ps, body } => {
            out.push_str(&format!("@({})", params(ps)));
            write(body, ANON, false, out);
        }
        ExprKind::PostIncrement { .. } | ExprKind::Assign { .. } => out.push_str(&super::printer::print_expr(expr)),
    }
}
