//! `bailab.View`: what one seat may see of a state. It holds a [`Seen`], the engines' view that
//! owns a copy of the state but reads it as the seat's view only, so nothing reachable from it
//! reveals another seat's hidden cards.

use crate::engine::Engine;
use crate::json::from_json;
use crate::seen::Seen;
use crate::state::{actions, PyAction, PyState};
use bailab::game::Seat;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use std::sync::{Arc, Mutex, MutexGuard};

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
