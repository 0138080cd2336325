//! A multiset of cards as counts per identity (§1.1: 25 identities × up to 4 copies), a plain
//! 25-byte `Copy` value.

use super::card::{parse_cards, Card, CardListError, IDENTITIES};
use std::fmt;

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
    pub fn add_n(&mut self, card: Card, n: u8) {
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
    pub fn remove_n(&mut self, card: Card, n: u8) {
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
    pub fn plus(mut self, other: Hand) -> Hand {
        for i in 0..IDENTITIES {
            self.0[i] += other.0[i];
        }
        self
    }
    /// Number of cards.
    pub fn len(&self) -> usize {
        self.0.iter().map(|&c| c as usize).sum()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
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
    pub fn present(&self) -> u32 {
        let mut m = 0;
        for (i, &c) in self.0.iter().enumerate() {
            if c > 0 {
                m |= 1 << i;
            }
        }
        m
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
