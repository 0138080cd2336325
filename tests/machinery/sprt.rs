//! Early stopping of head-to-head runs (`[sprt]` in an experiment), through the real binary: the
//! same experiment stops at the same deal for any thread count and across a Ctrl-C and
//! `--resume`; a clearly stronger agent is accepted as such well before the budget; two agents
//! of equal strength are accepted as equal; every configuration error names its key.
//!
//! Every test works in its own folder under the system temp dir, removed at the end.

use bailab::sim::files::seal::{seal, Layout};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common;
use common::*;

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// An experiment file: `agents` (quoted specs) on `game`, `deals` as the budget, then the
/// `[sprt]` table's lines.
fn experiment(game: &str, agents: &[&str], deals: u64, seed: u64, sprt: &str) -> String {
    let agents: Vec<String> = agents.iter().map(|a| format!("\"{a}\"")).collect();
    format!(
        "name = \"sprt-test\"\ngame = \"{game}\"\nagents = [{}]\ndeals = {deals}\nseed = {seed}\n\
         output = \"out\"\n\n[sprt]\n{sprt}\n",
        agents.join(", ")
    )
}

const GREEDY_VS_RANDOM: [&str; 4] = ["greedy", "random", "random", "random"];

/// The `sprt` object of a result folder's `meta.json`.
fn outcome(dir: &Path) -> serde_json::Value {
    json(&dir.join("meta.json"))["sprt"].clone()
}

/// The rows of a CSV file (without its header).
fn rows(path: &Path) -> Vec<csv::StringRecord> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.records().map(|x| x.unwrap()).collect()
}

/// The index of a column of a CSV file, by name.
fn column(path: &Path) -> impl Fn(&str) -> usize {
    let header = csv::Reader::from_path(path)
        .unwrap()
        .headers()
        .unwrap()
        .clone();
    move |name| header.iter().position(|h| h == name).unwrap()
}

/// Checks that a folder's files describe the deals actually played: `meta.json`'s deal range,
/// the `pair` row of `summary.csv`, the agents' seat-games and the last row of `sprt.csv`.
fn assert_played(dir: &Path, rotations: u64, players: u64) -> u64 {
    let o = outcome(dir);
    let deals = o["deals"].as_u64().unwrap();
    let meta = json(&dir.join("meta.json"));
    assert_eq!(meta["deals"], serde_json::json!([0, deals]));
    assert_eq!(meta["games"].as_u64().unwrap(), deals * rotations);
    let summary = rows(&dir.join("summary.csv"));
    let col = column(&dir.join("summary.csv"));
    let pair = summary.iter().find(|r| &r[col("kind")] == "pair").unwrap();
    assert_eq!(
        pair[col("deals")].parse::<u64>().unwrap(),
        deals,
        "{pair:?}"
    );
    let seat_games: u64 = summary
        .iter()
        .filter(|r| &r[col("kind")] == "agent")
        .map(|r| r[col("seat_games")].parse::<u64>().unwrap())
        .sum();
    assert_eq!(seat_games, deals * rotations * players);
    let looks = rows(&dir.join("sprt.csv"));
    let last = looks.last().unwrap();
    assert_eq!(last[0].parse::<u64>().unwrap(), deals);
    let decision = if o["accepted"] == "none" {
        "continue"
    } else {
        o["accepted"].as_str().unwrap()
    };
    assert_eq!(&last[6], decision);
    deals
}

#[test]
fn threads_and_a_resume_stop_at_the_same_deal() {
    let s = Scratch::new("sprt-threads");
    // Hypotheses close to greedy's true margin over random: several looks before a decision.
    let exp = s.write(
        "exp.toml",
        &experiment(
            "tienlen",
            &GREEDY_VS_RANDOM,
            4000,
            5,
            "h0 = 2.4\nh1 = 2.5\nchunk = 50",
        ),
    );
    let run = |out: &str, threads: &str| {
        ok(
            &s.0,
            &[
                "run",
                &exp,
                "-q",
                "--games-csv",
                "--threads",
                threads,
                "--output",
                out,
            ],
        );
    };
    run("one", "1");
    run("two", "2");
    let stopped_at = assert_played(&s.path("one"), 4, 4);
    let o = outcome(&s.path("one"));
    assert_ne!(o["accepted"], "none", "the test must stop early here: {o}");
    assert!(stopped_at < 4000 && stopped_at.is_multiple_of(50), "{o}");
    assert!(
        rows(&s.path("one/sprt.csv")).len() > 2,
        "a decision after several looks"
    );
    for name in [
        "summary.csv",
        "sprt.csv",
        "tally.json",
        "meta.json",
        "games.csv",
    ] {
        assert!(
            read(&s.path("one").join(name)) == read(&s.path("two").join(name)),
            "{name} differs between 1 and 2 threads"
        );
    }
    let games = read(&s.path("one/games.csv"));
    let lines = games.iter().filter(|&&b| b == b'\n').count() as u64;
    assert_eq!(
        lines,
        1 + 4 * stopped_at,
        "games.csv holds the deals played"
    );
    let run_json = json(&s.path("two/run.json"));
    assert_eq!(run_json["threads"], 2);
    assert_eq!(run_json["sprt"], o);

    // Stopped with Ctrl-C after its first checkpoint, then resumed: the same files.
    let args = [
        "run",
        &exp,
        "-q",
        "--games-csv",
        "--threads",
        "1",
        "--checkpoint-secs",
        "0.02",
        "--output",
        "resumed",
    ];
    let mut child = spawn(&s.0, &args);
    let began = Instant::now();
    while !s.path("resumed/checkpoint.json").exists() {
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        assert!(began.elapsed() < Duration::from_secs(60), "no checkpoint");
        std::thread::sleep(Duration::from_millis(5));
    }
    let r = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(r, 0);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let ck = json(&s.path("resumed/checkpoint.json"));
    let done = ck["next"].as_u64().unwrap();
    assert!(done < stopped_at, "stopped at {done}, after the decision");
    ok(&s.0, &["run", "--resume", "resumed", "-q"]);
    for name in [
        "summary.csv",
        "sprt.csv",
        "tally.json",
        "meta.json",
        "games.csv",
    ] {
        assert!(
            read(&s.path("one").join(name)) == read(&s.path("resumed").join(name)),
            "{name} differs after a resume at deal {done}"
        );
    }
    assert_eq!(json(&s.path("resumed/run.json"))["sessions"], 2);
    eprintln!("stopped at deal {stopped_at}; interrupted at {done} and resumed");
}

#[test]
fn a_clearly_stronger_agent_is_accepted_well_before_the_budget() {
    let s = Scratch::new("sprt-h1");
    let budget = 2000;
    let exp = s.write(
        "exp.toml",
        &experiment(
            "tienlen",
            &GREEDY_VS_RANDOM,
            budget,
            3,
            "h0 = 0\nh1 = 0.5\nchunk = 20",
        ),
    );
    let o = ok(&s.0, &["run", &exp]);
    let text = stdout(&o);
    let dir = s.path("out");
    let deals = assert_played(&dir, 4, 4);
    let sprt = outcome(&dir);
    assert_eq!(sprt["accepted"], "H1", "{sprt}");
    assert!(deals * 10 <= budget, "{deals} of {budget}");
    assert_eq!(sprt["agents"], serde_json::json!(["greedy", "random"]));
    let (llr, upper) = (
        sprt["llr"].as_f64().unwrap(),
        sprt["upper"].as_f64().unwrap(),
    );
    assert!(llr >= upper, "{sprt}");
    assert!((upper - 19f64.ln()).abs() < 1e-12, "{sprt}");
    assert!(
        text.contains(&format!(
            "H1 (A − B = 0.5) accepted over H0 (A − B = 0) after {deals} of at most 2,000 deals"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{} deals × 4 seat rotations", deals)),
        "{text}"
    );
}

#[test]
fn two_agents_of_equal_strength_are_accepted_as_equal() {
    // Two replicas of one search that differ only in their random seed.
    let s = Scratch::new("sprt-h0");
    let budget = 1000;
    let exp = s.write(
        "exp.toml",
        &experiment(
            "tienlen",
            &["ismcts:iters=4,seed=1", "ismcts:iters=4,seed=2"],
            budget,
            9,
            "h0 = 0\nh1 = 1\nchunk = 20",
        ),
    );
    ok(&s.0, &["run", &exp, "-q"]);
    let dir = s.path("out");
    let deals = assert_played(&dir, 2, 2);
    let sprt = outcome(&dir);
    assert_eq!(sprt["accepted"], "H0", "{sprt}");
    assert!(deals < budget, "{sprt}");
    assert!(sprt["llr"].as_f64().unwrap() <= sprt["lower"].as_f64().unwrap());
}

#[test]
fn identical_deterministic_agents_run_to_the_budget() {
    // Two agents that play alike: greedy, and greedy with a weight file holding only the
    // defaults (two spellings of one spec, `greedy:tiebreak=canonical`, would be one agent).
    // Every rotation of a deal replays one game, so every per-deal difference is exactly 0 and
    // the ratio has nothing to scale by.
    let s = Scratch::new("sprt-same");
    let same = format!("greedy:{}", s.write("w.toml", "game = \"tusac\"\n"));
    let exp = s.write(
        "exp.toml",
        &experiment(
            "tusac",
            &["greedy", &same, "greedy", "greedy"],
            130,
            1,
            "h1 = 0.5\nchunk = 50",
        ),
    );
    let o = ok(&s.0, &["run", &exp]);
    let dir = s.path("out");
    assert_eq!(assert_played(&dir, 4, 4), 130);
    let sprt = outcome(&dir);
    assert_eq!(sprt["accepted"], "none", "{sprt}");
    assert!(sprt["llr"].is_null(), "{sprt}");
    let looks: Vec<String> = rows(&dir.join("sprt.csv"))
        .iter()
        .map(|r| r[0].to_string())
        .collect();
    assert_eq!(
        looks,
        ["50", "100", "130"],
        "a look per chunk and at the budget"
    );
    assert!(stdout(&o).contains("neither H0"), "{}", stdout(&o));
}

#[test]
fn configuration_errors_name_the_key() {
    let s = Scratch::new("sprt-errors");
    let three = ["greedy", "random", "first", "random"];
    let cases: &[(&[&str], &str, &[&str])] = &[
        (
            &GREEDY_VS_RANDOM,
            "h1 = 0.5\nalpha = 0.5",
            &["[sprt]", "'alpha'", "0.5"],
        ),
        (
            &GREEDY_VS_RANDOM,
            "h1 = 0.5\nbeta = 0",
            &["[sprt]", "'beta'"],
        ),
        (
            &GREEDY_VS_RANDOM,
            "h1 = 0.5\nbeta = -0.1",
            &["[sprt]", "'beta'"],
        ),
        (
            &GREEDY_VS_RANDOM,
            "h0 = 1\nh1 = 0.5",
            &["[sprt]", "'h0'", "'h1'"],
        ),
        (&GREEDY_VS_RANDOM, "h0 = 0", &["h1"]),
        (
            &GREEDY_VS_RANDOM,
            "h1 = 0.5\nchunk = 0",
            &["[sprt]", "'chunk'"],
        ),
        (&GREEDY_VS_RANDOM, "h1 = 0.5\nalfa = 0.1", &["alfa", "line"]),
        (&GREEDY_VS_RANDOM, "h1 = \"big\"", &["h1", "line"]),
        (
            &three,
            "h1 = 0.5",
            &["[sprt]", "key 'agents' missing", "3 distinct"],
        ),
        (
            &three,
            "agents = [\"greedy\", \"nobody\"]\nh1 = 0.5",
            &["[sprt]", "'agents'", "'nobody'"],
        ),
        (
            &three,
            "agents = [\"greedy\", \"greedy\"]\nh1 = 0.5",
            &["[sprt]", "'agents'", "twice"],
        ),
        (
            &three,
            "agents = [\"greedy\", \"random\", \"first\"]\nh1 = 0.5",
            &["[sprt]", "'agents'", "exactly two"],
        ),
        (
            &["greedy", "greedy", "greedy", "greedy"],
            "h1 = 0.5",
            &["[sprt]", "'agents'", "one distinct"],
        ),
    ];
    for (i, (agents, table, expect)) in cases.iter().enumerate() {
        let file = s.write(
            &format!("bad-{i}.toml"),
            &experiment("tienlen", agents, 100, 1, table),
        );
        let err = fails(&s.0, &["run", &file, "-q"]);
        assert!(
            err.contains(&format!("bad-{i}.toml")),
            "names the file: {err}"
        );
        for e in *expect {
            assert!(err.contains(e), "{table:?}: expected {e:?} in: {err}");
        }
        assert!(!s.path("out").exists(), "{table:?}: nothing written");
    }
    // a sequential test is never split into shards
    let file = s.write(
        "shard.toml",
        &experiment("tienlen", &GREEDY_VS_RANDOM, 100, 1, "h1 = 0.5"),
    );
    let err = fails(&s.0, &["run", &file, "-q", "--shard", "0/2"]);
    assert!(err.contains("--shard") && err.contains("[sprt]"), "{err}");
    assert!(err.contains("--resume"), "says what to do instead: {err}");
    // and a merge refuses a tally that carries a sequential test
    let plain = s.write(
        "plain.toml",
        &experiment("tienlen", &GREEDY_VS_RANDOM, 10, 1, "").replace("\n[sprt]\n", "\n"),
    );
    ok(
        &s.0,
        &["run", &plain, "-q", "--shard", "0/1", "--output", "shard"],
    );
    let tally_path = s.path("shard/tally.json");
    let mut tally = json(&tally_path);
    tally["experiment"]["sprt"] = serde_json::json!({
        "h0": 0.0, "h1": 0.5, "alpha": 0.05, "beta": 0.05, "chunk": 100
    });
    // sealed again (a shard's tally is checksummed), so that the merge reads the table
    let text = serde_json::to_string_pretty(&tally).unwrap();
    std::fs::write(&tally_path, seal(&text, Layout::Pretty)).unwrap();
    let err = fails(&s.0, &["merge", "shard", "--output", "merged", "-q"]);
    assert!(err.contains("[sprt]") && err.contains("merge"), "{err}");
}
