//! What the machinery needs of a game beyond the contracts of [`crate::game`]: [`GameKind`],
//! the umbrella of small capability traits a game implements directly, each in its own file with
//! the types it speaks in:
//!
//! - [`GameError`], [`RuleError`], [`TableError`] (`error.rs`): why a game refuses its input;
//! - [`GameCore`] (`game_core.rs`): the facts, building from `[rules]`, rule docs, the readable
//!   log and the game's own agents; with the checks of a variant and a player count;
//! - [`Observe`] (`games/observe.rs`): the observation encodings;
//! - [`Records`] (`records.rs`): the record setup, dealing a record, forced moves;
//! - [`PartialDeals`] (`deal_spec.rs`): the hooks of partial deals;
//! - [`Features`] (`features.rs`): the features of candidate actions, greedy's weights;
//! - [`Analyzer`] (`analyzer.rs`): the hand analyser, position files, benchmark figures;
//! - [`DealMeasures`] (`measures.rs`): what `bailab deals` counts;
//! - [`Luck`] (`luck.rs`): the stock's chance events and value features of luck-corrected
//!   estimates;
//! - [`SoakChecks`] (`soak.rs`): the card check and the rule samples of `bailab soak`.
//!
//! The registry that lists the games is [`crate::games`]; this folder names no game.

pub(crate) mod analyzer;
pub mod error;
pub mod features;
pub(crate) mod game_core;
pub mod luck;
pub mod measures;
pub mod records;
pub mod soak;

pub use analyzer::{Analysis, AnalyzeOptions, Analyzer, BenchRow};
pub use error::{
    AnalysisError, DealError, DeckError, GameError, NotASeat, RuleError, TableError, ValueError,
};
pub use features::Features;
pub use game_core::{
    check_players, check_variant, rules_with_players, GameCore, GameInfo, GameLog, RuleDoc,
};
pub use luck::Luck;
pub use measures::{DealMeasures, MeasureInfo, Per, NOT_APPLICABLE, NOT_MEASURED};
pub use records::{setup_seat, RecordSetup, Records};
pub use soak::{cards_conserved, CardsError, SoakChecks};

use crate::deal_spec::PartialDeals;
use crate::games::observe::Observe;

/// Every capability the machinery asks of a game: the bound `sim/`, the commands and the
/// generic agents use. A game has it by implementing each capability trait.
pub trait GameKind:
    GameCore + Observe + Records + PartialDeals + Features + Analyzer + DealMeasures + SoakChecks + Luck
{
}

impl<G> GameKind for G where
    G: GameCore
        + Observe
        + Records
        + PartialDeals
        + Features
        + Analyzer
        + DealMeasures
        + SoakChecks
        + Luck
{
}
