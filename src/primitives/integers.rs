//! Integer classes, inactive values: the conversions `int8` ... `uint64`, `intmax`, `intmin`,
//! `idivide`, and integer arguments of the other builtins (`through_doubles`). Those compute in
//! doubles and convert back where Octave's result keeps the integer class: `int op double`,
//! `int op logical|char` and `int op int` of one class give that class, rounded half away from zero
//! and saturated. Builtins whose entry does not say how they take integers (`IntegerArgs`) are
//! msad:unsupported on integers rather than risk a result of the wrong class; so are mixed integer
//! classes where Octave accepts them.

use super::{Prim, Primitive, check_arity, runtime, zero_derivative};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::{Array, IntClass, Value};

primitive_names! {
    Int8 = "int8",
    Int16 = "int16",
    Int32 = "int32",
    Int64 = "int64",
    Uint8 = "uint8",
    Uint16 = "uint16",
    Uint32 = "uint32",
    Uint64 = "uint64",
    Intmax = "intmax",
    Intmin = "intmin",
    Idivide = "idivide",
    Bitand = "bitand",
    Bitor = "bitor",
    Bitxor = "bitxor",
    Bitshift = "bitshift",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        zero_derivative(Prim::Int8, |a, _| cast(IntClass::Int8, a)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Int16, |a, _| cast(IntClass::Int16, a)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Int32, |a, _| cast(IntClass::Int32, a)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Int64, |a, _| cast(IntClass::Int64, a)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Uint8, |a, _| cast(IntClass::Uint8, a)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Uint16, |a, _| cast(IntClass::Uint16, a)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Uint32, |a, _| cast(IntClass::Uint32, a)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Uint64, |a, _| cast(IntClass::Uint64, a)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Intmax, |a, _| extreme("intmax", a, |c| c.range().1)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Intmin, |a, _| extreme("intmin", a, |c| c.range().0)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Idivide, eval_idivide).integers(IntegerArgs::Own),
        zero_derivative(Prim::Bitand, |a, _| bitwise(Prim::Bitand, a, |x, y| x & y)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Bitor, |a, _| bitwise(Prim::Bitor, a, |x, y| x | y)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Bitxor, |a, _| bitwise(Prim::Bitxor, a, |x, y| x ^ y)).integers(IntegerArgs::Own),
        zero_derivative(Prim::Bitshift, |a, _| bitwise(Prim::Bitshift, a, shift)).integers(IntegerArgs::Own),
    ]
}

/// How a builtin takes integer-class arguments (its entry's `integer_args`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntegerArgs {
    /// msad does not support them (an error naming the classes).
    Unsupported,
    /// Computed in doubles, the first result converted back to the arguments' integer class.
    KeepClass,
    /// Computed in doubles: the results do not depend on the class of numeric arguments (sizes,
    /// comparisons, logical results, text of integral values, conversions to double; Octave 7's sum,
    /// prod, cumsum, cumprod and mean of integers are doubles too).
    ClassFree,
    /// The builtin handles integer values itself.
    Own,
}

/// Binary operators: mixing integer classes is Octave's error, not an unsupported case.
/// Binary operators' builtins and the symbols Octave's errors name them by.
pub(crate) const OPERATORS: &[(Prim, &str)] = &[
    (Prim::Plus, "+"),
    (Prim::Minus, "-"),
    (Prim::Times, ".*"),
    (Prim::Rdivide, "./"),
    (Prim::Ldivide, ".\\"),
    (Prim::Mtimes, "*"),
    (Prim::Mrdivide, "/"),
    (Prim::Mldivide, "\\"),
    (Prim::Power, ".^"),
    (Prim::Mpower, "^"),
    (Prim::Eq, "=="),
    (Prim::Ne, "!="),
    (Prim::Lt, "<"),
    (Prim::Le, "<="),
    (Prim::Gt, ">"),
    (Prim::Ge, ">="),
    (Prim::And, "&"),
    (Prim::Or, "|"),
];

/// `int8 scalar`, `int16 matrix`: how Octave's operator errors name an operand.
fn describe(v: &Value) -> String {
    format!("{} {}", v.class_name(), if v.numel() == 1 { "scalar" } else { "matrix" })
}

fn is_int(v: &Value) -> bool {
    matches!(v, Value::Int(..))
}

/// Whether a builtin with integer arguments needs `through_doubles` (false: it handles them itself).
pub(super) fn needs_doubles(p: &Primitive, args: &[&Value]) -> bool {
    // sum(..., 'native') keeps the integer class: the sum rejects it rather than computing in doubles.
    let native_sum = p.prim == Prim::Sum && args.iter().any(|a| a.as_string().as_deref() == Some("native"));
    args.iter().any(|a| is_int(a)) && p.integer_args != IntegerArgs::Own && !native_sum
}

/// `name(args...)` with integer arguments, computed in doubles.
pub(super) fn through_doubles(p: &Primitive, args: &[&Value], eval: impl Fn(&[&Value]) -> Result<Vec<Value>>) -> Result<Vec<Value>> {
    let name = p.name();
    let keeps = match p.integer_args {
        IntegerArgs::KeepClass => true,
        IntegerArgs::ClassFree => false,
        IntegerArgs::Unsupported | IntegerArgs::Own => return Err(unsupported(name, args)),
    };
    let mut classes: Vec<IntClass> = args.iter().filter_map(|a| if let Value::Int(c, _) = a { Some(*c) } else { None }).collect();
    classes.dedup();
    if classes.len() > 1 {
        return match OPERATORS.iter().find(|(operator, _)| *operator == p.prim) {
            Some((_, op)) => Err(runtime(format!(
                "binary operator '{op}' not implemented for '{}' by '{}' operations",
                describe(args[0]),
                describe(args[1])
            ))
            .with_identifier("Octave:undefined-function")),
            None => Err(unsupported(name, args)),
        };
    }
    // Octave multiplies and divides integer matrices only by scalars.
    if matches!(p.prim, Prim::Mtimes | Prim::Mrdivide | Prim::Mpower) && args.iter().all(|a| a.numel() != 1) {
        return Err(unsupported(name, args));
    }
    if args.iter().any(|a| matches!(a, Value::Sparse(_))) {
        return Err(unsupported(name, args));
    }
    let doubles: Vec<Value> = args.iter().map(|a| as_double(a)).collect();
    let mut results = eval(&doubles.iter().collect::<Vec<_>>())?;
    if keeps && let Some(Value::Double(a)) = results.first() {
        results[0] = Value::Int(classes[0], a.map(|&x| classes[0].convert(x)));
    }
    Ok(results)
}

/// An integer value as a double array (other values unchanged).
pub(crate) fn as_double(v: &Value) -> Value {
    match v {
        Value::Int(_, a) => Value::Double(a.clone()),
        other => other.clone(),
    }
}

/// An integer result computed from values that depend on x: integers carry no derivative.
pub(crate) fn not_differentiable(name: &str, class: &str) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::NotDifferentiable,
        format!("'{name}' gives a value of class {class} from a value that depends on x: integer values carry no derivative"),
    )
    .with_hint("an integer conversion is a deliberate discretisation (its derivative is zero almost everywhere): convert values that do not depend on x, or use round/fix (derivative zero) and stay in double")
}

fn unsupported(name: &str, args: &[&Value]) -> Diagnostic {
    let classes: Vec<&str> = args.iter().map(|a| a.class_name()).collect();
    Diagnostic::new(ErrorKind::Unsupported, format!("'{name}' with arguments of classes {}", classes.join(", ")))
        .with_hint("convert integer values with double(...) first")
}

/// `int32(x)` and the like: round half away from zero, saturate, NaN to 0.
fn cast(class: IntClass, args: &[&Value]) -> Result<Vec<Value>> {
    check_arity(class.name(), args, 1, 1)?;
    let a = match args[0] {
        Value::Double(_) | Value::Logical(_) | Value::Char(_) | Value::Int(..) => args[0].numeric().expect("numeric"),
        other => return Err(runtime(format!("{}: wrong type argument '{}'", class.name(), other.class_name()))),
    };
    Ok(vec![Value::Int(class, a.map(|&x| class.convert(x)))])
}

/// `intmax`, `intmax('int8')`, `intmax(int8(3))`: int32 by default.
fn extreme(name: &str, args: &[&Value], value: fn(IntClass) -> f64) -> Result<Vec<Value>> {
    check_arity(name, args, 0, 1)?;
    let class = match args.first() {
        None => IntClass::Int32,
        Some(Value::Int(c, _)) => *c,
        Some(v) => {
            let text = v.as_string().ok_or_else(|| runtime(format!("{name}: argument must be a string or integer variable")))?;
            IntClass::from_name(&text).ok_or_else(|| runtime(format!("{name}: invalid class name '{text}'")))?
        }
    };
    Ok(vec![Value::Int(class, Array::scalar(value(class)))])
}

/// `idivide(a, b, op)` as Octave 7's idivide.m computes it: the integer quotient (rounded), then
/// corrected by one where the rounding went the wrong way for 'fix' (default), 'floor' or 'ceil',
/// judged by the saturating product `z .* b` (Octave 7's 'fix' rounds negative quotients of a
/// positive divisor down, as its floor does).
fn eval_idivide(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("idivide", args, 2, 3)?;
    let op = match args.get(2) {
        None => "fix".to_string(),
        Some(v) => v.as_string().ok_or_else(|| runtime("idivide: unrecognized rounding type"))?.to_ascii_lowercase(),
    };
    let classes: Vec<IntClass> = args[..2].iter().filter_map(|a| if let Value::Int(c, _) = a { Some(*c) } else { None }).collect();
    let class = match classes[..] {
        [] => return Err(runtime("idivide: at least one input (X or Y) must be an integer type")),
        [a, b] if a != b => {
            return Err(runtime(format!("idivide: integer type of X ({}) must match integer type of Y ({})", a.name(), b.name())));
        }
        [c, ..] => c,
    };
    // Every operand broadcast to the quotient's dims, in doubles.
    let binary = |prim: Prim, a: &Value, b: &Value| -> Result<Array<f64>> {
        let r = super::eval(prim, &[a, b], 1)?;
        Ok(r[0].numeric().expect("numeric").into_owned())
    };
    let (x, y) = (as_double(args[0]), as_double(args[1]));
    let z = binary(Prim::Rdivide, &x, &y)?.map(|&q| class.convert(q));
    let zero = Value::Double(z.map(|_| 0.0));
    let product = binary(Prim::Times, &Value::Double(z.clone()), &y)?.map(|&p| class.convert(p));
    let (x, y) = (binary(Prim::Plus, &zero, &x)?, binary(Prim::Plus, &zero, &y)?);
    let step = |k: usize| -> Result<f64> {
        let (p, x, positive) = (product.data[k], x.data[k], y.data[k] > 0.0);
        let (over, under) = (f64::from(u8::from(p > x)), f64::from(u8::from(p < x)));
        Ok(match (op.as_str(), positive) {
            ("fix", true) | ("floor", true) => -over,
            ("fix", false) | ("ceil", false) => over,
            ("floor", false) => -under,
            ("ceil", true) => under,
            ("round", _) => 0.0,
            _ => return Err(runtime(format!("idivide: unrecognized rounding type \"{op}\""))),
        })
    };
    let data = (0..z.numel()).map(|k| Ok(class.convert(z.data[k] + step(k)?))).collect::<Result<Vec<_>>>()?;
    Ok(vec![Value::Int(class, Array::new(z.dims.clone(), data))])
}

/// `bitshift(a, n)` on two's complement bits: left for n > 0, arithmetic right for n < 0.
fn shift(a: i128, n: i128) -> i128 {
    match n {
        0.. => a.checked_shl(n.min(127) as u32).unwrap_or(0),
        _ => a >> (-n).min(127),
    }
}

/// `bitand`, `bitor`, `bitxor`, `bitshift` as Octave computes them: doubles as uint64 (rounded,
/// negatives 0) with results of at most 53 bits, integers as their class's two's complement bits;
/// operands of equal size or one scalar; an integer operand gives its class.
fn bitwise(prim: Prim, args: &[&Value], op: fn(i128, i128) -> i128) -> Result<Vec<Value>> {
    let name = prim.name();
    check_arity(name, args, 2, 2)?;
    let classes: Vec<IntClass> = args.iter().filter_map(|a| if let Value::Int(c, _) = a { Some(*c) } else { None }).collect();
    if classes.len() == 2 && classes[0] != classes[1] {
        return Err(unsupported(name, args));
    }
    let class = classes.first().copied();
    let operand = |v: &Value| match v {
        Value::Double(_) | Value::Logical(_) | Value::Char(_) | Value::Int(..) => Ok(v.numeric().expect("numeric").into_owned()),
        other => Err(runtime(format!("{name}: invalid operand of class {}", other.class_name()))),
    };
    let (a, b) = (operand(args[0])?, operand(args[1])?);
    let dims = match (a.numel(), b.numel()) {
        (_, 1) => a.dims.clone(),
        (1, _) => b.dims.clone(),
        _ if a.dims == b.dims => a.dims.clone(),
        _ => return Err(runtime(format!("{name}: size of X and Y must match, or one operand must be a scalar"))),
    };
    let operand_class = class.unwrap_or(IntClass::Uint64);
    let (lo, hi) = operand_class.range();
    let signed = lo < 0.0;
    let operand_width = (hi - lo + 1.0).log2().round() as u32;
    // Exact extremes: int64's and uint64's doubles round up past them.
    let (min, max) =
        if signed { (-(1i128 << (operand_width - 1)), (1i128 << (operand_width - 1)) - 1) } else { (0, (1i128 << operand_width) - 1) };
    let bits = |x: f64| (operand_class.convert(x) as i128).clamp(min, max);
    let width = operand_width;
    let wrap = |r: i128| {
        let r = r & ((1i128 << width) - 1);
        if signed && r >= 1i128 << (width - 1) { r - (1i128 << width) } else { r }
    };
    let at = |m: &Array<f64>, k: usize| if m.numel() == 1 { m.data[0] } else { m.data[k] };
    let n = dims.iter().product();
    let data = (0..n)
        .map(|k| {
            let (x, y) = (at(&a, k), at(&b, k));
            match (prim, class) {
                // Octave shifts a double as a truncated int64 (C's conversion: out of range is
                // INT64_MIN) and keeps 53 bits of non-negative results.
                (Prim::Bitshift, None) => {
                    let v = if x.is_finite() && x.abs() < 2f64.powi(63) { x as i64 } else { i64::MIN };
                    let r = op(v as i128, y.round() as i128) as i64;
                    (if r < 0 { r } else { r & ((1i64 << 53) - 1) }) as f64
                }
                // The count is a plain signed number.
                (Prim::Bitshift, Some(_)) => wrap(op(bits(x), y.round() as i128)) as f64,
                _ => op(bits(x), bits(y)) as f64,
            }
        })
        .collect();
    Ok(vec![match class {
        Some(c) => Value::Int(c, Array::new(dims, data)),
        None => Value::Double(Array::new(dims, data)),
    }])
}
