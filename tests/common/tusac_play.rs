//! Stepping a one-pack Tứ Sắc state in tests: its legal actions and a checked apply (the card
//! count conservation tests compare is `OnePackState::total_cards`). Declared in `tests/tusac/main.rs`; its modules `use
//! crate::tusac_play`.
#![allow(dead_code)] // each test file uses its own subset

use bailab::game::GameState;
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
