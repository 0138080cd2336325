//! A private block as a packed multiset: 2 bits of count per card type in one `u64`.
//!
//! Layout is colour-major so that the trash tables can read one colour with one shift:
//! colour `c` owns bits `14c .. 14c + 14`, ranks K A E R C H P at 2 bits each. A private
//! block never holds 4 copies of a type (a dealt quadruple is exposed, §1.4), so 2 bits suffice.

use super::card::{Card, CARD_TYPES};

/// Bit offset of a card type's 2-bit count.
const fn offset(card: Card) -> u32 {
    2 * (card.colour() as u32 * 7 + card.rank() as u32)
}

const LOW_BITS: u64 = 0x0055_5555_5555_5555;

/// A multiset of cards with at most 3 copies per type, packed into a `u64`.
///
/// # Examples
/// ```
/// use bailab::games::tusac::{Card, Hand};
/// let h: Hand = "rK rA rE rA".parse().unwrap();
/// assert_eq!(h.len(), 4);
/// assert_eq!(h.count("rA".parse().unwrap()), 2);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hand(u64);

impl Hand {
    /// The empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// The packed bits (for table lookups).
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Copies of `card` held.
    #[inline]
    pub const fn count(self, card: Card) -> u8 {
        ((self.0 >> offset(card)) & 3) as u8
    }

    /// Adds one copy. Panics in debug builds if that would make 4 copies.
    #[inline]
    pub fn add(&mut self, card: Card) {
        debug_assert!(
            self.count(card) < 3,
            "a private block holds at most 3 {card}"
        );
        self.0 += 1 << offset(card);
    }

    /// Removes one copy. Panics in debug builds if there is none.
    #[inline]
    pub fn remove(&mut self, card: Card) {
        debug_assert!(self.count(card) > 0, "no {card} to remove");
        self.0 -= 1 << offset(card);
    }

    /// This hand without one copy of `card`.
    #[inline]
    pub fn without(mut self, card: Card) -> Hand {
        self.remove(card);
        self
    }

    /// This hand without every card of `cards`.
    #[inline]
    pub fn without_all(mut self, cards: &[Card]) -> Hand {
        for &c in cards {
            self.remove(c);
        }
        self
    }

    /// The multiset sum of two hands, or `None` if some type would have 4 copies or more.
    /// Field-wise: a carry out of a 2-bit count shows as a carry into the next field's low bit.
    #[inline]
    pub(crate) const fn plus(self, other: Hand) -> Option<Hand> {
        let sum = self.0 + other.0;
        let carries = self.0 ^ other.0 ^ sum;
        if carries & (LOW_BITS << 2) != 0 {
            None
        } else {
            Some(Hand(sum))
        }
    }

    /// The types held exactly 3 times, as a hand holding one copy of each.
    #[inline]
    pub(crate) const fn triples(self) -> Hand {
        Hand(self.0 & (self.0 >> 1) & LOW_BITS)
    }

    /// True if every card of `cards` (as a multiset) is held.
    pub fn contains_all(self, cards: &[Card]) -> bool {
        let mut h = self;
        for &c in cards {
            if h.count(c) == 0 {
                return false;
            }
            h.remove(c);
        }
        true
    }

    /// Number of cards.
    #[inline]
    pub const fn len(self) -> usize {
        ((self.0 & LOW_BITS).count_ones() + 2 * ((self.0 >> 1) & LOW_BITS).count_ones()) as usize
    }

    /// True when no card is held.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Builds a hand from per-type counts (each at most 3).
    pub fn from_counts(counts: &[u8; CARD_TYPES]) -> Hand {
        let mut h = Hand::EMPTY;
        for c in Card::all() {
            for _ in 0..counts[c.index()] {
                h.add(c);
            }
        }
        h
    }

    /// Per-type counts, indexed by canonical card index.
    pub fn counts(self) -> [u8; CARD_TYPES] {
        let mut out = [0u8; CARD_TYPES];
        for c in Card::all() {
            out[c.index()] = self.count(c);
        }
        out
    }

    /// The cards in canonical order, copies repeated.
    pub fn cards(self) -> impl Iterator<Item = Card> + Clone {
        Card::all().flat_map(move |c| std::iter::repeat_n(c, self.count(c) as usize))
    }

    /// The distinct types held, in canonical order.
    pub fn types(self) -> impl Iterator<Item = Card> + Clone {
        Card::all().filter(move |&c| self.count(c) > 0)
    }
}

impl std::fmt::Display for Hand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&super::card::format_cards(self.cards()))
    }
}

impl std::str::FromStr for Hand {
    type Err = super::card::CardListError;
    /// Reads a private block; at most 3 copies of a type (a 4th would have been exposed as a Quan).
    fn from_str(s: &str) -> Result<Hand, Self::Err> {
        let cards = super::card::parse_cards(s, 3)?;
        let mut h = Hand::EMPTY;
        for c in cards {
            h.add(c);
        }
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_remove_count_len() {
        let mut h = Hand::EMPTY;
        for c in Card::all() {
            h.add(c);
            h.add(c);
            h.add(c);
        }
        assert_eq!(h.len(), 84);
        for c in Card::all() {
            assert_eq!(h.count(c), 3);
            h.remove(c);
            assert_eq!(h.count(c), 2);
        }
        assert_eq!(h.len(), 56);
        assert_eq!(Hand::from_counts(&h.counts()), h);
        assert_eq!(h.cards().count(), 56);
    }

    #[test]
    fn plus_detects_a_fourth_copy_and_triples_are_found() {
        let h: Hand = "rK rK yP gH gH gH".parse().unwrap();
        let one: Hand = "rK wP".parse().unwrap();
        let sum = h.plus(one).unwrap();
        assert_eq!(sum.count("rK".parse().unwrap()), 3);
        assert_eq!(sum.len(), 8);
        assert_eq!(h.plus("gH".parse().unwrap()), None);
        assert_eq!(h.plus("rK rK".parse().unwrap()), None);
        assert_eq!(sum.triples(), "rK gH".parse().unwrap());
        // every pair of counts for the last type (the carry leaves the top field)
        let w: Card = "wP".parse().unwrap();
        for a in 0..4u8 {
            for b in 0..4u8 {
                let (mut x, mut y) = (Hand::EMPTY, Hand::EMPTY);
                (0..a).for_each(|_| x.add(w));
                (0..b).for_each(|_| y.add(w));
                assert_eq!(x.plus(y).is_some(), a + b <= 3, "{a} + {b}");
            }
        }
    }
}
