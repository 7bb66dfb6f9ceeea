//! Forward or reverse mode for the derivative output.
//!
//! Reverse mode computes the gradient of a scalar output in one backward sweep, whatever n is; forward
//! mode needs one direction per colour (or per element of x). 'auto' picks reverse when the output is
//! scalar and x has more than `REVERSE_ABOVE_N` elements (below that, the few forward directions are
//! as cheap as recording a tape). Whether the output is scalar is learnt on the first call: a
//! function whose output turns out not to be scalar runs forward from then on.
//!
//! For a scalar output the derivative is returned as the gradient, a column of `numel(x)` entries (the
//! transposed 1 x n Jacobian), in either mode: what `fminunc` wants with 'GradObj'.

use super::{JacobianStorage, Options, Prepared, jacobian};
use crate::ad::reverse;
use crate::diag::{ErrorKind, Result, err};
use crate::primitives::complex;
use crate::value::{Array, SparseMatrix, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Auto,
    Forward,
    Reverse,
}

const REVERSE_ABOVE_N: usize = 8;

/// Value and derivative (Jacobian, or gradient column for a scalar output) of the plan's first output.
pub(super) fn evaluate(
    plan: &mut Prepared,
    args: &[Value],
    wrt: usize,
    n: usize,
    options: &Options,
    log: &mut Vec<String>,
) -> Result<(Value, Value)> {
    if let Some(seed) = &options.seed {
        log.push(format!("msad: forward mode with the user seed ({} directions)", seed.cols()));
        let (value, product) = jacobian::seeded(plan, args, wrt, n, seed, options.threads)?;
        return Ok(complex::outputs(value, product, false));
    }
    if uses_reverse(plan, n, options) {
        let run = match reverse::gradient(plan.interpreter(false), args, wrt) {
            // What reverse mode cannot record yet, forward mode may handle: 'auto' falls back.
            Err(d) if options.mode == Mode::Auto && d.kind == ErrorKind::Unsupported => {
                log.push(format!("msad: reverse mode unavailable ({}): forward mode", d.message));
                // Not retried in 'auto' mode for this plan: reverse mode would fail the same way.
                plan.reverse_refused = true;
                return evaluate(plan, args, wrt, n, options, log);
            }
            other => other?,
        };
        plan.scalar_output = Some(run.gradient.is_some());
        if let Some(gradient) = run.gradient {
            if !run.on_tape {
                check_off_tape(plan, args, wrt, n)?;
            }
            log.push(format!("msad: reverse mode gradient (scalar output, n = {n}, tape {} bytes)", run.tape_bytes));
            return Ok((run.value, gradient_column(gradient, options.jacobian)));
        }
        log.push("msad: the output is not scalar: forward mode".to_string());
    }
    let (value, jacobian) = jacobian::evaluate(plan, args, wrt, n, options, log)?;
    let (value, jacobian) = complex::outputs(value, jacobian, options.jacobian == JacobianStorage::Pattern);
    let derivative = match options.jacobian {
        JacobianStorage::Pattern => jacobian,
        _ if value.numel() == 1 => transposed_row(jacobian),
        _ => jacobian,
    };
    Ok((value, derivative))
}

/// A scalar output off the tape has a zero gradient: one forward direction must agree, else reverse
/// mode lost a dependence on x on the way (an internal error, never a silent zero).
pub(super) fn check_off_tape(plan: &Prepared, args: &[Value], wrt: usize, n: usize) -> Result<()> {
    let direction = Array::column(jacobian::check_direction(n));
    let (_, product) = jacobian::seeded(plan, args, wrt, n, &direction, None)?;
    if product.numeric().is_some_and(|d| d.data.iter().any(|v| *v != 0.0 && v.is_finite())) {
        return err(
            ErrorKind::Internal,
            "reverse mode lost the output's dependence on x: the output is not on the tape, but forward mode \
             gives it a nonzero derivative (use opts.mode = 'forward', and report this)"
                .to_string(),
        );
    }
    Ok(())
}

fn uses_reverse(plan: &Prepared, n: usize, options: &Options) -> bool {
    let may_be_scalar = plan.scalar_output != Some(false) && options.jacobian != JacobianStorage::Pattern;
    match options.mode {
        Mode::Forward => false,
        Mode::Reverse => may_be_scalar,
        Mode::Auto => may_be_scalar && !plan.reverse_refused && n > REVERSE_ABOVE_N,
    }
}

pub(super) fn gradient_column(gradient: Vec<f64>, storage: JacobianStorage) -> Value {
    let column = Array::column(gradient);
    match storage {
        JacobianStorage::Sparse => Value::Sparse(SparseMatrix::from_dense(&column)),
        _ => Value::Double(column),
    }
}

/// The 1 x n Jacobian of a scalar output as an n x 1 column, in the same storage.
fn transposed_row(jacobian: Value) -> Value {
    match jacobian {
        Value::Double(row) => Value::Double(Array::column(row.data)),
        Value::Complex(row) => Value::Complex(Array::column(row.data)),
        Value::Sparse(row) => Value::Sparse(row.transposed()),
        other => other,
    }
}
