//! `Cards`: a set of the 52 cards as a bit set (bit = `key`, §1.5). Set operations are single
//! word operations; per-rank information is read from the 13 four-bit nibbles.

use super::card::{parse_cards, Card, CardListError, DECK_SIZE};
use std::fmt;

/// Bit 0 of each of the 13 rank nibbles.
pub(crate) const NIB_LOW: u64 = 0x1_1111_1111_1111;
/// Every card.
const ALL: u64 = (1 << DECK_SIZE) - 1;

/// A set of cards. Bit `key` is set when the card is in the set; iteration is in ascending key.
///
/// # Examples
/// ```
/// use bailab::games::tienlen::Cards;
/// let h: Cards = "3s 3c 4d".parse().unwrap();
/// assert_eq!((h.len(), h.rank_count(0), h.to_string().as_str()), (3, 2, "3s 3c 4d"));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Cards(pub u64);

impl Cards {
    /// The empty set.
    pub const EMPTY: Cards = Cards(0);
    /// The full deck.
    pub const ALL: Cards = Cards(ALL);

    /// The set holding one card.
    pub const fn one(c: Card) -> Cards {
        Cards(1 << c.key())
    }
    /// The set of the given cards.
    pub fn of(cards: &[Card]) -> Cards {
        cards.iter().fold(Cards::EMPTY, |s, &c| s.with(c))
    }
    /// The four cards of rank index `ri`.
    pub const fn rank(ri: u8) -> Cards {
        Cards(0xF << (4 * ri))
    }
    /// Number of cards.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// True when empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// True when `c` is in the set.
    pub const fn contains(self, c: Card) -> bool {
        self.0 >> c.key() & 1 == 1
    }
    /// True when every card of `other` is in the set.
    pub const fn contains_all(self, other: Cards) -> bool {
        other.0 & !self.0 == 0
    }
    /// The set with `c` added.
    #[must_use]
    pub const fn with(self, c: Card) -> Cards {
        Cards(self.0 | 1 << c.key())
    }
    /// The set with `c` removed.
    #[must_use]
    pub const fn without(self, c: Card) -> Cards {
        Cards(self.0 & !(1 << c.key()))
    }
    /// Union.
    #[must_use]
    pub const fn union(self, o: Cards) -> Cards {
        Cards(self.0 | o.0)
    }
    /// Intersection.
    #[must_use]
    pub const fn inter(self, o: Cards) -> Cards {
        Cards(self.0 & o.0)
    }
    /// Difference: the cards of `self` not in `o`.
    #[must_use]
    pub const fn minus(self, o: Cards) -> Cards {
        Cards(self.0 & !o.0)
    }
    /// The lowest card, if any.
    pub const fn lowest(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card::from_key(self.0.trailing_zeros() as u8))
        }
    }
    /// The highest card (`ckey` of a combination, §3.1), if any.
    pub(crate) const fn highest(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card::from_key(63 - self.0.leading_zeros() as u8))
        }
    }
    /// The four-bit suit mask of rank `ri` (bit `si`).
    pub(crate) const fn rank_bits(self, ri: u8) -> u8 {
        (self.0 >> (4 * ri) & 0xF) as u8
    }
    /// How many cards of rank `ri` the set holds.
    pub const fn rank_count(self, ri: u8) -> u32 {
        self.rank_bits(ri).count_ones()
    }
    /// The cards of rank `ri`.
    pub(crate) const fn of_rank(self, ri: u8) -> Cards {
        Cards(self.0 & Cards::rank(ri).0)
    }
    /// Per-rank card counts packed in nibbles (nibble `ri` holds 0..=4).
    pub(crate) const fn nibble_counts(self) -> u64 {
        let x = self.0;
        let y = x - ((x >> 1) & 0x5555_5555_5555_5555);
        (y & 0x3333_3333_3333_3333) + ((y >> 2) & 0x3333_3333_3333_3333)
    }
    /// Nibble flags (bit `4·ri`) of the ranks held at least `k` times (`k` in 1..=4).
    pub(crate) const fn ranks_with_at_least_nib(self, k: u32) -> u64 {
        let y = self.nibble_counts();
        match k {
            0 | 1 => (y | y >> 1 | y >> 2) & NIB_LOW,
            2 => (y >> 1 | y >> 2) & NIB_LOW,
            3 => (y >> 2 | (y & y >> 1)) & NIB_LOW,
            _ => (y >> 2) & NIB_LOW,
        }
    }
    /// 13-bit mask (bit `ri`) of the ranks held at least `k` times.
    pub(crate) const fn ranks_with_at_least(self, k: u32) -> u16 {
        compress_nibbles(self.ranks_with_at_least_nib(k))
    }
    /// The cards in ascending key.
    pub fn iter(self) -> CardsIter {
        CardsIter(self.0)
    }
}

/// Compresses nibble flags (bit `4·i`) to a 13-bit mask (bit `i`).
pub(crate) const fn compress_nibbles(mut f: u64) -> u16 {
    let mut m = 0u16;
    while f != 0 {
        m |= 1 << (f.trailing_zeros() / 4);
        f &= f - 1;
    }
    m
}

/// Iterator over a [`Cards`] in ascending key.
#[derive(Copy, Clone, Debug)]
pub struct CardsIter(u64);

impl Iterator for CardsIter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let k = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card::from_key(k))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Cards {
    type Item = Card;
    type IntoIter = CardsIter;
    fn into_iter(self) -> CardsIter {
        self.iter()
    }
}

impl FromIterator<Card> for Cards {
    fn from_iter<I: IntoIterator<Item = Card>>(it: I) -> Cards {
        it.into_iter().fold(Cards::EMPTY, |s, c| s.with(c))
    }
}

/// Canonical print order (§1.7): ascending key, single spaces; the empty set prints as `-`.
impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            fmt::Display::fmt(&c, f)?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Cards {
    type Err = CardListError;
    fn from_str(s: &str) -> Result<Cards, CardListError> {
        Ok(Cards::of(&parse_cards(s)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_flags_match_counts() {
        let h: Cards = "3s 4s 4c 5s 5c 5d 6s 6c 6d 6h 2h".parse().unwrap();
        assert_eq!(h.ranks_with_at_least(1), 0b1_0000_0000_1111);
        assert_eq!(h.ranks_with_at_least(2), 0b1110);
        assert_eq!(h.ranks_with_at_least(3), 0b1100);
        assert_eq!(h.ranks_with_at_least(4), 0b1000);
        assert_eq!(h.rank_count(3), 4);
        assert_eq!(h.highest().map(|c| c.to_string()), Some("2h".into()));
        assert_eq!(h.iter().count(), 11);
    }
}
