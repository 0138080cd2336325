//! The features capability: what rule lists (`rules:PATH`) and the game's `greedy` read of a
//! candidate action.

use crate::agent::features::{FeatureInfo, FeatureRow};
use crate::game::{Game, GameState};

/// The features of candidate actions and the tunable weights of the game's `greedy`.
pub trait Features: Game {
    /// The features of a candidate action that rule lists read (`rules:PATH`), in row order;
    /// at most [`MAX_FEATURES`](crate::agent::features::MAX_FEATURES) − 1.
    const FEATURES: &'static [FeatureInfo];
    /// Writes the features of each legal action of the seat whose view this is into `rows`
    /// (`rows.len() == legal.len()`, in the order of [`Features::FEATURES`]; other slots are
    /// left as they are). Reads the view only, and never allocates.
    fn features(
        view: &<Self::State as GameState>::View<'_>,
        legal: &[<Self::State as GameState>::Action],
        rows: &mut [FeatureRow],
    );
    /// The tunable weights of the game's `greedy` (`bailab tune`; none by default).
    const GREEDY_WEIGHTS: &'static [crate::agent::greedy::Weight] = &[];
}
