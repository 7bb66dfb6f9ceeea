//! How a Jacobian is computed.
//!
//! - Full: n dense directions (identity seed); used with `sparsity = 'none'`, and where compression
//!   does not pay.
//! - Detection: one forward pass with a sparse identity seed. Every derivative block is sparse and keeps
//!   structural zeros, so the result is both J at x and its pattern; both sides of `if`s whose
//!   condition depends on x are run, so the pattern holds for every x unless something that may change
//!   between calls decided it: a subscript, mask, size or sort order computed from x or from another
//!   argument, a loop test or a branch on such values (see `exec::interp::selection`). Then the
//!   pattern is local: the run's control record holds those decisions and fingerprints, a later call
//!   whose record differs detects again, and every call checks J r for a fixed r as well.
//! - Compressed: p dense directions with the colouring's seed S, B = J S, decompressed into a sparse J
//!   with a guard against entries outside a user pattern (`msad:badPattern`); a detected pattern holds
//!   by construction on its control path.
//! - Bidirectional: where dense rows make column colouring costly (a sum constraint, an arrowhead),
//!   those rows come from reverse passes J' W and the rest from forward ones (`super::bidirectional`).
//!
//! 'auto' runs detection on the first call and colours the pattern. Compression pays when it needs at
//! most a quarter of the directions (p <= n/4): later calls are compressed and return a sparse J.
//! Otherwise later calls run full and return a full J. `jacobian = 'full'` only chooses J's storage:
//! a sparse J is still computed compressed, then stored full.

use super::{JacobianStorage, Options, Prepared, Sparsity};
use crate::ad::bicoloring::Partition;
use crate::ad::coloring::{append_seed, decompress, decompress_exact};
use crate::ad::pattern::Pattern;
use crate::ad::slot::Slot;
use crate::diag::{Diagnostic, ErrorKind, Result};
use crate::exec::interp::ControlRecord;
use crate::ir::FuncId;
use crate::value::buffers;
use crate::value::deriv::{DenseDeriv, Deriv, SeedColours, SparseDeriv};
use crate::value::{Array, SparseMatrix, Value};
use std::time::Instant;

/// A pattern with its colouring, cached with the prepared code.
pub(super) struct Compression {
    pub(super) pattern: Pattern,
    /// Column colouring, or a bidirectional partition (see `super::bidirectional`).
    pub(super) partition: Partition,
    /// The control path the pattern was detected on; `global` patterns hold on every path.
    pub(super) control: ControlRecord,
    pub(super) from_user: bool,
    /// Names this seed in the derivative cache.
    pub(super) seed_id: u64,
}

/// The most passes (directions) with which compression pays for `n` columns: a quarter of them.
fn pass_budget(n: usize) -> usize {
    n / 4
}

/// The full-mode seed's id in the derivative cache; compressions count up from 1.
const IDENTITY_SEED: u64 = 0;

impl Compression {
    fn new(pattern: Pattern, control: ControlRecord, from_user: bool) -> Compression {
        let partition = Partition::choose(&pattern, pass_budget(pattern.ncols()));
        static SEEDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(IDENTITY_SEED + 1);
        let seed_id = SEEDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Compression { pattern, partition, control, from_user, seed_id }
    }

    fn pays(&self) -> bool {
        self.partition.passes() <= pass_budget(self.pattern.ncols())
    }

    fn describe(&self, log: &mut Vec<String>) {
        let row_bound = self.pattern.max_row_nnz();
        let passes = match &self.partition {
            Partition::Columns(c) => format!("{} colours (row bound {row_bound}, {:?} ordering)", c.ncolors, c.ordering_used),
            Partition::Bidirectional(b) => format!(
                "bidirectional: {} forward colours and {} reverse row groups (column colouring needs at least {row_bound})",
                b.columns.ncolors, b.nreverse
            ),
        };
        log.push(format!(
            "msad: pattern {}x{}, nnz {}, {passes}, {}",
            self.pattern.nrows(),
            self.pattern.ncols(),
            self.pattern.nnz(),
            match (self.from_user, self.control.global) {
                (true, _) => "given by the user",
                (false, true) => "global (valid for every x)",
                (false, false) if !self.control.needs_check() => {
                    "local to the shapes of the arguments it depends on (detected again when they change)"
                }
                (false, false) => "local to this x (a selection, loop test or failing branch side that may change between calls was met: checked on every call)",
            }
        ));
    }
}

/// Value and Jacobian (or pattern) of the plan's first output with respect to argument `wrt`.
pub(super) fn evaluate(
    plan: &mut Prepared,
    args: &[Value],
    wrt: usize,
    n: usize,
    options: &Options,
    log: &mut Vec<String>,
) -> Result<(Value, Value)> {
    let storage = options.jacobian;
    if options.sparsity == Sparsity::None {
        return full(plan, args, wrt, n, options);
    }
    if let Sparsity::Pattern(user) = &options.sparsity {
        if user.ncols() != n {
            return Err(Diagnostic::new(
                ErrorKind::BadPattern,
                format!("opts.sparsity has {} columns but x has {} elements", user.ncols(), n),
            ));
        }
        if !plan.compression.as_ref().is_some_and(|c| c.from_user && c.pattern == *user) {
            plan.compression = Some(Compression::new(user.clone(), ControlRecord::default(), true));
        }
        return compressed(plan, args, wrt, n, options, log);
    }
    match &plan.compression {
        Some(c) if !c.from_user && (c.pays() || matches!(storage, JacobianStorage::Sparse | JacobianStorage::Pattern)) => {
            compressed(plan, args, wrt, n, options, log)
        }
        Some(c) if !c.from_user => full(plan, args, wrt, n, options),
        _ => detect(plan, args, wrt, n, storage, log),
    }
}

/// Value and the compressed product J S for a user seed S (n x p, checked by the caller), as an m x p
/// full matrix.
pub(super) fn seeded(
    plan: &Prepared,
    args: &[Value],
    wrt: usize,
    n: usize,
    seed: &Array<f64>,
    threads: Option<usize>,
) -> Result<(Value, Value)> {
    let p = seed.cols();
    let (value, directions, _) =
        run_dense(plan, args, wrt, Seed::Block(DenseDeriv::from_seed(n, p, seed.data.clone())), user_seed_id(seed), None, threads)?;
    let m = derivative_rows(&value);
    Ok((value, Value::Double(Array::new(vec![m, p], directions.data))))
}

/// Names a user seed in the derivative cache by its content; the top bit keeps it apart from the ids of
/// colouring seeds, which count up from `IDENTITY_SEED`.
fn user_seed_id(seed: &Array<f64>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    seed.dims.hash(&mut h);
    seed.data.iter().for_each(|x| x.to_bits().hash(&mut h));
    h.finish() | 1 << 63
}

fn seeded_args(args: &[Value], wrt: usize, seed: Deriv) -> Vec<Slot> {
    let mut seed = Some(seed);
    args.iter()
        .enumerate()
        .map(|(i, v)| match (i == wrt, v) {
            // A derivative for every element of x, zeros included: x is differentiated as a full matrix.
            (true, Value::Sparse(s)) => Slot::new(Value::Double(s.to_dense()), seed.take().expect("one seed")),
            (true, _) => Slot::new(v.clone(), seed.take().expect("one seed")),
            (false, _) => Slot::new(v.clone(), Deriv::Zero),
        })
        .collect()
}

fn full(plan: &Prepared, args: &[Value], wrt: usize, n: usize, options: &Options) -> Result<(Value, Value)> {
    crate::value::memory::check_dims(&[n, n], size_of::<f64>())?;
    let mut identity = vec![0.0; n * n];
    (0..n).for_each(|i| identity[i * n + i] = 1.0);
    let seed = DenseDeriv::from_seed(n, n, identity);
    let (value, directions, _) = run_dense(plan, args, wrt, Seed::Block(seed), IDENTITY_SEED, None, options.threads)?;
    let m = derivative_rows(&value);
    let full = Array::new(vec![m, n], directions.data);
    let storage = options.jacobian;
    let jacobian = match storage {
        JacobianStorage::Auto | JacobianStorage::Full => Value::Double(full),
        JacobianStorage::Sparse => Value::Sparse(SparseMatrix::from_dense(&full)),
        JacobianStorage::Pattern => Value::Sparse(ones(&Pattern::from_sparse(&SparseMatrix::from_dense(&full)))),
    };
    Ok((value, jacobian))
}

pub(super) fn detect(
    plan: &mut Prepared,
    args: &[Value],
    wrt: usize,
    n: usize,
    storage: JacobianStorage,
    log: &mut Vec<String>,
) -> Result<(Value, Value)> {
    let detecting = Instant::now();
    let seed = Deriv::Sparse(SparseDeriv::identity(n));
    let (result, control) = run(plan, seeded_args(args, wrt, seed), true, None, None)?;
    log.push(format!("msad: sparsity detection took {}", super::milliseconds(detecting)));
    let m = derivative_rows(&result.value);
    let (pattern, jacobian) = match result.deriv {
        Deriv::Sparse(mut s) => {
            let (ptr, cols, _) = s.csr();
            (Pattern::from_csr(m, n, ptr, cols), csr_to_csc(&mut s, n))
        }
        // A dense block (a rule that knows no structure, such as a sparse solve) may hold entries that
        // are zero only at this x (cancellation, underflow): its pattern is every entry.
        Deriv::Dense(d) => {
            let j = SparseMatrix::from_dense(&Array::new(vec![m, n], d.data));
            (Pattern::from_dense(m, n, &vec![true; m * n]), j)
        }
        other => {
            let j = SparseMatrix::from_dense(&Array::new(vec![m, n], other.to_dense(m, n).data));
            (Pattern::from_sparse(&j), j)
        }
    };
    let colouring = Instant::now();
    let compression = Compression::new(pattern, control, false);
    log.push(format!("msad: colouring took {}", super::milliseconds(colouring)));
    compression.describe(log);
    // Blocks cached for an earlier seed will not be asked for again.
    plan.derivative_cache.lock().unwrap_or_else(|e| e.into_inner()).clear();
    let pays = compression.pays();
    let jacobian = match storage {
        JacobianStorage::Pattern => Value::Sparse(ones(&compression.pattern)),
        JacobianStorage::Auto if !pays => Value::Double(jacobian.to_dense()),
        JacobianStorage::Full => Value::Double(jacobian.to_dense()),
        JacobianStorage::Auto | JacobianStorage::Sparse => Value::Sparse(jacobian),
    };
    plan.compression = Some(compression);
    Ok((result.value, jacobian))
}

pub(super) fn compressed(
    plan: &mut Prepared,
    args: &[Value],
    wrt: usize,
    n: usize,
    options: &Options,
    log: &mut Vec<String>,
) -> Result<(Value, Value)> {
    let (storage, threads) = (options.jacobian, options.threads);
    let c = plan.compression.as_ref().expect("a compression is set up before compressed evaluation");
    if storage == JacobianStorage::Pattern {
        let (result, control) = run(plan, seeded_args(args, wrt, Deriv::Zero), false, None, None)?;
        if !c.from_user && !c.control.same_path(&control) {
            return detect(plan, args, wrt, n, storage, log);
        }
        return Ok((result.value, Value::Sparse(ones(&c.pattern))));
    }
    let coloring = match &c.partition {
        Partition::Columns(coloring) => coloring,
        Partition::Bidirectional(_) => return super::bidirectional::compressed(plan, args, wrt, n, options, log),
    };
    let p = coloring.ncolors;
    // A user pattern, and a detected one that is not global, is checked with one more direction: J r,
    // compared with the decompressed J times r. The fingerprints of the control record decide when a
    // local pattern is detected again; the check guards what they cannot see.
    let checked = c.from_user || c.control.needs_check();
    let check = checked.then(|| check_direction(n));
    let nd = p + usize::from(checked);
    // The check direction is no colour: a checked seed is read as a block.
    let colours = (!checked).then_some(&coloring.colors[..]);
    // Selections serve every read of a double argument from the colours: no seed block then.
    let colours_only = colours.is_some() && plan.seed_read_by_selections && matches!(args[wrt], Value::Double(_));
    let seed = match colours_only {
        true => Seed::Colours { rows: n, nd },
        false => {
            let mut seed = buffers::take(n * (p + 1));
            append_seed(coloring, &mut seed);
            seed.extend(check.iter().flatten());
            Seed::Block(DenseDeriv::from_seed(n, nd, seed))
        }
    };
    let (value, directions, control) = run_dense(plan, args, wrt, seed, c.seed_id, colours, threads)?;
    if !c.from_user && !c.control.same_path(&control) {
        return stale(plan, args, wrt, n, storage, log, Stale::Path);
    }
    let m = derivative_rows(&value);
    if m != c.pattern.nrows() {
        return stale(plan, args, wrt, n, storage, log, Stale::Size { rows: c.pattern.nrows(), elements: m });
    }
    let compressed_product = &directions.data[..m * p];
    // A detected pattern holds on the path it was detected on (checked above and by the check
    // direction): the guard is for user patterns.
    let jacobian = match c.from_user {
        true => decompress(&c.pattern, coloring, compressed_product)?,
        false => decompress_exact(&c.pattern, coloring, compressed_product),
    };
    if let Some(r) = &check {
        if c.from_user {
            verify_product(&jacobian, r, &directions.data[m * p..])?;
        } else if first_mismatch(&jacobian, r, &directions.data[m * p..]).is_some() {
            buffers::give(directions.data);
            return stale(plan, args, wrt, n, storage, log, Stale::OutsideLocal);
        }
    }
    buffers::give(directions.data);
    log.push(format!("msad: compressed evaluation with {p} directions"));
    let jacobian = match storage {
        JacobianStorage::Full => Value::Double(jacobian.to_dense()),
        _ => Value::Sparse(jacobian),
    };
    Ok((value, jacobian))
}

/// Why the cached pattern does not serve this call.
pub(super) enum Stale {
    /// The control path differs from the one a local pattern was detected on.
    Path,
    /// The pattern has `rows` rows, the output `elements` elements.
    Size { rows: usize, elements: usize },
    /// J r shows entries outside a local pattern.
    OutsideLocal,
}

/// A detected pattern that does not serve this call is detected again (the reason logged); a user
/// pattern whose rows are not the output's elements is refused.
pub(super) fn stale(
    plan: &mut Prepared,
    args: &[Value],
    wrt: usize,
    n: usize,
    storage: JacobianStorage,
    log: &mut Vec<String>,
    why: Stale,
) -> Result<(Value, Value)> {
    let from_user = plan.compression.as_ref().is_some_and(|c| c.from_user);
    let reason = match why {
        Stale::Size { rows, elements } if from_user => {
            return Err(Diagnostic::new(
                ErrorKind::BadPattern,
                format!("the sparsity pattern has {rows} rows but the function returned {elements} elements"),
            ));
        }
        Stale::Path => "the control path changed since the pattern was detected",
        Stale::Size { .. } => "the output's size changed since the pattern was detected",
        Stale::OutsideLocal => "J has entries outside the local pattern at this x",
    };
    log.push(format!("msad: {reason}: detecting again"));
    detect(plan, args, wrt, n, storage, log)
}

/// A fixed direction with entries in [0.5, 1.5) and no structure a pattern could line up with.
pub(super) fn check_direction(n: usize) -> Vec<f64> {
    (0..n).map(|i| 0.5 + ((i as f64 + 1.0) * 0.618_033_988_749_895).fract()).collect()
}

/// `J r` from the decompressed J must equal the forward-mode product: a wrong pattern folds entries of
/// J onto each other, which this detects (with probability 1 over the choice of r).
pub(super) fn verify_product(jacobian: &SparseMatrix, r: &[f64], expected: &[f64]) -> Result<()> {
    match first_mismatch(jacobian, r, expected) {
        None => Ok(()),
        Some(i) => Err(Diagnostic::new(
            ErrorKind::BadPattern,
            format!("the user sparsity pattern is wrong: row {} of J has entries outside it", i + 1),
        )
        .with_hint("fix opts.sparsity, or use opts.sparsity = 'auto' to let msad detect the pattern")),
    }
}

/// The first row where `matrix * r` differs from `expected` beyond rounding, if any.
pub(super) fn first_mismatch(matrix: &SparseMatrix, r: &[f64], expected: &[f64]) -> Option<usize> {
    let columns = 0..matrix.ncols().min(r.len());
    let entries =
        columns.flat_map(|j| (matrix.colptr()[j]..matrix.colptr()[j + 1]).map(move |k| (matrix.rowind()[k], j, matrix.values()[k])));
    first_entries_mismatch(matrix.nrows(), entries, r, expected, f64::MIN_POSITIVE)
}

/// `first_mismatch` for a matrix given by its entries `(row, column, value)`, a difference below
/// `round_off` never counting.
pub(super) fn first_entries_mismatch(
    nrows: usize,
    entries: impl Iterator<Item = (usize, usize, f64)>,
    r: &[f64],
    expected: &[f64],
    round_off: f64,
) -> Option<usize> {
    let mut product = vec![0.0; nrows];
    let mut magnitude = vec![0.0; nrows];
    for (i, j, value) in entries {
        product[i] += value * r[j];
        magnitude[i] += (value * r[j]).abs();
    }
    let differs = |(p, e, mag): (f64, f64, f64)| (p - e).abs() > (1e-10 * (mag + e.abs())).max(round_off);
    (0..nrows).find(|&i| differs((product[i], expected[i], magnitude[i])))
}

/// One run of the prepared code; `seed_key` names a dense seed whose constant derivatives are cached.
/// `colours`: the seeded parameter and its seed as a colouring.
fn run<'p>(
    plan: &'p Prepared,
    args: Vec<Slot>,
    detect_sparsity: bool,
    seed_key: Option<u64>,
    colours: Option<(usize, SeedColours<'p>)>,
) -> Result<(Slot, ControlRecord)> {
    let mut interp = plan.interpreter(detect_sparsity);
    if let Some(key) = seed_key {
        interp = interp.with_seed_key(key);
    }
    if let Some((param, colours)) = colours {
        interp = interp.with_seed_colours(param, colours);
    }
    let mut result = interp.call(FuncId::new(0), args, 1)?.pop().expect("one result requested");
    result.value.check_function_result()?;
    // The Jacobian has a row per element of f; a sparse f's block has one per stored entry.
    if let Value::Sparse(s) = &result.value {
        result.deriv = crate::primitives::element_rows(s, &result.deriv)?;
    }
    Ok((result, interp.control))
}

/// Runs dense seed directions, split into contiguous chunks of columns (at least one per thread when
/// there are enough directions). Every rule treats directions independently, so the chunks' columns
/// are the same numbers a single run computes. Returns the value and the m x nd derivative block.
/// `colours`: the seed is that colouring's (see `SeedColours`).
pub(super) fn run_dense(
    plan: &Prepared,
    args: &[Value],
    wrt: usize,
    seed: Seed,
    seed_id: u64,
    colours: Option<&[usize]>,
    threads: Option<usize>,
) -> Result<(Value, DenseDeriv, ControlRecord)> {
    let chunk = |first: usize, nd: usize| colours.map(|colours| (wrt, SeedColours { colours, first, nd }));
    // Chunks of one seed are different seeds for the cache.
    let key = |lo: usize, hi: usize| {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (seed_id, lo, hi).hash(&mut h);
        h.finish()
    };
    let (n, nd) = match &seed {
        Seed::Block(block) => (block.rows, block.nd),
        Seed::Colours { rows, nd } => (*rows, *nd),
    };
    let pool = thread_pool(threads)?;
    let chunks = pool.current_num_threads().max(n * nd / CHUNK_ELEMENTS).min(nd / MIN_DIRECTIONS_PER_CHUNK).max(1);
    if chunks == 1 {
        let whole = match seed {
            Seed::Block(block) => Deriv::Dense(block),
            Seed::Colours { .. } => Deriv::Zero,
        };
        let (result, control) = run(plan, seeded_args(args, wrt, whole), false, Some(key(0, nd)), chunk(0, nd))?;
        let m = derivative_rows(&result.value);
        return Ok((result.value, result.deriv.into_dense(m, nd), control));
    }
    // The argument's derivative for directions lo..hi.
    let part = |lo: usize, hi: usize| match &seed {
        Seed::Block(block) => Deriv::Dense(DenseDeriv::from_seed(n, hi - lo, block.data[lo * n..hi * n].to_vec())),
        Seed::Colours { .. } => Deriv::Zero,
    };
    let bounds: Vec<(usize, usize)> = (0..chunks).map(|c| (c * nd / chunks, (c + 1) * nd / chunks)).collect();
    let runs: Vec<Result<(Slot, ControlRecord)>> = pool.install(|| {
        use rayon::prelude::*;
        bounds
            .par_iter()
            .map(|&(lo, hi)| run(plan, seeded_args(args, wrt, part(lo, hi)), false, Some(key(lo, hi)), chunk(lo, hi - lo)))
            .collect()
    });
    let mut data = Vec::new();
    let mut first = None;
    for (run, &(lo, hi)) in runs.into_iter().zip(&bounds) {
        let (slot, control) = run?;
        let m = derivative_rows(&slot.value);
        data.extend(slot.deriv.into_dense(m, hi - lo).data);
        first.get_or_insert((slot.value, control));
    }
    let (value, control) = first.expect("at least one chunk");
    let m = derivative_rows(&value);
    Ok((value, DenseDeriv::from_seed(m, nd, data), control))
}

/// The seed of a dense run: its block, or only its size when selections serve every read of the
/// argument from the colouring (see `SeedColours`).
pub(super) enum Seed {
    Block(DenseDeriv),
    Colours { rows: usize, nd: usize },
}

/// Below this many directions per chunk, splitting costs more (each chunk repeats the primal) than it
/// saves.
const MIN_DIRECTIONS_PER_CHUNK: usize = 16;

/// Directions are also split, on one thread too, so that a chunk's seed block (n x chunk) has at most
/// this many elements: derivative blocks of that size stay in cache and are reused by the allocator,
/// where n x n blocks of a large full Jacobian are fresh pages on every instruction (Brusselator
/// n = 4000, all directions: 1 << 20 ran 1.2-2x faster than 1 << 18 or 1 << 23).
const CHUNK_ELEMENTS: usize = 1 << 20;

/// Pools kept for the last few thread counts asked for (each holds its threads while kept).
const MAX_POOLS: usize = 4;

/// A rayon pool of the requested size (at most `MAX_THREADS`), built on first use and kept while it
/// is among the `MAX_POOLS` most recently used.
fn thread_pool(threads: Option<usize>) -> Result<std::sync::Arc<rayon::ThreadPool>> {
    use std::sync::{Arc, Mutex, OnceLock};
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    // available_parallelism reads cgroup files: once per process, not once per call.
    static CORES: OnceLock<usize> = OnceLock::new();
    let threads = threads
        .unwrap_or_else(|| *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get())))
        .min(super::MAX_THREADS);
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    let pool = match pools.iter().position(|(count, _)| *count == threads) {
        Some(index) => pools.remove(index).1,
        None => Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| {
            Diagnostic::new(ErrorKind::Runtime, format!("cannot start {threads} threads: {e}")).with_hint("set opts.threads lower")
        })?),
    };
    pools.insert(0, (threads, pool.clone()));
    pools.truncate(MAX_POOLS);
    Ok(pool)
}

/// J from a sparse derivative block (rows = elements of f), exact zeros dropped as `sparse` does.
pub(super) fn csr_to_csc(s: &mut SparseDeriv, n: usize) -> SparseMatrix {
    // The block's rows hold sorted directions: a compressed-row matrix as it is.
    let rows = s.rows;
    let (ptr, cols, vals) = s.csr();
    let by_rows = sprs::CsMatView::new((rows, n), ptr, cols, vals);
    SparseMatrix(by_rows.to_other_storage()).without_zeros()
}

/// Rows of J as computed: one per element of f, two for a complex f (its real and imaginary parts'
/// rows, joined into a complex J by `complex::jacobian`).
fn derivative_rows(value: &Value) -> usize {
    crate::primitives::complex::rows(value)
}

/// The pattern as a sparse matrix of ones (what `spy` and `JPattern` take).
fn ones(pattern: &Pattern) -> SparseMatrix {
    let (colptr, rowind) = pattern.csc();
    SparseMatrix::new(pattern.nrows(), pattern.ncols(), colptr.to_vec(), rowind.to_vec(), vec![1.0; rowind.len()])
}
