//! `bailab tournament`: agents of known order come out in that order, the cross-table is the
//! pairwise experiments run one by one, a stopped, killed or sharded tournament gives the files
//! of a whole one, and bad tournaments are refused by name.

use crate::common::{self, Scratch};
use std::path::Path;

/// The pairs' files and those of each table that a whole run, a resumed one and a merge of
/// shards must write alike.
fn same_tournament(a: &Path, b: &Path, tables: usize) {
    common::assert_same_files(
        a,
        b,
        &[
            "pairs.csv",
            "crosstable.csv",
            "ratings.csv",
            "tournament.json",
        ],
    );
    for t in 0..tables {
        common::assert_same_files(
            &a.join(format!("tables/{t:02}")),
            &b.join(format!("tables/{t:02}")),
            &["summary.csv", "tally.json", "meta.json"],
        );
    }
}

/// The CSV rows of a file as vectors of fields (header first).
fn rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap();
    r.records()
        .map(|x| x.unwrap().iter().map(str::to_string).collect())
        .collect()
}

fn column(header: &[String], name: &str) -> usize {
    header.iter().position(|h| h == name).unwrap()
}

/// Greedy beats first and first beats random in Tiến Lên by wide margins (greedy over random
/// +2.4 half-cược per game in results/tienlen-greedy-vs-random): the ratings must find that
/// order, with intervals apart, and random, the anchor, at 0.
#[test]
fn agents_of_known_order_are_rated_in_that_order() {
    let s = Scratch::new("tournament-order");
    let args = [
        "tournament",
        "--game",
        "tienlen",
        "--agent",
        "first",
        "--agent",
        "greedy",
        "--agent",
        "random",
        "--anchor",
        "random",
        "--deals",
        "200",
        "--seed",
        "1",
        "--output",
        "t",
    ];
    let out = common::ok(&s.0, &args);
    let table = rows(&s.path("t/ratings.csv"));
    let (agent, rating) = (column(&table[0], "agent"), column(&table[0], "rating"));
    let (lo, hi) = (
        column(&table[0], "rating_lo95"),
        column(&table[0], "rating_hi95"),
    );
    let order: Vec<&str> = table[1..].iter().map(|r| r[agent].as_str()).collect();
    assert_eq!(order, ["greedy", "first", "random"]);
    let num = |r: usize, c: usize| table[r][c].parse::<f64>().unwrap();
    assert!(
        num(1, lo) > num(2, hi),
        "greedy and first overlap: {table:?}"
    );
    assert!(num(2, lo) > 0.0, "first does not clear random: {table:?}");
    assert_eq!(num(3, rating), 0.0);
    assert!(common::stdout(&out).contains("1. greedy"));
}

/// Each table of a tournament is the experiment of its pair, seats alternated and rotated: run
/// one by one with `bailab run`, each gives the same summary, and its pair row the tournament's
/// pairs.csv and cross-table cells.
#[test]
fn the_cross_table_is_the_pairwise_experiments_run_one_by_one() {
    let s = Scratch::new("tournament-pairwise");
    let agents = ["random", "first", "greedy"];
    let mut args = vec![
        "tournament",
        "--game",
        "chan",
        "--deals",
        "40",
        "--seed",
        "9",
    ];
    for a in agents {
        args.extend(["--agent", a]);
    }
    args.extend(["--output", "t", "-q"]);
    common::ok(&s.0, &args);
    let pairs = rows(&s.path("t/pairs.csv"));
    let cross = rows(&s.path("t/crosstable.csv"));
    let mut table = 0;
    for i in 0..3 {
        for j in i + 1..3 {
            let (a, b) = (agents[i], agents[j]);
            let exp = format!(
                "game = \"chan\"\nagents = [\"{a}\", \"{b}\", \"{a}\", \"{b}\"]\ndeals = 40\n\
                 seed = 9\noutput = \"pair-{table}\"\n"
            );
            let file = s.write(&format!("pair-{table}.toml"), &exp);
            common::ok(&s.0, &["run", &file, "-q"]);
            common::assert_same_files(
                &s.path(&format!("pair-{table}")),
                &s.path(&format!("t/tables/{table:02}")),
                &["summary.csv"],
            );
            let summary = rows(&s.path(&format!("pair-{table}/summary.csv")));
            let h = &summary[0];
            let row = summary
                .iter()
                .find(|r| r[column(h, "kind")] == "pair")
                .unwrap();
            let want: Vec<&str> = ["deals", "mean_diff", "mean_diff_lo95", "mean_diff_hi95"]
                .iter()
                .map(|c| row[column(h, c)].as_str())
                .collect();
            let ph = &pairs[0];
            let got = pairs
                .iter()
                .find(|r| r[column(ph, "agent")] == a && r[column(ph, "versus")] == b)
                .unwrap();
            let got: Vec<&str> = ["deals", "mean_diff", "mean_diff_lo95", "mean_diff_hi95"]
                .iter()
                .map(|c| got[column(ph, c)].as_str())
                .collect();
            assert_eq!(got, want, "{a} vs {b}");
            assert_eq!(cross[i + 1][j + 1], want[1], "cross-table {a} vs {b}");
            let negated: f64 = cross[j + 1][i + 1].parse().unwrap();
            assert_eq!(negated, -want[1].parse::<f64>().unwrap());
            table += 1;
        }
    }
}

/// With every subset seated, a table of three agents at three seats gives each pair the paired
/// difference its experiment gives.
#[test]
fn a_subset_table_gives_each_pair_its_experiment_row() {
    let s = Scratch::new("tournament-subsets");
    let args = [
        "tournament",
        "--game",
        "tienlen",
        "--players",
        "3",
        "--seating",
        "subsets",
        "--agent",
        "random",
        "--agent",
        "first",
        "--agent",
        "greedy",
        "--deals",
        "30",
        "--output",
        "t",
        "-q",
    ];
    common::ok(&s.0, &args);
    let exp = "game = \"tienlen\"\nagents = [\"random\", \"first\", \"greedy\"]\ndeals = 30\n\
               output = \"one\"\n";
    let file = s.write("one.toml", exp);
    common::ok(&s.0, &["run", &file, "-q"]);
    common::assert_same_files(&s.path("one"), &s.path("t/tables/00"), &["summary.csv"]);
    let summary = rows(&s.path("one/summary.csv"));
    let pairs = rows(&s.path("t/pairs.csv"));
    let (h, ph) = (&summary[0], &pairs[0]);
    for row in summary.iter().filter(|r| r[column(h, "kind")] == "pair") {
        let (a, b) = (&row[column(h, "agent")], &row[column(h, "versus")]);
        let got = pairs
            .iter()
            .find(|r| &r[column(ph, "agent")] == a && &r[column(ph, "versus")] == b)
            .unwrap();
        assert_eq!(got[column(ph, "mean_diff")], row[column(h, "mean_diff")]);
        assert_eq!(
            got[column(ph, "mean_diff_lo95")],
            row[column(h, "mean_diff_lo95")]
        );
    }
}

const SLOW: [&str; 13] = [
    "tournament",
    "--game",
    "tienlen",
    "--agent",
    "random",
    "--agent",
    "greedy",
    "--agent",
    "ismcts:iters=10",
    "--deals",
    "120",
    "--seed",
    "5",
];

fn slow(extra: &[&str]) -> Vec<String> {
    SLOW.iter().chain(extra).map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_stopped_killed_or_sharded_tournament_gives_the_files_of_a_whole_one() {
    let s = Scratch::new("tournament-resume");
    common::ok(&s.0, &strs(&slow(&["--output", "whole", "-q"])));

    // The time budget stops it part way: the files say partial, --resume finishes it.
    let budget = slow(&[
        "--output",
        "budget",
        "--budget-minutes",
        "0.003",
        "-q",
        "--threads",
        "1",
    ]);
    common::ok(&s.0, &strs(&budget));
    let file = String::from_utf8(common::read(&s.path("budget/tournament.json"))).unwrap();
    assert!(file.contains("\"status\": \"partial\""), "{file}");
    let e = common::fails(&s.0, &strs(&slow(&["--output", "budget"])));
    assert!(e.contains("--resume"), "{e}");
    common::ok(&s.0, &["tournament", "--resume", "budget", "-q"]);
    same_tournament(&s.path("whole"), &s.path("budget"), 3);

    // Killed in its second table, it resumes from the tables done and the checkpoint.
    let killed = slow(&[
        "--output",
        "killed",
        "-q",
        "--threads",
        "1",
        "--checkpoint-secs",
        "0",
    ]);
    let mut child = common::spawn(&s.0, &strs(&killed));
    common::wait_for(&s.path("killed/tables/01/checkpoint.json"), &mut child);
    child.kill().unwrap();
    child.wait().unwrap();
    common::ok(&s.0, &["tournament", "--resume", "killed", "-q"]);
    same_tournament(&s.path("whole"), &s.path("killed"), 3);

    // Shards of every table, merged.
    for k in ["0/3", "1/3", "2/3"] {
        common::ok(
            &s.0,
            &strs(&slow(&["--output", "sharded", "--shard", k, "-q"])),
        );
    }
    let shard = |k| format!("sharded/shard-{k}-of-3");
    common::ok(
        &s.0,
        &[
            "merge",
            &shard(0),
            &shard(1),
            &shard(2),
            "--output",
            "merged",
            "-q",
        ],
    );
    same_tournament(&s.path("whole"), &s.path("merged"), 3);
    let e = common::fails(&s.0, &["merge", &shard(0), &shard(2), "--output", "m2"]);
    assert!(e.contains("missing"), "{e}");
}

#[test]
fn bad_tournaments_are_refused_by_name() {
    let s = Scratch::new("tournament-bad");
    let base = [
        "tournament",
        "--game",
        "tienlen",
        "--deals",
        "5",
        "--output",
        "t",
    ];
    let cases: [(&[&str], &str); 5] = [
        (&["--agent", "random", "--agent", "nosuch"], "nosuch"),
        (
            &["--agent", "random", "--agent", "random"],
            "'random' is listed twice",
        ),
        (&["--agent", "random"], "at least two agents"),
        (
            &[
                "--agent", "random", "--agent", "first", "--anchor", "greedy",
            ],
            "'greedy' is not one of the agents",
        ),
        (
            &[
                "--agent",
                "random",
                "--agent",
                "first",
                "--seating",
                "subsets",
            ],
            "subsets of 4 agents need at least 4",
        ),
    ];
    for (extra, message) in cases {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let e = common::fails(&s.0, &args);
        assert!(e.contains(message), "{extra:?}: {e}");
    }
    let file = s.write(
        "t.toml",
        "game = \"tienlen\"\nagents = [\"random\", \"first\"]\ndeals = 5\nrounds = 3\n",
    );
    let e = common::fails(&s.0, &["tournament", &file]);
    assert!(e.contains("rounds") && e.contains("t.toml"), "{e}");

    // A folder holding another tournament is refused and left as it was.
    common::ok(
        &s.0,
        &[
            "tournament",
            "--game",
            "tienlen",
            "--agent",
            "random",
            "--agent",
            "first",
            "--deals",
            "5",
            "--output",
            "t",
            "-q",
        ],
    );
    let before = common::read(&s.path("t/ratings.csv"));
    let e = common::fails(
        &s.0,
        &[
            "tournament",
            "--game",
            "tienlen",
            "--agent",
            "random",
            "--agent",
            "greedy",
            "--deals",
            "5",
            "--output",
            "t",
        ],
    );
    assert!(e.contains("another tournament"), "{e}");
    assert_eq!(common::read(&s.path("t/ratings.csv")), before);
    // --force replaces it: the other agents, their tables played afresh.
    let forced = [
        "tournament",
        "--game",
        "tienlen",
        "--agent",
        "random",
        "--agent",
        "greedy",
        "--deals",
        "5",
        "--output",
        "t",
        "-q",
        "--force",
    ];
    common::ok(&s.0, &forced);
    let ratings = String::from_utf8(common::read(&s.path("t/ratings.csv"))).unwrap();
    assert!(
        ratings.contains(",greedy,") && !ratings.contains(",first,"),
        "{ratings}"
    );
}
