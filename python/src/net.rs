//! `bailab.net_q_values`: the Q-value of every legal action of a view under a network file, by
//! the Rust forward pass the `net:` agent plays (the numpy forward pass of `bailab.net` is
//! checked against it).

use crate::engine::{python_rng, EngineError, SeenBy};
use crate::state::PyView;
use bailab::agent::net_file::NetError;
use bailab::game::ActionBuffer;
use bailab::games::kind::GameKind;
use bailab::games::{with_game, GameVisitor};
use bailab::generic_agents::net::{game_for, load, NetPolicy, Sampling, Table};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// Why the Q-values of a view cannot be given (`ValueError` in Python).
#[derive(Debug, thiserror::Error)]
enum QError {
    /// The view is of another game than the one its engine plays.
    #[error("a view of another game")]
    AnotherGame,
    /// The view's seat has no decision to make.
    #[error("seat {0} is not the one to decide in this view")]
    NotToDecide(u8),
    /// The file cannot be read or does not fit the view's table.
    #[error(transparent)]
    Net(#[from] NetError),
}

impl From<QError> for PyErr {
    fn from(error: QError) -> PyErr {
        PyValueError::new_err(error.to_string())
    }
}

/// The Q-values of a view of game `G`.
struct Q<'a> {
    path: &'a str,
    view: &'a PyView,
    seed: u64,
}

impl GameVisitor for Q<'_> {
    type Output = Result<Vec<f32>, QError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        let seen = self.view.seen();
        let seen = (seen.as_any().downcast_ref::<SeenBy<G>>()).ok_or(QError::AnotherGame)?;
        let file = load(PathBuf::from(self.path))?;
        let rules = seen.game.rules();
        let table = Table {
            variant: Some(bailab::game::Game::variant(&*seen.game)),
            rules: Some((&rules, bailab::game::Game::seats(&*seen.game))),
        };
        let game = game_for::<G>(&file.header, self.path, &table)?;
        let legal = seen.legal_actions();
        if legal.as_slice().is_empty() {
            return Err(QError::NotToDecide(seen.owned.seat()));
        }
        let mut policy = NetPolicy::new(game, Arc::clone(&file.net), Sampling::default());
        let view = seen.owned.view();
        policy.observe(&view, legal.as_slice(), &mut python_rng(self.seed));
        Ok(policy.q_values(legal.as_slice().len()).to_vec())
    }
}

/// The Q-value of each legal action of `view` (in `view.legal_actions()` order) under the
/// network file at `path`, as the `net:` agent computes it; the rule features are drawn with
/// `seed` as `view.feature_rows()` draws them (seed 0).
#[pyfunction]
#[pyo3(signature = (path, view, seed=0))]
pub fn net_q_values(path: &str, view: &PyView, seed: u64) -> PyResult<Vec<f32>> {
    let q = with_game(view.game_name(), Q { path, view, seed }).map_err(EngineError::from)?;
    Ok(q?)
}
