//! Tứ Sắc deals in records and on the command line: the deck in the dealing order of §1.3 (one
//! pack, or every card of the packs of a multi-pack variant) and the setup of the deal.

use super::card::{format_cards, parse_cards, Card, CARD_TYPES};
use super::engine::{TuSac, TuSacState};
use super::onepack::deck::DECK_SIZE;
use super::onepack::worst::COPIES;
use crate::game::RuleMap;
use crate::games::kind::RecordSetup;

/// Reads a deck: exactly one pack in any order. Errors name the first extra or missing card.
pub fn parse_deck(text: &str) -> Result<[Card; DECK_SIZE], String> {
    let cards = parse_cards(text, COPIES).map_err(|e| format!("deck: {e}"))?;
    if cards.len() < DECK_SIZE {
        let mut counts = [0u8; CARD_TYPES];
        cards.iter().for_each(|c| counts[c.index()] += 1);
        let short = Card::all()
            .find(|c| counts[c.index()] < COPIES)
            .expect("fewer than a pack");
        let given = counts[short.index()];
        let missing = Card::all().filter(|c| counts[c.index()] == 0).count();
        return Err(format!(
            "deck: {} cards, a pack has {DECK_SIZE} ({COPIES} copies of each of {CARD_TYPES} \
             cards); the first card short is {short} ({given} of {COPIES} copies given), and \
             {missing} card(s) are missing altogether",
            cards.len()
        ));
    }
    let deck: [Card; DECK_SIZE] = cards
        .try_into()
        .map_err(|_| "deck: more cards than a pack".to_string())?;
    Ok(deck)
}

/// How a dealt game is recorded: the deck in dealing order and the first player; a multi-pack
/// deal adds the seed of its one reshuffle (§4.7) and, when the deal was redone, how often
/// (§1.4 step 1).
pub fn setup(start: &TuSacState) -> RecordSetup {
    let mut setup = RuleMap::new();
    let deck = match start {
        TuSacState::OnePack(s) => format_cards(s.deck().iter().copied()),
        TuSacState::MultiPack(s) => {
            setup.insert(RESHUFFLE_SEED.into(), s.reshuffle_seed().into());
            if s.redeals() > 0 {
                setup.insert(REDEALS.into(), s.redeals().into());
            }
            format_cards(s.deck().iter().copied())
        }
    };
    RecordSetup {
        deck,
        first: start.options().first_player,
        setup,
    }
}

/// The setup key of the reshuffle seed.
const RESHUFFLE_SEED: &str = "reshuffle_seed";
/// The setup key of the redeal count.
const REDEALS: &str = "redeals";

/// Deals the game of a record (or of a deck given by a user): one pack for the one-pack core;
/// for the multi-pack core every card of the packs, with the setup keys `reshuffle_seed`
/// (default 0) and `redeals` (default 0). Errors name the card or key at fault.
pub fn deal(game: &TuSac, deck: &str, setup: &RuleMap) -> Result<TuSacState, String> {
    let known: &[&str] = match game {
        TuSac::OnePack(_) => &[],
        TuSac::MultiPack(_) => &[RESHUFFLE_SEED, REDEALS],
    };
    if let Some(key) = setup.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(format!(
            "setup: '{key}' is not a setting of a {} deal{}",
            game.options().variant,
            if known.is_empty() {
                String::new()
            } else {
                format!(" (known: {})", known.join(", "))
            }
        ));
    }
    match game {
        TuSac::OnePack(g) => Ok(g.deal_deck(&parse_deck(deck)?).into()),
        TuSac::MultiPack(g) => {
            let o = g.options();
            let cards = parse_cards(deck, o.copies()).map_err(|e| format!("deck: {e}"))?;
            let seed = setup_uint(setup, RESHUFFLE_SEED, u64::MAX)?;
            let redeals = setup_uint(setup, REDEALS, u64::from(u16::MAX))? as u16;
            let s = g.deal_recorded(&cards, seed, redeals);
            Ok(s.map_err(|e| format!("deck: {e}"))?.into())
        }
    }
}

/// A whole number of the setup at `key`, at most `max` (0 when absent).
fn setup_uint(setup: &RuleMap, key: &str, max: u64) -> Result<u64, String> {
    match setup.get(key) {
        None => Ok(0),
        Some(v) => v
            .as_u64()
            .filter(|&n| n <= max)
            .ok_or_else(|| format!("setup: '{key}' = {v} is not a whole number from 0 to {max}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tusac::card::format_cards;
    use crate::games::tusac::OnePack;

    #[test]
    fn decks_must_be_one_pack() {
        let full = format_cards(OnePack::fresh_deck().iter().copied());
        assert!(parse_deck(&full).is_ok());
        let short = full.replacen("rK ", "", 1);
        assert!(parse_deck(&short)
            .unwrap_err()
            .contains("the first card short is rK (3 of 4 copies given)"));
        let two = parse_deck("rK rA").unwrap_err();
        assert!(
            two.contains("the first card short is rK (1 of 4 copies given)")
                && two.contains("26 card(s) are missing altogether"),
            "{two}"
        );
        let extra = format!("rK {full}");
        assert!(
            parse_deck(&extra).unwrap_err().contains("card 5 'rK'"),
            "{}",
            parse_deck(&extra).unwrap_err()
        );
        assert!(parse_deck("rK zz").unwrap_err().contains("card 2 'zz'"));
    }
}
