//! The experiment runner end to end, through the real binary: `run` (threads, shards, bad input),
//! `merge`, `replay`, `agents` and the embedded default experiment.
//!
//! Every test works in its own folder under the system temp dir, removed at the end.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Child;

use crate::common;
use common::*;

/// An experiment file's text.
fn experiment(agents: &[&str], deals: u64, seed: u64, rotate: bool) -> String {
    let agents: Vec<String> = agents.iter().map(|a| format!("\"{a}\"")).collect();
    format!(
        "name = \"runner-test\"\ngame = \"tusac\"\nvariant = \"classic\"\nagents = [{}]\n\
         deals = {deals}\nseed = {seed}\nrotate = {rotate}\noutput = \"from-the-file\"\n\
         games_csv = true\nrecords = true\n",
        agents.join(", ")
    )
}

const GREEDY_VS_RANDOM: [&str; 4] = ["greedy", "random", "random", "random"];

/// More deals than the runner's parallel chunk (4096), so that chunk boundaries are crossed.
const DEALS_PAST_A_CHUNK: u64 = 5000;

/// Asserts that two result folders hold byte-identical summary.csv, games.csv and records.jsonl.
fn assert_same_results(a: &Path, b: &Path) {
    assert_same_files(a, b, &["summary.csv", "games.csv", "records.jsonl"]);
}

fn meta(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&read(&dir.join("meta.json"))).expect("meta.json is JSON")
}

/// The volatile figures of a run (threads, elapsed time): `run.json`, never committed.
fn run_json(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&read(&dir.join("run.json"))).expect("run.json is JSON")
}

#[test]
fn threads_do_not_change_results() {
    let s = Scratch::new("threads");
    let exp = s.write(
        "exp.toml",
        &experiment(&GREEDY_VS_RANDOM, DEALS_PAST_A_CHUNK, 11, true),
    );
    for (threads, out) in [("1", "one"), ("2", "two")] {
        ok(
            &s.0,
            &[
                "run",
                &exp,
                "--threads",
                threads,
                "--quiet",
                "--output",
                out,
            ],
        );
        // the flag was honoured (else the comparison would prove nothing)
        assert_eq!(
            run_json(&s.path(out))["threads"],
            threads.parse::<u64>().unwrap()
        );
        // meta.json holds only what the experiment determines
        let m = meta(&s.path(out));
        for volatile in ["threads", "cores", "elapsed_s", "games_per_s"] {
            assert!(m.get(volatile).is_none(), "meta.json has {volatile}");
        }
    }
    assert_same_results(&s.path("one"), &s.path("two"));
    let games = std::fs::read_to_string(s.path("one/games.csv")).unwrap();
    assert_eq!(
        games.lines().count() as u64,
        1 + DEALS_PAST_A_CHUNK * 4,
        "header plus one row per game"
    );
}

#[test]
fn three_shards_merged_equal_one_run() {
    let s = Scratch::new("shards");
    let exp = s.write(
        "exp.toml",
        &experiment(&GREEDY_VS_RANDOM, DEALS_PAST_A_CHUNK, 3, true),
    );
    ok(&s.0, &["run", &exp, "--quiet", "--output", "whole"]);

    // three shards as three concurrent processes, like a job array
    let children: Vec<(String, Child)> = (0..3)
        .map(|k| {
            let shard = format!("{k}/3");
            let out = format!("shard-{k}");
            let child = spawn(
                &s.0,
                &["run", &exp, "--shard", &shard, "--quiet", "--output", &out],
            );
            (shard, child)
        })
        .collect();
    for (shard, child) in children {
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "shard {shard}: {}", stderr(&o));
    }
    let m = meta(&s.path("shard-1"));
    assert_eq!(m["shard"], "1/3");
    assert_eq!(m["deals"], serde_json::json!([1666, 3333]));

    // the order of the folders on the command line does not matter
    ok(
        &s.0,
        &[
            "merge", "shard-2", "shard-0", "shard-1", "--quiet", "--output", "merged",
        ],
    );
    assert_same_results(&s.path("whole"), &s.path("merged"));
    assert_eq!(meta(&s.path("merged"))["games"], DEALS_PAST_A_CHUNK * 4);

    // a missing shard is an error naming the missing deals, and writes nothing
    for (dirs, missing) in [
        (["shard-0", "shard-2"], "1666..3333"),
        (["shard-0", "shard-1"], "3333..5000"),
        (["shard-1", "shard-2"], "0..1666"),
    ] {
        let o = bailab(
            &s.0,
            &["merge", dirs[0], dirs[1], "--quiet", "--output", "partial"],
        );
        assert!(!o.status.success(), "merging {dirs:?} succeeded");
        assert!(
            stderr(&o).contains(missing),
            "merging {dirs:?}: expected the missing deals {missing} in: {}",
            stderr(&o)
        );
        assert!(!s.path("partial/summary.csv").exists());
    }

    // a shard given twice is an error too
    let o = bailab(
        &s.0,
        &[
            "merge", "shard-0", "shard-1", "shard-1", "shard-2", "--output", "twice",
        ],
    );
    assert!(!o.status.success(), "a repeated shard was merged");
    assert!(
        stderr(&o).contains("repeated") && stderr(&o).contains("shard-1"),
        "{}",
        stderr(&o)
    );

    // shards of two different experiments (here: another seed) do not merge
    let other = s.write(
        "other.toml",
        &experiment(&GREEDY_VS_RANDOM, DEALS_PAST_A_CHUNK, 4, true),
    );
    ok(
        &s.0,
        &[
            "run", &other, "--shard", "2/3", "--quiet", "--output", "other-2",
        ],
    );
    let o = bailab(
        &s.0,
        &[
            "merge", "shard-0", "shard-1", "other-2", "--quiet", "--output", "mixed",
        ],
    );
    assert!(!o.status.success(), "shards of two experiments were merged");
    assert!(
        stderr(&o).contains("different experiment") && stderr(&o).contains("other-2"),
        "{}",
        stderr(&o)
    );
    assert!(!s.path("mixed/summary.csv").exists());
}

/// Deals per shard can be zero when there are fewer deals than shards. The merge must not depend
/// on the order of the folders then (shards are sorted by their `(first, last)` deal).
#[test]
fn merge_with_empty_shards_is_order_independent() {
    let s = Scratch::new("empty-shards");
    let exp = s.write("exp.toml", &experiment(&GREEDY_VS_RANDOM, 2, 1, true));
    ok(&s.0, &["run", &exp, "--quiet", "--output", "whole"]);
    for k in 0..3 {
        let (shard, out) = (format!("{k}/3"), format!("shard-{k}"));
        ok(
            &s.0,
            &["run", &exp, "--shard", &shard, "--quiet", "--output", &out],
        );
    }
    for (i, order) in [
        ["shard-0", "shard-1", "shard-2"],
        ["shard-1", "shard-0", "shard-2"],
    ]
    .iter()
    .enumerate()
    {
        let out = format!("merged-{i}");
        ok(
            &s.0,
            &[
                "merge", order[0], order[1], order[2], "-q", "--output", &out,
            ],
        );
        assert_same_results(&s.path("whole"), &s.path(&out));
    }
}

type Row = BTreeMap<String, String>;

fn csv_rows(path: &Path) -> (Vec<String>, Vec<Row>) {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(rec.len(), header.len(), "{}: ragged row", path.display());
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect();
    (header, rows)
}

fn num<T: std::str::FromStr>(row: &Row, key: &str) -> T {
    let text = &row[key];
    text.parse()
        .unwrap_or_else(|_| panic!("column {key}: '{text}' is not a number in {row:?}"))
}

/// Checks summary.csv and games.csv of a finished run of `agents` (one spec per seat).
fn check_tidy(dir: &Path, agents: &[&str], deals: u64, rotate: bool) {
    let players = agents.len();
    let rotations = if rotate { players } else { 1 };
    let mut distinct: Vec<&str> = Vec::new();
    for a in agents {
        if !distinct.contains(a) {
            distinct.push(a);
        }
    }

    // games.csv: one row per game, in deal then rotation order, zero-sum
    let (gheader, games) = csv_rows(&dir.join("games.csv"));
    for col in ["deal", "rotation", "winner", "reason", "turns"] {
        assert!(gheader.iter().any(|h| h == col), "games.csv has no {col}");
    }
    assert_eq!(
        games.len() as u64,
        deals * rotations as u64,
        "games.csv rows"
    );
    // per agent: games, wins, draws, payout sum; per deal and agent: payout sum and seat count
    let mut by_agent: BTreeMap<String, (u64, u64, u64, i64)> = BTreeMap::new();
    let mut per_deal: Vec<BTreeMap<String, (i64, i64)>> = vec![BTreeMap::new(); deals as usize];
    for (i, g) in games.iter().enumerate() {
        let (deal, rotation): (u64, usize) = (num(g, "deal"), num(g, "rotation"));
        assert_eq!(deal, i as u64 / rotations as u64, "row {i} is out of order");
        assert_eq!(rotation, i % rotations, "row {i} is out of order");
        let payouts: Vec<i64> = (0..players)
            .map(|s| num(g, &format!("payout_{s}")))
            .collect();
        assert_eq!(payouts.iter().sum::<i64>(), 0, "payouts of {g:?}");
        let winner: Option<usize> = (!g["winner"].is_empty()).then(|| num(g, "winner"));
        for (s, &p) in payouts.iter().enumerate() {
            let spec = &g[&format!("agent_{s}")];
            assert_eq!(spec, agents[(s + rotation) % players], "seat {s} of {g:?}");
            let t = by_agent.entry(spec.clone()).or_default();
            t.0 += 1;
            t.1 += u64::from(winner == Some(s));
            t.2 += u64::from(winner.is_none());
            t.3 += p;
            let d = per_deal[deal as usize].entry(spec.clone()).or_default();
            d.0 += p;
            d.1 += 1;
        }
    }

    // summary.csv: one agent row per distinct spec (in seat order), then one pair row per pair
    let (header, rows) = csv_rows(&dir.join("summary.csv"));
    for col in [
        "game",
        "variant",
        "players",
        "payout_unit",
        "kind",
        "agent",
        "versus",
        "seats",
        "seat_games",
        "wins",
        "draws",
        "win_rate",
        "win_rate_lo95",
        "win_rate_hi95",
        "mean_payout",
        "mean_payout_lo95",
        "mean_payout_hi95",
        "deals",
        "mean_diff",
        "mean_diff_lo95",
        "mean_diff_hi95",
    ] {
        assert!(header.iter().any(|h| h == col), "summary.csv has no {col}");
    }
    let agent_rows: Vec<&Row> = rows.iter().filter(|r| r["kind"] == "agent").collect();
    let pair_rows: Vec<&Row> = rows.iter().filter(|r| r["kind"] == "pair").collect();
    assert_eq!(
        agent_rows.len() + pair_rows.len(),
        rows.len(),
        "unknown kinds"
    );
    let names: Vec<&str> = agent_rows.iter().map(|r| r["agent"].as_str()).collect();
    assert_eq!(names, distinct, "one agent row per distinct spec");
    for r in &rows {
        let study = [&r["game"], &r["variant"], &r["players"], &r["payout_unit"]];
        let players = players.to_string();
        assert_eq!(
            study,
            ["tusac", "classic", players.as_str(), "points"],
            "{r:?}"
        );
    }

    let close = |a: f64, b: f64, what: &str| {
        assert!((a - b).abs() < 2e-6, "{what}: {a} vs {b}");
    };
    let (mut all_games, mut all_wins, mut all_draws, mut payout_total) = (0u64, 0u64, 0u64, 0.0);
    for r in &agent_rows {
        let name = r["agent"].as_str();
        let seats = agents.iter().filter(|a| **a == name).count() as u64;
        let (games, wins, draws): (u64, u64, u64) =
            (num(r, "seat_games"), num(r, "wins"), num(r, "draws"));
        assert_eq!(num::<u64>(r, "seats"), seats, "seats of {name}");
        assert_eq!(
            games,
            deals * rotations as u64 * seats,
            "seat-games of {name}"
        );
        assert!(wins + draws <= games, "wins + draws > games for {name}");
        let (wr, wlo, whi): (f64, f64, f64) = (
            num(r, "win_rate"),
            num(r, "win_rate_lo95"),
            num(r, "win_rate_hi95"),
        );
        close(wr, wins as f64 / games as f64, "win rate");
        assert!(
            0.0 <= wlo && wlo < wr && wr < whi && whi <= 1.0,
            "win interval of {r:?}"
        );
        let (m, mlo, mhi): (f64, f64, f64) = (
            num(r, "mean_payout"),
            num(r, "mean_payout_lo95"),
            num(r, "mean_payout_hi95"),
        );
        assert!(mlo < m && m < mhi, "payout interval of {r:?}");
        // the same figures as games.csv
        let t = by_agent[name];
        assert_eq!(
            (games, wins, draws),
            (t.0, t.1, t.2),
            "{name}: summary vs games.csv"
        );
        close(m, t.3 as f64 / t.0 as f64, "mean payout vs games.csv");
        all_games += games;
        all_wins += wins;
        all_draws += draws;
        payout_total += m * games as f64;
    }
    let game_count = deals * rotations as u64;
    assert_eq!(all_games, game_count * players as u64, "seat-games add up");
    // every game is won by one seat or drawn for all seats
    assert_eq!(all_wins + all_draws / players as u64, game_count);
    assert_eq!(all_draws % players as u64, 0);
    assert!(
        payout_total.abs() < 1e-6 * all_games as f64 + 1e-3,
        "not zero-sum: {payout_total}"
    );

    // pair rows: every pair once, the paired per-deal difference of mean payouts
    let mut pairs = BTreeSet::new();
    for r in &pair_rows {
        let (a, b) = (r["agent"].as_str(), r["versus"].as_str());
        let (ia, ib) = (
            distinct.iter().position(|x| *x == a).expect("pair agent"),
            distinct.iter().position(|x| *x == b).expect("pair versus"),
        );
        assert!(pairs.insert((ia.min(ib), ia.max(ib))), "pair {a} {b} twice");
        assert_eq!(num::<u64>(r, "deals"), deals);
        let (d, lo, hi): (f64, f64, f64) = (
            num(r, "mean_diff"),
            num(r, "mean_diff_lo95"),
            num(r, "mean_diff_hi95"),
        );
        assert!(lo < d && d < hi, "difference interval of {r:?}");
        let mean = |x: &(i64, i64)| x.0 as f64 / x.1 as f64;
        let expected = per_deal
            .iter()
            .map(|m| mean(&m[a]) - mean(&m[b]))
            .sum::<f64>()
            / deals as f64;
        close(d, expected, &format!("mean_diff {a} - {b} vs games.csv"));
    }
    let n = distinct.len();
    assert_eq!(pairs.len(), n * (n - 1) / 2, "one pair row per pair");
}

#[test]
fn summary_csv_is_tidy() {
    let s = Scratch::new("tidy");
    let cases: [(&[&str], u64, bool); 2] = [
        (
            &["greedy", "random", "greedy:tiebreak=random", "random"],
            1000,
            true,
        ),
        (&["random", "first", "greedy"], 600, false),
    ];
    for (i, (agents, deals, rotate)) in cases.into_iter().enumerate() {
        let exp = s.write(
            &format!("exp{i}.toml"),
            &experiment(agents, deals, 5, rotate),
        );
        let out = format!("out{i}");
        ok(&s.0, &["run", &exp, "--quiet", "--output", &out]);
        check_tidy(&s.path(&out), agents, deals, rotate);
    }
}

/// The result files of a folder, by name (tally.json included), and the folder's file names.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().into_string().unwrap(), read(&e.path()))
        })
        .collect()
}

/// A bad run: its name, the experiment text (None: no such file), extra arguments, and the words
/// its error must contain.
type BadCase<'a> = (&'a str, Option<String>, Vec<&'a str>, Vec<&'a str>);

#[test]
fn bad_input_is_a_clear_error_and_loses_nothing() {
    let s = Scratch::new("bad-input");
    let good = s.write("good.toml", &experiment(&GREEDY_VS_RANDOM, 300, 2, true));
    ok(&s.0, &["run", &good, "--quiet", "--output", "out"]);
    let before = snapshot(&s.path("out"));
    for name in ["summary.csv", "games.csv", "meta.json", "tally.json"] {
        assert!(before.contains_key(name), "the good run wrote no {name}");
    }

    let base = "game = \"tusac\"\nagents = [\"greedy\", \"random\", \"random\", \"random\"]\n\
                deals = 300\n";
    let with_agents = |a: &str| base.replace("\"greedy\", \"random\", \"random\", \"random\"", a);
    let cases: Vec<BadCase> = vec![
        (
            "unknown key",
            Some(format!("{base}colour = 3\n")),
            vec![],
            vec!["colour", "line 4"],
        ),
        (
            "unknown agent",
            Some(with_agents(
                "\"greedy\", \"grumpy\", \"random\", \"random\"",
            )),
            vec![],
            vec!["grumpy", "seat 1"],
        ),
        (
            "bad parameter value",
            Some(with_agents("\"random\", \"greedy:tiebreak=best\"")),
            vec![],
            vec!["tiebreak", "best"],
        ),
        (
            "unknown parameter",
            Some(with_agents("\"greedy:depth=3\", \"random\"")),
            vec![],
            vec!["depth"],
        ),
        (
            "malformed agent spec",
            Some(with_agents("\"greedy:tiebreak\", \"random\"")),
            vec![],
            vec!["greedy:tiebreak"],
        ),
        (
            "missing quote",
            Some(
                "game = \"tusac\"\nagents = [\"greedy\", \"random\"]\nname = \"x\ndeals = 300\n"
                    .into(),
            ),
            vec![],
            vec!["line 3"],
        ),
        (
            "missing required key",
            Some("game = \"tusac\"\nagents = [\"greedy\", \"random\"]\n".into()),
            vec![],
            vec!["deals"],
        ),
        (
            "wrong type",
            Some(base.replace("deals = 300", "deals = \"many\"")),
            vec![],
            vec!["deals", "line 3"],
        ),
        (
            "zero deals",
            Some(base.replace("deals = 300", "deals = 0")),
            vec![],
            vec!["deals"],
        ),
        (
            "negative deals",
            Some(base.replace("deals = 300", "deals = -5")),
            vec![],
            vec!["deals"],
        ),
        (
            "five seats",
            Some(with_agents(
                "\"greedy\", \"random\", \"random\", \"random\", \"random\"",
            )),
            vec![],
            vec!["agents", "5 agent(s)"],
        ),
        (
            "one seat",
            Some(with_agents("\"greedy\"")),
            vec![],
            vec!["agents", "1 agent(s)"],
        ),
        (
            "unknown game",
            Some(base.replace("tusac", "chess")),
            vec![],
            vec!["chess"],
        ),
        (
            "unknown variant",
            Some(format!("{base}variant = \"sisepai22\"\n")),
            vec![],
            vec!["variant", "sisepai22"],
        ),
        ("missing file", None, vec![], vec!["nope.toml"]),
        (
            "shard out of range",
            Some(base.into()),
            vec!["--shard", "3/3"],
            vec!["--shard", "3/3"],
        ),
        (
            "shard syntax",
            Some(base.into()),
            vec!["--shard", "1-3"],
            vec!["--shard", "1-3"],
        ),
        (
            "zero threads",
            Some(base.into()),
            vec!["--threads", "0"],
            vec!["--threads"],
        ),
    ];
    for (case, text, extra, expected) in cases {
        let file = match &text {
            Some(t) => s.write("bad.toml", t),
            None => s.path("nope.toml").to_str().unwrap().to_string(),
        };
        let mut args = vec!["run", file.as_str(), "--quiet", "--output", "out"];
        args.extend(extra);
        let o = bailab(&s.0, &args);
        let err = stderr(&o);
        assert!(!o.status.success(), "{case}: bailab succeeded");
        assert!(
            !err.contains("panicked"),
            "{case}: a panic, not an error: {err}"
        );
        assert!(err.starts_with("error"), "{case}: {err}");
        for word in expected {
            assert!(
                err.contains(word),
                "{case}: stderr does not name '{word}': {err}"
            );
        }
        if text.is_some() && !args.contains(&"--shard") && !args.contains(&"--threads") {
            assert!(
                err.contains("bad.toml"),
                "{case}: stderr does not name the file: {err}"
            );
        }
        let after = snapshot(&s.path("out"));
        assert_eq!(
            after.keys().collect::<Vec<_>>(),
            before.keys().collect::<Vec<_>>(),
            "{case}: the result folder's files changed"
        );
        for (name, bytes) in &before {
            assert!(after[name] == *bytes, "{case}: {name} changed");
        }
    }
}

/// The winner (None if drawn) and payouts of a replay's `outcome:` line.
fn replay_outcome(log: &str) -> (Option<usize>, Vec<i64>) {
    let line = log
        .lines()
        .find(|l| l.starts_with("outcome: "))
        .unwrap_or_else(|| panic!("no outcome line in:\n{log}"));
    let winner = line
        .strip_prefix("outcome: seat ")
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap());
    assert!(
        winner.is_some() || line.starts_with("outcome: drawn"),
        "{line}"
    );
    let inside = line
        .split_once("payouts [")
        .and_then(|(_, r)| r.strip_suffix(']'))
        .unwrap_or_else(|| panic!("no payouts in {line}"));
    let payouts = inside
        .split(", ")
        .map(|p| p.trim_start_matches('+').parse().unwrap())
        .collect();
    (winner, payouts)
}

#[test]
fn replay_prints_the_game_of_the_experiment() {
    let s = Scratch::new("replay");
    let deals = 12;
    let exp = s.write("exp.toml", &experiment(&GREEDY_VS_RANDOM, deals, 7, true));
    ok(&s.0, &["run", &exp, "--quiet", "--output", "out"]);
    let (_, games) = csv_rows(&s.path("out/games.csv"));
    let row = |deal: u64, rotation: usize| {
        games
            .iter()
            .find(|g| g["deal"] == deal.to_string() && g["rotation"] == rotation.to_string())
            .unwrap_or_else(|| panic!("no row for deal {deal} rotation {rotation}"))
    };

    let first = ok(&s.0, &["replay", &exp, "--deal", "5", "--rotation", "2"]);
    let again = ok(&s.0, &["replay", &exp, "--deal", "5", "--rotation", "2"]);
    assert_eq!(
        stdout(&first),
        stdout(&again),
        "replay is not deterministic"
    );

    // every game of the experiment, deal 5 rotation 2 first: the winner, payouts and agents agree
    let (mut wins, mut draws) = (0, 0);
    let all = (0..deals).flat_map(|d| (0..4).map(move |r| (d, r)));
    for (deal, rotation) in std::iter::once((5, 2)).chain(all) {
        let (d, r) = (deal.to_string(), rotation.to_string());
        let log = stdout(&ok(&s.0, &["replay", &exp, "--deal", &d, "--rotation", &r]));
        let g = row(deal, rotation);
        let (winner, payouts) = replay_outcome(&log);
        let expected_winner: Option<usize> = (!g["winner"].is_empty()).then(|| num(g, "winner"));
        let expected_payouts: Vec<i64> = (0..4).map(|s| num(g, &format!("payout_{s}"))).collect();
        let at = format!("deal {deal} rotation {rotation}");
        assert_eq!(winner, expected_winner, "{at}: winner");
        assert_eq!(payouts, expected_payouts, "{at}: payouts");
        let seats: Vec<&str> = (0..4).map(|s| g[&format!("agent_{s}")].as_str()).collect();
        let title = log.lines().next().unwrap();
        assert!(
            title.ends_with(&format!("agents by seat: {}", seats.join(" | "))),
            "{at}: {title}"
        );
        assert!(title.contains(&format!("seed 7, deal {deal}, rotation {rotation}")));
        wins += usize::from(winner.is_some());
        draws += usize::from(winner.is_none());
    }
    assert!(
        wins > 0 && draws > 0,
        "cover won and drawn games: {wins} {draws}"
    );

    for (args, names) in [
        (vec!["--deal", "12"], "--deal 12"),
        (vec!["--deal", "5", "--rotation", "4"], "--rotation 4"),
    ] {
        let mut all = vec!["replay", exp.as_str()];
        all.extend(args);
        let o = bailab(&s.0, &all);
        assert!(!o.status.success(), "{all:?} succeeded");
        assert!(stderr(&o).contains(names), "{}", stderr(&o));
    }
    // without rotation there is only rotation 0
    let fixed = s.write(
        "fixed.toml",
        &experiment(&GREEDY_VS_RANDOM, deals, 7, false),
    );
    ok(&s.0, &["replay", &fixed, "--deal", "0"]);
    let o = bailab(&s.0, &["replay", &fixed, "--deal", "0", "--rotation", "1"]);
    assert!(!o.status.success() && stderr(&o).contains("--rotation 1"));
}

#[test]
fn default_experiment_greedy_beats_random() {
    let s = Scratch::new("default");
    let o = ok(&s.0, &["run", "--quiet", "--output", "out"]);
    assert!(stdout(&o).is_empty(), "--quiet printed: {}", stdout(&o));
    let m = meta(&s.path("out"));
    assert_eq!(m["experiment"]["name"], "default");
    assert_eq!(m["games"], 50_000 * 4);
    assert!(
        !s.path("out/games.csv").exists(),
        "games_csv is off by default"
    );
    assert!(!s.path("results").exists(), "--output was not honoured");

    let (_, rows) = csv_rows(&s.path("out/summary.csv"));
    let pair = rows
        .iter()
        .find(|r| {
            let names = [r["agent"].as_str(), r["versus"].as_str()];
            r["kind"] == "pair" && (names == ["greedy", "random"] || names == ["random", "greedy"])
        })
        .expect("a greedy/random pair row");
    assert_eq!(num::<u64>(pair, "deals"), 50_000);
    let (lo, hi): (f64, f64) = (num(pair, "mean_diff_lo95"), num(pair, "mean_diff_hi95"));
    if pair["agent"] == "greedy" {
        assert!(lo > 0.0, "greedy does not beat random: {pair:?}");
    } else {
        assert!(hi < 0.0, "greedy does not beat random: {pair:?}");
    }

    let o = ok(&s.0, &["agents"]);
    let text = stdout(&o);
    for name in ["random", "first", "greedy"] {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{name} "))),
            "agents does not list {name}:\n{text}"
        );
    }
    let greedy = text.split("\ngreedy ").nth(1).expect("a greedy entry");
    assert!(
        greedy.contains("tiebreak="),
        "no tiebreak parameter:\n{text}"
    );
}

#[test]
fn a_run_without_games_removes_a_stale_games_csv_and_merge_checks_rows() {
    let s = Scratch::new("stale");
    let with = s.write("with.toml", &experiment(&GREEDY_VS_RANDOM, 40, 5, true));
    let without = s.write(
        "without.toml",
        &experiment(&GREEDY_VS_RANDOM, 40, 5, true)
            .replace("games_csv = true", "games_csv = false"),
    );
    ok(&s.0, &["run", &with, "--quiet", "--output", "out"]);
    assert!(s.path("out/games.csv").exists());
    ok(&s.0, &["run", &without, "--quiet", "--output", "out"]);
    assert!(
        !s.path("out/games.csv").exists(),
        "a games.csv of another run stayed beside the new summary"
    );
    // a shard whose games.csv does not match its tally is refused by merge
    ok(
        &s.0,
        &["run", &with, "--quiet", "--shard", "0/2", "--output", "s0"],
    );
    ok(
        &s.0,
        &["run", &with, "--quiet", "--shard", "1/2", "--output", "s1"],
    );
    let text = String::from_utf8(read(&s.path("s1/games.csv"))).unwrap();
    let cut: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    std::fs::write(s.path("s1/games.csv"), cut).unwrap();
    let o = bailab(
        &s.0,
        &["merge", "s0", "s1", "--quiet", "--output", "merged"],
    );
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("4 rows, but its tally counts 80 games"),
        "{}",
        stderr(&o)
    );
}
