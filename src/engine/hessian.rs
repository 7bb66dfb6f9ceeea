//! Hessians of a scalar output: the pattern is detected on the first call (a sparse forward-over-reverse
//! run, see `ad::reverse`) and coloured symmetrically (`ad::hessian`); every call then runs p compressed
//! Hessian-vector products, forward over reverse (`B = H * S`, with the gradient; in one sweep, or a
//! few when p is large: see `BLOCK_ENTRIES`) and decompresses H.
//!
//! Like the Jacobian: 'auto' storage returns a sparse H when compression pays (p <= n/4), full
//! otherwise; the pattern holds for the control path it was detected on, and a call that takes another
//! x-dependent branch detects again. Some patterns hold at this x only without a branch to show it (an
//! operand of a nonlinear term chosen by `sort`): every call also computes `H r` for a fixed direction
//! r and compares it with the decompressed H times r; a mismatch detects again at this x.

use super::jacobian::{check_direction, first_entries_mismatch};
use super::{JacobianStorage, Options, Prepared, Sparsity, mode};
use crate::ad::coloring::{Coloring, append_seed_columns};
use crate::ad::hessian::SymmetricCompression;
use crate::ad::pattern::Pattern;
use crate::ad::reverse;
use crate::diag::{Diagnostic, ErrorKind, Result, err};
use crate::exec::interp::ControlRecord;
use crate::value::deriv::DenseDeriv;
use crate::value::{Array, Value};

/// A Hessian pattern's compression, cached with the prepared code.
pub(super) struct HessianCompression {
    compression: SymmetricCompression,
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
    let run = compressed_products(plan, args, wrt, &h.compression.coloring)?;
    if !run.on_tape {
        mode::check_off_tape(plan, args, wrt, n)?;
    }
    if !h.control.same_path(&run.control) {
        log.push("msad: the control path changed since the Hessian pattern was detected: detecting again".into());
        plan.hessian = None;
        return evaluate(plan, args, wrt, n, options, log);
    }
    let products = &run.compressed;
    let round_off = round_off(&run.gradient, &args[wrt]);
    if first_entries_mismatch(n, h.compression.entries(products), &check_direction(n), &run.check, round_off).is_some() {
        if detected_now {
            return err(ErrorKind::Internal, "the Hessian detected at this x misses entries (H r differs)".to_string());
        }
        log.push("msad: the Hessian has entries outside the pattern at this x: detecting again".into());
        plan.hessian = None;
        return evaluate(plan, args, wrt, n, options, log);
    }
    log.push(format!("msad: {p} Hessian-vector products (forward over reverse) and one check"));
    let sparse = match options.jacobian {
        JacobianStorage::Sparse => true,
        JacobianStorage::Auto => 4 * p <= n,
        _ => false,
    };
    let hessian = match sparse {
        true => Value::Sparse(h.compression.decompress(products)),
        false => Value::Double(Array::new(vec![n, n], h.compression.decompress_full(products))),
    };
    Ok((run.value, mode::gradient_column(run.gradient, options.jacobian), hessian))
}

/// Directions a forward-over-reverse run carries are chosen so that its blocks (`n x directions`)
/// hold about this many entries: a dense Hessian's n directions in one run make every block n x n
/// (8 MB at n = 1000), and most of the time went to page faults and cache misses.
const BLOCK_ENTRIES: usize = 1 << 17;

/// At least this many directions per run, so the primal each run repeats stays a small share.
const MIN_DIRECTIONS_PER_RUN: usize = 32;

/// The products of one Hessian evaluation.
struct Products {
    value: Value,
    gradient: Vec<f64>,
    /// `B = H * S`, `n x p` column-major.
    compressed: Vec<f64>,
    /// `H r` for the check direction r.
    check: Vec<f64>,
    control: ControlRecord,
    on_tape: bool,
}

/// `B = H * S` in runs over consecutive colours (see `BLOCK_ENTRIES`), the check direction carried by
/// the last run; the value, gradient and control path from the first.
fn compressed_products(plan: &Prepared, args: &[Value], wrt: usize, coloring: &Coloring) -> Result<Products> {
    let (n, p) = (coloring.colors.len(), coloring.ncolors);
    let per_run = (BLOCK_ENTRIES / n.max(1)).max(MIN_DIRECTIONS_PER_RUN);
    let mut compressed = Vec::with_capacity(n * p);
    let mut first: Option<(Value, Vec<f64>, ControlRecord, bool)> = None;
    let mut start = 0;
    loop {
        let end = (start + per_run).min(p);
        let last = end == p;
        // The seed's columns and, with the last, the check direction, written afresh (cheaper than
        // copying a kept S).
        let mut seed = Vec::with_capacity(n * (end - start + 1));
        append_seed_columns(coloring, start..end, &mut seed);
        if last {
            seed.extend(check_direction(n));
        }
        let directions = end - start + usize::from(last);
        let run = reverse::hessian_products(plan.interpreter(false), args, wrt, DenseDeriv::from_seed(n, directions, seed))?;
        let Some(block) = run.result else { return Err(not_scalar(&run.value)) };
        compressed.extend_from_slice(&block[n..n * (1 + end - start)]);
        let (value, gradient, control, on_tape) =
            first.take().unwrap_or_else(|| (run.value, block[..n].to_vec(), run.control, run.on_tape));
        if last {
            let check = block[n * (1 + end - start)..].to_vec();
            return Ok(Products { value, gradient, compressed, check, control, on_tape });
        }
        first = Some((value, gradient, control, on_tape));
        start = end;
    }
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
    plan.hessian = Some(HessianCompression { compression, control });
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
