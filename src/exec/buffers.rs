//! Recycled large buffers for values, derivative blocks (`f64`) and index lists (`usize`). malloc maps
//! a block above its mmap threshold fresh on every allocation and unmaps it on free, so every use of a
//! large block page-faults all of it: about half the time of a vectorised J+f at n = 40960. The
//! evaluator gives the buffers of a finished call back here and the kernels take them again, so the
//! memory stays mapped.

use super::deriv::Deriv;
use super::value::Value;
use std::cell::RefCell;
use std::thread::LocalKey;

/// Smaller buffers come from malloc's free lists, without page faults.
const MIN_LEN: usize = 4096;
/// Per thread and element type, at most this many buffers and bytes are kept.
const MAX_BUFFERS: usize = 256;
const MAX_BYTES: usize = 128 << 20;

type Kept<T> = RefCell<Vec<Vec<T>>>;

thread_local! {
    static NUMBERS: Kept<f64> = const { RefCell::new(Vec::new()) };
    static POSITIONS: Kept<usize> = const { RefCell::new(Vec::new()) };
}

/// An element type with buffers kept here.
pub trait Recycled: Sized + 'static {
    fn kept() -> &'static LocalKey<Kept<Self>>;
}

impl Recycled for f64 {
    fn kept() -> &'static LocalKey<Kept<f64>> {
        &NUMBERS
    }
}

impl Recycled for usize {
    fn kept() -> &'static LocalKey<Kept<usize>> {
        &POSITIONS
    }
}

/// An empty vector with room for `len` elements: a kept buffer when one fits without wasting more
/// than `len / 2` elements. Blocks of twice the length (a function's n-vector next to its halves,
/// the seed next to a half's derivative block) stay for their own size: the evaluator gives buffers
/// back mid-call, and a smaller request taking one would leave its own size to a fresh allocation.
pub fn take<T: Recycled>(len: usize) -> Vec<T> {
    if len >= MIN_LEN {
        let found = T::kept().try_with(|free| {
            let mut free = free.borrow_mut();
            let fits = |b: &&Vec<T>| (len..=len + len / 2).contains(&b.capacity());
            let best = free.iter().enumerate().filter(|(_, b)| fits(b)).min_by_key(|(_, b)| b.capacity())?.0;
            Some(free.swap_remove(best))
        });
        if let Ok(Some(buffer)) = found {
            return buffer;
        }
    }
    Vec::with_capacity(len)
}

/// `len` zeros.
pub fn zeros(len: usize) -> Vec<f64> {
    let mut v = take(len);
    v.resize(len, 0.0);
    v
}

/// Keeps `buffer` for a later `take` (large ones only, within the limits).
pub fn give<T: Recycled>(mut buffer: Vec<T>) {
    if buffer.capacity() < MIN_LEN {
        return;
    }
    buffer.clear();
    let _ = T::kept().try_with(|free| {
        let mut free = free.borrow_mut();
        let kept: usize = free.iter().map(Vec::capacity).sum();
        if free.len() < MAX_BUFFERS && (kept + buffer.capacity()) * size_of::<T>() <= MAX_BYTES {
            free.push(buffer);
        }
    });
}

/// Gives back the buffers of a value that is no longer needed.
pub fn recycle_value(value: Value) {
    match value {
        Value::Double(a) => give(a.data),
        Value::Sparse(s) => {
            give(s.values);
            give(s.colptr);
            give(s.rowind);
        }
        _ => {}
    }
}

/// Gives back the buffers of a derivative block that is no longer needed.
pub fn recycle_deriv(deriv: Deriv) {
    match deriv {
        Deriv::Dense(d) => give(d.data),
        Deriv::Parts(parts) => parts.into_iter().for_each(recycle_deriv),
        Deriv::Zero | Deriv::Sparse(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_buffer_is_taken_again_only_when_it_fits() {
        let buffer = vec![1.0f64; 3 * MIN_LEN];
        let address = buffer.as_ptr();
        give(buffer);
        assert!(take::<f64>(MIN_LEN).capacity() < 3 * MIN_LEN, "too large for MIN_LEN: not taken");
        assert_eq!(take::<usize>(2 * MIN_LEN).capacity(), 2 * MIN_LEN, "kept apart by element type");
        let again = take::<f64>(2 * MIN_LEN);
        assert_eq!((again.as_ptr(), again.len()), (address, 0));
        assert_eq!(zeros(MIN_LEN + 1), vec![0.0; MIN_LEN + 1]);
    }
}
