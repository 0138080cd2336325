//! Agents across the language boundary: `bailab.Agent` (any agent the command line takes, asked
//! from Python) and [`CallAgent`] (a Python callable seated at a Rust table, through the run's
//! [`PyHost`]).

use crate::engine::{python_rng, Engine, EngineError, GameEngine, Seen, SeenBy};
use crate::state::PyView;
use bailab::agent::host::AgentHost;
use bailab::agent::{Agent, AgentError, Failing, HostError};
use bailab::game::{ActionBuffer, GameState, SeatView};
use bailab::games::kind::GameKind;
use bailab::games::{with_game, GameVisitor, GAMES};
use bailab::generic_agents::catalogue::make_agent;
use bailab::rng::GameRng;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::RngCore;
use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Built agents of one spec, by game, ready to be lent to a decision.
type Pool = HashMap<&'static str, Vec<Box<dyn Any + Send>>>;

/// An agent of bailab (`greedy`, `ismcts:iters=1000`, `rules:PATH`…), asked from Python.
#[pyclass(module = "bailab", name = "Agent", frozen)]
pub struct PyAgent {
    spec: String,
    pool: Mutex<Pool>,
}

/// Builds an agent spec for the game `G`, as `Box<dyn Agent<G::State>>` in a `Box<dyn Any>`.
struct Make<'a>(&'a str);

impl GameVisitor for Make<'_> {
    type Output = Result<Box<dyn Any + Send>, AgentError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        let agent = make_agent::<G>(self.0)?;
        Ok(Box::new(agent))
    }
}

/// Why `Agent.act` cannot answer a view (`ValueError` in Python, whatever the kind).
#[derive(Debug, thiserror::Error)]
enum ActError {
    /// The view is of another game than the one its engine plays.
    #[error("a view of another game")]
    AnotherGame,
    /// The view's seat has no decision to make.
    #[error("seat {0} is not the one to decide in this view")]
    NotToDecide(u8),
    /// The agent cannot be built for the view's game.
    #[error(transparent)]
    Agent(#[from] AgentError),
}

impl From<ActError> for PyErr {
    fn from(error: ActError) -> PyErr {
        match error {
            ActError::Agent(e) => agent_error(&e),
            ActError::AnotherGame | ActError::NotToDecide(_) => {
                PyValueError::new_err(error.to_string())
            }
        }
    }
}

/// Asks an agent of game `G` (taken from the pool, or built) for the choice of a view.
struct Act<'a> {
    spec: &'a str,
    pool: &'a Mutex<Pool>,
    seen: &'a dyn Seen,
    seed: u64,
    py: Python<'a>,
}

impl GameVisitor for Act<'_> {
    type Output = Result<usize, ActError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        let seen = (self.seen.as_any().downcast_ref::<SeenBy<G>>()).ok_or(ActError::AnotherGame)?;
        let legal = seen.legal_actions();
        if legal.as_slice().is_empty() {
            return Err(ActError::NotToDecide(seen.seat()));
        }
        let lent = self
            .pool
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(G::INFO.name)
            .and_then(Vec::pop);
        let mut agent = match lent {
            Some(a) => a,
            None => Make(self.spec).visit::<G>()?,
        };
        let boxed = agent
            .downcast_mut::<Box<dyn Agent<G::State>>>()
            .expect("built for G");
        let (owned, seed) = (seen.owned.clone(), self.seed);
        let choice = self.py.allow_threads(move || {
            let mut legal = <G::State as GameState>::Actions::default();
            owned.legal_actions(&mut legal);
            boxed.act(&owned.view(), legal.as_slice(), &mut python_rng(seed))
        });
        let mut pool = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        pool.entry(G::INFO.name).or_default().push(agent);
        Ok(choice)
    }
}

#[pymethods]
impl PyAgent {
    /// Builds the agent of a spec the command line takes (`bailab agents` lists them); a bad
    /// spec raises `ValueError` with the command line's message: the first game's error that is
    /// not "unknown agent" (the spec names an agent of some game), else the first game's.
    #[new]
    fn new(spec: &str) -> PyResult<Self> {
        let mut errors = Vec::new();
        let mut pool = Pool::new();
        for info in GAMES {
            match with_game(info.name, Make(spec)).expect("a game of the registry") {
                Ok(agent) => pool.entry(info.name).or_default().push(agent),
                Err(e) => errors.push(e),
            }
        }
        if pool.is_empty() {
            let error = errors
                .iter()
                .find(|e| !matches!(e, AgentError::UnknownAgent { .. }))
                .unwrap_or(&errors[0]);
            return Err(agent_error(error));
        }
        Ok(PyAgent {
            spec: spec.to_string(),
            pool: Mutex::new(pool),
        })
    }

    /// The spec.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The index (in `view.legal_actions()`) of the agent's choice for the view of the seat
    /// to decide; its randomness comes from `seed` (the same seed, the same choice).
    #[pyo3(signature = (view, seed=0))]
    fn act(&self, py: Python<'_>, view: &PyView, seed: u64) -> PyResult<usize> {
        let seen = view.seen();
        let act = Act {
            spec: &self.spec,
            pool: &self.pool,
            seen: &**seen,
            seed,
            py,
        };
        let chosen = with_game(view.game_name(), act).map_err(EngineError::from)?;
        Ok(chosen?)
    }

    /// `agent(view, seed)` is `agent.act(view, seed)`: an `Agent` is a Python agent too.
    #[pyo3(signature = (view, seed=0))]
    fn __call__(&self, py: Python<'_>, view: &PyView, seed: u64) -> PyResult<usize> {
        self.act(py, view, seed)
    }

    fn __repr__(&self) -> String {
        format!("Agent('{}')", self.spec)
    }
}

/// The Python exception of an agent that cannot be built, by the kind of error: a spec the
/// caller wrote wrong (every kind today) is a `ValueError`.
pub fn agent_error(error: &AgentError) -> PyErr {
    match error.root() {
        AgentError::Spec { .. }
        | AgentError::UnknownAgent { .. }
        | AgentError::NotForGame { .. }
        | AgentError::NoBareValue { .. }
        | AgentError::NotKeyValueNorFile { .. }
        | AgentError::UnknownParam { .. }
        | AgentError::NotANumber { .. }
        | AgentError::OutOfRange { .. }
        | AgentError::NotAChoice { .. }
        | AgentError::Params(_)
        | AgentError::Rules(_)
        | AgentError::Weights(_)
        | AgentError::Net(_)
        | AgentError::Exec(_)
        | AgentError::Host(_)
        | AgentError::Game(_)
        | AgentError::Seat { .. } => PyValueError::new_err(error.to_string()),
    }
}

/// The Python agents of a run, by name, and the game they play.
pub struct PyHost {
    /// The run's game.
    pub engine: Arc<dyn Engine>,
    /// The callables, by the name the experiment seats them under.
    pub agents: HashMap<String, Py<PyAny>>,
}

impl AgentHost for PyHost {
    fn has(&self, name: &str) -> bool {
        self.agents.contains_key(name)
    }
    fn build(&self, game: &'static str, name: &str) -> Result<Box<dyn Any>, HostError> {
        let call = self.agents.get(name).ok_or_else(|| HostError::Unknown {
            host: "Python",
            name: name.to_string(),
        })?;
        let call = Python::with_gil(|py| call.clone_ref(py));
        let seat = Seat {
            engine: &self.engine,
            name,
            call,
        };
        with_game(game, seat).expect("a game of the registry")
    }
}

/// Seats a Python callable at a table of game `G`.
struct Seat<'a> {
    engine: &'a Arc<dyn Engine>,
    name: &'a str,
    call: Py<PyAny>,
}

impl GameVisitor for Seat<'_> {
    type Output = Result<Box<dyn Any>, HostError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        let engine = (self.engine.as_any().downcast_ref::<GameEngine<G>>())
            .ok_or(HostError::RunsAnotherGame)?;
        let agent: Box<dyn Agent<G::State>> = Box::new(CallAgent {
            game: Arc::clone(&engine.game),
            engine: Arc::clone(self.engine),
            call: self.call,
            failing: Failing::new(format!("the Python agent '{}'", self.name)),
        });
        Ok(Box::new(agent))
    }
}

/// Why a Python callable failed a decision (the text completes "the Python agent '…' at seat
/// 0, …").
#[derive(Debug, thiserror::Error)]
enum CallError {
    /// It answered an index past the legal actions.
    #[error("answered {answer}, but the seat has {legal} legal actions (0 to {})", legal - 1)]
    NoSuchAction {
        /// The index it answered.
        answer: usize,
        /// How many legal actions the seat has.
        legal: usize,
    },
    /// It raised an exception, or answered something that is not an index.
    #[error("raised {0}")]
    Raised(PyErr),
}

/// A Python callable seated at a Rust table: asked `call(view, seed)` at each decision, it
/// answers an index into `view.legal_actions()`. An exception or a bad answer is a fault
/// ([`Agent::fault`]) that stops the run.
pub struct CallAgent<G: GameKind> {
    game: Arc<G>,
    engine: Arc<dyn Engine>,
    call: Py<PyAny>,
    failing: Failing,
}

impl<G: GameKind + Send + Sync> CallAgent<G> {
    /// Asks the callable; the error says what went wrong.
    fn ask(
        &self,
        view: &<G::State as GameState>::View<'_>,
        legal: usize,
        seed: u64,
    ) -> Result<usize, CallError> {
        let seen = SeenBy {
            game: Arc::clone(&self.game),
            owned: view.owned(),
        };
        let answer = Python::with_gil(|py| -> PyResult<usize> {
            let view = Py::new(py, PyView::new(Box::new(seen), Arc::clone(&self.engine)))?;
            self.call.call1(py, (view, seed))?.extract::<usize>(py)
        });
        match answer {
            Ok(i) if i < legal => Ok(i),
            Ok(answer) => Err(CallError::NoSuchAction { answer, legal }),
            Err(e) => Err(CallError::Raised(e)),
        }
    }
}

impl<G: GameKind + Send + Sync> Agent<G::State> for CallAgent<G> {
    fn act(
        &mut self,
        view: &<G::State as GameState>::View<'_>,
        legal: &[<G::State as GameState>::Action],
        rng: &mut GameRng,
    ) -> usize {
        let seed = rng.next_u64();
        let mut failing = std::mem::take(&mut self.failing);
        let choice = failing.answer(view.seat(), || self.ask(view, legal.len(), seed));
        self.failing = failing;
        choice
    }
    fn fault(&mut self) -> Option<String> {
        self.failing.take()
    }
}
