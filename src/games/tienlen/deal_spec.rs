//! Tiến Lên's side of partial deals (`docs/deals-spec.md`): the deal of §2.3 as deck positions
//! (13 cards each; with fewer than four players the rest is set aside, and there is no stock),
//! card lists in the notation of §1, and a deal from a reordered pack.

use super::card::{parse_cards, Card, DECK_SIZE};
use super::state::{TienLen, TienLenState};
use super::types::{Setup, HAND_SIZE};
use crate::deal_spec::{round_robin, DealLayout, DealSpecError};
use crate::game::RuleMap;
use crate::game::{Game, Seat};

/// The layout of a first game of a match dealt by `first` (the dealer, default seat 0):
/// `deck[k]` goes to seat `(dealer + k) mod n`; the cards past `13n` are set aside, not a stock.
pub fn layout(game: &TienLen, first: Option<Seat>) -> DealLayout {
    let n = game.seats();
    let dealer = first.unwrap_or(0);
    let (hands, _set_aside) = round_robin(n, dealer as usize, HAND_SIZE, false, DECK_SIZE);
    let mut setup = RuleMap::new();
    setup.insert("dealer".into(), dealer.into());
    DealLayout {
        pack: TienLen::fresh_deck().iter().map(Card::to_string).collect(),
        hands,
        stock: Vec::new(),
        setup,
    }
}

/// A card list in the spec's notation (`3s 10h Ad ...`); errors name the card.
pub fn spec_cards(text: &str) -> Result<Vec<String>, DealSpecError> {
    let cards = parse_cards(text).map_err(|e| DealSpecError::Cards(e.to_string()))?;
    Ok(cards.iter().map(Card::to_string).collect())
}

/// Deals `deck[i] = fresh_deck[order[i]]` with `setup`.
pub(crate) fn deal_order(
    game: &TienLen,
    order: &[u16],
    setup: Setup,
) -> Result<TienLenState, DealSpecError> {
    if order.len() != DECK_SIZE || order.iter().any(|&i| i as usize >= DECK_SIZE) {
        return Err(DealSpecError::Order {
            game: "tienlen",
            cards: DECK_SIZE,
            packs: "one pack",
        });
    }
    let pack = TienLen::fresh_deck();
    let deck: [Card; DECK_SIZE] = std::array::from_fn(|i| pack[order[i] as usize]);
    Ok(game.deal_deck(&deck, setup))
}
