//! Game records: one game as a JSON object that can be shared, replayed and checked
//! (`docs/records.md` documents the format). This file holds the format only; building a record
//! as a game is played and checking one by replaying it through the engine are in
//! [`crate::sim::recorder`], written once for every game.

use crate::game::{Outcome, RuleMap};
use serde::{Deserialize, Serialize};

/// The value of a record's `format` key.
pub(crate) const RECORD_FORMAT: &str = "bailab-record/1";

/// One game: the rules in force, the deck in the spec's dealing order, every event and the result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always `RECORD_FORMAT`.
    pub format: String,
    /// The game (its registry name).
    pub game: String,
    /// The variant.
    pub variant: String,
    /// Every rule option in force, `name → value`.
    pub rules: serde_json::Map<String, serde_json::Value>,
    /// Number of players.
    pub players: u8,
    /// The first player / dealer seat as the spec defines it.
    pub first: u8,
    /// The agent spec at each seat.
    pub agents: Vec<String>,
    /// The master seed (agents' RNGs and, unless the deck was given, the deal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The deal index under the master seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<u64>,
    /// The seat rotation of the agents (experiments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<u8>,
    /// The game's index in its match (experiments that play matches of several games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) match_game: Option<u32>,
    /// The shuffled deck, space-separated, in the spec's dealing convention.
    pub deck: String,
    /// Facts of the deal beyond the deck and the first seat (e.g. the dealer), by name.
    #[serde(default, skip_serializing_if = "RuleMap::is_empty")]
    pub setup: RuleMap,
    /// Everything that happened, in order.
    pub events: Vec<RecordEvent>,
    /// The result.
    pub outcome: RecordOutcome,
}

/// One event: a seat's decision or a move the engine applied by a rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordEvent {
    /// The seat (none for a drawn game's end).
    pub seat: Option<u8>,
    /// The action in the game's text form (e.g. `discard rR`, `meld RookCannonHorse rC rH`).
    pub action: String,
    /// True when the engine applied it by a rule.
    pub forced: bool,
    /// The spec's rule id when forced (e.g. `C2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// For decisions: how many legal actions the seat had.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal: Option<usize>,
}

/// The result of a recorded game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordOutcome {
    /// The winner, or none for a drawn game.
    pub winner: Option<u8>,
    /// Why the game ended.
    pub reason: String,
    /// Net payout of each seat.
    pub payouts: Vec<i64>,
    /// The seat that paid a penalty.
    pub penalized: Option<u8>,
    /// The winning hand's value (0 without a winner).
    pub hand_value: u32,
    /// Number of turns (discards or plays).
    pub turns: u32,
    /// Each seat's place (1 = first, 0 = unranked), in games that rank the seats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub places: Option<Vec<u8>>,
}

impl From<&Outcome> for RecordOutcome {
    fn from(o: &Outcome) -> RecordOutcome {
        RecordOutcome {
            winner: o.winner,
            reason: o.reason.to_string(),
            payouts: o.payouts().to_vec(),
            penalized: o.penalized,
            hand_value: o.hand_value,
            turns: o.turns,
            places: o.places().map(<[u8]>::to_vec),
        }
    }
}
