//! `msad_export(fun, x, file)`: a standalone .m file that computes f and its sparse Jacobian without
//! msad, for any x of the exported size. The user's code is transformed to forward mode (transform.rs:
//! the statements as written, each followed by its derivative over p compressed directions), seeded
//! with the column colouring of the pattern msad detects, and decompressed into a sparse J.

mod activity;
mod literal;
mod rules;
mod transform;

use super::{Engine, Host, JacobianStorage, Options, Request, is_octave_library};
use crate::ad::coloring::color_columns;
use crate::ad::pattern::Pattern;
use crate::diag::{Diagnostic, ErrorKind, Result, SourceFile};
use crate::syntax::ast::{Expr, ExprKind, Function, LValue, Param, Stmt, StmtKind};
use crate::syntax::printer::print_function;
use crate::value::{FunctionHandle, Value};
use activity::Scope;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use transform::{Emitter, derivative_of, differentiated};

/// The derivative helpers every exported file ends with.
const RUNTIME: &str = include_str!("runtime.m");

/// The pattern the exported code compresses with, and whether it holds at every x.
struct Compressed {
    pattern: Pattern,
    global: bool,
}

/// A user function to write twice: as written and differentiated.
struct UserFunction {
    function: Function,
    file: Arc<SourceFile>,
    /// Functions of the same file (subfunctions), by name.
    siblings: Arc<HashMap<String, Function>>,
    /// Whether the file also needs it as written (an anonymous function's body is inlined instead).
    from_file: bool,
}

impl Engine {
    /// The text of an exported file whose main function is `name`.
    pub(super) fn export(&mut self, host: &mut dyn Host, request: &Request, name: &str) -> Result<String> {
        if request.options.wrt != 0 {
            return unsupported("msad_export differentiates with respect to the first argument only: put x first");
        }
        if request.args.iter().skip(1).any(holds_handle) {
            return unsupported("msad_export cannot pass function handles to the exported code: export the function the handle calls");
        }
        let compressed = self.compressed_pattern(host, request)?;
        let (entry, prologue) = entry_function(host, &request.function)?;
        if entry.function.name.name == name {
            return Err(Diagnostic::new(
                ErrorKind::BadInput,
                format!("the exported file must not be named after the function it exports ('{name}')"),
            )
            .with_hint("choose another file name, e.g. the function's name with _jac appended"));
        }
        let mut out = wrapper(name, request, &entry.function.name.name, &compressed);
        let mut written: Vec<String> = Vec::new();
        let mut pending = vec![(entry, prologue)];
        while let Some((user, prologue)) = pending.pop() {
            let function_name = user.function.name.name.clone();
            if written.contains(&function_name) {
                continue;
            }
            written.push(function_name);
            let (text, callees) = differentiate(host, &user, &prologue)?;
            out.push('\n');
            out.push_str(&text);
            if user.from_file {
                out.push('\n');
                out.push_str(&print_function(&user.function));
            }
            for callee in callees {
                if let Some(found) = resolve_user(host, &user, &callee)? {
                    pending.push((found, String::new()));
                }
            }
        }
        out.push_str(RUNTIME);
        Ok(out)
    }

    /// The pattern msad detects at this x, and whether it is valid for every x.
    fn compressed_pattern(&mut self, host: &mut dyn Host, request: &Request) -> Result<Compressed> {
        let options = Options { jacobian: JacobianStorage::Pattern, ..Options::default() };
        let pattern_request = Request { function: request.function.clone(), args: request.args.clone(), options, nargout: 2 };
        let evaluation = self.evaluate(host, &pattern_request)?;
        let mut captured = self.captured_now(&pattern_request.function);
        captured.fix_arguments(&pattern_request);
        let mut log = Vec::new();
        let plan = &self.plan(host, &pattern_request, &captured, &mut log)?.prepared;
        Ok(match &plan.compression {
            Some(c) => Compressed { pattern: c.pattern.clone(), global: c.control.global },
            None => {
                let Some(Value::Sparse(p)) = evaluation.jacobian else { return unsupported("msad found no sparsity pattern to export") };
                Compressed { pattern: Pattern::from_sparse(&p), global: false }
            }
        })
    }
}

fn holds_handle(value: &Value) -> bool {
    match value {
        Value::Handle(_) => true,
        Value::Cell(a) => a.data.iter().any(holds_handle),
        Value::Struct(s) => s.elements.iter().flatten().any(holds_handle),
        _ => false,
    }
}

fn unsupported<T>(message: &str) -> Result<T> {
    Err(Diagnostic::new(ErrorKind::Unsupported, message))
}

/// The function a handle names (its file's subfunctions beside it), and the statements that set an
/// anonymous function's captured variables.
fn entry_function(host: &mut dyn Host, handle: &FunctionHandle) -> Result<(UserFunction, String)> {
    match handle {
        FunctionHandle::Named(name) => {
            let path = host.which(name).ok_or_else(|| Diagnostic::new(ErrorKind::Undefined, format!("'{name}' undefined")))?;
            Ok((parsed_file(path, name)?, String::new()))
        }
        FunctionHandle::Anonymous { text, captured, unmodelled } => {
            if let Some((name, class)) = unmodelled.first() {
                return unsupported(&format!("msad_export cannot write the captured {class} '{name}' into a file"));
            }
            let source = SourceFile::new("<anonymous>", text.as_str());
            let (params, body) = crate::ir::lower::parse_anonymous(&source)?;
            let mut prologue = String::new();
            for (name, value) in captured.iter() {
                let text = literal::literal(value).ok_or_else(|| {
                    Diagnostic::new(
                        ErrorKind::Unsupported,
                        format!("msad_export cannot write the captured function handle '{name}' into a file"),
                    )
                    .with_hint("export the function the handle calls, with its parameters as extra arguments")
                })?;
                prologue.push_str(&format!("  {name} = {text};\n"));
            }
            let span = body.span;
            let output = crate::syntax::ast::Ident { name: "msad_f".into(), span };
            let assign = Stmt {
                kind: StmtKind::Assign { targets: vec![LValue::Var { name: output.clone(), accessors: vec![], span }], rhs: body },
                span,
                display: false,
            };
            let function = Function {
                name: crate::syntax::ast::Ident { name: "anonymous".into(), span },
                inputs: params,
                outputs: vec![output],
                body: vec![assign],
                nested: vec![],
                span,
            };
            Ok((UserFunction { function, file: source, siblings: Arc::new(HashMap::new()), from_file: false }, prologue))
        }
        FunctionHandle::Compiled { text, .. } | FunctionHandle::Nested { name: text, .. } => {
            unsupported(&format!("msad_export cannot export '{text}'"))
        }
    }
}

fn parsed_file(path: PathBuf, name: &str) -> Result<UserFunction> {
    let text =
        std::fs::read_to_string(&path).map_err(|e| Diagnostic::new(ErrorKind::BadInput, format!("cannot read {}: {e}", path.display())))?;
    let file = SourceFile::new(path, text);
    let ast = crate::syntax::parse(&file)?;
    let Some(primary) = ast.functions.first().cloned() else {
        return unsupported(&format!("'{name}' is a script, not a function"));
    };
    let siblings = Arc::new(ast.functions.into_iter().skip(1).map(|f| (f.name.name.clone(), f)).collect());
    Ok(UserFunction { function: primary, file, siblings, from_file: true })
}

/// The user function `name` called from `caller`: a subfunction of its file, or a function file on
/// the path outside Octave's own library.
fn resolve_user(host: &mut dyn Host, caller: &UserFunction, name: &str) -> Result<Option<UserFunction>> {
    if let Some(function) = caller.siblings.get(name) {
        return Ok(Some(UserFunction {
            function: function.clone(),
            file: caller.file.clone(),
            siblings: caller.siblings.clone(),
            from_file: true,
        }));
    }
    match host.which(name) {
        Some(path) if !is_octave_library(&path) => parsed_file(path, name).map(Some),
        _ => Ok(None),
    }
}

/// The differentiated copy of a function, and the user functions it calls.
fn differentiate(host: &mut dyn Host, user: &UserFunction, prologue: &str) -> Result<(String, Vec<String>)> {
    let function = &user.function;
    check_exportable(function, &user.file)?;
    let inputs: Vec<String> = function
        .inputs
        .iter()
        .enumerate()
        .map(|(k, p)| match p {
            Param::Name(ident) => ident.name.clone(),
            Param::Ignored(_) => format!("msad_unused{}", k + 1),
        })
        .collect();
    let outputs: Vec<String> = function.outputs.iter().map(|o| o.name.clone()).collect();
    let mut is_user = |name: &str| resolve_user(host, user, name).is_ok_and(|found| found.is_some());
    let scope = Scope::new(&inputs, &function.body, &mut is_user);
    let body = Emitter::new(&scope, &user.file, &inputs, &outputs).body(&function.body)?;
    let pairs = |names: &[String]| names.iter().map(|n| format!("{n}, {}", derivative_of(n))).collect::<Vec<_>>().join(", ");
    let first_derivative = inputs.first().map_or_else(|| "[]".to_string(), |x| derivative_of(x));
    let text = format!(
        "function [{}] = {}({})\n  msad_p = size({first_derivative}, 2);\n{prologue}{body}end\n",
        pairs(&outputs),
        differentiated(&function.name.name),
        pairs(&inputs)
    );
    Ok((text, scope.users.clone()))
}

/// Refuses what the transformation does not model, naming where it is.
fn check_exportable(function: &Function, file: &Arc<SourceFile>) -> Result<()> {
    if let Some(nested) = function.nested.first() {
        return Err(Diagnostic::new(ErrorKind::Unsupported, "msad_export cannot write nested functions yet")
            .at(file, nested.span)
            .with_hint("make the nested function a subfunction that takes the shared variables as arguments"));
    }
    let mut found = None;
    activity::visit_exprs(&function.body, &mut |e: &Expr| {
        if let ExprKind::Ident(name) = &e.kind
            && (matches!(name.as_str(), "nargin" | "nargout" | "varargin" | "varargout" | "exist" | "eval" | "evalin" | "assignin")
                || name.starts_with("msad_"))
        {
            found.get_or_insert((name.clone(), e.span));
        }
    });
    match found {
        Some((name, span)) => Err(Diagnostic::new(ErrorKind::Unsupported, format!("msad_export cannot write code that uses '{name}' yet"))
            .at(file, span)
            .with_hint("names starting with msad_ are reserved for the exported code; pass optional arguments explicitly")),
        None => Ok(()),
    }
}

/// The exported file's main function: checks x's size, seeds the compressed directions, runs the
/// differentiated code and decompresses J.
fn wrapper(name: &str, request: &Request, entry: &str, compressed: &Compressed) -> String {
    let n = compressed.pattern.ncols();
    let extra: Vec<String> = (2..=request.args.len()).map(|k| format!("p{k}")).collect();
    let signature: String = std::iter::once("x".to_string()).chain(extra.iter().cloned()).collect::<Vec<_>>().join(", ");
    let (colours, ncolours) = match compressed.global {
        true => {
            let coloring = color_columns(&compressed.pattern);
            (coloring.colors.iter().map(|c| c + 1).collect::<Vec<_>>(), coloring.ncolors)
        }
        false => ((1..=n).collect(), n),
    };
    let extra_args: String = extra.iter().map(|p| format!(", {p}, zeros(numel({p}), {ncolours})")).collect();
    let mut out = format!(
        "function [f, J] = {name}({signature})\n\
         % {upper}  f and its sparse Jacobian, exported by msad_export from {entry}\n\
         %   [f, J] = {name}({signature}) returns f and J = d f(:) / d x(:), numel(f) x {n}, for any x with {n}\n\
         %   elements, by forward mode over {ncolours} compressed directions. It needs no msad to run.\n\
         %   {validity}\n\
         \x20 if numel(x) ~= {n}\n\
         \x20   error('msad:export:size', '{name} was exported for x with {n} elements, not %d', numel(x));\n\
         \x20 end\n\
         \x20 colours = {colour_list};\n\
         \x20 [f, msad_df] = {entry_d}(x, full(sparse(1:{n}, colours, 1, {n}, {ncolours})){extra_args});\n",
        upper = name.to_uppercase(),
        validity = match compressed.global {
            true => "The sparsity pattern is msad's, valid for every x.",
            false => "msad could not prove one pattern for every x, so every column is its own direction.",
        },
        colour_list = number_list(&colours),
        entry_d = differentiated(entry),
    );
    if compressed.global {
        let (col_start, row_index) = compressed.pattern.csc();
        let rows: Vec<usize> = row_index.iter().map(|r| r + 1).collect();
        let cols: Vec<usize> = (0..n).flat_map(|j| std::iter::repeat_n(j + 1, col_start[j + 1] - col_start[j])).collect();
        out.push_str(&format!(
            "  if nargout > 1\n    rows = {};\n    cols = {};\n    J = sparse(rows, cols, msad_df(sub2ind(size(msad_df), rows, colours(cols))), numel(f), {n});\n  end\nend\n",
            number_list(&rows),
            number_list(&cols)
        ));
    } else {
        out.push_str("  if nargout > 1\n    J = sparse(msad_df);\n  end\nend\n");
    }
    out
}

/// `[1, 2, 3]`, broken into lines of 20 numbers.
fn number_list(items: &[usize]) -> String {
    let lines: Vec<String> = items.chunks(20).map(|chunk| chunk.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")).collect();
    format!("[{}]", lines.join(", ...\n      "))
}
