//! Card-list notation shared by every game: a list is tokens separated by spaces, each read by
//! the game's own card parser; errors name the token, its 1-based position and the reason.

use std::fmt::{self, Display};
use std::str::FromStr;

/// A card list could not be read: which token, where (1-based), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardListError {
    /// The offending token, or empty when the list itself is wrong (e.g. empty).
    pub token: String,
    /// 1-based position of the token in the list (0 when not about one token).
    pub position: usize,
    /// What is wrong.
    pub reason: String,
}

impl Display for CardListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.position == 0 {
            write!(f, "{}", self.reason)
        } else {
            write!(
                f,
                "card {} '{}': {}",
                self.position, self.token, self.reason
            )
        }
    }
}

impl std::error::Error for CardListError {}

/// Reads a space-separated list of cards of type `C`, with at most `copies` of each card
/// (`index` numbers the `TYPES` kinds of card). A card past its copies is an error: "given
/// twice" for a one-copy deck, "copy N of C" otherwise.
pub(crate) fn parse_list<C, const TYPES: usize>(
    text: &str,
    copies: u8,
    index: impl Fn(C) -> usize,
) -> Result<Vec<C>, CardListError>
where
    C: FromStr + Display + Copy,
    C::Err: Display,
{
    let mut counts = [0u8; TYPES];
    let mut cards = Vec::new();
    for (i, token) in text.split_whitespace().enumerate() {
        let error = |reason: String| CardListError {
            token: token.to_string(),
            position: i + 1,
            reason,
        };
        let card: C = token.parse().map_err(|e: C::Err| error(e.to_string()))?;
        let n = &mut counts[index(card)];
        *n += 1;
        if *n > copies {
            return Err(error(if copies == 1 {
                format!("{card} is given twice")
            } else {
                format!("copy {n} of {card}, but the deck holds only {copies}")
            }));
        }
        cards.push(card);
    }
    Ok(cards)
}

/// Items written with `Display`, separated by single spaces (how every game writes a list of
/// cards).
pub fn spaced<T: Display>(items: impl IntoIterator<Item = T>) -> String {
    let mut s = String::new();
    for item in items {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&item.to_string());
    }
    s
}
