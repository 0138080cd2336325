//! Chắn's side of partial deals (`docs/deals-spec.md`): the deal of §2.4 as deck positions
//! (19 cards each, the 20th to the first player `F`, the rest the stock, drawn from the top),
//! card lists in the spec's notation, and a deal from a reordered pack.

use super::card::{parse_cards, Card};
use super::state::{Chan, ChanState};
use super::types::{Setup, DECK_SIZE, HAND_SIZE};
use crate::deal_spec::{round_robin, DealLayout, DealSpecError};
use crate::game::RuleMap;
use crate::game::{Game, Seat};

/// The layout of a deal with first player `first` (default seat 0, the first hand of a match).
pub fn layout(game: &Chan, first: Option<Seat>) -> DealLayout {
    let f = first.unwrap_or(0);
    let (hands, stock) = round_robin(game.seats(), f as usize, HAND_SIZE, true, DECK_SIZE);
    let mut setup = RuleMap::new();
    setup.insert("first".into(), f.into());
    DealLayout {
        pack: Chan::fresh_deck().iter().map(Card::to_string).collect(),
        hands,
        stock,
        setup,
    }
}

/// A card list in the spec's notation (`2v ch 9n ...`); errors name the card.
pub fn spec_cards(text: &str) -> Result<Vec<String>, DealSpecError> {
    let cards = parse_cards(text).map_err(|e| DealSpecError::Cards(e.to_string()))?;
    Ok(cards.iter().map(Card::to_string).collect())
}

/// Deals `deck[i] = fresh_deck[order[i]]` with `setup`.
pub(crate) fn deal_order(
    game: &Chan,
    order: &[u16],
    setup: Setup,
) -> Result<ChanState, DealSpecError> {
    if order.len() != DECK_SIZE || order.iter().any(|&i| i as usize >= DECK_SIZE) {
        return Err(DealSpecError::Order {
            game: "chan",
            cards: DECK_SIZE,
            packs: "one pack",
        });
    }
    let pack = Chan::fresh_deck();
    let deck: [Card; DECK_SIZE] = std::array::from_fn(|i| pack[order[i] as usize]);
    Ok(game.deal_deck(&deck, setup))
}
