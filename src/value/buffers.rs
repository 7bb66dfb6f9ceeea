//! Recycled large buffers for values, derivative blocks (`f64`) and index lists (`usize`). malloc maps
//! a block above its mmap threshold fresh on every allocation and unmaps it on free, so every use of a
//! large block page-faults all of it: about half the time of a vectorised J+f at n = 40960. The
//! evaluator gives the buffers of a finished call back here and the kernels take them again, so the
//! memory stays mapped. Smaller buffers are kept too, by power-of-two size class, so a repeated call
//! with fixed sizes takes every value, derivative block and index list it needs from here.

use super::memory;
use std::cell::RefCell;
use std::thread::LocalKey;

/// Buffers of more elements are large: matched to a request by best fit.
const MAX_SMALL: usize = 2048;
/// Per thread and element type, at most this many large buffers and bytes are kept.
const MAX_BUFFERS: usize = 256;
const MAX_BYTES: usize = 128 << 20;
/// Small buffers kept per size class (a vectorised function reads a few dozen of one size per call).
const MAX_PER_CLASS: usize = 64;
/// Size classes of small buffers: class k holds capacities in [2^k, 2^(k+1)).
const SMALL_CLASSES: usize = MAX_SMALL.ilog2() as usize + 1;

/// The buffers kept for one element type: large ones in a list, small ones by size class.
pub struct Kept<T> {
    large: Vec<Vec<T>>,
    small: [Vec<Vec<T>>; SMALL_CLASSES],
}

impl<T> Kept<T> {
    const fn new() -> Kept<T> {
        Kept { large: Vec::new(), small: [const { Vec::new() }; SMALL_CLASSES] }
    }
}

thread_local! {
    static NUMBERS: RefCell<Kept<f64>> = const { RefCell::new(Kept::new()) };
    static POSITIONS: RefCell<Kept<usize>> = const { RefCell::new(Kept::new()) };
}

/// An element type with buffers kept here.
pub trait Recycled: Sized + 'static {
    fn kept() -> &'static LocalKey<RefCell<Kept<Self>>>;
}

impl Recycled for f64 {
    fn kept() -> &'static LocalKey<RefCell<Kept<f64>>> {
        &NUMBERS
    }
}

impl Recycled for usize {
    fn kept() -> &'static LocalKey<RefCell<Kept<usize>>> {
        &POSITIONS
    }
}

/// An empty vector with room for `len` elements: a kept buffer when one fits without wasting more
/// than `len / 2` elements. Blocks of twice the length (a function's n-vector next to its halves,
/// the seed next to a half's derivative block) stay for their own size: the evaluator gives buffers
/// back mid-call, and a smaller request taking one would leave its own size to a fresh allocation.
/// A small request takes from the class of its length rounded up to a power of two, where every
/// buffer fits, and a fresh small buffer gets that rounded capacity, so it returns to the same class.
pub fn take<T: Recycled>(len: usize) -> Vec<T> {
    if len == 0 {
        return Vec::new();
    }
    if len <= MAX_SMALL {
        let class = len.next_power_of_two().trailing_zeros() as usize;
        let found = T::kept().try_with(|kept| kept.borrow_mut().small[class].pop());
        return found.ok().flatten().unwrap_or_else(|| Vec::with_capacity(1 << class));
    }
    let found = T::kept().try_with(|kept| {
        let free = &mut kept.borrow_mut().large;
        let fits = |b: &&Vec<T>| (len..=len + len / 2).contains(&b.capacity());
        let best = free.iter().enumerate().filter(|(_, b)| fits(b)).min_by_key(|(_, b)| b.capacity())?.0;
        Some(free.swap_remove(best))
    });
    found.ok().flatten().unwrap_or_else(|| fresh(len))
}

/// A new buffer with room for `len` elements; a size memory cannot hold stops the run (`memory::reserve`).
fn fresh<T>(len: usize) -> Vec<T> {
    let mut buffer = Vec::new();
    memory::reserve(&mut buffer, len);
    buffer
}

/// A value's dimension vector holding `extents`, from the kept index lists: every result of a
/// repeated call needs one, and values given back return theirs.
pub fn dims(extents: &[usize]) -> Vec<usize> {
    let mut dims = take(extents.len());
    dims.extend_from_slice(extents);
    dims
}

/// `len` zeros.
pub fn zeros(len: usize) -> Vec<f64> {
    let mut v = take(len);
    v.resize(len, 0.0);
    v
}

/// Keeps `buffer` for a later `take` (within the limits).
pub fn give<T: Recycled>(mut buffer: Vec<T>) {
    let capacity = buffer.capacity();
    if capacity == 0 {
        return;
    }
    buffer.clear();
    if capacity <= MAX_SMALL {
        let class = capacity.ilog2() as usize;
        let _ = T::kept().try_with(|kept| {
            let same_size = &mut kept.borrow_mut().small[class];
            // Room for the whole class at once: growing the list later would allocate mid-call.
            if same_size.capacity() == 0 {
                same_size.reserve_exact(MAX_PER_CLASS);
            }
            if same_size.len() < MAX_PER_CLASS {
                same_size.push(buffer);
            }
        });
        return;
    }
    let _ = T::kept().try_with(|kept| {
        let free = &mut kept.borrow_mut().large;
        if free.capacity() == 0 {
            free.reserve_exact(MAX_BUFFERS);
        }
        let kept: usize = free.iter().map(Vec::capacity).sum();
        if free.len() < MAX_BUFFERS && (kept + buffer.capacity()) * size_of::<T>() <= MAX_BYTES {
            free.push(buffer);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_buffer_is_taken_again_only_when_it_fits() {
        let large = 2 * MAX_SMALL;
        let buffer = vec![1.0f64; 3 * large];
        let address = buffer.as_ptr();
        give(buffer);
        assert!(take::<f64>(large).capacity() < 3 * large, "too large for the request: not taken");
        assert_eq!(take::<usize>(2 * large).capacity(), 2 * large, "kept apart by element type");
        let again = take::<f64>(2 * large);
        assert_eq!((again.as_ptr(), again.len()), (address, 0));
        assert_eq!(zeros(large + 1), vec![0.0; large + 1]);
    }

    #[test]
    fn a_small_buffer_returns_to_its_size_class() {
        let first = take::<f64>(40);
        assert_eq!(first.capacity(), 64, "rounded up to its class");
        let address = first.as_ptr();
        give(first);
        let larger = take::<f64>(65);
        assert_ne!(larger.as_ptr(), address, "a larger class");
        let again = take::<f64>(33);
        assert_eq!((again.as_ptr(), again.len()), (address, 0));
        let odd = Vec::<f64>::with_capacity(100);
        let address = odd.as_ptr();
        give(odd);
        let too_large = take::<f64>(100);
        assert_ne!(too_large.as_ptr(), address, "capacity 100 serves requests up to 64 only");
        let fitting = take::<f64>(64);
        assert_eq!(fitting.as_ptr(), address);
    }
}
