//! `Cache`: a fixed-size, direct-mapped hash cache of `Copy` answers, for solvers that meet the
//! same sub-problems again and again. It never allocates or grows: a thread-local one is built
//! by a `const` initialiser, and an entry is simply overwritten by the next key of its slot.

use std::cell::Cell;

/// Multiplier of the Fibonacci hash ([`fib_hash`]): 2^64 divided by the golden ratio.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The Fibonacci hash of `key`, a good [`Cache`] hash for keys packed from small counts.
#[inline]
pub(crate) const fn fib_hash(key: u64) -> u64 {
    key.wrapping_mul(GOLDEN)
}

/// The tag of an empty entry: no key is ever stored under it.
const EMPTY_TAG: u32 = u32::MAX;

/// One entry: the key, a tag telling apart answers of different rule sets or questions for the
/// same key, and the answer.
#[derive(Copy, Clone)]
struct Entry<V> {
    key: u64,
    tag: u32,
    value: V,
}

/// A direct-mapped cache of `N` entries (`N` a power of two) from a `u64` key and a `u32` tag
/// (any but `u32::MAX`) to a `V`. The caller hashes the key: the top bits of that hash pick the
/// slot. Interior mutability through [`Cell`] lets a recursive solver read and fill it without
/// holding a borrow; it is meant to be thread-local (or owned), never shared.
#[derive(Clone)]
pub(crate) struct Cache<V: Copy, const N: usize> {
    entries: Cell<[Entry<V>; N]>,
}

impl<V: Copy, const N: usize> Cache<V, N> {
    /// Bits of a hash that pick the slot.
    const BITS: u32 = {
        assert!(
            N.is_power_of_two() && N > 1,
            "a cache has a power-of-two size"
        );
        N.trailing_zeros()
    };

    /// An empty cache; `fill` is the (never returned) answer of its empty entries.
    pub(crate) const fn new(fill: V) -> Self {
        let empty = Entry {
            key: 0,
            tag: EMPTY_TAG,
            value: fill,
        };
        Cache {
            entries: Cell::new([empty; N]),
        }
    }

    /// The entry of the slot `hash` picks.
    #[inline]
    fn entry(&self, hash: u64) -> &Cell<Entry<V>> {
        let cells: &Cell<[Entry<V>]> = &self.entries;
        &cells.as_slice_of_cells()[(hash >> (64 - Self::BITS)) as usize]
    }

    /// The answer kept for `key` under `tag`, if its slot (picked by `hash`) still holds it.
    #[inline]
    pub(crate) fn get(&self, hash: u64, key: u64, tag: u32) -> Option<V> {
        let e = self.entry(hash).get();
        (e.key == key && e.tag == tag).then_some(e.value)
    }

    /// Keeps `value` as the answer for `key` under `tag` in the slot `hash` picks, replacing
    /// whatever the slot held.
    #[inline]
    pub(crate) fn insert(&self, hash: u64, key: u64, tag: u32, value: V) {
        debug_assert!(tag != EMPTY_TAG, "the tag of empty entries");
        self.entry(hash).set(Entry { key, tag, value });
    }

    /// The answer for `key` under `tag`: the kept one, or `answer()` (then kept).
    #[cfg(test)]
    pub(crate) fn get_or_insert_with(
        &self,
        hash: u64,
        key: u64,
        tag: u32,
        answer: impl FnOnce() -> V,
    ) -> V {
        if let Some(v) = self.get(hash, key, tag) {
            return v;
        }
        let v = answer();
        self.insert(hash, key, tag, v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::{fib_hash, Cache};

    #[test]
    fn keeps_the_last_answer_of_a_slot_by_key_and_tag() {
        let c: Cache<u16, 4> = Cache::new(0);
        assert_eq!(c.get(fib_hash(7), 7, 0), None);
        c.insert(fib_hash(7), 7, 0, 11);
        assert_eq!(c.get(fib_hash(7), 7, 0), Some(11));
        assert_eq!(c.get(fib_hash(7), 7, 1), None);
        assert_eq!(c.get_or_insert_with(0, 3, 2, || 5), 5);
        assert_eq!(c.get_or_insert_with(0, 3, 2, || 6), 5);
    }
}
