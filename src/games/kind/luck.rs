//! The luck capability: what luck-corrected estimates ([`crate::sim::luck`], `docs/variance.md`)
//! ask of a game. The chance events after the deal are the stock's draws; the part of the stock
//! whose order no seat knows is exchangeable (a uniform shuffle of the cards left), so the
//! estimator may swap its next card with any other of that part to see what a draw could have
//! been. And a few features of each seat's cards in the whole state, from which a value model
//! predicts the seat's payout (applied after the game, never by an agent).

use crate::game::{Game, Seat};
use std::ops::Range;

/// What luck-corrected estimates ask of a game. A game without a stock keeps the defaults: no
/// chance event after the deal, no value features.
pub trait Luck: Game {
    /// The names of [`Luck::seat_features`], in order.
    const SEAT_FEATURES: &'static [&'static str] = &[];

    /// The deck positions of the stock whose order no seat knows, the next card drawn first
    /// (empty when the stock is empty or its order is public).
    fn hidden_stock(state: &Self::State) -> Range<usize> {
        let _ = state;
        0..0
    }

    /// The card type at stock position `i` (two positions of one type draw the same card).
    fn stock_card(state: &Self::State, i: usize) -> u16 {
        let _ = (state, i);
        0
    }

    /// Swaps the cards at stock positions `i` and `j` of [`Luck::hidden_stock`].
    fn swap_stock(state: &mut Self::State, i: usize, j: usize) {
        let _ = (state, i, j);
    }

    /// Cards the last `apply` took from the stock (a reshuffle counts as two: the step's
    /// outcome then depends on more than its first card).
    fn stock_draws(state: &Self::State) -> usize {
        let _ = state;
        0
    }

    /// Writes [`Luck::SEAT_FEATURES`] of `seat` in `state` (the whole state: hidden hands
    /// included, never the stock's order) into `out`. Never allocates.
    fn seat_features(state: &Self::State, seat: Seat, out: &mut [f64]) {
        let _ = (state, seat, out);
    }
}
