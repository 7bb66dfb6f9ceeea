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

/// A list of one or two items without a heap allocation, more in a vector: for items that are not
/// `Copy` (subscripts, a primitive's results).
#[derive(Debug)]
pub enum Few<T> {
    One([T; 1]),
    Two([T; 2]),
    Many(Vec<T>),
}

impl<T> FromIterator<T> for Few<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut iter = iter.into_iter();
        let Some(first) = iter.next() else { return Few::Many(Vec::new()) };
        let Some(second) = iter.next() else { return Few::One([first]) };
        match iter.next() {
            None => Few::Two([first, second]),
            Some(third) => Few::Many([first, second, third].into_iter().chain(iter).collect()),
        }
    }
}

impl<T> From<Vec<T>> for Few<T> {
    fn from(items: Vec<T>) -> Self {
        Few::Many(items)
    }
}

impl<T> Few<T> {
    pub fn into_vec(self) -> Vec<T> {
        match self {
            Few::One(items) => Vec::from(items),
            Few::Two(items) => Vec::from(items),
            Few::Many(items) => items,
        }
    }
}

impl<T> Deref for Few<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Few::One(items) => items,
            Few::Two(items) => items,
            Few::Many(items) => items,
        }
    }
}

impl<T> IntoIterator for Few<T> {
    type Item = T;
    type IntoIter = FewIter<T>;
    fn into_iter(self) -> FewIter<T> {
        match self {
            Few::One(items) => FewIter::One(items.into_iter()),
            Few::Two(items) => FewIter::Two(items.into_iter()),
            Few::Many(items) => FewIter::Many(items.into_iter()),
        }
    }
}

pub enum FewIter<T> {
    One(std::array::IntoIter<T, 1>),
    Two(std::array::IntoIter<T, 2>),
    Many(std::vec::IntoIter<T>),
}

impl<T> Iterator for FewIter<T> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        match self {
            FewIter::One(items) => items.next(),
            FewIter::Two(items) => items.next(),
            FewIter::Many(items) => items.next(),
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
            let few: Few<String> = (0..n).map(|k| k.to_string()).collect();
            assert_eq!(few.join(","), (0..n).map(|k| k.to_string()).collect::<Vec<_>>().join(","));
            assert_eq!(few.into_iter().count(), n);
        }
    }
}
