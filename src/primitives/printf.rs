//! Octave's `sprintf` formatting: C conversions (`%d %i %u %o %x %X %c %s %f %F %e %E %g %G %%` with
//! flags, width and precision, `*` included) applied to a stream of elements taken from all the
//! arguments, the template reused until the elements run out.
//!
//! Octave's own rules on top of C's: a number that does not suit an integer conversion (a fraction,
//! out of range, negative for an unsigned one) is printed with `%g` and the same flags; NaN and
//! infinities print as `NaN`, `Inf`, `-Inf` padded to the width; `%s` takes all remaining characters
//! of a char argument, and prints a number as the character of that code (nothing for a number that
//! is not one); output stops at the first conversion left without an element.

use super::runtime;
use crate::diag::Result;
use crate::syntax::simple_escape;
use crate::value::Value;

#[derive(Clone, Debug, Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alternate: bool,
    /// `Some(None)`: given as `*`.
    width: Option<Option<usize>>,
    precision: Option<Option<usize>>,
    conversion: char,
}

enum Segment {
    Text(String),
    Convert(Spec),
}

/// One element of the argument stream.
enum Element {
    Number(f64),
    Text(String),
}

/// The elements of all the arguments in order; empty arguments contribute nothing.
struct Elements<'a> {
    args: Vec<&'a Value>,
    arg: usize,
    element: usize,
}

impl<'a> Elements<'a> {
    fn new(args: &[&'a Value]) -> Elements<'a> {
        Elements { args: args.iter().copied().filter(|v| v.numel() > 0).collect(), arg: 0, element: 0 }
    }

    fn exhausted(&self) -> bool {
        self.arg >= self.args.len()
    }

    /// The next element; for `%s` the rest of a char argument as one text.
    fn next(&mut self, whole_text: bool) -> Result<Option<Element>> {
        let Some(v) = self.args.get(self.arg) else { return Ok(None) };
        let n = v.numel();
        let element = match v {
            Value::Char(a) if whole_text => {
                let text = String::from_utf16_lossy(&a.data[self.element..]);
                self.element = n;
                Element::Text(text)
            }
            _ => {
                let numbers = v.numeric().ok_or_else(|| runtime(format!("sprintf: wrong type argument '{}'", v.class_name())))?;
                self.element += 1;
                Element::Number(numbers.data[self.element - 1])
            }
        };
        if self.element >= n {
            self.arg += 1;
            self.element = 0;
        }
        Ok(Some(element))
    }

    fn next_count(&mut self) -> Result<Option<usize>> {
        Ok(match self.next(false)? {
            Some(Element::Number(x)) => Some(x.max(0.0) as usize),
            _ => None,
        })
    }
}

/// `sprintf(template, args...)` as text.
pub(super) fn sprintf(template: &str, args: &[&Value]) -> Result<String> {
    let segments = parse(&unescape(template))?;
    let mut elements = Elements::new(args);
    let mut out = String::new();
    let converts = segments.iter().any(|s| matches!(s, Segment::Convert(_)));
    // Without data, the template prints once with empty conversions.
    if elements.exhausted() {
        for s in &segments {
            if let Segment::Text(t) = s {
                out.push_str(t);
            }
        }
        return Ok(out);
    }
    loop {
        for s in &segments {
            match s {
                Segment::Text(t) => out.push_str(t),
                Segment::Convert(spec) => {
                    let mut spec = spec.clone();
                    if spec.width == Some(None) {
                        spec.width = elements.next_count()?.map(Some);
                    }
                    if spec.precision == Some(None) {
                        spec.precision = elements.next_count()?.map(Some);
                    }
                    match elements.next(spec.conversion == 's')? {
                        Some(e) => out.push_str(&convert(&spec, e)),
                        None => return Ok(out),
                    }
                }
            }
        }
        if !converts || elements.exhausted() {
            return Ok(out);
        }
    }
}

/// Backslash escapes of the template (`\n`, `\t`, `\\`, octal, `\x` hex, ...).
pub(super) fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let mut digits = |first: Option<char>, radix: u32, max: usize| {
            let mut code = first.and_then(|d| d.to_digit(radix)).unwrap_or(0);
            for _ in first.map_or(0, |_| 1)..max {
                match chars.peek().and_then(|d| d.to_digit(radix)) {
                    Some(d) => {
                        code = code * radix + d;
                        chars.next();
                    }
                    None => break,
                }
            }
            char::from_u32(code).unwrap_or('\0')
        };
        out.push(match e {
            '0'..='7' => digits(Some(e), 8, 3),
            'x' => digits(None, 16, 2),
            other => simple_escape(other),
        });
    }
    out
}

fn parse(template: &str) -> Result<Vec<Segment>> {
    let mut segments = Vec::new();
    let mut text = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        let mut spec = Spec::default();
        while let Some(&f) = chars.peek() {
            match f {
                '-' => spec.left = true,
                '+' => spec.plus = true,
                ' ' => spec.space = true,
                '0' => spec.zero = true,
                '#' => spec.alternate = true,
                _ => break,
            }
            chars.next();
        }
        spec.width = count(&mut chars);
        if chars.peek() == Some(&'.') {
            chars.next();
            spec.precision = Some(count(&mut chars).unwrap_or(Some(0)));
        }
        while chars.peek().is_some_and(|m| "hlLqjzt".contains(*m)) {
            chars.next();
        }
        match chars.next() {
            Some('%') => text.push('%'),
            Some(conversion) if "diouxXcsfFeEgG".contains(conversion) => {
                spec.conversion = conversion;
                segments.push(Segment::Text(std::mem::take(&mut text)));
                segments.push(Segment::Convert(spec));
            }
            _ => return Err(runtime("sprintf: invalid format specified")),
        }
    }
    segments.push(Segment::Text(text));
    Ok(segments)
}

/// A width or precision: digits, or `*` (`Some(None)`: taken from the arguments).
fn count(chars: &mut std::iter::Peekable<std::str::Chars>) -> Option<Option<usize>> {
    if chars.peek() == Some(&'*') {
        chars.next();
        return Some(None);
    }
    let mut n = None;
    while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
        n = Some(n.unwrap_or(0) * 10 + d as usize);
        chars.next();
    }
    n.map(Some)
}

fn convert(spec: &Spec, element: Element) -> String {
    let x = match element {
        Element::Text(t) => {
            let t: String = match spec.precision {
                Some(Some(p)) => t.chars().take(p).collect(),
                _ => t,
            };
            return pad(spec, String::new(), t, false);
        }
        Element::Number(x) => x,
    };
    if !x.is_finite() {
        let text = if x.is_nan() { "NaN" } else { "Inf" };
        return pad(spec, sign(spec, x < 0.0), text.to_string(), false);
    }
    let integer = x.fract() == 0.0;
    // Octave's integer range test compares with 2^63 (i64::MAX rounded to a double).
    let signed_ok = integer && x.abs() <= 2f64.powi(63);
    let unsigned_ok = integer && x >= 0.0 && x <= 2f64.powi(64);
    match spec.conversion {
        'd' | 'i' if signed_ok => {
            let digits = (x as i64).unsigned_abs().to_string();
            pad(spec, sign(spec, x < 0.0), with_min_digits(spec, digits), true)
        }
        'u' if unsigned_ok => pad(spec, String::new(), with_min_digits(spec, (x as u64).to_string()), true),
        'o' if unsigned_ok => {
            let digits = format!("{:o}", x as u64);
            let digits = if spec.alternate && !digits.starts_with('0') { format!("0{digits}") } else { digits };
            pad(spec, String::new(), with_min_digits(spec, digits), true)
        }
        'x' | 'X' if unsigned_ok => {
            let digits = if spec.conversion == 'x' { format!("{:x}", x as u64) } else { format!("{:X}", x as u64) };
            let prefix = if spec.alternate && x != 0.0 { format!("0{}", spec.conversion) } else { String::new() };
            pad(spec, prefix, with_min_digits(spec, digits), true)
        }
        'c' if unsigned_ok => pad(spec, String::new(), char::from_u32(x as u32).unwrap_or('\0').to_string(), false),
        's' if integer && (0.0..256.0).contains(&x) => {
            pad(spec, String::new(), char::from_u32(x as u32).unwrap_or('\0').to_string(), false)
        }
        's' => String::new(),
        'f' | 'F' | 'e' | 'E' | 'g' | 'G' => float(spec, x, spec.conversion),
        _ => float(spec, x, 'g'),
    }
}

fn sign(spec: &Spec, negative: bool) -> String {
    match (negative, spec.plus, spec.space) {
        (true, _, _) => "-",
        (false, true, _) => "+",
        (false, false, true) => " ",
        _ => "",
    }
    .to_string()
}

/// An integer's digits with the precision's minimum count of digits.
fn with_min_digits(spec: &Spec, digits: String) -> String {
    match spec.precision {
        Some(Some(p)) if digits.len() < p => {
            crate::value::memory::ensure(p, size_of::<u16>());
            format!("{}{digits}", "0".repeat(p - digits.len()))
        }
        _ => digits,
    }
}

/// `prefix` (sign, 0x) and `body` padded to the width: spaces before, zeros between (flag 0 on a
/// number without a precision for integers), or spaces after (flag -).
fn pad(spec: &Spec, prefix: String, body: String, numeric: bool) -> String {
    let width = spec.width.flatten().unwrap_or(0);
    let len = prefix.chars().count() + body.chars().count();
    if len >= width {
        return prefix + &body;
    }
    let fill = width - len;
    crate::value::memory::ensure(width, size_of::<u16>());
    let integer_with_precision = "diuoxX".contains(spec.conversion) && spec.precision.is_some();
    if spec.left {
        prefix + &body + &" ".repeat(fill)
    } else if spec.zero && numeric && !integer_with_precision {
        prefix + &"0".repeat(fill) + &body
    } else {
        " ".repeat(fill) + &prefix + &body
    }
}

fn float(spec: &Spec, x: f64, conversion: char) -> String {
    let precision = spec.precision.flatten().unwrap_or(6);
    let body = match conversion.to_ascii_lowercase() {
        'f' => fixed(x.abs(), precision, spec.alternate),
        'e' => scientific(x.abs(), precision, spec.alternate),
        _ => general(x.abs(), precision, spec.alternate),
    };
    let body = if conversion.is_ascii_uppercase() { body.to_uppercase() } else { body };
    pad(spec, sign(spec, x.is_sign_negative()), body, true)
}

/// More digits than any double's exact decimal expansion has (at most 767 significant, 1074 after the
/// point): a longer precision only adds zeros, which Rust's formatting (limited to 65535) is not asked
/// for.
const EXACT_DIGITS: usize = 1100;

/// `x` formatted with `precision` digits after the point by `format`, exactly as C does it at any
/// precision: the digits past `EXACT_DIGITS` are zeros.
fn with_digits(precision: usize, format: impl Fn(usize) -> String) -> String {
    let s = format(precision.min(EXACT_DIGITS));
    let zeros = precision.saturating_sub(EXACT_DIGITS);
    if zeros == 0 {
        return s;
    }
    crate::value::memory::ensure(s.len().saturating_add(zeros), 1);
    let end = s.find('e').unwrap_or(s.len());
    format!("{}{}{}", &s[..end], "0".repeat(zeros), &s[end..])
}

fn fixed(x: f64, precision: usize, alternate: bool) -> String {
    let s = with_digits(precision, |p| format!("{x:.p$}"));
    if alternate && precision == 0 { s + "." } else { s }
}

/// C's `%e`: mantissa, `e`, sign and at least two exponent digits.
fn scientific(x: f64, precision: usize, alternate: bool) -> String {
    let s = with_digits(precision, |p| format!("{x:.p$e}"));
    let (mantissa, exponent) = s.split_once('e').expect("exponent");
    let exponent: i32 = exponent.parse().expect("integer exponent");
    let point = if alternate && precision == 0 { "." } else { "" };
    format!("{mantissa}{point}e{}{:02}", if exponent < 0 { '-' } else { '+' }, exponent.abs())
}

/// C's `%g`: `%e` or `%f` by the exponent, trailing zeros removed unless `#`.
fn general(x: f64, precision: usize, alternate: bool) -> String {
    let p = precision.max(1);
    let exponent = if x == 0.0 {
        0
    } else {
        let s = format!("{:.*e}", (p - 1).min(EXACT_DIGITS), x);
        s.split_once('e').expect("exponent").1.parse::<i32>().expect("integer exponent")
    };
    let s = if (-4..p as i32).contains(&exponent) {
        fixed(x, (p as i32 - 1 - exponent) as usize, alternate)
    } else {
        scientific(x, p - 1, alternate)
    };
    if alternate {
        return s;
    }
    let (mantissa, rest) = match s.find('e') {
        Some(i) => s.split_at(i),
        None => (s.as_str(), ""),
    };
    let mantissa = if mantissa.contains('.') { mantissa.trim_end_matches('0').trim_end_matches('.') } else { mantissa };
    format!("{mantissa}{rest}")
}
