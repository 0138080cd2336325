//! `bailab._bailab`: bailab's engines from Python (PyO3). The Python package `bailab` re-exports
//! it (`python/bailab/__init__.py`).
//!
//! - [`engine`]: every game made object-safe (`Engine`, `Table`, and `Seen`, one seat's view),
//!   reached through the registry.
//! - [`state`]: `Game`, `State`, `Action` and `View`, what one seat may see.
//! - [`agent`]: `Agent`, and Python callables seated at Rust tables.
//! - [`run`]: experiments through the runner, with Python agents.
//! - [`json`]: JSON values between Python and Rust.
//! - [`vecenv`]: `VecEnv`, a batch of environments for reinforcement learning.

mod agent;
mod engine;
mod json;
mod net;
mod run;
mod state;
mod vecenv;

use bailab::games::GAMES;
use pyo3::prelude::*;
use pyo3::types::PyDict;

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
    m.add_class::<state::PyGame>()?;
    m.add_class::<state::PyState>()?;
    m.add_class::<state::PyAction>()?;
    m.add_class::<state::PyView>()?;
    m.add_class::<agent::PyAgent>()?;
    m.add_class::<vecenv::PyVecEnv>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(net::net_q_values, m)?)?;
    m.add_function(wrap_pyfunction!(run::_run, m)?)?;
    m.add_function(wrap_pyfunction!(run::_toml, m)?)?;
    Ok(())
}
