//! `msad_eval(fun, x, opts, extra...)`'s arguments, as values, to an engine `Request`: checks the
//! call's shape and parses `opts`. Host-independent, so it is tested without Octave.

use crate::ad::pattern::Pattern;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::engine::{JacobianStorage, MAX_THREADS, Mode, Options, Request, Sparsity};
use crate::value::{Array, FunctionHandle, SparseMatrix, StructArray, Value};
use std::sync::Arc;

pub const USAGE: &str = "[f, J] = msad_eval(fun, x, opts, extra...), or [f, g, H] for a scalar f";
const OPTION_NAMES: [&str; 8] = ["mode", "jacobian", "sparsity", "seed", "wrt", "threads", "verbose", "export"];
/// Arguments of msad_eval before the extra ones: fun, x, opts.
const LEADING_ARGUMENTS: usize = 3;

/// How errors name msad_eval's argument `index` (0-based).
pub fn argument_name(index: usize) -> String {
    match index {
        0 => "fun".to_string(),
        1 => "x".to_string(),
        2 => "opts".to_string(),
        _ => format!("argument {}", index + 1),
    }
}

/// `[]`, what the host reads for an unset element and returns for an output it has no value for.
pub fn empty_matrix() -> Value {
    Value::Double(Array::new(vec![0, 0], vec![]))
}

/// Builds the request from all of msad_eval's inputs and the number of outputs asked for.
pub fn build_request(mut inputs: Vec<Value>, nargout: usize) -> Result<Request> {
    if inputs.len() < 2 {
        return bad_input(format!("msad_eval needs at least fun and x: {USAGE}"));
    }
    if nargout > 3 {
        return bad_input(format!("msad_eval returns at most three outputs: {USAGE}"));
    }
    let pairs = inputs.get(2).is_some_and(|third| matches!(third, Value::Char(_)));
    let rest = inputs.split_off(if pairs { 2 } else { inputs.len().min(LEADING_ARGUMENTS) });
    let (opts, pair_args, extra) = match pairs {
        true => (None, rest, Vec::new()),
        false if inputs.len() == LEADING_ARGUMENTS => (inputs.pop(), Vec::new(), rest),
        false => (None, Vec::new(), rest),
    };
    let x = inputs.pop().expect("at least two inputs");
    let function = function_of(inputs.pop().expect("at least two inputs"))?;
    let args: Vec<Value> = std::iter::once(x).chain(extra).collect();
    let options = match opts {
        _ if pairs => parse_options(name_value_pairs(&pair_args)?, args.len())?,
        None => Options::default(),
        Some(opts) if opts.numel() == 0 => Options::default(),
        Some(Value::Struct(opts)) if opts.elements.len() == 1 => {
            parse_options(opts.fields.iter().map(String::as_str).zip(&opts.elements[0]).collect(), args.len())?
        }
        Some(other) => return bad_input(format!("opts must be a struct, [] or name-value pairs, not a {}", describe_class(&other))),
    };
    check_differentiated(&args, options.wrt)?;
    Ok(Request { function, args, options, nargout: nargout.max(1) })
}

/// `msad_eval(fun, x, 'Name', value, ...)`: the pairs take the place of opts, so extra arguments for
/// fun need the struct form.
fn name_value_pairs(rest: &[Value]) -> Result<Vec<(&str, &Value)>> {
    let pairs = rest.chunks(2).map(|pair| {
        let name = option_name(&pair[0])?;
        match pair {
            [_, value] => Ok((name, value)),
            _ => bad_input(format!("no value follows the option name '{name}' after fun and x: {USAGE}")),
        }
    });
    pairs.collect()
}

/// The option a name-value pair names, in any case.
fn option_name(name: &Value) -> Result<&'static str> {
    let text = name.as_string();
    match text.as_deref().and_then(|text| OPTION_NAMES.iter().find(|known| known.eq_ignore_ascii_case(text))) {
        Some(known) => Ok(known),
        None => bad_input(format!(
            "after fun and x, msad_eval takes opts (a struct) or name-value pairs, and {} is no option name \
             (valid: {}); to pass extra arguments to fun, give opts as a struct: msad_eval(fun, x, struct(...), extra...)",
            text.map_or_else(|| format!("a {}", describe_class(name)), |text| format!("'{text}'")),
            OPTION_NAMES.join(", ")
        )),
    }
}

fn bad_input<T>(message: String) -> Result<T> {
    Err(Diagnostic::new(ErrorKind::BadInput, message))
}

fn describe_class(value: &Value) -> String {
    let dims: Vec<String> = value.dims().iter().map(|d| d.to_string()).collect();
    let complex = if matches!(value, Value::Complex(_)) { "complex " } else { "" };
    format!("{} {complex}{}", dims.join("x"), value.class_name())
}

fn function_of(fun: Value) -> Result<FunctionHandle> {
    match fun {
        Value::Handle(handle) => Ok(Arc::unwrap_or_clone(handle)),
        Value::Char(_) => match fun.as_string() {
            Some(name) if !name.trim().is_empty() => Ok(FunctionHandle::Named(name.trim().to_string())),
            _ => bad_input("fun must be a function handle or a function name, not an empty string".to_string()),
        },
        other => bad_input(format!("fun must be a function handle or a function name, not a {}", describe_class(&other))),
    }
}

fn check_differentiated(args: &[Value], wrt: usize) -> Result<()> {
    match &args[wrt] {
        Value::Double(_) | Value::Sparse(_) => Ok(()),
        other => bad_input(format!(
            "{} is the argument to differentiate (opts.wrt = {}) and must be a real double array, not a {}",
            argument_name(if wrt == 0 { 1 } else { wrt + 2 }),
            wrt + 1,
            describe_class(other)
        )),
    }
}

/// Options by name (any case, as MATLAB users write `Jacobian`); an empty value (`[]`) keeps the default.
fn parse_options(opts: Vec<(&str, &Value)>, arg_count: usize) -> Result<Options> {
    let mut options = Options::default();
    for (name, value) in opts {
        if value.numel() == 0 {
            continue;
        }
        match name.to_ascii_lowercase().as_str() {
            "mode" => options.mode = mode(value)?,
            "jacobian" => options.jacobian = jacobian_storage(value)?,
            "sparsity" => options.sparsity = sparsity(value)?,
            "seed" => options.seed = Some(seed(value)?),
            "wrt" => {
                let wrt = positive_integer(value, "wrt")?;
                if wrt > arg_count {
                    return bad_input(format!(
                        "opts.wrt = {wrt}, but fun takes only {arg_count} argument(s): x and {} extra",
                        arg_count - 1
                    ));
                }
                options.wrt = wrt - 1;
            }
            "threads" => options.threads = Some(thread_count(value)?),
            "verbose" => options.verbose = flag(value, "verbose")?,
            "export" => options.export = Some(function_name(value)?),
            unknown => {
                return bad_input(format!("unknown option '{unknown}'; valid options: {}", OPTION_NAMES.join(", ")));
            }
        }
    }
    if options.seed.is_some()
        && (options.mode == Mode::Reverse || options.jacobian != JacobianStorage::Auto || options.sparsity != Sparsity::Auto)
    {
        return bad_input(
            "opts.seed asks for the compressed product J*S in forward mode: leave opts.mode, opts.jacobian and opts.sparsity unset"
                .to_string(),
        );
    }
    Ok(options)
}

/// A real seed matrix, full or sparse (used densely: a seed has few columns).
fn seed(value: &Value) -> Result<Array<f64>> {
    match value {
        Value::Sparse(s) => Ok(s.to_dense()),
        Value::Double(a) if a.dims.len() == 2 => Ok(a.clone()),
        other => bad_input(format!("opts.seed must be a real 2-D double matrix (numel(x) x p), not a {}", describe_class(other))),
    }
}

/// The name of the exported file's main function: a valid identifier.
fn function_name(value: &Value) -> Result<String> {
    match value.as_string() {
        Some(name)
            if name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
        {
            Ok(name)
        }
        _ => bad_input("opts.export must be the name of the function to write, a valid identifier".to_string()),
    }
}

fn mode(value: &Value) -> Result<Mode> {
    match value.as_string().map(|text| text.to_ascii_lowercase()).as_deref() {
        Some("auto") => Ok(Mode::Auto),
        Some("forward") => Ok(Mode::Forward),
        Some("reverse") => Ok(Mode::Reverse),
        _ => bad_input("opts.mode must be 'auto', 'forward' or 'reverse'".to_string()),
    }
}

fn jacobian_storage(value: &Value) -> Result<JacobianStorage> {
    match value.as_string().map(|text| text.to_ascii_lowercase()).as_deref() {
        Some("auto") => Ok(JacobianStorage::Auto),
        Some("full") => Ok(JacobianStorage::Full),
        Some("sparse") => Ok(JacobianStorage::Sparse),
        Some("pattern") => Ok(JacobianStorage::Pattern),
        _ => bad_input("opts.jacobian must be 'auto', 'full', 'sparse' or 'pattern'".to_string()),
    }
}

/// `'auto'`, `'none'`, or a pattern matrix (logical or numeric, full or sparse; nonzeros are entries).
fn sparsity(value: &Value) -> Result<Sparsity> {
    if let Some(text) = value.as_string() {
        return match text.to_ascii_lowercase().as_str() {
            "auto" => Ok(Sparsity::Auto),
            "none" => Ok(Sparsity::None),
            _ => bad_input("opts.sparsity must be 'auto', 'none' or a pattern matrix".to_string()),
        };
    }
    let matrix = match value {
        Value::Sparse(s) => s.clone(),
        other => match other.numeric() {
            Some(a) if a.dims.len() == 2 => SparseMatrix::from_dense(&a),
            _ => return bad_input("opts.sparsity must be 'auto', 'none' or a 2-D pattern matrix".to_string()),
        },
    };
    // Stored zeros of a sparse matrix are not entries.
    let mut colptr = vec![0];
    let mut rowind = Vec::with_capacity(matrix.nnz());
    for j in 0..matrix.ncols() {
        let range = matrix.colptr()[j]..matrix.colptr()[j + 1];
        rowind.extend(range.filter(|&k| matrix.values()[k] != 0.0).map(|k| matrix.rowind()[k]));
        colptr.push(rowind.len());
    }
    Ok(Sparsity::Pattern(Pattern::from_csc(matrix.nrows(), matrix.ncols(), &colptr, &rowind)))
}

fn scalar(value: &Value) -> Option<f64> {
    match value {
        Value::Double(a) if a.is_scalar() => Some(a.data[0]),
        Value::Logical(a) if a.is_scalar() => Some(f64::from(u8::from(a.data[0]))),
        _ => None,
    }
}

fn positive_integer(value: &Value, option: &str) -> Result<usize> {
    match scalar(value) {
        Some(x) if x >= 1.0 && x.fract() == 0.0 && x.is_finite() => Ok(x as usize),
        _ => bad_input(format!("opts.{option} must be a positive integer")),
    }
}

/// `opts.threads`: at most `MAX_THREADS` (more than any machine msad runs on has cores).
fn thread_count(value: &Value) -> Result<usize> {
    match positive_integer(value, "threads")? {
        threads if threads <= MAX_THREADS => Ok(threads),
        threads => {
            bad_input(format!("opts.threads = {threads} is more than msad uses: give at most {MAX_THREADS} (or [] for one per core)"))
        }
    }
}

/// `true`/`false`, a number, or MATLAB's `'on'`/`'off'`.
fn flag(value: &Value, option: &str) -> Result<bool> {
    let switch = value.as_string().and_then(|text| match text.to_ascii_lowercase().as_str() {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    });
    switch
        .or_else(|| scalar(value).map(|x| x != 0.0))
        .ok_or_else(|| Diagnostic::new(ErrorKind::BadInput, format!("opts.{option} must be true or false ('on' or 'off')")))
}

/// The request as an Octave struct, for the `MSAD_TEST_HOOK=echo` test hook: fields `function`
/// (name or anonymous text), `source` (the file the host found for a named function, or ''),
/// `captured` (struct), `args` (cell), `wrt` (1-based), `jacobian`, `threads` ([] = automatic),
/// `verbose`, `nargout`.
pub fn describe(request: &Request, source: Option<&std::path::Path>) -> Value {
    let (function, captured) = match &request.function {
        FunctionHandle::Anonymous { text, captured, .. } => (text.clone(), captured.to_vec()),
        named => (named.text().to_string(), Vec::new()),
    };
    let (captured_names, captured_values) = captured.into_iter().unzip();
    let options = &request.options;
    let jacobian = match options.jacobian {
        JacobianStorage::Auto => "auto",
        JacobianStorage::Full => "full",
        JacobianStorage::Sparse => "sparse",
        JacobianStorage::Pattern => "pattern",
    };
    let threads = match options.threads {
        Some(n) => Value::scalar(n as f64),
        None => empty_matrix(),
    };
    let fields = [
        ("function", Value::string(&function)),
        ("source", Value::string(&source.map(|path| path.display().to_string()).unwrap_or_default())),
        ("captured", Value::Struct(StructArray { dims: vec![1, 1], fields: captured_names, elements: vec![captured_values] })),
        ("args", Value::Cell(Array::row(request.args.clone()))),
        ("wrt", Value::scalar((options.wrt + 1) as f64)),
        ("jacobian", Value::string(jacobian)),
        ("threads", threads),
        ("verbose", Value::Logical(Array::scalar(options.verbose))),
        ("nargout", Value::scalar(request.nargout as f64)),
    ];
    let (names, values) = fields.into_iter().map(|(name, value)| (name.to_string(), value)).unzip();
    Value::Struct(StructArray { dims: vec![1, 1], fields: names, elements: vec![values] })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handle(name: &str) -> Value {
        Value::Handle(Arc::new(FunctionHandle::Named(name.to_string())))
    }

    fn opts(fields: &[(&str, Value)]) -> Value {
        Value::Struct(StructArray {
            dims: vec![1, 1],
            fields: fields.iter().map(|(name, _)| name.to_string()).collect(),
            elements: vec![fields.iter().map(|(_, value)| value.clone()).collect()],
        })
    }

    fn bad_input_message(result: Result<Request>) -> String {
        let error = result.err().expect("an error");
        assert_eq!(error.identifier(), "msad:badInput");
        error.message
    }

    #[test]
    fn defaults_without_opts() {
        let request = build_request(vec![handle("f"), Value::scalar(2.0)], 0).unwrap();
        assert_eq!(request.function, FunctionHandle::Named("f".to_string()));
        assert_eq!(request.args, vec![Value::scalar(2.0)]);
        assert_eq!(request.nargout, 1);
        assert_eq!(request.options.wrt, 0);
        assert_eq!(request.options.jacobian, JacobianStorage::Auto);
    }

    #[test]
    fn extra_arguments_follow_x_and_empty_opts_is_default() {
        let request = build_request(vec![Value::string("rhs"), Value::scalar(1.0), empty_matrix(), Value::string("p")], 2).unwrap();
        assert_eq!(request.function, FunctionHandle::Named("rhs".to_string()));
        assert_eq!(request.args, vec![Value::scalar(1.0), Value::string("p")]);
        assert_eq!(request.nargout, 2);
    }

    #[test]
    fn options_are_parsed() {
        let o = opts(&[
            ("mode", Value::string("Reverse")),
            ("jacobian", Value::string("Sparse")),
            ("wrt", Value::scalar(2.0)),
            ("threads", Value::scalar(4.0)),
            ("verbose", Value::Logical(Array::scalar(true))),
        ]);
        let request = build_request(vec![handle("f"), Value::string("t"), o, Value::scalar(3.0)], 2).unwrap();
        assert_eq!(request.options.mode, Mode::Reverse);
        assert_eq!(request.options.jacobian, JacobianStorage::Sparse);
        assert_eq!(request.options.wrt, 1);
        assert_eq!(request.options.threads, Some(4));
        assert!(request.options.verbose);
    }

    #[test]
    fn option_names_in_any_case_and_on_off_flags() {
        let request = build_request(
            vec![handle("f"), Value::scalar(1.0), opts(&[("Jacobian", Value::string("Sparse")), ("Verbose", Value::string("on"))])],
            2,
        )
        .unwrap();
        assert_eq!(request.options.jacobian, JacobianStorage::Sparse);
        assert!(request.options.verbose);
        let request = build_request(vec![handle("f"), Value::scalar(1.0), opts(&[("VERBOSE", Value::string("OFF"))])], 2).unwrap();
        assert!(!request.options.verbose);
        assert!(
            bad_input_message(build_request(vec![handle("f"), Value::scalar(1.0), opts(&[("verbose", Value::string("yes"))])], 1))
                .contains("'on' or 'off'")
        );
    }

    #[test]
    fn name_value_pairs_take_the_place_of_opts() {
        let inputs = vec![
            handle("f"),
            Value::scalar(1.0),
            Value::string("Jacobian"),
            Value::string("full"),
            Value::string("threads"),
            Value::scalar(2.0),
            Value::string("verbose"),
            Value::string("on"),
        ];
        let request = build_request(inputs, 2).unwrap();
        assert_eq!(request.options.jacobian, JacobianStorage::Full);
        assert_eq!(request.options.threads, Some(2));
        assert!(request.options.verbose);
        assert_eq!(request.args.len(), 1);
        let message =
            bad_input_message(build_request(vec![handle("f"), Value::scalar(1.0), Value::string("jacobain"), Value::string("full")], 2));
        assert!(message.contains("'jacobain' is no option name") && message.contains("struct(...), extra..."), "{message}");
        let message = bad_input_message(build_request(
            vec![handle("f"), Value::scalar(1.0), Value::string("mode"), Value::string("forward"), Value::string("wrt")],
            2,
        ));
        assert!(message.contains("no value follows"), "{message}");
        let message = bad_input_message(build_request(
            vec![handle("f"), Value::scalar(1.0), Value::string("mode"), Value::string("forward"), Value::scalar(3.0), Value::scalar(4.0)],
            2,
        ));
        assert!(message.contains("a 1x1 double is no option name"), "{message}");
    }

    #[test]
    fn unknown_option_names_the_valid_ones() {
        let message =
            bad_input_message(build_request(vec![handle("f"), Value::scalar(1.0), opts(&[("jacobain", Value::string("full"))])], 1));
        assert!(message.contains("'jacobain'") && message.contains("mode, jacobian, sparsity, seed, wrt, threads, verbose"), "{message}");
    }

    #[test]
    fn bad_calls_are_bad_input() {
        let cell_x = Value::Cell(Array::row(vec![Value::scalar(1.0)]));
        let message = bad_input_message(build_request(vec![handle("f"), cell_x], 1));
        assert!(message.contains("x is the argument to differentiate"), "{message}");
        bad_input_message(build_request(vec![handle("f")], 1));
        bad_input_message(build_request(vec![handle("f"), Value::scalar(1.0)], 4));
        bad_input_message(build_request(vec![Value::scalar(1.0), Value::scalar(1.0)], 1));
        bad_input_message(build_request(vec![handle("f"), Value::scalar(1.0), Value::scalar(1.0)], 1));
        bad_input_message(build_request(vec![handle("f"), Value::scalar(1.0), opts(&[("wrt", Value::scalar(2.0))])], 1));
        bad_input_message(build_request(vec![handle("f"), Value::scalar(1.0), opts(&[("threads", Value::scalar(0.5))])], 1));
        bad_input_message(build_request(vec![handle("f"), Value::scalar(1.0), opts(&[("mode", Value::string("sideways"))])], 1));
    }

    #[test]
    fn describe_lists_the_request() {
        let request = build_request(vec![handle("f"), Value::scalar(1.0)], 2).unwrap();
        let Value::Struct(described) = describe(&request, Some(std::path::Path::new("/m/f.m"))) else { panic!("a struct") };
        assert_eq!(described.fields, ["function", "source", "captured", "args", "wrt", "jacobian", "threads", "verbose", "nargout"]);
        assert_eq!(described.elements[0][..2], [Value::string("f"), Value::string("/m/f.m")]);
    }
}
