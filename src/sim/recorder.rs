//! Building a game's record as it is played ([`Recorder`]) and checking a record by replaying
//! it through the engine ([`check`]), written once for every game; each game supplies its deck,
//! setup and forced moves through [`GameKind`]. The format itself is [`crate::record`].

use crate::game::{ActionBuffer, Decision, GameId, GameState};
use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor};
use crate::record::{Record, RecordEvent, RecordOutcome, RECORD_FORMAT};
use std::marker::PhantomData;

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

impl<G: GameKind> Clone for Recorder<G> {
    fn clone(&self) -> Self {
        Recorder {
            events: self.events.clone(),
            game: PhantomData,
        }
    }
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

/// An event's seat in a message: `seat N`, or `no seat`.
fn seat_name(seat: Option<u8>) -> String {
    seat.map_or("no seat".to_string(), |s| format!("seat {s}"))
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
                "{} {} ({})",
                seat_name(e.seat),
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
pub(crate) fn deal_of_record<G: GameKind>(r: &Record) -> Result<(G, G::State), CheckError> {
    let game = G::build(&r.variant, r.players as usize, &r.rules).map_err(|e| whole(e.into()))?;
    check_variant_named::<G>(r, &game)?;
    let state = game
        .deal_recorded(&r.deck, &r.setup)
        .map_err(|e| whole(e.into()))?;
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

/// Refuses a record whose rules are another variant's rather than those of the variant it names
/// (a record relabelled from sisepai21 to classic keeps sisepai21's decks, hand size and point
/// table, which the rules table would otherwise take as classic's options): the rules in force
/// may differ from the named variant's own in fewer keys than from any other variant's, or as
/// few.
fn check_variant_named<G: GameKind>(r: &Record, game: &G) -> Result<(), CheckError> {
    let rules = game.rules();
    let differing = |variant: &str| {
        let preset = G::build(variant, r.players as usize, &Default::default())
            .ok()?
            .rules();
        let keys = rules.iter().filter(|&(k, v)| preset.get(k) != Some(v));
        Some(keys.map(|(k, _)| k.clone()).collect::<Vec<_>>())
    };
    let Some(named) = differing(&r.variant) else {
        return Ok(());
    };
    let closest = G::INFO
        .variants
        .iter()
        .filter(|&&v| v != r.variant)
        .filter_map(|&v| differing(v).map(|d| (v, d)))
        .min_by_key(|(_, d)| d.len());
    match closest {
        Some((other, keys)) if keys.len() < named.len() => fail(
            None,
            format!(
                "variant is {}, but the rules are {other}'s: {} of them differ from {}'s ({}), \
                 {} from {other}'s",
                r.variant,
                named.len(),
                r.variant,
                named.join(", "),
                keys.len()
            ),
        ),
        _ => Ok(()),
    }
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
                format!("{} acts, but seat {seat} is to move", seat_name(e.seat)),
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
    with_game(&r.game, Check(r)).map_err(|e| whole(e.into()))?
}
