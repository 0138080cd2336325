//! `bailab.VecEnv`: a batch of environments for reinforcement learning. In each, one learning
//! seat plays against agents (any spec, outside programs included); a step applies one
//! legal-action index per environment, lets the opponents play (in Rust, on worker threads, the GIL released) up to the learning
//! seat's next decision, and writes the views and legal-action masks straight into numpy arrays.
//! The typed loop is in [`batch`].

mod batch;

use crate::state::PyGame;
use bailab::game::Seat;
use bailab::games::with_game;
use batch::{ActionRows, Batch, BatchError, Config, MakeBatch, Report, Rows};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::sync::Mutex;

/// The learning seat's view tensors and legal-action masks, `(num_envs, tensor_size)` float32
/// and `(num_envs, max_actions)` bool.
type ObsMask<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>);

/// What `step` returns: views, masks, rewards, dones and the info dict.
type StepResult<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyDict>,
);

/// What a step reports beside the rows: rewards, dones and the info dict.
type Reported<'py> = (
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyDict>,
);

/// A batch of environments of one game: one learning seat against agents in each.
#[pyclass(module = "bailab", name = "VecEnv")]
pub struct PyVecEnv {
    /// The environments (locked only to satisfy `Sync`: methods take `&mut self`).
    batch: Mutex<Box<dyn Batch>>,
    game: Py<PyGame>,
    num_envs: usize,
    seed: u64,
    seat: Seat,
    threads: usize,
    tensor_size: usize,
    max_actions: usize,
    action_size: usize,
    /// The length of a network's action input (`bailab.net.input_sizes`).
    net_input_size: usize,
    /// Whether `reset` has dealt the environments.
    ready: bool,
}

/// The opponents' agent specs: a list of specs or one spec.
fn specs(opponents: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    match opponents {
        None => Ok(vec!["random".to_string()]),
        Some(o) if o.is_instance_of::<PyString>() => Ok(vec![o.extract()?]),
        Some(o) => o.extract(),
    }
}

/// The actions given to `step` as a contiguous int64 array of one index per environment.
fn indices<'py>(actions: &Bound<'py, PyAny>, num_envs: usize) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(array) = actions.downcast::<PyArray1<i64>>() {
        if array.is_c_contiguous() && array.len() == num_envs {
            return Ok(array.clone().into_any());
        }
    }
    let np = actions.py().import("numpy")?;
    let array = np.call_method1("asarray", (actions,))?;
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    if shape != [num_envs] {
        return Err(PyValueError::new_err(format!(
            "actions: one legal-action index per env, shape ({num_envs},), not {shape:?}"
        )));
    }
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "actions: legal-action indices are integers, not {dtype}"
        )));
    }
    np.call_method1("ascontiguousarray", (array, "int64"))
}

impl PyVecEnv {
    /// Fresh arrays for the views and masks.
    fn rows<'py>(&self, py: Python<'py>) -> ObsMask<'py> {
        let n = self.num_envs;
        (
            PyArray2::zeros(py, [n, self.tensor_size], false),
            PyArray2::zeros(py, [n, self.max_actions], false),
        )
    }

    /// The environments.
    fn batch(&mut self) -> &mut dyn Batch {
        &mut **self.batch.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    /// The games finished and skipped since the reset.
    fn totals(&self) -> (u64, u64) {
        self.batch
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .totals()
    }

    /// Writes a row of `kind` (`width` long) per legal action into `out` (or a new array).
    fn action_rows<'py>(
        &mut self,
        py: Python<'py>,
        kind: ActionRows,
        width: usize,
        out: Option<Bound<'py, PyArray3<f32>>>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        self.check_ready()?;
        let shape = [self.num_envs, self.max_actions, width];
        let out = match out {
            Some(out) if out.shape() != shape || !out.is_c_contiguous() => {
                return Err(PyValueError::new_err(format!(
                    "out: a C-contiguous float32 array of shape {shape:?}, not {:?}",
                    out.shape()
                )))
            }
            Some(out) => out,
            None => PyArray3::zeros(py, shape, false),
        };
        {
            let mut rw =
                (out.try_readwrite()).map_err(|e| PyValueError::new_err(format!("out: {e}")))?;
            let slice = rw.as_slice_mut()?;
            let batch = self.batch();
            py.allow_threads(|| batch.action_rows(kind, slice));
        }
        Ok(out)
    }

    /// The error of a call that needs the environments dealt.
    fn check_ready(&self) -> PyResult<()> {
        if self.ready {
            Ok(())
        } else {
            Err(PyRuntimeError::new_err("call reset() first"))
        }
    }

    /// The rewards, dones and info of the last step.
    fn report<'py>(&mut self, py: Python<'py>) -> PyResult<Reported<'py>> {
        let n = self.num_envs;
        let rewards = PyArray1::<f32>::zeros(py, n, false);
        let dones = PyArray1::<bool>::zeros(py, n, false);
        let ints: [_; 3] = std::array::from_fn(|_| PyArray1::<i64>::zeros(py, n, false));
        let skipped_reward = PyArray1::<f32>::zeros(py, n, false);
        {
            let (mut r, mut d, mut s) = (
                rewards.readwrite(),
                dones.readwrite(),
                skipped_reward.readwrite(),
            );
            let mut i = ints.each_ref().map(|a| a.readwrite());
            let [deal, finished_deal, skipped] = i.each_mut();
            self.batch().report(Report {
                rewards: r.as_slice_mut()?,
                dones: d.as_slice_mut()?,
                deal: deal.as_slice_mut()?,
                finished_deal: finished_deal.as_slice_mut()?,
                skipped: skipped.as_slice_mut()?,
                skipped_reward: s.as_slice_mut()?,
            });
        }
        let (finished, skipped_total) = self.batch().totals();
        let info = PyDict::new(py);
        let [deal, finished_deal, skipped] = ints;
        info.set_item("deal", deal)?;
        info.set_item("finished_deal", finished_deal)?;
        info.set_item("skipped", skipped)?;
        info.set_item("skipped_reward", skipped_reward)?;
        info.set_item("games_finished", finished)?;
        info.set_item("games_skipped", skipped_total)?;
        Ok((rewards, dones, info))
    }
}

#[pymethods]
impl PyVecEnv {
    /// `num_envs` environments of `game` (a `bailab.Game`) for master seed `seed`: in each, seat
    /// `seat` learns and the other seats, in seat order, are played by the agent specs of
    /// `opponents` in turn (any spec `bailab run` takes; a bad one raises `ValueError` with its
    /// message). An outside program (`exec:COMMAND`, run in the current folder) starts one
    /// process per environment and is sent every game's start and end as in a run; if it fails,
    /// the step that ends that deal raises `RuntimeError` naming it, and `reset` is needed.
    /// Environment `i` plays deals `i, i + num_envs, …`, each as `game.deal(seed, index)`.
    /// `threads` (default: every core) steps the environments in parallel; the games do not
    /// depend on it.
    #[new]
    #[pyo3(signature = (game, num_envs, seed, opponents=None, seat=0, threads=None))]
    fn new(
        game: Bound<'_, PyGame>,
        num_envs: usize,
        seed: u64,
        opponents: Option<&Bound<'_, PyAny>>,
        seat: Seat,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs: at least 1"));
        }
        let threads = threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        if threads == 0 {
            return Err(PyValueError::new_err("threads: at least 1"));
        }
        let engine = &game.get().engine;
        let config = Config {
            num_envs,
            seed,
            seat,
            opponents: specs(opponents)?,
            threads,
        };
        let make = MakeBatch { engine, config };
        let batch = with_game(engine.describe().0, make).map_err(BatchError::from)??;
        let size =
            |layout: Vec<bailab::games::observe::Segment>| layout.iter().map(|s| s.len).sum();
        Ok(PyVecEnv {
            batch: Mutex::new(batch),
            num_envs,
            seed,
            seat,
            threads,
            tensor_size: size(engine.tensor_layout()),
            max_actions: engine.max_actions(),
            action_size: size(engine.action_layout()),
            net_input_size: size(engine.action_layout()) + engine.feature_names().len(),
            game: game.unbind(),
            ready: false,
        })
    }

    /// Deals every environment's first deal (of master seed `seed` if given, else the seed in
    /// force) with fresh opponents and plays them to the learning seat's first decision.
    /// Returns `(obs, mask)`: float32 `(num_envs, tensor_size)`, bool `(num_envs, max_actions)`.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<ObsMask<'py>> {
        let (obs, mask) = self.rows(py);
        {
            let (mut o, mut m) = (obs.readwrite(), mask.readwrite());
            let rows = Rows {
                obs: o.as_slice_mut()?,
                mask: m.as_slice_mut()?,
            };
            self.ready = false;
            let batch = self.batch();
            py.allow_threads(|| batch.reset(seed, rows))?;
        }
        self.seed = seed.unwrap_or(self.seed);
        self.ready = true;
        Ok((obs, mask))
    }

    /// Applies one legal-action index per environment (an int array or list), lets the
    /// opponents play to the learning seat's next decision, and deals the next deal where a
    /// game ends. Returns `(obs, mask, rewards, dones, info)`: a game that ended gives the
    /// learning seat's payout as reward and `done`, and `obs`/`mask` are then the next game's.
    /// `info` holds arrays `deal`, `finished_deal` (-1 if none), `skipped` and `skipped_reward`
    /// (deals the opponents ended before the learning seat decided, since the last step) and
    /// the totals `games_finished` and `games_skipped` since the reset. An index out of range
    /// raises `IndexError` naming the env (and no env moves).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepResult<'py>> {
        self.check_ready()?;
        let actions = indices(actions, self.num_envs)?;
        let actions = actions.downcast::<PyArray1<i64>>()?.readonly();
        let actions = actions.as_slice()?;
        self.batch().check(actions)?;
        let (obs, mask) = self.rows(py);
        {
            let (mut o, mut m) = (obs.readwrite(), mask.readwrite());
            let rows = Rows {
                obs: o.as_slice_mut()?,
                mask: m.as_slice_mut()?,
            };
            let batch = self.batch();
            let stepped = py.allow_threads(|| batch.step(actions, rows));
            // an environment that failed is left mid-step: the batch is dealt again first
            self.ready &= stepped.is_ok();
            stepped?;
        }
        let (rewards, dones, info) = self.report(py)?;
        Ok((obs, mask, rewards, dones, info))
    }

    /// The vector of each legal action of the learning seat in every environment, float32
    /// `(num_envs, max_actions, action_size)`, zeros beyond the legal ones (row `k` is the
    /// action of index `k`). Given `out` (such an array, C-contiguous), writes into it and
    /// returns it, allocating nothing.
    #[pyo3(signature = (out=None))]
    fn action_features<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<Bound<'py, PyArray3<f32>>>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        self.action_rows(py, ActionRows::Vectors, self.action_size, out)
    }

    /// What a `net:` network reads of each legal action of the learning seat in every
    /// environment (its action vector, then its squashed rule features, as
    /// `bailab.net.action_inputs(view)`), float32 `(num_envs, max_actions, net_input_size)`,
    /// zeros beyond the legal ones. Given `out`, writes into it and returns it.
    #[pyo3(signature = (out=None))]
    fn net_inputs<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<Bound<'py, PyArray3<f32>>>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        self.action_rows(py, ActionRows::NetInputs, self.net_input_size, out)
    }

    /// The game.
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<PyGame> {
        self.game.clone_ref(py)
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// The master seed of the deals.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The learning seat.
    #[getter]
    fn seat(&self) -> Seat {
        self.seat
    }

    /// The worker threads stepping the environments.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// The length of a view tensor (`obs.shape[1]`).
    #[getter]
    fn tensor_size(&self) -> usize {
        self.tensor_size
    }

    /// The size of the action space (`mask.shape[1]`).
    #[getter]
    fn max_actions(&self) -> usize {
        self.max_actions
    }

    /// The length of an action vector (`action_features().shape[2]`).
    #[getter]
    fn action_size(&self) -> usize {
        self.action_size
    }

    /// The length of a network's action input (`net_inputs`' last axis).
    #[getter]
    fn net_input_size(&self) -> usize {
        self.net_input_size
    }

    /// Games finished since the reset, skipped ones included.
    #[getter]
    fn games_finished(&self) -> u64 {
        self.totals().0
    }

    /// Games the opponents finished before the learning seat decided, since the reset.
    #[getter]
    fn games_skipped(&self) -> u64 {
        self.totals().1
    }

    fn __len__(&self) -> usize {
        self.num_envs
    }

    fn __repr__(&self) -> String {
        let (name, variant, players) = self.game.get().engine.describe();
        format!(
            "VecEnv('{name}', variant='{variant}', players={players}, num_envs={}, seat={}, \
             threads={})",
            self.num_envs, self.seat, self.threads
        )
    }
}
