//! One folder per game.

pub mod tusac;
