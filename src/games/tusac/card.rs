//! Tứ Sắc cards and their notation (§0.1 of the spec): a colour letter and a rank letter, e.g. `rK`.

pub use crate::notation::CardListError;
use std::fmt;

/// The four colours, in canonical order `r < y < g < w` (§0.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    /// `r`, đỏ.
    Red = 0,
    /// `y`, vàng.
    Yellow = 1,
    /// `g`, xanh.
    Green = 2,
    /// `w`, trắng.
    White = 3,
}

/// The seven ranks, in canonical order `K < A < E < R < C < H < P` (§0.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    /// `K`, king / tướng.
    King = 0,
    /// `A`, advisor / sĩ.
    Advisor = 1,
    /// `E`, elephant / tượng.
    Elephant = 2,
    /// `R`, rook / xe.
    Rook = 3,
    /// `C`, cannon / pháo.
    Cannon = 4,
    /// `H`, horse / mã.
    Horse = 5,
    /// `P`, pawn / tốt.
    Pawn = 6,
}

impl Rank {
    /// The rank's letter in the notation of §0.1 (`K A E R C H P`).
    pub(crate) const fn letter(self) -> char {
        RANK_LETTERS[self as usize] as char
    }
}

/// All colours in canonical order.
pub const COLOURS: [Colour; 4] = [Colour::Red, Colour::Yellow, Colour::Green, Colour::White];
/// All ranks in canonical order.
pub const RANKS: [Rank; 7] = [
    Rank::King,
    Rank::Advisor,
    Rank::Elephant,
    Rank::Rook,
    Rank::Cannon,
    Rank::Horse,
    Rank::Pawn,
];
const COLOUR_LETTERS: [u8; 4] = *b"rygw";
const RANK_LETTERS: [u8; 7] = *b"KAERCHP";

/// Number of card types in a pack (4 colours × 7 ranks).
pub const CARD_TYPES: usize = 28;

/// A card type. Its index `rank * 4 + colour` is the canonical order of §0.1
/// (rank first, then colour), so sorting cards by index sorts them canonically.
///
/// # Examples
/// ```
/// use bailab::games::tusac::Card;
/// let c: Card = "gH".parse().unwrap();
/// assert_eq!(c.to_string(), "gH");
/// assert!("rK".parse::<Card>().unwrap() < c);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Card(u8);

impl Card {
    /// The card of this colour and rank.
    pub const fn new(colour: Colour, rank: Rank) -> Card {
        Card(rank as u8 * 4 + colour as u8)
    }
    /// The card with canonical index `i` (0..28).
    pub const fn from_index(i: usize) -> Card {
        assert!(i < CARD_TYPES);
        Card(i as u8)
    }
    /// Canonical index, 0..28.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The colour.
    pub const fn colour(self) -> Colour {
        COLOURS[(self.0 % 4) as usize]
    }
    /// The rank.
    pub const fn rank(self) -> Rank {
        RANKS[(self.0 / 4) as usize]
    }
    /// True for the four kings.
    pub const fn is_king(self) -> bool {
        self.0 < 4
    }
    /// True for the four pawns.
    pub const fn is_pawn(self) -> bool {
        self.0 >= 24
    }
    /// The other two cards of the chow of non-pawn `self`: K/A/E or R/C/H of its colour.
    #[inline]
    pub(crate) fn chow_others(self) -> [Card; 2] {
        let group = if self.rank() <= Rank::Elephant {
            [Rank::King, Rank::Advisor, Rank::Elephant]
        } else {
            [Rank::Rook, Rank::Cannon, Rank::Horse]
        };
        let mut out = [self; 2];
        let others = group.into_iter().filter(|&r| r != self.rank());
        for (slot, r) in out.iter_mut().zip(others) {
            *slot = Card::new(self.colour(), r);
        }
        out
    }
    /// Every card type in canonical order.
    pub fn all() -> impl Iterator<Item = Card> + Clone {
        (0..CARD_TYPES as u8).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = COLOUR_LETTERS[self.colour() as usize] as char;
        let r = RANK_LETTERS[self.rank() as usize] as char;
        write!(f, "{c}{r}")
    }
}

/// Why a card token could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadCard(pub String);

impl fmt::Display for BadCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a Tứ Sắc card: write a colour letter (r y g w) then a rank letter (K A E R C H P), e.g. rK",
            self.0
        )
    }
}

impl std::error::Error for BadCard {}

impl std::str::FromStr for Card {
    type Err = BadCard;
    fn from_str(s: &str) -> Result<Card, BadCard> {
        let b = s.as_bytes();
        let bad = || BadCard(s.to_string());
        if b.len() != 2 {
            return Err(bad());
        }
        let colour = COLOUR_LETTERS
            .iter()
            .position(|&x| x == b[0])
            .ok_or_else(bad)?;
        let rank = RANK_LETTERS
            .iter()
            .position(|&x| x == b[1])
            .ok_or_else(bad)?;
        Ok(Card::new(COLOURS[colour], RANKS[rank]))
    }
}

/// Reads a space-separated card list such as `rK rA rE`, checking that no type appears more than
/// `max_copies` times. Errors name the token and its 1-based position.
pub fn parse_cards(text: &str, max_copies: u8) -> Result<Vec<Card>, CardListError> {
    crate::notation::parse_list::<Card, CARD_TYPES>(text, max_copies, Card::index)
}

/// Writes cards separated by single spaces.
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
        assert_eq!(format_cards(Card::all().take(5)), "rK yK gK wK rA");
    }

    #[test]
    fn bad_tokens_are_named_with_their_position() {
        let e = parse_cards("rK rX yP", 4).unwrap_err();
        assert_eq!((e.token.as_str(), e.position), ("rX", 2));
        let e = parse_cards("rK rK rK rK rK", 4).unwrap_err();
        assert_eq!((e.token.as_str(), e.position), ("rK", 5));
        assert!(e.to_string().contains("copy 5"));
        assert!(parse_cards("rk", 4).is_err());
        assert!(parse_cards("rKK", 4).is_err());
    }
}
