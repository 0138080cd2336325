//! What luck-corrected estimates read of a one-pack game ([`crate::games::kind::Luck`]): the
//! stock is `deck[next_draw..]`, its order unknown to every seat; a seat's features are those of
//! its private block, and of that block with the active card (a draw or a discard just shown).

use super::deck::DECK_SIZE;
use super::state::OnePackState;
use super::trash::trash_and_value;
use crate::game::Seat;
use std::ops::Range;

/// The stock positions of the cards not yet drawn.
pub(crate) fn hidden_stock(s: &OnePackState) -> Range<usize> {
    usize::from(s.next_draw)..DECK_SIZE
}

/// The card type at stock position `i`.
pub(crate) fn stock_card(s: &OnePackState, i: usize) -> u16 {
    s.deck[i].index() as u16
}

/// Swaps two cards of the stock.
pub(crate) fn swap_stock(s: &mut OnePackState, i: usize, j: usize) {
    s.deck.swap(i, j);
}

/// [`crate::games::tusac::luck::SEAT_FEATURES`] of `seat`: trash and hand value (§3.1, §6.1),
/// whether the active card would complete the private block and the value it would then have,
/// and the private block's size.
pub(crate) fn seat_features(s: &OnePackState, seat: Seat, out: &mut [f64]) {
    let private = s.private(seat);
    let (trash, private_value) = trash_and_value(private);
    let value = s.hand_value(seat);
    let (wins, win_value, helps) = match s.active() {
        Some(a) => {
            let mut with = private;
            with.add(a.card);
            match trash_and_value(with) {
                (0, v) => (
                    1.0,
                    f64::from(value - u32::from(private_value) + u32::from(v)),
                    1.0,
                ),
                (t, _) => (0.0, 0.0, f64::from(u8::from(t < trash))),
            }
        }
        None => (0.0, 0.0, 0.0),
    };
    out[0] = f64::from(trash);
    out[1] = f64::from(value);
    out[2] = wins;
    out[3] = win_value;
    out[4] = private.len() as f64;
    out[5] = f64::from(u8::from(trash <= 1));
    out[6] = f64::from(u8::from(trash <= 3));
    out[7] = helps;
}
