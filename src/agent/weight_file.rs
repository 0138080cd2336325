//! What can be wrong with a greedy weight file: reading it, its TOML, or a key (with its line)
//! that is not a string, not a weight of the game's greedy, or a value out of range; or a file
//! for another game. (It imports nothing of `agent`, which holds its errors as variants.)

use thiserror::Error;

/// A greedy weight file that cannot be read or is refused.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum WeightFileError {
    /// The file cannot be read (the system's message).
    #[error("greedy weight file {path}: cannot read it: {reason}")]
    Read {
        /// The file.
        path: String,
        /// What the system said.
        reason: String,
    },
    /// Not TOML: the parser's message, located in the text (see `crate::text::toml_error`).
    #[error("{0}")]
    Syntax(String),
    /// A key refused, at its line when found.
    #[error("{file}: {}{problem}", line.map_or(String::new(), |n| format!("line {n}: ")))]
    Key {
        /// The file's name in messages.
        file: String,
        /// The 1-based line of the key, when found.
        line: Option<usize>,
        /// What is wrong.
        problem: WeightKeyError,
    },
}

/// A key of a weight file that is refused.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum WeightKeyError {
    /// `game` or `variant` not a string.
    #[error("{0} must be a string")]
    NotAString(String),
    /// A key that is not a weight of the game's greedy.
    #[error("'{key}' is not a weight of {game}'s greedy (its weights: {})", known.join(", "))]
    NotAWeight {
        /// The key.
        key: String,
        /// The game.
        game: String,
        /// Its greedy's weights.
        known: Vec<&'static str>,
    },
    /// A weight's value that does not read.
    #[error("{0}")]
    Value(WeightError),
    /// Weights for another game.
    #[error("weights for {found}, not {game}")]
    OtherGame {
        /// The file's game.
        found: String,
        /// The game played.
        game: String,
    },
    /// No `game` key.
    #[error("no `game = \"{0}\"` line")]
    NoGame(String),
}

/// A weight's value that does not read.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum WeightError {
    /// Not a finite number.
    #[error("{name} '{text}' is not a number")]
    NotANumber {
        /// The weight.
        name: &'static str,
        /// Its value as written.
        text: String,
    },
    /// Outside the weight's range.
    #[error("{name} = {value} is outside {low} to {high}")]
    OutOfRange {
        /// The weight.
        name: &'static str,
        /// Its value.
        value: f64,
        /// The smallest allowed value.
        low: f64,
        /// The largest allowed value.
        high: f64,
    },
}
