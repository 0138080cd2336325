//! Stepping a one-pack Tứ Sắc state in tests: its legal actions, a checked apply, and the card
//! count that conservation tests compare. Declared in `tests/tusac/main.rs`; its modules `use
//! crate::tusac_play`.
#![allow(dead_code)] // each test file uses its own subset

use bailab::game::{GameState, Seat};
use bailab::games::tusac::actions::Action;
use bailab::games::tusac::onepack::state::OnePackState;

/// The legal actions of the seat to move.
pub fn legal(s: &OnePackState) -> Vec<Action> {
    let mut out = <OnePackState as GameState>::Actions::default();
    s.legal_actions(&mut out);
    out.as_slice().to_vec()
}

/// Applies `a` after checking that it is one of the legal actions.
pub fn act(s: &mut OnePackState, a: Action) {
    let l = legal(s);
    assert!(l.contains(&a), "{a} is not legal in {:?}: {l:?}", s.phase());
    s.apply(a);
}

/// Every card in the game: private and public blocks, dead pile, stock and the active card.
pub fn total_cards(s: &OnePackState) -> usize {
    let seats = 0..s.players() as Seat;
    let private: usize = seats.clone().map(|x| s.private(x).len()).sum();
    let public: usize = seats
        .map(|x| {
            s.public_sets(x)
                .iter()
                .map(|set| set.cards().len())
                .sum::<usize>()
        })
        .sum();
    let dead: usize = s.dead().iter().map(|&c| c as usize).sum();
    private + public + dead + s.stock_len() + usize::from(s.active().is_some())
}
