//! A compressed Jacobian by a bidirectional partition (see `ad::bicoloring`): one dense forward run of
//! `J S` for the forward rows' colours, one recorded run swept back with the reverse row groups'
//! weights `W` for `J' W`, and every entry of J read from one or the other. A pattern that is the
//! user's or local to this x is checked as in column compression: one more forward direction r, and
//! `J r` compared with the assembled J.

use super::jacobian::{Seed, Stale, check_direction, compressed as column_compressed, first_mismatch, run_dense, stale, verify_product};
use super::{JacobianStorage, Options, Prepared};
use crate::ad::bicoloring::{Bicoloring, Partition};
use crate::ad::coloring::{append_seed, color_columns, gather_nonzeros};
use crate::ad::reverse;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::exec::interp::ControlRecord;
use crate::value::Value;
use crate::value::buffers;
use crate::value::deriv::DenseDeriv;

/// Value and J of the plan's first output, the plan's compression being bidirectional.
pub(super) fn compressed(
    plan: &mut Prepared,
    args: &[Value],
    wrt: usize,
    n: usize,
    options: &Options,
    log: &mut Vec<String>,
) -> Result<(Value, Value)> {
    let c = plan.compression.as_ref().expect("a compression is set up before compressed evaluation");
    let Partition::Bidirectional(b) = &c.partition else { unreachable!("called for bidirectional partitions only") };
    let (m, from_user) = (c.pattern.nrows(), c.from_user);
    let check = (from_user || c.control.needs_check()).then(|| check_direction(n));
    let p = b.columns.ncolors;
    let nd = p + usize::from(check.is_some());
    let forward = if nd > 0 {
        let mut seed = buffers::take(n * nd);
        if p > 0 {
            append_seed(&b.columns, &mut seed);
        }
        seed.extend(check.iter().flatten());
        Some(run_dense(plan, args, wrt, Seed::Block(DenseDeriv::from_seed(n, nd, seed)), c.seed_id, None, options.threads)?)
    } else {
        None
    };
    let run = match reverse::transposed_products(plan.interpreter(false), args, wrt, b.weights(), b.nreverse) {
        Err(d) if d.kind == ErrorKind::Unsupported => return by_columns(plan, args, wrt, n, options, log, &d),
        other => other?,
    };
    let c = plan.compression.as_ref().expect("set above");
    let Partition::Bidirectional(b) = &c.partition else { unreachable!("checked above") };
    let on_path = |control: &ControlRecord| from_user || c.control.same_path(control);
    let forward_on_path = forward.as_ref().is_none_or(|(_, _, control)| on_path(control));
    let storage = options.jacobian;
    if !on_path(&run.control) || !forward_on_path {
        return stale(plan, args, wrt, n, storage, log, Stale::Path);
    }
    let sizes_match = run.value.numel() == m && forward.as_ref().is_none_or(|(value, _, _)| value.numel() == m);
    let Some(products) = run.products.filter(|_| sizes_match) else {
        let counts = [forward.as_ref().map(|(value, _, _)| value.numel()), Some(run.value.numel())];
        let elements = counts.into_iter().flatten().find(|&e| e != m).unwrap_or(m);
        return stale(plan, args, wrt, n, storage, log, Stale::Size { rows: m, elements });
    };
    let directions = forward.map_or_else(Vec::new, |(_, directions, _)| directions.data);
    let jacobian = assemble(&c.pattern, b, &directions[..m * p], &products);
    if let Some(r) = &check {
        let jr = &directions[m * p..];
        if from_user {
            verify_product(&jacobian, r, jr)?;
        } else if first_mismatch(&jacobian, r, jr).is_some() {
            return stale(plan, args, wrt, n, storage, log, Stale::OutsideLocal);
        }
    }
    buffers::give(directions);
    log.push(format!("msad: bidirectional evaluation with {p} forward directions and {} reverse passes", b.nreverse));
    let jacobian = match storage {
        JacobianStorage::Full => Value::Double(jacobian.to_dense()),
        _ => Value::Sparse(jacobian),
    };
    Ok((run.value, jacobian))
}

/// J from `J S` (`m x ncolors`) and `J' W` (`n x nreverse`), each entry read from the side its row is on.
fn assemble(pattern: &crate::ad::pattern::Pattern, b: &Bicoloring, forward: &[f64], reverse: &[f64]) -> crate::value::SparseMatrix {
    let (m, n) = (pattern.nrows(), pattern.ncols());
    let both = [forward, reverse].concat();
    gather_nonzeros(pattern, &both, |_, i, j| b.source(m, n, i, j))
}

/// What reverse mode cannot record yet, column colouring computes: the plan keeps to it from now on.
fn by_columns(
    plan: &mut Prepared,
    args: &[Value],
    wrt: usize,
    n: usize,
    options: &Options,
    log: &mut Vec<String>,
    why: &Diagnostic,
) -> Result<(Value, Value)> {
    log.push(format!("msad: reverse passes unavailable ({}): column colouring", why.message));
    let c = plan.compression.as_mut().expect("set above");
    c.partition = Partition::Columns(color_columns(&c.pattern));
    column_compressed(plan, args, wrt, n, options, log)
}
