//! bailab: a Monte Carlo simulator and AI research toolkit for Vietnamese card games.
//!
//! The core contracts live in [`game`]; each game is a folder of [`games`]; randomness is derived
//! by [`rng`].

pub mod agents;
pub mod cache;
pub mod cli;
pub mod deal_spec;
pub mod fixed;
pub mod game;
pub mod games;
pub mod learn;
pub mod notation;
pub mod record;
pub mod rng;
pub mod sim;
pub mod study;

pub use game::{ActionBuffer, Game, GameState, Outcome, Seat, MAX_SEATS};
