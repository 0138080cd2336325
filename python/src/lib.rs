//! `bailab._bailab`: bailab's engines from Python (PyO3). The Python package `bailab` re-exports
//! it (`python/bailab/__init__.py`).
//!
//! A game is type-erased once, when it is built: [`Engine`] and [`Table`] are implemented for every
//! game of the registry by [`GameEngine`] and [`GameTable`], monomorphised through
//! [`with_game`], so Python reaches each game's own engine with no game named here.

use bailab::game::{ActionBuffer, Decision, GameId, GameState, RuleMap, Seat};
use bailab::games::kind::{check_players, GameKind};
use bailab::games::{game_info, with_game, GameVisitor, GAMES};
use bailab::rng::stream_rng;
use bailab::sim::match_deal_stream;
use bailab::sim::recorder::Recorder;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::{Arc, Mutex, MutexGuard};

/// A built game (variant, players, rules), whatever the game.
trait Engine: Send + Sync {
    /// Deals game `index` of master seed `seed`, exactly as `bailab play --seed S --index I`.
    fn deal(&self, seed: u64, index: u64) -> Box<dyn Table>;
    /// The game's name, variant and seats.
    fn describe(&self) -> (&'static str, &'static str, usize);
    /// The rule options in force, as a JSON object.
    fn rules(&self) -> RuleMap;
}

/// A game in progress, whatever the game.
trait Table: Send {
    /// The seat to decide, or `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;
    /// The legal actions of the seat to decide, in the game's notation and canonical order.
    fn legal(&self) -> Vec<String>;
    /// Applies the legal action of index `index` (then every forced move that follows).
    fn apply(&mut self, index: usize) -> Result<(), String>;
    /// A copy.
    fn boxed(&self) -> Box<dyn Table>;
    /// Every seat's payout, once the game is over.
    fn payouts(&self) -> Option<Vec<i64>>;
    /// The game's record (the JSON `bailab play --json` writes and `bailab check` reads).
    fn record(&self, agents: &[String]) -> Result<String, String>;
}

/// [`Engine`] for the game `G`.
struct GameEngine<G: GameKind> {
    game: Arc<G>,
}

/// [`Table`] for the game `G`: the deal, the decisions taken since, and the state now.
struct GameTable<G: GameKind> {
    game: Arc<G>,
    id: GameId,
    start: G::State,
    state: G::State,
    decisions: Vec<(Decision, <G::State as GameState>::Action)>,
}

impl<G: GameKind> Clone for GameTable<G> {
    fn clone(&self) -> Self {
        GameTable {
            game: Arc::clone(&self.game),
            id: self.id,
            start: self.start.clone(),
            state: self.state.clone(),
            decisions: self.decisions.clone(),
        }
    }
}

impl<G: GameKind + Send + Sync> Engine for GameEngine<G> {
    fn deal(&self, seed: u64, index: u64) -> Box<dyn Table> {
        let start = self
            .game
            .deal(&mut stream_rng(seed, index, match_deal_stream(0)));
        Box::new(GameTable {
            game: Arc::clone(&self.game),
            id: GameId {
                master: seed,
                deal: index,
                rotation: 0,
            },
            state: start.clone(),
            start,
            decisions: Vec::new(),
        })
    }
    fn describe(&self) -> (&'static str, &'static str, usize) {
        (G::INFO.name, self.game.variant(), self.game.seats())
    }
    fn rules(&self) -> RuleMap {
        self.game.rules()
    }
}

impl<G: GameKind + Send + Sync> GameTable<G> {
    fn legal_actions(&self) -> <G::State as GameState>::Actions {
        let mut out = <G::State as GameState>::Actions::default();
        if self.state.to_move().is_some() {
            self.state.legal_actions(&mut out);
        }
        out
    }
}

impl<G: GameKind + Send + Sync> Table for GameTable<G> {
    fn to_move(&self) -> Option<Seat> {
        self.state.to_move()
    }
    fn legal(&self) -> Vec<String> {
        let legal = self.legal_actions();
        legal.as_slice().iter().map(|a| a.to_string()).collect()
    }
    fn apply(&mut self, index: usize) -> Result<(), String> {
        let seat = self.state.to_move().ok_or("the game is over")?;
        let legal = self.legal_actions();
        let actions = legal.as_slice();
        let &action = actions.get(index).ok_or_else(|| {
            format!(
                "action index {index} out of range: seat {seat} has {} legal actions",
                actions.len()
            )
        })?;
        self.state.apply(action);
        let decision = Decision {
            seat,
            legal: actions.len(),
            chosen: index,
        };
        self.decisions.push((decision, action));
        Ok(())
    }
    fn boxed(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }
    fn payouts(&self) -> Option<Vec<i64>> {
        self.state.outcome().map(|o| o.payouts().to_vec())
    }
    fn record(&self, agents: &[String]) -> Result<String, String> {
        if self.state.to_move().is_some() {
            return Err("the game is not over: a record is of a finished game".into());
        }
        let mut recorder = Recorder::<G>::default();
        let mut state = self.start.clone();
        recorder.observe(&state, None);
        for &(decision, action) in &self.decisions {
            state.apply(action);
            recorder.observe(&state, Some((decision, action)));
        }
        let python = vec!["python".to_string(); self.game.seats()];
        let agents = if agents.is_empty() {
            &python[..]
        } else {
            agents
        };
        let record = recorder.finish(&self.game, &self.start, &state, agents, Some(self.id));
        serde_json::to_string(&record).map_err(|e| e.to_string())
    }
}

/// Builds a game by its name through the registry.
struct Build<'a> {
    variant: &'a str,
    players: usize,
    rules: &'a RuleMap,
}

impl GameVisitor for Build<'_> {
    type Output = Result<Arc<dyn Engine>, String>;
    fn visit<G: GameKind>(self) -> Self::Output {
        check_players(&G::INFO, self.players)?;
        let game = G::build(self.variant, self.players, self.rules)?;
        Ok(Arc::new(GameEngine {
            game: Arc::new(game),
        }))
    }
}

/// A JSON value of Python's: `None`, bool, int, float, str, list or dict with str keys.
fn to_json(value: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    use serde_json::Value;
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = value.extract::<bool>() {
        return Ok(Value::Bool(b));
    }
    if let Ok(i) = value.extract::<i64>() {
        return Ok(Value::from(i));
    }
    if let Ok(f) = value.extract::<f64>() {
        return Ok(Value::from(f));
    }
    if let Ok(s) = value.extract::<String>() {
        return Ok(Value::String(s));
    }
    if let Ok(list) = value.downcast::<PyList>() {
        return list
            .iter()
            .map(|v| to_json(&v))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    if let Ok(dict) = value.downcast::<PyDict>() {
        let mut map = serde_json::Map::new();
        for (k, v) in dict.iter() {
            map.insert(k.extract::<String>()?, to_json(&v)?);
        }
        return Ok(Value::Object(map));
    }
    Err(PyValueError::new_err(format!(
        "rules: {value} is not a JSON value (None, bool, int, float, str, list or dict)"
    )))
}

/// A game of bailab: a game's name, a variant, a number of players and rule options.
#[pyclass(module = "bailab", name = "Game", frozen)]
struct PyGame {
    engine: Arc<dyn Engine>,
}

#[pymethods]
impl PyGame {
    /// Builds a game; a bad name, variant, player count or rule option raises `ValueError` with
    /// the message `bailab run` gives for the same experiment.
    #[new]
    #[pyo3(signature = (name, variant=None, players=4, rules=None))]
    fn new(
        name: &str,
        variant: Option<&str>,
        players: usize,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let info = game_info(name).map_err(PyValueError::new_err)?;
        let variant = variant.unwrap_or(info.variants[0]);
        let rules = match rules {
            Some(d) => match to_json(d.as_any())? {
                serde_json::Value::Object(map) => map,
                _ => unreachable!("a dict reads as a JSON object"),
            },
            None => RuleMap::new(),
        };
        let build = Build {
            variant,
            players,
            rules: &rules,
        };
        let engine = with_game(name, build)
            .and_then(|e| e)
            .map_err(PyValueError::new_err)?;
        Ok(PyGame { engine })
    }

    /// The game's name (`tusac`, `chan`, `tienlen`).
    #[getter]
    fn name(&self) -> &'static str {
        self.engine.describe().0
    }

    /// The variant.
    #[getter]
    fn variant(&self) -> &'static str {
        self.engine.describe().1
    }

    /// The number of players.
    #[getter]
    fn players(&self) -> usize {
        self.engine.describe().2
    }

    /// The rule options in force, as JSON text (the map records store).
    fn rules_json(&self) -> String {
        serde_json::Value::Object(self.engine.rules()).to_string()
    }

    /// Deals game `index` of master seed `seed`: the deal of `bailab play --seed S --index I`.
    #[pyo3(signature = (seed, index=0))]
    fn deal(&self, seed: u64, index: u64) -> PyState {
        PyState::new(self.engine.deal(seed, index))
    }

    fn __repr__(&self) -> String {
        let (name, variant, players) = self.engine.describe();
        format!("Game('{name}', variant='{variant}', players={players})")
    }
}

/// A game in progress: whose move it is, the legal actions, and applying one.
#[pyclass(module = "bailab", name = "State")]
struct PyState {
    table: Mutex<Box<dyn Table>>,
}

impl PyState {
    fn new(table: Box<dyn Table>) -> Self {
        PyState {
            table: Mutex::new(table),
        }
    }
    fn table(&self) -> MutexGuard<'_, Box<dyn Table>> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl PyState {
    /// The seat to decide, or `None` once the game is over.
    #[getter]
    fn current_seat(&self) -> Option<Seat> {
        self.table().to_move()
    }

    /// Whether the game is over.
    #[getter]
    fn is_terminal(&self) -> bool {
        self.table().to_move().is_none()
    }

    /// The legal actions of the seat to decide, in the game's notation and canonical order (an
    /// action's index in this list is what `apply` takes); empty once the game is over.
    fn legal_actions(&self) -> Vec<String> {
        self.table().legal()
    }

    /// Applies the legal action of index `index`, then every forced move that follows.
    fn apply(&mut self, index: usize) -> PyResult<()> {
        self.table().apply(index).map_err(PyIndexError::new_err)
    }

    /// A copy of this state.
    fn clone(&self) -> PyState {
        PyState::new(self.table().boxed())
    }

    /// Every seat's payout once the game is over (they sum to zero), else `None`.
    fn payouts(&self) -> Option<Vec<i64>> {
        self.table().payouts()
    }

    /// The finished game's record as JSON text, the format `bailab play --json` writes and
    /// `bailab check` replays; `agents` names the seats' agents (default `python` each).
    #[pyo3(signature = (agents=None))]
    fn record_json(&self, agents: Option<Vec<String>>) -> PyResult<String> {
        let agents = agents.unwrap_or_default();
        self.table().record(&agents).map_err(PyValueError::new_err)
    }
}

/// Every game: name, title, variants, fewest and most seats, payout unit.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    GAMES
        .iter()
        .map(|g| {
            let d = PyDict::new(py);
            d.set_item("name", g.name)?;
            d.set_item("title", g.title)?;
            d.set_item("variants", g.variants.to_vec())?;
            d.set_item("seats", g.seats)?;
            d.set_item("payout_unit", g.payout_unit)?;
            Ok(d)
        })
        .collect()
}

/// The module `bailab._bailab`.
#[pymodule]
fn _bailab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    Ok(())
}
