//! `bailab.Game` (a built game), `bailab.State` (a game in progress), `bailab.Action` (one
//! legal action: its index and its notation) and `bailab.View` (what one seat may see of a
//! state). A state and a view make each other (`State.view`, `View.determinize`), so they live
//! together.
//!
//! A view holds a [`Seen`], the engines' view that owns a copy of the state but reads it as the
//! seat's view only, so nothing reachable from it reveals another seat's hidden cards.

use crate::engine::{build_engine, Engine, EngineError, Seen, Table};
use crate::json::{from_json, rule_map, to_json};
use bailab::game::Seat;
use bailab::games::game_info;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex, MutexGuard};

/// A game of bailab: a game's name, a variant, a number of players and rule options.
#[pyclass(module = "bailab", name = "Game", frozen)]
pub struct PyGame {
    /// The built game.
    pub engine: Arc<dyn Engine>,
}

/// A deal specification from Python: TOML text, a path to a TOML file, or a dict.
fn spec_text(spec: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = spec.extract::<String>() {
        return Ok(text);
    }
    if let Ok(path) = spec.extract::<std::path::PathBuf>() {
        return std::fs::read_to_string(&path)
            .map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())));
    }
    let value = to_json(spec)?;
    toml::to_string(&value).map_err(|e| PyValueError::new_err(format!("deal specification: {e}")))
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
        let info = game_info(name).map_err(EngineError::from)?;
        let variant = variant.unwrap_or(info.variants[0]);
        let rules = rule_map(rules)?;
        let engine = build_engine(name, variant, players, &rules)?;
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

    /// The length of `view.tensor()`.
    #[getter]
    fn tensor_size(&self) -> usize {
        self.engine.tensor_layout().iter().map(|s| s.len).sum()
    }

    /// The length of each row of `view.action_features()`.
    #[getter]
    fn action_size(&self) -> usize {
        self.engine.action_layout().iter().map(|s| s.len).sum()
    }

    /// The most legal actions a decision can have (the size of a fixed action space).
    #[getter]
    fn max_actions(&self) -> usize {
        self.engine.max_actions()
    }

    /// The table's payout scale: `bailab train` fits payouts divided by it (a network's
    /// `payout_scale`).
    #[getter]
    fn payout_scale(&self) -> f64 {
        self.engine.payout_scale()
    }

    /// The segments of `view.tensor()` in order: `(name, length, what each entry holds)`.
    fn tensor_layout(&self) -> Vec<(&'static str, usize, &'static str)> {
        let layout = self.engine.tensor_layout();
        layout.iter().map(|s| (s.name, s.len, s.about)).collect()
    }

    /// The segments of a row of `view.action_features()`: `(name, length, what each holds)`.
    fn action_layout(&self) -> Vec<(&'static str, usize, &'static str)> {
        let layout = self.engine.action_layout();
        layout.iter().map(|s| (s.name, s.len, s.about)).collect()
    }

    /// The names of the columns of `view.feature_rows()` (the rule-learner's features).
    fn feature_names(&self) -> Vec<&'static str> {
        self.engine.feature_names()
    }

    /// Deals game `index` of master seed `seed`: the deal of `bailab play --seed S --index I`.
    #[pyo3(signature = (seed, index=0))]
    fn deal(&self, seed: u64, index: u64) -> PyState {
        PyState::new(self.engine.deal(seed, index), Arc::clone(&self.engine))
    }

    /// Deals a given deck (the spec's dealing order), as `bailab play --deck`; `setup` gives the
    /// record's setup facts (e.g. `{"first": 2}`), the defaults otherwise. A bad card or a wrong
    /// number of cards raises `ValueError` naming it.
    #[pyo3(signature = (deck, setup=None))]
    fn deal_from_deck(&self, deck: &str, setup: Option<&Bound<'_, PyDict>>) -> PyResult<PyState> {
        let setup = rule_map(setup)?;
        let table = self.engine.deal_from_deck(deck, &setup)?;
        Ok(PyState::new(table, Arc::clone(&self.engine)))
    }

    /// Deals deal `index` of seed `seed` from a deal specification (docs/deals-spec.md: TOML
    /// text, a path to a TOML file, or the same table as a dict), as `bailab play --deal FILE`.
    #[pyo3(signature = (spec, seed=0, index=0))]
    fn deal_partial(&self, spec: &Bound<'_, PyAny>, seed: u64, index: u64) -> PyResult<PyState> {
        let text = spec_text(spec)?;
        let table = self.engine.deal_partial(&text, seed, index)?;
        Ok(PyState::new(table, Arc::clone(&self.engine)))
    }

    fn __repr__(&self) -> String {
        let (name, variant, players) = self.engine.describe();
        format!("Game('{name}', variant='{variant}', players={players})")
    }
}

/// One legal action: its index in the legal list (what `State.apply` takes) and its notation.
#[pyclass(module = "bailab", name = "Action", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyAction {
    /// The index in the legal list.
    #[pyo3(get)]
    index: usize,
    /// The game's notation of the action.
    #[pyo3(get)]
    notation: String,
}

#[pymethods]
impl PyAction {
    fn __str__(&self) -> &str {
        &self.notation
    }
    fn __index__(&self) -> usize {
        self.index
    }
    fn __repr__(&self) -> String {
        format!("Action({}, '{}')", self.index, self.notation)
    }
}

/// Legal actions in notation as `Action` objects.
pub fn actions(legal: Vec<String>) -> Vec<PyAction> {
    legal
        .into_iter()
        .enumerate()
        .map(|(index, notation)| PyAction { index, notation })
        .collect()
}

/// A game in progress: whose move it is, the legal actions, and applying one.
#[pyclass(module = "bailab", name = "State")]
pub struct PyState {
    table: Mutex<Box<dyn Table>>,
    engine: Arc<dyn Engine>,
}

impl PyState {
    /// A state of `engine`'s game.
    pub fn new(table: Box<dyn Table>, engine: Arc<dyn Engine>) -> Self {
        PyState {
            table: Mutex::new(table),
            engine,
        }
    }
    /// The table, locked.
    pub fn table(&self) -> MutexGuard<'_, Box<dyn Table>> {
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

    /// The legal actions of the seat to decide, in the game's canonical order, as `Action`s
    /// (`str(a)` is the notation, `a.index` what `apply` takes); empty once the game is over.
    fn legal_actions(&self) -> Vec<PyAction> {
        actions(self.table().legal())
    }

    /// Applies the legal action of index `action` (an int or an `Action`), then every forced
    /// move that follows. An index out of range raises `IndexError`.
    fn apply(&mut self, action: usize) -> PyResult<()> {
        Ok(self.table().apply(action)?)
    }

    /// A copy of this state.
    fn clone(&self) -> PyState {
        PyState::new(self.table().boxed(), Arc::clone(&self.engine))
    }

    /// Every seat's payout once the game is over (they sum to zero), else `None`.
    fn payouts(&self) -> Option<Vec<i64>> {
        self.table().payouts()
    }

    /// What seat `seat` may see now: its own hidden cards and the public information (a
    /// snapshot; it does not follow later moves). A seat outside the table raises `ValueError`.
    fn view(&self, seat: Seat) -> PyResult<PyView> {
        let players = self.engine.describe().2;
        if usize::from(seat) >= players {
            return Err(PyValueError::new_err(format!(
                "seat {seat} is not at the table: the seats are 0 to {}",
                players - 1
            )));
        }
        Ok(PyView::new(
            self.table().seen(seat),
            Arc::clone(&self.engine),
        ))
    }

    /// The finished game's record as JSON text, the format `bailab play --json` writes and
    /// `bailab check` replays; `agents` names the seats' agents (default `python` each).
    #[pyo3(signature = (agents=None))]
    fn record_json(&self, agents: Option<Vec<String>>) -> PyResult<String> {
        let agents = agents.unwrap_or_default();
        Ok(self.table().record(&agents)?)
    }
}

/// One seat's view of a state (a snapshot).
#[pyclass(module = "bailab", name = "View", frozen)]
pub struct PyView {
    seen: Mutex<Box<dyn Seen>>,
    engine: Arc<dyn Engine>,
}

impl PyView {
    /// A view of `engine`'s game.
    pub fn new(seen: Box<dyn Seen>, engine: Arc<dyn Engine>) -> Self {
        PyView {
            seen: Mutex::new(seen),
            engine,
        }
    }
    /// The name of the view's game.
    pub fn game_name(&self) -> &'static str {
        self.engine.describe().0
    }
    /// The seat's view, locked.
    pub fn seen(&self) -> MutexGuard<'_, Box<dyn Seen>> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl PyView {
    /// The seat whose view this is.
    #[getter]
    fn seat(&self) -> Seat {
        self.seen().seat()
    }

    /// Whether this seat is the one to decide.
    #[getter]
    fn to_move(&self) -> bool {
        self.seen().deciding()
    }

    /// The view as a dict (docs/observations.md): the seat, the phase, its own hand, every
    /// seat's public cards and counts.
    fn observation(&self, py: Python<'_>) -> PyResult<PyObject> {
        from_json(py, &self.seen().observation())
    }

    /// The view as a fixed-size float32 array (`game.tensor_layout()` names its segments).
    fn tensor<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let mut out = vec![0.0f32; self.engine.tensor_layout().iter().map(|s| s.len).sum()];
        self.seen().tensor(&mut out);
        out.into_pyarray(py)
    }

    /// The legal actions when this seat decides (else empty), as `State.legal_actions()`.
    fn legal_actions(&self) -> Vec<PyAction> {
        actions(self.seen().legal())
    }

    /// One float32 row per legal action (`game.action_layout()` names its segments): the cards
    /// each moves and its kind; shape `(len(legal_actions()), game.action_size)`.
    fn action_features<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        let width: usize = self.engine.action_layout().iter().map(|s| s.len).sum();
        let mut out = Vec::new();
        let rows = self.seen().action_vectors(&mut out);
        Array2::from_shape_vec((rows, width), out)
            .expect("one row of the layout's width per action")
            .into_pyarray(py)
    }

    /// The rule-learner's feature rows of the legal actions (columns `game.feature_names()`),
    /// int16, shape `(len(legal_actions()), len(game.feature_names()))`.
    fn feature_rows<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i16>> {
        let width = self.engine.feature_names().len();
        let rows = self.seen().feature_rows();
        let flat: Vec<i16> = rows
            .iter()
            .flat_map(|r| r[..width].iter().copied())
            .collect();
        Array2::from_shape_vec((rows.len(), width), flat)
            .expect("one row per action")
            .into_pyarray(py)
    }

    /// A whole state consistent with everything this seat sees: the cards it cannot see are
    /// resampled with the RNG of `seed` (the same seed, the same state). What search samples.
    fn determinize(&self, seed: u64) -> PyState {
        let table = self.seen().determinize(seed);
        PyState::new(table, Arc::clone(&self.engine))
    }

    fn __repr__(&self) -> String {
        let (name, variant, _) = self.engine.describe();
        format!("View({name} {variant}, seat {})", self.seen().seat())
    }
}
