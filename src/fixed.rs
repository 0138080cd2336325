//! `CopyVec`: a fixed-capacity list that is `Copy`, so a state holding it clones as a memcpy.

/// A list of at most `N` `Copy` items stored inline.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CopyVec<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: u8,
}

impl<T: Copy + Default, const N: usize> Default for CopyVec<T, N> {
    fn default() -> Self {
        CopyVec {
            items: [T::default(); N],
            len: 0,
        }
    }
}

impl<T: Copy + Default, const N: usize> CopyVec<T, N> {
    /// Appends an item. Panics past the capacity: capacities are proven bounds, so that is a bug.
    #[inline]
    pub fn push(&mut self, item: T) {
        self.items[self.len as usize] = item;
        self.len += 1;
    }
    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// The items.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
    /// The items, mutable.
    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }
    /// Number of items.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}
