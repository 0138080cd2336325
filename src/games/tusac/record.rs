//! Tứ Sắc decks in records and on the command line: one pack in the dealing order of §1.3.

use super::card::{parse_cards, Card, CARD_TYPES};
use super::state::DECK_SIZE;
use super::worst::COPIES;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tusac::card::format_cards;
    use crate::games::tusac::TuSac;

    #[test]
    fn decks_must_be_one_pack() {
        let full = format_cards(TuSac::fresh_deck().iter().copied());
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
