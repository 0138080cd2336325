//! What the estimator asks of a value function: every seat's value of a whole state.

use crate::game::{Game, GameState, MAX_SEATS};

/// A value function of the whole state: each seat's expected payout (the payouts themselves
/// at a finished game). Fixed before the games it corrects.
pub trait ValueFunction<G: Game> {
    /// Writes the value of every seat of `state` into `out`.
    fn values(&mut self, state: &G::State, out: &mut [f64; MAX_SEATS]);

    /// Told at each game's deal which agent slot sits at each seat (`slots[seat]`); a value
    /// function that plays like the seated agents keeps it, the others ignore it. The seating is
    /// fixed before the game's first draw, so the value stays a function fixed in advance.
    fn seat(&mut self, _slots: &[usize]) {}
}

impl<G: Game, V: ValueFunction<G> + ?Sized> ValueFunction<G> for Box<V> {
    fn seat(&mut self, slots: &[usize]) {
        (**self).seat(slots);
    }
    fn values(&mut self, state: &G::State, out: &mut [f64; MAX_SEATS]) {
        (**self).values(state, out);
    }
}

/// Writes the payouts of a finished game into `out` and says so; leaves `out` otherwise.
pub(crate) fn payouts_if_over<S: GameState>(state: &S, out: &mut [f64; MAX_SEATS]) -> bool {
    let Some(o) = state.outcome() else {
        return false;
    };
    for (v, &p) in out.iter_mut().zip(o.payouts()) {
        *v = p as f64;
    }
    true
}
