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

/// Why a value model cannot be used for a table.
#[derive(Debug, thiserror::Error)]
pub enum ValueModelError {
    /// The file cannot be read or parsed.
    #[error("{file}: {error}")]
    Read {
        /// The file.
        file: String,
        /// What went wrong.
        error: String,
    },
    /// A model of another table, or with other inputs than the game has.
    #[error("{file}: a value model of {found}, but the table is {wanted}")]
    Table {
        /// The file.
        file: String,
        /// The model's table and inputs.
        found: String,
        /// The table asked for.
        wanted: String,
    },
}

impl ValueModel {
    /// The names of a game's value inputs.
    pub fn input_names<G: Luck>() -> Vec<String> {
        let seat = G::SEAT_FEATURES.iter().map(|f| f.to_string());
        let others = G::SEAT_FEATURES.iter().map(|f| format!("others_{f}"));
        let rest = ["stock", "constant"].into_iter().map(String::from);
        seat.chain(others).chain(rest).collect()
    }

    /// Writes the value inputs of `seat` in `state` into `out` (the first
    /// `2·SEAT_FEATURES + 2` entries); returns how many. Allocation-free.
    pub fn inputs<G: Luck>(
        state: &G::State,
        seat: Seat,
        out: &mut [f64; MAX_VALUE_INPUTS],
    ) -> usize {
        let k = G::SEAT_FEATURES.len();
        let n = state.seats();
        let mut own = [0.0; MAX_VALUE_INPUTS];
        let mut sum = [0.0; MAX_VALUE_INPUTS];
        for x in 0..n as Seat {
            let mut f = [0.0; MAX_VALUE_INPUTS];
            G::seat_features(state, x, &mut f[..k]);
            if x == seat {
                own[..k].copy_from_slice(&f[..k]);
            } else {
                sum[..k].iter_mut().zip(&f[..k]).for_each(|(s, v)| *s += v);
            }
        }
        let others = (n - 1).max(1) as f64;
        out[..k].copy_from_slice(&own[..k]);
        for i in 0..k {
            out[k + i] = sum[i] / others;
        }
        out[2 * k] = G::hidden_stock(state).len() as f64;
        out[2 * k + 1] = 1.0;
        2 * k + 2
    }

    /// The value of every seat of `state`: the payouts at a finished game, else the model's.
    pub fn values<G: Luck>(&self, state: &G::State, out: &mut [f64; MAX_SEATS]) {
        if payouts_if_over(state, out) {
            return;
        }
        let mut x = [0.0; MAX_VALUE_INPUTS];
        for (seat, v) in out.iter_mut().enumerate().take(state.seats()) {
            let n = Self::inputs::<G>(state, seat as Seat, &mut x);
            *v = self.weights.iter().zip(&x[..n]).map(|(w, v)| w * v).sum();
        }
    }

    /// Checks that the model is one of this table with the game's inputs; `file` names it.
    pub fn check<G: Luck + crate::games::kind::GameCore>(
        &self,
        game: &G,
        file: &str,
    ) -> Result<(), ValueModelError> {
        let names = Self::input_names::<G>();
        let wanted = (game.name(), game.variant(), game.seats());
        let found = (self.game.as_str(), self.variant.as_str(), self.players);
        if found != wanted || self.inputs != names || self.weights.len() != names.len() {
            return Err(ValueModelError::Table {
                file: file.to_string(),
                found: format!(
                    "{} {} at {} seats, inputs {:?}",
                    found.0, found.1, found.2, self.inputs
                ),
                wanted: format!(
                    "{} {} at {} seats, inputs {names:?}",
                    wanted.0, wanted.1, wanted.2
                ),
            });
        }
        Ok(())
    }
}

impl<G: Luck> ValueFunction<G> for &ValueModel {
    fn values(&mut self, state: &G::State, out: &mut [f64; MAX_SEATS]) {
        ValueModel::values::<G>(self, state, out);
    }
}
