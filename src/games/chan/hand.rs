//! A multiset of cards as counts per identity (§1.1: 25 identities × up to 4 copies), a plain
//! 25-byte `Copy` value.

use super::card::{parse_cards, Card, CardListError, IDENTITIES};
use std::fmt;

/// Bit 0 of each byte of a word.
const BYTE_LSB: u64 = 0x0101_0101_0101_0101;
/// Multiplier moving bit 0 of byte `i` to bit `56 + i`.
const GATHER: u64 = 0x0102_0408_1020_4080;

/// Counts of each identity (canonical index order). Cloning is a 25-byte copy.
///
/// # Examples
/// ```
/// use bailab::games::chan::Hand;
/// let h: Hand = "ch 2v 2v 9s".parse().unwrap();
/// assert_eq!((h.len(), h.to_string()), (4, "2v 2v 9s ch".to_string()));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Hand([u8; IDENTITIES]);

impl Hand {
    /// No cards.
    pub const EMPTY: Hand = Hand([0; IDENTITIES]);

    /// Copies of `card`.
    #[inline]
    pub const fn count(&self, card: Card) -> u8 {
        self.0[card.index()]
    }
    /// Adds one copy.
    #[inline]
    pub fn add(&mut self, card: Card) {
        self.0[card.index()] += 1;
    }
    /// Adds `n` copies.
    #[inline]
    pub(crate) fn add_n(&mut self, card: Card, n: u8) {
        self.0[card.index()] += n;
    }
    /// Removes one copy (which must be present).
    #[inline]
    pub fn remove(&mut self, card: Card) {
        debug_assert!(self.0[card.index()] > 0, "no {card} to remove");
        self.0[card.index()] -= 1;
    }
    /// Removes `n` copies (which must be present).
    #[inline]
    pub(crate) fn remove_n(&mut self, card: Card, n: u8) {
        debug_assert!(self.0[card.index()] >= n, "not {n} {card} to remove");
        self.0[card.index()] -= n;
    }
    /// This hand with one more copy of `card`.
    #[inline]
    pub fn with(mut self, card: Card) -> Hand {
        self.add(card);
        self
    }
    /// This hand with one copy of `card` less.
    #[inline]
    pub fn without(mut self, card: Card) -> Hand {
        self.remove(card);
        self
    }
    /// The sum of two multisets.
    pub(crate) fn plus(mut self, other: Hand) -> Hand {
        for i in 0..IDENTITIES {
            self.0[i] += other.0[i];
        }
        self
    }
    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        let words = self.words();
        let sum: u64 = words[..3]
            .iter()
            .map(|&w| w.wrapping_mul(BYTE_LSB) >> 56)
            .sum();
        sum as usize + words[3] as usize
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.words().iter().all(|&w| w == 0)
    }
    /// The counts.
    pub const fn counts(&self) -> &[u8; IDENTITIES] {
        &self.0
    }
    /// A hand from counts.
    pub const fn from_counts(counts: [u8; IDENTITIES]) -> Hand {
        Hand(counts)
    }
    /// The identities present, as a mask.
    #[inline]
    pub(crate) fn present(&self) -> u32 {
        // a count is at most 4: some bit of 0..=2 is set when it is positive
        self.mask_where(|w| w | w >> 1 | w >> 2)
    }
    /// The identities held an odd number of times, as a mask.
    #[inline]
    pub fn odd(&self) -> u32 {
        self.mask_where(|w| w)
    }
    /// The identities held at least twice, as a mask.
    #[inline]
    pub fn pairs(&self) -> u32 {
        // a count is at most 4: 2..=4 set bit 1 or bit 2
        self.mask_where(|w| w >> 1 | w >> 2)
    }
    /// The counts as three little-endian words of eight identities, then chi chi's count.
    #[inline]
    fn words(&self) -> [u64; 4] {
        let word = |k: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&self.0[8 * k..8 * k + 8]);
            u64::from_le_bytes(b)
        };
        [word(0), word(1), word(2), u64::from(self.0[24])]
    }
    /// The mask of identities whose count `x` gives `f(x)` an odd low bit. `f` is applied to
    /// eight counts at once (a word of bytes), so it must only shift right and combine bitwise.
    #[inline]
    fn mask_where(&self, f: impl Fn(u64) -> u64) -> u32 {
        let w = self.words();
        // gather bit 0 of each byte into the top byte (the bytes are 0 or 1, so no carries)
        let pack = |x: u64| ((f(x) & BYTE_LSB).wrapping_mul(GATHER) >> 56) as u32;
        pack(w[0]) | pack(w[1]) << 8 | pack(w[2]) << 16 | ((f(w[3]) & 1) as u32) << 24
    }
    /// Every card (with repeats) in canonical order.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        Card::all().flat_map(move |c| std::iter::repeat_n(c, self.count(c) as usize))
    }
    /// The identities present, in canonical order.
    pub fn types(&self) -> impl Iterator<Item = Card> + '_ {
        Card::all().filter(move |&c| self.count(c) > 0)
    }
    /// The hand of a card slice.
    pub fn of(cards: &[Card]) -> Hand {
        let mut h = Hand::EMPTY;
        cards.iter().for_each(|&c| h.add(c));
        h
    }
    /// Number of red cards (§1.2).
    pub fn red(&self) -> u32 {
        Card::all()
            .filter(|c| c.is_red())
            .map(|c| u32::from(self.count(c)))
            .sum()
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::notation::spaced(self.cards()))
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand({self})")
    }
}

impl std::str::FromStr for Hand {
    type Err = CardListError;
    fn from_str(s: &str) -> Result<Hand, CardListError> {
        Ok(Hand::of(&parse_cards(s)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every mask and the length agree with a count-by-count reading, on pseudo-random hands.
    #[test]
    fn word_masks_match_counts() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            let mut counts = [0u8; IDENTITIES];
            for c in counts.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *c = (x % 5) as u8;
            }
            let h = Hand::from_counts(counts);
            let mask = |f: fn(u8) -> bool| {
                (0..IDENTITIES).fold(0u32, |m, i| m | u32::from(f(counts[i])) << i)
            };
            assert_eq!(h.present(), mask(|c| c > 0));
            assert_eq!(h.odd(), mask(|c| c % 2 == 1));
            assert_eq!(h.pairs(), mask(|c| c >= 2));
            assert_eq!(h.len(), counts.iter().map(|&c| c as usize).sum::<usize>());
            assert_eq!(h.is_empty(), counts.iter().all(|&c| c == 0));
        }
    }
}
