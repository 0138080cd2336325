//! The record capability: how a dealt game is written into a record and dealt again from one,
//! and which engine events are moves made by a rule.

use super::error::{GameError, NotASeat};
use crate::game::{Game, GameState, RuleMap, Seat};
use crate::record::RecordEvent;

/// A game's deal as a record stores it: enough to deal the same game again.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordSetup {
    /// The shuffled deck in the spec's dealing order.
    pub deck: String,
    /// The seat that acts first.
    pub first: Seat,
    /// Facts of the deal beyond the deck and the first seat (e.g. the dealer), by name.
    pub setup: RuleMap,
}

/// How a game is recorded and replayed (`record.rs`, `bailab replay`).
pub trait Records: Game {
    /// How a dealt game is recorded: its deck, first seat and setup.
    fn record_setup(start: &Self::State) -> RecordSetup;
    /// Deals the game of a record (or a deck given by a user) from its deck text and setup;
    /// setup facts not given take their default. Errors name the card or key at fault.
    fn deal_recorded(&self, deck: &str, setup: &RuleMap) -> Result<Self::State, GameError>;
    /// The record event of a move the engine applied by a rule, if `event` is one.
    fn forced_event(event: &<Self::State as GameState>::Event) -> Option<RecordEvent>;
}

/// The seat a record's `setup` key `key` names (`value`), at a table of `players`.
pub fn setup_seat(key: &str, value: &serde_json::Value, players: u8) -> Result<Seat, NotASeat> {
    value
        .as_u64()
        .filter(|&s| s < u64::from(players))
        .map(|s| s as Seat)
        .ok_or_else(|| NotASeat {
            key: key.to_string(),
            value: value.clone(),
            players,
        })
}
