//! docs/builtins.md is generated from the primitive table: this test fails when the file is out of
//! date. Regenerate with `MSAD_UPDATE_DOCS=1 cargo test --release --test builtins_doc`.

mod common;

use common::EXPRESSIONS;
use msad::diag::ErrorKind;
use msad::ir::{HigherOrder, library};
use msad::primitives::{self, Derivative, Hessian, Kernel, Linearity, Primitive, Vjp};
use msad::value::{Array, Complex64, SparseMatrix, Value};
use std::path::PathBuf;

/// What the table cannot say about a builtin.
const NOTES: &[(&str, &str)] = &[
    (
        "abs",
        "derivative sign(x): 0 at 0; complex input: `real(conj(z) dz) / abs(z)` (0 at 0), Hessian its 2 x 2 one in the real and imaginary parts",
    ),
    ("all", "`all(x, dim)`; NaN counts as Octave's two loops count it"),
    ("any", "`any(x, dim)`; NaN counts as false"),
    ("cat", "Octave's empty-operand rules; char wins over numbers, logical only if all are"),
    ("circshift", "`circshift(x, n)`, `(x, [n1 n2 ...])`, `(x, n, dim)`"),
    ("find", "`find(x, n, 'first'|'last')`, `[i, j] = ...`, `[i, j, v] = ...`; v carries x's derivative at the hits"),
    ("horzcat", "`[a, b]`: N-D, Octave's rules for [] and 1x0 operands and for the result class"),
    ("vertcat", "`[a; b]`: as horzcat"),
    ("linspace", "Octave's symmetric rounding for scalar ends; vector ends give one row each"),
    ("logspace", "`logspace(a, pi)` convention"),
    ("meshgrid", "every output carries a derivative"),
    ("ndgrid", "every output carries a derivative"),
    ("mod", "d/dx = 1, d/dy = -floor(x/y) (piecewise); mod(x, 0) = x"),
    ("rem", "d/dx = 1, d/dy = -fix(x/y) (piecewise); rem(x, 0) = NaN"),
    ("max", "at ties the derivative is the first extreme element's (along a dim) or the first operand's (elementwise)"),
    ("min", "as max"),
    ("sort", "equal elements keep their order (stable), each with its own derivative"),
    ("strcat", "char and numeric arguments, trailing whitespace dropped as in Octave; cell arguments are msad:unsupported"),
    ("char", "codes rounded; several strings or a cell give padded rows"),
    (
        "error",
        "`error(msg)` (literal), `error(template, ...)`, `error(id, template, ...)`, `error(err_struct)`: the identifier and message reach Octave or a `catch err` block",
    ),
    ("rethrow", "`rethrow(err)`: a struct with `message` and `identifier` (and `stack`, kept), e.g. a caught `err`"),
    ("throw", "`throw(ME)`: as rethrow"),
    (
        "int8",
        "as every integer class (int8 ... uint64): round half away from zero, saturate, NaN to 0; integers are inactive: an x-dependent value reaching an integer result is msad:notDifferentiable; int op double and int op int (one class) keep the class; int64/uint64 are exact up to 2^53",
    ),
    ("idivide", "Octave 7's idivide.m rules ('fix' default, 'round', 'floor', 'ceil')"),
    ("intmax", "`intmax`, `intmax('int8')`, `intmax(int8(1))`"),
    ("intmin", "as intmax"),
    ("bitand", "as Octave: doubles as uint64 (rounded, negatives 0), integers as two's complement of their class; equal sizes or a scalar"),
    ("bitor", "as bitand"),
    ("bitxor", "as bitand"),
    ("bitshift", "as Octave: a double shifts as a truncated int64 keeping 53 bits, an integer wraps to its class's width"),
    (
        "MException",
        "`MException(id, template, ...)`: MATLAB's call form (Octave 7 has none); gives the struct a `catch err` block sees, not an object",
    ),
    ("mean", "sum / n, default dim the first longer than 1 (Octave's mean.m)"),
    (
        "sprintf",
        "%d %i %u %o %x %X %c %s %f %F %e %E %g %G with flags, width, precision, `*`; Octave's rules for non-integers, NaN/Inf, char arguments",
    ),
    ("num2str", "Octave's default formats, precision and format arguments"),
    ("xor", "implicit expansion; more than two arguments fold"),
    ("logical", "NaN is an error"),
    ("log2", "`[f, e] = log2(x)`: mantissa and exponent as Octave; f's derivative is 2^-e, e has none"),
    ("mtimes", "N-D operands fold into columns"),
    (
        "sparse",
        "`sparse(i, j, v, m, n)`, `sparse(A)`: an x-dependent sparse matrix's derivative has one row per stored entry (entries zero at x kept); `+`, `-`, scalings, transposes, `*`, `\\`, `/` and `full` keep that form, other operations see its elements; reverse mode and Hessians follow it per stored entry (indexing or assigning it: forward mode)",
    ),
    ("spdiags", "`spdiags(B, d, m, n)`; B may depend on x (see sparse)"),
    ("mldivide", "a sparse A: faer's sparse LU, one factorisation for the value, every direction and the adjoint solve"),
    ("mrdivide", "a sparse A: the transposed solve on faer's sparse LU"),
    (
        "accumarray",
        "`accumarray(subs, vals, sz, [], fillval)`: sums, differentiated in vals; with a FUNC handle see below; sparse results are msad:unsupported",
    ),
    ("num2cell", "`num2cell(a)`, `num2cell(a, dims)` (slices along dims); sparse input is msad:unsupported"),
    ("deal", "`[a, b] = deal(x)` and `deal(x1, x2)`"),
    ("func2str", "Octave's text of anonymous functions (its spacing)"),
    ("merge", "numeric or logical MASK; a scalar MASK picks a whole operand"),
    ("ifelse", "as merge"),
    ("real", "complex input: the real part; derivatives through complex values: see complex values in the README"),
    ("imag", "as real; zero derivative for real input, the imaginary part's for complex input that depends on x"),
    ("conj", "as real"),
    ("iscomplex", "true for complex values (`complex(a, b)` stays complex; other results narrow as Octave's)"),
    ("complex", "`complex(re)`, `complex(re, im)`: complex even with zero imaginary parts"),
    (
        "angle",
        "`atan2(imag, real)`; pi for real values with the sign bit set, as Octave; complex input that depends on x: `imag(conj(z) dz) / abs(z)^2`, Hessian its 2 x 2 one in the real and imaginary parts",
    ),
    ("arg", "as angle"),
    (
        "fft",
        "`fft(x)`, `fft(x, n)` (zero padding or truncation), `fft(x, n, dim)`; rustfft (mixed radix, planned once per length); linear: each direction's block transformed (reverse: the transposed rule); results that depend on x stay complex",
    ),
    ("ifft", "as fft, scaled by 1/n"),
    ("print_usage", "raises Octave:invalid-fun-call (Octave's library functions call it on a wrong call)"),
    (
        "expm",
        "Octave's (8, 8) Padé approximant with scaling and squaring (without balancing); forward, reverse and second-order rules from the kernel on [A dA; 0 A]",
    ),
    ("logm", "inverse scaling and squaring; a real eigenvalue <= 0 (complex or no result in Octave) is msad:unsupported; rules as expm"),
    ("sqrtm", "Denman-Beavers iteration; as logm"),
    (
        "chol",
        "upper R from A's upper triangle, as Octave; `[R, p] = chol(A)`; dR = Φ(R^-T dA R^-1) R; Hessian: the kernel on hyper-dual numbers (numel(A) runs per direction)",
    ),
    (
        "eig",
        "values ascending (a general matrix: complex eigenvalues in LAPACK's order, their derivatives `diag(V^-1 dA V)` in forward and reverse mode and Hessians, real spectra only); `[V, D] = eig(A)` of a symmetric A, each column's largest component positive (LAPACK's signs may differ); repeated eigenvalues: msad:notDifferentiable; Hessian of the values and of `[V, D]` in closed form (`W' (Pbar C' - C' Pbar + dPbar) V'`)",
    ),
    (
        "svd",
        "`s = svd(A)`; `[U, S, V] = svd(A)`, `svd(A, 0)`, `svd(A, 'econ')` with Octave's shapes, each v_k's largest component positive (LAPACK's signs may differ); closed-form rules for the thin factors; repeated or zero singular values, and the columns completing a full U or V: msad:notDifferentiable; reverse rules for every result (the transposed thin-factor rules); Hessian of every result (the reverse rules, one formula in the thin factors, on dual numbers carrying the thin factors' tangents); where the first derivative is refused, so is the Hessian",
    ),
    (
        "lu",
        "LAPACK's partial pivoting: `Y = lu(A)` (packed), `[L, U] = lu(A)`, `[L, U, P] = lu(A)`, any m x n; derivative of the same kernel on dual numbers; a pivot tie the direction breaks or a zero pivot: msad:notDifferentiable; reverse mode: `[L, U]` and `[L, U, P]` of a square A by their own O(n^3) adjoint, the packed form and a rectangular A by the transposed rule; Hessian of every result: the kernel on hyper-dual numbers (numel(A) runs per direction)",
    ),
    (
        "qr",
        "Householder as LAPACK (R's signs, Q's completing columns and the packed `X = qr(A)` as Octave 7); `[Q, R] = qr(A)`, `qr(A, 0)`; no column pivoting; derivative of the same kernel on dual numbers; reverse mode: `[Q, R]` of a square A and `qr(A, 0)` of a tall one by their own O(n^3) adjoint, the packed form, a full Q of a tall A and a wide A by the transposed rule; Hessian of every result: the kernel on hyper-dual numbers (numel(A) runs per direction)",
    ),
    (
        "__constant__",
        "its argument without derivative: the library's fzero and fminbnd search on values, then take the implicit function theorem's step",
    ),
    ("getfield", "`getfield(s, name)` of a 1 x 1 struct (the library's optimget reads options with it); no derivative rule"),
    ("setfield", "`setfield(s, name, v)` of a 1 x 1 struct, a new field after the others (the library's optimset); no derivative rule"),
    ("null", "Octave's rank tolerance and cleanup of entries below eps; the basis is not unique: no derivative"),
    ("orth", "Octave's rank tolerance, each column's largest component positive; the basis is not unique: no derivative"),
    ("__interp1__", "linear interpolation for the library's interp1.m: every Octave form of `interp1(..., 'linear')`, NA outside"),
];

/// What the evaluator's higher-order builtins (`ir::HigherOrder`) support.
const HIGHER_ORDER: &[(&str, &str)] = &[
    ("feval", "a handle, or a literal function name (`feval('f', x)` is `f(x)`); a name computed at run time is msad:unsupported"),
    (
        "cellfun",
        "'UniformOutput' (result class from the first result, as Octave), several outputs, 'ErrorHandler', the legacy names 'isempty', 'length', 'size', 'isclass', ... (zero derivative)",
    ),
    ("arrayfun", "as cellfun; over numeric, logical, char, cell and struct arrays"),
    ("accumarray", "with a FUNC handle: FUNC gets each group's values as a column, in order of appearance; numeric scalar results"),
    (
        "__slope__",
        "`__slope__(f, t)`: the exact derivative of a scalar function at a real scalar, f run once more in forward mode in t (the library's fzero takes its implicit function theorem's chord steps with it, fminbnd the slope of its chord steps on df/dt); a constant",
    ),
];

fn forward(kernel: &Kernel) -> &'static str {
    match kernel {
        Kernel::Unary { df: Some(_), .. } => "elementwise rule",
        Kernel::Unary { df: None, .. } => "zero (piecewise constant)",
        Kernel::Binary { .. } => "elementwise partials",
        Kernel::Predicate(_) => "zero (logical result)",
        Kernel::General { derivative: Derivative::Zero, .. } => "zero",
        Kernel::General { derivative: Derivative::Rule(_), .. } => "forward rule",
        Kernel::General { derivative: Derivative::Outputs { .. }, .. } => "forward rules per output",
        Kernel::General { derivative: Derivative::Missing, .. } => "none: error when the input depends on x",
    }
}

/// Whether the record has a derivative at all (every other column is then "zero").
fn differentiable(p: &Primitive) -> bool {
    !matches!(
        p.kernel,
        Kernel::Unary { df: None, .. } | Kernel::Predicate(_) | Kernel::General { derivative: Derivative::Zero | Derivative::Missing, .. }
    )
}

fn reverse(p: &Primitive) -> &'static str {
    match (p.kernel, p.vjp) {
        _ if !differentiable(p) => "-",
        (Kernel::Unary { .. } | Kernel::Binary { .. }, _) => "from the partials",
        (_, Vjp::Transposed) => "transposed forward rule",
        (_, Vjp::Own(_)) => "own rule",
    }
}

fn hessian(p: &Primitive) -> &'static str {
    match (p.linearity, p.hessian) {
        _ if !differentiable(p) => "-",
        (Linearity::Additive, _) => "zero (linear)",
        (Linearity::PiecewiseLinear, _) => "zero (piecewise linear)",
        (_, Hessian::Zero) => "zero",
        (_, Hessian::FromKernel) => "second derivatives",
        (_, Hessian::Bilinear(_)) => "bilinear term",
        (_, Hessian::Own(_)) => "own rule",
        (_, Hessian::Missing) => "none: msad:notDifferentiable",
    }
}

/// How a builtin is tested, from the test sources: the consistency expressions (forward rule vs
/// central differences, reverse vs forward, Hessian vs differences of the gradient), the conformance
/// corpus (values vs Octave) and the Octave tests that call it.
fn tested(name: &str, corpus: &str, octave_tests: &[String]) -> String {
    let call = format!("{name}(");
    let mut ways = Vec::new();
    if EXPRESSIONS.iter().any(|e| e.contains(&call)) {
        ways.push("FD, rev, H".to_string());
    }
    if corpus.contains(&call) {
        ways.push("conformance".to_string());
    }
    let files = octave_tests.iter().filter(|text| text.contains(&call)).count();
    if files > 0 {
        ways.push(format!("{files} Octave test{}", if files == 1 { "" } else { "s" }));
    }
    ways.join("; ")
}

/// Argument lists (all real) the operand probes try in turn: the first one a builtin's kernel
/// accepts is the one its complex and sparse columns vary.
fn probe_forms() -> Vec<Vec<Value>> {
    let matrix = Value::Double(Array::new(vec![3, 3], vec![4.0, 1.0, 2.0, 1.0, 3.0, 1.0, 2.0, 1.0, 5.0]));
    let row = Value::Double(Array::row(vec![1.0, 2.0, 3.0]));
    let scalar = Value::scalar(2.0);
    vec![
        vec![matrix.clone()],
        vec![scalar.clone()],
        vec![row.clone()],
        vec![matrix.clone(), matrix.clone()],
        vec![scalar.clone(), scalar.clone()],
        vec![row.clone(), row.clone()],
        vec![matrix.clone(), scalar.clone()],
        vec![row.clone(), scalar.clone()],
        vec![scalar.clone(), row.clone()],
        vec![row.clone(), row.clone(), row],
        vec![Value::string("%g"), matrix.clone()],
        // Arguments in [0, 1] or [-1, 1] (betainc, legendre), sizes after the data (reshape).
        vec![Value::scalar(0.5), scalar.clone(), scalar.clone()],
        vec![scalar, Value::Double(Array::row(vec![0.1, 0.2, 0.3]))],
        vec![matrix, Value::scalar(9.0), Value::scalar(1.0)],
    ]
}

/// A double operand made complex (imaginary parts 0.5) or sparse; None for other operands.
fn varied(value: &Value, complex: bool) -> Option<Value> {
    let Value::Double(a) = value else { return None };
    Some(match complex {
        true => Value::Complex(a.map(|&x| Complex64::new(x, 0.5))),
        false => Value::Sparse(SparseMatrix::from_dense(a)),
    })
}

/// Whether a builtin's kernel takes a complex (`complex` true) or a sparse operand, found by calling
/// it (the real dispatch, so the column cannot drift from it): the first argument list of
/// `probe_forms` it accepts, with one double operand at a time made complex or sparse. "yes" when
/// some position works, "msad:unsupported" when msad says so, "error" when the kernel raises
/// another error, "-" when no argument list of the probe suits the builtin.
fn operand_probe(name: &str, complex: bool) -> &'static str {
    let id = primitives::lookup(name).expect("listed");
    let call = |args: &[Value]| primitives::eval(id, &args.iter().collect::<Vec<_>>(), 1);
    let Some(form) = probe_forms().into_iter().find(|args| call(args).is_ok()) else { return "-" };
    let outcomes: Vec<_> = (0..form.len())
        .filter_map(|k| {
            let mut args = form.clone();
            args[k] = varied(&form[k], complex)?;
            Some(call(&args))
        })
        .collect();
    let unsupported = |o: &msad::diag::Result<Vec<Value>>| o.as_ref().is_err_and(|e| e.kind == ErrorKind::Unsupported);
    match () {
        _ if outcomes.is_empty() => "-",
        _ if outcomes.iter().any(Result::is_ok) => "yes",
        _ if outcomes.iter().any(unsupported) => "msad:unsupported",
        _ => "error",
    }
}

fn octave_test_sources() -> Vec<String> {
    let dir = common::repo_path("tests/octave");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("tests/octave").map(|e| e.expect("entry").path()).collect();
    files.retain(|f| f.file_name().is_some_and(|n| n.to_string_lossy().starts_with("test_")) && f.extension().is_some_and(|e| e == "m"));
    files.sort();
    files.iter().map(|f| std::fs::read_to_string(f).expect("test source")).collect()
}

fn render() -> String {
    // Entries for a builtin's further outputs are listed under the builtin.
    let further: Vec<&str> =
        primitives::names().filter_map(|n| primitives::get(primitives::lookup(n)?).more_outputs.map(|p| p.name())).collect();
    let mut names: Vec<&str> = primitives::names().filter(|n| primitives::builtin(n).is_some() && !further.contains(n)).collect();
    names.sort_unstable();
    let corpus = std::fs::read_to_string(common::repo_path("tests/octave/conformance/corpus.txt")).expect("conformance corpus");
    let octave_tests = octave_test_sources();
    let mut out = format!(
        "# Builtins\n\n\
         Generated from the primitive table by `tests/builtins_doc.rs` (regenerate with\n\
         `MSAD_UPDATE_DOCS=1 cargo test --release --test builtins_doc`). Every builtin listed is supported ({} builtins);\n\
         any other name is looked up as a `.m` file on the path (Octave's own library included) and\n\
         differentiated as user code; a name found nowhere is Octave's error `Octave:undefined-function` when its\n\
         call runs.\n\n\
         Later outputs carry derivatives where the table says so (`[i, j, v] = find(x)`: v; every grid of\n\
         `meshgrid` and `ndgrid`); reverse mode records each result of a call as its own step (its reverse rule\n\
         gives the operands' adjoints from that result's); Hessians through a later result are msad:notDifferentiable. The columns come from each record's facets: its\n\
         forward rule, its reverse rule (vector-Jacobian product) and its second-order (Hessian) term. Tested:\n\
         'FD, rev, H' = in the consistency expressions (`tests/common/expressions.rs`: forward rule vs central\n\
         differences, reverse vs forward, Hessian vs differences of the gradient); 'conformance' = values vs\n\
         Octave in `tests/octave/conformance`; 'N Octave tests' = called by N of `tests/octave/test_*.m`.\n\
         'complex' and 'sparse': whether the builtin's kernel takes a complex or a sparse operand, found by\n\
         calling it (`operand_probe`: a 3 x 3 matrix, a scalar or a row, one operand at a time made complex\n\
         or sparse; 'yes' when some operand position works, 'msad:unsupported' or 'error' when none does,\n\
         '-' when the probe's argument lists do not suit the builtin), so they follow the real dispatch.\n\n\
         | builtin | forward | reverse | Hessian | complex | sparse | tested | notes |\n|---|---|---|---|---|---|---|---|\n",
        names.len()
    );
    for name in names {
        let p = primitives::get(primitives::lookup(name).expect("listed"));
        let note = NOTES.iter().find(|(n, _)| *n == name).map_or("", |(_, note)| note);
        let how = tested(name, &corpus, &octave_tests);
        let (complex, sparse) = (operand_probe(name, true), operand_probe(name, false));
        out.push_str(&format!(
            "| `{name}` | {} | {} | {} | {complex} | {sparse} | {how} | {note} |\n",
            forward(&p.kernel),
            reverse(p),
            hessian(p)
        ));
    }
    out.push_str("\nRun by the evaluator, calling the function handles they are given (`@name`, anonymous functions with\ncaptured variables, handles to builtins); derivatives flow through the called code element by element:\n\n");
    for (name, note) in HIGHER_ORDER {
        out.push_str(&format!("- `{name}`: {note}\n"));
    }
    out.push_str("\nWritten in MATLAB by msad (`src/ir/library`), differentiated as user code:\n\n");
    for name in library::names() {
        out.push_str(&format!("- `{name}` (`src/ir/library/{name}.m`)\n"));
    }
    out.push_str(&octave_library_scan());
    out
}

/// Names the lowering handles itself (`ir::lower`: `nargin`, `nargout`, `isargout`, `warning`, `lastwarn`).
const LOWERED: [&str; 5] = ["nargin", "nargout", "isargout", "warning", "lastwarn"];

/// The functions Octave's own m-library calls in at least 5 of its files (`scripts/scan_octave_library.sh`
/// writes `docs/octave_library_calls.txt`) that msad does not implement itself (primitives, library
/// functions, higher-order builtins, names the lowering handles).
fn octave_library_scan() -> String {
    let scan = std::fs::read_to_string(common::repo_path("docs/octave_library_calls.txt")).expect("docs/octave_library_calls.txt");
    let library: Vec<&str> = library::names().collect();
    let mut out = String::from(
        "\nCalled by at least 5 files of Octave 7's own m-library (`scripts/scan_octave_library.sh`, which writes\n\
         `docs/octave_library_calls.txt`) and not in the table above: a function Octave implements as a `.m` file\n\
         is read and differentiated as user code (where msad parses it and everything it calls); a compiled builtin is\n\
         not supported (`Octave:undefined-function` when its call runs). Names without backticks: they are\n\
         not msad builtins.\n\n\
         | function | files | status |\n|---|---|---|\n",
    );
    for line in scan.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [name, files, kind] = fields[..] else { panic!("bad line in docs/octave_library_calls.txt: {line}") };
        let evaluated = HigherOrder::names().any(|n| n == name) || LOWERED.contains(&name);
        if primitives::lookup(name).is_some() || library.contains(&name) || evaluated {
            continue;
        }
        let status = match kind {
            "m" => "Octave `.m` file: read and differentiated as user code where msad parses it",
            _ => "compiled builtin: not supported",
        };
        out.push_str(&format!("| {name} | {files} | {status} |\n"));
    }
    out
}

#[test]
fn builtins_doc_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/builtins.md");
    let expected = render();
    if std::env::var_os("MSAD_UPDATE_DOCS").is_some() {
        std::fs::create_dir_all(path.parent().expect("docs dir")).expect("docs dir");
        std::fs::write(&path, &expected).expect("write docs/builtins.md");
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(current == expected, "docs/builtins.md is out of date: run MSAD_UPDATE_DOCS=1 cargo test --release --test builtins_doc");
}

#[test]
fn higher_order_list_is_complete() {
    let listed: Vec<&str> = HIGHER_ORDER.iter().map(|(n, _)| *n).collect();
    let all: Vec<&str> = HigherOrder::names().collect();
    assert_eq!(listed, all);
}

#[test]
fn notes_name_existing_builtins() {
    for (name, _) in NOTES {
        assert!(primitives::lookup(name).is_some(), "note for unknown builtin '{name}'");
    }
}
