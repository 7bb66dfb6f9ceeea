//! Calls through function handles: `f(args)` with `f` a handle, `feval`, `cellfun`, `arrayfun` and
//! `accumarray` with a function.
//! Derivatives flow through the called code element by element: each call's inputs carry their rows of
//! the derivative (cell elements their parts), and the results are assembled with the primitives'
//! own rules (`vertcat`, `reshape`), so they stay on the reverse-mode tape too.

use super::{Interpreter, Slot};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::exec::containers;
use crate::ir::{Callee, HigherOrder};
use crate::prim::CellfunLegacy;
use crate::primitives::index::{Subscript, assign};
use crate::primitives::{self, Forward, Prim, PrimId, runtime};
use crate::value::deriv::{DenseDeriv, Deriv};
use crate::value::{Array, FunctionHandle, StructArray, Value};

/// `cellfun`'s and `arrayfun`'s options after the inputs.
struct MapOptions {
    uniform: bool,
    error_handler: Option<Slot>,
}

impl Interpreter<'_> {
    /// Calls the function `handle` refers to with `args`, asking for `nargout` results.
    pub(super) fn call_handle(&mut self, handle: &Slot, args: Vec<Slot>, nargout: usize) -> Result<Vec<Slot>> {
        let Value::Handle(h) = &handle.value else {
            return Err(runtime(format!("a {} is not a function handle", handle.value.class_name())));
        };
        match &**h {
            FunctionHandle::Compiled { target: Callee::User(id), captured, .. } => {
                let captured_slot = |(k, v): (usize, &Value)| Slot {
                    tape: containers::part_var(&self.tape, handle.tape, k),
                    ..Slot::new(v.clone(), handle.deriv.part(k))
                };
                let mut inputs: Vec<Slot> = captured.iter().enumerate().map(captured_slot).collect();
                inputs.extend(args);
                self.call(*id, inputs, nargout)
            }
            FunctionHandle::Compiled { target: Callee::Prim(id), .. } => self.apply_prim(*id, &args, nargout),
            other => Err(Diagnostic::new(
                ErrorKind::Unsupported,
                format!(
                    "calling the function handle '{}' that came from outside the code (an argument or a global variable)",
                    other.text()
                ),
            )
            .with_hint("capture the handle in the anonymous function given to msad_eval, or call the function by name")),
        }
    }

    /// Runs primitive `id` on slots: the kernel, the forward rule of every result, the tape.
    pub(super) fn apply_prim(&mut self, id: PrimId, args: &[Slot], nargout: usize) -> Result<Vec<Slot>> {
        let values: Vec<&Value> = args.iter().map(|s| &s.value).collect();
        let derivs: Vec<&Deriv> = args.iter().map(|s| &s.deriv).collect();
        let operands: Vec<&Slot> = args.iter().collect();
        let active = derivs.iter().any(|d| !d.is_zero());
        let taped = args.iter().any(|s| s.tape.is_some());
        let results = primitives::eval(id, &values, nargout.max(1))?;
        let results = super::complex_results(id, results, &operands)?;
        let mut out = Vec::with_capacity(results.len());
        for (k, output) in results.into_iter().enumerate().take(nargout.max(1)) {
            let deriv = match active {
                true => primitives::forward_output(id, &Forward { inputs: &values, derivs: &derivs, output: &output }, k)?,
                false => Deriv::Zero,
            };
            let tape = match &mut self.tape {
                Some(tape) if taped => tape.record_result(id, k, &operands, &output)?,
                _ => None,
            };
            out.push(Slot { value: output, deriv, tape });
        }
        Ok(out)
    }

    fn apply_one(&mut self, id: PrimId, args: &[Slot]) -> Result<Slot> {
        Ok(self.apply_prim(id, args, 1)?.remove(0))
    }

    /// `feval`, `cellfun` or `arrayfun` with its arguments.
    pub(super) fn apply(&mut self, kind: HigherOrder, mut args: Vec<Slot>, nargout: usize) -> Result<Vec<Slot>> {
        let name = kind.name();
        match kind {
            HigherOrder::Accumarray => return Ok(vec![self.accumarray(&args)?]),
            HigherOrder::Slope => return Ok(vec![self.slope(&args)?]),
            _ => {}
        }
        if args.is_empty() {
            return Err(runtime(format!("Invalid call to {name}")));
        }
        let func = args.remove(0);
        match (&func.value, kind) {
            (Value::Handle(_), HigherOrder::Feval) => self.call_handle(&func, args, nargout.max(1)),
            (Value::Char(_), HigherOrder::Cellfun) => {
                let text = func.value.as_string().unwrap_or_default();
                let Some(legacy) = kind.legacy_form(&text) else {
                    return Err(function_name_at_run_time(name));
                };
                Ok(vec![Slot::inactive(cellfun_legacy(legacy, &text, &args)?)])
            }
            (Value::Handle(_), _) => self.map(kind, &func, args, nargout),
            (Value::Char(_), _) => Err(function_name_at_run_time(name)),
            (other, _) => Err(runtime(format!("{name}: FCN must be a string or function handle, not a {}", other.class_name()))),
        }
    }

    /// `cellfun(f, c1, c2, ..., options)` or `arrayfun(f, a1, a2, ..., options)`.
    fn map(&mut self, kind: HigherOrder, func: &Slot, mut inputs: Vec<Slot>, nargout: usize) -> Result<Vec<Slot>> {
        let name = kind.name();
        let options = map_options(name, &mut inputs)?;
        let Some(first) = inputs.first() else { return Err(runtime(format!("Invalid call to {name}"))) };
        let dims = first.value.dims();
        for input in &inputs {
            if kind == HigherOrder::Cellfun && !matches!(input.value, Value::Cell(_)) {
                return Err(runtime("cellfun: C must be a cell array"));
            }
            if input.value.dims() != dims {
                return Err(runtime(format!("{name}: all the input arguments must have the same size and shape")));
            }
        }
        let count = nargout.max(1);
        let mut results: Vec<Vec<Slot>> = vec![Vec::new(); count];
        for k in 0..dims.iter().product() {
            let args = inputs.iter().map(|input| self.element(kind, input, k)).collect::<Result<Vec<_>>>()?;
            let outputs = match self.call_handle(func, args.clone(), count) {
                Err(e) if e.kind == ErrorKind::Runtime => match &options.error_handler {
                    Some(handler) => {
                        let handler_args = std::iter::once(Slot::inactive(error_struct(&e, k))).chain(args).collect();
                        self.call_handle(handler, handler_args, count)?
                    }
                    None => return Err(e),
                },
                other => other?,
            };
            results.iter_mut().zip(outputs).for_each(|(r, o)| r.push(o));
        }
        results.into_iter().map(|r| if options.uniform { self.uniform(name, r, &dims) } else { self.untaped_cell(r, &dims) }).collect()
    }

    /// `accumarray(subs, vals, sz, func, fillval)`: `func` gets each group's values as a column, in
    /// the order they come; positions no subscript names get `fillval`.
    fn accumarray(&mut self, args: &[Slot]) -> Result<Slot> {
        let values: Vec<&Value> = args.iter().map(|s| &s.value).collect();
        let func = match args.get(3) {
            Some(f) if matches!(f.value, Value::Handle(_)) => f,
            _ => return self.apply_one(Prim::Accumarray, args),
        };
        let (positions, dims) = primitives::accumarray_groups(&values)?;
        let fill = primitives::accumarray_fill(&values)?;
        let mut groups: Vec<Vec<usize>> = vec![Vec::new(); dims.iter().product()];
        for (k, &p) in positions.iter().enumerate() {
            groups[p].push(if args[1].value.numel() == 1 { 0 } else { k });
        }
        let (mut targets, mut results) = (Vec::new(), Vec::new());
        for (p, rows) in groups.iter().enumerate().filter(|(_, rows)| !rows.is_empty()) {
            let subs = [Subscript::positions(rows.clone())];
            let group = self.index_slot(&args[1], &subs)?;
            let result = self.call_handle(func, vec![group], 1)?.remove(0);
            if result.value.numel() != 1 || result.value.numeric().is_none() {
                return Err(Diagnostic::new(ErrorKind::Unsupported, "accumarray with a FUNC that does not return a numeric scalar"));
            }
            targets.push(p);
            results.push(result);
        }
        let base = Slot::inactive(Value::Double(Array::filled(dims, fill)));
        if results.is_empty() {
            return Ok(base);
        }
        let column = self.apply_one(Prim::Vertcat, &results)?;
        let subs = [Subscript::positions(targets)];
        let tape = match &mut self.tape {
            Some(tape) => tape.record_assign(Some(&base), &column, &subs)?,
            None => None,
        };
        let (value, deriv) = assign(Some((base.value, base.deriv)), &column.value, &column.deriv, &subs)?;
        Ok(Slot { value, deriv, tape })
    }

    /// `__slope__(f, t)`: df/dt of the scalar function `f` at the real scalar `t`, exact: `f` runs once
    /// more in forward mode with t as its one direction and what it captured constant (no tape, no
    /// outer seed, no sparsity detection). The result is a constant.
    fn slope(&mut self, args: &[Slot]) -> Result<Slot> {
        let (Some(handle), Some(t), 2) = (args.first(), args.get(1).and_then(|t| real_scalar(&t.value)), args.len()) else {
            return Err(runtime("__slope__: a function handle and a real scalar are needed"));
        };
        let constant_handle = Slot::inactive(handle.value.clone());
        let seeded = Slot::new(Value::scalar(t), Deriv::Dense(DenseDeriv::from_seed(1, 1, vec![1.0])));
        let outer = (self.tape.take(), self.seed_key.take(), std::mem::replace(&mut self.detect_sparsity, false));
        let result = self.call_handle(&constant_handle, vec![seeded], 1);
        (self.tape, self.seed_key, self.detect_sparsity) = outer;
        let result = result?.swap_remove(0);
        if real_scalar(&result.value).is_none() {
            return Err(runtime(format!("__slope__: the function must return a real scalar, not a {}", result.value.class_name())));
        }
        let slope = match &result.deriv {
            Deriv::Dense(d) => d.data[0],
            Deriv::Sparse(s) => s.row(0).1.iter().sum(),
            Deriv::Zero | Deriv::Parts(_) => 0.0,
        };
        Ok(Slot::inactive(Value::scalar(slope)))
    }

    /// Element `k` of a `cellfun` input (the cell's content) or an `arrayfun` input (`a(k)`).
    fn element(&mut self, kind: HigherOrder, input: &Slot, k: usize) -> Result<Slot> {
        match (&input.value, kind) {
            (Value::Cell(c), HigherOrder::Cellfun) => Ok(Slot::new(c.data[k].clone(), self.untaped(input)?.deriv.part(k))),
            (Value::Struct(_), _) if !input.deriv.is_zero() || input.tape.is_some() => {
                Err(Diagnostic::new(ErrorKind::Unsupported, format!("{} over a struct array holding values that depend on x", kind.name())))
            }
            (Value::Struct(s), _) => {
                let element = StructArray { dims: vec![1, 1], fields: s.fields.clone(), elements: vec![s.elements[k].clone()] };
                Ok(Slot::inactive(Value::Struct(element)))
            }
            _ => {
                let subs = [Subscript::positions(vec![k])];
                self.index_slot(input, &subs)
            }
        }
    }

    /// 'UniformOutput' true: one array of the inputs' size, in the class of the first result (later
    /// results are converted to it, as Octave does).
    fn uniform(&mut self, name: &str, results: Vec<Slot>, dims: &[usize]) -> Result<Slot> {
        if let Some(bad) = results.iter().find(|r| r.value.numel() != 1 || r.value.numeric().is_none()) {
            return Err(match bad.value.numel() {
                // Octave gathers 1x1 cells and structs; msad asks for the cell form.
                1 => Diagnostic::new(
                    ErrorKind::Unsupported,
                    format!("{name} with 'UniformOutput' true and a {} result", bad.value.class_name()),
                )
                .with_hint("pass 'UniformOutput', false"),
                _ => {
                    runtime(format!("{name}: all values must be scalars when UniformOutput = true; use the 'UniformOutput', false options"))
                }
            });
        }
        let Some(class) = results.first().map(|r| r.value.class_name()) else {
            return Ok(Slot::inactive(Value::Double(Array::filled(dims.to_vec(), 0.0))));
        };
        let converted = results
            .into_iter()
            .map(|r| match primitives::lookup(class) {
                Some(convert) if r.value.class_name() != class => self.apply_one(convert, &[r]),
                _ => Ok(r),
            })
            .collect::<Result<Vec<_>>>()?;
        let column = self.apply_one(Prim::Vertcat, &converted)?;
        let size = Value::Double(Array::row(dims.iter().map(|&d| d as f64).collect()));
        self.apply_one(Prim::Reshape, &[column, Slot::inactive(size)])
    }

    /// 'UniformOutput' false: a cell of the inputs' size holding every result.
    fn untaped_cell(&self, results: Vec<Slot>, dims: &[usize]) -> Result<Slot> {
        results.iter().try_for_each(|r| self.untaped(r).map(drop))?;
        let (values, parts): (Vec<Value>, Vec<Deriv>) = results.into_iter().map(|r| (r.value, r.deriv)).unzip();
        Ok(Slot::new(Value::Cell(Array::new(dims.to_vec(), values)), Deriv::from_parts(parts)))
    }
}

fn function_name_at_run_time(name: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("{name} with a function name computed at run time"))
        .with_hint("pass a function handle (@name), or write the name as a literal string")
}

/// Takes the trailing `'UniformOutput', tf` and `'ErrorHandler', h` pairs off `inputs`.
fn map_options(name: &str, inputs: &mut Vec<Slot>) -> Result<MapOptions> {
    let mut options = MapOptions { uniform: true, error_handler: None };
    while inputs.len() >= 3 {
        let key = inputs[inputs.len() - 2].value.as_string().map(|k| k.to_ascii_lowercase());
        let value = &inputs[inputs.len() - 1];
        match key.as_deref() {
            Some("uniformoutput") => {
                let flag = value.value.numeric().filter(|a| a.numel() == 1).map(|a| a.data[0] != 0.0);
                options.uniform = flag.ok_or_else(|| runtime(format!("{name}: UniformOutput value must be a logical scalar")))?;
            }
            Some("errorhandler") => {
                if !matches!(value.value, Value::Handle(_)) {
                    return Err(runtime(format!("{name}: invalid value for 'ErrorHandler' function")));
                }
                options.error_handler = Some(value.clone());
            }
            _ => break,
        }
        inputs.truncate(inputs.len() - 2);
    }
    Ok(options)
}

/// The struct an 'ErrorHandler' receives first: `message`, `identifier`, `index` (1-based).
fn error_struct(e: &Diagnostic, k: usize) -> Value {
    let identifier = e.user_identifier.clone().unwrap_or_default();
    Value::Struct(StructArray {
        dims: vec![1, 1],
        fields: vec!["message".into(), "identifier".into(), "index".into()],
        elements: vec![vec![Value::string(&e.message), Value::string(&identifier), Value::scalar((k + 1) as f64)]],
    })
}

/// `cellfun('isempty', c)` and the other legacy forms (`text` as the code wrote it): a property of every
/// element, computed directly.
fn cellfun_legacy(form: CellfunLegacy, text: &str, args: &[Slot]) -> Result<Value> {
    let Some(Value::Cell(cell)) = args.first().map(|s| &s.value) else {
        return Err(runtime("cellfun: C must be a cell array"));
    };
    let extra = args.get(1).map(|s| &s.value);
    let logical = |f: &dyn Fn(&Value) -> bool| Value::Logical(cell.map(f));
    let double = |f: &dyn Fn(&Value) -> f64| Value::Double(cell.map(f));
    Ok(match (form, extra) {
        (CellfunLegacy::Isempty, None) => logical(&|v| v.numel() == 0),
        (CellfunLegacy::Islogical, None) => logical(&|v| matches!(v, Value::Logical(_))),
        (CellfunLegacy::Isnumeric, None) => logical(&|v| matches!(v, Value::Double(_) | Value::Sparse(_))),
        (CellfunLegacy::Isreal, None) => logical(&|v| v.numeric().is_some()),
        (CellfunLegacy::Length, None) => double(&|v| if v.numel() == 0 { 0.0 } else { v.dims().into_iter().max().unwrap_or(0) as f64 }),
        (CellfunLegacy::Ndims, None) => double(&|v| v.dims().len() as f64),
        (CellfunLegacy::Numel, None) => double(&|v| v.numel() as f64),
        (CellfunLegacy::Size, Some(k)) => {
            let k = k.numeric().filter(|a| a.numel() == 1 && a.data[0] >= 1.0).map(|a| a.data[0] as usize);
            let k = k.ok_or_else(|| runtime("cellfun: K must be a positive integer"))?;
            double(&|v| v.dims().get(k - 1).copied().unwrap_or(1) as f64)
        }
        (CellfunLegacy::Isclass, Some(class)) => {
            let class = class.as_string().ok_or_else(|| runtime("cellfun: CLASS must be a string"))?;
            logical(&|v| v.class_name() == class)
        }
        _ => return Err(runtime(format!("cellfun: wrong number of arguments for '{text}'"))),
    })
}

/// The value of a real double scalar.
fn real_scalar(value: &Value) -> Option<f64> {
    match value {
        Value::Double(a) if a.numel() == 1 => Some(a.data[0]),
        _ => None,
    }
}
