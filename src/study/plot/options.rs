//! What `bailab plot` was asked: where the charts go, their title, the game for their units.

use std::path::PathBuf;

/// What the command was asked.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Write every SVG here instead of beside its CSV.
    pub output: Option<PathBuf>,
    /// The title of every chart (instead of one made from the run's name).
    pub title: Option<String>,
    /// The game whose payout unit labels the axes when neither the CSV nor a `meta.json`
    /// beside it names one.
    pub game: Option<String>,
}
