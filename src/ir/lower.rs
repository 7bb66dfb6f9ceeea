//! Lowering of one function's AST to SSA, building phi nodes on the fly (Braun et al., "Simple and
//! Efficient Construction of SSA Form", 2013): a variable read looks up its definition in the current block,
//! then recursively in the predecessors, placing phis at joins; trivial phis are removed at the end.
//!
//! Name resolution follows MATLAB's static rule: a name assigned anywhere in the function (or a parameter)
//! is a variable everywhere in it; any other name is a function, resolved by the caller's `Resolver`.

use super::{Block, BlockId, Callee, FuncId, Function, HigherOrder, Inst, ListUse, Op, Output, Phi, SharedVar, Terminator, Timer, ValueId};
use crate::diag::{Diagnostic, ErrorKind, Result, SourceFile, Span};
use crate::primitives::{self, Prim};
use crate::syntax::ast::{self, BinOp, Expr, ExprKind, LValue, Param, PostOp, Stmt, StmtKind, UnOp};
use crate::value::{Array, Complex64, FunctionHandle, StructArray, Value};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub trait Resolver {
    /// Resolves a function name called from `file`; `None` when nothing defines it.
    fn resolve(&mut self, name: &str, file: &Arc<SourceFile>) -> Result<Option<Callee>>;
    /// Whether the host has a function `name` that `resolve` cannot lower (an Octave built-in).
    fn host_defines(&mut self, name: &str) -> bool;
    /// Adds a function lowered on the way (an anonymous function's body) to the program.
    fn add_function(&mut self, func: Function) -> FuncId;
    /// The version of function `id` whose code is specialised for the text arguments `texts` (by
    /// position, `None` for the others): a name handed on (`solve('rhs', y)`) is then known where
    /// `feval` or `str2func` uses it. `id` itself when it has no such version (not a function of a file).
    fn with_texts(&mut self, id: FuncId, texts: &[Option<String>]) -> FuncId;
    /// Lowers nested function `name` of a function in `path`, for a handle to it (see `lower_nested`).
    fn nested_function(&mut self, path: &std::path::Path, name: &str, captures: Captures) -> Result<FuncId>;
}

/// Lowers a named function of a parsed file; `fixed`: arguments the code is specialised for (by
/// position; `None` for the others), which become constants of the body.
pub fn lower_function(
    func: &ast::Function,
    file: &Arc<SourceFile>,
    fixed: &[Option<Value>],
    resolver: &mut dyn Resolver,
) -> Result<Function> {
    if let Some(deeper) = func.nested.iter().flat_map(|n| &n.nested).next() {
        return Err(unsupported("functions nested two levels deep", file, deeper.span)
            .with_hint("move the inner nested function out as a subfunction and pass the shared variables as arguments"));
    }
    let params = param_names(&func.inputs, file)?;
    let outputs: Vec<String> = func.outputs.iter().map(|o| o.name.clone()).collect();
    if let Some(v) = outputs.iter().position(|o| o == "varargout").filter(|&v| v + 1 != outputs.len()) {
        return Err(Diagnostic::new(ErrorKind::Parse, "varargout must be the last output").at(file, func.outputs[v].span));
    }
    let mut variables: HashSet<String> = params.iter().cloned().collect();
    collect_assigned(&func.body, &mut variables);
    // A nested function shares the workspace: what it assigns (its arguments aside) is the parent's.
    for nested in &func.nested {
        let mut assigned = HashSet::new();
        collect_assigned(&nested.body, &mut assigned);
        variables.extend(assigned.into_iter().filter(|n| !is_argument_of(nested, n)));
    }
    let mut lw = Lowerer::new(file, resolver, variables);
    lw.nested = func.nested.clone();
    if !func.nested.is_empty() {
        lw.parent = Some(Arc::new(func.clone()));
    }
    lw.function_name = func.name.name.clone();
    lw.bind_params(&params, fixed, func.name.span)?;
    lw.lower_block(&func.body)?;
    lw.finish(func.name.name.clone(), params, outputs, func.span)
}

/// The text and compiled handles in a constant: a char row, a handle, or a scalar struct of those in
/// its fields (other values left out, so large data is not copied); `None` when it holds none.
fn text_skeleton(value: &Value) -> Option<Value> {
    match value {
        Value::Char(_) => value.as_string().map(|_| value.clone()),
        Value::Handle(h) if matches!(**h, FunctionHandle::Compiled { .. }) => Some(value.clone()),
        Value::Struct(s) if s.elements.len() == 1 => {
            let (fields, values): (Vec<String>, Vec<Value>) =
                s.fields.iter().zip(&s.elements[0]).filter_map(|(f, v)| Some((f.clone(), text_skeleton(v)?))).unzip();
            (!fields.is_empty()).then(|| Value::Struct(StructArray { dims: vec![1, 1], fields, elements: vec![values] }))
        }
        _ => None,
    }
}

/// Whether `name` is an input or output argument of `func` (local to it, also in a nested function).
fn is_argument_of(func: &ast::Function, name: &str) -> bool {
    func.outputs.iter().any(|o| o.name == name) || func.inputs.iter().any(|p| matches!(p, Param::Name(id) if id.name == name))
}

/// What an anonymous function captured from the workspace it was made in.
pub enum Captures<'v> {
    /// Known values (a handle the host passed): they become constants of the body, except those marked
    /// in `as_inputs` (values that change between calls), which are passed as inputs after the
    /// function's own.
    /// `unmodelled`: captured values msad does not model (name, class), an error where they are read.
    Values { values: &'v [(String, Value)], as_inputs: &'v [bool], unmodelled: &'v [(String, String)] },
    /// Variables of the enclosing code, passed as the leading inputs on every call.
    Inputs(&'v [String]),
}

/// Lowers an anonymous function `@(params) body`; `entry`: `Some` for the function msad
/// differentiates, which is asked for one result, with the arguments it is specialised for (as in
/// `lower_function`).
pub fn lower_anonymous(
    params: &[Param],
    body: &Expr,
    captures: Captures,
    entry: Option<&[Option<Value>]>,
    file: &Arc<SourceFile>,
    resolver: &mut dyn Resolver,
) -> Result<Function> {
    let own_params = param_names(params, file)?;
    let (leading, trailing): (Vec<String>, Vec<String>) = match captures {
        Captures::Values { .. } => (vec![], captures.input_names()),
        Captures::Inputs(names) => (names.to_vec(), vec![]),
    };
    let params: Vec<String> = leading.into_iter().chain(own_params).chain(trailing).collect();
    let mut variables: HashSet<String> = params.iter().cloned().collect();
    variables.extend(captures.value_names());
    let mut lw = Lowerer::new(file, resolver, variables);
    lw.bind_captured_values(&captures, body.span)?;
    lw.bind_params(&params, entry.unwrap_or_default(), body.span)?;
    let outputs = match entry {
        Some(_) => vec![ANON_RESULT.to_string()],
        None => lw.anonymous_outputs(body)?,
    };
    if outputs.len() == 1 {
        let result = lw.lower_expr(body)?;
        lw.write_var(ANON_RESULT, result);
    }
    lw.finish("@anonymous".into(), params, outputs, body.span)
}

const ANON_RESULT: &str = "ans";

impl Captures<'_> {
    /// The names of the captured values passed as inputs (`as_inputs`), in order.
    fn input_names(&self) -> Vec<String> {
        match self {
            Captures::Values { values, as_inputs, .. } => values
                .iter()
                .zip(as_inputs.iter().chain(std::iter::repeat(&false)))
                .filter(|(_, input)| **input)
                .map(|((n, _), _)| n.clone())
                .collect(),
            Captures::Inputs(_) => vec![],
        }
    }

    /// The names of the captured values, those msad does not model included.
    fn value_names(&self) -> Vec<String> {
        match self {
            Captures::Values { values, unmodelled, .. } => {
                values.iter().map(|(n, _)| n.clone()).chain(unmodelled.iter().map(|(n, _)| n.clone())).collect()
            }
            Captures::Inputs(_) => vec![],
        }
    }
}

/// Lowers nested function `name` of `parent` on its own, for a handle to it that the host passed:
/// `captures` is the parent's workspace the handle holds (as in `lower_anonymous`), `entry` as there.
/// Sibling nested functions it calls are lowered in place. The parent's variables that the nested
/// functions assign are the workspace's (`SharedVar::Workspace`): read when the call starts, written
/// back when it ends, as Octave keeps them in the workspace the handle holds. A handle made in the
/// code itself (`Captures::Inputs`) holds no such workspace: there such a write is refused.
pub fn lower_nested(
    parent: &ast::Function,
    name: &str,
    captures: Captures,
    entry: Option<&[Option<Value>]>,
    file: &Arc<SourceFile>,
    resolver: &mut dyn Resolver,
) -> Result<Function> {
    let Some(nested) = parent.nested.iter().find(|n| n.name.name == name) else {
        return Err(Diagnostic::new(ErrorKind::Undefined, format!("'{name}' is not a nested function of '{}'", parent.name.name))
            .at(file, parent.name.span));
    };
    if let Some(deeper) = parent.nested.iter().flat_map(|n| &n.nested).next() {
        return Err(unsupported("functions nested two levels deep", file, deeper.span)
            .with_hint("move the inner nested function out as a subfunction and pass the shared variables as arguments"));
    }
    let own_params = param_names(&nested.inputs, file)?;
    if own_params.iter().any(|p| p == "varargin") || nested.outputs.iter().any(|o| o.name == "varargout") {
        return Err(unsupported("varargin and varargout in nested functions", file, nested.name.span));
    }
    let shared = parent_variables(parent, &captures, file)?;
    if let Captures::Inputs(_) = captures {
        refuse_shared_writes(nested, &shared, file, nested.name.span)?;
    }
    let leading = match captures {
        Captures::Inputs(names) => names.to_vec(),
        Captures::Values { .. } => vec![],
    };
    let params: Vec<String> = leading.into_iter().chain(own_params).chain(captures.input_names()).collect();
    let mut variables: HashSet<String> = params.iter().cloned().collect();
    variables.extend(captures.value_names());
    for function in &parent.nested {
        let mut assigned = HashSet::new();
        collect_assigned(&function.body, &mut assigned);
        variables.extend(assigned.into_iter().filter(|n| !is_argument_of(function, n) || std::ptr::eq(function, nested)));
    }
    variables.extend(nested.outputs.iter().map(|o| o.name.clone()));
    let mut lw = Lowerer::new(file, resolver, variables);
    lw.nested = parent.nested.iter().filter(|n| !std::ptr::eq(*n, nested)).cloned().collect();
    lw.function_name = name.to_string();
    lw.bind_captured_values(&captures, nested.name.span)?;
    lw.bind_params(&params, entry.unwrap_or_default(), nested.name.span)?;
    match captures {
        Captures::Inputs(_) => lw.read_only_shared = shared,
        Captures::Values { .. } => {
            for variable in assigned_by_nested(parent, &shared).into_iter().filter(|v| !is_argument_of(nested, v)) {
                let var = SharedVar::Workspace { file: file.path.clone(), parent: parent.name.name.clone(), name: variable.clone() };
                lw.shared.insert(variable, var);
            }
        }
    }
    lw.lower_block(&nested.body)?;
    let outputs = nested.outputs.iter().map(|o| o.name.clone()).collect();
    lw.finish(name.to_string(), params, outputs, nested.span)
}

/// The variables of `parent`'s workspace: its arguments, what its body assigns, what the handle holds.
fn parent_variables(parent: &ast::Function, captures: &Captures, file: &Arc<SourceFile>) -> Result<HashSet<String>> {
    let mut shared: HashSet<String> = param_names(&parent.inputs, file)?.into_iter().collect();
    shared.extend(parent.outputs.iter().map(|o| o.name.clone()));
    collect_assigned(&parent.body, &mut shared);
    shared.extend(captures.value_names());
    Ok(shared)
}

/// The `shared` variables of `parent` that one of its nested functions assigns (not as its own argument).
fn assigned_by_nested(parent: &ast::Function, shared: &HashSet<String>) -> HashSet<String> {
    parent.nested.iter().flat_map(|function| shared_assigned_by(function, shared)).collect()
}

/// The `shared` variables nested function `function` assigns (not as its own argument).
fn shared_assigned_by(function: &ast::Function, shared: &HashSet<String>) -> Vec<String> {
    let mut assigned = HashSet::new();
    collect_assigned(&function.body, &mut assigned);
    assigned.into_iter().filter(|n| shared.contains(n) && !is_argument_of(function, n)).collect()
}

/// Refuses nested function `function`, run through a handle, where it assigns one of the `shared`
/// variables of its parent.
fn refuse_shared_writes(function: &ast::Function, shared: &HashSet<String>, file: &Arc<SourceFile>, span: Span) -> Result<()> {
    let mut written = shared_assigned_by(function, shared);
    written.sort();
    match written.first() {
        None => Ok(()),
        Some(variable) => Err(unsupported(
            &format!("writes of shared variables through a handle to a nested function ('{}' assigns '{variable}')", function.name.name),
            file,
            span,
        )
        .with_hint("a handle made inside the differentiated code holds no workspace of Octave's: return the new value as an output")),
    }
}

/// How many results an anonymous function whose body is a call can give (`[m, i] = f(v)` with
/// `f = @(v) max(v)`).
const ANON_MAX_OUTPUTS: usize = 3;

fn param_names(params: &[Param], file: &Arc<SourceFile>) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for (i, p) in params.iter().enumerate() {
        match p {
            Param::Name(id) if id.name == "varargin" && i + 1 != params.len() => {
                return Err(Diagnostic::new(ErrorKind::Parse, "varargin must be the last input").at(file, id.span));
            }
            Param::Name(id) => names.push(id.name.clone()),
            // An ignored input still occupies its position.
            Param::Ignored(_) => names.push(format!("~{i}")),
        }
    }
    Ok(names)
}

fn unsupported(what: &str, file: &Arc<SourceFile>, span: Span) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("msad does not support {what} yet")).at(file, span)
}

/// Every name assigned in a statement list (targets, loop variables), including inside nested blocks.
fn collect_assigned(stmts: &[Stmt], out: &mut HashSet<String>) {
    fn add(lv: &LValue, out: &mut HashSet<String>) {
        if let LValue::Var { name, .. } = lv {
            out.insert(name.name.clone());
        }
    }
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { targets, .. } => targets.iter().for_each(|t| add(t, out)),
            StmtKind::OpAssign { target, .. } => add(target, out),
            StmtKind::For { var, body, .. } => {
                add(var, out);
                collect_assigned(body, out);
            }
            StmtKind::If { clauses, else_body } => {
                clauses.iter().for_each(|(_, b)| collect_assigned(b, out));
                if let Some(b) = else_body {
                    collect_assigned(b, out);
                }
            }
            StmtKind::While { body, .. } | StmtKind::DoUntil { body, .. } => collect_assigned(body, out),
            StmtKind::Switch { cases, otherwise, .. } => {
                cases.iter().for_each(|(_, b)| collect_assigned(b, out));
                if let Some(b) = otherwise {
                    collect_assigned(b, out);
                }
            }
            StmtKind::TryCatch { body, ident, catch_body } => {
                collect_assigned(body, out);
                if let Some(id) = ident {
                    out.insert(id.name.clone());
                }
                collect_assigned(catch_body, out);
            }
            StmtKind::UnwindProtect { body, cleanup } => {
                collect_assigned(body, out);
                collect_assigned(cleanup, out);
            }
            StmtKind::Global(names) | StmtKind::Persistent(names) => {
                names.iter().for_each(|(id, _)| {
                    out.insert(id.name.clone());
                });
            }
            _ => {}
        }
    }
}

struct Loop {
    continue_to: BlockId,
    break_to: BlockId,
}

struct Lowerer<'a> {
    file: Arc<SourceFile>,
    resolver: &'a mut dyn Resolver,
    variables: HashSet<String>,
    blocks: Vec<Block>,
    current: BlockId,
    exit: BlockId,
    defs: Vec<HashMap<String, ValueId>>,
    sealed: Vec<bool>,
    incomplete_phis: Vec<Vec<(String, ValueId)>>,
    undefined_reads: Vec<Inst>,
    next_value: u32,
    loops: Vec<Loop>,
    /// Innermost indexing expression: its base value and the index count, for `end`.
    end_context: Vec<(ValueId, usize, usize)>,
    temp_count: usize,
    /// The landing block of the innermost `try` being lowered.
    handler: Option<BlockId>,
    /// For each enclosing `unwind_protect` body, how many loops enclosed it.
    protected: Vec<usize>,
    indexed_variables: HashMap<ValueId, String>,
    /// `import pkg.*` and `import pkg.f` seen so far: names tried before the plain one.
    imports: Vec<String>,
    /// The text in constants (literals, captured and fixed values: see `text_skeleton`), known when
    /// the code is lowered: `str2func(name)` and `feval(s.name, ...)` resolve through it.
    known_text: HashMap<ValueId, Value>,
    /// Captured variables msad does not model (name, class): reading one fails when it runs.
    unmodelled: HashMap<String, String>,
    /// Those of them that are value-class objects, held as a struct of their public properties:
    /// `obj.Prop` reads one; by name, the names of the properties.
    objects: HashMap<String, Vec<String>>,
    /// The function being lowered, where it has nested functions (a handle to one is lowered from it).
    parent: Option<Arc<ast::Function>>,
    /// The parent's variables, when a nested function is lowered on its own (for a handle to it): a
    /// sibling nested function it calls must not assign them (see `refuse_shared_writes`).
    read_only_shared: HashSet<String>,
    /// The functions nested in the one being lowered: their calls are lowered in place, in its
    /// workspace.
    nested: Vec<ast::Function>,
    /// The nested functions being lowered in place, innermost last.
    inlining: Vec<String>,
    /// The function being lowered (for its persistent variables).
    function_name: String,
    /// Names declared `global` or `persistent` so far: reads and writes go to the shared variable.
    shared: HashMap<String, SharedVar>,
}

impl<'a> Lowerer<'a> {
    fn new(file: &Arc<SourceFile>, resolver: &'a mut dyn Resolver, variables: HashSet<String>) -> Self {
        let mut lw = Lowerer {
            file: file.clone(),
            resolver,
            variables,
            blocks: vec![],
            current: BlockId::new(0),
            exit: BlockId::new(0),
            defs: vec![],
            sealed: vec![],
            incomplete_phis: vec![],
            undefined_reads: vec![],
            next_value: 0,
            loops: vec![],
            end_context: vec![],
            temp_count: 0,
            handler: None,
            protected: vec![],
            indexed_variables: HashMap::new(),
            imports: vec![],
            known_text: HashMap::new(),
            unmodelled: HashMap::new(),
            objects: HashMap::new(),
            read_only_shared: HashSet::new(),
            parent: None,
            nested: vec![],
            inlining: vec![],
            function_name: String::new(),
            shared: HashMap::new(),
        };
        let entry = lw.new_block();
        lw.seal(entry);
        lw.exit = lw.new_block();
        lw.current = entry;
        lw
    }

    fn finish(mut self, name: String, params: Vec<String>, outputs: Vec<String>, span: Span) -> Result<Function> {
        self.jump(self.exit);
        self.seal(self.exit);
        self.current = self.exit;
        let results = outputs.iter().map(|o| self.read_var(o, span)).collect();
        self.blocks[self.exit.index()].term = Terminator::Return(results);
        let undefined = std::mem::take(&mut self.undefined_reads);
        self.blocks[0].insts.splice(0..0, undefined);
        let mut func = Function {
            name,
            file: self.file.clone(),
            params,
            outputs,
            blocks: self.blocks.into(),
            value_count: self.next_value,
            span,
            indexed_variables: self.indexed_variables,
        };
        remove_trivial_phis(&mut func);
        Ok(func)
    }

    fn err(&self, what: &str, span: Span) -> Diagnostic {
        unsupported(what, &self.file, span)
    }

    // ---- blocks and SSA construction ----

    fn new_block(&mut self) -> BlockId {
        let id = BlockId::new(self.blocks.len());
        self.blocks.push(Block { phis: vec![], insts: vec![], term: Terminator::Return(vec![]), preds: vec![], handler: None });
        self.defs.push(HashMap::new());
        self.sealed.push(false);
        self.incomplete_phis.push(vec![]);
        id
    }

    fn new_value(&mut self) -> ValueId {
        self.next_value += 1;
        ValueId(self.next_value - 1)
    }

    /// Ends the current block with `term` and records the CFG edges. Code after a terminator (after
    /// `break`, `return`) goes to a fresh unreachable block.
    fn terminate(&mut self, term: Terminator) {
        let from = self.current;
        let targets = match &term {
            Terminator::Jump(b) => vec![*b],
            Terminator::Branch { then_block, else_block, .. } => vec![*then_block, *else_block],
            Terminator::Return(_) => vec![],
        };
        for t in targets {
            self.blocks[t.index()].preds.push(from);
        }
        self.blocks[from.index()].term = term;
        self.current = self.new_block();
        self.seal(self.current);
    }

    fn jump(&mut self, to: BlockId) {
        self.terminate(Terminator::Jump(to));
    }

    fn branch(&mut self, cond: ValueId, then_block: BlockId, else_block: BlockId) {
        self.terminate(Terminator::Branch { cond, then_block, else_block });
    }

    fn seal(&mut self, block: BlockId) {
        let b = block.index();
        if self.sealed[b] {
            return;
        }
        self.sealed[b] = true;
        for (var, phi) in std::mem::take(&mut self.incomplete_phis[b]) {
            self.add_phi_operands(block, &var, phi);
        }
    }

    /// `global` or `persistent` names: from here on the name is the shared variable.
    fn declare_shared(&mut self, names: &[(ast::Ident, Option<Expr>)], persistent: bool) -> Result<()> {
        for (ident, init) in names {
            let name = ident.name.clone();
            let function = self.inlining.last().unwrap_or(&self.function_name).clone();
            let var = match persistent {
                true => SharedVar::Persistent { file: self.file.path.clone(), function, name: name.clone() },
                false => SharedVar::Global(name.clone()),
            };
            let args = match init {
                Some(e) => vec![self.lower_expr(e)?],
                None => vec![],
            };
            self.emit_multi(Op::DeclareShared(var.clone()), args, vec![], ident.span);
            self.variables.insert(name.clone());
            self.shared.insert(name, var);
        }
        Ok(())
    }

    fn write_var(&mut self, name: &str, value: ValueId) {
        if let Some(var) = self.shared.get(name) {
            let op = Op::StoreShared(var.clone());
            self.emit_multi(op, vec![value], vec![], Span::default());
            return;
        }
        // Inside `try`, an assignment starts a new block after instructions, so that an error in any
        // instruction of a block leaves the variables as they are at the block's end (see `Block`).
        if self.blocks[self.current.index()].handler.is_some() {
            let next = self.new_block();
            self.jump(next);
            self.seal(next);
            self.current = next;
        }
        let b = self.current.index();
        self.defs[b].insert(name.to_string(), value);
    }

    fn read_var(&mut self, name: &str, span: Span) -> ValueId {
        if let Some(class) = self.unmodelled.get(name) {
            let error = self
                .err(&format!("the captured variable '{name}' of class {class}"), span)
                .with_hint("capture the numbers the code needs (e.g. values(map) or obj.Prop) instead of the object");
            return self.emit(Op::Fail(Box::new(error)), vec![], span);
        }
        if let Some(var) = self.shared.get(name) {
            return self.emit(Op::LoadShared(var.clone()), vec![], span);
        }
        self.read_var_in(name, self.current, span)
    }

    fn read_var_in(&mut self, name: &str, block: BlockId, span: Span) -> ValueId {
        if let Some(v) = self.defs[block.index()].get(name) {
            return *v;
        }
        let b = block.index();
        let value = if !self.sealed[b] {
            let phi = self.add_phi(block, name);
            self.incomplete_phis[b].push((name.to_string(), phi));
            phi
        } else if block.0 == 0 || self.blocks[b].preds.is_empty() {
            let dest = self.new_value();
            self.undefined_reads.push(Inst { dests: vec![dest], op: Op::Undefined(name.into()), args: vec![], span, inlined: None });
            dest
        } else if self.blocks[b].preds.len() == 1 {
            let pred = self.blocks[b].preds[0];
            self.read_var_in(name, pred, span)
        } else {
            let phi = self.add_phi(block, name);
            self.defs[b].insert(name.to_string(), phi);
            self.add_phi_operands(block, name, phi);
            phi
        };
        self.defs[b].insert(name.to_string(), value);
        value
    }

    fn add_phi(&mut self, block: BlockId, name: &str) -> ValueId {
        let dest = self.new_value();
        self.blocks[block.index()].phis.push(Phi { dest, var: name.to_string(), incoming: vec![] });
        dest
    }

    fn add_phi_operands(&mut self, block: BlockId, name: &str, phi: ValueId) {
        let preds = self.blocks[block.index()].preds.clone();
        let span = Span::default();
        let incoming: Vec<_> = preds.iter().map(|&p| (p, self.read_var_in(name, p, span))).collect();
        let phis = &mut self.blocks[block.index()].phis;
        phis.iter_mut().find(|p| p.dest == phi).expect("phi exists").incoming = incoming;
    }

    fn emit(&mut self, op: Op, args: Vec<ValueId>, span: Span) -> ValueId {
        let dest = self.new_value();
        self.emit_multi(op, args, vec![dest], span);
        dest
    }

    fn emit_multi(&mut self, op: Op, args: Vec<ValueId>, dests: Vec<ValueId>, span: Span) {
        let (b, handler) = (self.current.index(), self.handler);
        // A block's first instruction inside `try` adds its edge to the landing.
        if let (Some(landing), None) = (handler, self.blocks[b].handler) {
            self.blocks[b].handler = Some(landing);
            self.blocks[landing.index()].preds.push(self.current);
        }
        self.blocks[b].insts.push(Inst { dests, op, args, span, inlined: None });
    }

    fn prim(&mut self, name: &str, args: Vec<ValueId>, span: Span) -> Result<ValueId> {
        let id = primitives::lookup(name).ok_or_else(|| self.err(&format!("the function '{name}'"), span))?;
        Ok(self.emit(Op::Prim(id), args, span))
    }

    fn constant(&mut self, value: Value, span: Span) -> ValueId {
        let text = text_skeleton(&value);
        let v = self.emit(Op::Const(value), vec![], span);
        if let Some(text) = text {
            self.known_text.insert(v, text);
        }
        v
    }

    /// A value from the host (captured, or an argument the code is specialised for) as a constant,
    /// the handles in it lowered like handles made in the code.
    /// Binds captured values (`Captures::Values`) not passed as inputs: constants of the body, handles
    /// compiled; those msad does not model are an error where the code reads them.
    fn bind_captured_values(&mut self, captures: &Captures, span: Span) -> Result<()> {
        let Captures::Values { values, as_inputs, unmodelled } = *captures else { return Ok(()) };
        self.unmodelled = unmodelled.iter().cloned().collect();
        self.objects = values
            .iter()
            .filter(|(n, _)| self.unmodelled.contains_key(n))
            .map(|(n, v)| (n.clone(), if let Value::Struct(s) = v { s.fields.clone() } else { vec![] }))
            .collect();
        for (i, (name, value)) in values.iter().enumerate() {
            if as_inputs.get(i) == Some(&true) {
                continue;
            }
            let v = match value {
                Value::Handle(h) => self.host_handle(h, span)?,
                _ => self.host_constant(value, span)?,
            };
            self.write_var(name, v);
        }
        Ok(())
    }

    fn host_constant(&mut self, value: &Value, span: Span) -> Result<ValueId> {
        let value = self.compile_handles(value, span)?;
        Ok(self.constant(value, span))
    }

    /// Binds the parameters: each an input, or the constant in `fixed` at its position (`varargin`
    /// stays an input: it gathers the arguments from its position on).
    fn bind_params(&mut self, params: &[String], fixed: &[Option<Value>], span: Span) -> Result<()> {
        for (i, p) in params.iter().enumerate() {
            let v = match fixed.get(i) {
                Some(Some(value)) if p != "varargin" => self.host_constant(value, span)?,
                _ => self.emit(Op::Param(i), vec![], span),
            };
            self.write_var(p, v);
        }
        Ok(())
    }

    fn fresh_temp(&mut self) -> String {
        self.temp_count += 1;
        format!("#t{}", self.temp_count)
    }

    // ---- statements ----

    fn lower_block(&mut self, stmts: &[Stmt]) -> Result<()> {
        stmts.iter().try_for_each(|s| self.lower_stmt(s))
    }

    fn lower_stmt(&mut self, stmt: &Stmt) -> Result<()> {
        self.lower_stmt_kind(stmt)?;
        if stmt.display {
            self.display_assigned(stmt);
        }
        Ok(())
    }

    /// What Octave shows after a statement not ended by `;` that assigns variables or names one:
    /// `name = value` for each, through the host's `display` (once per call, like other output).
    /// (A call statement whose result Octave shows as `ans` shows nothing here.)
    fn display_assigned(&mut self, stmt: &Stmt) {
        let names: Vec<String> = match &stmt.kind {
            StmtKind::Assign { targets, .. } => targets
                .iter()
                .filter_map(|t| match t {
                    LValue::Var { name, .. } => Some(name.name.clone()),
                    LValue::Ignored(_) => None,
                })
                .collect(),
            StmtKind::OpAssign { target: LValue::Var { name, .. }, .. } => vec![name.name.clone()],
            StmtKind::Expr(Expr { kind: ExprKind::Ident(name), .. }) if self.variables.contains(name) => vec![name.clone()],
            _ => vec![],
        };
        for name in names {
            let value = self.read_var(&name, stmt.span);
            let label = self.constant(Value::string(&name), stmt.span);
            self.emit_multi(Op::Output(Output::Display), vec![value, label], vec![], stmt.span);
        }
    }

    fn lower_stmt_kind(&mut self, stmt: &Stmt) -> Result<()> {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::Expr(e) => self.lower_expr_stmt(e),
            StmtKind::Assign { targets, rhs } if self.is_list_assignment(targets, rhs, span) => {
                self.lower_list_assignment(targets, rhs, span)
            }
            StmtKind::Assign { targets, rhs } if targets.len() == 1 => {
                let value = self.lower_list(rhs, ListUse::First)?;
                self.assign(&targets[0], value)
            }
            StmtKind::Assign { targets, rhs } => {
                let values = self.lower_multi(rhs, targets.len())?;
                targets.iter().zip(values).try_for_each(|(t, v)| self.assign(t, v))
            }
            StmtKind::OpAssign { target, op, rhs } => {
                let current = self.lower_lvalue_read(target)?;
                let r = self.lower_expr(rhs)?;
                let v = self.prim(binop_prim(*op), vec![current, r], span)?;
                self.assign(target, v)
            }
            StmtKind::If { clauses, else_body } => self.lower_if(clauses, else_body.as_deref()),
            StmtKind::For { var, iter, body, .. } => self.lower_for(var, iter, body, span),
            StmtKind::While { cond, body } => self.lower_while(cond, body),
            StmtKind::Switch { subject, cases, otherwise } => self.lower_switch(subject, cases, otherwise.as_deref()),
            StmtKind::Break | StmtKind::Continue => {
                let Some(l) = self.loops.last() else {
                    return Err(self.err("break/continue outside a loop", span));
                };
                if self.protected.last().is_some_and(|&loops| loops >= self.loops.len()) {
                    return Err(self.err("break/continue leaving an unwind_protect block", span));
                }
                let to = if matches!(stmt.kind, StmtKind::Break) { l.break_to } else { l.continue_to };
                self.jump(to);
                Ok(())
            }
            StmtKind::Return => {
                if !self.protected.is_empty() {
                    return Err(self.err("return inside an unwind_protect block", span));
                }
                self.jump(self.exit);
                Ok(())
            }
            StmtKind::DoUntil { body, cond } => self.lower_do_until(body, cond),
            StmtKind::ForKeyValue { .. } => Err(self.err("loops over struct fields", span)),
            StmtKind::TryCatch { body, ident, catch_body } => self.lower_try(body, ident.as_ref(), catch_body),
            StmtKind::UnwindProtect { body, cleanup } => self.lower_unwind_protect(body, cleanup),
            StmtKind::Global(names) => self.declare_shared(names, false),
            StmtKind::Persistent(names) => self.declare_shared(names, true),
            StmtKind::Command { name, args } if name.name == "import" => {
                self.imports.extend(args.iter().cloned());
                Ok(())
            }
            StmtKind::Command { name, .. } => Err(self.err(&format!("the command '{}'", name.name), span)),
        }
    }

    /// An expression statement: a call whose results are not used, or a value that would be displayed.
    fn lower_expr_stmt(&mut self, e: &Expr) -> Result<()> {
        match &e.kind {
            ExprKind::Ident(n) if !self.variables.contains(n) => self.lower_call(n, &[], 0, e.span).map(drop),
            ExprKind::Call { base, args } => match &base.kind {
                ExprKind::Ident(n) if !self.variables.contains(n) => self.lower_call(n, args, 0, e.span).map(drop),
                _ => match self.package_function(base)? {
                    Some(name) => self.lower_call(&name, args, 0, e.span).map(drop),
                    None => match self.known_function(base) {
                        Some(id) => self.call_function(id, args, 0, e.span).map(drop),
                        None => self.lower_expr(e).map(drop),
                    },
                },
            },
            ExprKind::Field { .. } => match self.package_function(e)? {
                Some(name) => self.lower_call(&name, &[], 0, e.span).map(drop),
                None => self.lower_expr(e).map(drop),
            },
            _ => self.lower_expr(e).map(drop),
        }
    }

    fn assign(&mut self, target: &LValue, value: ValueId) -> Result<()> {
        match target {
            LValue::Ignored(_) => Ok(()),
            LValue::Var { name, accessors, .. } if accessors.is_empty() => {
                self.write_var(&name.name, value);
                Ok(())
            }
            LValue::Var { name, accessors, span } => {
                let base = self.read_var(&name.name, name.span);
                let v = self.assign_into(base, accessors, value, *span)?;
                self.indexed_variables.insert(v, name.name.clone());
                self.write_var(&name.name, v);
                Ok(())
            }
        }
    }

    /// The new value of `base` after `base<accessors> = value`: each level reads the part it changes
    /// (tolerantly: assignment creates missing fields and elements), assigns into it, and puts it back.
    fn assign_into(&mut self, base: ValueId, accessors: &[ast::Accessor], value: ValueId, span: Span) -> Result<ValueId> {
        let (first, rest) = accessors.split_first().expect("at least one accessor");
        match first {
            ast::Accessor::Paren(indices, _) if rest.is_empty() => {
                let mut args = vec![base, value];
                args.extend(self.lower_arguments(base, indices)?);
                Ok(self.emit(Op::IndexAssign, args, span))
            }
            ast::Accessor::Field(field) => {
                let inner = match rest {
                    [] => value,
                    _ => {
                        let part =
                            self.emit(Op::Field { name: field.name.clone(), tolerant: true, list: ListUse::Single }, vec![base], span);
                        self.assign_into(part, rest, value, span)?
                    }
                };
                Ok(self.emit(Op::FieldAssign(field.name.clone()), vec![base, inner], span))
            }
            ast::Accessor::Brace(indices, _) => {
                let subs = self.lower_indices(base, indices)?;
                let inner = match rest {
                    [] => value,
                    _ => {
                        let part =
                            self.emit(Op::CellIndex { tolerant: true, list: ListUse::Single }, [vec![base], subs.clone()].concat(), span);
                        self.assign_into(part, rest, value, span)?
                    }
                };
                Ok(self.emit(Op::CellAssign, [vec![base, inner], subs].concat(), span))
            }
            ast::Accessor::Paren(indices, _) => {
                let subs = self.lower_indices(base, indices)?;
                let element = self.emit(Op::Element, [vec![base], subs.clone()].concat(), span);
                let inner = self.assign_into(element, rest, value, span)?;
                Ok(self.emit(Op::ElementAssign, [vec![base, inner], subs].concat(), span))
            }
            ast::Accessor::DynField(..) => Err(self.err("dynamic field names, s.(name)", span)),
        }
    }

    /// Whether `[targets] = rhs` hands out a cs-list: a target is one (`[c{1:2}] = ...`, `[s.f] = ...`,
    /// written in brackets) or the right side is (`[a, b] = c{:}`).
    fn is_list_assignment(&self, targets: &[LValue], rhs: &Expr, span: Span) -> bool {
        let bracketed = self.file.text.as_bytes().get(span.lo as usize) == Some(&b'[');
        let list_rhs = matches!(rhs.kind, ExprKind::Field { .. } | ExprKind::CellIndex { .. });
        bracketed && (targets.iter().any(|t| list_target(t).is_some()) || (targets.len() > 1 && list_rhs))
    }

    /// `[t1, c{i}, s.f] = rhs`: each target's count is taken first (a cs-list target counts its
    /// elements), then the right side gives that many results, handed out in order.
    fn lower_list_assignment(&mut self, targets: &[LValue], rhs: &Expr, span: Span) -> Result<()> {
        let one = self.constant(Value::scalar(1.0), span);
        let mut counts = Vec::with_capacity(targets.len());
        for t in targets {
            counts.push(match (t, list_target(t)) {
                (LValue::Var { name, .. }, Some(accessor)) => {
                    let base = self.read_var(&name.name, name.span);
                    match accessor {
                        ast::Accessor::Brace(indices, _) => {
                            let subs = self.lower_indices(base, indices)?;
                            self.emit(Op::TargetCount { field: false }, [vec![base], subs].concat(), span)
                        }
                        _ => self.emit(Op::TargetCount { field: true }, vec![base], span),
                    }
                }
                _ => one,
            });
        }
        let mut total = counts[0];
        for &c in &counts[1..] {
            total = self.prim("plus", vec![total, c], span)?;
        }
        let results = match &rhs.kind {
            ExprKind::Field { .. } | ExprKind::CellIndex { .. } => self.lower_arg(rhs)?,
            _ => {
                self.lower_multi(rhs, 1)?;
                let block = self.current.index();
                let call = self.blocks[block].insts.pop().expect("the call just lowered");
                if !matches!(call.op, Op::Prim(_) | Op::Call(_) | Op::Apply(_) | Op::Index) {
                    return Err(self.err("this assignment to a cs-list", span));
                }
                let dest = self.new_value();
                let args = [vec![total], call.args].concat();
                self.emit_multi(Op::Outputs(Box::new(call.op)), args, vec![dest], call.span);
                dest
            }
        };
        let mut start = self.constant(Value::scalar(0.0), span);
        for (t, count) in targets.iter().zip(counts) {
            let target = list_target(t);
            let part = self.emit(Op::ListPart { cell: target.is_some() }, vec![results, start, count], span);
            match (t, target) {
                (LValue::Var { name, .. }, Some(accessor)) => {
                    let base = self.read_var(&name.name, name.span);
                    let v = match accessor {
                        ast::Accessor::Brace(indices, _) => {
                            let subs = self.lower_indices(base, indices)?;
                            self.emit(Op::ListAssign { field: None }, [vec![base, part], subs].concat(), span)
                        }
                        ast::Accessor::Field(f) => self.emit(Op::ListAssign { field: Some(f.name.clone()) }, vec![base, part], span),
                        _ => unreachable!("list targets end in a brace index or a field"),
                    };
                    self.write_var(&name.name, v);
                }
                _ => self.assign(t, part)?,
            }
            start = self.prim("plus", vec![start, count], span)?;
        }
        Ok(())
    }

    /// The current value of an assignment target (for `x += e`).
    fn lower_lvalue_read(&mut self, target: &LValue) -> Result<ValueId> {
        match target {
            LValue::Var { name, accessors, span } if accessors.is_empty() => {
                let _ = span;
                Ok(self.read_var(&name.name, name.span))
            }
            LValue::Var { span, .. } | LValue::Ignored(span) => Err(self.err("this compound assignment", *span)),
        }
    }

    fn lower_if(&mut self, clauses: &[(Expr, Vec<Stmt>)], else_body: Option<&[Stmt]>) -> Result<()> {
        let join = self.new_block();
        for (cond, body) in clauses {
            let c = self.lower_condition(cond)?;
            let (then_b, else_b) = (self.new_block(), self.new_block());
            self.branch(c, then_b, else_b);
            self.seal(then_b);
            self.seal(else_b);
            self.current = then_b;
            self.lower_block(body)?;
            self.jump(join);
            self.current = else_b;
        }
        if let Some(body) = else_body {
            self.lower_block(body)?;
        }
        self.jump(join);
        self.seal(join);
        self.current = join;
        Ok(())
    }

    /// `try body catch ident; catch_body end`: the body's blocks get edges to a landing block that
    /// starts the catch body; both meet at the join.
    fn lower_try(&mut self, body: &[Stmt], ident: Option<&ast::Ident>, catch_body: &[Stmt]) -> Result<()> {
        let (landing, join) = self.lower_guarded(body)?;
        self.jump(join);
        self.current = landing;
        if let Some(id) = ident {
            let error = self.emit(Op::CaughtError, vec![], id.span);
            self.write_var(&id.name, error);
        }
        self.lower_block(catch_body)?;
        self.jump(join);
        self.seal(join);
        self.current = join;
        Ok(())
    }

    /// `unwind_protect body unwind_protect_cleanup cleanup end`: the cleanup runs after the body, and
    /// when the body fails, before its error is raised again (lowered once for each path).
    fn lower_unwind_protect(&mut self, body: &[Stmt], cleanup: &[Stmt]) -> Result<()> {
        self.protected.push(self.loops.len());
        let guarded = self.lower_guarded(body);
        self.protected.pop();
        let (landing, join) = guarded?;
        self.lower_block(cleanup)?;
        self.jump(join);
        self.current = landing;
        let span = cleanup.first().map_or(Span::default(), |s| s.span);
        let error = self.emit(Op::CaughtError, vec![], span);
        self.lower_block(cleanup)?;
        self.prim("rethrow", vec![error], span)?;
        self.jump(join);
        self.seal(join);
        self.current = join;
        Ok(())
    }

    /// Lowers `body` with its errors going to a new landing block; returns the landing (sealed) and
    /// the join both paths will meet at, with a new block after the body as the current block.
    fn lower_guarded(&mut self, body: &[Stmt]) -> Result<(BlockId, BlockId)> {
        let (entry, landing, join, after) = (self.new_block(), self.new_block(), self.new_block(), self.new_block());
        self.jump(entry);
        self.seal(entry);
        self.current = entry;
        let outer = self.handler.replace(landing);
        let lowered = self.lower_block(body);
        self.handler = outer;
        lowered?;
        self.jump(after);
        self.seal(after);
        self.current = after;
        self.seal(landing);
        Ok((landing, join))
    }

    fn lower_condition(&mut self, cond: &Expr) -> Result<ValueId> {
        let v = self.lower_expr(cond)?;
        self.prim("truth", vec![v], cond.span)
    }

    /// `for v = e`: iterates over the columns of `e` with a hidden counter.
    fn lower_for(&mut self, var: &LValue, iter: &Expr, body: &[Stmt], span: Span) -> Result<()> {
        let collection = self.lower_expr(iter)?;
        let count = self.prim("for_count", vec![collection], iter.span)?;
        let counter = self.fresh_temp();
        let zero = self.constant(Value::scalar(0.0), span);
        self.write_var(&counter, zero);
        let (header, body_b, step, exit) = (self.new_block(), self.new_block(), self.new_block(), self.new_block());
        self.jump(header);
        self.current = header;
        let k = self.read_var(&counter, span);
        let more = self.prim("lt", vec![k, count], span)?;
        let more = self.prim("truth", vec![more], span)?;
        self.branch(more, body_b, exit);
        self.seal(body_b);
        self.current = body_b;
        let k = self.read_var(&counter, span);
        let item = self.prim("for_item", vec![collection, k], iter.span)?;
        self.assign(var, item)?;
        self.loops.push(Loop { continue_to: step, break_to: exit });
        self.lower_block(body)?;
        self.loops.pop();
        self.jump(step);
        self.seal(step);
        self.current = step;
        let k = self.read_var(&counter, span);
        let one = self.constant(Value::scalar(1.0), span);
        let next = self.prim("plus", vec![k, one], span)?;
        self.write_var(&counter, next);
        self.jump(header);
        self.seal(header);
        self.seal(exit);
        self.current = exit;
        Ok(())
    }

    fn lower_while(&mut self, cond: &Expr, body: &[Stmt]) -> Result<()> {
        let (header, body_b, exit) = (self.new_block(), self.new_block(), self.new_block());
        self.jump(header);
        self.current = header;
        let c = self.lower_condition(cond)?;
        self.branch(c, body_b, exit);
        self.seal(body_b);
        self.current = body_b;
        self.loops.push(Loop { continue_to: header, break_to: exit });
        self.lower_block(body)?;
        self.loops.pop();
        self.jump(header);
        self.seal(header);
        self.seal(exit);
        self.current = exit;
        Ok(())
    }

    /// `do body until cond`: the body runs once before the first test; `continue` jumps to the test.
    fn lower_do_until(&mut self, body: &[Stmt], cond: &Expr) -> Result<()> {
        let (body_b, test, exit) = (self.new_block(), self.new_block(), self.new_block());
        self.jump(body_b);
        self.current = body_b;
        self.loops.push(Loop { continue_to: test, break_to: exit });
        self.lower_block(body)?;
        self.loops.pop();
        self.jump(test);
        self.seal(test);
        self.current = test;
        let c = self.lower_condition(cond)?;
        self.branch(c, exit, body_b);
        self.seal(body_b);
        self.seal(exit);
        self.current = exit;
        Ok(())
    }

    fn lower_switch(&mut self, subject: &Expr, cases: &[(Expr, Vec<Stmt>)], otherwise: Option<&[Stmt]>) -> Result<()> {
        let s = self.lower_expr(subject)?;
        let join = self.new_block();
        for (label, body) in cases {
            let l = self.lower_expr(label)?;
            let c = self.prim("switch_match", vec![s, l], label.span)?;
            let (then_b, else_b) = (self.new_block(), self.new_block());
            self.branch(c, then_b, else_b);
            self.seal(then_b);
            self.seal(else_b);
            self.current = then_b;
            self.lower_block(body)?;
            self.jump(join);
            self.current = else_b;
        }
        if let Some(body) = otherwise {
            self.lower_block(body)?;
        }
        self.jump(join);
        self.seal(join);
        self.current = join;
        Ok(())
    }

    // ---- expressions ----

    fn lower_expr(&mut self, e: &Expr) -> Result<ValueId> {
        let span = e.span;
        match &e.kind {
            ExprKind::Number(x) => Ok(self.constant(Value::scalar(*x), span)),
            ExprKind::Str { value, .. } => Ok(self.constant(Value::string(value), span)),
            ExprKind::Ident(name) if self.variables.contains(name) => Ok(self.read_var(name, span)),
            ExprKind::Ident(name) => Ok(self.lower_call(name, &[], 1, span)?[0]),
            ExprKind::Colon => Ok(self.emit(Op::MagicColon, vec![], span)),
            ExprKind::End => match self.end_context.last() {
                Some(&(base, position, count)) => Ok(self.emit(Op::End { position, count }, vec![base], span)),
                None => Err(self.err("'end' outside an index", span)),
            },
            ExprKind::Binary { op: op @ (BinOp::AndAnd | BinOp::OrOr), lhs, rhs } => self.lower_short_circuit(*op, lhs, rhs, span),
            ExprKind::Binary { op, lhs, rhs } => {
                let (l, r) = (self.lower_expr(lhs)?, self.lower_expr(rhs)?);
                self.prim(binop_prim(*op), vec![l, r], span)
            }
            ExprKind::Unary { op, operand } => {
                let v = self.lower_expr(operand)?;
                let name = match op {
                    UnOp::Neg => "uminus",
                    UnOp::Plus => "uplus",
                    UnOp::Not => "not",
                };
                self.prim(name, vec![v], span)
            }
            ExprKind::Postfix { op, operand } => {
                let v = self.lower_expr(operand)?;
                let name = match op {
                    PostOp::Transpose => "transpose",
                    PostOp::CTranspose => "ctranspose",
                };
                self.prim(name, vec![v], span)
            }
            ExprKind::Range { start, step, stop } => {
                let mut args = vec![self.lower_expr(start)?];
                if let Some(s) = step {
                    args.push(self.lower_expr(s)?);
                }
                args.push(self.lower_expr(stop)?);
                self.prim("colon", args, span)
            }
            ExprKind::Call { base, args } => match &base.kind {
                ExprKind::Ident(name) if !self.variables.contains(name) => Ok(self.lower_call(name, args, 1, span)?[0]),
                // `x(2)`, and `s.f(2)`, `c{1}(3)`: indexing the value of an expression.
                _ => {
                    if let Some(name) = self.package_function(base)? {
                        return Ok(self.lower_call(&name, args, 1, span)?[0]);
                    }
                    if let Some(id) = self.known_function(base) {
                        return Ok(self.call_function(id, args, 1, span)?[0]);
                    }
                    let b = self.lower_expr(base)?;
                    let mut operands = vec![b];
                    operands.extend(self.lower_arguments(b, args)?);
                    let v = self.emit(Op::Index, operands, span);
                    self.name_indexed(v, base);
                    Ok(v)
                }
            },
            ExprKind::Matrix(rows) => self.lower_matrix(rows, span),
            ExprKind::ImagNumber(x) => Ok(self.constant(Value::Complex(Array::scalar(Complex64::new(0.0, *x))), span)),
            ExprKind::Field { .. } | ExprKind::CellIndex { .. } => self.lower_list(e, ListUse::Single),
            ExprKind::CellArray(rows) => {
                let rows: Vec<&Vec<Expr>> = rows.iter().filter(|r| !r.is_empty()).collect();
                let spreads =
                    rows.iter().flat_map(|r| r.iter()).any(|e| matches!(e.kind, ExprKind::Field { .. } | ExprKind::CellIndex { .. }));
                if !spreads && rows.iter().any(|r| r.len() != rows[0].len()) {
                    return Err(Diagnostic::new(ErrorKind::Runtime, "vertical dimensions mismatch in cell array").at(&self.file, span));
                }
                let elements = rows.iter().flat_map(|r| r.iter()).map(|e| self.lower_arg(e)).collect::<Result<Vec<_>>>()?;
                Ok(self.emit(Op::CellLiteral { widths: rows.iter().map(|r| r.len()).collect() }, elements, span))
            }
            ExprKind::DynField { .. } => Err(self.err("dynamic field names, s.(name)", span)),
            // Octave's `(dim = find (sz > 1, 1)) || (dim = 1)`: the value is the assigned one. The target
            // becomes a variable from here on (`collect_assigned` sees statements only).
            ExprKind::Assign { target, rhs } => {
                let value = self.lower_expr(rhs)?;
                if let LValue::Var { name, .. } = &**target {
                    self.variables.insert(name.name.clone());
                }
                self.assign(target, value)?;
                Ok(value)
            }
            ExprKind::PostIncrement { .. } => {
                Err(self.err("x++ inside expressions", span).with_hint("write the increment as its own statement"))
            }
            ExprKind::FuncHandle(name) => self.named_handle(name, span),
            ExprKind::AnonFn { params, body } => self.anonymous_handle(params, body, crate::syntax::octave_text::octave_text(e), true),
        }
    }

    /// `class(obj)` and `isobject(obj)` of a captured value-class object, known here: its class is
    /// what msad keeps of it besides its public properties; other uses of it are refused where they run.
    fn object_query(&self, callee: Callee, args: &[Expr]) -> Option<Value> {
        let [Expr { kind: ExprKind::Ident(name), .. }] = args else { return None };
        let class = self.unmodelled.get(name).filter(|_| self.objects.contains_key(name))?;
        match callee {
            Callee::Prim(primitives::Prim::Class) => Some(Value::string(class)),
            Callee::Prim(primitives::Prim::Isobject) => Some(Value::Logical(Array::scalar(true))),
            _ => None,
        }
    }

    /// The error for `method(obj, ...)` or `obj.method(...)` on a captured object msad does not model.
    fn method_error(&self, method: &str, object: &str, span: Span) -> Diagnostic {
        let class = self.unmodelled.get(object).map_or("object", String::as_str);
        self.err(&format!("calling '{method}' on the captured {class} object '{object}' (msad runs no methods of objects)"), span)
            .with_hint(format!(
                "call {method} outside msad_eval and capture its result, or write it as a function of the object's properties"
            ))
    }

    /// `s.name` or `c{subs}`, whose values (a cs-list) are used as `list` says.
    fn lower_list(&mut self, e: &Expr, list: ListUse) -> Result<ValueId> {
        match &e.kind {
            ExprKind::Field { base, name } => {
                if let Some(function) = self.package_function(e)? {
                    return Ok(self.lower_call(&function, &[], 1, e.span)?[0]);
                }
                let b = match &base.kind {
                    ExprKind::Ident(object) if self.objects.get(object).is_some_and(|p| !p.contains(&name.name)) => {
                        let error = self.method_error(&name.name, object, e.span);
                        return Ok(self.emit(Op::Fail(Box::new(error)), vec![], e.span));
                    }
                    ExprKind::Ident(object) if self.objects.contains_key(object) => self.read_var_in(object, self.current, base.span),
                    _ => self.lower_expr(base)?,
                };
                Ok(self.emit(Op::Field { name: name.name.clone(), tolerant: false, list }, vec![b], e.span))
            }
            ExprKind::CellIndex { base, args } => {
                let b = self.lower_expr(base)?;
                let mut operands = vec![b];
                operands.extend(self.lower_indices(b, args)?);
                let v = self.emit(Op::CellIndex { tolerant: false, list }, operands, e.span);
                self.name_indexed(v, base);
                Ok(v)
            }
            _ => self.lower_expr(e),
        }
    }

    /// An argument of a call or an index, or an element of a concatenation or a cell literal: a cs-list
    /// there spreads into several operands.
    fn lower_arg(&mut self, e: &Expr) -> Result<ValueId> {
        self.lower_list(e, ListUse::Spread)
    }

    /// The expression on the right of `[a, b] = ...`, which must be a call giving `n` results.
    fn lower_multi(&mut self, rhs: &Expr, n: usize) -> Result<Vec<ValueId>> {
        let (name, args) = match &rhs.kind {
            ExprKind::Ident(name) => (name.clone(), &[][..]),
            ExprKind::Call { base, args } => match &base.kind {
                ExprKind::Ident(name) => (name.clone(), args.as_slice()),
                _ => match self.package_function(base)? {
                    Some(name) => return self.lower_call(&name, args, n, rhs.span),
                    None => return Err(self.err("this multiple assignment", rhs.span)),
                },
            },
            _ => return Err(self.err("this multiple assignment", rhs.span)),
        };
        let name = &name;
        if self.variables.contains(name) {
            // `[a, b] = f(x)` with `f` a function handle; other bases are cs-lists, which index rejects.
            if !matches!(rhs.kind, ExprKind::Call { .. }) {
                return Err(self.err("multiple assignment from a variable (cs-lists)", rhs.span));
            }
            if let ExprKind::Call { base, .. } = &rhs.kind
                && let Some(id) = self.known_function(base)
            {
                return self.call_function(id, args, n, rhs.span);
            }
            let b = self.read_var(name, rhs.span);
            let mut operands = vec![b];
            operands.extend(self.lower_arguments(b, args)?);
            let dests: Vec<ValueId> = (0..n).map(|_| self.new_value()).collect();
            self.emit_multi(Op::Index, operands, dests.clone(), rhs.span);
            return Ok(dests);
        }
        self.lower_call(name, args, n, rhs.span)
    }

    /// `isargout(k)`: whether output k is asked for, `1 <= k <= max(nargout, 1)`. An output the caller
    /// ignores with `~` counts as asked for (Octave says false): the function computes it anyway.
    fn isargout(&mut self, k: &Expr, span: Span) -> Result<ValueId> {
        if !self.inlining.is_empty() {
            return Err(self
                .err("isargout inside a nested function", span)
                .with_hint("pass the count as an argument, or make the nested function a subfunction"));
        }
        let k = self.lower_expr(k)?;
        let one = self.constant(Value::Double(Array::new(vec![1, 1], vec![1.0])), span);
        let nargout = self.emit(Op::Nargout, vec![], span);
        let asked = self.emit(Op::Prim(Prim::Max), vec![nargout, one], span);
        let within = self.emit(Op::Prim(Prim::Le), vec![k, asked], span);
        let positive = self.emit(Op::Prim(Prim::Ge), vec![k, one], span);
        Ok(self.emit(Op::Prim(Prim::And), vec![within, positive], span))
    }

    fn lower_call(&mut self, name: &str, args: &[Expr], nargout: usize, span: Span) -> Result<Vec<ValueId>> {
        if let Some(index) = self.nested.iter().position(|n| n.name.name == name) {
            return self.call_nested(index, args, nargout, span);
        }
        if let ("nargin" | "nargout", []) = (name, args) {
            if !self.inlining.is_empty() {
                return Err(self
                    .err(&format!("{name} inside a nested function"), span)
                    .with_hint("pass the count as an argument, or make the nested function a subfunction"));
            }
            let op = if name == "nargin" { Op::Nargin } else { Op::Nargout };
            return Ok(vec![self.emit(op, vec![], span)]);
        }
        if let ("isargout", [k]) = (name, args) {
            return Ok(vec![self.isargout(k, span)?]);
        }
        if name == "str2func" {
            return Ok(vec![self.str2func(args, span)?]);
        }
        if let ("lasterr", [], 0..=2) = (name, args, nargout) {
            let dests: Vec<ValueId> = (0..nargout.max(1)).map(|_| self.new_value()).collect();
            self.emit_multi(Op::LastError, vec![], dests.clone(), span);
            return Ok(dests);
        }
        if let ("warning", 0..=1) | ("lastwarn", 0..=2) = (name, nargout) {
            let operands = args.iter().map(|a| self.lower_expr(a)).collect::<Result<Vec<_>>>()?;
            let dests: Vec<ValueId> = (0..nargout).map(|_| self.new_value()).collect();
            let op = if name == "warning" { Op::Warning } else { Op::LastWarning };
            self.emit_multi(op, operands, dests.clone(), span);
            return Ok(dests);
        }
        if let Some(timer) = Timer::named(name) {
            if nargout > 1 {
                let message = format!("{name}: function called with too many outputs");
                return Err(Diagnostic::new(ErrorKind::Runtime, message).at(&self.file, span));
            }
            let operands = args.iter().map(|a| self.lower_expr(a)).collect::<Result<Vec<_>>>()?;
            let dests: Vec<ValueId> = (0..nargout).map(|_| self.new_value()).collect();
            self.emit_multi(Op::Timer(timer), operands, dests.clone(), span);
            return Ok(dests);
        }
        if let Some(output) = Output::named(name) {
            if nargout > 0 {
                return Err(self.err(&format!("results of {name}"), span));
            }
            let mut operands = args.iter().map(|a| self.lower_arg(a)).collect::<Result<Vec<_>>>()?;
            if let (Output::Display, [value]) = (output, args) {
                // Octave's display names its argument from the caller's text, which a call from msad
                // has not: the name is passed (none for an expression, which Octave shows unnamed).
                let name = match &value.kind {
                    ExprKind::Ident(name) if self.variables.contains(name) => name.as_str(),
                    _ => "",
                };
                operands.push(self.constant(Value::string(name), span));
            }
            self.emit_multi(Op::Output(output), operands, vec![], span);
            return Ok(vec![]);
        }
        if name == "import" {
            let imported: Vec<String> = args.iter().filter_map(|a| self.known_text(a)).collect();
            self.imports.extend(imported);
            return Ok((0..nargout).map(|_| self.constant(Value::Double(Array::new(vec![0, 0], vec![])), span)).collect());
        }
        let callee = self.resolve(name, span)?;
        let Some(callee) = callee else {
            let error = if self.resolver.host_defines(name) {
                Diagnostic::new(
                    ErrorKind::Unsupported,
                    format!("'{name}' is not supported by msad: it has no derivative rule and no .m source on the path"),
                )
                .with_hint("write it with supported functions, or compute it outside the differentiated function")
            } else if let Some(object) = args.iter().find_map(|a| match &a.kind {
                ExprKind::Ident(n) if self.unmodelled.contains_key(n) => Some(n.clone()),
                _ => None,
            }) {
                self.method_error(name, &object, span)
            } else {
                Diagnostic::new(ErrorKind::Undefined, format!("'{name}' undefined"))
            };
            let dests: Vec<ValueId> = (0..nargout).map(|_| self.new_value()).collect();
            self.emit_multi(Op::Fail(Box::new(error)), vec![], dests.clone(), span);
            return Ok(dests);
        };
        if let Some(answer) = self.object_query(callee, args) {
            return Ok(vec![self.constant(answer, span)]);
        }
        // A function named by text known here: `feval('f', x)` is `f(x)`.
        if let (Callee::HigherOrder(HigherOrder::Feval), Some(first)) = (callee, args.first())
            && let Some(function) = self.known_text(first)
        {
            return self.lower_call(&function, &args[1..], nargout, span);
        }
        let mut operands = Vec::with_capacity(args.len());
        for (k, a) in args.iter().enumerate() {
            operands.push(match (callee, k, &a.kind) {
                // `cellfun('f', c)` is `cellfun(@f, c)` unless 'f' is one of cellfun's own legacy forms.
                (Callee::HigherOrder(h), 0, ExprKind::Str { value, .. }) if h.legacy_form(value).is_none() => {
                    self.named_handle(value, a.span)?
                }
                _ => self.lower_arg(a)?,
            });
        }
        let dests: Vec<ValueId> = (0..nargout).map(|_| self.new_value()).collect();
        let op = match callee {
            Callee::Prim(id) => Op::Prim(primitives::for_outputs(id, nargout)),
            Callee::User(id) => Op::Call(self.specialised_for_texts(id, args)),
            Callee::HigherOrder(h) => Op::Apply(h),
        };
        self.emit_multi(op, operands, dests.clone(), span);
        Ok(dests)
    }

    /// A call of a nested function, lowered in place: its arguments are local (the caller's variables
    /// of the same names are restored afterwards), every other variable is the caller's workspace.
    fn call_nested(&mut self, index: usize, args: &[Expr], nargout: usize, span: Span) -> Result<Vec<ValueId>> {
        let nested = self.nested[index].clone();
        let name = nested.name.name.clone();
        if self.inlining.contains(&name) {
            return Err(self.err("recursive calls of nested functions", span).with_hint("make the function a subfunction"));
        }
        refuse_shared_writes(&nested, &self.read_only_shared, &self.file, span)?;
        let params = param_names(&nested.inputs, &self.file)?;
        if params.iter().any(|p| p == "varargin") || nested.outputs.iter().any(|o| o.name == "varargout") {
            return Err(self.err("varargin and varargout in nested functions", span));
        }
        if args.len() > params.len() || nargout > nested.outputs.len().max(1) {
            let what = if args.len() > params.len() { "inputs" } else { "outputs" };
            return Err(Diagnostic::new(ErrorKind::Runtime, format!("{name}: function called with too many {what}")).at(&self.file, span));
        }
        let values = args.iter().map(|a| self.lower_expr(a)).collect::<Result<Vec<_>>>()?;
        let locals: Vec<String> = params.iter().cloned().chain(nested.outputs.iter().map(|o| o.name.clone())).collect();
        let mut shadowed = vec![];
        for local in &locals {
            if self.variables.contains(local) {
                shadowed.push((local.clone(), self.read_var(local, span)));
            }
        }
        let added: Vec<String> = locals.iter().filter(|n| self.variables.insert((*n).clone())).cloned().collect();
        // Its arguments are its own, also where the caller shares a variable of that name.
        let callers_shared = self.shared.clone();
        locals.iter().for_each(|local| _ = self.shared.remove(local));
        for local in &locals {
            let undefined = self.emit(Op::Undefined(local.clone()), vec![], span);
            self.write_var(local, undefined);
        }
        params.iter().zip(values).for_each(|(p, v)| self.write_var(p, v));
        let exit = self.new_block();
        let caller_exit = std::mem::replace(&mut self.exit, exit);
        let caller_loops = std::mem::take(&mut self.loops);
        self.inlining.push(name);
        let lowered = self.lower_block(&nested.body);
        self.inlining.pop();
        (self.exit, self.loops) = (caller_exit, caller_loops);
        lowered?;
        self.jump(exit);
        self.seal(exit);
        self.current = exit;
        let results = nested.outputs.iter().take(nargout).map(|o| self.read_var(&o.name, span)).collect();
        self.shared = callers_shared;
        shadowed.iter().for_each(|(n, v)| self.write_var(n, *v));
        for name in &added {
            self.variables.remove(name);
        }
        Ok(results)
    }

    /// The outputs of an anonymous function with this body: one, or when the body calls a function,
    /// as many as the caller asks for (up to `ANON_MAX_OUTPUTS`), each count with its own call.
    fn anonymous_outputs(&mut self, body: &Expr) -> Result<Vec<String>> {
        let (name, args): (&str, &[Expr]) = match &body.kind {
            ExprKind::Ident(name) => (name, &[]),
            ExprKind::Call { base, args } => match &base.kind {
                ExprKind::Ident(name) => (name, args),
                _ => return Ok(vec![ANON_RESULT.into()]),
            },
            _ => return Ok(vec![ANON_RESULT.into()]),
        };
        if self.variables.contains(name) {
            return Ok(vec![ANON_RESULT.into()]);
        }
        let outputs: Vec<String> =
            (0..ANON_MAX_OUTPUTS).map(|k| if k == 0 { ANON_RESULT.into() } else { format!("#ans{}", k + 1) }).collect();
        let span = body.span;
        let join = self.new_block();
        let asked = self.emit(Op::Nargout, vec![], span);
        for count in 1..=ANON_MAX_OUTPUTS {
            // Fewer results asked for than the next count: this call; otherwise on to the next.
            let next = (count < ANON_MAX_OUTPUTS).then(|| self.new_block());
            if let Some(next) = next {
                let limit = self.constant(Value::scalar(count as f64), span);
                let fits = self.prim("le", vec![asked, limit], span)?;
                let fits = self.prim("truth", vec![fits], span)?;
                let this = self.new_block();
                self.branch(fits, this, next);
                self.seal(this);
                self.seal(next);
                self.current = this;
            }
            let results = self.lower_call(name, args, count, span)?;
            outputs.iter().zip(results).for_each(|(o, v)| self.write_var(o, v));
            self.jump(join);
            if let Some(next) = next {
                self.current = next;
            }
        }
        self.seal(join);
        self.current = join;
        Ok(outputs)
    }

    /// What `name` calls here: a function it imports (`import pkg.*`, `import pkg.f`), else `name`.
    fn resolve(&mut self, name: &str, span: Span) -> Result<Option<Callee>> {
        let imported = self.imports.iter().filter_map(|import| match import.strip_suffix(".*") {
            Some(package) => Some(format!("{package}.{name}")),
            None => (import.rsplit('.').next() == Some(name)).then(|| import.clone()),
        });
        for candidate in imported.collect::<Vec<_>>().iter().map(String::as_str).chain([name]) {
            if let Some(callee) = self.resolver.resolve(candidate, &self.file).map_err(|d| d.at(&self.file, span))? {
                return Ok(Some(callee));
            }
        }
        Ok(None)
    }

    /// `pkg.f` or `pkg.sub.f` naming a package function (the first name is no variable), else `None`
    /// (then it is a field of what the first name gives).
    fn package_function(&mut self, e: &Expr) -> Result<Option<String>> {
        fn dotted(e: &Expr, variables: &HashSet<String>) -> Option<String> {
            match &e.kind {
                ExprKind::Ident(n) if !variables.contains(n) => Some(n.clone()),
                ExprKind::Field { base, name } => Some(format!("{}.{}", dotted(base, variables)?, name.name)),
                _ => None,
            }
        }
        let Some(name) = dotted(e, &self.variables).filter(|n| n.contains('.')) else { return Ok(None) };
        Ok(self.resolver.resolve(&name, &self.file).map_err(|d| d.at(&self.file, e.span))?.map(|_| name))
    }

    /// `@name`: a handle to what `name` resolves to here.
    fn named_handle(&mut self, name: &str, span: Span) -> Result<ValueId> {
        if self.nested.iter().any(|n| n.name.name == name) {
            return self.nested_function_handle(name, span);
        }
        let target = self.handle_target(name, span)?;
        Ok(self.emit(Op::MakeHandle { target, text: name.into() }, vec![], span))
    }

    /// `@inner` made in its parent: the nested function with the parent's variables it reads (also
    /// through the siblings it calls) captured now, passed first on every call. Octave's handle shares
    /// the parent's live workspace instead: refused where that may differ, when one of those variables
    /// may be assigned after the handle was made (later in the parent, again in a loop around it, or by
    /// a sibling), and when the nested function assigns a variable of its parent.
    fn nested_function_handle(&mut self, name: &str, span: Span) -> Result<ValueId> {
        let parent = match &self.parent {
            Some(parent) if self.inlining.is_empty() => parent.clone(),
            _ => {
                return Err(self
                    .err("handles to nested functions made inside a nested function", span)
                    .with_hint("make the handle in the parent function"));
            }
        };
        let shared = parent_variables(&parent, &Captures::Inputs(&[]), &self.file)?;
        let read = names_read_by_nested(&parent, name);
        let captured: Vec<String> = read.into_iter().filter(|n| shared.contains(n)).collect();
        let mut reassigned = HashSet::new();
        assigned_after(&parent.body, span, &mut reassigned);
        for sibling in parent.nested.iter().filter(|n| n.name.name != name) {
            let mut assigned = HashSet::new();
            collect_assigned(&sibling.body, &mut assigned);
            reassigned.extend(assigned.into_iter().filter(|n| !is_argument_of(sibling, n)));
        }
        if let Some(variable) = captured.iter().find(|n| reassigned.contains(*n)) {
            return Err(self
                .err(
                    &format!("a handle to nested function '{name}' whose shared variable '{variable}' may change after the handle is made"),
                    span,
                )
                .with_hint("assign the shared variables before making the handle, or pass them to the nested function as arguments"));
        }
        let values = captured.iter().map(|n| self.read_var(n, span)).collect();
        let func = lower_nested(&parent, name, Captures::Inputs(&captured), None, &self.file, &mut *self.resolver)?;
        let id = self.resolver.add_function(func);
        Ok(self.emit(Op::MakeHandle { target: Callee::User(id), text: name.into() }, values, span))
    }

    /// The function a handle `@name` made here calls.
    fn handle_target(&mut self, name: &str, span: Span) -> Result<Callee> {
        if self.nested.iter().any(|n| n.name.name == name) {
            return Err(self
                .err("handles to nested functions", span)
                .with_hint("call the nested function directly, or make it a subfunction and pass the shared variables"));
        }
        match self.resolve(name, span)? {
            Some(target @ (Callee::Prim(_) | Callee::User(_))) => Ok(target),
            Some(Callee::HigherOrder(h)) => {
                Err(self.err(&format!("handles to '{}'", h.name()), span).with_hint("call it directly instead of through a handle"))
            }
            None => Err(Diagnostic::new(ErrorKind::Unsupported, format!("'@{name}': msad finds no function '{name}'"))
                .at(&self.file, span)
                .with_hint("check the name; msad supports its own builtins and functions with .m source")),
        }
    }

    /// `@(params) body` made here: the body becomes a function of the variables it reads from this
    /// workspace (captured now, passed first on every call) followed by its own parameters.
    /// `captures` false: capture nothing (`str2func` text).
    fn anonymous_handle(&mut self, params: &[Param], body: &Expr, text: String, captures: bool) -> Result<ValueId> {
        let own: Vec<String> = params
            .iter()
            .filter_map(|p| match p {
                Param::Name(id) => Some(id.name.clone()),
                Param::Ignored(_) => None,
            })
            .collect();
        let mut read = Vec::new();
        names_read(body, &own, &mut read);
        let captured: Vec<String> = read.into_iter().filter(|n| captures && self.variables.contains(n)).collect();
        let values = captured.iter().map(|n| self.read_var(n, body.span)).collect();
        let func = lower_anonymous(params, body, Captures::Inputs(&captured), None, &self.file, &mut *self.resolver)?;
        let id = self.resolver.add_function(func);
        Ok(self.emit(Op::MakeHandle { target: Callee::User(id), text }, values, body.span))
    }

    /// A handle the host passed in (a captured variable of the entry), resolved like one made in the code.
    fn host_handle(&mut self, handle: &FunctionHandle, span: Span) -> Result<ValueId> {
        let compiled = self.compiled_handle(handle, span)?;
        let FunctionHandle::Compiled { text, target, .. } = &compiled else { unreachable!("compiled_handle gives compiled handles") };
        let v = self.emit(Op::MakeHandle { target: *target, text: text.clone() }, vec![], span);
        self.known_text.insert(v, Value::Handle(Arc::new(compiled)));
        Ok(v)
    }

    /// The user function a call through `base` reaches when `base` holds a handle known here (one the
    /// host passed: captured, or in a captured struct) that passes no captured values: the call is then
    /// a direct one, which can be inlined (a closure over a closure costs one level).
    fn known_function(&mut self, base: &Expr) -> Option<FuncId> {
        match self.known_skeleton(base)? {
            Value::Handle(h) => match &*h {
                FunctionHandle::Compiled { target: Callee::User(id), captured, .. } if captured.is_empty() => Some(*id),
                _ => None,
            },
            _ => None,
        }
    }

    /// A direct call of user function `id` with `nargout` results.
    fn call_function(&mut self, id: FuncId, args: &[Expr], nargout: usize, span: Span) -> Result<Vec<ValueId>> {
        let operands = args.iter().map(|a| self.lower_arg(a)).collect::<Result<Vec<_>>>()?;
        let dests: Vec<ValueId> = (0..nargout).map(|_| self.new_value()).collect();
        let id = self.specialised_for_texts(id, args);
        self.emit_multi(Op::Call(id), operands, dests.clone(), span);
        Ok(dests)
    }

    /// The version of user function `id` to call with `args`: the one specialised for the texts known
    /// here among them, so that a name handed on (`solve('rhs', y)`, `solve(name, y)` with `name`
    /// captured) names the functions `feval` and `str2func` call in it, as it does here. Positions
    /// are known only when no argument can spread into several (`c{:}`, `s.f` of a struct array).
    fn specialised_for_texts(&mut self, id: FuncId, args: &[Expr]) -> FuncId {
        let mut texts = Vec::with_capacity(args.len());
        for a in args {
            match &a.kind {
                ExprKind::CellIndex { .. } => return id,
                ExprKind::Field { base, .. } if !matches!(self.known_skeleton(base), Some(Value::Struct(s)) if s.elements.len() == 1) => {
                    return id;
                }
                _ => texts.push(self.known_text(a)),
            }
        }
        self.resolver.with_texts(id, &texts)
    }

    /// A handle from the host with its target resolved and lowered: the code calls it like one of its own.
    fn compiled_handle(&mut self, handle: &FunctionHandle, span: Span) -> Result<FunctionHandle> {
        let (text, target) = match handle {
            FunctionHandle::Named(name) => (name.clone(), self.handle_target(name, span)?),
            FunctionHandle::Anonymous { text, captured, unmodelled } => {
                let source = SourceFile::new("<anonymous>", text.as_str());
                let (params, body) = parse_anonymous(&source)?;
                let captures = Captures::Values { values: captured, as_inputs: &[], unmodelled };
                let func = lower_anonymous(&params, &body, captures, None, &source, &mut *self.resolver)?;
                (text.clone(), Callee::User(self.resolver.add_function(func)))
            }
            FunctionHandle::Nested { name, file, captured, unmodelled, .. } => {
                let captures = Captures::Values { values: captured, as_inputs: &[], unmodelled };
                (name.clone(), Callee::User(self.resolver.nested_function(file, name, captures)?))
            }
            FunctionHandle::Compiled { .. } => return Ok(handle.clone()),
        };
        Ok(FunctionHandle::Compiled { text, target, captured: vec![] })
    }

    /// `value` with every function handle in it (also in cells and struct fields) compiled.
    fn compile_handles(&mut self, value: &Value, span: Span) -> Result<Value> {
        if !value.holds_handle() {
            return Ok(value.clone());
        }
        Ok(match value {
            Value::Handle(h) => Value::Handle(Arc::new(self.compiled_handle(h, span)?)),
            Value::Cell(a) => {
                let data = a.data.iter().map(|v| self.compile_handles(v, span)).collect::<Result<Vec<_>>>()?;
                Value::Cell(Array::new(a.dims.clone(), data))
            }
            Value::Struct(s) => {
                let mut compiled = s.clone();
                for field in compiled.elements.iter_mut().flatten() {
                    *field = self.compile_handles(field, span)?;
                }
                Value::Struct(compiled)
            }
            other => other.clone(),
        })
    }

    /// The text an argument is known to hold here: a literal, or a variable (or a field of one)
    /// holding a known text.
    fn known_text(&mut self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Str { value, .. } => Some(value.clone()),
            _ => self.known_skeleton(e)?.as_string(),
        }
    }

    fn known_skeleton(&mut self, e: &Expr) -> Option<Value> {
        match &e.kind {
            // An object msad does not model is read only as the code reads it (`obj.Prop`).
            ExprKind::Ident(name) if self.variables.contains(name) && !self.unmodelled.contains_key(name) => {
                let v = self.read_var(name, e.span);
                self.known_text.get(&v).cloned()
            }
            ExprKind::Field { base, name } => match self.known_skeleton(base)? {
                Value::Struct(s) if s.elements.len() == 1 => {
                    let index = s.fields.iter().position(|f| *f == name.name)?;
                    Some(s.elements[0][index].clone())
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `str2func('name')` or `str2func('@(x) ...')` with text known when the code is lowered (an
    /// anonymous function made from text captures nothing, as in Octave).
    fn str2func(&mut self, args: &[Expr], span: Span) -> Result<ValueId> {
        let known = match args {
            [arg] => self.known_text(arg).map(|text| (text, arg.span)),
            _ => None,
        };
        let Some((value, text_span)) = known else {
            // An error when it runs: library code converts names on paths a handle never takes.
            let error = self
                .err("str2func of text that is computed at run time", span)
                .with_hint("write the handle itself, @name or @(x) ..., or pass the name as an argument or a captured variable");
            return Ok(self.emit(Op::Fail(Box::new(error)), vec![], span));
        };
        let (value, text_span) = (&value, &text_span);
        if !value.trim_start().starts_with('@') {
            return self.named_handle(value.trim(), *text_span);
        }
        let source = SourceFile::new("<anonymous>", value.as_str());
        let (params, body) = parse_anonymous(&source).map_err(|d| d.at(&self.file, *text_span))?;
        let text = crate::syntax::octave_text::octave_text(&Expr {
            kind: ExprKind::AnonFn { params: params.clone(), body: Box::new(body.clone()) },
            span,
        });
        self.anonymous_handle(&params, &body, text, false)
    }

    /// Records the variable at the root of an indexed expression (`x` of `x(5)`, `s.a(5)`, `c{3}`):
    /// Octave's index errors name it.
    fn name_indexed(&mut self, result: ValueId, base: &Expr) {
        let mut e = base;
        loop {
            match &e.kind {
                ExprKind::Ident(name) if self.variables.contains(name) => {
                    self.indexed_variables.insert(result, name.clone());
                    return;
                }
                ExprKind::Field { base, .. } | ExprKind::CellIndex { base, .. } => e = base,
                _ => return,
            }
        }
    }

    /// Index arguments of `base(...)`, with `end` bound to `base`.
    fn lower_indices(&mut self, base: ValueId, indices: &[Expr]) -> Result<Vec<ValueId>> {
        self.lower_index_args(base, indices, ListUse::Single)
    }

    /// Arguments of `base(...)` read as a value (indices or a function handle's arguments): cs-lists
    /// among them spread.
    fn lower_arguments(&mut self, base: ValueId, indices: &[Expr]) -> Result<Vec<ValueId>> {
        self.lower_index_args(base, indices, ListUse::Spread)
    }

    fn lower_index_args(&mut self, base: ValueId, indices: &[Expr], list: ListUse) -> Result<Vec<ValueId>> {
        let count = indices.len();
        let mut out = Vec::with_capacity(count);
        for (position, e) in indices.iter().enumerate() {
            self.end_context.push((base, position, count));
            let v = self.lower_list(e, list);
            self.end_context.pop();
            out.push(v?);
        }
        Ok(out)
    }

    /// `[a, b; c]`: rows are horizontal concatenations stacked vertically; a lone element or a lone row
    /// needs no concatenation.
    fn lower_matrix(&mut self, rows: &[Vec<Expr>], span: Span) -> Result<ValueId> {
        let mut row_values = Vec::with_capacity(rows.len());
        for row in rows {
            let mut elems = row.iter().map(|e| self.lower_arg(e)).collect::<Result<Vec<_>>>()?;
            // `[c{:}]` alone still concatenates the values it spreads into.
            let single = elems.len() == 1 && !matches!(row[0].kind, ExprKind::Field { .. } | ExprKind::CellIndex { .. });
            row_values.push(if single { elems.pop().expect("one") } else { self.prim("horzcat", elems, span)? });
        }
        if row_values.len() == 1 { Ok(row_values[0]) } else { self.prim("vertcat", row_values, span) }
    }

    /// `a && b`, `a || b`: the right side runs only when needed.
    fn lower_short_circuit(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, span: Span) -> Result<ValueId> {
        let temp = self.fresh_temp();
        let l = self.lower_condition(lhs)?;
        self.write_var(&temp, l);
        let (rhs_b, join) = (self.new_block(), self.new_block());
        match op {
            BinOp::AndAnd => self.branch(l, rhs_b, join),
            _ => self.branch(l, join, rhs_b),
        }
        self.seal(rhs_b);
        self.current = rhs_b;
        let r = self.lower_condition(rhs)?;
        self.write_var(&temp, r);
        self.jump(join);
        self.seal(join);
        self.current = join;
        Ok(self.read_var(&temp, span))
    }
}

/// The parameters and body of the anonymous function whose whole text is `source`.
pub fn parse_anonymous(source: &Arc<SourceFile>) -> Result<(Vec<Param>, Expr)> {
    let not_anonymous = || Diagnostic::new(ErrorKind::BadInput, format!("'{}' is not an anonymous function", source.text));
    let parsed = crate::syntax::parse(source)?;
    let [Stmt { kind: StmtKind::Expr(e), .. }] = parsed.body.as_slice() else { return Err(not_anonymous()) };
    match &e.kind {
        ExprKind::AnonFn { params, body } => Ok((params.clone(), (**body).clone())),
        _ => Err(not_anonymous()),
    }
}

/// Every name `e` reads that `bound` does not bind (nor an anonymous function inside `e`), in order of
/// first use, once each: what an anonymous function with body `e` captures from its workspace.
fn names_read(e: &Expr, bound: &[String], out: &mut Vec<String>) {
    let all = |es: &[Expr], out: &mut Vec<String>| es.iter().for_each(|x| names_read(x, bound, out));
    match &e.kind {
        ExprKind::Ident(n) => {
            if !bound.contains(n) && !out.contains(n) {
                out.push(n.clone());
            }
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            names_read(lhs, bound, out);
            names_read(rhs, bound, out);
        }
        ExprKind::Unary { operand, .. } | ExprKind::Postfix { operand, .. } => names_read(operand, bound, out),
        ExprKind::Range { start, step, stop } => {
            names_read(start, bound, out);
            if let Some(s) = step {
                names_read(s, bound, out);
            }
            names_read(stop, bound, out);
        }
        ExprKind::Call { base, args } | ExprKind::CellIndex { base, args } => {
            names_read(base, bound, out);
            all(args, out);
        }
        ExprKind::Field { base, .. } => names_read(base, bound, out),
        ExprKind::DynField { base, name } => {
            names_read(base, bound, out);
            names_read(name, bound, out);
        }
        ExprKind::Matrix(rows) | ExprKind::CellArray(rows) => rows.iter().for_each(|r| all(r, out)),
        ExprKind::AnonFn { params, body } => {
            let mut inner = bound.to_vec();
            inner.extend(params.iter().filter_map(|p| match p {
                Param::Name(id) => Some(id.name.clone()),
                Param::Ignored(_) => None,
            }));
            names_read(body, &inner, out);
        }
        ExprKind::Number(_)
        | ExprKind::ImagNumber(_)
        | ExprKind::Str { .. }
        | ExprKind::Colon
        | ExprKind::End
        | ExprKind::FuncHandle(_)
        | ExprKind::PostIncrement { .. }
        | ExprKind::Assign { .. } => {}
    }
}

/// The names nested function `name` of `parent` reads, also through the sibling nested functions it
/// calls (every identifier in their statements: function names too).
fn names_read_by_nested(parent: &ast::Function, name: &str) -> Vec<String> {
    let mut names = vec![name.to_string()];
    let mut done = 0;
    while done < names.len() {
        let current = names[done].clone();
        done += 1;
        if let Some(function) = parent.nested.iter().find(|n| n.name.name == current) {
            let inputs = function.inputs.iter().filter_map(|p| match p {
                Param::Name(id) => Some(id.name.clone()),
                Param::Ignored(_) => None,
            });
            let own: Vec<String> = function.outputs.iter().map(|o| o.name.clone()).chain(inputs).collect();
            let mut read = vec![];
            names_in_block(&function.body, &own, &mut read);
            names.extend(read.into_iter().filter(|n| !names.contains(n)).collect::<Vec<_>>());
        }
    }
    names.remove(0);
    names
}

/// Every identifier read in `stmts` (not `bound`), in the expressions and the subscripts of targets.
fn names_in_block(stmts: &[Stmt], bound: &[String], out: &mut Vec<String>) {
    let target = |lv: &LValue, out: &mut Vec<String>| {
        if let LValue::Var { accessors, .. } = lv {
            for accessor in accessors {
                match accessor {
                    ast::Accessor::Paren(args, _) | ast::Accessor::Brace(args, _) => args.iter().for_each(|a| names_read(a, bound, out)),
                    ast::Accessor::DynField(e, _) => names_read(e, bound, out),
                    ast::Accessor::Field(_) => {}
                }
            }
        }
    };
    for stmt in stmts {
        match &stmt.kind {
            StmtKind::Expr(e) => names_read(e, bound, out),
            StmtKind::Assign { targets, rhs } => {
                targets.iter().for_each(|t| target(t, out));
                names_read(rhs, bound, out);
            }
            StmtKind::OpAssign { target: t, rhs, .. } => {
                target(t, out);
                if let LValue::Var { name, .. } = t {
                    names_read(&Expr { kind: ExprKind::Ident(name.name.clone()), span: stmt.span }, bound, out);
                }
                names_read(rhs, bound, out);
            }
            StmtKind::If { clauses, else_body } => {
                for (cond, body) in clauses {
                    names_read(cond, bound, out);
                    names_in_block(body, bound, out);
                }
                names_in_block(else_body.as_deref().unwrap_or_default(), bound, out);
            }
            StmtKind::For { iter, body, .. } | StmtKind::ForKeyValue { iter, body, .. } => {
                names_read(iter, bound, out);
                names_in_block(body, bound, out);
            }
            StmtKind::While { cond, body } | StmtKind::DoUntil { body, cond } => {
                names_read(cond, bound, out);
                names_in_block(body, bound, out);
            }
            StmtKind::Switch { subject, cases, otherwise } => {
                names_read(subject, bound, out);
                for (case, body) in cases {
                    names_read(case, bound, out);
                    names_in_block(body, bound, out);
                }
                names_in_block(otherwise.as_deref().unwrap_or_default(), bound, out);
            }
            StmtKind::TryCatch { body, catch_body, .. } => {
                names_in_block(body, bound, out);
                names_in_block(catch_body, bound, out);
            }
            StmtKind::UnwindProtect { body, cleanup } => {
                names_in_block(body, bound, out);
                names_in_block(cleanup, bound, out);
            }
            StmtKind::Global(decls) | StmtKind::Persistent(decls) => {
                decls.iter().filter_map(|(_, e)| e.as_ref()).for_each(|e| names_read(e, bound, out))
            }
            _ => {}
        }
    }
}

/// The names `stmts` may assign after the code at `at` ran: in statements after it, in a loop around
/// it (its next iterations), and the targets of the statement holding it.
fn assigned_after(stmts: &[Stmt], at: Span, out: &mut HashSet<String>) {
    for stmt in stmts {
        if stmt.span.hi <= at.lo {
            continue;
        }
        if stmt.span.lo >= at.hi {
            collect_assigned(std::slice::from_ref(stmt), out);
            continue;
        }
        match &stmt.kind {
            StmtKind::For { .. } | StmtKind::ForKeyValue { .. } | StmtKind::While { .. } | StmtKind::DoUntil { .. } => {
                collect_assigned(std::slice::from_ref(stmt), out);
            }
            StmtKind::If { clauses, else_body } => {
                clauses.iter().for_each(|(_, body)| assigned_after(body, at, out));
                assigned_after(else_body.as_deref().unwrap_or_default(), at, out);
            }
            StmtKind::Switch { cases, otherwise, .. } => {
                cases.iter().for_each(|(_, body)| assigned_after(body, at, out));
                assigned_after(otherwise.as_deref().unwrap_or_default(), at, out);
            }
            StmtKind::TryCatch { body, catch_body, .. } => {
                assigned_after(body, at, out);
                collect_assigned(catch_body, out);
            }
            StmtKind::UnwindProtect { body, cleanup } => {
                assigned_after(body, at, out);
                collect_assigned(cleanup, out);
            }
            _ => collect_assigned(std::slice::from_ref(stmt), out),
        }
    }
}

/// The accessor of a target that names a cs-list in a multiple assignment: `c{subs}` or `s.f`.
fn list_target(target: &LValue) -> Option<&ast::Accessor> {
    match target {
        LValue::Var { accessors, .. } => match accessors.as_slice() {
            [a @ (ast::Accessor::Brace(..) | ast::Accessor::Field(_))] => Some(a),
            _ => None,
        },
        LValue::Ignored(_) => None,
    }
}

fn binop_prim(op: BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Add => "plus",
        Sub => "minus",
        Mul => "mtimes",
        Div => "mrdivide",
        LeftDiv => "mldivide",
        Pow => "mpower",
        ElMul => "times",
        ElDiv => "rdivide",
        ElLeftDiv => "ldivide",
        ElPow => "power",
        Eq => "eq",
        Ne => "ne",
        Lt => "lt",
        Le => "le",
        Gt => "gt",
        Ge => "ge",
        And => "and",
        Or => "or",
        AndAnd => "and",
        OrOr => "or",
    }
}

/// Replaces phis whose operands are all one value (or the phi itself) by that value, to a fixpoint,
/// and rewrites every use.
fn remove_trivial_phis(func: &mut Function) {
    let mut alias: HashMap<ValueId, ValueId> = HashMap::new();
    let resolve = super::resolve_alias;
    loop {
        let mut changed = false;
        for block in &mut func.blocks {
            block.phis.retain(|phi| {
                let mut unique = None;
                for &(_, v) in &phi.incoming {
                    let v = resolve(&alias, v);
                    if v == phi.dest || unique == Some(v) {
                        continue;
                    }
                    if unique.is_some() {
                        return true;
                    }
                    unique = Some(v);
                }
                // A phi with no other operand only occurs in unreachable code: drop it.
                if let Some(u) = unique {
                    alias.insert(phi.dest, u);
                }
                changed = true;
                false
            });
        }
        if !changed {
            break;
        }
    }
    func.replace_uses(&alias);
}
