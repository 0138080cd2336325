//! The value model: a seat's expected payout as a linear function of the whole state's seat
//! features ([`Luck::seat_features`]): the seat's own, the mean of the other seats', the cards
//! left in the stock and a constant. At a finished game the value is the payout itself.

use super::value::{payouts_if_over, ValueFunction};
use crate::game::{GameState, Seat, MAX_SEATS};
use crate::games::kind::Luck;

/// The most inputs a value model reads (two per seat feature, plus the stock and the constant).
pub const MAX_VALUE_INPUTS: usize = 32;

/// A fitted value model for one game, variant and seat count.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ValueModel {
    /// The game.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// The seats.
    pub players: usize,
    /// The inputs' names, in the order of `weights`.
    pub inputs: Vec<String>,
    /// One weight per input.
    pub weights: Vec<f64>,
    /// How it was fitted: the command or call, the agents, the deals and their seed.
    pub fitted: String,
}

impl ValueModel {
    /// The names of a game's value inputs.
    pub fn input_names<G: Luck>() -> Vec<String> {
        let seat = G::SEAT_FEATURES.iter().map(|f| f.to_string());
        let others = G::SEAT_FEATURES.iter().map(|f| format!("others_{f}"));
        let rest = ["stock", "constant"].into_iter().map(String::from);
        seat.chain(others).chain(rest).collect()
    }

    /// Writes the value inputs of every seat of `state` into `out` (the first
    /// `2·SEAT_FEATURES + 2` entries of each seat's row, computing each seat's features once);
    /// returns how many per seat. Allocation-free.
    pub fn inputs<G: Luck>(
        state: &G::State,
        out: &mut [[f64; MAX_VALUE_INPUTS]; MAX_SEATS],
    ) -> usize {
        let k = G::SEAT_FEATURES.len();
        let n = state.seats();
        let mut sum = [0.0; MAX_VALUE_INPUTS];
        for (x, row) in out.iter_mut().enumerate().take(n) {
            G::seat_features(state, x as Seat, &mut row[..k]);
            sum[..k]
                .iter_mut()
                .zip(&row[..k])
                .for_each(|(s, v)| *s += v);
        }
        let others = (n - 1).max(1) as f64;
        let stock = G::hidden_stock(state).len() as f64;
        for row in out.iter_mut().take(n) {
            for i in 0..k {
                row[k + i] = (sum[i] - row[i]) / others;
            }
            row[2 * k] = stock;
            row[2 * k + 1] = 1.0;
        }
        2 * k + 2
    }

    /// The value of every seat of `state`: the payouts at a finished game, else the model's.
    pub fn values<G: Luck>(&self, state: &G::State, out: &mut [f64; MAX_SEATS]) {
        if payouts_if_over(state, out) {
            return;
        }
        let mut x = [[0.0; MAX_VALUE_INPUTS]; MAX_SEATS];
        let len = Self::inputs::<G>(state, &mut x);
        for (v, row) in out.iter_mut().zip(&x).take(state.seats()) {
            *v = self
                .weights
                .iter()
                .zip(&row[..len])
                .map(|(w, i)| w * i)
                .sum();
        }
    }
}

impl<G: Luck> ValueFunction<G> for &ValueModel {
    fn values(&mut self, state: &G::State, out: &mut [f64; MAX_SEATS]) {
        ValueModel::values::<G>(self, state, out);
    }
}
