//! Inputs of any size: `check` streams its records (a verdict comes out before the input ends)
//! and refuses a record line too long to be one; it reads records written over several lines
//! and says where one was cut short; `analyze -` refuses a line too long to be a hand.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use crate::common::{self, Scratch};

/// Records of three seeded Tiến Lên games, each as one JSON line.
fn record_lines(dir: &Scratch) -> Vec<String> {
    (1..=3)
        .map(|seed| {
            let seed = seed.to_string();
            let args = ["play", "--game", "tienlen", "--seed", &seed, "--json"];
            let out = common::ok(&dir.0, &args);
            let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            serde_json::to_string(&record).unwrap()
        })
        .collect()
}

#[test]
fn check_refuses_a_ten_megabyte_line_and_checks_the_records_around_it() {
    let dir = Scratch::new("check-long-line");
    let r = record_lines(&dir);
    let long = "x".repeat(10 << 20);
    let path = dir.write("big.jsonl", &format!("{}\n{long}\n{}\n", r[0], r[1]));
    let out = common::bailab(&dir.0, &["check", &path]);
    assert!(!out.status.success());
    let text = common::stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].ends_with(": ok"), "{text}");
    assert_eq!(
        lines[1],
        "record 2 (line 2): the line is 10485760 bytes long, over the 4 MiB a record may take: \
         refused"
    );
    assert!(lines[2].starts_with("record 3 (line 3, seed 2,"), "{text}");
    assert_eq!(lines[3], "3 records: 2 ok, 1 failed");
}

#[test]
fn check_gives_each_verdict_before_its_input_ends() {
    let dir = Scratch::new("check-stream");
    let r = record_lines(&dir);
    let mut child = common::command(&dir.0, &["check", "-"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    for (i, record) in r.iter().enumerate() {
        writeln!(stdin, "{record}").unwrap();
        stdin.flush().unwrap();
        // The verdict of this record arrives while standard input is still open.
        let verdict = rx.recv_timeout(Duration::from_secs(60)).unwrap();
        let start = format!("record {} (line {}, seed {},", i + 1, i + 1, i + 1);
        assert!(verdict.starts_with(&start), "{verdict}");
        assert!(verdict.ends_with(": ok"), "{verdict}");
    }
    drop(stdin);
    assert_eq!(
        rx.recv_timeout(Duration::from_secs(60)).unwrap(),
        "3 records: 3 ok, 0 failed"
    );
    assert!(child.wait().unwrap().success());
}

#[test]
fn check_reads_records_over_several_lines_and_finds_one_cut_short() {
    let dir = Scratch::new("check-pretty");
    let r = record_lines(&dir);
    let pretty = |s: &str| {
        let v: serde_json::Value = serde_json::from_str(s).unwrap();
        serde_json::to_string_pretty(&v).unwrap()
    };
    let first = pretty(&r[0]);
    let first_lines = first.lines().count();
    let text = format!("{first}\n\n{}\n{}\n{}\n", &r[1][..300], r[2], pretty(&r[1]));
    let path = dir.write("mixed.json", &text);
    let out = common::bailab(&dir.0, &["check", &path]);
    let text = common::stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let cut = first_lines + 2;
    assert!(lines[0].starts_with("record 1 (line 1, seed 1,"), "{text}");
    assert_eq!(
        lines[1],
        format!(
            "record 2 (line {cut}): not a record: cut short before line {}",
            cut + 1
        )
    );
    assert!(
        lines[2].starts_with(&format!("record 3 (line {}, seed 3,", cut + 1)),
        "{text}"
    );
    assert!(
        lines[3].starts_with(&format!("record 4 (line {}, seed 2,", cut + 2)),
        "{text}"
    );
    assert_eq!(lines[4], "4 records: 3 ok, 1 failed");
}

#[test]
fn analyze_refuses_a_line_too_long_to_be_a_hand_and_answers_the_others() {
    let dir = Scratch::new("analyze-long-line");
    let input = format!("rK rK\n{}\nrK\n", "x".repeat(1 << 20));
    let out = common::bailab_with_input(&dir.0, &["analyze", "--game", "tusac", "-"], Some(&input));
    assert!(!out.status.success());
    let text = common::stdout(&out);
    let answers: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 3, "{text}");
    assert_eq!(answers[0]["hand"], "rK rK");
    assert_eq!(answers[1]["line"], 2);
    assert_eq!(
        answers[1]["error"],
        "the line is 1048576 bytes long, over the 64 KiB an input line may take: refused"
    );
    assert_eq!(answers[2]["hand"], "rK");
}
