//! Tứ Sắc's side of partial deals (`docs/deals-spec.md`): the deal of §1.3 item 4 as deck
//! positions, card lists in the spec's notation, and a deal from a reordered pack, on either
//! rule core.

use super::card::{parse_cards, Card, CARD_TYPES};
use super::engine::{TuSac, TuSacState};
use super::onepack::deck::DECK_SIZE;
use super::onepack::state::OnePack;
use super::packs::live_copies;
use super::packs::state::MAX_DECK;
use crate::deal_spec::{round_robin, DealLayout, DealPlan, DealSpecError};
use crate::game::RuleMap;
use crate::game::Seat;

/// The most copies of one card type any variant plays with (4 packs).
const MAX_COPIES: u8 = 16;

/// The layout of a deal: `F` (the rule option `first_player`) receives `deck[k]` for
/// `k ≡ 0 mod n` and the extra card, and the stock is drawn from `deck[n·hand_size + 1]` on.
/// `first` must be `F`: Tứ Sắc's first player is a rule option, not a fact of the deal.
pub fn layout(game: &TuSac, first: Option<Seat>) -> Result<DealLayout, DealSpecError> {
    let o = game.options();
    if let Some(f) = first.filter(|&f| f != o.first_player) {
        return Err(DealSpecError::Game(format!(
            "'first' = {f}: tusac's first player is the rule option first_player ({} here); \
             set first_player = {f} in the experiment's [rules] instead",
            o.first_player
        )));
    }
    let pack = pack(game);
    let (hands, stock) = round_robin(
        o.players as usize,
        o.first_player as usize,
        o.hand_size as usize,
        true,
        pack.len(),
    );
    Ok(DealLayout {
        pack: pack.iter().map(Card::to_string).collect(),
        hands,
        stock,
        setup: RuleMap::new(),
    })
}

/// The cards of the game's packs in canonical order.
fn pack(game: &TuSac) -> Vec<Card> {
    match game {
        TuSac::OnePack(_) => OnePack::fresh_deck().to_vec(),
        TuSac::MultiPack(g) => g.fresh_deck()[..g.options().deck_len()].to_vec(),
    }
}

/// A card list in the spec's notation (`rK yA ...`); errors name the card. Copies are counted
/// against the game's packs by the caller.
pub fn spec_cards(text: &str) -> Result<Vec<String>, DealSpecError> {
    let cards = parse_cards(text, MAX_COPIES).map_err(|e| DealSpecError::Cards(e.to_string()))?;
    Ok(cards.iter().map(Card::to_string).collect())
}

/// Deals `deck[i] = fresh_deck[order[i]]` (record setup: none). On the multi-pack core the
/// order must pass the redeal check of §1.4 step 1 when the options redeal (partial deals draw
/// their free cards again until it does, [`redeal_seat`]), and the dead pile's reshuffle (§4.7)
/// is seeded from the order itself, so the same order always gives the same game.
pub(crate) fn deal_order(
    game: &TuSac,
    order: &[u16],
    setup: &RuleMap,
) -> Result<TuSacState, DealSpecError> {
    if let Some(key) = setup.keys().next() {
        return Err(DealSpecError::Game(format!(
            "setup: '{key}' is not a setting of a tusac deal"
        )));
    }
    match game {
        TuSac::OnePack(g) => {
            let pack = OnePack::fresh_deck();
            let deck: [Card; DECK_SIZE] = reordered(&pack, order)?;
            Ok(g.deal_deck(&deck).into())
        }
        TuSac::MultiPack(g) => {
            let len = g.options().deck_len();
            let pack = g.fresh_deck();
            let deck: [Card; MAX_DECK] = reordered(&pack[..len], order)?;
            Ok(g.deal_deck(&deck[..len], order_seed(order))
                .map_err(|e| DealSpecError::Game(e.to_string()))?
                .into())
        }
    }
}

/// §1.4 step 1 on a partial deal: the first seat of the multi-pack deal `order` whose hand the
/// rules redeal (neither a King nor three identical non-King cards), when the options redeal.
pub(crate) fn redeal_seat(game: &TuSac, order: &[u16]) -> Option<Seat> {
    let TuSac::MultiPack(g) = game else {
        return None;
    };
    let len = g.options().deck_len();
    if !g.options().redeal_dead_hands || order.len() != len {
        return None;
    }
    let pack = g.fresh_deck();
    let mut deck = [Card::default(); MAX_DECK];
    for (slot, &i) in deck.iter_mut().zip(order) {
        *slot = pack[usize::from(i)];
    }
    g.dead_seat(&deck[..len])
}

/// §1.4 step 1 on a partial deal: refuses a seat whose fixed cards hold neither a King nor
/// three identical non-King cards when no draw of its free cards can bring one (e.g. a whole
/// hand), since every deal would be redealt.
pub(crate) fn check_plan(game: &TuSac, plan: &DealPlan) -> Result<(), DealSpecError> {
    let TuSac::MultiPack(g) = game else {
        return Ok(());
    };
    if !g.options().redeal_dead_hands {
        return Ok(());
    }
    let pack = g.fresh_deck();
    let counts = |cards: &mut dyn Iterator<Item = u16>| {
        let mut n = [0usize; CARD_TYPES];
        cards.for_each(|i| n[pack[usize::from(i)].index()] += 1);
        n
    };
    let pool = counts(&mut plan.free_cards().iter().copied());
    for seat in 0..plan.players() {
        let fixed = counts(&mut plan.seat_fixed(seat));
        let free = plan.seat_free(seat);
        let can = |c: Card| fixed[c.index()] + pool[c.index()].min(free) >= live_copies(c);
        if !Card::all().any(can) {
            return Err(DealSpecError::Game(format!(
                "seat{seat}: the fixed cards hold neither a King nor three identical non-King \
                 cards, and the {free} card(s) of the hand left to chance cannot bring one: \
                 {} redeals such a hand (§1.4 step 1), so no deal of this specification is \
                 ever played",
                g.options().variant
            )));
        }
    }
    Ok(())
}

/// `pack` reordered by `order` into the front of an array of `N` cards.
fn reordered<const N: usize>(pack: &[Card], order: &[u16]) -> Result<[Card; N], DealSpecError> {
    if order.len() != pack.len() || order.iter().any(|&i| i as usize >= pack.len()) {
        return Err(DealSpecError::Order {
            game: "tusac",
            cards: pack.len(),
            packs: "its packs",
        });
    }
    let mut deck = [Card::default(); N];
    for (slot, &i) in deck.iter_mut().zip(order) {
        *slot = pack[i as usize];
    }
    Ok(deck)
}

/// A seed read off a deck order (FNV-1a over its indices).
fn order_seed(order: &[u16]) -> u64 {
    order.iter().fold(0xcbf2_9ce4_8422_2325, |h, &i| {
        (h ^ u64::from(i)).wrapping_mul(0x0100_0000_01b3)
    })
}
