//! [`GameError`]: why a game's capability refuses its input (rules, a position, a hand to
//! analyse, a recorded deck, a partial deal), one variant per concern, the message as shown.

use super::game_core::TableError;

/// Why a game cannot be built, read, analysed or dealt as asked. Each variant is one concern,
/// so callers (the CLI, Python) can tell them apart without reading the text; the text is the
/// message shown to the user.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GameError {
    /// A game name not in the registry.
    #[error("unknown game '{name}' (known: {known})")]
    UnknownGame {
        /// The name asked for.
        name: String,
        /// The registered games, comma-separated.
        known: String,
    },
    /// A variant or player count that does not fit the game.
    #[error(transparent)]
    Table(#[from] TableError),
    /// Rule options that do not read or do not fit the variant or each other (the option
    /// reader's message, naming the option).
    #[error("{0}")]
    Rules(String),
    /// A position file that does not read (the message names the key, card or seat).
    #[error("{0}")]
    Position(String),
    /// A hand or play the analyser cannot analyse.
    #[error("{0}")]
    Analysis(String),
    /// A recorded deck or a partial deal that cannot be dealt (the message names the card,
    /// seat or place).
    #[error("{0}")]
    Deal(String),
}

impl From<GameError> for String {
    fn from(e: GameError) -> String {
        e.to_string()
    }
}
