//! What each kind of output contributes to the page: its section, and for a run or a
//! tournament its column of the comparison across runs.

use crate::study::plot::read::Est;

/// One section of the page: one output folder (or report).
pub struct Section {
    /// Its heading.
    pub title: String,
    /// What kind of output it is, in words.
    pub kind: String,
    /// Its body.
    pub html: String,
    /// Its figures for the comparison across runs (runs and tournaments only).
    pub column: Option<Column>,
}

/// A run's or a tournament's figures per agent and per pair, for the comparison table.
pub struct Column {
    /// The run's name.
    pub name: String,
    /// Its payout unit.
    pub unit: String,
    /// What the agents' figures are: `mean payout` (a run) or `rating` (a tournament).
    pub measure: &'static str,
    /// Each agent's figure.
    pub agents: Vec<(String, Est)>,
    /// Each pair's paired difference `agent − versus`.
    pub pairs: Vec<(String, String, Est)>,
}
