//! The `bailab` binary end to end: analyze (readable, JSON, JSON Lines), play, and bad input.

use std::path::Path;
use std::process::Output;

use crate::common;

/// Runs bailab in the package folder (where cargo runs tests) with `stdin` as its input.
fn bailab(args: &[&str], stdin: Option<&str>) -> Output {
    common::bailab_with_input(Path::new(env!("CARGO_MANIFEST_DIR")), args, stdin)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn vectors() -> Vec<serde_json::Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/vectors/tusac-trash.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn analyze_gives_every_section_3_5_answer_in_json_and_text() {
    for row in vectors() {
        let block = row["block"].as_str().unwrap();
        let o = bailab(&["analyze", "--game", "tusac", "--json", block], None);
        assert!(o.status.success(), "{}", stderr(&o));
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(j["trash"], row["trash"], "row {}", row["id"]);
        assert_eq!(
            j["trash_cards"].as_array().unwrap().len() as u64,
            row["trash"].as_u64().unwrap()
        );
        let o = bailab(&["analyze", "--variant", "classic", block], None);
        let text = stdout(&o);
        let line = text.lines().find(|l| l.starts_with("trash ")).unwrap();
        assert_eq!(
            line.split_whitespace().nth(1).unwrap(),
            row["trash"].to_string(),
            "row {}",
            row["id"]
        );
    }
}

#[test]
fn analyze_json_lines_reports_bad_lines_and_goes_on() {
    let input = "rK rA rE\nrK zQ\n\nrR rR rC rC rH\n";
    let o = bailab(&["analyze", "--game", "tusac", "-"], Some(input));
    assert!(
        !o.status.success(),
        "a failed line makes the exit status non-zero"
    );
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // one output line per input line, the blank one included: line N answers line N
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["trash"], 0);
    assert_eq!(lines[1]["hand"], "rK zQ");
    assert_eq!(lines[1]["line"], 2, "an error names its line");
    assert!(lines[1]["error"].as_str().unwrap().contains("card 2 'zQ'"));
    assert_eq!(lines[2]["line"], 3);
    assert!(lines[2]["error"].as_str().unwrap().contains("blank line"));
    assert_eq!(lines[3]["trash"], 1);
    assert_eq!(lines[3]["sets"].as_array().unwrap().len(), 2);
}

#[test]
fn analyze_json_lines_reports_a_line_that_is_not_utf8_and_goes_on() {
    use std::io::Write;
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut child = common::command(here, &["analyze", "--game", "tusac", "-"])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"rK rA rE\nrK \xffA\r\nrR rR rC rC rH\n")
        .unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert!(
        !o.status.success(),
        "a failed line makes the exit status non-zero"
    );
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{}", stdout(&o));
    assert_eq!(lines[0]["trash"], 0);
    assert_eq!(lines[1]["line"], 2);
    let error = lines[1]["error"].as_str().unwrap();
    assert!(error.starts_with("not UTF-8: byte 4 (0xff)"), "{error}");
    assert_eq!(lines[1]["hand"], "rK \u{fffd}A");
    assert_eq!(
        lines[2]["trash"], 1,
        "the line after the bad one is analysed"
    );
}

#[test]
fn chan_analyze_takes_19_or_20_cards_only() {
    for (hand, n) in [
        ("2v 3v 4v", 3),
        ("2v 2v 3v 3n 4v 4n 4n 4s 5s 5s 6v 6v 6n 7s 7s 8n 8s 9v", 18),
    ] {
        let o = bailab(&["analyze", "--game", "chan", hand], None);
        assert!(!o.status.success(), "{hand}: {}", stdout(&o));
        let want = format!("hand: {n} cards, but the Chắn analyser takes a whole hand: 19 cards");
        assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    }
    let nineteen = "2v 2v 3v 3n 4v 4n 4n 4s 5s 5s 6v 6v 6n 7s 7s 8n 8s 9v 9n";
    let o = bailab(&["analyze", "--game", "chan", "--json", nineteen], None);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn analyze_worst_card_uses_seen_cards() {
    // §5.2 W1
    let o = bailab(
        &[
            "analyze",
            "--json",
            "--seen",
            "rH rH rC gH gH gH yP",
            "rR rC gH yP wA wA gK gA gE yR yC yH",
        ],
        None,
    );
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["worst"], serde_json::json!(["gH"]));
    assert_eq!(j["outs"]["rR"], 5);
    assert_eq!(j["outs"]["yP"], 2);
}

#[test]
fn bad_input_is_a_clear_error() {
    let cases: [(&[&str], &str); 5] = [
        (&["analyze", "rK rX"], "card 2 'rX'"),
        (&["analyze", ""], "empty"),
        (&["analyze", "rK rK rK rK rK"], "copy 5"),
        (
            &["analyze", "--variant", "nope", "rK"],
            "unknown variant 'nope'",
        ),
        (&["play", "--seed", "1", "--players", "5"], "players = 5"),
    ];
    for (args, needle) in cases {
        let o = bailab(args, None);
        assert!(!o.status.success(), "{args:?} must fail");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn play_prints_the_same_game_for_the_same_seed() {
    let a = bailab(
        &["play", "--game", "tusac", "--seed", "7", "--index", "2"],
        None,
    );
    let b = bailab(
        &["play", "--game", "tusac", "--seed", "7", "--index", "2"],
        None,
    );
    let c = bailab(
        &["play", "--game", "tusac", "--seed", "7", "--index", "3"],
        None,
    );
    assert!(a.status.success());
    assert_eq!(stdout(&a), stdout(&b));
    assert_ne!(stdout(&a), stdout(&c));
    let text = stdout(&a);
    for needle in [
        "deal:",
        "seat 0:",
        "play:",
        "final:",
        "outcome:",
        "payouts [",
    ] {
        assert!(text.contains(needle), "missing {needle}");
    }
}

#[test]
fn bench_times_the_variant_asked() {
    let args = |v: &'static str| {
        [
            "bench",
            "--game",
            "tusac",
            "--variant",
            v,
            "--deals",
            "40",
            "--hands",
            "60",
            "--searches",
            "1",
            "--ismcts-iters",
            "20",
            "--luck-deals",
            "2",
        ]
    };
    for (variant, own, not) in [
        (
            "sisepai21",
            "loose cards and points of a dealt 20-card hand",
            "trash",
        ),
        (
            "dirtyking26",
            "loose cards and points of a dealt 25-card hand",
            "trash",
        ),
        ("4sac", "trash of a 20-card block", "loose"),
    ] {
        let o = bailab(&args(variant), None);
        assert!(o.status.success(), "{variant}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains(&format!("tusac {variant} {own}")), "{text}");
        assert!(!text.contains(not), "{text}");
        for row in [
            "random×4, 1 thread(s)",
            "greedy×4, 1 thread(s)",
            "ismcts iters=20",
            "greedy×4, luck-corrected",
            "ismcts:iters=20×4, luck-corrected",
        ] {
            assert!(
                text.contains(&format!("tusac {variant} {row}")),
                "{row}: {text}"
            );
        }
        // the shipped network is timed as it plays, and alone when its file names a lookahead
        // (sisepai21 and dirtyking26; 4sac's names a margin)
        let shipped = format!("tusac net:agents/tusac-{variant}.safetensors, 1 thread");
        assert!(text.contains(&shipped), "{text}");
        let alone = format!("tusac net:agents/tusac-{variant}.safetensors,search=0, 1 thread");
        assert_eq!(text.contains(&alone), variant != "4sac", "{text}");
    }
}
