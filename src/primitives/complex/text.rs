//! Text of complex values: `num2str` and `mat2str` as Octave's .m files write them, and `sprintf`,
//! which in Octave 7 prints the real parts only.

use super::super::Prim;
use super::super::printf::sprintf;
use super::super::strings::{eval_strtrim, padded_rows};
use super::super::{PrimId, check_arity, runtime};
use crate::diag::Result;
use crate::value::{Array, Complex64, Value};

pub(super) fn eval(id: PrimId, args: &[&Value]) -> Result<Value> {
    match id {
        Prim::Num2str => num2str(args),
        Prim::Mat2str => mat2str(args),
        _ => {
            let real: Vec<Value> = args
                .iter()
                .map(|a| match a {
                    Value::Complex(z) => Value::Double(z.map(|z| z.re)),
                    other => (*other).clone(),
                })
                .collect();
            let refs: Vec<&Value> = real.iter().collect();
            Ok(super::real_kernel(id, &refs, 1)?.swap_remove(0))
        }
    }
}

fn complex_argument<'v>(name: &str, v: &'v Value) -> Result<&'v Array<Complex64>> {
    match v {
        Value::Complex(z) if z.dims.len() == 2 => Ok(z),
        _ => Err(runtime(format!("{name}: complex N-D arrays are not supported"))),
    }
}

fn number(template: &str, x: f64) -> Result<String> {
    sprintf(template, &[&Value::scalar(x)])
}

/// One `%...g%-+...gi` style format per element, the rows' blanks moved after the `i`, common blank
/// columns trimmed (num2str.m's complex branch).
fn num2str(args: &[&Value]) -> Result<Value> {
    check_arity("num2str", args, 1, 2)?;
    let z = complex_argument("num2str", args[0])?;
    let (real_format, imag_format) = match args.get(1) {
        Some(Value::Char(_)) => {
            let format = args[1].as_string().unwrap_or_default();
            (format.trim_end().to_string(), format!("%-+{}", format.get(1..).unwrap_or("")))
        }
        Some(p) => {
            let p = p.numeric().filter(|p| p.is_scalar()).map(|p| p.data[0]);
            let Some(p) = p.filter(|p| *p >= 0.0 && p.fract() == 0.0) else {
                return Err(runtime("num2str: PRECISION must be a scalar integer >= 0"));
            };
            (format!("%{}.{}g", p + 7.0, p), format!("%-+{}.{}g", p + 7.0, p))
        }
        None => default_formats(z),
    };
    let mut rows = Vec::with_capacity(z.rows());
    for i in 0..z.rows() {
        let mut line = String::new();
        for j in 0..z.cols() {
            let w = z.data[i + z.rows() * j];
            line.push_str(&number(&real_format, w.re)?);
            line.push_str(&number(&imag_format, w.im)?);
            line.push('i');
        }
        rows.push(move_blanks_after_i(&line).encode_utf16().collect::<Vec<u16>>());
    }
    Ok(eval_strtrim(&[&padded_rows(&rows)], 1)?.swap_remove(0))
}

/// num2str.m's default: enough significant digits for the largest finite part, integers without
/// decimals.
fn default_formats(z: &Array<Complex64>) -> (String, String) {
    let finite = |x: f64| x.is_finite().then_some(x.abs());
    let largest = z.data.iter().flat_map(|w| [finite(w.re), finite(w.im)]).flatten().fold(f64::NEG_INFINITY, f64::max);
    let digits = if largest > 0.0 { largest.log10().floor() } else { 0.0 };
    let integral = z.data.iter().filter(|w| w.re.is_finite() && w.im.is_finite()).all(|w| w.re.fract() == 0.0 && w.im.fract() == 0.0);
    if integral {
        let width = digits + 3.0;
        (format!("%{width}.0f"), format!("%-+{width}.0f"))
    } else {
        let precision = (digits + 5.0).clamp(5.0, 16.0);
        (format!("%{}.{precision}g", precision + 7.0), format!("%-+{}.{precision}g", precision + 7.0))
    }
}

/// `regexprep(row, " +i$", "i")` then `regexprep(row, "( +)i", "i$1")`.
fn move_blanks_after_i(line: &str) -> String {
    let trimmed = match line.strip_suffix('i') {
        Some(body) => format!("{}i", body.trim_end_matches(' ')),
        None => line.to_string(),
    };
    let mut out = String::with_capacity(trimmed.len());
    let mut blanks = 0;
    for c in trimmed.chars() {
        match c {
            ' ' => blanks += 1,
            'i' if blanks > 0 => {
                out.push('i');
                out.extend(std::iter::repeat_n(' ', blanks));
                blanks = 0;
            }
            other => {
                out.extend(std::iter::repeat_n(' ', blanks));
                blanks = 0;
                out.push(other);
            }
        }
    }
    out.extend(std::iter::repeat_n(' ', blanks));
    out
}

/// `mat2str(z)`, `mat2str(z, n)`: `%.15g%+.15gi` per element.
fn mat2str(args: &[&Value]) -> Result<Value> {
    check_arity("mat2str", args, 1, 2)?;
    let z = complex_argument("mat2str", args[0])?;
    let n = match args.get(1) {
        Some(p) => p.numeric().filter(|p| p.is_scalar()).map(|p| p.data[0]).ok_or_else(|| runtime("mat2str: N must be a scalar"))?,
        None => 15.0,
    };
    let template = format!("%.{n}g%+.{n}gi");
    let element = |w: Complex64| sprintf(&template, &[&Value::scalar(w.re), &Value::scalar(w.im)]);
    let rows = (0..z.rows())
        .map(|i| (0..z.cols()).map(|j| element(z.data[i + z.rows() * j])).collect::<Result<Vec<_>>>().map(|r| r.join(" ")))
        .collect::<Result<Vec<_>>>()?;
    let text = if z.numel() == 1 { rows.join(";") } else { format!("[{}]", rows.join(";")) };
    Ok(Value::string(&text))
}
