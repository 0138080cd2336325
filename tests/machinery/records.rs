//! Game records: written for every game, replayable through `bailab check`, and every kind of
//! tampering is reported where it is.

use bailab::record::{Record, RecordEvent};
use bailab::sim::recorder::check;
use bailab::sim::run::experiment::Experiment;
use bailab::sim::run::runner::{run_experiment, RunOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bailab-records-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn bailab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bailab"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn experiment(deals: u64) -> Experiment {
    let toml = format!(
        "name = \"records\"\ngame = \"tusac\"\nagents = [\"greedy\", \"random\", \"greedy:tiebreak=random\", \"random\"]\n\
         deals = {deals}\nseed = 77\nrotate = true\nrecords = true\n"
    );
    Experiment::parse(&toml, "records.toml").unwrap()
}

fn run_records(deals: u64, threads: usize, dir: &Path) -> String {
    let opts = RunOptions {
        threads: Some(threads),
        quiet: true,
        output: Some(dir.to_path_buf()),
        ..RunOptions::default()
    };
    run_experiment(&experiment(deals), &opts).unwrap();
    std::fs::read_to_string(dir.join("records.jsonl")).unwrap()
}

fn one_record() -> Record {
    let o = bailab(&[
        "play", "--seed", "12", "--agent", "greedy", "--agent", "random", "--json",
    ]);
    assert!(o.status.success());
    serde_json::from_str(&text(&o).0).unwrap()
}

#[test]
fn ten_thousand_seeded_games_check_ok_and_threads_do_not_change_records() {
    let dir = scratch("ten-thousand");
    let lines = run_records(2500, 2, &dir);
    let records: Vec<Record> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 10_000);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r.deal, Some(i as u64 / 4), "records are in deal order");
        assert_eq!(r.rotation, Some((i % 4) as u8));
        check(r).unwrap_or_else(|e| panic!("record {i}: {e}"));
    }
    let o = bailab(&[
        "check",
        "--quiet",
        dir.join("records.jsonl").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(text(&o).0.contains("10000 records: 10000 ok, 0 failed"));
    let one_thread = scratch("one-thread");
    assert!(
        run_records(2500, 1, &one_thread) == lines,
        "records.jsonl differs between 1 and 2 threads"
    );
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(one_thread);
}

#[test]
fn an_illegal_event_is_reported_at_its_index() {
    let mut r = one_record();
    let k = r
        .events
        .iter()
        .position(|e| e.action.starts_with("discard"))
        .unwrap()
        + 6;
    let k = k + r.events[k..]
        .iter()
        .position(|e| e.action.starts_with("discard"))
        .unwrap();
    r.events[k].action = "discard rK".into();
    let e = check(&r).unwrap_err();
    assert_eq!(e.event, Some(k), "{e}");
    assert!(e.message.contains("'discard rK' is not legal"), "{e}");
}

#[test]
fn a_changed_legal_count_or_seat_is_reported() {
    let mut r = one_record();
    let k = r.events.iter().position(|e| !e.forced).unwrap();
    r.events[k].legal = Some(99);
    assert_eq!(check(&r).unwrap_err().event, Some(k));
    let mut r = one_record();
    r.events[k].seat = Some(3);
    assert!(check(&r).unwrap_err().message.contains("is to move"));
}

#[test]
fn altered_payouts_are_an_outcome_mismatch() {
    let mut r = one_record();
    r.outcome.payouts[0] += 1;
    r.outcome.payouts[1] -= 1;
    let e = check(&r).unwrap_err();
    assert_eq!(e.event, None);
    assert!(e.message.contains("outcome differs"), "{e}");
    // the message names the field that differs, not a debug dump of both outcomes
    let engine = {
        let mut p = r.outcome.payouts.clone();
        p[0] -= 1;
        p[1] += 1;
        p
    };
    let json = |p: &[i64]| serde_json::to_string(p).unwrap();
    assert!(
        e.message.contains(&format!(
            "payouts: the record has {}, the engine {}",
            json(&r.outcome.payouts),
            json(&engine)
        )),
        "{e}"
    );
    assert!(!e.message.contains("RecordOutcome"), "{e}");
    assert!(!e.message.contains("winner"), "only payouts differ: {e}");
}

#[test]
fn check_names_each_outcome_field_that_differs() {
    let mut r = one_record();
    r.outcome.turns += 2;
    r.outcome.hand_value += 1;
    let e = check(&r).unwrap_err().to_string();
    assert!(!e.contains("RecordOutcome"), "{e}");
    let turns = r.outcome.turns;
    assert!(
        e.contains(&format!(
            "turns: the record has {turns}, the engine {}",
            turns - 2
        )),
        "{e}"
    );
    assert!(e.contains("hand_value: the record has"), "{e}");
    assert!(!e.contains("payouts"), "{e}");
}

#[test]
fn a_missing_or_changed_forced_move_is_reported() {
    // find a record with a forced claim before the end
    let dir = scratch("forced");
    let lines = run_records(50, 2, &dir);
    let _ = std::fs::remove_dir_all(dir);
    let (r, k) = lines
        .lines()
        .map(|l| serde_json::from_str::<Record>(l).unwrap())
        .find_map(|r| {
            let k = r
                .events
                .iter()
                .position(|e| e.forced && matches!(e.rule.as_deref(), Some("C2" | "C3")))?;
            Some((r, k))
        })
        .expect("some game has a forced Khui or pair claim");
    let mut missing = r.clone();
    missing.events.remove(k);
    let e = check(&missing).unwrap_err();
    assert_eq!(e.event, Some(k), "{e}");
    assert!(e.message.contains("forced move is missing"), "{e}");
    let mut changed = r.clone();
    changed.events[k].rule = Some("C1".into());
    let e = check(&changed).unwrap_err();
    assert_eq!(e.event, Some(k));
    assert!(e.message.contains("forced move differs"), "{e}");
    let mut extra = r;
    extra.events.push(RecordEvent {
        seat: Some(0),
        action: "draw".into(),
        forced: false,
        rule: None,
        legal: None,
    });
    let e = check(&extra).unwrap_err();
    assert!(e.message.contains("already over"), "{e}");
}

#[test]
fn check_reports_per_record_and_fails_when_one_fails() {
    let dir = scratch("cli");
    let good = serde_json::to_string(&one_record()).unwrap();
    let mut bad = one_record();
    bad.outcome.hand_value += 1;
    let file = dir.join("two.jsonl");
    std::fs::write(
        &file,
        format!(
            "{good}\n{}\nnot json\n",
            serde_json::to_string(&bad).unwrap()
        ),
    )
    .unwrap();
    let o = bailab(&["check", file.to_str().unwrap()]);
    let (out, _) = text(&o);
    assert!(!o.status.success());
    assert!(
        out.contains("record 1 (line 1, seed 12, deal 0, rotation 0): ok"),
        "{out}"
    );
    assert!(
        out.contains("record 2 (line 2, seed 12, deal 0, rotation 0): outcome differs"),
        "{out}"
    );
    assert!(out.contains("record 3 (line 3): not a record"), "{out}");
    assert!(out.contains("3 records: 1 ok, 2 failed"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_game_replays_from_its_deck() {
    let r = one_record();
    let o = bailab(&[
        "play", "--deck", &r.deck, "--seed", "12", "--agent", "greedy", "--agent", "random",
        "--json",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let again: Record = serde_json::from_str(&text(&o).0).unwrap();
    assert_eq!(again.events, r.events);
    assert_eq!(again.outcome, r.outcome);
    // a deck file works the same
    let dir = scratch("deck");
    let f = dir.join("deck.txt");
    std::fs::write(&f, &r.deck).unwrap();
    let o = bailab(&[
        "play",
        "--deck-file",
        f.to_str().unwrap(),
        "--seed",
        "12",
        "--agent",
        "greedy",
        "--agent",
        "random",
        "--json",
    ]);
    assert_eq!(
        serde_json::from_str::<Record>(&text(&o).0).unwrap().events,
        r.events
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_deck_that_is_not_one_pack_names_the_card() {
    let r = one_record();
    let without_first = r.deck.split_once(' ').unwrap().1.to_string();
    let first = r.deck.split_whitespace().next().unwrap().to_string();
    let o = bailab(&["play", "--deck", &without_first]);
    assert!(!o.status.success());
    let missing_first_in_canonical_order = text(&o).1;
    assert!(missing_first_in_canonical_order.contains("111 cards, a pack has 112"));
    assert!(
        missing_first_in_canonical_order.contains(&format!(
            "the first card short is {first} (3 of 4 copies given)"
        )),
        "{missing_first_in_canonical_order}"
    );
    let o = bailab(&["play", "--deck", &format!("{} {first}", r.deck)]);
    assert!(
        text(&o)
            .1
            .contains(&format!("card 113 '{first}': copy 5 of {first}")),
        "{}",
        text(&o).1
    );
    let o = bailab(&["play", "--deck", "rK xx"]);
    assert!(text(&o).1.contains("card 2 'xx'"));
}

#[test]
fn the_documented_example_is_a_valid_record_of_its_command() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/records.md")).unwrap();
    let json = doc
        .split("```json\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let documented: Record = serde_json::from_str(json).unwrap();
    check(&documented).unwrap();
    let o = bailab(&["play", "--seed", "222", "--agent", "greedy", "--json"]);
    let fresh: Record = serde_json::from_str(&text(&o).0).unwrap();
    assert_eq!(fresh, documented, "docs/records.md is out of date");
}

/// Found by the `record` fuzz target (docs/fuzzing.md): a multi-pack record whose
/// `reshuffle_seed` is a float beyond `u64` (which serde_json does not read back exactly) is
/// refused by `check`, naming the key, rather than dealt.
#[test]
fn a_reshuffle_seed_that_is_not_a_whole_number_is_refused() {
    let golden = std::fs::read_to_string("tests/golden/tusac-dirtyking26.json").unwrap();
    let mut r: Record = serde_json::from_str(&golden).unwrap();
    check(&r).unwrap();
    r.setup.insert(
        "reshuffle_seed".into(),
        serde_json::json!(1.2674252831103345e20),
    );
    let e = check(&r).unwrap_err();
    assert!(e.message.contains("'reshuffle_seed'"), "{e}");
}
