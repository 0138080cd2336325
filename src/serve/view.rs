//! What the browser is sent of a game: a seat's observation (the engine's seat view as JSON,
//! without the list of cards it has not seen), the legal actions with their labels and the cards
//! they move, and the entries of the event log.

use crate::game::{GameState, Seat};
use crate::games::kind::GameKind;
use crate::games::observe::ViewOf;
use crate::record::RecordEvent;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// One line of the event log a seat is shown: a decision or a forced move with its rule.
#[derive(Clone, Debug, Serialize)]
pub struct LogEntry {
    /// The seat (none for a drawn game's end or a deal fact).
    pub seat: Option<u8>,
    /// The action or move in the game's notation.
    pub action: String,
    /// Whether the engine applied it by a rule.
    pub forced: bool,
    /// The rule (section of the game's rules reference) that forced it.
    pub rule: Option<String>,
    /// Whether it was the viewing seat's.
    pub yours: bool,
}

impl LogEntry {
    /// The entry of a record event, seen from `seat`.
    pub fn of(e: crate::record::RecordEvent, seat: Seat) -> LogEntry {
        LogEntry {
            yours: e.seat == Some(seat),
            seat: e.seat,
            action: e.action,
            forced: e.forced,
            rule: e.rule,
        }
    }
    /// The entry of `who`'s decision `action`, seen from `seat`.
    pub fn decision(who: Seat, action: &str, seat: Seat) -> LogEntry {
        LogEntry {
            seat: Some(who),
            action: action.to_string(),
            forced: false,
            rule: None,
            yours: who == seat,
        }
    }
    /// The entry of a record's event, seen by nobody in particular (a record's viewer).
    pub fn recorded(e: &RecordEvent) -> LogEntry {
        LogEntry {
            seat: e.seat,
            action: e.action.clone(),
            forced: e.forced,
            rule: e.rule.clone(),
            yours: false,
        }
    }
}

/// The observation of `view` (the game's `Observe` JSON) without `unseen`: that list holds the
/// other seats' hidden cards as one pool, which the page has no use for.
pub fn observation<G: GameKind>(game: &G, view: &ViewOf<'_, G>) -> Value {
    let mut obs = game.observation(view);
    if let Some(map) = obs.as_object_mut() {
        map.remove("unseen");
    }
    obs
}

/// Every card identity of the game dealt as `start`, in its notation (from the record's deck).
pub fn card_set<G: GameKind>(start: &G::State) -> BTreeSet<String> {
    G::record_setup(start)
        .deck
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// The legal actions as `{index, label, cards}`: the action's text and the cards it names.
pub fn legal_json<A: std::fmt::Display>(legal: &[A], cards: &BTreeSet<String>) -> Vec<Value> {
    legal
        .iter()
        .enumerate()
        .map(|(index, a)| {
            let label = a.to_string();
            let named: Vec<&str> = label
                .split_whitespace()
                .filter(|w| cards.contains(*w))
                .collect();
            json!({ "index": index, "label": label, "cards": named })
        })
        .collect()
}

/// Every seat's observation of `state` (a finished record's viewer may show every hand).
pub fn every_seat<G: GameKind>(game: &G, state: &G::State) -> Vec<Value> {
    (0..state.seats())
        .map(|s| observation(game, &state.view(s as Seat)))
        .collect()
}
