//! What one seat sees, made object-safe: [`Seen`], implemented for every game by [`SeenBy`] over
//! the engines' [`OwnedView`], which reads the seat's view only. `bailab.View` holds one, and
//! so does every decision a Python agent is asked.

use crate::engine::{python_rng, GameTable, Table};
use bailab::agent::features::{FeatureRow, MAX_FEATURES};
use bailab::agents::rules::{feature_rows, greedy};
use bailab::game::{ActionBuffer, GameState, OwnedView, Seat, SeatView};
use bailab::games::kind::GameKind;
use bailab::games::observe::layout_len;
use std::any::Any;
use std::sync::Arc;

/// One seat's view, whatever the game.
pub trait Seen: Send {
    /// The seat whose view this is.
    fn seat(&self) -> Seat;
    /// Whether this seat is the one to decide.
    fn deciding(&self) -> bool;
    /// The legal actions when this seat decides (else none), in the game's notation.
    fn legal(&self) -> Vec<String>;
    /// The observation (JSON).
    fn observation(&self) -> serde_json::Value;
    /// Writes the tensor into `out` (the tensor layout's length).
    fn tensor(&self, out: &mut [f32]);
    /// Writes the vector of every legal action into `out`, row after row, and returns the rows.
    fn action_vectors(&self, out: &mut Vec<f32>) -> usize;
    /// The rule-learner's feature rows of the legal actions.
    fn feature_rows(&self) -> Vec<FeatureRow>;
    /// A whole state consistent with this view, hidden cards resampled with `seed`'s RNG.
    fn determinize(&self, seed: u64) -> Box<dyn Table>;
    /// The view as [`Any`], for code that knows its game.
    fn as_any(&self) -> &dyn Any;
}

/// [`Seen`] for the game `G`.
pub struct SeenBy<G: GameKind> {
    /// The game.
    pub game: Arc<G>,
    /// The seat's view, owning its copy of the state.
    pub owned: OwnedView<G::State>,
}

impl<G: GameKind> SeenBy<G> {
    /// The legal actions when this seat decides (else none).
    pub fn legal_actions(&self) -> <G::State as GameState>::Actions {
        let mut out = <G::State as GameState>::Actions::default();
        self.owned.legal_actions(&mut out);
        out
    }
}

impl<G: GameKind + Send + Sync> Seen for SeenBy<G> {
    fn seat(&self) -> Seat {
        self.owned.seat()
    }
    fn deciding(&self) -> bool {
        self.owned.deciding()
    }
    fn legal(&self) -> Vec<String> {
        let legal = self.legal_actions();
        legal.as_slice().iter().map(|a| a.to_string()).collect()
    }
    fn observation(&self) -> serde_json::Value {
        self.game.observation(&self.owned.view())
    }
    fn tensor(&self, out: &mut [f32]) {
        self.game.tensor(&self.owned.view(), out)
    }
    fn action_vectors(&self, out: &mut Vec<f32>) -> usize {
        let width = layout_len(&self.game.action_layout());
        let legal = self.legal_actions();
        out.clear();
        out.resize(width * legal.as_slice().len(), 0.0);
        let view = self.owned.view();
        for (row, &action) in out.chunks_mut(width.max(1)).zip(legal.as_slice()) {
            self.game.action_vector(&view, action, row);
        }
        legal.as_slice().len()
    }
    fn feature_rows(&self) -> Vec<FeatureRow> {
        let legal = self.legal_actions();
        let mut rows = vec![[0; MAX_FEATURES]; legal.as_slice().len()];
        if !rows.is_empty() {
            let mut teacher = greedy::<G>();
            let view = self.owned.view();
            let (legal, rng) = (legal.as_slice(), &mut python_rng(0));
            feature_rows::<G>(&view, legal, &mut *teacher, &mut rows, rng);
        }
        rows
    }
    fn determinize(&self, seed: u64) -> Box<dyn Table> {
        let state = self.owned.view().determinize(&mut python_rng(seed));
        Box::new(GameTable::determinized(Arc::clone(&self.game), state))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
