//! One folder per game.

pub mod tienlen;
pub mod tusac;
