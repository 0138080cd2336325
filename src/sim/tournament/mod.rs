//! Tournaments: many agents of one game compared in tables the runner plays; their standings,
//! their folder's files, and playing them.

pub mod files;
pub mod merge;
pub mod play;
pub mod spec;
pub mod spec_error;
pub(crate) mod standings;
