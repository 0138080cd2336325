//! Hostile inputs (issue 44, items 5 to 7): counts too large to hold are refused at once naming
//! their flag; every file is read through a bounded reader and a file over its cap is refused;
//! a file that is not of its kind is never quoted; an absurd interval does not hang `plot` or
//! `report`; a record relabelled to another variant is refused.

use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::{self, Scratch};

/// Runs bailab, killing it (and failing the test) if it has not ended within `secs` seconds.
fn within(secs: u64, dir: &Scratch, args: &[&str]) -> Output {
    let mut child = common::spawn(&dir.0, args);
    let began = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if began.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("bailab {args:?} still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Runs bailab expecting a quick failure (no abort, no panic) whose message has `words`.
fn refused(dir: &Scratch, args: &[&str], words: &str) -> String {
    let out = within(30, dir, args);
    let err = common::stderr(&out);
    assert_eq!(
        out.status.code(),
        Some(if err.starts_with("error: invalid value") {
            2
        } else {
            1
        }),
        "{args:?}: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(err.contains(words), "{args:?}: {err}");
    err
}

#[test]
fn counts_too_large_to_hold_are_refused_naming_their_flag() {
    let s = Scratch::new("huge-counts");
    let out = s.path("out").display().to_string();
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "deals",
                "--game",
                "tienlen",
                "--deals",
                "10000000000000",
                "-q",
                "--output",
                &out,
            ],
            "--deals",
        ),
        (
            &["soak", "tienlen", "--games", "1000000000000", "-q"],
            "--games",
        ),
        (
            &[
                "learn",
                "--game",
                "tienlen",
                "--teacher-deals",
                "1000000000000",
            ],
            "--teacher-deals",
        ),
        (
            &[
                "learn",
                "--game",
                "tienlen",
                "--teacher-deals",
                "18446744073709551615",
            ],
            "--teacher-deals",
        ),
        (
            &["learn", "--game", "tienlen", "--deals", "1000000000000"],
            "--deals",
        ),
    ];
    for (args, flag) in cases {
        refused(&s, args, &format!("for '{flag} <"));
    }
    assert!(!s.path("out").exists());
}

#[test]
fn every_file_over_its_cap_is_refused_before_it_is_read() {
    let s = Scratch::new("over-cap");
    let big = s.write("big.toml", &format!("# {}\n", "0".repeat(2 << 20)));
    let deck = s.write("deck.txt", &"yE ".repeat(30_000));
    let rules = format!("rules:{big}");
    let greedy = format!("greedy:{big}");
    let cases: [(&[&str], &str); 6] = [
        (
            &["play", "--game", "tusac", "--agent", &rules],
            "a rule file is at most 1048576 bytes",
        ),
        (
            &["play", "--game", "tusac", "--agent", &greedy],
            "a greedy weight file is at most",
        ),
        (
            &["play", "--game", "tusac", "--deck-file", &deck],
            "a deck file is at most 65536 bytes",
        ),
        (
            &["play", "--game", "tusac", "--deal", &big],
            "a deal file is at most",
        ),
        (
            &["equity", "--game", "tusac", "--view", &big],
            "a position file is at most",
        ),
        (&["tournament", &big], "a tournament file is at most 1 MiB"),
    ];
    for (args, words) in cases {
        let err = refused(&s, args, words);
        assert!(err.len() < 600, "{args:?}: {} bytes of message", err.len());
    }
}

#[test]
fn a_file_that_is_not_of_its_kind_is_not_quoted() {
    let s = Scratch::new("not-quoted");
    let shadow = s.write(
        "shadow",
        "root:$6$secretHASH:19000:0:99999:7:::\nbin:*:19000\n",
    );
    let zeros = s.write("zeros", &"0".repeat(1 << 20));
    for file in [&shadow, &zeros] {
        for agent in [format!("rules:{file}"), format!("greedy:{file}")] {
            let err = refused(
                &s,
                &["play", "--game", "tusac", "--agent", &agent],
                "(not TOML)",
            );
            assert!(
                !err.contains("secretHASH") && !err.contains("0000"),
                "{err}"
            );
        }
    }
    let binary = s.write("binary", "game = \"tusac\"\n\u{1}\u{2}\n");
    refused(
        &s,
        &[
            "play",
            "--game",
            "tusac",
            "--agent",
            &format!("rules:{binary}"),
        ],
        "binary",
    );
    // A rule file with a fault past its first line is one: its line is quoted, cut and escaped.
    let long = format!("game = \"tusac\"\n{} x\n", "k".repeat(200));
    let typo = s.write("typo.toml", &long);
    let err = refused(
        &s,
        &[
            "play",
            "--game",
            "tusac",
            "--agent",
            &format!("rules:{typo}"),
        ],
        "line 2",
    );
    assert!(err.contains(&format!("2 | {}…", "k".repeat(60))), "{err}");
}

/// A run's folder whose summary has the interval [-1e308, 1e308] in `column`.
fn edited_summary(s: &Scratch, column: &str) -> String {
    let dir = s.path(column);
    std::fs::create_dir_all(&dir).unwrap();
    let run = ["run", "-q", "--output", column];
    common::ok(&s.0, &run);
    let path = dir.join("summary.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let at = |name: &str| lines[0].iter().position(|h| h == name).unwrap();
    let (lo, hi) = (at(&format!("{column}_lo95")), at(&format!("{column}_hi95")));
    let row = lines
        .iter()
        .position(|l| !l[lo].is_empty() && l[lo] != format!("{column}_lo95"))
        .unwrap();
    lines[row][lo] = "-1e308".into();
    lines[row][hi] = "1e308".into();
    let text: Vec<String> = lines.iter().map(|l| l.join(",")).collect();
    std::fs::write(&path, text.join("\n") + "\n").unwrap();
    dir.display().to_string()
}

#[test]
fn plot_and_report_refuse_an_absurd_interval_at_once() {
    let s = Scratch::new("absurd-interval");
    for column in ["win_rate", "mean_diff"] {
        let dir = edited_summary(&s, column);
        let csv = format!("{dir}/summary.csv");
        let page = format!("{dir}/page.html");
        for args in [vec!["plot", &csv], vec!["report", &dir, "--output", &page]] {
            refused(
                &s,
                &args,
                &format!("column `{column}_lo95`: -1e308 is beyond ±1e15"),
            );
        }
    }
}

#[test]
fn a_record_relabelled_to_another_variant_is_refused() {
    let s = Scratch::new("relabelled");
    for (from, to) in [("sisepai21", "classic"), ("classic", "sisepai21")] {
        let out = common::ok(
            &s.0,
            &["play", "--game", "tusac", "--variant", from, "--json"],
        );
        let mut record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        record["variant"] = to.into();
        let file = s.write("relabelled.json", &record.to_string());
        let out = common::bailab(&s.0, &["check", &file]);
        let text = common::stdout(&out);
        assert!(!out.status.success(), "{text}");
        assert!(
            text.contains(&format!("variant is {to}, but the rules are {from}'s")),
            "{text}"
        );
        assert!(text.contains("decks"), "{text}");
    }
}
