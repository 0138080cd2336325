//! Agents: policies that choose an action for a seat.
//!
//! For now two provisional policies that need only the legal list; the agents API with
//! per-seat views comes with the runner.

use crate::rng::GameRng;
use rand::Rng;

/// A provisional built-in policy.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Policy {
    /// Uniform over the legal actions.
    Random,
    /// Always the first legal action (canonical order).
    First,
}

impl Policy {
    /// The index of the chosen action among `legal` actions (`legal > 0`).
    pub fn choose(self, legal: usize, rng: &mut GameRng) -> usize {
        match self {
            Policy::Random => rng.random_range(0..legal as u32) as usize,
            Policy::First => 0,
        }
    }
}
