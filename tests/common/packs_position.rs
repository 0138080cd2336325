//! Constructed multi-pack Tứ Sắc positions (sisepai21, dirtyking26) for tests: cards from
//! notation, the deck of §1.3 item 4 for given hands, the dealt state, and a checked step.
//! Declared in `tests/tusac/main.rs`; its modules `use crate::packs_position`.
#![allow(dead_code)] // each test file uses its own subset

use bailab::game::{GameState, Seat};
use bailab::games::tusac::actions::Action;
use bailab::games::tusac::card::parse_cards;
use bailab::games::tusac::options::Options;
use bailab::games::tusac::packs::{MultiPack, PacksState};
use bailab::games::tusac::{Card, Meld, SetKind};

/// Cards in notation (up to 16 copies of a card: four packs).
pub fn cards(s: &str) -> Vec<Card> {
    parse_cards(s, 16).unwrap()
}

/// One card in notation.
pub fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// The deck of §1.3 item 4 for these hands (`hands[first]` has the extra card last), then the
/// stock in drawing order (its last card is the bottom).
pub fn deck_for(hands: &[&str], first: usize, stock: &str) -> Vec<Card> {
    let n = hands.len();
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| cards(h)).collect();
    let hs = hands[(first + 1) % n].len();
    for (s, h) in hands.iter().enumerate() {
        assert_eq!(
            h.len(),
            hs + usize::from(s == first),
            "seat {s}'s hand size"
        );
    }
    let mut deck: Vec<Card> = (0..n * hs).map(|k| hands[(first + k) % n][k / n]).collect();
    deck.push(hands[first][hs]);
    deck.extend(cards(stock));
    deck
}

/// A constructed position: these hands, this stock (the last card is the bottom), `F = first`.
pub fn position_at(opts: Options, hands: &[&str], first: u8, stock: &str) -> PacksState {
    let hs = cards(hands[(usize::from(first) + 1) % hands.len()]).len() as u8;
    let opts = Options {
        hand_size: hs,
        first_player: first,
        players: hands.len() as u8,
        ..opts
    };
    let game = MultiPack::new(opts).unwrap();
    game.deal_position(&deck_for(hands, first.into(), stock), 7)
        .unwrap()
}

/// [`position_at`] with seat 0 first.
pub fn position(opts: Options, hands: &[&str], stock: &str) -> PacksState {
    position_at(opts, hands, 0, stock)
}

/// A meld of `kind` with these hand cards.
pub fn meld(kind: SetKind, used: &str) -> Action {
    Action::Meld(Meld::new(kind, &cards(used)))
}

/// The legal actions of the seat to move.
pub fn legal(s: &PacksState) -> Vec<Action> {
    let mut out = Default::default();
    s.legal_actions(&mut out);
    out.to_vec()
}

/// Applies `action` for `seat`, checking that it is that seat's turn, that the action is legal
/// and that the cards are conserved.
pub fn act(s: &mut PacksState, seat: Seat, action: Action) {
    assert_eq!(
        s.to_move(),
        Some(seat),
        "{action} by seat {seat} in {:?}",
        s.phase()
    );
    assert!(
        legal(s).contains(&action),
        "{action} is legal: {:?}",
        legal(s)
    );
    s.apply(action);
    assert_eq!(s.total_cards(), s.deck().len(), "cards conserved");
}

/// Copies of card `c` in `seat`'s hand.
pub fn count(s: &PacksState, seat: Seat, c: &str) -> u8 {
    s.hand(seat)[card(c).index()]
}
