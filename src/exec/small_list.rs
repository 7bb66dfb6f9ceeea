//! A list of copyable items kept inline up to `N` of them, on the heap beyond: the operand lists and
//! dimension vectors built for every operation, which a repeated call would otherwise allocate each
//! time.

use std::ops::{Deref, DerefMut};

#[derive(Clone, Debug)]
pub enum SmallList<T: Copy, const N: usize> {
    Inline { items: [T; N], len: usize },
    Heap(Vec<T>),
}

/// Operands of one instruction (most take at most four).
pub type Operands<T> = SmallList<T, 4>;

/// The dimensions of one array (most have at most four).
pub type Dims = SmallList<usize, 4>;

impl<T: Copy, const N: usize> FromIterator<T> for SmallList<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut iter = iter.into_iter();
        // The first item fills the unused inline places (no `Default` needed for references).
        let Some(first) = iter.next() else { return SmallList::Heap(Vec::new()) };
        let (mut items, mut len) = ([first; N], 1);
        for item in iter.by_ref() {
            if len == N {
                let mut heap = Vec::with_capacity(2 * N);
                heap.extend_from_slice(&items);
                heap.push(item);
                heap.extend(iter);
                return SmallList::Heap(heap);
            }
            items[len] = item;
            len += 1;
        }
        SmallList::Inline { items, len }
    }
}

impl<T: Copy, const N: usize> Deref for SmallList<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            SmallList::Inline { items, len } => &items[..*len],
            SmallList::Heap(items) => items,
        }
    }
}

impl<T: Copy, const N: usize> DerefMut for SmallList<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            SmallList::Inline { items, len } => &mut items[..*len],
            SmallList::Heap(items) => items,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_lists_keep_their_items_in_order() {
        for n in [0, 1, 4, 5, 11] {
            let list: SmallList<usize, 4> = (0..n).collect();
            assert_eq!(&list[..], &(0..n).collect::<Vec<_>>()[..]);
            assert_eq!(matches!(list, SmallList::Inline { .. }), (1..=4).contains(&n));
        }
    }
}
