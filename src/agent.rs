//! The agent contracts that games and the generic agents both need: what an agent is
//! ([`Agent`]), how it is described in the catalogue ([`AgentInfo`], [`ParamInfo`]) and built
//! from a spec string ([`spec`]), the features rule lists read ([`features`]) and the greedy
//! agents' shared tie-break and tunable weights ([`greedy`]), and the agents a program embedding
//! bailab supplies ([`host`]).
//!
//! It lies below both `games` and `generic_agents`: a game builds its own agents from these,
//! and the generic agents (`random`, `first`, `ismcts`, `rules`) play every game through them.

pub mod features;
pub mod greedy;
pub mod host;
pub mod net_file;
pub mod rule_file;
pub mod spec;
pub mod weight_file;

use crate::game::{GameState, Outcome, Seat};
use crate::rng::GameRng;
use rand::Rng;
use rule_file::RuleFileError;
use spec::{AgentSpec, SpecError};
use thiserror::Error;
use weight_file::WeightFileError;

/// Why an agent could not be built from its spec (its `Display` is the message the command line
/// prints).
#[derive(Clone, Debug, PartialEq, Error)]
pub enum AgentError {
    /// The spec string is malformed; `takes` says what its agent takes, when its name is known.
    #[error("{error}{}", takes.as_ref().map_or(String::new(), |t| format!("; {t}")))]
    Spec {
        /// What is malformed.
        error: SpecError,
        /// `ismcts takes iters=, ...`, when the spec names a known agent.
        takes: Option<String>,
    },
    /// No agent of that name plays the game.
    #[error(
        "unknown agent '{name}' for {game}{} (known: {}; see `bailab agents`)",
        if elsewhere.is_empty() { String::new() }
        else { format!(" ('{name}' plays {} only)", elsewhere.join(", ")) },
        known.join(", ")
    )]
    UnknownAgent {
        /// The name asked for.
        name: String,
        /// The game played.
        game: &'static str,
        /// The games whose own agents have that name.
        elsewhere: Vec<&'static str>,
        /// The agents that play the game.
        known: Vec<&'static str>,
    },
    /// A game asked for an agent that is not its own.
    #[error("agent '{name}' does not play {game}")]
    NotForGame {
        /// The agent's name.
        name: String,
        /// The game.
        game: &'static str,
    },
    /// A bare first value (a file) given to an agent that takes none.
    #[error(
        "agent spec '{agent}:{value}': '{value}' is not key=value (agent '{agent}' takes no bare \
         value or file; {takes})"
    )]
    NoBareValue {
        /// The agent.
        agent: &'static str,
        /// The bare value.
        value: String,
        /// What the agent takes (`ismcts takes iters=, ...`).
        takes: String,
    },
    /// A bare first value that is neither a parameter nor a file that exists.
    #[error(
        "agent spec '{agent}:{value}': '{value}' is not key=value (nor a weight file: no file \
         '{value}')"
    )]
    NotKeyValueNorFile {
        /// The agent.
        agent: String,
        /// The bare value.
        value: String,
    },
    /// A parameter the agent does not have.
    #[error(
        "agent '{agent}' has no parameter '{key}' (its parameters: {})",
        if known.is_empty() { "none".to_string() } else { known.join(", ") }
    )]
    UnknownParam {
        /// The agent.
        agent: &'static str,
        /// The parameter given.
        key: String,
        /// The agent's parameters.
        known: Vec<&'static str>,
    },
    /// A numeric parameter that does not read as a number.
    #[error("agent '{agent}': {key} '{text}' is not a number")]
    NotANumber {
        /// The agent.
        agent: String,
        /// The parameter.
        key: String,
        /// Its value.
        text: String,
    },
    /// A numeric parameter outside its range.
    #[error("agent '{agent}': {key} = {value} is outside {low} to {high}")]
    OutOfRange {
        /// The agent.
        agent: String,
        /// The parameter.
        key: String,
        /// Its value, as read.
        value: String,
        /// The smallest allowed value.
        low: String,
        /// The largest allowed value.
        high: String,
    },
    /// A parameter naming none of its choices.
    #[error("agent '{agent}': {key} '{text}' is not {}", choices.join(" or "))]
    NotAChoice {
        /// The agent.
        agent: String,
        /// The parameter.
        key: String,
        /// Its value.
        text: String,
        /// The values it may take.
        choices: Vec<String>,
    },
    /// Parameters that do not go together, or a parameter the agent needs and lacks, in the
    /// agent's words (`agent 'ismcts': deviate needs root=sweep or root=halving ...`).
    #[error("{0}")]
    Params(String),
    /// A rule list the spec names that cannot be read or is refused.
    #[error("{0}")]
    Rules(RuleFileError),
    /// A greedy weight file that cannot be read or is refused.
    #[error("{0}")]
    Weights(WeightFileError),
    /// An outside program (`exec:`) that cannot be seated.
    #[error("{0}")]
    Exec(String),
    /// A network file (`net:`) that cannot be read or does not fit the game played.
    #[error("{0}")]
    Net(net_file::NetError),
    /// The embedding program's agent could not be built.
    #[error(transparent)]
    Host(HostError),
    /// The agent's own game could not be built for it (an `exec:` agent builds the game played).
    #[error("{0}")]
    Game(String),
    /// The error of the agent at a seat of a table.
    #[error("seat {seat}: {error}")]
    Seat {
        /// The seat (its index among the specs checked).
        seat: usize,
        /// What is wrong with its agent.
        error: Box<AgentError>,
    },
}

/// Why the embedding program's agent could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HostError {
    /// The run has no host.
    #[error("no agent host")]
    NoHost,
    /// The host has no agent of that name (`host` names the host: `Python`).
    #[error("no {host} agent '{name}'")]
    Unknown {
        /// The host's language or program.
        host: &'static str,
        /// The name asked for.
        name: String,
    },
    /// The host plays another game than the one asked for.
    #[error("the run's game is another game")]
    RunsAnotherGame,
    /// The host built its agent for another game's state.
    #[error("agent '{name}': the host built it for another game")]
    BuiltForAnotherGame {
        /// The agent's name.
        name: String,
    },
}

impl From<SpecError> for AgentError {
    /// A malformed spec, without what its agent takes.
    fn from(error: SpecError) -> Self {
        AgentError::Spec { error, takes: None }
    }
}

impl AgentError {
    /// The error under any [`AgentError::Seat`] wrapping.
    pub fn root(&self) -> &AgentError {
        match self {
            AgentError::Seat { error, .. } => error.root(),
            other => other,
        }
    }
}

/// Chooses actions for one seat. It sees the seat's view, the legal actions (the game's
/// canonical order) and its own RNG, and returns the index of its choice in `legal`.
pub trait Agent<S: GameState>: Send {
    /// The index in `legal` (never empty) of the chosen action.
    fn act(&mut self, view: &S::View<'_>, legal: &[S::Action], rng: &mut GameRng) -> usize;
    /// A game begins with this agent at `seat`, drawing from the seat's stream `rng`; called
    /// for every seat it holds before the game's first decision. Built-in agents keep nothing
    /// between decisions and do nothing here.
    fn begin(&mut self, seat: Seat, rng: &mut GameRng) {
        let _ = (seat, rng);
    }
    /// The game this agent played at `seat` ended with `outcome`.
    fn end(&mut self, seat: Seat, outcome: &Outcome) {
        let _ = (seat, outcome);
    }
    /// The error this agent met since it was last asked, if any (an outside program that
    /// failed, a Python exception), taken. The runner asks after every deal and stops the run
    /// there: the deal's games do not count, and `--resume` plays it again. An agent that has
    /// failed answers 0 until then. Built-in agents never fail.
    fn fault(&mut self) -> Option<String> {
        None
    }
    /// Whether the deal just played should be played again, asked after every deal before
    /// [`Agent::fault`]: an outside program that crashed and restarts (`restart=on-crash`)
    /// answers true once, having dropped its fault, so the deal's games are played whole by
    /// the restarted program. Built-in agents never ask.
    fn retry(&mut self) -> bool {
        false
    }
}

/// The first fault of `agents` (see [`Agent::fault`]), every agent's fault taken.
pub fn take_fault<S: GameState>(agents: &mut [Box<dyn Agent<S>>]) -> Option<String> {
    let mut first = None;
    for agent in agents {
        let fault = agent.fault();
        first = first.or(fault);
    }
    first
}

/// The bookkeeping of an agent that can fail (an outside program, a Python callable): its
/// decisions in the current deal and its first fault, which it answers with index 0 until the
/// runner takes the fault (see [`Agent::fault`]).
#[derive(Debug, Default)]
pub struct Failing {
    who: String,
    decisions: u64,
    fault: Option<String>,
}

impl Failing {
    /// The bookkeeping of the agent that faults name `who` (`the Python agent 'mine'`).
    pub fn new(who: String) -> Self {
        Failing {
            who,
            ..Failing::default()
        }
    }
    /// The choice `ask` gives, unless the agent has failed in this deal; a failure is kept,
    /// naming the agent, the seat and the decision, and answered 0.
    pub fn answer<E: std::fmt::Display>(
        &mut self,
        seat: Seat,
        ask: impl FnOnce() -> Result<usize, E>,
    ) -> usize {
        self.decisions += 1;
        if self.fault.is_some() {
            return 0;
        }
        ask().unwrap_or_else(|e| {
            let moment = format!("its decision {} of the deal", self.decisions);
            self.keep(seat, &moment, e);
            0
        })
    }
    /// Keeps a failure at `moment` (`at the start of a game`), unless one is kept already.
    pub fn keep(&mut self, seat: Seat, moment: &str, e: impl std::fmt::Display) {
        if self.fault.is_none() {
            let who = &self.who;
            self.fault = Some(format!("{who} at seat {seat}, {moment}, {e}"));
        }
    }
    /// The fault kept in this deal, if any (not taken).
    pub fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }
    /// Whether the agent has failed in this deal.
    pub fn failed(&self) -> bool {
        self.fault.is_some()
    }
    /// The fault, taken, at the end of a deal (the count of decisions starts again).
    pub fn take(&mut self) -> Option<String> {
        self.decisions = 0;
        self.fault.take()
    }
}

/// An agent as results are tallied by: its name and parameters with the defaults filled in, in
/// a canonical order. Two specs with the same key are the same agent (`ismcts` and
/// `ismcts:depth=1`), whatever their spelling; files keep a spec's written form. A key fills in
/// a default as its catalogue entry writes it, so a default given in words (`deviate`'s) is one
/// value and that value spelled out another.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AgentKey {
    /// The agent's name.
    pub name: String,
    /// Every parameter of the agent, given or defaulted, in its catalogue's order; then any
    /// other parameter given, by name.
    pub params: Vec<(String, String)>,
}

impl AgentKey {
    /// The key of `spec` for an agent whose parameters are `known` (its catalogue entry's).
    pub fn new(spec: &AgentSpec, known: &[ParamInfo]) -> AgentKey {
        let mut params: Vec<(String, String)> = known
            .iter()
            .map(|p| (p.name.into(), spec.get(p.name).unwrap_or(p.default).into()))
            .collect();
        let mut others: Vec<(String, String)> = (spec.params.iter())
            .filter(|(k, _)| !known.iter().any(|p| p.name == *k))
            .cloned()
            .collect();
        others.sort();
        params.extend(others);
        AgentKey {
            name: spec.name.clone(),
            params,
        }
    }

    /// The key of a text that names no agent of a catalogue (an embedding program's agent, a
    /// spec that does not read): the text itself.
    pub fn written(text: &str) -> AgentKey {
        AgentKey {
            name: text.to_string(),
            params: Vec::new(),
        }
    }
}

/// One parameter of an agent.
#[derive(Copy, Clone, Debug)]
pub struct ParamInfo {
    /// The key in the spec string.
    pub name: &'static str,
    /// The default value.
    pub default: &'static str,
    /// What it does and its allowed values.
    pub about: &'static str,
}

/// One agent of the catalogue.
#[derive(Copy, Clone, Debug)]
pub struct AgentInfo {
    /// The name in the spec string.
    pub name: &'static str,
    /// The games it plays.
    pub games: &'static str,
    /// What it does.
    pub about: &'static str,
    /// Its parameters.
    pub params: &'static [ParamInfo],
}

/// Reads a parameter of `spec` as a number within `range`, or its default.
pub fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    spec: &AgentSpec,
    key: &str,
    default: T,
    range: (T, T),
) -> Result<T, AgentError> {
    let Some(text) = spec.get(key) else {
        return Ok(default);
    };
    let v: T = text.parse().map_err(|_| AgentError::NotANumber {
        agent: spec.name.clone(),
        key: key.into(),
        text: text.into(),
    })?;
    // written so that a value no order places (NaN) is outside too
    let inside = range.0 <= v && v <= range.1;
    if !inside {
        return Err(AgentError::OutOfRange {
            agent: spec.name.clone(),
            key: key.into(),
            value: v.to_string(),
            low: range.0.to_string(),
            high: range.1.to_string(),
        });
    }
    Ok(v)
}

/// Reads a parameter of `spec` that names one of `choices`, or its default.
pub fn choice<T: Copy>(
    spec: &AgentSpec,
    key: &str,
    default: &str,
    choices: &[(&str, T)],
) -> Result<T, AgentError> {
    let text = spec.get(key).unwrap_or(default);
    choices
        .iter()
        .find(|(name, _)| *name == text)
        .map(|&(_, value)| value)
        .ok_or_else(|| AgentError::NotAChoice {
            agent: spec.name.clone(),
            key: key.into(),
            text: text.into(),
            choices: choices.iter().map(|(name, _)| name.to_string()).collect(),
        })
}

/// A uniform index in `0..len` (`len > 0`).
pub fn uniform_index(len: usize, rng: &mut GameRng) -> usize {
    rng.random_range(0..len as u32) as usize
}

/// Plays `agent` at every seat of `s` from where it stands to the end of the game (a rollout:
/// forced moves are played without asking), with `actions` as the legal-action buffer. Public
/// for research probes that play rollouts of their own (`examples/value_of_hands.rs`).
pub fn play_out<S: GameState>(
    s: &mut S,
    actions: &mut S::Actions,
    agent: &mut dyn Agent<S>,
    rng: &mut GameRng,
) {
    play_until(s, actions, agent, rng, None);
}

/// [`play_out`], stopped where seat `stop` (if any) is to move with a choice: `true` there,
/// with its legal actions in `actions`; `false` at the end of the game.
pub(crate) fn play_until<S: GameState>(
    s: &mut S,
    actions: &mut S::Actions,
    agent: &mut dyn Agent<S>,
    rng: &mut GameRng,
    stop: Option<crate::game::Seat>,
) -> bool {
    use crate::game::ActionBuffer;
    while let Some(seat) = s.to_move() {
        s.legal_actions(actions);
        let legal = actions.as_slice();
        if legal.len() > 1 && stop == Some(seat) {
            return true;
        }
        let k = if legal.len() == 1 {
            0
        } else {
            agent.act(&s.view(seat), legal, rng)
        };
        s.apply(legal[k]);
    }
    false
}
