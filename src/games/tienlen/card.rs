//! Tiến Lên cards and their notation (§1): rank then suit, e.g. `3s`, `Th`, `2h`.

pub use crate::notation::CardListError;
use std::fmt;

/// Rank letters in ascending order (§1.2): rank index `ri` is the position.
pub(crate) const RANK_LETTERS: [u8; 13] = *b"3456789TJQKA2";
/// Suit letters in ascending order (§1.3): `s` < `c` < `d` < `h`.
pub(crate) const SUIT_LETTERS: [u8; 4] = *b"scdh";
/// Cards in a deck.
pub const DECK_SIZE: usize = 52;
/// Rank index of the 2 (heo), the highest rank (§1.2).
pub(crate) const RANK_TWO: u8 = 12;

/// A card, stored as its `key = 4·ri + si` (§1.5): 0 = `3s` … 51 = `2h`, so comparing cards
/// compares strength.
///
/// # Examples
/// ```
/// use bailab::games::tienlen::Card;
/// let c: Card = "Th".parse().unwrap();
/// assert_eq!((c.rank(), c.suit(), c.key()), (7, 3, 31));
/// assert_eq!("10h".parse::<Card>().unwrap(), c);
/// assert!("Ts".parse::<Card>().unwrap() > "9h".parse::<Card>().unwrap());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Card(u8);

impl Card {
    /// The card of rank index `ri` (0..13) and suit index `si` (0..4).
    pub const fn new(ri: u8, si: u8) -> Card {
        assert!(ri < 13 && si < 4);
        Card(ri * 4 + si)
    }
    /// The card with this key (0..52).
    pub(crate) const fn from_key(key: u8) -> Card {
        assert!(key < DECK_SIZE as u8);
        Card(key)
    }
    /// `key = 4·ri + si` (§1.5).
    pub const fn key(self) -> u8 {
        self.0
    }
    /// Rank index `ri`: 3→0 … A→11, 2→12 (§1.2).
    pub const fn rank(self) -> u8 {
        self.0 / 4
    }
    /// Suit index `si`: s0 c1 d2 h3 (§1.3).
    pub const fn suit(self) -> u8 {
        self.0 % 4
    }
    /// True for a heo (any 2, §1.6).
    pub(crate) const fn is_two(self) -> bool {
        self.rank() == RANK_TWO
    }
    /// True for a red card (♦ or ♥).
    pub const fn is_red(self) -> bool {
        self.suit() >= 2
    }
    /// The 52 cards in ascending key.
    pub fn all() -> impl Iterator<Item = Card> + Clone {
        (0..DECK_SIZE as u8).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(RANK_LETTERS[self.rank() as usize] as char)?;
        f.write_char(SUIT_LETTERS[self.suit() as usize] as char)
    }
}

/// Why one card token could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadCard {
    /// The token is not a rank followed by one suit letter.
    Shape,
    /// The rank part is not one of `3 4 5 6 7 8 9 T J Q K A 2` (or `10`).
    UnknownRank,
    /// The suit letter is not one of `s c d h`.
    UnknownSuit,
}

impl fmt::Display for BadCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BadCard::Shape => "a card is a rank then a suit, e.g. 3s, Th, 10h, 2h",
            BadCard::UnknownRank => "unknown rank (3 4 5 6 7 8 9 T J Q K A 2, or 10)",
            BadCard::UnknownSuit => "unknown suit (s c d h)",
        })
    }
}

impl std::error::Error for BadCard {}

impl std::str::FromStr for Card {
    type Err = BadCard;
    fn from_str(s: &str) -> Result<Card, BadCard> {
        let b = s.as_bytes();
        let (rank, suit) = match b.len() {
            2 => (&b[..1], b[1]),
            3 => (&b[..2], b[2]),
            _ => return Err(BadCard::Shape),
        };
        let ri = match rank {
            b"10" => 7,
            [r] => RANK_LETTERS
                .iter()
                .position(|&x| x == r.to_ascii_uppercase())
                .ok_or(BadCard::UnknownRank)? as u8,
            _ => return Err(BadCard::UnknownRank),
        };
        let si = SUIT_LETTERS
            .iter()
            .position(|&x| x == suit.to_ascii_lowercase())
            .ok_or(BadCard::UnknownSuit)? as u8;
        Ok(Card::new(ri, si))
    }
}

/// Reads a space-separated card list such as `3s 4d Th`; a card given twice is an error.
/// Errors name the token, its 1-based position and the reason.
///
/// # Examples
/// ```
/// use bailab::games::tienlen::card::parse_cards;
/// assert_eq!(parse_cards("3s 10h").unwrap().len(), 2);
/// let e = parse_cards("3s 4x").unwrap_err();
/// assert_eq!((e.token.as_str(), e.position), ("4x", 2));
/// ```
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardListError> {
    crate::notation::parse_list::<Card, DECK_SIZE>(text, 1, |c| usize::from(c.key()))
}

/// Writes cards separated by single spaces, in the given order.
pub fn format_cards(cards: impl IntoIterator<Item = Card>) -> String {
    crate::notation::spaced(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_card() {
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!(format_cards(Card::all().take(5)), "3s 3c 3d 3h 4s");
        assert_eq!(Card::from_key(51).to_string(), "2h");
    }

    #[test]
    fn bad_tokens_are_named_with_their_position_and_reason() {
        let e = parse_cards("3s 1h 4s").unwrap_err();
        assert_eq!((e.token.as_str(), e.position), ("1h", 2));
        assert!(e.reason.contains("rank"));
        let e = parse_cards("3s 4x").unwrap_err();
        assert!(e.reason.contains("suit"));
        let e = parse_cards("3s 4s 3s").unwrap_err();
        assert_eq!(e.position, 3);
        assert!(e.to_string().contains("twice"));
        assert!(parse_cards("3").is_err());
        assert!(parse_cards("3sss").is_err());
    }
}
