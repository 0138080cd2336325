//! What every game's `greedy` agent shares: the tie-break rule among equally good actions.
//! Each game's greedy policy lives in its own folder (`src/games/<game>/greedy.rs`).

use super::uniform_index;
use crate::agents::catalogue::{choice, ParamInfo};
use crate::agents::spec::AgentSpec;
use crate::rng::GameRng;

/// How a greedy agent chooses among equally good actions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// The first in canonical order.
    Canonical,
    /// Uniform among the tied actions.
    Random,
}

/// The `tiebreak` parameter every greedy agent takes.
pub const TIEBREAK_PARAM: ParamInfo = ParamInfo {
    name: "tiebreak",
    default: "canonical",
    about: "canonical (first in canonical order) or random (uniform among ties)",
};

impl TieBreak {
    /// Reads the `tiebreak` parameter of a spec.
    pub fn from_spec(spec: &AgentSpec) -> Result<TieBreak, String> {
        choice(
            spec,
            "tiebreak",
            "canonical",
            &[
                ("canonical", TieBreak::Canonical),
                ("random", TieBreak::Random),
            ],
        )
    }

    /// Among `(index, key)` pairs, the index whose key is the smallest, by this tie-break rule.
    pub fn pick<K: Ord + Copy>(
        self,
        keys: impl Iterator<Item = (usize, K)> + Clone,
        rng: &mut GameRng,
    ) -> Option<usize> {
        let best = keys.clone().map(|(_, k)| k).min()?;
        let tied = keys.filter(move |&(_, k)| k == best).map(|(i, _)| i);
        match self {
            TieBreak::Canonical => tied.clone().next(),
            TieBreak::Random => {
                let n = tied.clone().count();
                tied.clone().nth(uniform_index(n, rng))
            }
        }
    }
}
