//! Luck-corrected runs through the real binary (`estimator = "luck-corrected"`, docs/variance.md):
//! the corrected rows are exact whatever the threads or shards (a merge of shards equals the
//! whole run byte for byte), a plain run of the same experiment keeps its plain figures and
//! writes nothing corrected, and every bad key is named. (That the correction has mean zero is
//! `luck.rs`'s.)

use crate::common::*;
use std::path::Path;

/// An experiment of `agents` in Tứ Sắc classic with the lines `extra` (keys and tables).
fn experiment(agents: &[&str], deals: u64, extra: &str) -> String {
    let agents: Vec<String> = agents.iter().map(|a| format!("\"{a}\"")).collect();
    format!(
        "name = \"luck\"\ngame = \"tusac\"\nagents = [{}]\ndeals = {deals}\nseed = 31\n{extra}\n",
        agents.join(", ")
    )
}

const CORRECTED: &str = "estimator = \"luck-corrected\"\n[value]\nplayouts = 4\n";

/// The `summary.csv` rows of `kind` in `dir`: (agent, versus, deals, mean, lo, hi).
fn pair_rows(dir: &Path, kind: &str) -> Vec<(String, String, u64, f64, f64, f64)> {
    let mut r = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let at = |name: &str| h.iter().position(|x| x == name).unwrap();
    r.records()
        .map(|x| x.unwrap())
        .filter(|x| &x[at("kind")] == kind)
        .map(|x| {
            let f = |name: &str| x[at(name)].parse::<f64>().unwrap();
            (
                x[at("agent")].to_string(),
                x[at("versus")].to_string(),
                x[at("deals")].parse().unwrap(),
                f("mean_diff"),
                f("mean_diff_lo95"),
                f("mean_diff_hi95"),
            )
        })
        .collect()
}

#[test]
fn corrected_rows_are_exact_across_threads_and_shards() {
    let s = Scratch::new("luck-exact");
    let exp = s.write(
        "e.toml",
        &experiment(&["greedy", "first", "greedy", "first"], 24, CORRECTED),
    );
    ok(
        &s.0,
        &["run", &exp, "--quiet", "--threads", "1", "--output", "one"],
    );
    ok(
        &s.0,
        &["run", &exp, "--quiet", "--threads", "2", "--output", "two"],
    );
    for k in ["0/2", "1/2"] {
        let out = format!("shard-{}", &k[..1]);
        ok(
            &s.0,
            &["run", &exp, "--quiet", "--shard", k, "--output", &out],
        );
    }
    ok(
        &s.0,
        &[
            "merge", "shard-0", "shard-1", "--quiet", "--output", "merged",
        ],
    );
    for other in ["two", "merged"] {
        assert_same_files(
            &s.path("one"),
            &s.path(other),
            &["summary.csv", "tally.json"],
        );
    }
    let corrected = pair_rows(&s.path("one"), "pair-luck-corrected");
    let plain = pair_rows(&s.path("one"), "pair");
    assert_eq!(corrected.len(), 1);
    assert_eq!((&corrected[0].0, corrected[0].2), (&plain[0].0, 24));
    assert_ne!(corrected[0].3, plain[0].3, "the correction changed nothing");

    // The same experiment without the estimator: the same plain row, no corrected one.
    let plain_exp = s.write(
        "p.toml",
        &experiment(&["greedy", "first", "greedy", "first"], 24, ""),
    );
    ok(&s.0, &["run", &plain_exp, "--quiet", "--output", "plain"]);
    assert_eq!(pair_rows(&s.path("plain"), "pair"), plain);
    assert!(pair_rows(&s.path("plain"), "pair-luck-corrected").is_empty());
    let tally = std::fs::read_to_string(s.path("plain/tally.json")).unwrap();
    assert!(!tally.contains("corrected"), "{tally}");
}

#[test]
fn bad_estimator_keys_are_named() {
    let s = Scratch::new("luck-bad");
    let cases = [
        ("estimator = \"lucky\"\n", "estimator"),
        ("[value]\nplayouts = 8\n", "estimator = \"luck-corrected\""),
        (
            "estimator = \"luck-corrected\"\n[value]\nplayouts = 0\n",
            "'playouts': 0",
        ),
        (
            "estimator = \"luck-corrected\"\n[value]\nagent = \"nobody\"\n",
            "table [value], key 'agent'",
        ),
        (
            "estimator = \"luck-corrected\"\n[value]\nrollouts = 8\n",
            "rollouts",
        ),
        (
            "estimator = \"luck-corrected\"\n[value.stand_in]\nfirst = \"random\"\n",
            "only with agent = \"seated\"",
        ),
        (
            "estimator = \"luck-corrected\"\n[value]\nagent = \"seated\"\n\
             [value.stand_in]\nrandom = \"first\"\n",
            "'random' is not one of the agents",
        ),
        (
            "estimator = \"luck-corrected\"\n[value]\nagent = \"seated\"\n\
             [value.stand_in]\nfirst = \"nobody\"\n",
            "key 'stand_in', 'first'",
        ),
    ];
    for (i, (extra, expected)) in cases.iter().enumerate() {
        let exp = s.write(
            &format!("e{i}.toml"),
            &experiment(&["greedy", "first"], 4, extra),
        );
        let message = fails(&s.0, &["run", &exp, "--quiet"]);
        assert!(message.contains(expected), "{extra}: {message}");
        assert!(!s.path("results/luck").exists(), "{extra}: wrote results");
    }
}

/// `agent = "seated"`: each seat's playouts by the agent seated there, or its stand-in.
const SEATED: &str = "estimator = \"luck-corrected\"\n[value]\nagent = \"seated\"\nplayouts = 4\n";

#[test]
fn seated_playouts_are_exact_and_follow_the_seats() {
    let s = Scratch::new("luck-seated");
    let agents = ["greedy", "first", "greedy", "first"];
    let seated = s.write("seated.toml", &experiment(&agents, 24, SEATED));
    for threads in ["1", "2"] {
        let out = format!("seated-{threads}");
        ok(
            &s.0,
            &[
                "run",
                &seated,
                "--quiet",
                "--threads",
                threads,
                "--output",
                &out,
            ],
        );
    }
    assert_same_files(
        &s.path("seated-1"),
        &s.path("seated-2"),
        &["summary.csv", "tally.json"],
    );
    // Every seat's playouts by greedy, through a stand-in for `first`, are the fixed value
    // of greedy playouts; seated as they sit, they are not.
    let all_greedy = format!("{SEATED}[value.stand_in]\nfirst = \"greedy\"\n");
    let stand_in = s.write("stand-in.toml", &experiment(&agents, 24, &all_greedy));
    let fixed = s.write("fixed.toml", &experiment(&agents, 24, CORRECTED));
    ok(&s.0, &["run", &stand_in, "--quiet", "--output", "stand-in"]);
    ok(&s.0, &["run", &fixed, "--quiet", "--output", "fixed"]);
    let corrected = |dir: &str| pair_rows(&s.path(dir), "pair-luck-corrected");
    assert_eq!(corrected("stand-in"), corrected("fixed"));
    assert_ne!(corrected("seated-1"), corrected("fixed"), "seating ignored");
    assert_eq!(
        pair_rows(&s.path("seated-1"), "pair"),
        pair_rows(&s.path("fixed"), "pair")
    );
}

#[test]
fn a_sequential_test_can_read_the_corrected_differences() {
    let s = Scratch::new("luck-sprt");
    let sprt = "[sprt]\nh1 = 3\nchunk = 8\nestimator = \"luck-corrected\"\n";
    let agents = ["greedy", "first", "greedy", "first"];
    let exp = s.write(
        "e.toml",
        &experiment(&agents, 400, &format!("{CORRECTED}{sprt}")),
    );
    ok(&s.0, &["run", &exp, "--quiet", "--output", "out"]);
    let meta: serde_json::Value = serde_json::from_slice(&read(&s.path("out/meta.json"))).unwrap();
    assert_eq!(meta["sprt"]["estimator"], "luck-corrected", "{meta}");
    // Its last look is the corrected row of the deals played, not the plain one.
    let mut looks = csv::Reader::from_path(s.path("out/sprt.csv")).unwrap();
    let last = looks.records().last().unwrap().unwrap();
    let corrected = pair_rows(&s.path("out"), "pair-luck-corrected");
    let plain = pair_rows(&s.path("out"), "pair");
    assert_eq!(last[0].parse::<u64>().unwrap(), corrected[0].2);
    let mean: f64 = last[4].parse().unwrap();
    assert!(
        (mean - corrected[0].3).abs() < 1e-5,
        "{mean} vs {corrected:?}"
    );
    assert!((mean - plain[0].3).abs() > 1e-3, "{mean} is the plain mean");
    // The key needs a luck-corrected study.
    let plain_exp = s.write("p.toml", &experiment(&agents, 40, sprt));
    let message = fails(&s.0, &["run", &plain_exp, "--quiet"]);
    assert!(
        message.contains("table [sprt], key 'estimator'"),
        "{message}"
    );
}

#[test]
fn a_luck_corrected_tournament_gives_both_differences_in_pairs_csv() {
    let s = Scratch::new("luck-tournament");
    let t = s.write(
        "t.toml",
        "name = \"t\"\ngame = \"tusac\"\nagents = [\"greedy\", \"first\", \"random\"]\ndeals = 6\n\
         seed = 5\noutput = \"out\"\nestimator = \"luck-corrected\"\n[value]\nplayouts = 2\n\
         agent = \"seated\"\n[value.stand_in]\nrandom = \"first\"\n",
    );
    // A stand-in for an agent no tournament seats is refused by name.
    let bad = s.write(
        "bad.toml",
        &std::fs::read_to_string(&t)
            .unwrap()
            .replace("random = ", "nobody = "),
    );
    let message = fails(&s.0, &["tournament", &bad, "--quiet"]);
    assert!(
        message.contains("'nobody' is not one of the agents"),
        "{message}"
    );
    ok(&s.0, &["tournament", &t, "--quiet"]);
    let mut r = csv::Reader::from_path(s.path("out/pairs.csv")).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header[header.len() - 3..],
        [
            "corrected_mean_diff",
            "corrected_mean_diff_lo95",
            "corrected_mean_diff_hi95"
        ]
    );
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(rows.len(), 6, "every ordered pair");
    // ratings.csv adds the ratings fitted to the corrected pairs; the anchor's is 0.
    let mut ratings = csv::Reader::from_path(s.path("out/ratings.csv")).unwrap();
    let names: Vec<String> = ratings
        .headers()
        .unwrap()
        .iter()
        .map(String::from)
        .collect();
    assert_eq!(
        names[names.len() - 3..],
        [
            "corrected_rating",
            "corrected_rating_lo95",
            "corrected_rating_hi95"
        ]
    );
    let anchor = (ratings.records().map(|x| x.unwrap()))
        .find(|x| &x[5] == "greedy")
        .unwrap();
    assert_eq!(&anchor[names.len() - 3], "0.000000");
    // Each table's corrected row of summary.csv is the pair's corrected figure in pairs.csv.
    let table = pair_rows(&s.path("out/tables/00"), "pair-luck-corrected");
    let row = rows
        .iter()
        .find(|x| x[4] == table[0].0 && x[5] == table[0].1)
        .unwrap();
    let corrected: f64 = row[header.len() - 3].parse().unwrap();
    assert!(
        (corrected - table[0].3).abs() < 1e-9,
        "{corrected} vs {}",
        table[0].3
    );
}

#[test]
fn the_playout_agents_file_is_checked_as_the_seats_files_are() {
    let s = Scratch::new("luck-value-file");
    let weights = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("agents/tusac-classic-greedy.toml"),
    )
    .unwrap();
    s.write("w.toml", &weights);
    let value =
        "estimator = \"luck-corrected\"\n[value]\nagent = \"greedy:w.toml\"\nplayouts = 2\n";
    let exp = s.write("e.toml", &experiment(&["greedy", "first"], 4, value));
    ok(
        &s.0,
        &["run", &exp, "--quiet", "--shard", "0/2", "--output", "s0"],
    );
    let tally: serde_json::Value = serde_json::from_slice(&read(&s.path("s0/tally.json"))).unwrap();
    assert!(tally["agent_files"]["w.toml"].is_string(), "{tally}");
}
