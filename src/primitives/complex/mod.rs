//! Complex doubles. Octave makes them where a real function leaves its domain (`sqrt(-1)`, `log(-2)`,
//! `(-8)^(1/3)`, `acos(2)`) and where code writes them (`1i`, `complex(a, b)`). Every primitive with a
//! complex operand comes here (`eval`), so the real kernels and their fast paths stay as they are.
//! Results narrow to real when every imaginary part is zero, as Octave's do (`complex`'s own excepted),
//! except where they carry a derivative (`derivative`: forward rules on stacked real and imaginary parts).

mod c99;
mod derivative;
mod fft;
mod linalg;
mod logic;
mod math;
mod order;
mod second_order;
mod sparse;
mod text;

use super::{Derivative, Kernel, Linearity, Prim, PrimId, Primitive, check_arity, linearity, runtime};
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::{Array, Complex64, Value};

pub(crate) use derivative::{
    assign, assignment_involved, forward, index, involved, is_complex, keeps_complex, on_tape, outputs, rows, unsupported_derivative,
    varies_on_complex, widened,
};
pub(crate) use logic::COLON_WARNING;
pub(super) use math::{divide, out_of_domain, real_power};
pub(crate) use second_order::{interactions, second_order, second_order_term, with_rows};

primitive_names! {
    Complex = "complex",
    Angle = "angle",
    Arg = "arg",
    Fft = "fft",
    Ifft = "ifft",
}

pub(super) fn entries() -> Vec<Primitive> {
    vec![
        Primitive::new(Prim::Complex, Kernel::General { eval: eval_complex, derivative: Derivative::Rule(derivative::forward_complex) })
            .linear(Linearity::Additive),
        // Piecewise constant on the real line (0 or pi); complex operands have their rule in `derivative`.
        Primitive::new(Prim::Angle, Kernel::General { eval: |a, _| math::angle("angle", a), derivative: Derivative::Zero }),
        Primitive::new(Prim::Arg, Kernel::General { eval: |a, _| math::angle("arg", a), derivative: Derivative::Zero }),
        Primitive::new(
            Prim::Fft,
            Kernel::General {
                eval: |a, _| Ok(vec![fft::eval(Prim::Fft, a)?]),
                derivative: Derivative::Rule(|fw| fft::forward(Prim::Fft, fw)),
            },
        ),
        Primitive::new(
            Prim::Ifft,
            Kernel::General {
                eval: |a, _| Ok(vec![fft::eval(Prim::Ifft, a)?]),
                derivative: Derivative::Rule(|fw| fft::forward(Prim::Ifft, fw)),
            },
        ),
    ]
}

pub(crate) fn has_complex(args: &[&Value]) -> bool {
    args.iter().any(|a| matches!(a, Value::Complex(_) | Value::ComplexSparse(_)))
}

/// Builtins whose real kernels take complex arguments as they are: those that read only class and size
/// (constructors read a `'like'` prototype's class), and `isequal` (which compares complex values itself).
const KERNEL_AS_IS: &[Prim] = &[
    Prim::Size,
    Prim::Numel,
    Prim::Length,
    Prim::Ndims,
    Prim::Isempty,
    Prim::Columns,
    Prim::Rows,
    Prim::Class,
    Prim::Isa,
    Prim::Isnumeric,
    Prim::Isreal,
    Prim::Iscomplex,
    Prim::Isfloat,
    Prim::Isinteger,
    Prim::Islogical,
    Prim::Isbool,
    Prim::Ischar,
    Prim::Iscell,
    Prim::Iscellstr,
    Prim::Isstruct,
    Prim::IsFunctionHandle,
    Prim::Isscalar,
    Prim::Isvector,
    Prim::Isrow,
    Prim::Iscolumn,
    Prim::Ismatrix,
    Prim::Issquare,
    Prim::ForCount,
    Prim::Isequal,
    Prim::Zeros,
    Prim::Ones,
    Prim::InfCapitalised,
    Prim::Inf,
    Prim::NaN,
    Prim::Nan,
    Prim::True,
    Prim::False,
];

/// Primitive `id` on arguments of which at least one is complex.
pub(super) fn eval(id: PrimId, args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    if KERNEL_AS_IS.contains(&id) {
        return real_kernel(id, args, nargout);
    }
    if sparse::involved(args) {
        return Ok(vec![sparse::eval(id, args)?]);
    }
    if let Some(result) = logic::eval(id, args, nargout) {
        return result;
    }
    if let Some(result) = math::eval(id, args)? {
        return Ok(vec![result]);
    }
    match id {
        Prim::Eq | Prim::Ne | Prim::Lt | Prim::Le | Prim::Gt | Prim::Ge => Ok(vec![order::compare(id, args)?]),
        Prim::Max | Prim::Min => order::extreme(id, args, nargout),
        Prim::Sort => order::sort(args, nargout),
        Prim::Ctranspose => {
            let transposed = split(id, args, 1)?;
            Ok(vec![math::conj(&transposed)])
        }
        Prim::Mldivide => Ok(vec![linalg::mldivide(args)?]),
        Prim::Mrdivide => Ok(vec![linalg::mrdivide(args)?]),
        Prim::Inv | Prim::Inverse => Ok(vec![linalg::inv(args)?]),
        Prim::Det => Ok(vec![linalg::det(args)?]),
        Prim::Norm => {
            let operand = linalg::norm_operand(args)?;
            let rest: Vec<&Value> = std::iter::once(&operand).chain(args[1..].iter().copied()).collect();
            real_kernel(id, &rest, nargout)
        }
        Prim::Num2str | Prim::Mat2str | Prim::Sprintf => Ok(vec![text::eval(id, args)?]),
        Prim::Double | Prim::Full => Ok(vec![args[0].clone()]),
        Prim::Fft | Prim::Ifft => Ok(vec![fft::eval(id, args)?]),
        _ if linearity(id) == Linearity::Additive || id == Prim::ForItem => Ok(vec![split(id, args, nargout)?]),
        _ => Err(unsupported(id.name())),
    }
}

fn unsupported(name: &str) -> Diagnostic {
    Diagnostic::new(ErrorKind::Unsupported, format!("{name}: complex arguments are not supported"))
        .with_hint("apply it to real(...) and imag(...) separately, or keep the values real")
}

fn real_kernel(id: PrimId, args: &[&Value], nargout: usize) -> Result<Vec<Value>> {
    match super::get(id).kernel {
        Kernel::General { eval, .. } => eval(args, nargout),
        _ => Err(unsupported(id.name())),
    }
}

/// Where a linear primitive's data arguments start: concatenations read all of theirs (`cat` after
/// the dimension), the others their first only (the rest are sizes, dimensions, counts).
fn data_arguments(prim: Prim, count: usize) -> std::ops::Range<usize> {
    match prim {
        Prim::Horzcat | Prim::Vertcat => 0..count,
        Prim::Cat => 1..count,
        _ => 0..1.min(count),
    }
}

/// A linear primitive on the real and imaginary parts apart: `f(re + i im) = f(re) + i f(im)`.
fn split(id: PrimId, args: &[&Value], nargout: usize) -> Result<Value> {
    let (name, data) = (id.name(), data_arguments(id, args.len()));
    let part = |imaginary: bool| -> Result<Vec<Value>> {
        args.iter()
            .enumerate()
            .map(|(k, a)| match a {
                Value::Complex(z) => Ok(Value::Double(z.map(|z| if imaginary { z.im } else { z.re }))),
                _ if !data.contains(&k) => Ok((*a).clone()),
                Value::Char(_) => Err(runtime(format!("{name}: concatenation of complex and char values"))),
                _ => {
                    let x = a.numeric().ok_or_else(|| unsupported(name))?;
                    Ok(Value::Double(if imaginary { x.map(|_| 0.0) } else { x.into_owned() }))
                }
            })
            .collect()
    };
    let (re, im) = (part(false)?, part(true)?);
    let run = |parts: &[Value]| -> Result<Value> {
        let refs: Vec<&Value> = parts.iter().collect();
        Ok(super::eval(id, &refs, nargout.max(1))?.swap_remove(0))
    };
    match (run(&re)?, run(&im)?) {
        (Value::Double(re), Value::Double(im)) if re.dims == im.dims => {
            let data = re.data.iter().zip(&im.data).map(|(&r, &i)| Complex64::new(r, i)).collect();
            Ok(Value::narrowed(Array::new(re.dims, data)))
        }
        _ => Err(unsupported(name)),
    }
}

/// `complex(re)`, `complex(re, im)`: complex even where every imaginary part is zero.
fn eval_complex(args: &[&Value], _: usize) -> Result<Vec<Value>> {
    check_arity("complex", args, 1, 2)?;
    let part = |v: &Value| -> Result<Array<f64>> {
        match v {
            Value::Double(_) | Value::Logical(_) | Value::Char(_) | Value::Int(..) | Value::Sparse(_) => {
                Ok(v.numeric().expect("numeric").into_owned())
            }
            _ => Err(runtime("complex: invalid conversion")),
        }
    };
    let re = part(args[0])?;
    let im = match args.get(1) {
        Some(v) => part(v)?,
        None => re.map(|_| 0.0),
    };
    let dims = super::broadcast_dims(&re.dims, &im.dims)
        .filter(|_| re.is_scalar() || im.is_scalar() || re.dims == im.dims)
        .ok_or_else(|| runtime("complex: dimension mismatch"))?;
    let n: usize = dims.iter().product();
    let at = |a: &Array<f64>, k: usize| if a.is_scalar() { a.data[0] } else { a.data[k] };
    let data = (0..n).map(|k| Complex64::new(at(&re, k), at(&im, k))).collect();
    Ok(vec![Value::Complex(Array::new(dims, data))])
}
