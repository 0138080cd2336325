//! What can be wrong with a rule file: reading it, its TOML, a rule (at its line), too many
//! rules, or a list for another game or variant.

use thiserror::Error;

/// A rule file that cannot be read or is refused; each message names the file.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum RuleFileError {
    /// The file cannot be read (the system's message).
    #[error("rule file {path}: cannot read it: {reason}")]
    Read {
        /// The file.
        path: String,
        /// What the system said.
        reason: String,
    },
    /// Not TOML: the parser's message, located in the text (see `crate::text::toml_error`).
    #[error("{0}")]
    Syntax(String),
    /// The list's game is not the game played (at the `game` line).
    #[error("{file}: line {line}: the rules are for game '{found}', not {game}")]
    OtherGame {
        /// The file's name in messages.
        file: String,
        /// The 1-based line of `game`.
        line: usize,
        /// The list's game.
        found: String,
        /// The game played.
        game: String,
    },
    /// A rule that does not read (at its line; the rule reader's message).
    #[error("{file}: line {line}: {problem}")]
    Rule {
        /// The file's name in messages.
        file: String,
        /// The 1-based line of the rule or of its faulty key.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// More rules than a list may hold.
    #[error("{file}: {count} rules, at most {max}")]
    TooMany {
        /// The file's name in messages.
        file: String,
        /// Its rules.
        count: usize,
        /// The most allowed.
        max: usize,
    },
    /// A variant the game does not have (the games layer's message).
    #[error("{file}: {problem}")]
    Variant {
        /// The file's name in messages.
        file: String,
        /// The games layer's message.
        problem: String,
    },
    /// A list learned on another variant than the one played.
    #[error(
        "rule file {file}: the rules are for {game} {found}, not {variant} (learn a list for \
         {variant} with `bailab learn --game {game} --variant {variant}`)"
    )]
    OtherVariant {
        /// The file.
        file: String,
        /// The game.
        game: String,
        /// The list's variant.
        found: String,
        /// The variant played.
        variant: String,
    },
}
