//! Hessians of a scalar output: the pattern is detected on the first call (a sparse forward-over-reverse
//! run, see `ad::reverse`) and coloured symmetrically (`ad::hessian`); every call then runs p compressed
//! Hessian-vector products in one sweep (`B = H * S`, with the gradient) and decompresses H.
//!
//! Like the Jacobian: 'auto' storage returns a sparse H when compression pays (p <= n/4), full
//! otherwise; the pattern holds for the control path it was detected on, and a call that takes another
//! x-dependent branch detects again. Some patterns hold at this x only without a branch to show it (an
//! operand of a nonlinear term chosen by `sort`): every call also computes `H r` for a fixed direction
//! r and compares it with the decompressed H times r; a mismatch detects again at this x.

use super::jacobian::{check_direction, first_mismatch_above};
use super::{JacobianStorage, Options, Prepared, Sparsity, mode};
use crate::ad::coloring::seed_matrix;
use crate::ad::hessian::SymmetricCompression;
use crate::ad::pattern::Pattern;
use crate::ad::reverse;
use crate::diag::{Diagnostic, ErrorKind, Result, err};
use crate::exec::deriv::DenseDeriv;
use crate::exec::interp::ControlRecord;
use crate::exec::value::Value;

/// A Hessian pattern's compression, cached with the prepared code.
pub(super) struct HessianCompression {
    compression: SymmetricCompression,
    /// n x p seed, column-major.
    seed: Vec<f64>,
    control: ControlRecord,
}

/// Value, gradient (a column) and Hessian of the plan's scalar first output.
pub(super) fn evaluate(
    plan: &mut Prepared,
    args: &[Value],
    wrt: usize,
    n: usize,
    options: &Options,
    log: &mut Vec<String>,
) -> Result<(Value, Value, Value)> {
    if options.seed.is_some() || matches!(options.sparsity, Sparsity::Pattern(_)) || options.jacobian == JacobianStorage::Pattern {
        return err(
            ErrorKind::BadInput,
            "opts.seed, a sparsity pattern and opts.jacobian = 'pattern' apply to J: \
            leave them unset when asking for the Hessian (three outputs)"
                .to_string(),
        );
    }
    let detected_now = plan.hessian.is_none();
    if detected_now {
        detect(plan, args, wrt, n, options, log)?;
    }
    let h = plan.hessian.as_ref().expect("detected above");
    let p = h.compression.coloring.ncolors;
    let check = check_direction(n);
    let mut seed = h.seed.clone();
    seed.extend(&check);
    let run = reverse::hessian_products(plan.interpreter(false), args, wrt, DenseDeriv::from_seed(n, p + 1, seed))?;
    let Some((gradient, products)) = run.result else { return Err(not_scalar(&run.value)) };
    if !run.on_tape {
        mode::check_off_tape(plan, args, wrt, n)?;
    }
    if !h.control.same_path(&run.control) {
        log.push("msad: the control path changed since the Hessian pattern was detected: detecting again".into());
        plan.hessian = None;
        return evaluate(plan, args, wrt, n, options, log);
    }
    let hessian = h.compression.decompress(&products[..n * p]);
    if first_mismatch_above(&hessian, &check, &products[n * p..], round_off(&gradient, &args[wrt])).is_some() {
        if detected_now {
            return err(ErrorKind::Internal, "the Hessian detected at this x misses entries (H r differs)".to_string());
        }
        log.push("msad: the Hessian has entries outside the pattern at this x: detecting again".into());
        plan.hessian = None;
        return evaluate(plan, args, wrt, n, options, log);
    }
    log.push(format!("msad: {p} Hessian-vector products (forward over reverse) and one check"));
    let pays = 4 * p <= n;
    let hessian = match options.jacobian {
        JacobianStorage::Sparse => Value::Sparse(hessian),
        JacobianStorage::Auto if pays => Value::Sparse(hessian),
        _ => Value::Double(hessian.to_dense()),
    };
    Ok((run.value, mode::gradient_column(gradient, options.jacobian), hessian))
}

fn detect(plan: &mut Prepared, args: &[Value], wrt: usize, n: usize, options: &Options, log: &mut Vec<String>) -> Result<()> {
    let detecting = std::time::Instant::now();
    let (pattern, control) = if options.sparsity == Sparsity::None {
        (Pattern::from_rows(n, &vec![(0..n).collect::<Vec<_>>(); n]), ControlRecord::default())
    } else {
        let run = reverse::hessian_pattern(plan.interpreter(false), args, wrt)?;
        let Some(pattern) = run.result else { return Err(not_scalar(&run.value)) };
        (pattern, run.control)
    };
    log.push(format!("msad: Hessian sparsity detection took {}", super::milliseconds(detecting)));
    let colouring = std::time::Instant::now();
    let compression = SymmetricCompression::new(pattern);
    log.push(format!("msad: Hessian colouring took {}", super::milliseconds(colouring)));
    store(plan, compression, control, log);
    Ok(())
}

fn store(plan: &mut Prepared, compression: SymmetricCompression, control: ControlRecord, log: &mut Vec<String>) {
    let pattern = &compression.pattern;
    log.push(format!(
        "msad: Hessian pattern {0}x{0}, nnz {1}, {2} colours (row bound {3}), {4}",
        pattern.ncols(),
        pattern.nnz(),
        compression.coloring.ncolors,
        pattern.max_row_nnz(),
        if control.global { "valid for every x" } else { "local to this control path" }
    ));
    let seed = seed_matrix(&compression.coloring).data;
    plan.hessian = Some(HessianCompression { compression, seed, control });
}

/// The size below which a row of `H r` is round-off: where f's curvature cancels (`abs(sqrt(x)).^2` is
/// `|x|`), H is noise, which the check must not take for an entry outside the pattern.
fn round_off(gradient: &[f64], x: &Value) -> f64 {
    let largest = |v: &[f64]| v.iter().fold(0.0f64, |m, a| m.max(a.abs()));
    let x_scale = x.numeric().map_or(1.0, |a| largest(&a.data).max(1.0));
    (1e-12 * largest(gradient) / x_scale).max(f64::MIN_POSITIVE)
}

fn not_scalar(value: &Value) -> Diagnostic {
    Diagnostic::new(ErrorKind::BadInput, format!("the Hessian (third output) needs a scalar f, but f has {} elements", value.numel()))
        .with_hint("ask for [f, J] for a vector-valued function")
}
