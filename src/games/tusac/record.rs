//! Tứ Sắc deals in records and on the command line: the deck in the dealing order of §1.3 (one
//! pack, or every card of the packs of a multi-pack variant) and the setup of the deal.

use super::card::{format_cards, parse_cards, Card, CARD_TYPES};
use super::engine::{TuSac, TuSacState};
use super::onepack::deck::DECK_SIZE;
use super::onepack::worst::COPIES;
use crate::game::RuleMap;
use crate::games::kind::{DealError, RecordSetup};

/// Reads a deck: exactly one pack in any order. Errors name the first extra or missing card.
pub fn parse_deck(text: &str) -> Result<[Card; DECK_SIZE], DealError> {
    let cards = parse_cards(text, COPIES).map_err(DealError::Cards)?;
    if cards.len() < DECK_SIZE {
        let mut counts = [0u8; CARD_TYPES];
        cards.iter().for_each(|c| counts[c.index()] += 1);
        let short = Card::all()
            .find(|c| counts[c.index()] < COPIES)
            .expect("fewer than a pack");
        let given = counts[short.index()];
        let missing = Card::all().filter(|c| counts[c.index()] == 0).count();
        return Err(DealError::ShortPack {
            cards: cards.len(),
            size: DECK_SIZE,
            copies: COPIES,
            kinds: CARD_TYPES,
            short: short.to_string(),
            given,
            missing,
        });
    }
    let deck: [Card; DECK_SIZE] = cards.try_into().map_err(|_| DealError::OverPack)?;
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
pub fn deal(game: &TuSac, deck: &str, setup: &RuleMap) -> Result<TuSacState, DealError> {
    let known: &[&str] = match game {
        TuSac::OnePack(_) => &[],
        TuSac::MultiPack(_) => &[RESHUFFLE_SEED, REDEALS],
    };
    if let Some(key) = setup.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(DealError::UnknownSetup {
            key: key.clone(),
            deal: game.options().variant.to_string(),
            known: (!known.is_empty()).then(|| known.join(", ")),
        });
    }
    match game {
        TuSac::OnePack(g) => Ok(g.deal_deck(&parse_deck(deck)?).into()),
        TuSac::MultiPack(g) => {
            let o = g.options();
            let cards = parse_cards(deck, o.copies()).map_err(DealError::Cards)?;
            let seed = setup_uint(setup, RESHUFFLE_SEED, u64::MAX)?;
            let redeals = setup_uint(setup, REDEALS, u64::from(u16::MAX))? as u16;
            Ok(g.deal_recorded(&cards, seed, redeals)?.into())
        }
    }
}

/// A whole number of the setup at `key`, at most `max` (0 when absent).
fn setup_uint(setup: &RuleMap, key: &str, max: u64) -> Result<u64, DealError> {
    match setup.get(key) {
        None => Ok(0),
        Some(v) => v
            .as_u64()
            .filter(|&n| n <= max)
            .ok_or_else(|| DealError::SetupNumber {
                key: key.to_string(),
                value: v.clone(),
                max,
            }),
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
            .to_string()
            .contains("the first card short is rK (3 of 4 copies given)"));
        let two = parse_deck("rK rA").unwrap_err().to_string();
        assert!(
            two.contains("the first card short is rK (1 of 4 copies given)")
                && two.contains("26 card(s) are missing altogether"),
            "{two}"
        );
        let extra = format!("rK {full}");
        assert!(
            parse_deck(&extra)
                .unwrap_err()
                .to_string()
                .contains("card 5 'rK'"),
            "{}",
            parse_deck(&extra).unwrap_err().to_string()
        );
        assert!(parse_deck("rK zz")
            .unwrap_err()
            .to_string()
            .contains("card 2 'zz'"));
    }
}
