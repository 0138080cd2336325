//! Records of the multi-pack variants (sisepai21, dirtyking26; docs/records.md): `bailab play
//! --json` → `bailab check` passes, `bailab replay` of an experiment's deal gives the record
//! `bailab run` wrote, a tampered action, deck, setup or forced event fails `check` with a clear
//! error, `records.jsonl` checks, and `play --deck` replays a record's deck.

use bailab::record::Record;
use bailab::sim::recorder::check;
use bailab::sim::run::experiment::Experiment;
use bailab::sim::run::runner::{run_experiment, RunOptions};
use std::path::Path;
use std::process::Output;

use crate::common;
use common::{stderr, stdout, Scratch};

const VARIANTS: [&str; 2] = ["sisepai21", "dirtyking26"];

/// Runs bailab (file arguments are absolute paths, so any folder will do).
fn bailab(args: &[&str]) -> Output {
    common::bailab(&std::env::temp_dir(), args)
}

/// `bailab play --json` of `variant` with `players` seats, `agent` at every seat.
fn played(variant: &str, players: u8, seed: u64, agent: &str) -> Record {
    let (players, seed) = (players.to_string(), seed.to_string());
    let o = bailab(&[
        "play",
        "--variant",
        variant,
        "--players",
        &players,
        "--seed",
        &seed,
        "--agent",
        agent,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// `bailab check` of one record written to a file: (success, stdout).
fn cli_check(r: &Record, dir: &Path) -> (bool, String) {
    let file = dir.join("game.json");
    std::fs::write(&file, serde_json::to_string_pretty(r).unwrap()).unwrap();
    let o = bailab(&["check", file.to_str().unwrap()]);
    (o.status.success(), stdout(&o))
}

fn has_event(r: &Record, prefix: &str) -> bool {
    r.events.iter().any(|e| e.action.starts_with(prefix))
}

#[test]
fn played_games_check_through_the_cli_for_every_variant_and_seat_count() {
    let scratch = Scratch::new("play");
    let dir = scratch.0.clone();
    for variant in VARIANTS {
        for players in [2, 4, 6, 8] {
            for (seed, agent) in [(1, "greedy"), (2, "random")] {
                let r = played(variant, players, seed, agent);
                assert_eq!(r.variant, variant);
                assert_eq!(r.rules["players"], u64::from(players));
                assert_eq!(r.rules["decks"], u64::from(players.div_ceil(2).max(2)));
                assert_eq!(
                    r.deck.split(' ').count(),
                    112 * usize::from(players.div_ceil(2).max(2))
                );
                assert!(r.setup.contains_key("reshuffle_seed"));
                let (ok, out) = cli_check(&r, &dir);
                assert!(ok, "{variant} {players} players seed {seed}: {out}");
                assert!(out.contains(": ok"), "{out}");
            }
        }
    }
}

/// An experiment of `variant` at 4 players writing records.
fn experiment(variant: &str, agents: &str, deals: u64, seed: u64) -> (Experiment, String) {
    let toml = format!(
        "name = \"packs-records\"\ngame = \"tusac\"\nvariant = \"{variant}\"\nagents = {agents}\n\
         deals = {deals}\nseed = {seed}\nrotate = true\nrecords = true\n"
    );
    (Experiment::parse(&toml, "packs.toml").unwrap(), toml)
}

#[test]
fn run_records_check_and_replay_reproduces_each_game() {
    for variant in VARIANTS {
        let scratch = Scratch::new(&format!("run-{variant}"));
        let dir = scratch.0.clone();
        let agents = "[\"greedy\", \"random\", \"greedy\", \"random\"]";
        let (exp, toml) = experiment(variant, agents, 50, 11);
        let opts = RunOptions {
            threads: Some(2),
            quiet: true,
            output: Some(dir.clone()),
            ..RunOptions::default()
        };
        run_experiment(&exp, &opts).unwrap();
        let jsonl = dir.join("records.jsonl");
        let lines = std::fs::read_to_string(&jsonl).unwrap();
        let records: Vec<Record> = lines
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), 200);
        for (i, r) in records.iter().enumerate() {
            check(r).unwrap_or_else(|e| panic!("{variant} record {i}: {e}"));
        }
        let o = bailab(&["check", "--quiet", jsonl.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stdout(&o));
        assert!(stdout(&o).contains("200 records: 200 ok, 0 failed"));
        // claims, drawn Kings and face-down quads appear in these records
        assert!(records.iter().any(|r| has_event(r, "face_down")));
        assert!(records.iter().any(|r| has_event(r, "discard_drawn ")));
        assert!(records.iter().any(|r| has_event(r, "decline")));
        assert!(records
            .iter()
            .any(|r| r.events.iter().any(|e| e.forced && e.action == "meld King")));
        // `bailab replay --json` of a deal and rotation gives the record `run` wrote
        let exp_file = dir.join("packs.toml");
        std::fs::write(&exp_file, &toml).unwrap();
        for (deal, rotation) in [(0u64, 0u8), (7, 3), (49, 1)] {
            let o = bailab(&[
                "replay",
                "--deal",
                &deal.to_string(),
                "--rotation",
                &rotation.to_string(),
                "--json",
                exp_file.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            let again: Record = serde_json::from_str(&stdout(&o)).unwrap();
            let r = &records[(deal * 4 + u64::from(rotation)) as usize];
            assert_eq!(again.deck, r.deck);
            assert_eq!(again.setup, r.setup);
            assert_eq!(again.events, r.events);
            assert_eq!(again.outcome, r.outcome);
            // and the readable log ends with the same payouts
            let o = bailab(&[
                "replay",
                "--deal",
                &deal.to_string(),
                "--rotation",
                &rotation.to_string(),
                exp_file.to_str().unwrap(),
            ]);
            let log = stdout(&o);
            let pays: Vec<String> = r.outcome.payouts.iter().map(|p| format!("{p:+}")).collect();
            assert!(
                log.contains(&format!("payouts [{}]", pays.join(", "))),
                "{log}"
            );
        }
    }
}

#[test]
fn a_tampered_action_is_reported_at_its_event() {
    for variant in VARIANTS {
        let r = played(variant, 4, 32, "greedy");
        // a King is never discarded (§4.6 S6)
        let k = r
            .events
            .iter()
            .position(|e| !e.forced && e.action.starts_with("discard "))
            .unwrap();
        let mut bad = r.clone();
        bad.events[k].action = "discard rK".into();
        let e = check(&bad).unwrap_err();
        assert_eq!(e.event, Some(k), "{e}");
        assert!(e.message.contains("'discard rK' is not legal"), "{e}");
        // an optional claim turned into a decline changes the game: a later event differs
        let k = r
            .events
            .iter()
            .position(|e| !e.forced && e.action.starts_with("meld Triple"))
            .unwrap();
        let mut bad = r.clone();
        bad.events[k].action = "decline".into();
        let e = check(&bad).unwrap_err();
        assert!(e.event.is_some_and(|i| i >= k), "{e}");
        // a forced event dropped or changed is named
        let k = r.events.iter().position(|e| e.forced).unwrap();
        let mut bad = r.clone();
        bad.events.remove(k);
        let e = check(&bad).unwrap_err();
        assert_eq!(e.event, Some(k), "{e}");
        let mut bad = r.clone();
        bad.events[k].action = "face_down".into();
        bad.events[k].seat = Some(bad.events[k].seat.map_or(0, |s| (s + 1) % 4));
        assert_eq!(check(&bad).unwrap_err().event, Some(k));
        // the CLI fails and says where
        let scratch = Scratch::new(&format!("tamper-{variant}"));
        let dir = scratch.0.clone();
        let mut bad = r.clone();
        let k = r
            .events
            .iter()
            .position(|e| !e.forced && e.action.starts_with("discard "))
            .unwrap();
        bad.events[k].action = "discard rK".into();
        let (ok, out) = cli_check(&bad, &dir);
        assert!(!ok);
        assert!(out.contains(&format!("event {k}")), "{out}");
        assert!(out.contains("'discard rK' is not legal"), "{out}");
    }
}

#[test]
fn a_tampered_deck_or_setup_is_reported() {
    for variant in VARIANTS {
        let r = played(variant, 4, 32, "greedy");
        // a card too many or too few for two packs
        let mut bad = r.clone();
        bad.deck = format!("{} rK", r.deck);
        let e = check(&bad).unwrap_err();
        assert!(e.message.contains("deck"), "{e}");
        assert!(e.message.contains("card 225 'rK'"), "{e}");
        let mut bad = r.clone();
        bad.deck = r.deck.split_once(' ').unwrap().1.to_string();
        assert!(check(&bad).unwrap_err().message.contains("deck"));
        // two cards swapped between seats 0 and 1: another deal, the record no longer fits it
        let mut cards: Vec<&str> = r.deck.split(' ').collect();
        let j = (1..cards.len())
            .step_by(4)
            .find(|&j| cards[j] != cards[0])
            .unwrap();
        cards.swap(0, j);
        let mut bad = r.clone();
        bad.deck = cards.join(" ");
        assert!(check(&bad).is_err(), "a swapped deck still checks");
        // an unknown setup key, and a setup value out of range
        let mut bad = r.clone();
        bad.setup.insert("dealer".into(), 1.into());
        let e = check(&bad).unwrap_err();
        assert!(
            e.message.contains("'dealer' is not a setting of a")
                && e.message.contains("known: reshuffle_seed, redeals"),
            "{e}"
        );
        let mut bad = r.clone();
        bad.setup.insert("redeals".into(), (-1).into());
        assert!(check(&bad)
            .unwrap_err()
            .message
            .contains("'redeals' = -1 is not a whole number"));
    }
}

#[test]
fn a_reshuffle_depends_on_its_recorded_seed() {
    // random dirtyking26 seed 0 runs the stock out: one reshuffle (§4.7), then a drawn game
    let r = played("dirtyking26", 4, 0, "random");
    let k = r
        .events
        .iter()
        .position(|e| e.action.starts_with("reshuffle "))
        .expect("a reshuffle");
    assert_eq!(r.events[k].rule.as_deref(), Some("4.7-Reshuffle"));
    assert!(r.events[k].forced && r.events[k].seat.is_none());
    assert!(has_event(&r, "no_discard") || r.events.last().unwrap().action == "drawn");
    check(&r).unwrap();
    let mut bad = r.clone();
    let seed = bad.setup["reshuffle_seed"].as_u64().unwrap();
    bad.setup.insert("reshuffle_seed".into(), (seed ^ 1).into());
    let e = check(&bad).unwrap_err();
    assert!(e.event.is_some_and(|i| i > k), "{e}");
}

#[test]
fn a_redealt_game_records_its_redeals() {
    // greedy sisepai21 seed 48: the first deal left a seat with neither a King nor three
    // identical cards, so it was redone once (§1.4 step 1)
    let r = played("sisepai21", 4, 48, "greedy");
    assert_eq!(r.setup["redeals"], 1);
    assert_eq!(r.events[0].action, "redeal 1");
    assert_eq!(r.events[0].rule.as_deref(), Some("1.4-Redeal"));
    check(&r).unwrap();
    let mut bad = r.clone();
    bad.setup.remove("redeals");
    let e = check(&bad).unwrap_err();
    assert_eq!(e.event, Some(0), "{e}");
}

#[test]
fn play_deck_replays_a_records_deck() {
    for variant in VARIANTS {
        let r = played(variant, 4, 32, "greedy");
        assert!(!r.setup.contains_key("redeals") && !has_event(&r, "reshuffle"));
        let o = bailab(&[
            "play",
            "--variant",
            variant,
            "--deck",
            &r.deck,
            "--seed",
            "32",
            "--agent",
            "greedy",
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let again: Record = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(again.events, r.events);
        assert_eq!(again.outcome, r.outcome);
        check(&again).unwrap();
        // a deck of one pack is not a sisepai deck
        let one_pack: Vec<&str> = r.deck.split(' ').take(112).collect();
        let o = bailab(&["play", "--variant", variant, "--deck", &one_pack.join(" ")]);
        assert!(!o.status.success());
        assert!(stderr(&o).contains("deck"), "{}", stderr(&o));
    }
}
