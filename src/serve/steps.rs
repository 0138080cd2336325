//! A finished record step by step, for the viewer: the record checked by the engine (as `bailab
//! check` does), then replayed, giving after the deal and after every decision each seat's
//! view, the events that led there, and the legal actions the next decision was chosen from.

use super::error::{bad, ApiError};
use super::view::card_set;
use super::view::{every_seat, legal_json, LogEntry};
use crate::game::{ActionBuffer, GameState};
use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor};
use crate::record::Record;
use crate::sim::recorder::{check, deal_of_record};
use serde_json::{json, Value};

/// The record's steps: `{record, title, unit, steps: [{events, to_move, seats, legal,
/// chosen}], outcome}`.
pub fn steps(record: &Record) -> Result<Value, ApiError> {
    check(record).map_err(|e| bad(format!("the record does not replay: {e}")))?;
    with_game(&record.game, Steps(record)).map_err(bad)?
}

/// Replays a record of game `G`.
struct Steps<'a>(&'a Record);

impl GameVisitor for Steps<'_> {
    type Output = Result<Value, ApiError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        let r = self.0;
        let (game, mut state) = deal_of_record::<G>(r).map_err(|e| bad(e.to_string()))?;
        let cards = card_set::<G>(&state);
        let mut events = r.events.iter().peekable();
        let take_forced = |events: &mut std::iter::Peekable<_>| {
            let mut out = Vec::new();
            while let Some(e) = events.next_if(|e: &&crate::record::RecordEvent| e.forced) {
                out.push(LogEntry::recorded(e));
            }
            out
        };
        let mut pending = take_forced(&mut events);
        let mut steps = Vec::new();
        let mut actions = <G::State as GameState>::Actions::default();
        loop {
            state.legal_actions(&mut actions);
            let legal = if state.to_move().is_some() {
                actions.as_slice().to_vec()
            } else {
                Vec::new()
            };
            let next = events.next();
            let chosen = next.and_then(|e| legal.iter().position(|a| a.to_string() == e.action));
            steps.push(json!({
                "events": std::mem::take(&mut pending),
                "to_move": state.to_move(),
                "seats": every_seat(&game, &state),
                "legal": legal_json(&legal, &cards),
                "chosen": chosen,
            }));
            let (Some(e), Some(i)) = (next, chosen) else {
                break;
            };
            state.apply(legal[i]);
            pending.push(LogEntry::recorded(e));
            pending.extend(take_forced(&mut events));
        }
        Ok(json!({
            "record": {
                "game": r.game, "variant": r.variant, "players": r.players,
                "agents": r.agents, "seed": r.seed, "deal": r.deal, "rotation": r.rotation,
            },
            "title": G::INFO.title,
            "unit": G::INFO.payout_unit,
            "outcome": r.outcome,
            "steps": steps,
        }))
    }
}
