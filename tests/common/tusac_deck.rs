//! Constructed classic Tứ Sắc deals, shared by the test modules of `tests/tusac/` (declared in its
//! `main.rs`).

use bailab::games::tusac::card::{parse_cards, CARD_TYPES};
use bailab::games::tusac::onepack::deck::DECK_SIZE;
use bailab::games::tusac::{Card, OnePack, OnePackState, Options};

/// Cards per hand in classic (§1.3 item 2).
pub const HAND: usize = 20;

/// A deck for which `deal_deck` gives seat `s` exactly `hands[s]` (§1.3 item 4): `deck[k]` goes to
/// seat `(first + k) mod n` for `k < 20n`, `deck[20n]` is `first`'s extra card (the 21st card
/// listed for that seat), then the stock: the cards of `stock` in that order (the first is the
/// first card drawn), then every remaining card of the pack in canonical order.
pub fn deck_for(hands: &[&str], first: u8, stock: &str) -> [Card; DECK_SIZE] {
    let n = hands.len();
    assert!((2..=4).contains(&n), "classic seats 2 to 4, got {n} hands");
    let f = first as usize;
    assert!(f < n, "first player {f} is not a seat of {n}");
    let hands: Vec<Vec<Card>> = hands
        .iter()
        .enumerate()
        .map(|(s, h)| parse_cards(h, 4).unwrap_or_else(|e| panic!("seat {s}: {e}")))
        .collect();
    for (s, h) in hands.iter().enumerate() {
        let want = if s == f { HAND + 1 } else { HAND };
        assert_eq!(h.len(), want, "seat {s} must be given {want} cards");
    }
    let stock = parse_cards(stock, 4).unwrap();
    let mut counts = [0u8; CARD_TYPES];
    for &card in hands.iter().flatten().chain(&stock) {
        counts[card.index()] += 1;
        assert!(
            counts[card.index()] <= 4,
            "{card} is used {} times; a pack holds 4",
            counts[card.index()]
        );
    }
    let mut deck = Vec::with_capacity(DECK_SIZE);
    for k in 0..n * HAND {
        deck.push(hands[(f + k) % n][k / n]);
    }
    deck.push(hands[f][HAND]);
    deck.extend_from_slice(&stock);
    for card in Card::all() {
        for _ in counts[card.index()]..4 {
            deck.push(card);
        }
    }
    deck.try_into().expect("112 cards")
}

/// Deals a classic game for `hands.len()` players with `first` as `F`.
pub fn deal(hands: &[&str], first: u8, stock: &str) -> OnePackState {
    let opts = Options {
        first_player: first,
        ..Options::classic(hands.len() as u8)
    };
    OnePack::new(opts)
        .unwrap()
        .deal_deck(&deck_for(hands, first, stock))
}
