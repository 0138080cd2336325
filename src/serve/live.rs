//! One game in play at a table in the browser: the engine's state, the agents at the other
//! seats, the record being built, and what the human's seat has been shown. Only
//! [`LiveGame::state`] leaves it, and that is the human seat's view.

use super::error::{bad, ApiError};
use super::hints;
use super::view::{card_set, legal_json, observation, LogEntry};
use crate::agent::Agent;
use crate::game::{ActionBuffer, Decision, GameId, GameState, Seat, MAX_SEATS};
use crate::games::kind::GameKind;
use crate::generic_agents::catalogue::{make_agent_with, Setting};
use crate::record::Record;
use crate::rng::GameRng;
use crate::sim::deal::seeds::agent_rngs;
use crate::sim::recorder::Recorder;
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// The spec written in a record for the human's seat.
pub const HUMAN: &str = "human";

/// The most agent decisions one `advance` applies while the human's view does not change (a
/// silent window asked of another seat is passed over in the same call).
const SILENT_STEPS: usize = 10_000;

/// The records' notation of a seat declining a window it was asked in (docs/records.md: Chắn's
/// ù and chíu windows, Tiến Lên's out-of-turn window, Tứ Sắc's claims). Declined in a window
/// the human's view does not show (the seat view keeps it silent: being asked depends on the
/// seat's hidden hand), it is silence at a real table and is never logged.
const DECLINE: &str = "decline";

/// A game in play, whatever its game: what the routes ask of it.
pub trait Live: Send {
    /// The human seat's view: its hand, the public cards, whose turn, its legal actions, the
    /// events it has seen, and the payouts once over (with every hand).
    fn state(&self) -> Value;
    /// Plays the human's legal action `index`.
    fn act(&mut self, index: usize) -> Result<(), ApiError>;
    /// Plays the agents' decisions up to the next one the human sees.
    fn advance(&mut self) -> Result<(), ApiError>;
    /// An evaluation of each of the human's legal actions.
    fn hints(&mut self) -> Result<Value, ApiError>;
    /// The finished game's record.
    fn record(&self) -> Result<Record, ApiError>;
    /// The same deal again, every player moved one seat on (the human too).
    fn rotated(&self) -> Result<Box<dyn Live>, ApiError>;
}

/// A game of `G` in play.
pub struct LiveGame<G: GameKind> {
    game: G,
    start: G::State,
    state: G::State,
    human: Seat,
    specs: Vec<String>,
    agents: Vec<Option<Box<dyn Agent<G::State>>>>,
    rngs: [GameRng; MAX_SEATS],
    id: GameId,
    recorder: Recorder<G>,
    log: Vec<LogEntry>,
    pending: Vec<LogEntry>,
    seen: Value,
    cards: BTreeSet<String>,
}

impl<G: GameKind> LiveGame<G> {
    /// A game of `game` dealt as `start`, the human at `human` and `specs[s]` at every other
    /// seat `s` (the human's entry is [`HUMAN`]); the agents' streams are those of game `id`.
    pub fn new(
        game: G,
        start: G::State,
        human: Seat,
        specs: Vec<String>,
        id: GameId,
    ) -> Result<Self, ApiError> {
        let rules = game.rules();
        let setting = Setting {
            variant: Some(game.variant()),
            table: Some((&rules, game.seats())),
            ..Setting::default()
        };
        let mut rngs = agent_rngs(id);
        let mut agents = Vec::with_capacity(specs.len());
        for (seat, spec) in specs.iter().enumerate() {
            if seat == human as usize {
                agents.push(None);
                continue;
            }
            let mut agent = make_agent_with::<G>(spec, setting)
                .map_err(|e| bad(format!("seat {seat}: {e}")))?;
            agent.begin(seat as Seat, &mut rngs[seat]);
            agents.push(Some(agent));
        }
        let mut recorder = Recorder::<G>::default();
        recorder.observe(&start, None);
        let log = start
            .last_events()
            .iter()
            .filter_map(G::forced_event)
            .map(|e| LogEntry::of(e, human))
            .collect();
        let cards = card_set::<G>(&start);
        let mut live = LiveGame {
            seen: Value::Null,
            pending: Vec::new(),
            state: start.clone(),
            game,
            start,
            human,
            specs,
            agents,
            rngs,
            id,
            recorder,
            log,
            cards,
        };
        live.seen = live.public_view();
        Ok(live)
    }

    /// The human's observation now, without whose decision it is (`to_move`, `phase`): what
    /// a move must change to be seen to have happened. (Another seat answering a window still
    /// open, such as the turn player's declaration in Tứ Sắc's S2.2 window, changes only who
    /// decides: its answer stays hidden until the window closes.)
    fn public_view(&self) -> Value {
        let mut obs = observation(&self.game, &self.state.view(self.human));
        if let Some(map) = obs.as_object_mut() {
            map.remove("to_move");
            map.remove("phase");
        }
        obs
    }

    /// The seat the human's view shows deciding now (an ù, chíu, out-of-turn or claim window
    /// asked of another seat shows as the seat it leads to: the seat view keeps it silent).
    fn shown_deciding(&self) -> Option<Seat> {
        let obs = observation(&self.game, &self.state.view(self.human));
        obs["to_move"].as_u64().map(|s| s as Seat)
    }

    /// The legal actions of the seat to move now.
    fn legal(&self) -> Vec<<G::State as GameState>::Action> {
        let mut buffer = <G::State as GameState>::Actions::default();
        self.state.legal_actions(&mut buffer);
        buffer.as_slice().to_vec()
    }

    /// Applies legal action `chosen` of `seat` and logs what the human may see of it: its own
    /// decisions; another seat's decision when the human's view showed that seat deciding (a
    /// public turn), or, asked in a window the view keeps silent, unless it declined; every
    /// forced move with its rule. Another seat's entries wait until the human's view changes
    /// (or the game ends, or the human acts), so an answer in a window still open stays hidden.
    /// Returns whether they were shown now.
    fn apply(
        &mut self,
        seat: Seat,
        legal: &[<G::State as GameState>::Action],
        chosen: usize,
    ) -> bool {
        let action = legal[chosen];
        let yours = seat == self.human;
        let public_turn = yours || self.shown_deciding() == Some(seat);
        self.state.apply(action);
        let decision = Decision {
            seat,
            legal: legal.len(),
            chosen,
        };
        self.recorder.observe(&self.state, Some((decision, action)));
        if yours {
            self.log.append(&mut self.pending);
        }
        let label = action.to_string();
        if public_turn || label != DECLINE {
            self.pending
                .push(LogEntry::decision(seat, &label, self.human));
        }
        let forced = self.state.last_events().iter().filter_map(G::forced_event);
        self.pending
            .extend(forced.map(|e| LogEntry::of(e, self.human)));
        let now = self.public_view();
        let over = self.state.to_move().is_none();
        let shown = yours || over || now != self.seen;
        if shown {
            self.log.append(&mut self.pending);
            self.seen = now;
        }
        if over {
            self.finish();
        }
        shown
    }

    /// Tells every agent the game is over.
    fn finish(&mut self) {
        let outcome = self.state.outcome().expect("over");
        for (seat, agent) in self.agents.iter_mut().enumerate() {
            if let Some(a) = agent {
                a.end(seat as Seat, &outcome);
            }
        }
    }

    /// The outcome and every seat's hand, once the game is over.
    fn ending(&self) -> Value {
        let Some(o) = self.state.outcome() else {
            return Value::Null;
        };
        let hands: Vec<Value> = (0..self.game.seats())
            .map(|s| observation(&self.game, &self.state.view(s as Seat))["hand"].clone())
            .collect();
        json!({
            "winner": o.winner,
            "reason": o.reason,
            "payouts": o.payouts(),
            "places": o.places(),
            "hand_value": o.hand_value,
            "turns": o.turns,
            "penalized": o.penalized,
            "unit": G::INFO.payout_unit,
            "hands": hands,
        })
    }
}

impl<G: GameKind> Live for LiveGame<G> {
    fn state(&self) -> Value {
        let view = self.state.view(self.human);
        let obs = observation(&self.game, &view);
        let yours = self.state.to_move() == Some(self.human);
        let legal = if yours { self.legal() } else { Vec::new() };
        json!({
            "game": G::INFO.name,
            "title": G::INFO.title,
            "variant": self.game.variant(),
            "players": self.game.seats(),
            "seat": self.human,
            "agents": self.specs,
            "to_move": obs["to_move"],
            "your_turn": yours,
            "over": self.state.outcome().is_some(),
            "observation": obs,
            "legal": legal_json(&legal, &self.cards),
            "log": self.log,
            "outcome": self.ending(),
            "hint": hints::source(&self.specs),
        })
    }

    fn act(&mut self, index: usize) -> Result<(), ApiError> {
        match self.state.to_move() {
            None => return Err(ApiError::Conflict("the game is over".into())),
            Some(s) if s != self.human => {
                let msg = "it is not your turn: advance the agents first";
                return Err(ApiError::Conflict(msg.into()));
            }
            Some(_) => {}
        }
        let legal = self.legal();
        if index >= legal.len() {
            return Err(ApiError::Conflict(format!(
                "action {index} is not legal: there are {} legal actions (0–{})",
                legal.len(),
                legal.len() - 1
            )));
        }
        self.apply(self.human, &legal, index);
        Ok(())
    }

    fn advance(&mut self) -> Result<(), ApiError> {
        for _ in 0..SILENT_STEPS {
            let seat = match self.state.to_move() {
                None => return Err(ApiError::Conflict("the game is over".into())),
                Some(s) if s == self.human => {
                    return Err(ApiError::Conflict("it is your turn".into()))
                }
                Some(s) => s,
            };
            let legal = self.legal();
            let agent = self.agents[seat as usize]
                .as_mut()
                .expect("an agent's seat");
            let chosen = agent.act(
                &self.state.view(seat),
                &legal,
                &mut self.rngs[seat as usize],
            );
            if let Some(fault) = agent.fault() {
                return Err(ApiError::Internal(format!("seat {seat}: {fault}")));
            }
            if self.apply(seat, &legal, chosen.min(legal.len() - 1))
                || self.state.to_move() == Some(self.human)
            {
                return Ok(());
            }
        }
        Ok(())
    }

    fn hints(&mut self) -> Result<Value, ApiError> {
        if self.state.to_move() != Some(self.human) {
            return Err(ApiError::Conflict("hints are for your turn".into()));
        }
        let legal = self.legal();
        let position = (self.state.clone(), self.human);
        hints::evaluate(&self.game, position, &legal, &self.specs, self.id.master)
    }

    fn record(&self) -> Result<Record, ApiError> {
        if self.state.outcome().is_none() {
            return Err(ApiError::Conflict("the game is not over yet".into()));
        }
        Ok(self.recorder.clone().finish(
            &self.game,
            &self.start,
            &self.state,
            &self.specs,
            Some(self.id),
        ))
    }

    fn rotated(&self) -> Result<Box<dyn Live>, ApiError> {
        let n = self.specs.len();
        let specs = (0..n)
            .map(|s| self.specs[(s + n - 1) % n].clone())
            .collect();
        let human = ((self.human as usize + 1) % n) as Seat;
        let (game, start) = (self.game.clone(), self.start.clone());
        Ok(Box::new(LiveGame::new(game, start, human, specs, self.id)?))
    }
}
