//! `exec:COMMAND`: an agent that is another program, in any language, speaking JSON Lines over
//! its standard input and output (docs/agent-protocol.md). Each worker thread starts its own
//! process at its first decision; every message it receives is what its seat may see.

use crate::agent::spec::AgentSpec;
use crate::agent::{number, Agent, AgentInfo, Failing, ParamInfo};
use crate::game::{GameState, RuleMap, SeatView};
use crate::games::kind::GameKind;
use crate::rng::GameRng;
use rand::RngCore;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The protocol version this side speaks.
pub const PROTOCOL: u32 = 1;

/// The stderr lines of an agent process kept for error messages.
const STDERR_LINES: usize = 8;

/// The catalogue entry of `exec`.
pub const EXEC_INFO: AgentInfo = AgentInfo {
    name: "exec",
    games: "all",
    about: "another program, in any language, speaking JSON Lines on stdin/stdout \
            (docs/agent-protocol.md): exec:COMMAND, e.g. exec:python3 my_agent.py; one process \
            per worker thread; a late, malformed or out-of-range reply or a crash stops the run \
            with a checkpoint",
    params: &[
        ParamInfo {
            name: "path",
            default: "",
            about: "the command line: a program and its arguments, split at spaces (no shell); \
                    a relative program or argument is found from the experiment's folder",
        },
        ParamInfo {
            name: "timeout_ms",
            default: "10000",
            about: "how long a reply may take, in milliseconds (1 to 3,600,000), the handshake included",
        },
    ],
};

/// An outside program seated at a table of game `G`.
pub struct ExecAgent<G: GameKind> {
    game: G,
    command: Vec<String>,
    cwd: Option<PathBuf>,
    timeout: Duration,
    process: Option<Process>,
    failing: Failing,
}

/// A running agent process: its input, its output lines and its last stderr lines.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_reader: std::thread::JoinHandle<()>,
}

/// Builds the `exec` agent of a spec for the game played with `rules` at `players` seats.
pub fn make_exec<G: GameKind>(
    spec: &AgentSpec,
    text: &str,
    table: Option<(&RuleMap, usize)>,
) -> Result<ExecAgent<G>, String> {
    let line = spec.get("path").unwrap_or_default();
    let command: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    if command.is_empty() {
        return Err("agent 'exec': give the command, e.g. exec:python3 my_agent.py".into());
    }
    let (rules, players) = table.ok_or_else(|| {
        "agent 'exec': this command does not seat outside programs yet (run and play do)"
            .to_string()
    })?;
    let variant = spec.variant.as_deref().unwrap_or(G::INFO.variants[0]);
    Ok(ExecAgent {
        game: G::build(variant, players, rules)?,
        command,
        cwd: spec.base.clone(),
        timeout: Duration::from_millis(number(spec, "timeout_ms", 10_000, (1, 3_600_000))?),
        process: None,
        failing: Failing::new(format!("the outside agent `{text}`")),
    })
}

/// The `decide` message of a decision: the deciding seat, a seed for the agent's randomness,
/// the seat's observation and the legal actions in the game's notation.
pub fn decide_message<G: GameKind>(
    game: &G,
    view: &<G::State as GameState>::View<'_>,
    legal: &[<G::State as GameState>::Action],
    seed: u64,
) -> Value {
    let legal: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    json!({
        "type": "decide", "seat": view.seat(), "seed": seed,
        "observation": game.observation(view), "legal": legal,
    })
}

impl<G: GameKind> ExecAgent<G> {
    /// Starts the process and shakes hands with it.
    fn start(&self) -> Result<Process, String> {
        let mut command = Command::new(&self.command[0]);
        command.args(&self.command[1..]);
        if let Some(dir) = &self.cwd {
            command.current_dir(dir);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start `{}`: {e}", self.command.join(" ")))?;
        let stdin = child.stdin.take().expect("piped");
        let (tx, lines) = channel();
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        std::thread::spawn(move || {
            for line in stdout.lines() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let kept = Arc::clone(&stderr);
        let errors = BufReader::new(child.stderr.take().expect("piped"));
        let stderr_reader = std::thread::spawn(move || {
            for line in errors.lines().map_while(Result::ok) {
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                if kept.len() == STDERR_LINES {
                    kept.pop_front();
                }
                kept.push_back(line);
            }
        });
        let mut process = Process {
            child,
            stdin,
            lines,
            stderr,
            stderr_reader,
        };
        let hello = json!({
            "type": "hello", "protocol": PROTOCOL, "game": G::INFO.name,
            "variant": self.game.variant(), "players": self.game.seats(),
            "rules": Value::Object(self.game.rules()),
        });
        let reply = process.ask(&hello, self.timeout)?;
        match reply.get("protocol").and_then(Value::as_u64) {
            Some(v) if v == u64::from(PROTOCOL) => Ok(process),
            _ => Err(format!(
                "the handshake's reply {reply} does not say {{\"protocol\": {PROTOCOL}}}"
            )),
        }
    }

    /// Asks the process for the choice of a decision.
    fn decide(
        &mut self,
        view: &<G::State as GameState>::View<'_>,
        legal: &[<G::State as GameState>::Action],
        seed: u64,
    ) -> Result<usize, String> {
        if self.process.is_none() {
            self.process = Some(self.start()?);
        }
        let message = decide_message(&self.game, view, legal, seed);
        let process = self.process.as_mut().expect("started");
        let reply = process.ask(&message, self.timeout)?;
        let index = reply.get("action").and_then(Value::as_u64);
        match index {
            Some(i) if (i as usize) < legal.len() => Ok(i as usize),
            Some(i) => Err(format!(
                "answered action {i}, but the seat has {} legal actions (0 to {})",
                legal.len(),
                legal.len() - 1
            )),
            None => Err(format!("answered {reply}, not {{\"action\": INDEX}}")),
        }
    }
}

impl Process {
    /// Sends one message and reads one JSON reply within `timeout`.
    fn ask(&mut self, message: &Value, timeout: Duration) -> Result<Value, String> {
        let sent = writeln!(self.stdin, "{message}").and_then(|_| self.stdin.flush());
        if sent.is_err() {
            return Err(self.ended());
        }
        match self.lines.recv_timeout(timeout) {
            Ok(Ok(line)) => serde_json::from_str(&line)
                .map_err(|e| format!("answered a line that is not JSON ({e}): {line:.200}")),
            Ok(Err(e)) => Err(format!("its output could not be read: {e}")),
            Err(RecvTimeoutError::Timeout) => {
                Err(format!("did not answer within {} ms", timeout.as_millis()))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.ended()),
        }
    }

    /// What became of a process that stopped answering: its exit status and last stderr lines.
    fn ended(&mut self) -> String {
        let status = (0..50)
            .find_map(|_| {
                let s = self.child.try_wait().ok().flatten();
                if s.is_none() {
                    std::thread::sleep(Duration::from_millis(10));
                }
                s
            })
            .map_or("still running".to_string(), |s| s.to_string());
        // The stderr reader ends once the process's stderr closes: wait for its last lines.
        for _ in 0..50 {
            if self.stderr_reader.is_finished() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let stderr = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let last: Vec<&str> = stderr.iter().map(String::as_str).collect();
        format!(
            "its process ended ({status}); its last stderr lines: {}",
            if last.is_empty() {
                "none".to_string()
            } else {
                last.join(" | ")
            }
        )
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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
        if failing.failed() {
            self.process = None;
        }
        self.failing = failing;
        choice
    }
    fn fault(&mut self) -> Option<String> {
        self.failing.take()
    }
}
