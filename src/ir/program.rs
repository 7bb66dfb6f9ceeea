//! Loading: from the entry function, read and parse every source file it reaches (once each), resolve
//! function names and lower every user function that is called.
//!
//! Resolution order for a name that is not a variable: a function in the caller's file (subfunction or
//! the file's own primary), then msad's primitive table, then a `.m` file found by the host (`which`).
//! Primitives come before path files so that Octave's own `.m` implementations of functions msad has
//! rules for are not parsed.

use super::lower::{self, Captures, Resolver};
use super::{Callee, HigherOrder};
use super::{FuncId, Function, Program};
use crate::diag::{Diagnostic, ErrorKind, Result, SourceFile};
use crate::host::Host;
use crate::primitives;
use crate::syntax::{self, ast};
use crate::value::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

struct ParsedFile {
    source: Arc<SourceFile>,
    ast: ast::File,
}

enum Pending {
    /// Function `index` of `file`; `fixed`: the arguments its code is specialised for (by position).
    Named { file: Arc<ParsedFile>, index: usize, fixed: Vec<Option<Value>> },
}

pub struct Loader<'h> {
    host: &'h mut dyn Host,
    files: HashMap<PathBuf, Arc<ParsedFile>>,
    ids: HashMap<(PathBuf, String), FuncId>,
    /// Where each function of a file was defined, for its versions specialised for text arguments.
    origins: HashMap<FuncId, (Arc<ParsedFile>, usize)>,
    /// The versions of a function specialised for text arguments (by position).
    with_texts: HashMap<(FuncId, Vec<Option<String>>), FuncId>,
    functions: Vec<Option<Function>>,
    pending: Vec<(FuncId, Pending)>,
    sources: Vec<Arc<SourceFile>>,
    /// The entry's arguments its code is specialised for (see `lower::lower_function`).
    fixed: Vec<Option<Value>>,
}

impl<'h> Loader<'h> {
    pub fn new(host: &'h mut dyn Host) -> Loader<'h> {
        Loader {
            host,
            files: HashMap::new(),
            ids: HashMap::new(),
            origins: HashMap::new(),
            with_texts: HashMap::new(),
            functions: vec![],
            pending: vec![],
            sources: vec![],
            fixed: vec![],
        }
    }

    /// The entry's code is specialised for these arguments (by position, `None` for the others).
    pub fn with_fixed_arguments(mut self, fixed: Vec<Option<Value>>) -> Loader<'h> {
        self.fixed = fixed;
        self
    }

    /// Program whose entry is the primary function of the file defining `name`.
    pub fn load_named(mut self, name: &str) -> Result<Program> {
        let path = self.host.which(name).ok_or_else(|| {
            Diagnostic::new(ErrorKind::Undefined, format!("'{name}' undefined"))
                .with_hint("check the name and that its .m file is on the Octave path")
        })?;
        let file = self.parsed(&path, read_source)?;
        let primary = file.ast.functions.first().map(|f| f.name.name.clone()).ok_or_else(|| {
            Diagnostic::new(ErrorKind::Unsupported, format!("{} is a script, not a function", path.display()))
                .with_hint("wrap the code in a function that takes x and returns the result")
        })?;
        self.function_id(&file, &primary);
        self.finish()
    }

    /// Program whose entry is the anonymous function with source `text`, e.g. `@(x) f(x, p)`; the
    /// captured values marked in `as_inputs` become inputs after the function's own.
    pub fn load_anonymous(mut self, text: &str, captures: Captures) -> Result<Program> {
        let source = SourceFile::new("<anonymous>", text);
        let (params, body) = lower::parse_anonymous(&source)?;
        self.sources.push(source.clone());
        self.functions.push(None);
        let fixed = std::mem::take(&mut self.fixed);
        let func = lower::lower_anonymous(&params, &body, captures, Some(&fixed), &source, &mut self)?;
        self.functions[0] = Some(func);
        self.finish()
    }

    /// Program whose entry is nested function `name` of a function in `path`, its parent's workspace
    /// given by `captures` (see `lower::lower_nested`).
    pub fn load_nested(mut self, path: &Path, name: &str, captures: Captures) -> Result<Program> {
        self.functions.push(None);
        let fixed = std::mem::take(&mut self.fixed);
        let func = self.lower_nested(path, name, captures, Some(&fixed))?;
        self.functions[0] = Some(func);
        self.finish()
    }

    fn lower_nested(&mut self, path: &Path, name: &str, captures: Captures, entry: Option<&[Option<Value>]>) -> Result<Function> {
        let file = self.parsed(path, read_source)?;
        let parent = file.ast.functions.iter().find(|f| f.nested.iter().any(|n| n.name.name == name)).ok_or_else(|| {
            Diagnostic::new(ErrorKind::Undefined, format!("{} defines no nested function '{name}'", path.display()))
                .with_hint("the file changed since the handle was made: make the handle again")
        })?;
        lower::lower_nested(parent, name, captures, entry, &file.source, self)
    }

    fn finish(mut self) -> Result<Program> {
        while let Some((id, Pending::Named { file, index, fixed })) = self.pending.pop() {
            let fixed = if id == FuncId::new(0) { std::mem::take(&mut self.fixed) } else { fixed };
            let func = lower::lower_function(&file.ast.functions[index], &file.source, &fixed, &mut self)?;
            self.functions[id.index()] = Some(func);
        }
        let functions = self.functions.into_iter().map(|f| f.expect("every queued function is lowered")).collect();
        Ok(Program { functions, sources: self.sources })
    }

    /// The file at `path`, parsed once; `read` gives its text the first time.
    fn parsed(&mut self, path: &Path, read: impl FnOnce(&Path) -> Result<String>) -> Result<Arc<ParsedFile>> {
        if let Some(f) = self.files.get(path) {
            return Ok(f.clone());
        }
        let source = SourceFile::new(path, read(path)?);
        let ast = syntax::parse(&source)?;
        if ast.kind == ast::FileKind::Classdef {
            return Err(Diagnostic::new(ErrorKind::Unsupported, format!("{} is a classdef file", path.display()))
                .with_hint("msad differentiates functions; call the class's methods from a plain function"));
        }
        self.sources.push(source.clone());
        let parsed = Arc::new(ParsedFile { source, ast });
        self.files.insert(path.to_path_buf(), parsed.clone());
        Ok(parsed)
    }

    /// Id of function `name` defined in `file`, queueing it for lowering on first use.
    fn function_id(&mut self, file: &Arc<ParsedFile>, name: &str) -> Option<FuncId> {
        let index = file.ast.functions.iter().position(|f| f.name.name == name)?;
        let key = (file.source.path.clone(), name.to_string());
        if let Some(id) = self.ids.get(&key) {
            return Some(*id);
        }
        let id = self.queue(file, index, vec![]);
        self.ids.insert(key, id);
        self.origins.insert(id, (file.clone(), index));
        Some(id)
    }

    /// A new id for function `index` of `file`, queued for lowering with the arguments `fixed`.
    fn queue(&mut self, file: &Arc<ParsedFile>, index: usize, fixed: Vec<Option<Value>>) -> FuncId {
        let id = FuncId::new(self.functions.len());
        self.functions.push(None);
        self.pending.push((id, Pending::Named { file: file.clone(), index, fixed }));
        id
    }
}

/// The directory msad's library functions appear to live in (in error messages and the source list).
const LIBRARY: &str = "<msad library>";

fn read_source(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Diagnostic::new(ErrorKind::BadInput, format!("cannot read {}: {e}", path.display())))
}

impl Resolver for Loader<'_> {
    fn resolve(&mut self, name: &str, caller: &Arc<SourceFile>) -> Result<Option<Callee>> {
        if let Some(file) = self.files.get(&caller.path).cloned()
            && let Some(id) = self.function_id(&file, name)
        {
            return Ok(Some(Callee::User(id)));
        }
        if let Some(h) = HigherOrder::named(name) {
            return Ok(Some(Callee::HigherOrder(h)));
        }
        if let Some(p) = primitives::builtin(name) {
            return Ok(Some(Callee::Prim(p)));
        }
        let file = match super::library::source(name) {
            Some(text) => self.parsed(&Path::new(LIBRARY).join(format!("{name}.m")), |_| Ok(text.to_string()))?,
            None => match self.host.which(name) {
                Some(path) => self.parsed(&path, read_source)?,
                None => return Ok(None),
            },
        };
        let primary = file.ast.functions.first().map(|f| f.name.name.clone());
        Ok(primary.and_then(|p| self.function_id(&file, &p)).map(Callee::User))
    }

    fn host_defines(&mut self, name: &str) -> bool {
        self.host.defines(name)
    }

    fn add_function(&mut self, func: Function) -> FuncId {
        self.functions.push(Some(func));
        FuncId::new(self.functions.len() - 1)
    }

    fn with_texts(&mut self, id: FuncId, texts: &[Option<String>]) -> FuncId {
        let Some((file, index)) = self.origins.get(&id).cloned() else { return id };
        // Arguments from varargin on are not bound to a name the code could read as a constant.
        let named = file.ast.functions[index].inputs.iter().take_while(|p| !matches!(p, ast::Param::Name(n) if n.name == "varargin"));
        let mut texts: Vec<Option<String>> = texts.iter().zip(named).map(|(text, _)| text.clone()).collect();
        while texts.last().is_some_and(Option::is_none) {
            texts.pop();
        }
        if texts.is_empty() {
            return id;
        }
        if let Some(&specialised) = self.with_texts.get(&(id, texts.clone())) {
            return specialised;
        }
        let fixed = texts.iter().map(|text| text.as_deref().map(Value::string)).collect();
        let specialised = self.queue(&file, index, fixed);
        self.with_texts.insert((id, texts), specialised);
        specialised
    }

    fn nested_function(&mut self, path: &Path, name: &str, captures: Captures) -> Result<FuncId> {
        let func = self.lower_nested(path, name, captures, None)?;
        Ok(self.add_function(func))
    }
}
