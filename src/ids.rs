//! Opaque ids (of the IR's values, blocks and functions) and the tables keyed by them: an id is only
//! ever turned into a position by the table it indexes, so a value's id cannot index a block table.

use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// An id that is a position in the tables keyed by it.
pub trait Id: Copy {
    fn from_index(index: usize) -> Self;
    fn index(self) -> usize;
}

/// Declares an opaque id type: `Name::new(position)`, `name.index()`.
macro_rules! opaque_id {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);

        impl $name {
            pub const fn new(index: usize) -> $name {
                assert!(index <= u32::MAX as usize, "fewer than 2^32 ids");
                $name(index as u32)
            }
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl $crate::ids::Id for $name {
            fn from_index(index: usize) -> $name {
                $name::new(index)
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}
pub(crate) use opaque_id;

/// A table with one entry per id of kind `I`.
#[derive(Clone, Debug, PartialEq)]
pub struct IdVec<I, T> {
    items: Vec<T>,
    id: PhantomData<fn(I)>,
}

impl<I: Id, T> IdVec<I, T> {
    /// `count` entries, each `value`.
    pub fn filled(value: T, count: usize) -> IdVec<I, T>
    where
        T: Clone,
    {
        IdVec { items: vec![value; count], id: PhantomData }
    }
    /// The entry of `id`, if the table has one.
    pub fn get(&self, id: I) -> Option<&T> {
        self.items.get(id.index())
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    /// Every id of the table, in order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = I> + use<I, T> {
        (0..self.items.len()).map(I::from_index)
    }
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.items.iter_mut()
    }
    /// Each entry with its id.
    pub fn iter_ids(&self) -> impl DoubleEndedIterator<Item = (I, &T)> {
        self.items.iter().enumerate().map(|(k, item)| (I::from_index(k), item))
    }
    /// The entries by position, for code that splits the table around one entry.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items
    }
    pub fn swap(&mut self, a: I, b: I) {
        self.items.swap(a.index(), b.index());
    }
    /// Adds an entry; its id.
    pub fn push(&mut self, item: T) -> I {
        self.items.push(item);
        I::from_index(self.items.len() - 1)
    }
}

impl<I, T> Default for IdVec<I, T> {
    fn default() -> IdVec<I, T> {
        IdVec { items: Vec::new(), id: PhantomData }
    }
}

impl<I, T> FromIterator<T> for IdVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(items: It) -> IdVec<I, T> {
        IdVec { items: items.into_iter().collect(), id: PhantomData }
    }
}

impl<I, T> From<Vec<T>> for IdVec<I, T> {
    fn from(items: Vec<T>) -> IdVec<I, T> {
        IdVec { items, id: PhantomData }
    }
}

impl<I, T> IntoIterator for IdVec<I, T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, I, T> IntoIterator for &'a IdVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<'a, I, T> IntoIterator for &'a mut IdVec<I, T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter_mut()
    }
}

impl<I: Id, T> Index<I> for IdVec<I, T> {
    type Output = T;
    fn index(&self, id: I) -> &T {
        &self.items[id.index()]
    }
}

impl<I: Id, T> Index<&I> for IdVec<I, T> {
    type Output = T;
    fn index(&self, id: &I) -> &T {
        &self.items[id.index()]
    }
}

impl<I: Id, T> IndexMut<&I> for IdVec<I, T> {
    fn index_mut(&mut self, id: &I) -> &mut T {
        &mut self.items[id.index()]
    }
}

impl<I: Id, T> IndexMut<I> for IdVec<I, T> {
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.items[id.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    opaque_id!(TestId);

    #[test]
    fn a_table_is_indexed_by_its_ids() {
        let mut table: IdVec<TestId, &str> = IdVec::from(vec!["a"]);
        let b = table.push("b");
        assert_eq!((b.index(), table[b], table.len()), (1, "b", 2));
        table[TestId::new(0)] = "z";
        assert_eq!(table.iter_ids().map(|(id, s)| (id.index(), *s)).collect::<Vec<_>>(), [(0, "z"), (1, "b")]);
        assert_eq!(table.ids().rev().collect::<Vec<_>>(), [b, TestId::new(0)]);
    }
}
