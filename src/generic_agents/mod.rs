//! The generic agents: what chooses an action for a seat, from that seat's view only, in every
//! game.
//!
//! An agent is built from a spec string such as `greedy:tiebreak=random`
//! ([`crate::agent::spec`]); the catalogue of [`catalogue::CATALOGUE`] lists every agent and its
//! parameters (`bailab agents`). `random`, `first`, `ismcts`, `rules` and `net` work for every game;
//! `greedy` is per game. The contracts they implement live in [`crate::agent`].

pub mod catalogue;
pub mod exec;
pub mod ismcts;
pub mod ismcts_spec;
pub mod net;
pub mod rules;

use crate::agent::{uniform_index, Agent};
use crate::game::GameState;
use crate::rng::GameRng;

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
