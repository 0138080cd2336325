//! The hint shown beside each of the human's legal actions: the Q-value of the first `net:`
//! agent at the table for that action, or else each action's mean payout from a quick equity
//! sample (the seat's view determinized, greedy at every seat; [`crate::study::equity`]).

use super::error::ApiError;
use crate::agent::spec::AgentSpec;
use crate::game::{GameState, RuleMap, Seat};
use crate::games::kind::GameKind;
use crate::games::position::Position;
use crate::generic_agents::net::{game_for, load, NetPolicy, Sampling, Table};
use crate::rng::stream_rng;
use crate::study::equity::{estimate, EquityOptions, Source};
use serde_json::{json, Value};
use std::sync::Arc;

/// Samples of the equity hint (each plays every legal action out once).
const SAMPLES: u64 = 24;

/// The first `net:` spec among `specs`, whose network gives the hints.
fn net_spec(specs: &[String]) -> Option<&str> {
    specs
        .iter()
        .map(String::as_str)
        .find(|s| s.starts_with("net:"))
}

/// What the hints of a table with `specs` are.
pub fn source(specs: &[String]) -> String {
    match net_spec(specs) {
        Some(spec) => format!("{spec} Q-values"),
        None => format!("mean payout of {SAMPLES} greedy playouts (equity)"),
    }
}

/// The hint of every legal action of `seat` in `state`: `{source, values: [{index, label,
/// value}]}`; read only from `seat`'s view.
pub fn evaluate<G: GameKind>(
    game: &G,
    (state, seat): (G::State, Seat),
    legal: &[<G::State as GameState>::Action],
    specs: &[String],
    seed: u64,
) -> Result<Value, ApiError> {
    let values = match net_spec(specs) {
        Some(spec) => q_values(game, &state, seat, legal, spec)?,
        None => equity(game, state, seat, legal, seed)?,
    };
    let rows: Vec<Value> = legal
        .iter()
        .zip(values)
        .enumerate()
        .map(|(index, (a, v))| json!({ "index": index, "label": a.to_string(), "value": v }))
        .collect();
    Ok(json!({ "source": source(specs), "values": rows }))
}

/// The network's Q-value of every legal action.
fn q_values<G: GameKind>(
    game: &G,
    state: &G::State,
    seat: Seat,
    legal: &[<G::State as GameState>::Action],
    spec: &str,
) -> Result<Vec<f64>, ApiError> {
    let internal = |e: String| ApiError::Internal(format!("{spec}: {e}"));
    let parsed = AgentSpec::parse(spec).map_err(|e| internal(e.to_string()))?;
    let path = parsed.file().ok_or_else(|| internal("no file".into()))?;
    let shown = path.display().to_string();
    let file = load(path).map_err(|e| internal(e.to_string()))?;
    let rules = game.rules();
    let table = Table {
        variant: Some(game.variant()),
        rules: Some((&rules, game.seats())),
    };
    let net_game =
        game_for::<G>(&file.header, &shown, &table).map_err(|e| internal(e.to_string()))?;
    let mut policy = NetPolicy::new(net_game, Arc::clone(&file.net), Sampling::default());
    let mut rng = stream_rng(0, 0, 0);
    policy.observe(&state.view(seat), legal, &mut rng);
    Ok(policy
        .q_values(legal.len())
        .iter()
        .map(|&q| f64::from(q))
        .collect())
}

/// Every legal action's mean payout over a few determinizations of the seat's view.
fn equity<G: GameKind>(
    game: &G,
    state: G::State,
    seat: Seat,
    legal: &[<G::State as GameState>::Action],
    seed: u64,
) -> Result<Vec<f64>, ApiError> {
    let opts = EquityOptions {
        agents: vec!["greedy".to_string(); game.seats()],
        budget: SAMPLES,
        check_every: SAMPLES,
        seed,
        threads: 1,
        table: (game.variant().to_string(), game.rules() as RuleMap),
    };
    let source = Source::View(Position { seat, state });
    let report =
        estimate::<G>(&source, &opts, &()).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(legal
        .iter()
        .map(|a| {
            let label = a.to_string();
            let row = report.rows.iter().find(|r| r.action == label);
            row.map_or(f64::NAN, |r| r.mean_payout)
        })
        .collect())
}
