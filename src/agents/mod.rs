//! Agents: what chooses an action for a seat, from that seat's view only.
//!
//! An agent is built from a spec string such as `greedy:tiebreak=random` ([`spec`]); the
//! catalogue of [`catalogue::CATALOGUE`] lists every agent and its parameters
//! (`bailab agents`). `random` and `first` work for every game; `greedy` is per game.

pub mod catalogue;
pub mod greedy;
pub mod ismcts;
pub mod rules;
pub mod spec;

use crate::game::GameState;
use crate::rng::GameRng;
use rand::Rng;

/// Chooses actions for one seat. It sees the seat's view, the legal actions (the game's
/// canonical order) and its own RNG, and returns the index of its choice in `legal`.
pub trait Agent<S: GameState>: Send {
    /// The index in `legal` (never empty) of the chosen action.
    fn act(&mut self, view: &S::View<'_>, legal: &[S::Action], rng: &mut GameRng) -> usize;
}

/// `random`: uniform over the legal actions.
#[derive(Copy, Clone, Debug, Default)]
pub struct RandomAgent;

impl<S: GameState> Agent<S> for RandomAgent {
    fn act(&mut self, _view: &S::View<'_>, legal: &[S::Action], rng: &mut GameRng) -> usize {
        uniform_index(legal.len(), rng)
    }
}

/// `first`: always the first legal action in canonical order.
#[derive(Copy, Clone, Debug, Default)]
pub struct FirstAgent;

impl<S: GameState> Agent<S> for FirstAgent {
    fn act(&mut self, _view: &S::View<'_>, _legal: &[S::Action], _rng: &mut GameRng) -> usize {
        0
    }
}

/// A uniform index in `0..len` (`len > 0`).
pub fn uniform_index(len: usize, rng: &mut GameRng) -> usize {
    rng.random_range(0..len as u32) as usize
}
