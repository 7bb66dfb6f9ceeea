//! Out of memory as Octave reports it, never an abort: Octave raises a catchable error for a size it
//! cannot allocate, where a failed allocation in Rust aborts the process (Octave with it). Sizes that
//! come from the user (arrays built from size arguments, J, derivative blocks) are checked before
//! the buffer is made against half of what the system can still give (`MemAvailable` plus free swap):
//! a buffer rarely lives alone (the one it replaces as it grows, indices beside values, J beside its
//! compressed form), and a machine filled to the last page kills processes instead of failing
//! allocations. Requests below `CHECKED_BYTES` are not checked (reading /proc costs more than they do).

use crate::diag::{Diagnostic, ErrorKind, Result};

/// Smallest request compared with the available memory.
const CHECKED_BYTES: usize = 256 << 20;

/// Octave's own message and identifier.
pub fn out_of_memory() -> Diagnostic {
    Diagnostic::new(ErrorKind::Runtime, "out of memory or dimension too large for Octave's index type")
        .with_identifier("Octave:out-of-memory")
}

/// `error` with what needs less memory than J, when it is Octave's out-of-memory error of a call
/// that asked for derivatives: J (`numel(f) x numel(x)`, full when f couples every x) is then the
/// likely cause, and J*v or a gradient often still fit.
pub fn with_derivative_hint(error: Diagnostic) -> Diagnostic {
    if error.identifier() != "Octave:out-of-memory" || error.hint.is_some() {
        return error;
    }
    error.with_hint(
        "J has numel(f) x numel(x) entries: for J*v pass opts.seed = v; the gradient of a scalar objective (opts.mode = 'reverse') forms no J",
    )
}

/// The payload of the panic that stops a run where a buffer cannot be made and no error can be
/// returned (`buffers::take`); the gateway reports it as `out_of_memory()`.
pub struct OutOfMemory;

/// `Err(out_of_memory())` unless `count` elements of `element_bytes` each fit in memory now.
pub fn check(count: usize, element_bytes: usize) -> Result<()> {
    if fits(count, element_bytes) { Ok(()) } else { Err(out_of_memory()) }
}

/// `check` for an array of dimensions `dims`, whose product may overflow.
pub fn check_dims(dims: &[usize], element_bytes: usize) -> Result<()> {
    check(element_count(dims), element_bytes)
}

/// `ensure` for an array of dimensions `dims`; gives its element count.
pub fn ensure_dims(dims: &[usize], element_bytes: usize) -> usize {
    let count = element_count(dims);
    ensure(count, element_bytes);
    count
}

/// The element count of an array of dimensions `dims`: `usize::MAX`, which no memory holds, when the
/// product overflows.
fn element_count(dims: &[usize]) -> usize {
    dims.iter().try_fold(1usize, |count, &extent| count.checked_mul(extent)).unwrap_or(usize::MAX)
}

/// Whether `count` elements of `element_bytes` each fit in memory now.
pub fn fits(count: usize, element_bytes: usize) -> bool {
    match count.checked_mul(element_bytes) {
        Some(bytes) if bytes < CHECKED_BYTES => true,
        Some(bytes) => bytes <= isize::MAX as usize && available_bytes().is_none_or(|available| bytes <= available / 2),
        None => false,
    }
}

/// Stops the run with the `OutOfMemory` panic unless `count` elements of `element_bytes` each fit:
/// for code that has no error to return.
pub fn ensure(count: usize, element_bytes: usize) {
    if !fits(count, element_bytes) {
        std::panic::panic_any(OutOfMemory);
    }
}

/// Room for `additional` more elements in `buffer`, which grows as `Vec` grows by itself. There is no
/// error to return where buffers grow element by element: a size memory cannot hold stops the run with
/// the `OutOfMemory` panic.
pub fn reserve<T>(buffer: &mut Vec<T>, additional: usize) {
    if buffer.capacity() - buffer.len() >= additional {
        return;
    }
    ensure(buffer.len().saturating_add(additional), size_of::<T>());
    if buffer.try_reserve(additional).is_err() {
        std::panic::panic_any(OutOfMemory);
    }
}

/// `MemAvailable` plus `SwapFree` from /proc/meminfo; `None` where it cannot be read.
fn available_bytes() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib = |key: &str| {
        let line = meminfo.lines().find(|line| line.starts_with(key))?;
        line[key.len()..].trim().trim_end_matches("kB").trim().parse::<usize>().ok()
    };
    Some(kib("MemAvailable:")?.saturating_add(kib("SwapFree:").unwrap_or(0)).saturating_mul(1024))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_memory_with_derivatives_says_what_needs_less() {
        let hinted = with_derivative_hint(out_of_memory());
        assert!(hinted.hint.as_deref().is_some_and(|hint| hint.contains("opts.seed")), "{hinted:?}");
        let other = with_derivative_hint(Diagnostic::new(ErrorKind::Runtime, "index out of bound"));
        assert!(other.hint.is_none());
    }

    #[test]
    fn sizes_beyond_memory_or_overflowing_are_refused() {
        assert!(fits(1000, 8));
        assert!(!fits(usize::MAX / 4, 8));
        assert!(check_dims(&[1 << 40, 1 << 40], 8).is_err());
        let error = check(1 << 50, 8).unwrap_err();
        assert_eq!(error.identifier(), "Octave:out-of-memory");
        assert!(check_dims(&[100, 100], 8).is_ok());
    }
}
