//! Reverse mode: the gradient of a scalar output. A primal run of the prepared code records a tape of
//! every operation on values that depend on x (control flow is resolved by the run, so the tape is a
//! linear trace); a backward sweep over it accumulates adjoints with the primitives' reverse rules.
//!
//! Hessians run forward over reverse: the primal run carries tangent directions (the forward rules'
//! derivative blocks, seeded with the columns of a compressed seed), the tape keeps the tangents that
//! second-order terms read, and the sweep carries adjoint tangents with the adjoints: `H * S`. The
//! Hessian's sparsity comes from a tape recorded without tangents (see `interactions`).

mod interactions;
mod sweep;
pub mod tape;

use crate::ad::pattern::Pattern;
use crate::ad::slot::Slot;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::value::Value;
use crate::value::deriv::{DenseDeriv, Deriv};
use tape::Tape;

/// What records a tape: a run of the entry function on its arguments, x carrying a tape variable (the
/// interpreter). `Control` is what the run tells of the path it took.
pub trait Recorder {
    type Control;
    /// The first result, the tape, and the path taken.
    fn record(self, tape: Tape, args: Vec<Slot>) -> Result<(Slot, Tape, Self::Control)>;
}

/// A gradient run's results.
pub struct Gradient {
    pub value: Value,
    /// With respect to `args[wrt]` (one entry per element, column-major); None: the output is not scalar.
    pub gradient: Option<Vec<f64>>,
    /// What the tape held at the end of the primal run (`Tape::bytes`).
    pub tape_bytes: usize,
    /// Whether the output is on the tape; off it, the gradient is zero, which the caller confirms
    /// (see `engine::mode::check_off_tape`): a dependence on x lost on the way is never a silent zero.
    pub on_tape: bool,
}

/// The first output's value and, when it is a scalar, its gradient.
pub fn gradient(interpreter: impl Recorder, args: &[Value], wrt: usize) -> Result<Gradient> {
    let (result, tape, x, _) = record_gradient(interpreter, args, wrt)?;
    let tape_bytes = tape.bytes();
    // A complex f has a complex J: forward mode's.
    let real_scalar = result.value.numel() == 1 && !matches!(result.value, Value::Complex(_));
    let gradient = real_scalar.then(|| sweep::sweep(tape, result.tape, x, 0)).transpose()?;
    Ok(Gradient { value: result.value, gradient, tape_bytes, on_tape: result.tape.is_some() })
}

/// A run of `J' W` products.
pub struct TransposedProducts<C> {
    pub value: Value,
    /// `numel(x) x q` (column-major); None: the output does not have the rows W was made for.
    pub products: Option<Vec<f64>>,
    /// The x-dependent branch decisions the run took.
    pub control: C,
}

/// The first output's value and `J' W` for the weights `W` (`m x q`, column-major, m the output's
/// expected number of elements): one recording and one sweep carrying the q columns together.
pub fn transposed_products<R: Recorder>(
    interpreter: R,
    args: &[Value],
    wrt: usize,
    weights: Vec<f64>,
    q: usize,
) -> Result<TransposedProducts<R::Control>> {
    let (result, tape, x, control) = record_gradient(interpreter, args, wrt)?;
    if matches!(result.value, Value::Complex(_)) {
        // W weighs one row per element; a complex f has two (real and imaginary parts).
        return Err(Diagnostic::new(ErrorKind::Unsupported, "J' W products of a complex f in reverse mode"));
    }
    let products =
        (result.value.numel() * q == weights.len()).then(|| sweep::transposed_products(tape, result.tape, x, weights, q)).transpose()?;
    Ok(TransposedProducts { value: result.value, products, control })
}

/// Runs the function with x on a first-order tape: its first result, the tape, x on it and the
/// x-dependent branch decisions taken.
fn record_gradient<R: Recorder>(interpreter: R, args: &[Value], wrt: usize) -> Result<(Slot, Tape, tape::TapeVar, R::Control)> {
    let mut tape = Tape::default();
    let x = tape.input(args[wrt].numel());
    let slots = args.iter().enumerate().map(|(i, v)| Slot { tape: (i == wrt).then_some(x), ..Slot::inactive(v.clone()) }).collect();
    let (result, tape, control) = interpreter.record(tape, slots)?;
    result.value.check_function_result()?;
    Ok((result, tape, x, control))
}

/// A Hessian run's results, for a scalar output.
pub struct HessianRun<T, C> {
    pub value: Value,
    /// None: the output is not scalar.
    pub result: Option<T>,
    /// The x-dependent branch decisions the run took: its tape (and the Hessian pattern) hold for the
    /// same decisions only.
    pub control: C,
    /// Whether the output is on the tape (see `Gradient::on_tape`).
    pub on_tape: bool,
}

/// The block `[g, H * S]` (`n x (1 + p)`, column-major: the gradient, then the products) for the seed
/// `S`, returned whole: splitting off the products would copy them.
pub fn hessian_products<R: Recorder>(
    interpreter: R,
    args: &[Value],
    wrt: usize,
    seed: DenseDeriv,
) -> Result<HessianRun<Vec<f64>, R::Control>> {
    let p = seed.nd;
    let run = record_hessian(interpreter, args, wrt, Tape::for_hessian(), Deriv::Dense(seed))?;
    let result = run.result.map(|(tape, output, x)| sweep::sweep(tape, output, x, p)).transpose()?;
    Ok(HessianRun { value: run.value, result, control: run.control, on_tape: run.on_tape })
}

/// The Hessian's sparsity pattern at `args`.
pub fn hessian_pattern<R: Recorder>(interpreter: R, args: &[Value], wrt: usize) -> Result<HessianRun<Pattern, R::Control>> {
    let n = args[wrt].numel();
    let run = record_hessian(interpreter, args, wrt, Tape::for_hessian_pattern(), Deriv::Zero)?;
    let result = run.result.map(|(tape, _, x)| interactions::hessian_pattern(&tape, x, n)).transpose()?;
    Ok(HessianRun { value: run.value, result, control: run.control, on_tape: run.on_tape })
}

type Recorded = (Tape, Option<tape::TapeVar>, tape::TapeVar);

/// Runs the function with x carrying `tangents` (none for a pattern), recording `tape`.
fn record_hessian<R: Recorder>(
    interpreter: R,
    args: &[Value],
    wrt: usize,
    mut tape: Tape,
    tangents: Deriv,
) -> Result<HessianRun<Recorded, R::Control>> {
    let x = tape.input(args[wrt].numel());
    let mut tangents = Some(tangents);
    let slots = args
        .iter()
        .enumerate()
        .map(|(i, v)| match (i == wrt).then(|| tangents.take()).flatten() {
            Some(deriv) => Slot { tape: Some(x), ..Slot::new(v.clone(), deriv) },
            None => Slot::inactive(v.clone()),
        })
        .collect();
    let (result, tape, control) = interpreter.record(tape, slots)?;
    result.value.check_function_result()?;
    if crate::primitives::complex::is_complex(&result.value) {
        return Err(complex_objective());
    }
    let recorded = (result.value.numel() == 1).then_some((tape, result.tape, x));
    Ok(HessianRun { value: result.value, result: recorded, control, on_tape: result.tape.is_some() })
}

/// The error for a Hessian of a complex f (its second derivatives would be complex and of both parts).
fn complex_objective() -> Diagnostic {
    Diagnostic::new(ErrorKind::BadInput, "the Hessian (third output) needs a real scalar f, but f is complex")
        .with_hint("ask for the Hessian of a real function of it (real(f), imag(f), abs(f)^2); [f, J] gives the complex J")
}
