//! Tứ Sắc's luck capability ([`crate::games::kind::Luck`]), on either core
//! ([`super::onepack::luck`], [`super::packs::luck`]).

use super::actions::Event;
use super::engine::{TuSac, TuSacState};
use super::{onepack, packs};
use crate::game::{GameState, Seat};
use crate::games::kind::Luck;
use std::ops::Range;

/// The per-seat features of both cores: unfinished cards (trash, or loose cards), the hand's
/// value (hv, or points), whether the active card would complete the hand for a win, that win's
/// value, the cards held, whether at most one or three cards are unfinished, and whether the
/// active card would leave fewer unfinished (one-pack only; 0 in the multi-pack core).
pub(super) const SEAT_FEATURES: &[&str] = &[
    "unfinished",
    "value",
    "wins_active",
    "win_value",
    "held",
    "ready",
    "near",
    "active_helps",
];

impl Luck for TuSac {
    const SEAT_FEATURES: &'static [&'static str] = SEAT_FEATURES;

    fn hidden_stock(state: &TuSacState) -> Range<usize> {
        match state {
            TuSacState::OnePack(s) => onepack::luck::hidden_stock(s),
            TuSacState::MultiPack(s) => packs::luck::hidden_stock(s),
        }
    }

    fn stock_card(state: &TuSacState, i: usize) -> u16 {
        match state {
            TuSacState::OnePack(s) => onepack::luck::stock_card(s, i),
            TuSacState::MultiPack(s) => packs::luck::stock_card(s, i),
        }
    }

    fn swap_stock(state: &mut TuSacState, i: usize, j: usize) {
        match state {
            TuSacState::OnePack(s) => onepack::luck::swap_stock(s, i, j),
            TuSacState::MultiPack(s) => packs::luck::swap_stock(s, i, j),
        }
    }

    fn stock_draws(state: &TuSacState) -> usize {
        state
            .last_events()
            .iter()
            .map(|e| match e {
                Event::Draw { .. } => 1,
                Event::Reshuffle { .. } => 2,
                _ => 0,
            })
            .sum()
    }

    fn seat_features(state: &TuSacState, seat: Seat, out: &mut [f64]) {
        match state {
            TuSacState::OnePack(s) => onepack::luck::seat_features(s, seat, out),
            TuSacState::MultiPack(s) => packs::luck::seat_features(s, seat, out),
        }
    }
}
