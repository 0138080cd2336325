//! Game records: one game as a JSON object that can be shared, replayed and checked
//! (`docs/records.md` documents the format). Building a record as a game is played
//! ([`Recorder`]) and checking one by replaying it through the engine ([`check`]) are written
//! once for every game; each game supplies its deck, setup and forced moves through
//! [`GameKind`].

use crate::game::{ActionBuffer, Decision, GameId, GameState, Outcome};
use crate::games::{with_game, GameKind, GameVisitor, RuleMap};
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

/// The value of a record's `format` key.
pub const RECORD_FORMAT: &str = "bailab-record/1";

/// One game: the rules in force, the deck in the spec's dealing order, every event and the result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`RECORD_FORMAT`].
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
    pub match_game: Option<u32>,
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

/// Where checking a record found a problem: the event index (if any) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    /// The index in `events` of the first bad event, when the problem is an event.
    pub event: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.event {
            Some(i) => write!(f, "event {i}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

fn fail<T>(event: Option<usize>, message: String) -> Result<T, CheckError> {
    Err(CheckError { event, message })
}

/// A whole-record problem (not at an event).
fn whole(message: String) -> CheckError {
    CheckError {
        event: None,
        message,
    }
}

/// Builds the event list of a game as it is played (feed it the states the game loop observes).
pub struct Recorder<G: GameKind> {
    events: Vec<RecordEvent>,
    game: PhantomData<G>,
}

impl<G: GameKind> Default for Recorder<G> {
    fn default() -> Self {
        Recorder {
            events: Vec::new(),
            game: PhantomData,
        }
    }
}

type ActionOf<G> = <<G as crate::game::Game>::State as GameState>::Action;

impl<G: GameKind> Recorder<G> {
    /// Records one observed step: a decision (if any), then the forced moves it led to.
    pub fn observe(&mut self, state: &G::State, decision: Option<(Decision, ActionOf<G>)>) {
        if let Some((d, action)) = decision {
            self.events.push(RecordEvent {
                seat: Some(d.seat),
                action: action.to_string(),
                forced: false,
                rule: None,
                legal: Some(d.legal),
            });
        }
        self.events
            .extend(state.last_events().iter().filter_map(G::forced_event));
    }

    /// The finished record of a game of `game` dealt as `start` and ended as `end`.
    pub fn finish(
        self,
        game: &G,
        start: &G::State,
        end: &G::State,
        agents: &[String],
        id: Option<GameId>,
    ) -> Record {
        let setup = G::record_setup(start);
        Record {
            format: RECORD_FORMAT.to_string(),
            game: G::INFO.name.into(),
            variant: game.variant().into(),
            rules: game.rules(),
            players: game.seats() as u8,
            first: setup.first,
            agents: agents.to_vec(),
            seed: id.map(|i| i.master),
            deal: id.map(|i| i.deal),
            rotation: id.map(|i| i.rotation),
            match_game: None,
            deck: setup.deck,
            setup: setup.setup,
            events: self.events,
            outcome: RecordOutcome::from(&end.outcome().expect("a finished game")),
        }
    }
}

/// Checks that the next record events are exactly the engine's forced moves of the last step.
fn expect_forced<G: GameKind>(
    r: &Record,
    cursor: &mut usize,
    state: &G::State,
) -> Result<(), CheckError> {
    for want in state.last_events().iter().filter_map(G::forced_event) {
        let describe = |e: &RecordEvent| {
            format!(
                "seat {:?} {} ({})",
                e.seat,
                e.action,
                e.rule.as_deref().unwrap_or("-")
            )
        };
        match r.events.get(*cursor) {
            Some(got) if *got == want => *cursor += 1,
            Some(got) => {
                let what = if got.forced { "differs" } else { "is missing" };
                return fail(
                    Some(*cursor),
                    format!(
                        "forced move {what}: the engine applies {}, the record has {}",
                        describe(&want),
                        describe(got)
                    ),
                );
            }
            None => {
                return fail(
                    Some(*cursor),
                    format!(
                        "forced move is missing at the end: the engine applies {}",
                        describe(&want)
                    ),
                )
            }
        }
    }
    Ok(())
}

/// Rebuilds the dealt game of a record of game `G` from its rules, deck and setup, checking that
/// the record's header agrees with them.
pub fn deal_of_record<G: GameKind>(r: &Record) -> Result<(G, G::State), CheckError> {
    let game = G::build(&r.variant, r.players as usize, &r.rules).map_err(whole)?;
    let state = game.deal_recorded(&r.deck, &r.setup).map_err(whole)?;
    let setup = G::record_setup(&state);
    if setup.first != r.first {
        return fail(
            None,
            format!(
                "first is {}, but the deal makes seat {} first",
                r.first, setup.first
            ),
        );
    }
    Ok((game, state))
}

/// Replays a record of game `G`: `Ok` or the first event that is illegal, a forced move that is
/// missing or differs, or an outcome that differs.
pub fn check_game<G: GameKind>(r: &Record) -> Result<(), CheckError> {
    let (_, mut state) = deal_of_record::<G>(r)?;
    let mut cursor = 0;
    expect_forced::<G>(r, &mut cursor, &state)?;
    let mut actions = <G::State as GameState>::Actions::default();
    while let Some(seat) = state.to_move() {
        let Some(e) = r.events.get(cursor) else {
            return fail(
                Some(cursor),
                format!("the record ends, but seat {seat} is to move"),
            );
        };
        if e.forced {
            return fail(
                Some(cursor),
                format!(
                    "'{}' is recorded as forced, but seat {seat} must decide here",
                    e.action
                ),
            );
        }
        if e.seat != Some(seat) {
            return fail(
                Some(cursor),
                format!("seat {:?} acts, but seat {seat} is to move", e.seat),
            );
        }
        state.legal_actions(&mut actions);
        let legal = actions.as_slice();
        let Some(&action) = legal.iter().find(|a| a.to_string() == e.action) else {
            let names: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
            return fail(
                Some(cursor),
                format!(
                    "'{}' is not legal for seat {seat} here (legal: {})",
                    e.action,
                    names.join(", ")
                ),
            );
        };
        if let Some(n) = e.legal.filter(|&n| n != legal.len()) {
            return fail(
                Some(cursor),
                format!(
                    "the record says {n} legal actions, the engine has {}",
                    legal.len()
                ),
            );
        }
        state.apply(action);
        cursor += 1;
        expect_forced::<G>(r, &mut cursor, &state)?;
    }
    if cursor < r.events.len() {
        return fail(Some(cursor), "the game is already over".into());
    }
    let engine = RecordOutcome::from(&state.outcome().expect("over"));
    if engine != r.outcome {
        return fail(None, outcome_differences(&r.outcome, &engine));
    }
    Ok(())
}

/// "outcome differs: FIELD: the record has X, the engine Y; …", one clause per field that differs.
fn outcome_differences(record: &RecordOutcome, engine: &RecordOutcome) -> String {
    let fields = |o: &RecordOutcome| match serde_json::to_value(o) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    let (a, b) = (fields(record), fields(engine));
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let show = |v: Option<&serde_json::Value>| match v {
        None | Some(serde_json::Value::Null) => "none".to_string(),
        Some(v) => v.to_string(),
    };
    let clauses: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            format!(
                "{k}: the record has {}, the engine {}",
                show(a.get(k)),
                show(b.get(k))
            )
        })
        .collect();
    format!("outcome differs: {}", clauses.join("; "))
}

/// Checks a record of any registered game (its `game` key chooses the engine).
pub fn check(r: &Record) -> Result<(), CheckError> {
    if r.format != RECORD_FORMAT {
        return fail(
            None,
            format!("format '{}' is not {RECORD_FORMAT}", r.format),
        );
    }
    struct Check<'a>(&'a Record);
    impl GameVisitor for Check<'_> {
        type Output = Result<(), CheckError>;
        fn visit<G: GameKind>(self) -> Self::Output {
            check_game::<G>(self.0)
        }
    }
    with_game(&r.game, Check(r)).map_err(whole)?
}
