//! Chắn's luck capability ([`crate::games::kind::Luck`]): the stock is `deck[next_draw..]`, its
//! order unknown to every seat; a seat's features are those of its concealed cards (§3.2–3.4)
//! and whether the live card would make a ù.

use super::decompose::{decompose, win_shape};
use super::state::Chan;
use super::state::ChanState;
use super::types::Event;
use crate::game::{GameState, Seat};
use crate::games::kind::Luck;
use std::ops::Range;

impl Luck for Chan {
    const SEAT_FEATURES: &'static [&'static str] =
        &["chan", "ca", "lone", "badau", "wins_live", "held"];

    fn hidden_stock(state: &ChanState) -> Range<usize> {
        let left = state.stock_len();
        let end = state.deck().len();
        end - left..end
    }

    fn stock_card(state: &ChanState, i: usize) -> u16 {
        state.deck()[i].index() as u16
    }

    fn swap_stock(state: &mut ChanState, i: usize, j: usize) {
        state.deck.swap(i, j);
    }

    fn stock_draws(state: &ChanState) -> usize {
        let draws = state.last_events().iter();
        draws.filter(|e| matches!(e, Event::Draw { .. })).count()
    }

    fn seat_features(state: &ChanState, seat: Seat, out: &mut [f64]) {
        let p = state.seat(seat);
        let d = decompose(&p.concealed);
        let exposed = p.exposed_chan();
        let wins = state
            .live()
            .is_some_and(|l| win_shape(&p.concealed, exposed, Some(l.card)));
        out[0] = f64::from(exposed + d.chan);
        out[1] = f64::from(d.ca);
        out[2] = d.l() as f64;
        out[3] = d.b() as f64;
        out[4] = f64::from(u8::from(wins));
        out[5] = p.concealed.len() as f64;
    }
}
