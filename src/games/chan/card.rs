//! Chắn cards and their notation (§1.1): rank digit + suit letter (`2v` … `9s`) and `ch`
//! (chi chi); red and black (§1.2); the Tôm and Lèo groups (§1.3).

pub use crate::notation::CardListError;
use std::fmt;

/// The three suits, in canonical order `v < n < s` (§1.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// `v`, Vạn.
    V = 0,
    /// `n`, Văn.
    N = 1,
    /// `s`, Sách.
    S = 2,
}

const SUIT_LETTERS: [u8; 3] = *b"vns";
/// Number of card identities (§1.1): 8 ranks × 3 suits plus chi chi.
pub(crate) const IDENTITIES: usize = 25;
/// Copies of each identity in the deck (§1.1).
pub(crate) const COPIES: u8 = 4;

/// A card identity. Its index `(rank − 2) · 3 + suit` (chi chi = 24) is the canonical print
/// order of §1.1: rank 2→9, suits v < n < s inside a rank, `ch` last.
///
/// # Examples
/// ```
/// use bailab::games::chan::Card;
/// let c: Card = "7n".parse().unwrap();
/// assert_eq!((c.rank(), c.to_string()), (Some(7), "7n".to_string()));
/// assert!(Card::CH.is_red() && !c.is_red());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Card(u8);

impl Card {
    /// Chi chi (`ch`).
    pub const CH: Card = Card(24);

    /// The numbered card of `rank` (2..=9) and `suit`.
    pub const fn num(rank: u8, suit: Suit) -> Card {
        assert!(rank >= 2 && rank <= 9);
        Card((rank - 2) * 3 + suit as u8)
    }
    /// The card of canonical index `i` (0..25).
    pub const fn from_index(i: usize) -> Card {
        assert!(i < IDENTITIES);
        Card(i as u8)
    }
    /// Canonical index, 0..25.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// This identity as a one-bit mask (bit `index`).
    pub(crate) const fn bit(self) -> u32 {
        1 << self.0
    }
    /// True for chi chi.
    pub(crate) const fn is_ch(self) -> bool {
        self.0 == 24
    }
    /// The rank 2..=9, or `None` for chi chi (v2: `ch` has no rank, §6.1).
    pub const fn rank(self) -> Option<u8> {
        if self.is_ch() {
            None
        } else {
            Some(self.0 / 3 + 2)
        }
    }
    /// The rank's index 0..8 (rank − 2), or `None` for chi chi.
    pub(crate) const fn rank_index(self) -> Option<usize> {
        if self.is_ch() {
            None
        } else {
            Some((self.0 / 3) as usize)
        }
    }
    /// The suit, or `None` for chi chi.
    pub const fn suit(self) -> Option<Suit> {
        match (self.is_ch(), self.0 % 3) {
            (true, _) => None,
            (_, 0) => Some(Suit::V),
            (_, 1) => Some(Suit::N),
            _ => Some(Suit::S),
        }
    }
    /// `rank(self) = rank(other)` with §6.1's v2 convention: false when either is `ch`.
    pub(crate) const fn same_rank(self, other: Card) -> bool {
        !self.is_ch() && !other.is_ch() && self.0 / 3 == other.0 / 3
    }
    /// `is_red` of §1.2: `8v 8s 9v 9s ch`.
    pub const fn is_red(self) -> bool {
        RED_MASK >> self.0 & 1 == 1
    }
    /// Every identity in canonical order.
    pub fn all() -> impl Iterator<Item = Card> + Clone {
        (0..IDENTITIES as u8).map(Card)
    }
    /// The three identities of rank-index `r` (0..8), in suit order.
    pub(crate) const fn of_rank(r: usize) -> [Card; 3] {
        let b = (r * 3) as u8;
        [Card(b), Card(b + 1), Card(b + 2)]
    }
}

/// The red identities of §1.2 as a mask: `8v` (18), `8s` (20), `9v` (21), `9s` (23), `ch` (24).
pub(crate) const RED_MASK: u32 = 1 << 18 | 1 << 20 | 1 << 21 | 1 << 23 | 1 << 24;
/// The Tôm group of §1.3: `3v 3s 7n`.
pub(crate) const TOM: [Card; 3] = [
    Card::num(3, Suit::V),
    Card::num(3, Suit::S),
    Card::num(7, Suit::N),
];
/// The Lèo group of §1.3: `9v 8s ch`.
pub(crate) const LEO: [Card; 3] = [Card::num(9, Suit::V), Card::num(8, Suit::S), Card::CH];

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => write!(f, "{r}{}", SUIT_LETTERS[s as usize] as char),
            _ => f.write_str("ch"),
        }
    }
}

/// Why a card token could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadCard(pub String);

impl fmt::Display for BadCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a Chắn card: write a rank digit (2-9) then a suit letter (v n s), e.g. 7n, or ch for chi chi",
            self.0
        )
    }
}

impl std::error::Error for BadCard {}

impl std::str::FromStr for Card {
    type Err = BadCard;
    fn from_str(s: &str) -> Result<Card, BadCard> {
        if s == "ch" {
            return Ok(Card::CH);
        }
        let b = s.as_bytes();
        let bad = || BadCard(s.to_string());
        if b.len() != 2 || !(b'2'..=b'9').contains(&b[0]) {
            return Err(bad());
        }
        let suit = match b[1] {
            b'v' => Suit::V,
            b'n' => Suit::N,
            b's' => Suit::S,
            _ => return Err(bad()),
        };
        Ok(Card::num(b[0] - b'0', suit))
    }
}

/// Reads a space-separated card list such as `2v 2n ch`, at most 4 copies of an identity.
/// Errors name the token, its 1-based position and the reason.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardListError> {
    crate::notation::parse_list::<Card, IDENTITIES>(text, COPIES, Card::index)
}

/// Writes cards separated by single spaces.
pub fn format_cards(cards: impl IntoIterator<Item = Card>) -> String {
    crate::notation::spaced(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_orders() {
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!(format_cards(Card::all().take(4)), "2v 2n 2s 3v");
        assert_eq!(Card::all().filter(|c| c.is_red()).count(), 5);
        assert_eq!(
            format_cards(Card::all().filter(|c| c.is_red())),
            "8v 8s 9v 9s ch"
        );
    }

    #[test]
    fn bad_tokens_are_named() {
        let e = parse_cards("2v 1v 3n").unwrap_err();
        assert_eq!((e.token.as_str(), e.position), ("1v", 2));
        let e = parse_cards("ch ch ch ch ch").unwrap_err();
        assert_eq!((e.token.as_str(), e.position), ("ch", 5));
        assert!(e.to_string().contains("copy 5"));
        assert!(parse_cards("2x").is_err() && parse_cards("CH").is_err());
    }
}
