//! What can be wrong with an experiment file: reading it, its TOML, a whole number out of range,
//! or a key whose value the game, the agents or the SPRT table refuse. Each message names the
//! file, and the line or key where it can.
//!
//! The errors carry their causes as fields, not as `source()`: the CLI prints the whole chain,
//! and every message already says its cause's text.

use crate::agent::AgentError;
use crate::games::kind::{GameError, TableError};
use crate::sim::stats::sprt_error::SprtError;
use thiserror::Error;

/// An experiment file that cannot be read or checked.
#[derive(Debug, Error)]
pub enum ExperimentError {
    /// The file cannot be opened or read.
    #[error("{path}: {error}")]
    Read {
        /// The file as given.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file is larger than `super::experiment::MAX_EXPERIMENT_BYTES`.
    #[error(
        "{path}: {}; an experiment file is at most {max} bytes (1 MiB): is this the right file?",
        size.map_or(format!("more than {max} bytes"), |s| format!("{s} bytes"))
    )]
    TooLarge {
        /// The file as given.
        path: String,
        /// Its size in bytes, when known before reading (not for a pipe or a device).
        size: Option<u64>,
        /// The most read.
        max: u64,
    },
    /// Not TOML, or not an experiment's keys and types: the parser's message, located in the
    /// text (see `crate::text::toml_error`).
    #[error("{0}")]
    Syntax(String),
    /// A whole-number key out of its range.
    #[error("{origin}: {error}")]
    Number {
        /// The file's name in messages.
        origin: String,
        /// The key and its value.
        error: Box<NumberError>,
    },
    /// A key whose value the game, the agents or the SPRT table refuse.
    #[error("{origin}: {error}")]
    Check {
        /// The file's name in messages.
        origin: String,
        /// The key and why.
        error: Box<CheckError>,
    },
}

/// A whole-number key whose value is not a whole number in its range (`deals = -1`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}{}: {value} is not {what} ({})", self.line_part(), self.place(), self.range())]
pub struct NumberError {
    /// The 1-based line of the key, when found.
    pub line: Option<usize>,
    /// The table holding the key (empty: the top level).
    pub table: &'static str,
    /// The key.
    pub key: &'static str,
    /// The value as written.
    pub value: String,
    /// What the key is, in words.
    pub what: &'static str,
    /// The smallest value.
    pub low: i64,
    /// The largest value (`i64::MAX`: none).
    pub(crate) high: i64,
}

impl NumberError {
    fn line_part(&self) -> String {
        self.line.map_or(String::new(), |n| format!("line {n}: "))
    }

    fn place(&self) -> String {
        match self.table {
            "" => format!("key '{}'", self.key),
            table => format!("table [{table}]: key '{}'", self.key),
        }
    }

    fn range(&self) -> String {
        if self.high == i64::MAX {
            format!("a whole number ≥ {}", self.low)
        } else {
            format!("a whole number from {} to {}", self.low, self.high)
        }
    }
}

/// A key of a parsed experiment that its game, agents or SPRT table refuse.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum CheckError {
    /// An unknown game ([`GameError::UnknownGame`], boxed to keep the error small).
    #[error("key 'game': {0}")]
    Game(Box<GameError>),
    /// A variant the game does not have.
    #[error("key 'variant': {0}")]
    Variant(TableError),
    /// A number of agents the variant (or its rule options) cannot seat.
    #[error(
        "key 'agents': {players} agent(s) for the seats, but {game} {variant} seats {low} to \
         {high}{}",
        rules.as_ref().map_or(String::new(), |r| format!(" (table [rules]: {})", Refusal(r)))
    )]
    Seats {
        /// The number of agents.
        players: usize,
        /// The game.
        game: String,
        /// The variant.
        variant: String,
        /// The fewest seats of the variant.
        low: usize,
        /// The most seats of the variant.
        high: usize,
        /// The rule options' refusal too, when they could not be built either.
        rules: Option<Box<GameError>>,
    },
    /// Rule options the game refuses (shown without the `rules: ` the games layer starts it with).
    #[error("table [rules]: {}", Refusal(.0))]
    Rules(Box<GameError>),
    /// A deal specification the game refuses (its message).
    #[error("table [deal]: {0}")]
    Deal(crate::deal_spec::DealSpecError),
    /// A deal specification with matches of more than one game.
    #[error("table [deal]: a deal specification fixes single games; set match_games = 1")]
    DealMatch,
    /// An agent spec that cannot be built.
    #[error("key 'agents', {0}")]
    Agents(AgentError),
    /// A count that must be at least 1.
    #[error("key '{0}': must be at least 1")]
    Zero(&'static str),
    /// A name that is not plain, in an experiment whose results folder it names.
    #[error(
        "key 'name': '{0}' cannot name the results folder (results/NAME, as there is no \
         'output'): a plain name has no '/', '\\', '..' or leading dot; rename it or give an \
         'output'"
    )]
    Name(String),
    /// An SPRT table its experiment cannot run.
    #[error("table [sprt], {0}")]
    Sprt(SprtError),
    /// A `[value]` table that cannot value states.
    #[error("table [value], {0}")]
    Value(crate::sim::luck::ValueSpecError),
    /// A `[value]` table in a study that does not correct for luck.
    #[error(
        "table [value]: a value function is used only by estimator = \"luck-corrected\"; add \
         that key or remove the table"
    )]
    ValueWithoutEstimator,
}

/// A game's refusal of an experiment's rule options, shown under the `[rules]` table that
/// names them: the games layer starts a rule option's refusal with `rules: ` (the command
/// line's name for them), which the table's name replaces.
struct Refusal<'a>(&'a GameError);

impl std::fmt::Display for Refusal<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = self.0.to_string();
        f.write_str(text.strip_prefix("rules: ").unwrap_or(&text))
    }
}
