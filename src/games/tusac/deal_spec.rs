//! Tứ Sắc's side of partial deals (`docs/deals-spec.md`): the deal of §1.3 item 4 as deck
//! positions, card lists in the spec's notation, and a deal from a reordered pack.

use super::card::{parse_cards, Card};
use super::state::{TuSac, TuSacState, DECK_SIZE};
use super::worst::COPIES;
use crate::deal_spec::{round_robin, DealLayout};
use crate::game::Seat;
use crate::games::RuleMap;

/// The layout of a deal: `F` (the rule option `first_player`) receives `deck[k]` for
/// `k ≡ 0 mod n` and the extra card, and the stock is drawn from `deck[n·hand_size + 1]` on.
/// `first` must be `F`: Tứ Sắc's first player is a rule option, not a fact of the deal.
pub fn layout(game: &TuSac, first: Option<Seat>) -> Result<DealLayout, String> {
    let o = game.options();
    if let Some(f) = first.filter(|&f| f != o.first_player) {
        return Err(format!(
            "'first' = {f}: tusac's first player is the rule option first_player ({} here); \
             set first_player = {f} in the experiment's [rules] instead",
            o.first_player
        ));
    }
    let (hands, stock) = round_robin(
        o.players as usize,
        o.first_player as usize,
        o.hand_size as usize,
        true,
        DECK_SIZE,
    );
    Ok(DealLayout {
        pack: TuSac::fresh_deck().iter().map(Card::to_string).collect(),
        hands,
        stock,
        setup: RuleMap::new(),
    })
}

/// A card list in the spec's notation (`rK yA ...`); errors name the card.
pub fn spec_cards(text: &str) -> Result<Vec<String>, String> {
    let cards = parse_cards(text, COPIES).map_err(|e| e.to_string())?;
    Ok(cards.iter().map(Card::to_string).collect())
}

/// Deals `deck[i] = fresh_deck[order[i]]` (record setup: none).
pub fn deal_order(game: &TuSac, order: &[u16], setup: &RuleMap) -> Result<TuSacState, String> {
    if let Some(key) = setup.keys().next() {
        return Err(format!("setup: '{key}' is not a setting of a tusac deal"));
    }
    let deck = reordered(order)?;
    Ok(game.deal_deck(&deck))
}

/// The fresh pack reordered by `order`.
fn reordered(order: &[u16]) -> Result<[Card; DECK_SIZE], String> {
    if order.len() != DECK_SIZE || order.iter().any(|&i| i as usize >= DECK_SIZE) {
        return Err(format!(
            "a tusac deal orders the {DECK_SIZE} cards of one pack"
        ));
    }
    let pack = TuSac::fresh_deck();
    Ok(std::array::from_fn(|i| pack[order[i] as usize]))
}
