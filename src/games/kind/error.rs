//! Why a game refuses its input, one type per concern, the message as shown: [`TableError`]
//! (variant, players), [`RuleError`] (rule options) and [`GameError`], what a capability of
//! [`super`] returns (rules, a position, a hand to analyse, a recorded deck).

use crate::games::position::{KeyError, PositionError};
use serde_json::Value;

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
    /// Rule options that do not read or do not fit the variant or each other (naming the
    /// option).
    #[error(transparent)]
    Rules(#[from] RuleError),
    /// A position file that does not read (the message names the key, card or seat).
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A hand or play the analyser cannot analyse.
    #[error("{0}")]
    Analysis(String),
    /// A recorded deck or a partial deal that cannot be dealt (the message names the card,
    /// seat or place).
    #[error("{0}")]
    Deal(String),
}

impl From<KeyError> for GameError {
    fn from(e: KeyError) -> Self {
        GameError::Position(e.into())
    }
}

impl From<GameError> for String {
    fn from(e: GameError) -> String {
        e.to_string()
    }
}

/// Why a variant, a player count or a `players` rule does not fit a game.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TableError {
    /// A variant the spec defines but the game does not implement yet.
    #[error("variant '{variant}' of {game} is specified but not implemented yet (known: {known})")]
    PlannedVariant {
        /// The variant asked for.
        variant: String,
        /// The game's name.
        game: &'static str,
        /// The implemented variants, comma-separated.
        known: String,
    },
    /// A variant the game does not know.
    #[error("unknown variant '{variant}' of {game} (known: {known})")]
    UnknownVariant {
        /// The variant asked for.
        variant: String,
        /// The game's name.
        game: &'static str,
        /// The implemented variants, comma-separated.
        known: String,
    },
    /// A `players` rule that disagrees with the table's seats.
    #[error("rules: 'players' = {value}, but the table seats {players}")]
    PlayersRule {
        /// The rule's value.
        value: serde_json::Value,
        /// The seats at the table.
        players: usize,
    },
    /// A player count outside the game's seats.
    #[error(
        "{players} player{}: {game} seats {lo} to {hi}",
        if *players == 1 { "" } else { "s" }
    )]
    Players {
        /// The player count asked for.
        players: usize,
        /// The game's name.
        game: &'static str,
        /// The fewest seats.
        lo: usize,
        /// The most seats.
        hi: usize,
    },
}

impl From<TableError> for String {
    fn from(e: TableError) -> String {
        e.to_string()
    }
}

/// Rule options that do not make a game: an entry that does not set an option (each names the
/// option as given), a variant the game does not know, or options the engine cannot run
/// together.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RuleError {
    /// A value the option's row refuses.
    #[error("rules: '{key}' = {value}: {reason}")]
    Value {
        /// The option's name as given (maybe an alias of the row's name).
        key: String,
        /// The value given.
        value: Value,
        /// What is wrong (what the row accepts).
        reason: ValueError,
    },
    /// A name no row has.
    #[error("rules: unknown option '{key}'")]
    Unknown {
        /// The name given.
        key: String,
    },
    /// A name that is neither an option nor a fixed reading of the game.
    #[error("rules: unknown option '{key}' (known: {known}; fixed: {fixed})")]
    UnknownOf {
        /// The name given.
        key: String,
        /// The options, comma-separated.
        known: String,
        /// The fixed readings, comma-separated.
        fixed: String,
    },
    /// A fixed reading of the rules given another value than the one the engine runs.
    #[error("rules: '{key}' = {value} is not supported (the engine runs only {runs}, {section})")]
    Fixed {
        /// The name given.
        key: String,
        /// The value given.
        value: Value,
        /// The only value the engine runs.
        runs: Value,
        /// The section of the rules reference that defines it.
        section: &'static str,
    },
    /// An option every game needs that the map does not give.
    #[error("rules: '{key}' is missing")]
    Missing {
        /// The option's name.
        key: &'static str,
    },
    /// A variant the game does not know (or a player count it does not seat).
    #[error(transparent)]
    Table(#[from] TableError),
    /// Options the engine cannot run, alone or together (the message names them and what
    /// would work instead).
    #[error("{0}")]
    Unsupported(String),
}

impl From<RuleError> for String {
    fn from(e: RuleError) -> String {
        e.to_string()
    }
}

/// Why one rule option's row refuses a value: what the row accepts, or the part of the value at
/// fault. [`RuleError::Value`] adds the option's name and the value.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValueError {
    /// Not an integer in `lo..=hi`.
    #[error("expected an integer {lo} to {hi}")]
    Int {
        /// The least value accepted.
        lo: i64,
        /// The greatest value accepted.
        hi: i64,
    },
    /// Not `true` or `false`.
    #[error("expected true or false")]
    Flag,
    /// Not one of an option enum's names.
    #[error("expected one of {names}")]
    OneOf {
        /// The names accepted, comma-separated.
        names: String,
    },
    /// Not of the shape the option accepts (the text says what it accepts, in the words of the
    /// game's rules reference).
    #[error("{0}")]
    Expected(&'static str),
    /// An item of a list of tới trắng conditions that names none.
    #[error("{item} is not a tới trắng id (§5.1)")]
    NotToiTrang {
        /// The item.
        item: Value,
    },
    /// A key of a per-table-size map that is not a table size.
    #[error("'{size}' is not a table size 2, 3 or 4")]
    TableSize {
        /// The key.
        size: String,
    },
    /// A list of transfers longer than the engine holds.
    #[error("at most {max} transfers")]
    TooManyTransfers {
        /// The most transfers a list holds.
        max: usize,
    },
    /// A transfer that is not `[payer place, payee place, cược]`.
    #[error("{row} is not [payer place, payee place, cược]")]
    NotStake {
        /// The row given.
        row: Value,
    },
}
