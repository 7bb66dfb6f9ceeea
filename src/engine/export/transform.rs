//! The exported code of one function: its statements as written, each assignment of a differentiated
//! value followed by its derivative (`msad_d_<name>`: numel(value) x p, one column per compressed
//! direction), computed by the runtime helpers of runtime.m. Control flow stays as written, so the
//! derivative follows whatever path the values take.

use super::activity::{Name, Scope};
use super::rules::{self, ExportRule};
use crate::diag::{Diagnostic, ErrorKind, Result, SourceFile, Span};
use crate::primitives;
use crate::syntax::ast::*;
use crate::syntax::printer::{print_args, print_expr, print_stmts};
use std::collections::HashSet;
use std::sync::Arc;

/// The derivative of user variable `name`.
pub(super) fn derivative_of(name: &str) -> String {
    format!("msad_d_{name}")
}

/// The differentiated copy of user function `name`.
pub(super) fn differentiated(name: &str) -> String {
    format!("msad_df_{name}")
}

/// A value in the exported code: its text (a name or a literal) and, when differentiated, the name
/// of its derivative.
struct Operand {
    value: String,
    deriv: Option<String>,
}

impl Operand {
    /// The derivative, or `[]` (the runtime helpers' "not differentiated").
    fn deriv_or_empty(&self) -> &str {
        self.deriv.as_deref().unwrap_or("[]")
    }
}

/// Where a result is written: a user variable or a temporary.
struct Target {
    value: String,
    deriv: String,
}

pub(super) struct Emitter<'a> {
    scope: &'a Scope,
    source: &'a Arc<SourceFile>,
    /// Outputs that are never differentiated: their derivatives are zero-filled before returning.
    constant_outputs: Vec<String>,
    /// Variables surely assigned at this point (an indexed assignment to another may create it).
    defined: HashSet<String>,
    lines: Vec<String>,
    indent: usize,
    temps: usize,
}

impl<'a> Emitter<'a> {
    pub(super) fn new(scope: &'a Scope, source: &'a Arc<SourceFile>, inputs: &[String], outputs: &[String]) -> Emitter<'a> {
        Emitter {
            scope,
            source,
            constant_outputs: outputs.iter().filter(|o| !scope.active.contains(*o)).cloned().collect(),
            defined: inputs.iter().cloned().collect(),
            lines: Vec::new(),
            indent: 1,
            temps: 0,
        }
    }

    /// The body's text, ending with the zero derivatives of outputs that are never differentiated.
    pub(super) fn body(mut self, body: &[Stmt]) -> Result<String> {
        self.stmts(body)?;
        self.fill_constant_outputs();
        Ok(self.lines.concat())
    }

    fn line(&mut self, text: &str) {
        self.lines.push(format!("{}{text}\n", "  ".repeat(self.indent)));
    }

    fn copy(&mut self, stmt: &Stmt) {
        self.lines.push(print_stmts(std::slice::from_ref(stmt), self.indent));
    }

    fn unsupported(&self, span: Span, what: &str) -> Diagnostic {
        Diagnostic::new(ErrorKind::Unsupported, format!("msad_export cannot yet write the derivative of {what}"))
            .at(self.source, span)
            .with_hint("msad_eval differentiates this code: call it at run time instead of exporting, or rewrite this line")
    }

    fn temp(&mut self) -> Target {
        self.temps += 1;
        Target { value: format!("msad_t{}", self.temps), deriv: format!("msad_dt{}", self.temps) }
    }

    fn target(&mut self, dest: Option<&str>) -> Target {
        match dest {
            Some(name) => Target { value: name.to_string(), deriv: derivative_of(name) },
            None => self.temp(),
        }
    }

    fn fill_constant_outputs(&mut self) {
        for output in self.constant_outputs.clone() {
            self.line(&format!("{} = zeros(numel({output}), msad_p);", derivative_of(&output)));
        }
    }

    fn zero_derivative(&mut self, name: &str) {
        if self.scope.active.contains(name) {
            self.line(&format!("{} = zeros(numel({name}), msad_p);", derivative_of(name)));
        }
    }

    fn stmts(&mut self, body: &[Stmt]) -> Result<()> {
        body.iter().try_for_each(|stmt| self.stmt(stmt))
    }

    /// A nested block: what it assigns is not surely assigned after it.
    fn block(&mut self, body: &[Stmt]) -> Result<()> {
        let defined = self.defined.clone();
        self.indent += 1;
        let result = self.stmts(body);
        self.indent -= 1;
        self.defined = defined;
        result
    }

    fn stmt(&mut self, stmt: &Stmt) -> Result<()> {
        match &stmt.kind {
            StmtKind::Assign { targets, rhs } => self.assign(targets, rhs, stmt),
            StmtKind::OpAssign { target, op, rhs } => self.op_assign(target, *op, rhs, stmt),
            StmtKind::If { clauses, else_body } => {
                let mut parts: Vec<(String, &[Stmt])> = clauses
                    .iter()
                    .enumerate()
                    .map(|(k, (cond, body))| (format!("{} {}", if k == 0 { "if" } else { "elseif" }, print_expr(cond)), body.as_slice()))
                    .collect();
                parts.extend(else_body.as_deref().map(|body| ("else".to_string(), body)));
                self.compound(&parts, "end")
            }
            StmtKind::For { var: LValue::Var { name, accessors, .. }, iter, body, .. } if accessors.is_empty() => {
                if self.scope.is_active(iter) {
                    return Err(self.unsupported(iter.span, "a for loop over a differentiated value (loop over its indices instead)"));
                }
                self.line(&format!("for {} = {}", name.name, print_expr(iter)));
                self.indent += 1;
                self.zero_derivative(&name.name);
                self.indent -= 1;
                self.block(body)?;
                self.line("end");
                Ok(())
            }
            StmtKind::While { cond, body } => self.compound(&[(format!("while {}", print_expr(cond)), body)], "end"),
            StmtKind::DoUntil { body, cond } => self.compound(&[("do".to_string(), body)], &format!("until {}", print_expr(cond))),
            StmtKind::Switch { subject, cases, otherwise } => {
                let mut parts: Vec<(String, &[Stmt])> = vec![(format!("switch {}", print_expr(subject)), &[])];
                parts.extend(cases.iter().map(|(label, body)| (format!("case {}", print_expr(label)), body.as_slice())));
                parts.extend(otherwise.as_deref().map(|body| ("otherwise".to_string(), body)));
                self.compound(&parts, "end")
            }
            StmtKind::TryCatch { body, ident, catch_body } => {
                let catch = format!("catch {}", ident.as_ref().map_or("", |i| i.name.as_str()));
                self.compound(&[("try".to_string(), body), (catch, catch_body)], "end")
            }
            StmtKind::UnwindProtect { body, cleanup } => self
                .compound(&[("unwind_protect".to_string(), body), ("unwind_protect_cleanup".to_string(), cleanup)], "end_unwind_protect"),
            StmtKind::Return => {
                self.fill_constant_outputs();
                self.copy(stmt);
                Ok(())
            }
            StmtKind::Global(names) | StmtKind::Persistent(names) => {
                match names.iter().find(|(n, _)| self.scope.active.contains(&n.name)) {
                    Some((name, _)) => {
                        Err(self.unsupported(name.span, "a global or persistent variable that holds a differentiated value"))
                    }
                    None => {
                        self.copy(stmt);
                        Ok(())
                    }
                }
            }
            StmtKind::Expr(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Command { .. } => {
                self.copy(stmt);
                Ok(())
            }
            StmtKind::For { .. } | StmtKind::ForKeyValue { .. } => {
                if super::activity::blocks(stmt).iter().any(|b| self.any_active(b)) {
                    return Err(self.unsupported(stmt.span, "this form of for loop (write `for k = ...` over indices)"));
                }
                self.copy(stmt);
                Ok(())
            }
        }
    }

    /// A compound statement: each header line followed by its block, then the closing line.
    fn compound(&mut self, parts: &[(String, &[Stmt])], closing: &str) -> Result<()> {
        for (header, body) in parts {
            self.line(header);
            self.block(body)?;
        }
        self.line(closing);
        Ok(())
    }

    /// Whether a statement of `body` assigns a differentiated variable.
    fn any_active(&self, body: &[Stmt]) -> bool {
        let mut found = false;
        super::activity::visit_exprs(body, &mut |e| found |= self.scope.is_active(e));
        found
    }

    fn op_assign(&mut self, target: &LValue, op: BinOp, rhs: &Expr, stmt: &Stmt) -> Result<()> {
        let LValue::Var { name, accessors, span } = target else { return Err(self.unsupported(stmt.span, "this assignment")) };
        if !accessors.is_empty() {
            if self.scope.active.contains(&name.name) || self.scope.is_active(rhs) {
                return Err(self.unsupported(*span, "an operator assignment to part of a differentiated value (write `a(i) = a(i) + ...`)"));
            }
            self.copy(stmt);
            return Ok(());
        }
        let current = Expr { kind: ExprKind::Ident(name.name.clone()), span: name.span };
        let combined = Expr { kind: ExprKind::Binary { op, lhs: Box::new(current), rhs: Box::new(rhs.clone()) }, span: stmt.span };
        self.assign(std::slice::from_ref(target), &combined, stmt)
    }

    fn assign(&mut self, targets: &[LValue], rhs: &Expr, stmt: &Stmt) -> Result<()> {
        match targets {
            [LValue::Var { name, accessors, span }] => {
                let result = match accessors.as_slice() {
                    [] => self.assign_whole(&name.name, rhs, stmt),
                    [Accessor::Paren(args, _)] if self.scope.active.contains(&name.name) || self.scope.is_active(rhs) => {
                        self.assign_indexed(&name.name, args, rhs, stmt)
                    }
                    _ if self.scope.active.contains(&name.name) || self.scope.is_active(rhs) => {
                        Err(self.unsupported(*span, "an assignment into a field or cell that holds a differentiated value"))
                    }
                    _ => {
                        self.copy(stmt);
                        Ok(())
                    }
                };
                if accessors.is_empty() {
                    self.defined.insert(name.name.clone());
                }
                result
            }
            _ => self.assign_outputs(targets, rhs, stmt),
        }
    }

    fn assign_whole(&mut self, name: &str, rhs: &Expr, stmt: &Stmt) -> Result<()> {
        if !self.scope.is_active(rhs) {
            self.copy(stmt);
            self.zero_derivative(name);
            return Ok(());
        }
        // A right side that reads the variable is computed aside first: its derivative rule reads the
        // old value.
        if mentions(rhs, name) {
            let result = self.expr_to(rhs, None)?;
            self.line(&format!("{name} = {};", result.value));
            self.line(&format!("{} = {};", derivative_of(name), result.deriv_or_empty()));
        } else {
            self.expr_to(rhs, Some(name))?;
        }
        if stmt.display {
            self.line(name);
        }
        Ok(())
    }

    /// `v(args) = rhs`: an index map of v, marked where the right side goes, says where each element
    /// of the new v takes its derivative from (runtime.m's `msad_assigned`).
    fn assign_indexed(&mut self, name: &str, args: &[Expr], rhs: &Expr, stmt: &Stmt) -> Result<()> {
        let deleting = matches!(&rhs.kind, ExprKind::Matrix(rows) if rows.iter().all(|r| r.is_empty()));
        let value = if deleting { None } else { Some(self.operand(rhs)?) };
        self.temps += 1;
        let map = format!("msad_m{}", self.temps);
        let deriv = derivative_of(name);
        if self.defined.contains(name) {
            self.line(&format!("{map} = msad_map({name}, 0);"));
        } else {
            self.line(&format!(
                "if exist('{name}', 'var'), {map} = msad_map({name}, 0); else, {map} = []; {deriv} = zeros(0, msad_p); end"
            ));
        }
        let args = print_args(args);
        let (marked, assigned, new_deriv) = match &value {
            Some(v) => (format!("-msad_map({}, 0)", v.value), v.value.clone(), v.deriv_or_empty().to_string()),
            None => ("[]".to_string(), "[]".to_string(), "[]".to_string()),
        };
        self.line(&format!("{map}({args}) = {marked};"));
        self.line(&format!("{name}({args}) = {assigned}{}", if stmt.display { "" } else { ";" }));
        self.line(&format!("{deriv} = msad_assigned({deriv}, {map}, {new_deriv});"));
        Ok(())
    }

    /// `[a, b] = f(...)`.
    fn assign_outputs(&mut self, targets: &[LValue], rhs: &Expr, stmt: &Stmt) -> Result<()> {
        let names: Vec<Option<&str>> = targets
            .iter()
            .map(|t| match t {
                LValue::Var { name, accessors, .. } if accessors.is_empty() => Ok(Some(name.name.as_str())),
                LValue::Ignored(_) => Ok(None),
                LValue::Var { span, .. } => Err(*span),
            })
            .collect::<std::result::Result<_, _>>()
            .map_err(|span| self.unsupported(span, "several outputs assigned into parts of arrays (assign them to variables first)"))
            .or_else(|e| if self.scope.is_active(rhs) { Err(e) } else { Ok(vec![]) })?;
        if !self.scope.is_active(rhs) {
            self.copy(stmt);
            names.iter().flatten().for_each(|n| self.zero_derivative(n));
            return Ok(());
        }
        let ExprKind::Call { base, args } = &rhs.kind else { return Err(self.unsupported(rhs.span, "this multiple assignment")) };
        let ExprKind::Ident(callee) = &base.kind else { return Err(self.unsupported(rhs.span, "this multiple assignment")) };
        let targets: Vec<Option<Target>> = names.iter().map(|n| n.map(|n| self.target(Some(n)))).collect();
        let result = match self.scope.name(callee) {
            Name::Other if self.is_user(callee) => self.user_call(callee, args, &targets.iter().map(Option::as_ref).collect::<Vec<_>>()),
            Name::Prim(prim) if rules::rule(primitives::get(prim)) == Some(ExportRule::Extremum) && names.len() == 2 => {
                let value = match targets[0].as_ref() {
                    Some(t) => Target { value: t.value.clone(), deriv: t.deriv.clone() },
                    None => self.temp(),
                };
                self.extremum(callee, args, value, names[1], rhs.span)
            }
            _ => Err(self.unsupported(rhs.span, &format!("several outputs of '{callee}'"))),
        };
        names.iter().flatten().for_each(|n| {
            self.defined.insert(n.to_string());
        });
        result
    }

    fn is_handle(&self, expr: &Expr) -> bool {
        match &expr.kind {
            ExprKind::AnonFn { .. } | ExprKind::FuncHandle(_) => true,
            ExprKind::Ident(name) => self.scope.name(name) == Name::Handle,
            _ => false,
        }
    }

    fn is_user(&self, name: &str) -> bool {
        self.scope.users.iter().any(|u| u == name)
    }

    /// The value of `expr` as a name or literal, its derivative computed first where it has one.
    fn operand(&mut self, expr: &Expr) -> Result<Operand> {
        if self.scope.is_active(expr) {
            return self.expr_to(expr, None);
        }
        match &expr.kind {
            ExprKind::Ident(_) | ExprKind::Number(_) => Ok(Operand { value: print_expr(expr), deriv: None }),
            _ => {
                let target = self.temp();
                self.line(&format!("{} = {};", target.value, print_expr(expr)));
                Ok(Operand { value: target.value, deriv: None })
            }
        }
    }

    /// Writes the value and derivative of the active `expr` (to `dest` when given).
    fn expr_to(&mut self, expr: &Expr, dest: Option<&str>) -> Result<Operand> {
        match &expr.kind {
            ExprKind::Ident(name) => match dest {
                Some(dest) => {
                    self.line(&format!("{dest} = {name};"));
                    self.line(&format!("{} = {};", derivative_of(dest), derivative_of(name)));
                    Ok(Operand { value: dest.to_string(), deriv: Some(derivative_of(dest)) })
                }
                None => Ok(Operand { value: name.clone(), deriv: Some(derivative_of(name)) }),
            },
            ExprKind::Binary { op, lhs, rhs } => {
                let (a, b) = (self.operand(lhs)?, self.operand(rhs)?);
                let y = self.target(dest);
                self.line(&format!("{} = {} {} {};", y.value, a.value, op.symbol(), b.value));
                let deriv = binary_derivative(*op, &a, &b, &y.value);
                self.finish(y, &deriv)
            }
            ExprKind::Unary { op: UnOp::Neg, operand } => {
                let a = self.operand(operand)?;
                let y = self.target(dest);
                self.line(&format!("{} = -{};", y.value, a.value));
                let deriv = format!("-{}", a.deriv_or_empty());
                self.finish(y, &deriv)
            }
            ExprKind::Unary { operand, .. } => self.expr_to(operand, dest),
            ExprKind::Postfix { op, operand } => {
                let a = self.operand(operand)?;
                let y = self.target(dest);
                let (symbol, deriv) = match op {
                    PostOp::Transpose => (".'", format!("msad_rows({}, msad_map({}, 0).')", a.deriv_or_empty(), a.value)),
                    PostOp::CTranspose => ("'", format!("msad_ctranspose({}, {}, {})", y.value, a.value, a.deriv_or_empty())),
                };
                self.line(&format!("{} = {}{symbol};", y.value, a.value));
                self.finish(y, &deriv)
            }
            ExprKind::Call { base, args } => match &base.kind {
                ExprKind::Ident(name) => match self.scope.name(name) {
                    Name::Variable => self.index(name, args, dest),
                    Name::Prim(prim) => self.prim_call(name, prim, args, dest, expr.span),
                    Name::Other if self.is_user(name) => {
                        let y = self.target(dest);
                        self.user_call(name, args, &[Some(&y)])?;
                        Ok(Operand { value: y.value, deriv: Some(y.deriv) })
                    }
                    Name::Handle => Err(self.unsupported(expr.span, &format!("a call through the function handle '{name}'"))),
                    Name::Other => Err(self.unsupported(expr.span, &format!("'{name}'"))),
                },
                _ => Err(self.unsupported(expr.span, "this call")),
            },
            ExprKind::Matrix(rows) => {
                let rows: Vec<Vec<&Expr>> = rows.iter().map(|r| r.iter().collect()).collect();
                self.concatenate(&rows, dest)
            }
            _ => Err(self.unsupported(expr.span, "this expression")),
        }
    }

    fn finish(&mut self, y: Target, deriv: &str) -> Result<Operand> {
        self.line(&format!("{} = {deriv};", y.deriv));
        Ok(Operand { value: y.value, deriv: Some(y.deriv) })
    }

    /// `v(args)`: the same subscripts on v's index map name the elements read.
    fn index(&mut self, name: &str, args: &[Expr], dest: Option<&str>) -> Result<Operand> {
        let y = self.target(dest);
        let args = print_args(args);
        self.temps += 1;
        let map = format!("msad_m{}", self.temps);
        self.line(&format!("{} = {name}({args});", y.value));
        self.line(&format!("{map} = msad_map({name}, 0);"));
        let deriv = format!("msad_rows({}, {map}({args}))", derivative_of(name));
        self.finish(y, &deriv)
    }

    fn prim_call(&mut self, name: &str, prim: primitives::PrimId, args: &[Expr], dest: Option<&str>, span: Span) -> Result<Operand> {
        let rule = rules::rule(primitives::get(prim)).ok_or_else(|| self.unsupported(span, &format!("'{name}'")))?;
        let arity = |n: usize| {
            if args.len() == n { Ok(()) } else { Err(self.unsupported(span, &format!("'{name}' with {} arguments", args.len()))) }
        };
        match rule {
            ExportRule::Zero => unreachable!("a zero-derivative call is never active"),
            ExportRule::Slope(slope) => {
                arity(1)?;
                let a = self.operand(&args[0])?;
                let y = self.target(dest);
                self.line(&format!("{} = {name}({});", y.value, a.value));
                let slope = substitute(slope, &a.value, "", &y.value);
                let deriv = format!("msad_scale({slope}, {}, {}, {})", a.deriv_or_empty(), a.value, y.value);
                self.finish(y, &deriv)
            }
            ExportRule::Operator(op) => self.binary_call(name, args, dest, span, &|a, b, y| binary_derivative(op, a, b, y)),
            ExportRule::Partials(da, db) => self.partials(name, args, (da, db), dest, span),
            ExportRule::Extremum if args.len() == 2 => {
                let picks_a = if prim == primitives::Prim::Max { "double(A >= B | isnan(B))" } else { "double(A <= B | isnan(B))" };
                let picks_b = if prim == primitives::Prim::Max { "double(~(A >= B | isnan(B)))" } else { "double(~(A <= B | isnan(B)))" };
                self.partials(name, args, (picks_a, picks_b), dest, span)
            }
            ExportRule::Extremum => {
                let y = self.target(dest);
                let operand = Operand { value: y.value.clone(), deriv: Some(y.deriv.clone()) };
                self.extremum(name, args, y, None, span)?;
                Ok(operand)
            }
            ExportRule::Structural | ExportRule::Helper(_) => {
                let (a, rest) = self.first_active(name, args, span)?;
                let y = self.target(dest);
                self.line(&format!("{} = {name}({}{rest});", y.value, a.value));
                let deriv = match rule {
                    ExportRule::Helper(helper) => format!("{helper}({}, {}, {}{rest})", y.value, a.value, a.deriv_or_empty()),
                    _ => format!("msad_rows({}, {name}(msad_map({}, 0){rest}))", a.deriv_or_empty(), a.value),
                };
                self.finish(y, &deriv)
            }
            ExportRule::PairHelper(helper) => self.binary_call(name, args, dest, span, &|a, b, y| {
                format!("{helper}({y}, {}, {}, {}, {})", a.value, a.deriv_or_empty(), b.value, b.deriv_or_empty())
            }),
            ExportRule::Concatenation { skip } => {
                if args.len() < skip || args[..skip].iter().any(|a| self.scope.is_active(a)) {
                    return Err(self.unsupported(span, &format!("'{name}' with a differentiated dimension")));
                }
                let leading: String = args[..skip].iter().map(|a| format!("{}, ", print_expr(a))).collect();
                let pieces: Vec<&Expr> = args[skip..].iter().collect();
                let call = |inner: String| format!("{name}({leading}{inner})");
                self.concatenate_call(&pieces, dest, call)
            }
        }
    }

    /// A call whose first argument is differentiated and whose others are not: the operand and the
    /// others' text (`, a2, a3`).
    fn first_active(&mut self, name: &str, args: &[Expr], span: Span) -> Result<(Operand, String)> {
        if args.is_empty() || args[1..].iter().any(|a| self.scope.is_active(a)) {
            return Err(self.unsupported(span, &format!("'{name}' with a differentiated argument after the first")));
        }
        let a = self.operand(&args[0])?;
        let rest: String = args[1..].iter().map(|e| format!(", {}", print_expr(e))).collect();
        Ok((a, rest))
    }

    fn partials(&mut self, name: &str, args: &[Expr], (da, db): (&str, &str), dest: Option<&str>, span: Span) -> Result<Operand> {
        self.binary_call(name, args, dest, span, &|a, b, y| {
            let mut terms = Vec::new();
            for (slope, side) in [(da, a), (db, b)] {
                if let Some(d) = &side.deriv {
                    let slope = substitute(slope, &a.value, &b.value, y);
                    terms.push(format!("msad_scale({slope}, {d}, {}, {y})", side.value));
                }
            }
            terms.join(" + ")
        })
    }

    /// `name(a, b)`, its derivative written by `derivative(a, b, y)`.
    fn binary_call(
        &mut self,
        name: &str,
        args: &[Expr],
        dest: Option<&str>,
        span: Span,
        derivative: &dyn Fn(&Operand, &Operand, &str) -> String,
    ) -> Result<Operand> {
        if args.len() != 2 {
            return Err(self.unsupported(span, &format!("'{name}' with {} arguments", args.len())));
        }
        let (a, b) = (self.operand(&args[0])?, self.operand(&args[1])?);
        let y = self.target(dest);
        self.line(&format!("{} = {name}({}, {});", y.value, a.value, b.value));
        let deriv = derivative(&a, &b, &y.value);
        self.finish(y, &deriv)
    }

    /// `[y, i] = max(a)`, `max(a, [], dim)`: the derivative of the element each result picks.
    fn extremum(&mut self, name: &str, args: &[Expr], value: Target, index: Option<&str>, span: Span) -> Result<()> {
        if args.len() == 2 {
            return Err(self.unsupported(span, &format!("two outputs of '{name}' of two arrays")));
        }
        let (a, rest) = self.first_active(name, args, span)?;
        self.temps += 1;
        let picked = index.map_or_else(|| format!("msad_i{}", self.temps), str::to_string);
        self.line(&format!("[{}, {picked}] = {name}({}{rest});", value.value, a.value));
        let dim = if args.len() == 3 { format!(", {}", print_expr(&args[2])) } else { String::new() };
        self.line(&format!("{} = msad_rows({}, msad_extremum_map({}, {picked}{dim}));", value.deriv, a.deriv_or_empty(), a.value));
        if let Some(index) = index {
            self.zero_derivative(index);
        }
        Ok(())
    }

    /// `[o1, o2] = f(args)` of a user function: its differentiated copy, every argument with a
    /// derivative (zeros for constants).
    fn user_call(&mut self, name: &str, args: &[Expr], outputs: &[Option<&Target>]) -> Result<()> {
        let mut inputs = Vec::new();
        for arg in args {
            if self.is_handle(arg) {
                return Err(self.unsupported(arg.span, &format!("a call of '{name}' that passes a function handle")));
            }
            let a = self.operand(arg)?;
            let deriv = a.deriv.clone().unwrap_or_else(|| format!("zeros(numel({}), msad_p)", a.value));
            inputs.push(format!("{}, {deriv}", a.value));
        }
        let outputs: Vec<String> = outputs
            .iter()
            .map(|o| match o {
                Some(target) => format!("{}, {}", target.value, target.deriv),
                None => "~, ~".to_string(),
            })
            .collect();
        self.line(&format!("[{}] = {}({});", outputs.join(", "), differentiated(name), inputs.join(", ")));
        Ok(())
    }

    /// `[a, b; c]`: the same layout of the pieces' index maps says where each element comes from.
    fn concatenate(&mut self, rows: &[Vec<&Expr>], dest: Option<&str>) -> Result<Operand> {
        let mut operands = Vec::new();
        for row in rows {
            let mut pieces = Vec::new();
            for piece in row {
                pieces.push(self.operand(piece)?);
            }
            operands.push(pieces);
        }
        let layout = |text: &dyn Fn(&Operand, &str) -> String| -> String {
            let mut offset = String::from("0");
            let rows: Vec<String> = operands
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|o| {
                            let piece = text(o, &offset);
                            offset = format!("{offset} + numel({})", o.value);
                            piece
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .collect();
            format!("[{}]", rows.join("; "))
        };
        let value = layout(&|o, _| o.value.clone());
        let map = layout(&|o, offset| format!("msad_map({}, {offset})", o.value));
        let stacked: Vec<String> =
            operands.iter().flatten().map(|o| o.deriv.clone().unwrap_or_else(|| format!("zeros(numel({}), msad_p)", o.value))).collect();
        let y = self.target(dest);
        self.line(&format!("{} = {value};", y.value));
        let deriv = format!("msad_rows([{}], {map})", stacked.join("; "));
        self.finish(y, &deriv)
    }

    /// `horzcat(a, b)`, `cat(dim, a, b)`: the call on the pieces and on their index maps.
    fn concatenate_call(&mut self, pieces: &[&Expr], dest: Option<&str>, call: impl Fn(String) -> String) -> Result<Operand> {
        let mut operands = Vec::new();
        for piece in pieces {
            operands.push(self.operand(piece)?);
        }
        let mut offset = String::from("0");
        let mut maps = Vec::new();
        for o in &operands {
            maps.push(format!("msad_map({}, {offset})", o.value));
            offset = format!("{offset} + numel({})", o.value);
        }
        let values: Vec<&str> = operands.iter().map(|o| o.value.as_str()).collect();
        let stacked: Vec<String> =
            operands.iter().map(|o| o.deriv.clone().unwrap_or_else(|| format!("zeros(numel({}), msad_p)", o.value))).collect();
        let y = self.target(dest);
        self.line(&format!("{} = {};", y.value, call(values.join(", "))));
        let deriv = format!("msad_rows([{}], {})", stacked.join("; "), call(maps.join(", ")));
        self.finish(y, &deriv)
    }
}

/// The derivative of `a op b` (written to `y`), from the differentiated sides only.
fn binary_derivative(op: BinOp, a: &Operand, b: &Operand, y: &str) -> String {
    let (va, vb) = (&a.value, &b.value);
    let helper = |name: &str| format!("{name}({y}, {va}, {}, {vb}, {})", a.deriv_or_empty(), b.deriv_or_empty());
    let (slope_a, slope_b, minus_b): (String, String, bool) = match op {
        BinOp::Add => (String::new(), String::new(), false),
        BinOp::Sub => (String::new(), String::new(), true),
        BinOp::ElMul => (vb.clone(), va.clone(), false),
        BinOp::ElDiv => (format!("1 ./ {vb}"), format!("{y} ./ {vb}"), true),
        BinOp::ElLeftDiv => (format!("-{y} ./ {va}"), format!("1 ./ {va}"), false),
        BinOp::ElPow => (format!("msad_power_base_slope({va}, {vb})"), format!("msad_power_exponent_slope({va}, {y})"), false),
        BinOp::Mul => return helper("msad_mtimes"),
        BinOp::Div => return helper("msad_mrdivide"),
        BinOp::LeftDiv => return helper("msad_mldivide"),
        BinOp::Pow => return helper("msad_mpower"),
        _ => unreachable!("comparisons and logical operators are never active"),
    };
    let term = |slope: &str, d: &str, side: &str| match slope.is_empty() {
        true => format!("msad_spread({d}, {side}, {y})"),
        false => format!("msad_scale({slope}, {d}, {side}, {y})"),
    };
    match (&a.deriv, &b.deriv) {
        (Some(da), Some(db)) => format!("{} {} {}", term(&slope_a, da, va), if minus_b { "-" } else { "+" }, term(&slope_b, db, vb)),
        (Some(da), None) => term(&slope_a, da, va),
        (None, Some(db)) => format!("{}{}", if minus_b { "-" } else { "" }, term(&slope_b, db, vb)),
        (None, None) => unreachable!("an active operation has a differentiated side"),
    }
}

/// Whether `expr` reads the variable `name`.
fn mentions(expr: &Expr, name: &str) -> bool {
    let statement = Stmt { kind: StmtKind::Expr(expr.clone()), span: expr.span, display: false };
    let mut found = false;
    super::activity::visit_exprs(std::slice::from_ref(&statement), &mut |e| found |= matches!(&e.kind, ExprKind::Ident(n) if n == name));
    found
}

/// A rule's text with `A`, `B` and `Y` (whole words) replaced by the operands and the result.
fn substitute(template: &str, a: &str, b: &str, y: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = template.chars().collect();
    for (k, &c) in chars.iter().enumerate() {
        let word = |i: usize| chars.get(i).is_some_and(|ch| ch.is_alphanumeric() || *ch == '_');
        let alone = (k == 0 || !word(k - 1)) && !word(k + 1);
        match c {
            'A' if alone => out.push_str(a),
            'B' if alone => out.push_str(b),
            'Y' if alone => out.push_str(y),
            _ => out.push(c),
        }
    }
    out
}
