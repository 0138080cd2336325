//! `bailab._run`: an experiment through the runner of `bailab run` (seeds, rotation, paired
//! statistics, checkpoints), with Python callables in any seats. The Python function
//! `bailab.run` wraps it and reads the results into DataFrames.

use crate::agent::PyHost;
use crate::engine::{build_engine, Engine};
use bailab::agent::host::Host;
use bailab::games::kind::GameKind;
use bailab::games::{with_game, GameVisitor};
use bailab::generic_agents::catalogue::make_agent;
use bailab::sim::run::checkpoint::{read_checkpoint, Stopped};
use bailab::sim::run::experiment::{project_dir, Experiment, Runtime};
use bailab::sim::run::experiment_error::ExperimentError;
use bailab::sim::run::runner::{resume_run, run_experiment, AgentFailed, RunOptions};
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Whether `name` is an agent the game `G` knows (a Python agent may not take its name).
struct Known<'a>(&'a str);

impl GameVisitor for Known<'_> {
    type Output = bool;
    fn visit<G: GameKind>(self) -> bool {
        make_agent::<G>(self.0).is_ok()
    }
}

/// The game an experiment's text names, built, if the text reads as an experiment at all
/// (otherwise the full check reports what is wrong).
fn engine_of(exp: &Experiment) -> Option<Arc<dyn Engine>> {
    let variant = if exp.variant.is_empty() {
        bailab::games::game_info(&exp.game).ok()?.variants[0]
    } else {
        &exp.variant
    };
    build_engine(&exp.game, variant, exp.agents.len(), &exp.rules).ok()
}

/// The Python agents, checked against the game: callables under names no built-in agent has.
fn python_agents(
    py: Python<'_>,
    game: &str,
    agents: &Bound<'_, PyDict>,
) -> PyResult<HashMap<String, Py<PyAny>>> {
    let mut out = HashMap::new();
    for (name, call) in agents.iter() {
        let name: String = name.extract().map_err(|_| {
            PyValueError::new_err("agents: the keys are the names the experiment seats")
        })?;
        if !call.is_callable() {
            return Err(PyValueError::new_err(format!(
                "agents: '{name}' is not callable (a function of (view, seed) that returns an \
                 index into view.legal_actions())"
            )));
        }
        if with_game(game, Known(&name)).unwrap_or(false) {
            return Err(PyValueError::new_err(format!(
                "agents: '{name}' is the name of a built-in agent of {game}; give your agent \
                 another name"
            )));
        }
        out.insert(name, call.clone().unbind());
    }
    let _ = py;
    Ok(out)
}

/// The host of the Python agents (none without agents).
fn host(engine: Option<Arc<dyn Engine>>, agents: HashMap<String, Py<PyAny>>) -> Host {
    match engine {
        Some(engine) if !agents.is_empty() => Host(Some(Arc::new(PyHost { engine, agents }))),
        _ => Host::default(),
    }
}

/// The experiment to run (from `text`, whose origin is `origin` and agent files are read from
/// `project`) and the runtime it runs in, with its Python agents.
fn experiment(
    py: Python<'_>,
    (text, origin, project): (&str, &str, Option<PathBuf>),
    agents: &Bound<'_, PyDict>,
) -> PyResult<(Experiment, Runtime)> {
    let raw: Option<Experiment> = toml::from_str(text).ok();
    let game = raw.as_ref().map_or("", |e| e.game.as_str());
    let callables = python_agents(py, game, agents)?;
    let names: Vec<String> = callables.keys().cloned().collect();
    let runtime = Runtime {
        project,
        host: host(raw.as_ref().and_then(engine_of), callables),
    };
    let exp = Experiment::parse_in(text, origin, &runtime).map_err(|e| experiment_error(&e))?;
    if let Some(name) = names.iter().find(|n| !exp.agents.contains(n)) {
        return Err(PyValueError::new_err(format!(
            "agents: '{name}' is not seated: the experiment's agents are {:?}",
            exp.agents
        )));
    }
    Ok((exp, runtime))
}

/// Runs `job` on a thread of its own while this (Python's) thread watches for Ctrl-C, which
/// sets `stop`; returns the job's result and whether it was interrupted.
fn watched<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    job: impl FnOnce() -> T + Send,
) -> (T, bool) {
    let mut interrupted = false;
    let result = py.allow_threads(|| {
        std::thread::scope(|scope| {
            let handle = scope.spawn(job);
            while !handle.is_finished() {
                std::thread::sleep(Duration::from_millis(50));
                if !interrupted && Python::with_gil(|py| py.check_signals()).is_err() {
                    interrupted = true;
                    stop.store(true, Ordering::SeqCst);
                }
            }
            handle.join().expect("the run does not panic")
        })
    });
    (result, interrupted)
}

/// Runs an experiment (TOML `text`, or the file `path`) into `output`, or resumes the stopped
/// run in `resume`, with the Python agents `agents` (name → callable). Returns the output
/// folder, the games played and the seconds taken.
#[pyfunction]
#[pyo3(signature = (text, path, agents, threads=None, output=None, resume=None, games=true, records=false, force=false))]
#[allow(clippy::too_many_arguments)]
pub fn _run(
    py: Python<'_>,
    text: Option<&str>,
    path: Option<PathBuf>,
    agents: &Bound<'_, PyDict>,
    threads: Option<usize>,
    output: Option<PathBuf>,
    resume: Option<PathBuf>,
    games: bool,
    records: bool,
    force: bool,
) -> PyResult<(PathBuf, u64, f64)> {
    let stop = Arc::new(AtomicBool::new(false));
    let mut opts = RunOptions {
        threads,
        quiet: true,
        output,
        games_csv: games,
        records,
        force,
        stop: Some(Arc::clone(&stop)),
        ..RunOptions::default()
    };
    let (result, interrupted) = match resume {
        Some(dir) => {
            let ck = read_checkpoint(&dir).map_err(|e| PyValueError::new_err(e.to_string()))?;
            let callables = python_agents(py, &ck.experiment.game, agents)?;
            opts.runtime.host = host(engine_of(&ck.experiment), callables);
            watched(py, &stop, || resume_run(&dir, &opts))
        }
        None => {
            let (exp, runtime) = match (text, &path) {
                (Some(t), _) => experiment(py, (t, "the experiment", None), agents)?,
                (None, Some(p)) => {
                    let t = std::fs::read_to_string(p)
                        .map_err(|e| PyValueError::new_err(format!("{}: {e}", p.display())))?;
                    let origin = p.display().to_string();
                    experiment(py, (&t, &origin, Some(project_dir(p))), agents)?
                }
                (None, None) => return Err(PyValueError::new_err("no experiment given")),
            };
            opts.runtime = runtime;
            watched(py, &stop, || run_experiment(&exp, &opts))
        }
    };
    match result {
        Ok(report) => Ok((report.dir, report.games, report.elapsed)),
        Err(e) => Err(match e.downcast_ref::<Stopped>() {
            Some(s) if interrupted => PyKeyboardInterrupt::new_err(format!(
                "{s}; resume with bailab.run(..., resume=\"{}\")",
                s.dir.display()
            )),
            // a Python agent's run resumes in Python (the command line cannot load it)
            _ => match e.downcast_ref::<AgentFailed>() {
                Some(f) => PyRuntimeError::new_err(f.describe(&format!(
                    "bailab.run(resume=\"{}\", agents=...) with the same agents",
                    f.dir.display()
                ))),
                None => PyRuntimeError::new_err(format!("{e:#}")),
            },
        }),
    }
}

/// A dict as TOML text (an experiment or a deal specification given as a dict).
#[pyfunction]
pub fn _toml(table: &Bound<'_, PyDict>) -> PyResult<String> {
    let value = crate::json::to_json(table.as_any())?;
    toml::to_string(&value).map_err(|e| PyValueError::new_err(format!("not a TOML table: {e}")))
}

/// The Python exception of an experiment that cannot be read, by the kind of error: the file
/// unreadable is an `OSError`, a text the caller wrote wrong a `ValueError`.
pub fn experiment_error(error: &ExperimentError) -> PyErr {
    match error {
        ExperimentError::Read { .. } => PyOSError::new_err(error.to_string()),
        ExperimentError::TooLarge { .. }
        | ExperimentError::Syntax(_)
        | ExperimentError::Number { .. }
        | ExperimentError::Check { .. } => PyValueError::new_err(error.to_string()),
    }
}
