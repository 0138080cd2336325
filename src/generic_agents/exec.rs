//! `exec:COMMAND`: an agent that is another program, in any language, speaking JSON Lines over
//! its standard input and output (docs/agent-protocol.md). Each worker thread starts its own
//! process at its first game; every message it receives is what its seat may see.

mod group;
mod log;
mod process;

use crate::agent::spec::AgentSpec;
use crate::agent::{choice, number, Agent, AgentError, AgentInfo, Failing, ParamInfo};
use crate::game::{GameState, Outcome, RuleMap, Seat, SeatView};
use crate::games::kind::GameKind;
use crate::games::observe::{write_json, Seq, Text};
use crate::rng::GameRng;
pub(crate) use group::kill_agents;
pub use log::{StderrLog, LOG_CAP};
use process::{ExecError, Process};
use rand::RngCore;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;

/// The protocol version this side speaks.
pub(crate) const PROTOCOL: u32 = 1;

/// The catalogue entry of `exec`.
pub(crate) const EXEC_INFO: AgentInfo = AgentInfo {
    name: "exec",
    games: "all",
    about: "another program, in any language, speaking JSON Lines on stdin/stdout \
            (docs/agent-protocol.md): exec:COMMAND, e.g. exec:python3 my_agent.py; one process \
            per worker thread; a late, malformed or out-of-range reply or a crash stops the run \
            with a checkpoint; its stderr goes to exec-agent-K.log in a run's output folder",
    params: &[
        ParamInfo {
            name: "path",
            default: "",
            about: "the command line: a program and its arguments, split at spaces (no shell); \
                    a relative program or argument is found from the folder it runs in",
        },
        ParamInfo {
            name: "timeout_ms",
            default: "10000",
            about: "how long one exchange may take, in milliseconds (1 to 3,600,000): sending \
                    a message and reading its answer, the handshake included",
        },
        ParamInfo {
            name: "cwd",
            default: "",
            about: "the folder the program runs in, relative to the experiment's folder \
                    (default: the experiment's folder; on the command line, the current folder)",
        },
        ParamInfo {
            name: "restart",
            default: "never",
            about: "never, or on-crash: a process that ends is started again and the deal it \
                    ended in is played again from its first game (once; a second crash in the \
                    same deal stops the run)",
        },
    ],
};

/// An outside program seated at a table of game `G`.
pub(crate) struct ExecAgent<G: GameKind> {
    game: G,
    command: Vec<String>,
    cwd: Option<PathBuf>,
    timeout: Duration,
    restart: bool,
    log: StderrLog,
    process: Option<Process>,
    failing: Failing,
    /// The process ended in the current deal.
    crashed: bool,
    /// The process was restarted in the current deal.
    restarted: bool,
}

/// Builds the `exec` agent of a spec for the game played with `rules` at `players` seats, its
/// stderr to `log`.
pub(crate) fn make_exec<G: GameKind>(
    spec: &AgentSpec,
    text: &str,
    table: Option<(&RuleMap, usize)>,
    log: StderrLog,
) -> Result<ExecAgent<G>, AgentError> {
    let line = spec.get("path").unwrap_or_default();
    let command: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    if command.is_empty() {
        return Err(AgentError::Exec(
            "agent 'exec': give the command, e.g. exec:python3 my_agent.py".into(),
        ));
    }
    let (rules, players) = table.ok_or_else(|| {
        AgentError::Exec("agent 'exec': this command does not seat outside programs".into())
    })?;
    let variant = spec.variant.as_deref().unwrap_or(G::INFO.variants[0]);
    let cwd = match (spec.get("cwd"), &spec.base) {
        (Some(dir), Some(base)) => Some(base.join(dir)),
        (Some(dir), None) => Some(PathBuf::from(dir)),
        (None, base) => base.clone(),
    };
    if let Some(dir) = cwd.as_ref().filter(|d| !d.is_dir()) {
        return Err(AgentError::Exec(format!(
            "agent 'exec': cwd {} is not a folder",
            dir.display()
        )));
    }
    let restart = choice(
        spec,
        "restart",
        "never",
        &[("never", false), ("on-crash", true)],
    )?;
    Ok(ExecAgent {
        game: G::build(variant, players, rules).map_err(|e| AgentError::Game(e.into()))?,
        command,
        cwd,
        timeout: Duration::from_millis(number(spec, "timeout_ms", 10_000, (1, 3_600_000))?),
        restart,
        log,
        process: None,
        failing: Failing::new(format!("the outside agent `{text}`")),
        crashed: false,
        restarted: false,
    })
}

/// The `decide` message of a decision: the deciding seat, a seed for the agent's randomness,
/// the seat's observation and the legal actions in the game's notation. Parsed from the text
/// [`write_decide_message`] writes (what an agent is sent).
pub fn decide_message<G: GameKind>(
    game: &G,
    view: &<G::State as GameState>::View<'_>,
    legal: &[<G::State as GameState>::Action],
    seed: u64,
) -> Value {
    let mut text = Vec::new();
    write_decide_message(game, view, legal, seed, &mut text);
    serde_json::from_slice(&text).expect("a decide message is JSON")
}

/// Appends the JSON text of the `decide` message of a decision to `out`, without building a
/// tree: keys in alphabetical order, as `serde_json::Value` writes them.
pub fn write_decide_message<G: GameKind>(
    game: &G,
    view: &<G::State as GameState>::View<'_>,
    legal: &[<G::State as GameState>::Action],
    seed: u64,
    out: &mut Vec<u8>,
) {
    out.extend_from_slice(b"{\"legal\":");
    write_json(out, &Seq(|| legal.iter().map(Text)));
    out.extend_from_slice(b",\"observation\":");
    game.write_observation(view, out);
    out.extend_from_slice(b",\"seat\":");
    write_json(out, &view.seat());
    out.extend_from_slice(b",\"seed\":");
    write_json(out, &seed);
    out.extend_from_slice(b",\"type\":\"decide\"}");
}

/// The `end` message of a game: how it ended, for every seat (payouts, places).
pub(crate) fn end_message(seat: Seat, outcome: &Outcome) -> Value {
    let places = &outcome.places[..outcome.seats as usize];
    json!({
        "type": "end", "seat": seat, "winner": outcome.winner, "reason": outcome.reason,
        "payouts": outcome.payouts(), "places": places,
        "hand_value": outcome.hand_value, "turns": outcome.turns,
    })
}

impl<G: GameKind> ExecAgent<G> {
    /// The running process, started (and greeted) if there is none.
    fn process(&mut self) -> Result<&mut Process, ExecError> {
        if self.process.is_none() {
            self.process = Some(self.start()?);
        }
        Ok(self.process.as_mut().expect("started"))
    }

    /// Starts the process and shakes hands with it.
    fn start(&self) -> Result<Process, ExecError> {
        let (cwd, timeout) = (self.cwd.as_deref(), self.timeout);
        let mut process = Process::start(&self.command, cwd, &self.log, timeout)?;
        let hello = json!({
            "type": "hello", "protocol": PROTOCOL, "game": G::INFO.name,
            "variant": self.game.variant(), "players": self.game.seats(),
            "rules": Value::Object(self.game.rules()),
        });
        let reply = process.ask(&hello)?;
        match reply.get("protocol").and_then(Value::as_u64) {
            Some(v) if v == u64::from(PROTOCOL) => Ok(process),
            _ => Err(ExecError::Handshake {
                reply,
                protocol: PROTOCOL,
            }),
        }
    }

    /// Asks the process for the choice of a decision.
    fn decide(
        &mut self,
        view: &<G::State as GameState>::View<'_>,
        legal: &[<G::State as GameState>::Action],
        seed: u64,
    ) -> Result<usize, ExecError> {
        self.process()?;
        let process = self.process.as_mut().expect("started");
        let write = |out: &mut Vec<u8>| write_decide_message(&self.game, view, legal, seed, out);
        let reply = process.ask_with(write)?;
        match reply.get("action").and_then(Value::as_u64) {
            Some(i) if (i as usize) < legal.len() => Ok(i as usize),
            Some(action) => Err(ExecError::NoSuchAction {
                action,
                legal: legal.len(),
            }),
            None => Err(ExecError::NoAction(reply)),
        }
    }

    /// Sends a message that needs no answer, unless the agent has failed in this deal.
    fn tell(&mut self, seat: Seat, moment: &str, message: Value) {
        if self.failing.failed() {
            return;
        }
        if let Err(e) = self.process().and_then(|p| p.tell(&message)) {
            self.failing.keep(seat, moment, e);
            self.stop();
        }
    }

    /// Ends the process after a failure: a process still running is sent an `error` message
    /// saying what went wrong (for its own log), then its input is closed and it is killed, with
    /// every process it started, if it does not end at once.
    fn stop(&mut self) {
        let Some(mut process) = self.process.take() else {
            return;
        };
        self.crashed = process.gone;
        if !process.gone {
            let message = self.failing.fault().unwrap_or_default();
            process.farewell(&json!({"type": "error", "message": message}));
        }
    }
}

impl<G: GameKind> Agent<G::State> for ExecAgent<G> {
    fn act(
        &mut self,
        view: &<G::State as GameState>::View<'_>,
        legal: &[<G::State as GameState>::Action],
        rng: &mut GameRng,
    ) -> usize {
        let seed = rng.next_u64();
        let mut failing = std::mem::take(&mut self.failing);
        let choice = failing.answer(view.seat(), || self.decide(view, legal, seed));
        let failed_now = failing.failed() && self.process.is_some();
        self.failing = failing;
        if failed_now {
            self.stop();
        }
        choice
    }
    fn begin(&mut self, seat: Seat, rng: &mut GameRng) {
        let seed = rng.next_u64();
        let message = json!({"type": "game", "seat": seat, "seed": seed});
        self.tell(seat, "at the start of a game", message);
    }
    fn end(&mut self, seat: Seat, outcome: &Outcome) {
        self.tell(seat, "at the end of a game", end_message(seat, outcome));
    }
    fn retry(&mut self) -> bool {
        if !self.failing.failed() {
            self.restarted = false;
            return false;
        }
        if !(self.restart && self.crashed && !self.restarted) {
            return false;
        }
        let fault = self.failing.take().unwrap_or_default();
        self.log.note(&format!(
            "restarts the agent and plays its deal again: {fault}"
        ));
        (self.crashed, self.restarted) = (false, true);
        true
    }
    fn fault(&mut self) -> Option<String> {
        let fault = self.failing.take()?;
        let again = std::mem::take(&mut self.restarted);
        self.crashed = false;
        Some(if again {
            format!("{fault} (it had ended once before in this deal and was restarted)")
        } else {
            fault
        })
    }
}
