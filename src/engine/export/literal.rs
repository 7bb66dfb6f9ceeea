//! Values as Octave source text, for the constants an exported file carries (captured variables and
//! extra arguments): numbers written so that they read back bit for bit.

use crate::value::{Array, SparseMatrix, Value};

/// `value` as an expression, or `None` for values that have no source form (function handles).
pub(super) fn literal(value: &Value) -> Option<String> {
    Some(match value {
        Value::Double(a) => shaped(a, number),
        Value::Logical(a) => format!("logical({})", shaped(a, |b| if *b { "1".into() } else { "0".into() })),
        Value::Char(a) => char_literal(a),
        Value::Int(class, a) => format!("{}({})", class.name(), shaped(a, number)),
        Value::Complex(a) => {
            let re = Array { dims: a.dims.clone(), data: a.data.iter().map(|z| z.re).collect() };
            let im = Array { dims: a.dims.clone(), data: a.data.iter().map(|z| z.im).collect() };
            format!("complex({}, {})", shaped(&re, number), shaped(&im, number))
        }
        Value::Sparse(s) => sparse_literal(s),
        Value::ComplexSparse(s) => format!("complex({}, {})", sparse_literal(&s.part(false)), sparse_literal(&s.part(true))),
        Value::Cell(a) => {
            let items: Option<Vec<String>> = a.data.iter().map(literal).collect();
            format!("reshape({{{}}}, {})", items?.join(", "), dims_text(&a.dims))
        }
        Value::Struct(s) => {
            let mut args = Vec::new();
            for (f, field) in s.fields.iter().enumerate() {
                let items: Option<Vec<String>> = s.elements.iter().map(|e| literal(&e[f])).collect();
                args.push(format!("'{field}', {{{}}}", items?.join(", ")));
            }
            let dims = dims_text(&s.dims);
            match args.is_empty() {
                true => format!("repmat(struct(), {dims})"),
                false => format!("reshape(struct({}), {dims})", args.join(", ")),
            }
        }
        Value::Handle(_) => return None,
    })
}

/// `sparse(i, j, v, m, n)` with every stored entry.
fn sparse_literal(s: &SparseMatrix) -> String {
    let (mut rows, mut cols) = (Vec::new(), Vec::new());
    for j in 0..s.ncols() {
        for k in s.colptr()[j]..s.colptr()[j + 1] {
            rows.push(number(&((s.rowind()[k] + 1) as f64)));
            cols.push(number(&((j + 1) as f64)));
        }
    }
    let values: Vec<String> = s.values().iter().map(number).collect();
    format!("sparse([{}], [{}], [{}], {}, {})", rows.join(", "), cols.join(", "), values.join(", "), s.nrows(), s.ncols())
}

/// A number that reads back as the same double.
fn number(x: &f64) -> String {
    match *x {
        x if x.is_nan() => "NaN".into(),
        x if x == f64::INFINITY => "Inf".into(),
        x if x == f64::NEG_INFINITY => "-Inf".into(),
        x if x == x.trunc() && x.abs() < 1e15 => format!("{x:.0}"),
        x => format!("{x:e}"),
    }
}

fn dims_text(dims: &[usize]) -> String {
    format!("[{}]", dims.iter().map(usize::to_string).collect::<Vec<_>>().join(" "))
}

/// A scalar as itself, anything else as `reshape([...], dims)`.
fn shaped<T>(a: &Array<T>, item: impl Fn(&T) -> String) -> String {
    let items: Vec<String> = a.data.iter().map(item).collect();
    match (a.dims.as_slice(), items.as_slice()) {
        ([1, 1], [only]) => only.clone(),
        _ => format!("reshape([{}], {})", items.join(", "), dims_text(&a.dims)),
    }
}

fn char_literal(a: &Array<u16>) -> String {
    let printable = a.data.iter().all(|&c| (0x20..0x7f).contains(&c));
    match a.dims.as_slice() {
        [1, _] if printable => format!("'{}'", String::from_utf16_lossy(&a.data).replace('\'', "''")),
        _ => format!("char({})", shaped(&Array { dims: a.dims.clone(), data: a.data.iter().map(|&c| f64::from(c)).collect() }, number)),
    }
}
