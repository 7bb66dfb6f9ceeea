//! Which variables of a function carry derivatives in the exported code: the inputs, and every
//! variable assigned from a differentiated value anywhere in the function (flow-insensitive, so a
//! variable is differentiated on every path; where it holds a constant its derivative is zero).

use super::rules::{self, ExportRule};
use crate::primitives::{self, Prim};
use crate::syntax::ast::*;
use std::collections::HashSet;

/// What a name called or indexed in the function refers to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Name {
    Variable,
    /// A variable holding a function handle the code made: a call through it is not exported.
    Handle,
    Prim(Prim),
    /// A user function (see `Scope::users`), Octave's own function or a name found nowhere.
    Other,
}

pub(super) struct Scope {
    variables: HashSet<String>,
    handles: HashSet<String>,
    pub(super) active: HashSet<String>,
    /// User functions it calls, in the order first met.
    pub(super) users: Vec<String>,
}

impl Scope {
    /// The scope of a function with these inputs and body; `user(name)` says whether a name that is
    /// not a variable nor a builtin is a user function.
    pub(super) fn new(inputs: &[String], body: &[Stmt], user: &mut dyn FnMut(&str) -> bool) -> Scope {
        let mut variables: HashSet<String> = inputs.iter().cloned().collect();
        let mut handles = HashSet::new();
        visit_assignments(body, &mut |name, rhs| {
            variables.insert(name.to_string());
            if rhs.is_some_and(makes_handle) {
                handles.insert(name.to_string());
            }
        });
        let mut scope = Scope { variables, handles, active: inputs.iter().cloned().collect(), users: Vec::new() };
        scope.users = scope.collect_users(body, user);
        scope.propagate(body);
        scope
    }

    pub(super) fn name(&self, name: &str) -> Name {
        if self.handles.contains(name) {
            Name::Handle
        } else if self.variables.contains(name) {
            Name::Variable
        } else if let Some(prim) = primitives::builtin(name) {
            Name::Prim(prim)
        } else {
            Name::Other
        }
    }

    /// Whether `expr`'s value carries a derivative.
    pub(super) fn is_active(&self, expr: &Expr) -> bool {
        let any = |items: &[Expr]| items.iter().any(|e| self.is_active(e));
        match &expr.kind {
            ExprKind::Ident(name) => self.active.contains(name),
            ExprKind::Binary { op, lhs, rhs } => rules::differentiable_operator(*op) && (self.is_active(lhs) || self.is_active(rhs)),
            ExprKind::Unary { op: UnOp::Not, .. } => false,
            ExprKind::Unary { operand, .. } | ExprKind::Postfix { operand, .. } => self.is_active(operand),
            ExprKind::Range { start, step, stop } => {
                self.is_active(start) || self.is_active(stop) || step.as_ref().is_some_and(|s| self.is_active(s))
            }
            ExprKind::Call { base, args } => match &base.kind {
                ExprKind::Ident(name) => match self.name(name) {
                    Name::Variable => self.active.contains(name),
                    Name::Prim(prim) => rules::rule(primitives::get(prim)) != Some(ExportRule::Zero) && any(args),
                    Name::Handle | Name::Other => any(args),
                },
                _ => self.is_active(base) || any(args),
            },
            ExprKind::CellIndex { base, .. } | ExprKind::Field { base, .. } | ExprKind::DynField { base, .. } => self.is_active(base),
            ExprKind::Matrix(rows) | ExprKind::CellArray(rows) => rows.iter().any(|row| any(row)),
            ExprKind::Assign { rhs, .. } => self.is_active(rhs),
            ExprKind::PostIncrement { target, .. } => matches!(&**target, LValue::Var { name, .. } if self.active.contains(&name.name)),
            _ => false,
        }
    }

    /// Marks variables assigned from active values until nothing changes.
    fn propagate(&mut self, body: &[Stmt]) {
        loop {
            let mut found = Vec::new();
            visit_assignments(body, &mut |name, rhs| {
                if !self.active.contains(name) && rhs.is_some_and(|e| self.is_active(e)) {
                    found.push(name.to_string());
                }
            });
            if found.is_empty() {
                return;
            }
            self.active.extend(found);
        }
    }

    /// Names called in `body` that are user functions.
    fn collect_users(&self, body: &[Stmt], user: &mut dyn FnMut(&str) -> bool) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        visit_exprs(body, &mut |expr| {
            let called = match &expr.kind {
                ExprKind::Call { base, .. } => match &base.kind {
                    ExprKind::Ident(name) => Some(name),
                    _ => None,
                },
                ExprKind::Ident(name) => Some(name),
                _ => None,
            };
            if let Some(name) = called
                && self.name(name) == Name::Other
                && !out.contains(name)
                && user(name)
            {
                out.push(name.clone());
            }
        });
        out
    }
}

/// Whether `expr` makes a function handle (`@f`, `@(x) ...`, `str2func(name)`).
fn makes_handle(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::AnonFn { .. } | ExprKind::FuncHandle(_) => true,
        ExprKind::Call { base, .. } => matches!(&base.kind, ExprKind::Ident(name) if name == "str2func"),
        _ => false,
    }
}

/// Calls `f(name, rhs)` for every variable a statement assigns (`rhs`: the value it is given, `None`
/// where the statement assigns only part of it or a later output of a call).
fn visit_assignments(body: &[Stmt], f: &mut dyn FnMut(&str, Option<&Expr>)) {
    for stmt in body {
        match &stmt.kind {
            StmtKind::Assign { targets, rhs } => {
                for target in targets {
                    if let LValue::Var { name, .. } = target {
                        f(&name.name, Some(rhs));
                    }
                }
            }
            StmtKind::OpAssign { target: LValue::Var { name, .. }, rhs, .. } => {
                f(&name.name, Some(rhs));
                f(&name.name, Some(&Expr { kind: ExprKind::Ident(name.name.clone()), span: name.span }));
            }
            StmtKind::For { var: LValue::Var { name, .. }, iter, .. } => f(&name.name, Some(iter)),
            StmtKind::Global(names) | StmtKind::Persistent(names) => names.iter().for_each(|(name, _)| f(&name.name, None)),
            StmtKind::TryCatch { ident: Some(name), .. } => f(&name.name, None),
            _ => {}
        }
        for block in blocks(stmt) {
            visit_assignments(block, f);
        }
    }
}

/// The statement blocks inside a compound statement.
pub(super) fn blocks(stmt: &Stmt) -> Vec<&[Stmt]> {
    match &stmt.kind {
        StmtKind::If { clauses, else_body } => clauses.iter().map(|(_, b)| b.as_slice()).chain(else_body.as_deref()).collect(),
        StmtKind::For { body, .. } | StmtKind::ForKeyValue { body, .. } | StmtKind::While { body, .. } | StmtKind::DoUntil { body, .. } => {
            vec![body]
        }
        StmtKind::Switch { cases, otherwise, .. } => cases.iter().map(|(_, b)| b.as_slice()).chain(otherwise.as_deref()).collect(),
        StmtKind::TryCatch { body, catch_body, .. } => vec![body, catch_body],
        StmtKind::UnwindProtect { body, cleanup } => vec![body, cleanup],
        _ => vec![],
    }
}

/// Calls `f` on every expression in `body`, outermost first.
pub(super) fn visit_exprs(body: &[Stmt], f: &mut dyn FnMut(&Expr)) {
    for stmt in body {
        let mut top: Vec<&Expr> = Vec::new();
        match &stmt.kind {
            StmtKind::Expr(e) => top.push(e),
            StmtKind::Assign { targets, rhs } => {
                top.push(rhs);
                targets.iter().for_each(|t| lvalue_exprs(t, &mut top));
            }
            StmtKind::OpAssign { target, rhs, .. } => {
                top.push(rhs);
                lvalue_exprs(target, &mut top);
            }
            StmtKind::If { clauses, .. } => top.extend(clauses.iter().map(|(c, _)| c)),
            StmtKind::For { iter, .. } | StmtKind::ForKeyValue { iter, .. } => top.push(iter),
            StmtKind::While { cond, .. } | StmtKind::DoUntil { cond, .. } => top.push(cond),
            StmtKind::Switch { subject, cases, .. } => {
                top.push(subject);
                top.extend(cases.iter().map(|(c, _)| c));
            }
            _ => {}
        }
        for expr in top {
            visit_expr(expr, f);
        }
        for block in blocks(stmt) {
            visit_exprs(block, f);
        }
    }
}

fn lvalue_exprs<'a>(target: &'a LValue, out: &mut Vec<&'a Expr>) {
    if let LValue::Var { accessors, .. } = target {
        for accessor in accessors {
            match accessor {
                Accessor::Paren(args, _) | Accessor::Brace(args, _) => out.extend(args),
                Accessor::DynField(e, _) => out.push(e),
                Accessor::Field(_) => {}
            }
        }
    }
}

fn visit_expr(expr: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(expr);
    let mut each = |e: &Expr| visit_expr(e, f);
    match &expr.kind {
        ExprKind::Binary { lhs, rhs, .. } => {
            each(lhs);
            each(rhs);
        }
        ExprKind::Unary { operand, .. } | ExprKind::Postfix { operand, .. } => each(operand),
        ExprKind::Range { start, step, stop } => {
            each(start);
            each(stop);
            step.iter().for_each(|s| each(s));
        }
        ExprKind::Call { base, args } | ExprKind::CellIndex { base, args } => {
            each(base);
            args.iter().for_each(&mut each);
        }
        ExprKind::Field { base, .. } => each(base),
        ExprKind::DynField { base, name } => {
            each(base);
            each(name);
        }
        ExprKind::Matrix(rows) | ExprKind::CellArray(rows) => rows.iter().flatten().for_each(&mut each),
        ExprKind::AnonFn { body, .. } => each(body),
        ExprKind::Assign { rhs, .. } => each(rhs),
        _ => {}
    }
}
