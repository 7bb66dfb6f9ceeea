//! Truth values of complex arrays (conditions, `any all nnz find`, logical operators and indexing) and
//! the builtins that read only real parts (`colon`, as Octave's ranges) or compare values (`switch`).
//! An element is true where it is nonzero; a NaN part makes it NaN, so the real kernels' NaN rules apply.

use super::super::{Prim, PrimId, eval as real_eval};
use crate::diag::Result;
use crate::value::{Array, Complex64, Value};

/// Builtins that read their data arguments as truth values.
const TRUTH: &[Prim] =
    &[Prim::Truth, Prim::Logical, Prim::Any, Prim::All, Prim::Nnz, Prim::Find, Prim::Not, Prim::And, Prim::Or, Prim::Xor];

/// The identifier and message of Octave's warning for a complex colon bound (issued by the interpreter).
pub(crate) const COLON_WARNING: [&str; 2] = ["Octave:colon-complex-argument", "imaginary part of complex colon arguments is ignored"];

/// Primitive `id` when it is one of these (None: not one of them).
pub(super) fn eval(id: PrimId, args: &[&Value], nargout: usize) -> Option<Result<Vec<Value>>> {
    if TRUTH.contains(&id) {
        let truths: Vec<Value> = args.iter().map(|a| map_complex(a, truth)).collect();
        let refs: Vec<&Value> = truths.iter().collect();
        let result = real_eval(id, &refs, nargout);
        return Some(match (id, result) {
            // find's third output holds the values found, complex ones included.
            (Prim::Find, Ok(mut outputs)) if outputs.len() >= 3 => found_values(id, args[0], &refs).map(|v| {
                outputs[2] = v;
                outputs
            }),
            (_, result) => result,
        });
    }
    match id {
        Prim::Colon => {
            let reals: Vec<Value> = args.iter().map(|a| map_complex(a, |z| Value::Double(z.map(|z| z.re)))).collect();
            Some(real_eval(id, &reals.iter().collect::<Vec<_>>(), nargout))
        }
        Prim::SwitchMatch => Some(switch_match(args)),
        _ => None,
    }
}

fn map_complex(v: &Value, f: impl Fn(&Array<Complex64>) -> Value) -> Value {
    match v {
        Value::Complex(z) => f(z),
        other => other.clone(),
    }
}

/// 1 where nonzero, 0 where zero, NaN where a part is NaN.
fn truth(z: &Array<Complex64>) -> Value {
    Value::Double(z.map(|z| match z {
        _ if z.re.is_nan() || z.im.is_nan() => f64::NAN,
        _ if z.re != 0.0 || z.im != 0.0 => 1.0,
        _ => 0.0,
    }))
}

/// find's values: the elements at the linear indices found, in the shape of the real kernel's.
fn found_values(id: PrimId, data: &Value, truths: &[&Value]) -> Result<Value> {
    let found = real_eval(id, truths, 1)?.swap_remove(0);
    let (Value::Double(indices), Some(z)) = (&found, data.complex_parts()) else { return Ok(found) };
    let values = indices.data.iter().map(|&k| z.data[k as usize - 1]).collect();
    Ok(Value::narrowed(Array::new(indices.dims.clone(), values)))
}

/// `switch` on numbers: a case matches a scalar subject equal to one of its elements.
fn switch_match(args: &[&Value]) -> Result<Vec<Value>> {
    let (subject, label) = (args[0], args[1]);
    let matches = |l: &Value| match (subject.complex_parts(), l.complex_parts()) {
        _ if subject.as_string().is_some() || l.as_string().is_some() => false,
        (Some(s), Some(l)) => s.data.len() == 1 && l.data.contains(&s.data[0]),
        _ => false,
    };
    let hit = match label {
        Value::Cell(c) => c.data.iter().any(matches),
        l => matches(l),
    };
    Ok(vec![Value::Logical(Array::scalar(hit))])
}
