//! Outputs that describe themselves, through the real binary: every row of `summary.csv` names
//! the game, variant, players and payout unit, each agent row the seats the agent held and its
//! seat-games; `bailab merge` writes the same summary.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common;
use common::*;

type Row = BTreeMap<String, String>;

fn rows(path: &Path) -> Vec<Row> {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Runs `agents` for `deals` deals of `game` (rotated) and returns its summary rows.
fn run(s: &Scratch, name: &str, game: &str, agents: &[&str], deals: u64) -> Vec<Row> {
    let list: Vec<String> = agents.iter().map(|a| format!("\"{a}\"")).collect();
    let exp = s.write(
        &format!("{name}.toml"),
        &format!(
            "name = \"{name}\"\ngame = \"{game}\"\nagents = [{}]\ndeals = {deals}\nseed = 3\n\
             output = \"{name}\"\n",
            list.join(", ")
        ),
    );
    ok(&s.0, &["run", &exp, "-q"]);
    rows(&s.path(&format!("{name}/summary.csv")))
}

/// Checks the study columns of every row and the seats and seat-games of each agent row.
fn check(rows: &[Row], study: [&str; 4], seats: &[(&str, u64)], games: u64) {
    for r in rows {
        let got = [&r["game"], &r["variant"], &r["players"], &r["payout_unit"]];
        assert_eq!(got, study, "{r:?}");
    }
    let agents: Vec<&Row> = rows.iter().filter(|r| r["kind"] == "agent").collect();
    assert_eq!(agents.len(), seats.len());
    for (r, (name, held)) in agents.iter().zip(seats) {
        assert_eq!(&r["agent"], name);
        assert_eq!(r["seats"], held.to_string(), "{r:?}");
        assert_eq!(r["seat_games"], (held * games).to_string(), "{r:?}");
        assert!(!r.contains_key("games"), "seat-games are named seat_games");
    }
    let pair = rows.iter().find(|r| r["kind"] == "pair").unwrap();
    assert_eq!(
        (pair["seats"].as_str(), pair["seat_games"].as_str()),
        ("", "")
    );
}

#[test]
fn a_two_seat_tusac_summary_names_its_study() {
    let s = Scratch::new("csv-tusac");
    let rows = run(&s, "two", "tusac", &["greedy", "random"], 30);
    // 30 deals × 2 rotations = 60 games, one seat each
    check(
        &rows,
        ["tusac", "classic", "2", "points"],
        &[("greedy", 1), ("random", 1)],
        60,
    );
}

#[test]
fn a_tienlen_summary_counts_seats_and_merges_the_same() {
    let s = Scratch::new("csv-tienlen");
    let agents = ["greedy", "random", "random", "greedy"];
    let rows = run(&s, "tl", "tienlen", &agents, 20);
    // 20 deals × 4 rotations = 80 games; each agent holds two seats of every game
    check(
        &rows,
        ["tienlen", "south", "4", "half-cược"],
        &[("greedy", 2), ("random", 2)],
        80,
    );
    // shards merged: the same summary, byte for byte
    let exp = s.path("tl.toml");
    let exp = exp.to_str().unwrap();
    for k in ["0/2", "1/2"] {
        ok(&s.0, &["run", exp, "-q", "--shard", k]);
    }
    ok(
        &s.0,
        &[
            "merge",
            "tl/shard-0-of-2",
            "tl/shard-1-of-2",
            "--output",
            "merged",
            "-q",
        ],
    );
    assert_eq!(
        std::fs::read(s.path("merged/summary.csv")).unwrap(),
        std::fs::read(s.path("tl/summary.csv")).unwrap()
    );
}
