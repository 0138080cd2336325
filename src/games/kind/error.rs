//! Why a game refuses its input, one type per concern, the message as shown: [`TableError`]
//! (variant, players), [`RuleError`] (rule options) and [`GameError`], what a capability of
//! [`super`] returns (rules, a position, a hand to analyse, a recorded deck).

use crate::games::position::{KeyError, PositionError};
use crate::notation::CardListError;
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
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    /// A recorded deck or its setup that cannot be dealt (naming the card, key or seat).
    #[error(transparent)]
    Deal(#[from] DealError),
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

/// Why the hand analyser cannot analyse a hand or a play: each names the part of the input at
/// fault (`hand`, `seen`, `play`, `against`, a setting) and the card or count.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnalysisError {
    /// Cards that do not read.
    #[error("{what}: {error}")]
    Cards {
        /// The input (`hand`, `seen`, `play`, `against`).
        what: &'static str,
        /// Why the list does not read.
        error: CardListError,
    },
    /// A multi-pack hand holding more copies than the packs of its table hold.
    #[error("hand: {error} ({packs} packs for {players} players; players=N sets the table)")]
    PackCards {
        /// Why the list does not read.
        error: CardListError,
        /// The packs of the table.
        packs: u8,
        /// The players at the table.
        players: u8,
    },
    /// No cards given.
    #[error("{what}: {hint}")]
    Empty {
        /// The input (`hand`, `play`, `against`).
        what: &'static str,
        /// What to give instead (`empty; give …, e.g. …`).
        hint: &'static str,
    },
    /// More cards than a hand holds.
    #[error(
        "hand: {cards} cards, but a {}hand holds at most {max}",
        variant.as_ref().map_or(String::new(), |v| format!("{v} "))
    )]
    TooMany {
        /// The cards given.
        cards: usize,
        /// The most a hand holds.
        max: usize,
        /// The variant, when the bound depends on it.
        variant: Option<String>,
    },
    /// A Chắn hand that is not whole (19 or 20 cards).
    #[error(
        "hand: {cards} cards, but the Chắn analyser takes a whole hand: 19 cards, or 20 for the \
         first player before his first discard"
    )]
    NotWhole {
        /// The cards given.
        cards: usize,
    },
    /// A seen card past the copies left by the hand and the seen cards before it.
    #[error(
        "seen: card {position} '{card}': the hand and the seen cards hold more than {copies} {card}"
    )]
    SeenCopies {
        /// Its 1-based position in the seen list.
        position: usize,
        /// The card.
        card: String,
        /// The copies of each card in play.
        copies: u8,
    },
    /// A `players=N` setting outside 2 to 8.
    #[error("hand: '{token}': players must be 2 to 8")]
    SettingPlayers {
        /// The setting as given.
        token: String,
    },
    /// A `double=R` setting for a variant without a double rank.
    #[error("hand: '{token}': {variant} has no double rank (dirtyking26 only, §2.5)")]
    NoDoubleRank {
        /// The setting as given.
        token: String,
        /// The variant.
        variant: String,
    },
    /// A `double=R` setting that names no non-King rank.
    #[error("hand: '{token}': the double rank is one of A E R C H P (never K, §1.4)")]
    DoubleRank {
        /// The setting as given.
        token: String,
    },
    /// A `key=value` setting the analyser does not know.
    #[error("hand: '{token}': unknown setting '{key}' (known: players=N, double=R)")]
    UnknownSetting {
        /// The setting as given.
        token: String,
        /// Its key.
        key: String,
    },
    /// A play holding a card the hand does not.
    #[error("play: {card} is not in the hand")]
    NotInHand {
        /// The card.
        card: String,
    },
    /// A play to beat that shares a card with the play.
    #[error("against: {card} is also in the play")]
    InPlay {
        /// The card.
        card: String,
    },
    /// `--play` or `--against` for a game without plays.
    #[error(
        "--play and --against are for games with plays (tienlen); a {game} analysis takes {takes}"
    )]
    NoPlays {
        /// The game's name.
        game: &'static str,
        /// What its analysis takes.
        takes: &'static str,
    },
    /// `--seen` for a game whose analysis counts no unseen cards.
    #[error("--seen is not an option of a {game} analysis")]
    NoSeen {
        /// The game's name.
        game: &'static str,
    },
    /// The rule options of the table the hand is analysed at.
    #[error(transparent)]
    Rules(#[from] RuleError),
}

/// Why a recorded deck and its setup cannot be dealt: the deck does not read or is not a
/// deck of the game, or a setup key is unknown or its value wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// Cards that do not read.
    #[error("deck: {0}")]
    Cards(CardListError),
    /// Fewer or more cards than a deck (the first card missing, if any).
    #[error(
        "deck: {cards} cards, a deck has {size}{}",
        missing.as_ref().map_or(String::new(), |c| format!("; the first missing card is {c}"))
    )]
    Size {
        /// The cards given.
        cards: usize,
        /// The cards of a deck.
        size: usize,
        /// The first card missing.
        missing: Option<String>,
    },
    /// Fewer cards than a pack of several copies of each card.
    #[error(
        "deck: {cards} cards, a pack has {size} ({copies} copies of each of {kinds} cards); the \
         first card short is {short} ({given} of {copies} copies given), and {missing} card(s) \
         are missing altogether"
    )]
    ShortPack {
        /// The cards given.
        cards: usize,
        /// The cards of a pack.
        size: usize,
        /// The copies of each card in a pack.
        copies: u8,
        /// The kinds of card.
        kinds: usize,
        /// The first card with fewer copies than a pack's.
        short: String,
        /// Its copies given.
        given: u8,
        /// The cards with no copy given.
        missing: usize,
    },
    /// More cards than a pack.
    #[error("deck: more cards than a pack")]
    OverPack,
    /// A deck the game does not deal (not a `#[source]`: the text already shows it, and
    /// `{:#}` would print it twice).
    #[error("deck: {0}")]
    Deck(DeckError),
    /// A setup key that is not a setting of the deal.
    #[error(
        "setup: '{key}' is not a setting of a {deal} deal{}",
        known.as_ref().map_or(String::new(), |k| format!(" (known: {k})"))
    )]
    UnknownSetup {
        /// The key.
        key: String,
        /// The game or variant whose deal it is.
        deal: String,
        /// The settings it has, comma-separated (when named).
        known: Option<String>,
    },
    /// A setup value that should be `true` or `false`.
    #[error("setup: '{key}' = {value}: expected true or false")]
    SetupFlag {
        /// The key.
        key: &'static str,
        /// Its value.
        value: Value,
    },
    /// A setup value that should be a whole number up to `max`.
    #[error("setup: '{key}' = {value} is not a whole number from 0 to {max}")]
    SetupNumber {
        /// The key.
        key: String,
        /// Its value.
        value: Value,
        /// The greatest value accepted.
        max: u64,
    },
    /// A setup value that should name a seat.
    #[error(transparent)]
    Seat(#[from] NotASeat),
}

impl From<DeckError> for DealError {
    fn from(e: DeckError) -> Self {
        DealError::Deck(e)
    }
}

/// Why a game does not deal a deck of cards: its size, a card's copies, or the redeal check.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    /// A recorded deck of the wrong size.
    #[error("a {variant} deck holds {holds} cards, not {given}")]
    Length {
        /// The variant.
        variant: String,
        /// The cards of its deck.
        holds: usize,
        /// The cards given.
        given: usize,
    },
    /// A recorded deck with the wrong copies of a card.
    #[error("the deck holds {held} copies of {card}, not {copies}")]
    Copies {
        /// The card.
        card: String,
        /// Its copies given.
        held: u8,
        /// The copies of each card in play.
        copies: u8,
    },
    /// A recorded deck whose deal a redeal would replace.
    #[error("the deck fails the redeal check of §1.4 step 1")]
    Redeal,
    /// A position deck too small for the hands and a stock card, or larger than the packs.
    #[error("a position deck holds {least} to {most} cards")]
    PositionLength {
        /// The fewest cards.
        least: usize,
        /// The most cards.
        most: usize,
    },
    /// A position deck with more copies of a card than the packs hold.
    #[error("{card} is used more than {copies} times")]
    Overused {
        /// The card.
        card: String,
        /// The copies of each card in play.
        copies: u8,
    },
}

/// A record's `setup` key that should name a seat and does not.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("setup: '{key}' = {value} is not a seat of {players}")]
pub struct NotASeat {
    /// The setup key (`first`, `dealer`).
    pub key: String,
    /// Its value.
    pub value: serde_json::Value,
    /// The seats at the table.
    pub players: u8,
}

impl From<NotASeat> for String {
    fn from(e: NotASeat) -> String {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CLI prints errors with `{:#}` (the text, then each source's): a refused deck reads
    /// once, as the message names it.
    #[test]
    fn a_refused_deck_reads_once_through_anyhow() {
        let error = GameError::Deal(DeckError::Redeal.into());
        assert_eq!(
            format!("{:#}", anyhow::Error::from(error)),
            "deck: the deck fails the redeal check of §1.4 step 1"
        );
    }
}
