//! What can be wrong with a tournament file: reading it, its TOML, a key its agents, seating or
//! budget refuse, or a table that is not a valid experiment. Each message names the file and the
//! key (or the table).
//!
//! As in [`crate::sim::run::experiment_error`], causes are fields, not `source()`: every message
//! already says its cause's text.

use crate::games::kind::GameError;
use crate::sim::run::experiment_error::CheckError;
use thiserror::Error;

/// A tournament file that cannot be read or checked.
#[derive(Debug, Error)]
pub enum TournamentError {
    /// The file cannot be opened or read.
    #[error("{path}: {error}")]
    Read {
        /// The file as given.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file is larger than an experiment file may be.
    #[error(
        "{path}: {}; a tournament file is at most 1 MiB",
        size.map_or("more than 1 MiB".to_string(), |s| format!("{s} bytes"))
    )]
    TooLarge {
        /// The file as given.
        path: String,
        /// Its size in bytes, when known before reading (not for a pipe or a device).
        size: Option<u64>,
    },
    /// Not TOML, or not a tournament's keys and types: the parser's message, located in the
    /// text (see `crate::text::toml_error`).
    #[error("{0}")]
    Syntax(String),
    /// An unknown game, found while filling the defaults (not prefixed by the file).
    #[error("{0}")]
    Defaults(Box<TournamentKeyError>),
    /// A key or a table refused.
    #[error("{origin}: {error}")]
    Check {
        /// The file's name in messages.
        origin: String,
        /// The key and why.
        error: Box<TournamentKeyError>,
    },
}

/// A key of a parsed tournament that is refused, or a table that is not a valid experiment.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum TournamentKeyError {
    /// An unknown game ([`GameError::UnknownGame`], boxed to keep the error small).
    #[error("key 'game': {0}")]
    Game(Box<GameError>),
    /// Fewer than two agents.
    #[error("key 'agents': a tournament needs at least two agents")]
    TooFew,
    /// One agent listed twice (`first`: the spelling seen first, when it differs).
    #[error(
        "key 'agents': '{spec}' is listed twice{}",
        first.as_ref().map_or(String::new(), |f| format!(" (as '{f}': the same agent)"))
    )]
    Twice {
        /// The second spelling.
        spec: String,
        /// The first spelling, when not the same text.
        first: Option<String>,
    },
    /// Subsets of more agents than there are.
    #[error(
        "key 'seating': subsets of {players} agents need at least {players} agents, not {agents}"
    )]
    Subsets {
        /// Seats per table.
        players: usize,
        /// Agents listed.
        agents: usize,
    },
    /// Early stopping with subsets.
    #[error("table [sprt]: early stopping tests one pair, so it needs seating = \"pairs\"")]
    SprtSubsets,
    /// A name that is not plain, in a tournament whose results folder it names.
    #[error(
        "key 'name': '{0}' cannot name the results folder (results/tournament-NAME, as there is \
         no 'output'): a plain name has no '/', '\\', '..' or leading dot; rename it or give an \
         'output'"
    )]
    Name(String),
    /// A number of seats the variant does not seat.
    #[error("key 'players': {players} seats, but {game} {variant} seats {low} to {high}")]
    Players {
        /// The seats asked for.
        players: usize,
        /// The game.
        game: String,
        /// The variant.
        variant: String,
        /// The fewest seats of the variant.
        low: usize,
        /// The most seats of the variant.
        high: usize,
    },
    /// An anchor that is not one of the agents.
    #[error("key 'anchor': '{0}' is not one of the agents")]
    Anchor(String),
    /// A budget that is not a positive number of minutes.
    #[error("key 'budget_minutes': {0} is not a positive number")]
    Budget(f64),
    /// A `[value]` table whose stand-ins do not fit the agents.
    #[error("table [value], {0}")]
    Value(crate::sim::luck::ValueSpecError),
    /// A table that is not a valid experiment.
    #[error("table {index} ({agents}): {error}")]
    Table {
        /// The table's index.
        index: usize,
        /// Its agents, joined by ` | `.
        agents: String,
        /// Why its experiment is refused.
        error: Box<CheckError>,
    },
}
