//! What luck-corrected estimates read of a multi-pack game ([`crate::games::kind::Luck`]): the
//! stock is `stock[next..end]`, of which the part looked at for the double rank (§1.4 step 2) is
//! public, so only `stock[next..public_from]` is hidden; a seat's features are those of its hand,
//! and of its hand with the active card.

use super::loose::win_score;
use super::state::PacksState;
use crate::game::Seat;
use std::ops::Range;

/// The stock positions whose order no seat knows.
pub(crate) fn hidden_stock(s: &PacksState) -> Range<usize> {
    let end = s.public_from.min(s.end);
    usize::from(s.next)..usize::from(end.max(s.next))
}

/// The card type at stock position `i`.
pub(crate) fn stock_card(s: &PacksState, i: usize) -> u16 {
    s.stock[i].index() as u16
}

/// Swaps two cards of the stock.
pub(crate) fn swap_stock(s: &mut PacksState, i: usize, j: usize) {
    s.stock.swap(i, j);
}

/// [`crate::games::tusac::luck::SEAT_FEATURES`] of `seat`: loose cards and points (§3.3, §2.5),
/// whether the active card would make a winning hand (§4.7) and its score, and the hand's size.
pub(crate) fn seat_features(s: &PacksState, seat: Seat, out: &mut [f64]) {
    let facts = s.facts(seat);
    let fixed = s.fixed_points(seat);
    let (wins, score) = match s.active() {
        Some(a) => {
            let mut with = *s.hand(seat);
            with[a.card.index()] += 1;
            let test = s.options().win_test;
            match win_score(&with, fixed, s.set_rules(), test) {
                Some(v) => (1.0, f64::from(v)),
                None => (0.0, 0.0),
            }
        }
        None => (0.0, 0.0),
    };
    out[0] = f64::from(facts.loose);
    out[1] = f64::from(fixed + facts.points);
    out[2] = wins;
    out[3] = score;
    out[4] = s.hand_len(seat) as f64;
    out[5] = f64::from(u8::from(facts.loose <= 1));
    out[6] = f64::from(u8::from(facts.loose <= 3));
    out[7] = 0.0;
}
