//! The agent contracts that games and the generic agents both need: what an agent is
//! ([`Agent`]), how it is described in the catalogue ([`AgentInfo`], [`ParamInfo`]) and built
//! from a spec string ([`spec`]), the features rule lists read ([`features`]) and the greedy
//! agents' shared tie-break and tunable weights ([`greedy`]), and the agents a program embedding
//! bailab supplies ([`host`]).
//!
//! It lies below both `games` and `agents`: a game builds its own agents from these, and the
//! generic agents (`random`, `first`, `ismcts`, `rules`) play every game through them.

pub mod features;
pub mod greedy;
pub mod host;
pub mod spec;

use crate::game::{GameState, Outcome, Seat};
use crate::rng::GameRng;
use rand::Rng;
use spec::AgentSpec;

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
    pub fn answer(&mut self, seat: Seat, ask: impl FnOnce() -> Result<usize, String>) -> usize {
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
    pub fn keep(&mut self, seat: Seat, moment: &str, e: String) {
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
) -> Result<T, String> {
    let Some(text) = spec.get(key) else {
        return Ok(default);
    };
    let v: T = text
        .parse()
        .map_err(|_| format!("agent '{}': {key} '{text}' is not a number", spec.name))?;
    if v < range.0 || v > range.1 {
        return Err(format!(
            "agent '{}': {key} = {v} is outside {} to {}",
            spec.name, range.0, range.1
        ));
    }
    Ok(v)
}

/// Reads a parameter of `spec` that names one of `choices`, or its default.
pub fn choice<T: Copy>(
    spec: &AgentSpec,
    key: &str,
    default: &str,
    choices: &[(&str, T)],
) -> Result<T, String> {
    let text = spec.get(key).unwrap_or(default);
    choices
        .iter()
        .find(|(name, _)| *name == text)
        .map(|&(_, value)| value)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
            format!(
                "agent '{}': {key} '{text}' is not {}",
                spec.name,
                names.join(" or ")
            )
        })
}

/// A uniform index in `0..len` (`len > 0`).
pub fn uniform_index(len: usize, rng: &mut GameRng) -> usize {
    rng.random_range(0..len as u32) as usize
}
