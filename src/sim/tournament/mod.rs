//! Tournaments: many agents of one game compared in tables the runner plays.

pub mod play;
pub mod spec;
