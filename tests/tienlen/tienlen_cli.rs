//! Tiến Lên through every command, end to end with the real binary: analyze (hands and plays,
//! readable, JSON, JSON Lines, every §10.1/§10.2 vector), play, replay, run (records that check,
//! matches), check (a tampered record is rejected), agents and errors.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;

/// Runs bailab in `cwd` (default: the package folder, as cargo runs tests).
fn bailab_in(cwd: Option<&Path>, args: &[&str], stdin: Option<&str>) -> Output {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    common::bailab_with_input(cwd.unwrap_or(here), args, stdin)
}

fn bailab(args: &[&str], stdin: Option<&str>) -> Output {
    bailab_in(None, args, stdin)
}

fn ok(args: &[&str]) -> String {
    let o = bailab(args, None);
    assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

fn vectors(name: &str) -> Vec<serde_json::Value> {
    let path = format!("{}/tests/data/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    let body = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    body.lines().map(json).collect()
}

/// A scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "bailab-tienlen-{name}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn analyze_classifies_every_section_10_1_vector_in_json_lines() {
    let vs = vectors("tienlen-classify.jsonl");
    let input: String = vs
        .iter()
        .map(|v| format!("{}\n", v["cards"].as_str().unwrap()))
        .collect();
    let o = bailab(
        &["analyze", "--game", "tienlen", "--play", "-"],
        Some(&input),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out: Vec<serde_json::Value> = text(&o.stdout).lines().map(json).collect();
    assert_eq!(out.len(), vs.len());
    for (v, got) in vs.iter().zip(&out) {
        assert_eq!(got["type"], v["type"], "{}", v["id"]);
        if !v["type"].is_null() {
            assert_eq!(got["size"], v["size"], "{}", v["id"]);
            assert_eq!(got["top"], v["top"], "{}", v["id"]);
        }
    }
}

#[test]
fn analyze_answers_every_section_10_2_beats_vector() {
    for v in vectors("tienlen-beats.jsonl") {
        let (a, b) = (v["a"].as_str().unwrap(), v["b"].as_str().unwrap());
        for (x, y, want) in [(a, b, &v["a_beats_b"]), (b, a, &v["b_beats_a"])] {
            let out = ok(&[
                "analyze",
                "--game",
                "tienlen",
                "--json",
                "--play",
                x,
                "--against",
                y,
            ]);
            assert_eq!(&json(&out)["beats"], want, "{} {x} on {y}", v["id"]);
        }
    }
}

#[test]
fn analyze_reports_chat_values_of_section_10_2() {
    // B3 value 1, B5 1.5, B6 1, B7 1.5, B8 1.5, B16 2; a plain beat is no chặt
    for (a, b, value) in [
        ("3s 3c 4d 4h 5s 5c", "2h", 1.0),
        ("9s 9c 9d 9h", "2s 2h", 1.5),
        ("9s 9c 9d 9h", "3s 3c 4d 4h 5s 5c", 1.0),
        ("Qs Qc Qd Qh", "4s 4c 4d 4h", 1.5),
        ("3s 3c 4d 4h 5s 5c 6d 6h", "Ks Kc Kd Kh", 1.5),
        ("3s 3c 4d 4h 5s 5c 6d 6h 7s 7c", "2s 2c 2h", 2.0),
    ] {
        let out = json(&ok(&[
            "analyze",
            "--game",
            "tienlen",
            "--json",
            "--play",
            a,
            "--against",
            b,
        ]));
        assert_eq!(out["chat"], true, "{a} on {b}");
        assert_eq!(out["chat_value"], value, "{a} on {b}");
    }
    let plain = json(&ok(&[
        "analyze",
        "--game",
        "tienlen",
        "--json",
        "--play",
        "2s",
        "--against",
        "Ah",
    ]));
    assert_eq!(
        (&plain["beats"], &plain["chat"]),
        (&true.into(), &false.into())
    );
    let text = ok(&[
        "analyze",
        "--game",
        "tienlen",
        "--play",
        "9s 9c 9d 9h",
        "--against",
        "2s 2h",
    ]);
    assert!(
        text.contains("Quad") && text.contains("chặt worth 1.5 cược"),
        "{text}"
    );
}

#[test]
fn analyze_a_hand_splits_it_and_finds_its_hang_heo_and_toi_trang() {
    // W3: a PS3 with 3s is a tới trắng in an initial game only
    let out = json(&ok(&[
        "analyze",
        "--game",
        "tienlen",
        "--json",
        "3s 3c 4d 4h 5s 5c 7c 9d Jh Qs Kd Ac 2h",
    ]));
    assert_eq!(out["combinations"], 5);
    assert_eq!(out["hang"][0]["type"], "PairSequence");
    assert_eq!(out["heo"], "2h");
    assert_eq!(out["thoi"], 2.0);
    assert_eq!(out["toi_trang"]["initial"][0], "BaDoiThongCo3Bich");
    assert_eq!(out["toi_trang"]["normal"].as_array().unwrap().len(), 0);
    // W1: six pairs
    let w1 = json(&ok(&[
        "analyze",
        "--game",
        "tienlen",
        "--json",
        "3s 3c 4s 5d 5h 7s 7c 9d 9h Js Jc Kd Kh",
    ]));
    assert_eq!(w1["toi_trang"]["normal"][0], "SauDoi");
    let readable = ok(&["analyze", "--game", "tienlen", "3s 4h 5d 6c 7s"]);
    assert!(
        readable.contains("[3s 4h 5d 6c 7s] Straight(5)"),
        "{readable}"
    );
}

#[test]
fn bad_tienlen_input_names_the_card_or_option() {
    let cases: [(&[&str], &str); 6] = [
        (&["analyze", "--game", "tienlen", "3s 3x"], "card 2 '3x'"),
        (&["analyze", "--game", "tienlen", "3s 3s"], "card 2 '3s'"),
        (
            &[
                "analyze", "--game", "tienlen", "--play", "3s 4s 5s", "4s 9h",
            ],
            "3s is not in the hand",
        ),
        (
            &["analyze", "--game", "tienlen", "--seen", "3s", "4s"],
            "--seen is not an option",
        ),
        (
            &["play", "--game", "tienlen", "--players", "5"],
            "5 players",
        ),
        (
            &["play", "--game", "tienlen", "--deck", "3s 4s"],
            "2 cards, a deck has 52",
        ),
    ];
    for (args, want) in cases {
        let o = bailab(args, None);
        assert!(!o.status.success(), "{args:?} should fail");
        assert!(
            text(&o.stderr).contains(want),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
    let o = bailab(&["analyze", "--game", "tienlen", "-"], Some("3s 4s\n9q\n"));
    assert!(!o.status.success());
    let lines: Vec<serde_json::Value> = text(&o.stdout).lines().map(json).collect();
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[1]["error"].as_str().unwrap().contains("'9q'"));
}

#[test]
fn play_is_deterministic_and_its_record_checks() {
    let a = ok(&[
        "play", "--game", "tienlen", "--seed", "4", "--agent", "greedy",
    ]);
    let b = ok(&[
        "play", "--game", "tienlen", "--seed", "4", "--agent", "greedy",
    ]);
    assert_eq!(a, b);
    assert_ne!(
        a,
        ok(&["play", "--game", "tienlen", "--seed", "5", "--agent", "greedy"])
    );
    let record = ok(&[
        "play",
        "--game",
        "tienlen",
        "--seed",
        "4",
        "--players",
        "3",
        "--json",
    ]);
    let o = bailab(&["check", "-"], Some(&record));
    assert!(o.status.success(), "{}", text(&o.stdout));
    // the same deck given back plays the same game
    let deck = json(&record)["deck"].as_str().unwrap().to_string();
    let again = ok(&[
        "play",
        "--game",
        "tienlen",
        "--seed",
        "4",
        "--players",
        "3",
        "--json",
        "--deck",
        &deck,
    ]);
    assert_eq!(json(&again)["events"], json(&record)["events"]);
}

#[test]
fn agents_lists_which_agents_play_which_game() {
    let out = ok(&["agents"]);
    assert!(out.contains("tienlen") && out.contains("tusac"), "{out}");
    assert!(out.contains("greedy  (games: tienlen)"), "{out}");
    assert!(out.contains("greedy  (games: tusac)"), "{out}");
    assert!(out.contains("ismcts  (games: all)"), "{out}");
}

#[test]
fn a_run_writes_records_that_check_and_a_tampered_one_fails() {
    let dir = Scratch::new("records");
    let exp = dir.0.join("e.toml");
    std::fs::write(
        &exp,
        "name = \"t\"\ngame = \"tienlen\"\nagents = [\"greedy\", \"random\", \"random\"]\n\
         deals = 300\nseed = 3\nrecords = true\ngames_csv = true\noutput = \"out\"\n",
    )
    .unwrap();
    let o = bailab_in(Some(&dir.0), &["run", "e.toml", "-q"], None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let records = dir.0.join("out/records.jsonl");
    let o = bailab(&["check", "-q", records.to_str().unwrap()], None);
    assert!(
        text(&o.stdout).contains("900 records: 900 ok, 0 failed"),
        "{}",
        text(&o.stdout)
    );
    let games = std::fs::read_to_string(dir.0.join("out/games.csv")).unwrap();
    assert!(games
        .lines()
        .next()
        .unwrap()
        .ends_with("place_0,place_1,place_2"));
    // change one payment of the first record: the checker names the event
    let first = std::fs::read_to_string(&records).unwrap();
    let mut r = json(first.lines().next().unwrap());
    let events = r["events"].as_array_mut().unwrap();
    let k = events
        .iter()
        .position(|e| e["rule"] == "7.2-PlaceStake")
        .expect("a place stake");
    events[k]["action"] = "pay 0 9".into();
    let o = bailab(&["check", "-"], Some(&r.to_string()));
    assert!(!o.status.success());
    assert!(
        text(&o.stdout).contains(&format!("event {k}: forced move differs")),
        "{}",
        text(&o.stdout)
    );
    // a changed setup deals another game
    let mut r = json(first.lines().next().unwrap());
    r["setup"]["dealer"] = 1.into();
    let o = bailab(&["check", "-"], Some(&r.to_string()));
    assert!(!o.status.success(), "{}", text(&o.stdout));
}

#[test]
fn a_leaver_on_a_two_is_the_only_seat_paying_thoi() {
    // §7.3 with forbid_finish_on_two (§4.3 v2): seat 1 leaves on a 2 and is last; seat 0, the
    // last seat in play, is 2nd and pays no thối (it used to pay seat 2 1.5 cược: [-1, -6, +7])
    let dir = Scratch::new("leaver-thoi");
    std::fs::write(
        dir.0.join("e.toml"),
        "name = \"leaver\"\ngame = \"tienlen\"\nagents = [\"first\", \"first\", \"first\"]\n\
         deals = 1\nseed = 0\nrotate = false\nrecords = true\noutput = \"out\"\n\
         [rules]\nforbid_finish_on_two = true\n[deal]\n\
         seat0 = \"Qs 6d 6h 4h 7c 6s Jc Ks Tc Kd 3s 6c 5h\"\n\
         seat1 = \"2h 2d 5c 9c As Kc Ad 9s Qc Ts Jd Td 4d\"\n\
         seat2 = \"8h 4s Ac 5s Qd 8d 9h 7s 8c 8s Js 2c 3h\"\n",
    )
    .unwrap();
    let o = bailab_in(Some(&dir.0), &["run", "e.toml", "-q"], None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let records = dir.0.join("out/records.jsonl");
    let body = std::fs::read_to_string(&records).unwrap();
    let r = json(body.lines().next().unwrap());
    assert_eq!(
        r["outcome"]["payouts"],
        serde_json::json!([2, -6, 4]),
        "{r}"
    );
    assert_eq!(r["outcome"]["places"], serde_json::json!([2, 3, 1]), "{r}");
    let events = r["events"].as_array().unwrap();
    assert!(events.iter().all(|e| e["rule"] != "7.3-Thoi"), "{r}");
    assert!(events.iter().any(|e| e["rule"] == "4.3-LeaveThoi"), "{r}");
    let o = bailab(&["check", "-q", records.to_str().unwrap()], None);
    assert!(
        text(&o.stdout).contains("1 records: 1 ok"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn matches_carry_the_lead_and_write_per_match_statistics() {
    let dir = Scratch::new("matches");
    std::fs::write(
        dir.0.join("m.toml"),
        "name = \"m\"\ngame = \"tienlen\"\nagents = [\"greedy\", \"random\", \"random\", \"random\"]\n\
         deals = 50\nmatch_games = 5\nseed = 8\nrecords = true\ngames_csv = true\noutput = \"out\"\n",
    )
    .unwrap();
    let o = bailab_in(Some(&dir.0), &["run", "m.toml", "-q"], None);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = dir.0.join("out");
    let matches = std::fs::read_to_string(out.join("matches.csv")).unwrap();
    let rows: Vec<&str> = matches.lines().collect();
    assert!(
        rows[0].starts_with("game,variant,players,payout_unit,agent,seats,seat_matches,match_wins"),
        "{matches}"
    );
    // greedy plays 50 deals × 4 rotations = 200 seat-matches at 1 seat; random holds 3 seats
    assert!(
        rows[1].starts_with("tienlen,south,4,half-cược,greedy,1,200,"),
        "{matches}"
    );
    assert!(
        rows[2].starts_with("tienlen,south,4,half-cược,random,3,600,"),
        "{matches}"
    );
    let records = std::fs::read_to_string(out.join("records.jsonl")).unwrap();
    let recs: Vec<serde_json::Value> = records.lines().map(json).collect();
    assert_eq!(recs.len(), 50 * 4 * 5);
    // within a match, a game that follows a finished normal game is led by its first finisher
    for pair in recs.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if b["match_game"].as_u64().unwrap_or(0) == 0 {
            continue;
        }
        let toi_trang = a["outcome"]["reason"] == "toi_trang";
        assert_eq!(b["setup"]["initial"], toi_trang, "{}", b["setup"]);
        if !toi_trang
            && a["events"]
                .as_array()
                .unwrap()
                .iter()
                .all(|e| e["rule"] != "6.4-Den")
        {
            assert_eq!(b["first"], a["outcome"]["winner"]);
        }
        let dealer = |r: &serde_json::Value| r["setup"]["dealer"].as_u64().unwrap();
        assert_eq!(dealer(b), (dealer(a) + 1) % 4);
    }
    let o = bailab(
        &["check", "-q", out.join("records.jsonl").to_str().unwrap()],
        None,
    );
    assert!(
        text(&o.stdout).contains("1000 records: 1000 ok"),
        "{}",
        text(&o.stdout)
    );
    // replay shows the same game of a match as the run recorded
    let replayed = bailab_in(
        Some(&dir.0),
        &[
            "replay",
            "m.toml",
            "--deal",
            "3",
            "--rotation",
            "1",
            "--match-game",
            "2",
            "--json",
        ],
        None,
    );
    assert!(replayed.status.success(), "{}", text(&replayed.stderr));
    let want = &recs[3 * 20 + 5 + 2];
    assert_eq!(json(&text(&replayed.stdout))["events"], want["events"]);
}

#[test]
fn shards_merged_equal_one_run() {
    let dir = Scratch::new("shards");
    std::fs::write(
        dir.0.join("s.toml"),
        "name = \"s\"\ngame = \"tienlen\"\nagents = [\"greedy\", \"random\", \"first\"]\n\
         deals = 500\nmatch_games = 2\nseed = 5\ngames_csv = true\noutput = \"whole\"\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let o = bailab_in(Some(&dir.0), args, None);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    };
    run(&["run", "s.toml", "-q", "--threads", "2"]);
    run(&[
        "run",
        "s.toml",
        "-q",
        "--shard",
        "0/2",
        "--output",
        "a",
        "--threads",
        "1",
    ]);
    run(&[
        "run",
        "s.toml",
        "-q",
        "--shard",
        "1/2",
        "--output",
        "b",
        "--threads",
        "1",
    ]);
    run(&["merge", "a", "b", "--output", "merged", "-q"]);
    for f in ["summary.csv", "matches.csv", "games.csv", "tally.json"] {
        let read = |d: &str| std::fs::read(dir.0.join(d).join(f)).unwrap();
        assert!(
            read("whole") == read("merged"),
            "{f} differs after merging shards"
        );
    }
}
