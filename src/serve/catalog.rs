//! What the home page offers: every game with its variants, seats and agents, and the files
//! (deal specifications, agents' files) and runs the server was given.

use super::files::Files;
use crate::games::GAMES;
use crate::generic_agents::catalogue::CATALOGUE;
use serde_json::{json, Value};

/// The catalogue as JSON.
pub fn catalog(files: &Files) -> Value {
    let common: Vec<&str> = CATALOGUE
        .iter()
        .map(|a| a.name)
        .filter(|&n| n != "exec")
        .collect();
    let games: Vec<Value> = GAMES
        .iter()
        .map(|g| {
            let variants: Vec<Value> = g
                .variants
                .iter()
                .map(|&v| json!({ "name": v, "seats": g.seats_of(v) }))
                .collect();
            let own = g.agents.iter().map(|a| a.name);
            let agents: Vec<&str> = own.chain(common.iter().copied()).collect();
            json!({
                "name": g.name,
                "title": g.title,
                "unit": g.payout_unit,
                "variants": variants,
                "agents": agents,
            })
        })
        .collect();
    let shown = |ext: &str| -> Vec<String> {
        let found = files.with_extension(ext);
        found.iter().map(|p| p.display().to_string()).collect()
    };
    let runs: Vec<Value> = files
        .runs()
        .iter()
        .enumerate()
        .map(|(i, (shown, _))| json!({ "run": i, "path": shown.display().to_string() }))
        .collect();
    json!({
        "games": games,
        "paths": files.shown(),
        "deal_files": shown("toml"),
        "net_files": shown("safetensors"),
        "runs": runs,
    })
}
