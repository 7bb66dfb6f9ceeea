//! Character arrays: comparison (`strcmp` family), case, trimming, blanks, building (`char`,
//! `strcat`), numbers as text (`sprintf`, `num2str`). Results are text or logical, so none has a
//! derivative.

use super::printf::{sprintf, unescape};
use super::{IntegerArgs, Prim, Primitive, check_arity, runtime, zero_derivative};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::{Array, Value};

primitive_names! {
    Strcmp = "strcmp",
    Strcmpi = "strcmpi",
    Strncmp = "strncmp",
    Strncmpi = "strncmpi",
    Upper = "upper",
    Toupper = "toupper",
    Lower = "lower",
    Tolower = "tolower",
    Strtrim = "strtrim",
    Deblank = "deblank",
    Blanks = "blanks",
    Char = "char",
    Strcat = "strcat",
    Sprintf = "sprintf",
    PrintUsage = "print_usage",
    Num2str = "num2str",
    Int2str = "int2str",
    Mat2str = "mat2str",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        zero_derivative(Prim::Strcmp, |a, _| compare("strcmp", a, None, false)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Strcmpi, |a, _| compare("strcmpi", a, None, true)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Strncmp, |a, _| compare_prefix("strncmp", a, false)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Strncmpi, |a, _| compare_prefix("strncmpi", a, true)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Upper, |a, _| change_case("upper", a, to_upper)),
        zero_derivative(Prim::Toupper, |a, _| change_case("toupper", a, to_upper)),
        zero_derivative(Prim::Lower, |a, _| change_case("lower", a, to_lower)),
        zero_derivative(Prim::Tolower, |a, _| change_case("tolower", a, to_lower)),
        zero_derivative(Prim::Strtrim, eval_strtrim),
        zero_derivative(Prim::Deblank, eval_deblank),
        zero_derivative(Prim::Blanks, eval_blanks),
        zero_derivative(Prim::Char, eval_char),
        zero_derivative(Prim::Strcat, eval_strcat),
        zero_derivative(Prim::Sprintf, eval_sprintf).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::PrintUsage, eval_print_usage).raises(),
        zero_derivative(Prim::Num2str, eval_num2str).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::Int2str, eval_int2str).integers(IntegerArgs::ClassFree),
        zero_derivative(Prim::Mat2str, eval_mat2str),
    ]
}

fn to_upper(c: &u16) -> u16 {
    if (b'a' as u16..=b'z' as u16).contains(c) { c - 32 } else { *c }
}

fn to_lower(c: &u16) -> u16 {
    if (b'A' as u16..=b'Z' as u16).contains(c) { c + 32 } else { *c }
}

fn chars(v: &Value) -> Option<&Array<u16>> {
    match v {
        Value::Char(a) => Some(a),
        _ => None,
    }
}

/// `strcmp(a, b)`: both char arrays of equal dims and contents (optionally ignoring case); any
/// other pair of values is simply not equal. A cell array compares each of its elements, giving a
/// logical array of its shape (two cells: element by element, or a 1 x 1 cell with each element of the
/// other, as Octave).
fn compare(name: &str, args: &[&Value], n: Option<usize>, ignore_case: bool) -> Result<Vec<Value>> {
    check_arity(name, args, 2, 2)?;
    let fold = |c: &u16| if ignore_case { to_lower(c) } else { *c };
    let equal = |a: &Value, b: &Value| match (chars(a), chars(b)) {
        (Some(a), Some(b)) => match n {
            None => a.dims == b.dims && a.data.iter().map(fold).eq(b.data.iter().map(fold)),
            Some(n) => a.numel() >= n && b.numel() >= n && a.data[..n].iter().map(fold).eq(b.data[..n].iter().map(fold)),
        },
        _ => false,
    };
    let result = match (args[0], args[1]) {
        (Value::Cell(a), Value::Cell(b)) if a.numel() == 1 => {
            Array::new(b.dims.clone(), b.data.iter().map(|v| equal(&a.data[0], v)).collect())
        }
        (Value::Cell(a), Value::Cell(b)) if b.numel() == 1 || a.dims == b.dims => Array::new(
            a.dims.clone(),
            a.data.iter().enumerate().map(|(k, v)| equal(v, &b.data[if b.numel() == 1 { 0 } else { k }])).collect(),
        ),
        (Value::Cell(_), Value::Cell(_)) => return Err(runtime(format!("{name}: nonconformant cell arrays"))),
        (Value::Cell(c), other) | (other, Value::Cell(c)) if chars(other).is_some() => {
            Array::new(c.dims.clone(), c.data.iter().map(|v| equal(v, other)).collect())
        }
        (a, b) => Array::scalar(equal(a, b)),
    };
    Ok(vec![Value::Logical(result)])
}

/// `strncmp(a, b, n)`: the first n characters are equal (false when either is shorter).
fn compare_prefix(name: &str, args: &[&Value], ignore_case: bool) -> Result<Vec<Value>> {
    check_arity(name, args, 3, 3)?;
    let n = match args[2].numeric().as_deref().map(|a| a.data.as_slice()) {
        Some([n]) if *n > 0.0 && n.fract() == 0.0 => *n as usize,
        _ => return Err(runtime(format!("{name}: N must be greater than 0"))),
    };
    compare(name, &args[..2], Some(n), ignore_case)
}

/// `upper`/`lower`: letters of char arrays change case; other values are returned unchanged.
fn change_case(name: &str, args: &[&Value], f: fn(&u16) -> u16) -> Result<Vec<Value>> {
    check_arity(name, args, 1, 1)?;
    Ok(vec![match args[0] {
        Value::Char(a) => Value::Char(a.map(f)),
        other => other.clone(),
    }])
}

/// Octave's whitespace for trimming: space, \t, \n, \v, \f, \r and NUL.
fn is_blank(c: u16) -> bool {
    matches!(c, 0 | 9..=13 | 32)
}

/// The columns `first..last` of a char matrix (all rows).
fn columns(a: &Array<u16>, keep: std::ops::Range<usize>) -> Value {
    let rows = a.rows();
    let data = keep.clone().flat_map(|j| a.data[j * rows..(j + 1) * rows].iter().copied()).collect();
    Value::Char(Array::new(vec![rows, keep.len()], data))
}

fn text_argument<'v>(name: &str, args: &[&'v Value]) -> Result<&'v Array<u16>> {
    check_arity(name, args, 1, 1)?;
    chars(args[0]).filter(|a| a.dims.len() == 2).ok_or_else(|| runtime(format!("{name}: S argument must be a string or cellstring")))
}

/// Whether column j of a char matrix is blank in every row.
fn blank_column(a: &Array<u16>, j: usize) -> bool {
    a.data[j * a.rows()..(j + 1) * a.rows()].iter().all(|&c| is_blank(c))
}

/// `strtrim(s)`: drops the blank columns at both ends (a row loses its leading and trailing blanks).
pub(super) fn eval_strtrim(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let a = text_argument("strtrim", args)?;
    let cols = a.cols();
    let first = (0..cols).find(|&j| !blank_column(a, j)).unwrap_or(cols);
    let last = (first..cols).rev().find(|&j| !blank_column(a, j)).map_or(first, |j| j + 1);
    Ok(vec![columns(a, first..last)])
}

/// `deblank(s)`: drops the blank columns at the end.
fn eval_deblank(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let a = text_argument("deblank", args)?;
    let last = (0..a.cols()).rev().find(|&j| !blank_column(a, j)).map_or(0, |j| j + 1);
    Ok(vec![columns(a, 0..last)])
}

fn eval_blanks(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("blanks", args, 1, 1)?;
    let n = match args[0].numeric().as_deref().map(|a| a.data.as_slice()) {
        Some([n]) if *n >= 0.0 && n.fract() == 0.0 => *n as usize,
        _ => return Err(runtime("blanks: N must be a non-negative integer")),
    };
    crate::value::memory::check(n, size_of::<u16>())?;
    Ok(vec![Value::string(&" ".repeat(n))])
}

/// Numbers as character codes, rounded as Octave's `char` does; a char array as it is.
fn codes(name: &str, v: &Value) -> Result<Array<u16>> {
    match v {
        Value::Char(a) => Ok(a.clone()),
        other => match other.numeric() {
            Some(x) if x.data.iter().all(|c| (0.0..65536.0).contains(&c.round())) => {
                Ok(Array::new(x.dims.clone(), x.data.iter().map(|c| c.round() as u16).collect()))
            }
            _ => Err(runtime(format!("{name}: wrong type argument '{}'", other.class_name()))),
        },
    }
}

/// The strings of a text argument of `char` or `strcat`, as `cellstr` sees them: a matrix's rows
/// (an empty one is one empty string) or a cell's elements.
fn text_rows(name: &str, v: &Value) -> Result<Vec<Vec<u16>>> {
    if let Value::Cell(c) = v {
        return c.data.iter().map(|e| text_rows(name, e).map(|rows| rows.concat())).collect();
    }
    let a = codes(name, v)?;
    let (rows, cols) = (a.dims[0], a.numel() / a.dims[0].max(1));
    Ok(if rows == 0 { vec![vec![]] } else { (0..rows).map(|r| (0..cols).map(|j| a.data[r + j * rows]).collect()).collect() })
}

/// Rows as a char matrix, padded with blanks to the longest.
pub(super) fn padded_rows(rows: &[Vec<u16>]) -> Value {
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut text = Array::filled(vec![rows.len(), width], b' ' as u16);
    for (r, row) in rows.iter().enumerate() {
        row.iter().enumerate().for_each(|(j, &c)| text.data[r + j * rows.len()] = c);
    }
    Value::Char(text)
}

/// `char(x)`: codes to characters; `char(a, b, ...)` and `char({...})`: one padded row per string.
fn eval_char(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("char", args, 1, usize::MAX)?;
    if let [v] = args
        && !matches!(v, Value::Cell(_))
    {
        return Ok(vec![Value::Char(codes("char", v)?)]);
    }
    let rows: Vec<Vec<Vec<u16>>> = args.iter().map(|v| text_rows("char", v)).collect::<Result<_>>()?;
    Ok(vec![padded_rows(&rows.concat())])
}

/// `strcat(a, b, ...)` of char (or numeric) arguments: row by row, each piece without its trailing
/// whitespace (single-row arguments go with every row), padded into a char matrix.
fn eval_strcat(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    if args.iter().any(|v| matches!(v, Value::Cell(_))) {
        return Err(Diagnostic::new(ErrorKind::Unsupported, "strcat of cell arrays")
            .with_hint("concatenate the strings with [a, b] or compute them outside the differentiated function"));
    }
    let pieces: Vec<Vec<Vec<u16>>> = args.iter().map(|v| text_rows("strcat", v)).collect::<Result<_>>()?;
    let count = pieces.iter().map(Vec::len).filter(|&n| n != 1).max().unwrap_or(1);
    if pieces.iter().any(|p| p.len() != 1 && p.len() != count) {
        return Err(runtime("strcat: arguments must be the same size, or be scalars"));
    }
    // Each result row holds a piece of every argument: memory for all of them before the first.
    let widest = |p: &Vec<Vec<u16>>| p.iter().map(Vec::len).max().unwrap_or(0);
    let width = pieces.iter().map(widest).fold(0usize, usize::saturating_add);
    crate::value::memory::check(count.saturating_mul(width), size_of::<u16>())?;
    let trimmed = |row: &[u16]| row[..row.iter().rposition(|&c| !is_blank(c)).map_or(0, |j| j + 1)].to_vec();
    let rows: Vec<Vec<u16>> =
        (0..count).map(|r| pieces.iter().flat_map(|p| trimmed(&p[if p.len() == 1 { 0 } else { r }])).collect()).collect();
    Ok(vec![if args.is_empty() { Value::string("") } else { padded_rows(&rows) }])
}

pub(super) fn template(name: &str, v: &Value) -> Result<String> {
    match v {
        Value::Char(a) => Ok(String::from_utf16_lossy(&a.data)),
        _ => Err(runtime(format!("{name}: format TEMPLATE must be a string"))),
    }
}

fn eval_sprintf(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    let Some((format, rest)) = args.split_first() else { return Err(runtime("Invalid call to sprintf")) };
    Ok(vec![Value::string(&sprintf(&template("sprintf", format)?, rest)?)])
}

/// Octave's library functions call `print_usage()` on a wrong call; Octave's own prints the help text.
fn eval_print_usage(_: &[&Value], _: usize) -> Result<Vec<Value>> {
    Err(Diagnostic::new(ErrorKind::Runtime, "Invalid call").with_identifier("Octave:invalid-fun-call"))
}

/// The numbers of x (not char: text is returned as it is), or None for an empty x, which gives ''.
fn numbers_of<'v>(name: &str, x: &'v Value) -> Result<Option<std::borrow::Cow<'v, Array<f64>>>> {
    let numbers = match x {
        Value::Double(_) | Value::Sparse(_) | Value::Logical(_) => x.numeric().expect("numeric"),
        _ => return Err(runtime(format!("{name}: X must be a numeric, logical, or character array"))),
    };
    Ok((numbers.numel() > 0).then_some(numbers))
}

fn empty_text() -> Value {
    Value::Char(Array::new(vec![0, 0], vec![]))
}

/// `num2str(x)`, `num2str(x, precision)`, `num2str(x, format)`: Octave's formats (enough significant
/// digits for the largest element, integers without decimals), one line per row of x (pages side by
/// side), common blank columns trimmed.
fn eval_num2str(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("num2str", args, 1, 2)?;
    let x = args[0];
    if matches!(x, Value::Char(_)) {
        return Ok(vec![x.clone()]);
    }
    let Some(numbers) = numbers_of("num2str", x)? else { return Ok(vec![empty_text()]) };
    let logical = matches!(x, Value::Logical(_));
    let format = match args.get(1) {
        Some(Value::Char(f)) => unescape(&String::from_utf16_lossy(&f.data)),
        Some(p) => match p.numeric().as_deref().map(|a| a.data.as_slice()) {
            Some([p]) if *p >= 0.0 && p.fract() == 0.0 && !logical => format!("%{}.{}g", *p as usize + 7, *p as usize),
            Some([p]) if *p >= 0.0 && p.fract() == 0.0 => format!("%{}d", *p as usize),
            _ => return Err(runtime("num2str: PRECISION must be a scalar integer >= 0")),
        },
        None if logical => "%3d".to_string(),
        None => {
            let finite = numbers.data.iter().filter(|v| v.is_finite());
            if largest_digits(&numbers.data) > 15 || finite.clone().any(|v| v.fract() != 0.0) {
                let significant = (largest_digits(&numbers.data) + 5).clamp(5, 16);
                format!("%{}.{}g", significant + 7, significant)
            } else {
                integer_format(&numbers.data)
            }
        }
    };
    text_lines(&numbers, &format)
}

/// `int2str(x)`: x rounded, printed as num2str prints integers.
fn eval_int2str(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("int2str", args, 1, 1)?;
    if matches!(args[0], Value::Char(_)) {
        return Ok(vec![args[0].clone()]);
    }
    let Some(numbers) = numbers_of("int2str", args[0])? else { return Ok(vec![empty_text()]) };
    let rounded = numbers.map(|v| v.round());
    text_lines(&rounded, &integer_format(&rounded.data))
}

/// floor(log10(largest finite magnitude)), 0 when there is none or it is 0.
fn largest_digits(x: &[f64]) -> i64 {
    let largest = x.iter().filter(|v| v.is_finite()).fold(0.0f64, |m, v| m.max(v.abs()));
    if largest == 0.0 { 0 } else { largest.log10().floor() as i64 }
}

/// `%N.0f` with room for the digits, a sign and a separator (and for Inf/NaN).
fn integer_format(x: &[f64]) -> String {
    let width = largest_digits(x) + 3;
    let width = if x.iter().all(|v| v.is_finite()) { width } else { width.max(5) };
    format!("%{width}.0f")
}

/// One line of text per row of x (pages side by side), printed with `format` repeated across the
/// row, as a char matrix with the common blank columns trimmed.
fn text_lines(numbers: &Array<f64>, format: &str) -> Result<Vec<Value>> {
    let (rows, per_row) = (numbers.dims[0], numbers.numel() / numbers.dims[0]);
    let ordered: Vec<f64> = (0..rows).flat_map(|r| (0..per_row).map(move |k| numbers.data[r + k * rows])).collect();
    let conversions = format.replace("%%", "").matches('%').count();
    let line = if conversions > 1 || format == "%s" || format == "%c" {
        format.to_string()
    } else {
        format!("{}\n", format.repeat(per_row).trim_end())
    };
    let text = sprintf(&line, &[&Value::Double(Array::row(ordered))])?;
    let lines: Vec<Vec<u16>> = text.split('\n').filter(|l| !l.is_empty()).map(|l| l.encode_utf16().collect()).collect();
    eval_strtrim(&[&padded_rows(&lines)], 1)
}

/// `mat2str(x, n)`: MATLAB syntax for a 2-D array, numbers with n (15) significant digits.
fn eval_mat2str(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("mat2str", args, 1, 2)?;
    let x = args[0];
    let dims = x.dims();
    if dims.len() > 2 {
        return Err(runtime("mat2str: X must be two dimensional"));
    }
    let digits = match args.get(1).map(|p| p.numeric()) {
        None => 15,
        Some(Some(p)) if p.numel() == 1 => p.data[0] as usize,
        Some(_) => return Err(runtime("mat2str: N must be a scalar")),
    };
    let (rows, cols) = (dims[0], dims[1]);
    let numbers = match x {
        Value::Char(_) | Value::Logical(_) => None,
        _ => numbers_of("mat2str", x)?,
    };
    let format = format!("%.{digits}g");
    let row_text = |r: usize| -> Result<String> {
        match (x, &numbers) {
            (Value::Char(a), _) => {
                Ok(format!("\"{}\"", String::from_utf16_lossy(&(0..cols).map(|j| a.data[r + j * rows]).collect::<Vec<_>>())))
            }
            (Value::Logical(a), _) => {
                Ok((0..cols).map(|j| if a.data[r + j * rows] { "true" } else { "false" }).collect::<Vec<_>>().join(" "))
            }
            (_, None) => Ok(String::new()),
            (_, Some(numbers)) => {
                let texts = (0..cols).map(|j| sprintf(&format, &[&Value::scalar(numbers.data[r + j * rows])]));
                Ok(texts.collect::<Result<Vec<_>>>()?.join(" "))
            }
        }
    };
    let text = if x.numel() == 0 {
        "[]".to_string()
    } else {
        let lines = (0..rows).map(row_text).collect::<Result<Vec<_>>>()?.join(";");
        let single = x.numel() == 1 || matches!(x, Value::Char(_)) && rows == 1;
        if single { lines } else { format!("[{lines}]") }
    };
    Ok(vec![Value::string(&text)])
}
