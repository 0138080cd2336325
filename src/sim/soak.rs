//! `bailab soak`'s engine: plays many seeded games at one table of a game (a variant and a seat
//! count) with the contracts of [`crate::sim::invariants`] checked on every game, and counts the
//! faults: a broken contract, or any panic of an engine or agent.
//!
//! Deal `d` is dealt from the seed as in a run ([`seeded_deal`]) and played
//! with rule set `d mod R` (the variant's own rules, then the game's
//! [`SoakChecks::RULE_SAMPLES`](crate::games::kind::SoakChecks::RULE_SAMPLES)) and with seat `s` held by agent number `digit s of (d div R)` in
//! base `k` (the `k` agents given), so that every mix of agents at every seat comes round. Every
//! `deep_every`-th deal is also checked deeply (determinizations and its record). A fault names
//! its deal, so that one deal can be played again alone.

use crate::agent::{take_fault, Agent, AgentError};
use crate::game::{GameId, RuleMap, MAX_SEATS};
use crate::games::kind::{GameError, GameKind};
use crate::generic_agents::catalogue::{make_agent_with, Setting};
use crate::sim::deal::seeds::{agent_rngs, seeded_deal};
use crate::sim::deal::turns::play_out;
use crate::sim::invariants::{Checker, ContractError, MAX_STEPS};
use rayon::prelude::*;
use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;
use std::time::Instant;

/// The most games a soak plays per table (`--games`), and the last deal it may reach.
pub const MAX_GAMES: u64 = 100_000_000_000;

/// Deals a worker plays before it reports progress.
const CHUNK: u64 = 2048;
/// Faults kept per table, with their deal and message (all are counted).
const KEPT_FAULTS: usize = 10;

/// What to soak at one table.
pub struct SoakOptions<'a> {
    /// The master seed of the deals.
    pub seed: u64,
    /// The first deal played.
    pub first_deal: u64,
    /// Games played.
    pub games: u64,
    /// Every this many deals one is checked deeply (0: none).
    pub deep_every: u64,
    /// The agents' specs, seated in every mix.
    pub agents: &'a [String],
    /// Called with the games played each time a worker finishes a chunk of deals.
    pub progress: &'a (dyn Fn(u64) + Sync),
}

/// Why a table cannot be soaked (before any game).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SoakError {
    /// The variant refuses its own rules or the seat count.
    #[error(transparent)]
    Game(#[from] GameError),
    /// An agent that cannot be built.
    #[error(transparent)]
    Agent(#[from] AgentError),
}

/// What went wrong in one deal outside a panic: an agent's fault or a broken contract.
#[derive(Debug, thiserror::Error)]
enum DealFault {
    /// An agent failed (its fault, naming it).
    #[error("an agent failed: {0}")]
    Agent(String),
    /// A contract the game broke.
    #[error(transparent)]
    Contract(#[from] ContractError),
}

/// One fault: where it happened and what it was.
#[derive(Clone, Debug)]
pub struct Fault {
    /// The deal it happened in.
    pub deal: u64,
    /// The rule set played (`{}`: the variant's own).
    pub rules: String,
    /// The agent of each seat.
    pub seats: Vec<String>,
    /// The broken contract, or the panic's message.
    pub message: String,
}

/// What a soak of one table found.
#[derive(Clone, Debug, Default)]
pub struct SoakReport {
    /// Games played to the end or to a fault.
    pub games: u64,
    /// Decisions taken in all games.
    pub decisions: u64,
    /// Games checked deeply.
    pub deep: u64,
    /// Faults found (all of them).
    pub fault_count: u64,
    /// The first faults, by deal.
    pub faults: Vec<Fault>,
    /// Wall-clock seconds.
    pub(crate) seconds: f64,
}

impl SoakReport {
    /// Adds a later chunk's figures (its faults after these: deal order is kept).
    fn add(mut self, o: SoakReport) -> SoakReport {
        self.games += o.games;
        self.decisions += o.decisions;
        self.deep += o.deep;
        self.fault_count += o.fault_count;
        self.faults.extend(o.faults);
        self.faults.truncate(KEPT_FAULTS);
        self
    }
}

/// The games a soak of `G` in `variant` at `players` seats plays, each with its rule set: the
/// variant's own (`{}`), then the game's samples the table accepts. The error is the variant's
/// own refusal.
pub fn rule_sets<G: GameKind>(
    variant: &str,
    players: usize,
) -> Result<Vec<(String, G)>, GameError> {
    let mut games = vec![(
        "{}".to_string(),
        G::build(variant, players, &RuleMap::new())?,
    )];
    for text in G::RULE_SAMPLES {
        let rules: RuleMap = serde_json::from_str(text).expect("a rule sample is a JSON object");
        if let Ok(game) = G::build(variant, players, &rules) {
            games.push((text.to_string(), game));
        }
    }
    Ok(games)
}

/// A table ready to play: its games (one per rule set) and its agents' specs.
struct Table<'a, G: GameKind> {
    variant: &'a str,
    players: usize,
    games: Vec<(String, G)>,
    opts: &'a SoakOptions<'a>,
}

/// Soaks `G` in `variant` at `players` seats. Errors (before any game) name a rule set the
/// variant refuses or an agent that cannot be built.
pub fn soak<G: GameKind>(
    variant: &str,
    players: usize,
    opts: &SoakOptions<'_>,
) -> Result<SoakReport, SoakError> {
    let games = rule_sets::<G>(variant, players)?;
    let table = Table {
        variant,
        players,
        games,
        opts,
    };
    table.agents()?;
    let began = Instant::now();
    let chunks = opts.games.div_ceil(CHUNK);
    // Chunks are added up in deal order as they finish: memory does not grow with the games.
    let mut report = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let from = opts.first_deal + c * CHUNK;
            let to = (from + CHUNK).min(opts.first_deal + opts.games);
            let report = table.play(from..to);
            (opts.progress)(report.games);
            report
        })
        .reduce(SoakReport::default, SoakReport::add);
    report.seconds = began.elapsed().as_secs_f64();
    Ok(report)
}

impl<G: GameKind> Table<'_, G> {
    /// One of each agent.
    fn agents(&self) -> Result<Vec<Box<dyn Agent<G::State>>>, AgentError> {
        let setting = Setting {
            variant: Some(self.variant),
            ..Setting::default()
        };
        self.opts
            .agents
            .iter()
            .map(|spec| make_agent_with::<G>(spec, setting))
            .collect()
    }

    /// The rule set and the agent of each seat of `deal`.
    fn seating(&self, deal: u64) -> (usize, [usize; MAX_SEATS]) {
        let sets = self.games.len() as u64;
        let k = self.opts.agents.len() as u64;
        let mut mix = deal / sets;
        let mut seats = [0; MAX_SEATS];
        for s in seats.iter_mut().take(self.players) {
            *s = (mix % k) as usize;
            mix /= k;
        }
        ((deal % sets) as usize, seats)
    }

    /// Plays `deals`, each to its end or its first fault.
    fn play(&self, deals: std::ops::Range<u64>) -> SoakReport {
        let mut agents = self.agents().expect("the agents were built before");
        let mut checker = Checker::<G>::new(MAX_STEPS, self.opts.seed);
        let mut report = SoakReport::default();
        for deal in deals {
            let deep = self.opts.deep_every > 0 && deal % self.opts.deep_every == 0;
            let played = catch_quietly(|| self.play_one(deal, deep, &mut agents, &mut checker));
            report.games += 1;
            report.deep += u64::from(deep);
            let message = match played {
                Ok(Ok(decisions)) => {
                    report.decisions += decisions;
                    continue;
                }
                Ok(Err(e)) => e.to_string(),
                Err((panic, at)) => panic_message(panic.as_ref(), &at),
            };
            report.fault_count += 1;
            if report.faults.len() < KEPT_FAULTS {
                report.faults.push(self.fault(deal, message));
            }
            // An agent or checker left by a panic may be in any state: start afresh.
            agents = self.agents().expect("the agents were built before");
            checker = Checker::new(MAX_STEPS, self.opts.seed);
        }
        report
    }

    /// Plays deal `deal` with its contracts checked; the decisions taken, or the broken
    /// contract. A fault inside the game loop panics (it cannot return), and the caller catches
    /// it.
    fn play_one(
        &self,
        deal: u64,
        deep: bool,
        agents: &mut [Box<dyn Agent<G::State>>],
        checker: &mut Checker<G>,
    ) -> Result<u64, DealFault> {
        let (set, seats) = self.seating(deal);
        let game = &self.games[set].1;
        let mut state = seeded_deal(game, self.opts.seed, deal);
        checker.begin(&state, deep);
        let id = GameId {
            master: self.opts.seed,
            deal,
            rotation: 0,
        };
        let mut rngs = agent_rngs(id);
        let seat_agent = &seats[..self.players];
        play_out(&mut state, agents, seat_agent, &mut rngs, |step| {
            if let Err(e) = checker.step(step) {
                std::panic::panic_any(Broken(e));
            }
        });
        if let Some(fault) = take_fault(agents) {
            return Err(DealFault::Agent(fault));
        }
        let names: Vec<String> = if deep {
            seat_agent
                .iter()
                .map(|&a| self.opts.agents[a].clone())
                .collect()
        } else {
            Vec::new()
        };
        checker.end(game, &state, &names)?;
        Ok(checker.decisions() as u64)
    }

    /// The fault `message` in deal `deal`, with its rule set and seats.
    fn fault(&self, deal: u64, message: String) -> Fault {
        let (set, seats) = self.seating(deal);
        Fault {
            deal,
            rules: self.games[set].0.clone(),
            seats: seats[..self.players]
                .iter()
                .map(|&a| self.opts.agents[a].clone())
                .collect(),
            message,
        }
    }
}

/// A contract broken inside the game loop, carried out of it by a panic.
struct Broken(ContractError);

thread_local! {
    /// Whether this thread is inside [`catch_quietly`].
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// Where the last panic caught quietly on this thread happened.
    static WHERE: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Runs `f`, catching a panic without printing it (a soak may catch thousands): the panic's
/// payload comes back with where it happened. Panics on other threads print as usual.
fn catch_quietly<R>(f: impl FnOnce() -> R) -> Result<R, (Box<dyn std::any::Any + Send>, String)> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.get() {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()));
                WHERE.set(at.unwrap_or_default());
            } else {
                previous(info);
            }
        }));
    });
    QUIET.set(true);
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.set(false);
    result.map_err(|panic| (panic, WHERE.take()))
}

/// The message of a caught panic that happened `at`: a broken contract's own, or the panic's.
fn panic_message(panic: &(dyn std::any::Any + Send), at: &str) -> String {
    let text = if let Some(Broken(e)) = panic.downcast_ref::<Broken>() {
        return e.to_string();
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else {
        "(no message)".to_string()
    };
    format!("panic at {at}: {text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_caught_quietly_with_where_it_happened() {
        let caught = catch_quietly(|| -> u8 { panic!("boom {}", 7) });
        let (panic, at) = caught.expect_err("it panicked");
        let message = panic_message(panic.as_ref(), &at);
        assert!(
            message.starts_with("panic at src/sim/soak.rs:"),
            "{message}"
        );
        assert!(message.ends_with(": boom 7"), "{message}");
        let lost = ContractError::Endless(5);
        let broken = catch_quietly(|| -> () { std::panic::panic_any(Broken(lost)) });
        let (panic, at) = broken.expect_err("it panicked");
        assert_eq!(
            panic_message(panic.as_ref(), &at),
            "the game does not end in 5 decisions"
        );
        assert_eq!(catch_quietly(|| 5).ok(), Some(5));
    }
}
