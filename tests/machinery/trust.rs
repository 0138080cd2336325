//! Runs a researcher can trust (issue 10), through the real binary: a run killed with SIGKILL or
//! stopped with Ctrl-C (SIGINT) resumes to byte-identical files; the README's main command leaves
//! a clone's git tree clean; outputs never clobber another experiment's results; sane limits;
//! and every message of the issue says what it should.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use crate::common;
use common::*;

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

fn experiment(name: &str, agents: &str, deals: u64, rotate: bool, output: &str) -> String {
    format!(
        "name = \"{name}\"\ngame = \"tusac\"\nagents = [{agents}]\ndeals = {deals}\nseed = 9\n\
         rotate = {rotate}\noutput = \"{output}\"\n"
    )
}

const RANDOM4: &str = "\"random\", \"random\", \"random\", \"random\"";

/// Every file a finished run writes that must not depend on how it was run.
const REPRODUCIBLE: [&str; 5] = [
    "summary.csv",
    "tally.json",
    "meta.json",
    "games.csv",
    "records.jsonl",
];

fn assert_identical(a: &Path, b: &Path) {
    assert_same_files(a, b, &REPRODUCIBLE);
    let finished: Vec<String> = REPRODUCIBLE
        .iter()
        .chain(&["run.json"])
        .map(|s| s.to_string())
        .collect();
    let mut finished = finished;
    finished.sort();
    assert_eq!(names(b), finished, "leftovers in {}", b.display());
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn signal(child: &Child, sig: i32) {
    let r = unsafe { libc::kill(child.id() as libc::pid_t, sig) };
    assert_eq!(r, 0, "kill({sig}) failed");
}

/// Deals done according to a folder's checkpoint.
fn checkpoint_done(dir: &Path) -> u64 {
    let ck: serde_json::Value =
        serde_json::from_slice(&read(&dir.join("checkpoint.json"))).expect("checkpoint JSON");
    ck["next"].as_u64().unwrap() - ck["deals"][0].as_u64().unwrap()
}

/// Starts a long run, interrupts it with `sig` after its first checkpoint, resumes it and
/// compares every file with an uninterrupted run's.
fn interrupt_and_resume(test: &str, sig: i32) {
    let s = Scratch::new(test);
    let deals = 24_000;
    let exp = s.write(
        "exp.toml",
        &experiment("resume", RANDOM4, deals, false, "unused"),
    );
    let out = |dir: &'static str| {
        vec![
            "run".to_string(),
            exp.clone(),
            "-q".into(),
            "--games-csv".into(),
            "--records".into(),
            "--output".into(),
            dir.into(),
        ]
    };
    let began = Instant::now();
    ok(&s.0, &strs(&out("whole")));
    let whole_time = began.elapsed();

    let mut args = out("stopped");
    args.extend(["--threads", "1", "--checkpoint-secs", "0.05"].map(String::from));
    let mut child = command(&s.0, &strs(&args)).spawn().unwrap();
    wait_for(&s.path("stopped/checkpoint.json"), &mut child);
    // let it write past the checkpoint, so that a half-written tail has to be cut off
    std::thread::sleep(Duration::from_millis(30));
    signal(&child, sig);
    let o = child.wait_with_output().unwrap();
    assert!(
        !s.path("stopped/summary.csv").exists(),
        "the run finished before the signal"
    );
    let done = checkpoint_done(&s.path("stopped"));
    assert!(done < deals, "{done} of {deals}");
    if sig == libc::SIGINT {
        assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("bailab run --resume "), "{err}");
        assert!(err.contains("stopped after"), "{err}");
    }
    let leftover = names(&s.path("stopped"));
    assert!(
        leftover.contains(&"games.csv.partial".to_string()),
        "{leftover:?}"
    );
    assert!(
        leftover.contains(&"records.jsonl.partial".to_string()),
        "{leftover:?}"
    );

    // a new run into the folder is refused (it would throw the finished part away)
    let err = fails(&s.0, &strs(&out("stopped")));
    assert!(err.contains("--resume") && err.contains("--force"), "{err}");

    let began = Instant::now();
    ok(&s.0, &["run", "--resume", "stopped", "-q"]);
    let resume_time = began.elapsed();
    assert_identical(&s.path("whole"), &s.path("stopped"));
    let run: serde_json::Value =
        serde_json::from_slice(&read(&s.path("stopped/run.json"))).unwrap();
    assert_eq!(run["sessions"], 2);
    eprintln!(
        "{test}: {done} of {deals} deals done before the signal; the resume took {:.2} s \
         (an uninterrupted run on all cores: {:.2} s)",
        resume_time.as_secs_f64(),
        whole_time.as_secs_f64()
    );
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_identical_files() {
    interrupt_and_resume("sigkill", libc::SIGKILL);
}

#[test]
fn a_run_stopped_with_ctrl_c_resumes_to_identical_files() {
    interrupt_and_resume("sigint", libc::SIGINT);
}

#[test]
fn resume_refuses_a_folder_without_a_checkpoint() {
    let s = Scratch::new("no-checkpoint");
    std::fs::create_dir_all(s.path("empty")).unwrap();
    let err = fails(&s.0, &["run", "--resume", "empty"]);
    assert!(err.contains("no unfinished run"), "{err}");
    // killed before its first checkpoint: said so, not "no run"
    s.write("early/records.jsonl.partial", "{}\n");
    let err = fails(&s.0, &["run", "--resume", "early"]);
    assert!(err.contains("before its first checkpoint"), "{err}");
}

/// The README's first command, run in a fresh clone, leaves `git status` clean.
#[test]
fn the_readme_main_command_leaves_a_clone_clean() {
    let repo = env!("CARGO_MANIFEST_DIR");
    let git = |cwd: &Path, args: &[&str]| Command::new("git").args(args).current_dir(cwd).output();
    match git(Path::new(repo), &["rev-parse", "--is-inside-work-tree"]) {
        Ok(o) if o.status.success() => {}
        _ => {
            eprintln!("skipped: {repo} is not a git work tree (or git is missing)");
            return;
        }
    }
    let readme = std::fs::read_to_string(Path::new(repo).join("README.md")).unwrap();
    let first = readme
        .lines()
        .find(|l| l.trim_start().starts_with("cargo run"))
        .expect("the README starts with a cargo run command");
    let args: Vec<&str> = first
        .split('#')
        .next()
        .unwrap()
        .split_whitespace()
        .skip_while(|w| *w != "--")
        .skip(1)
        .collect();
    assert_eq!(args, ["run"], "the README's main command changed: {first}");

    let s = Scratch::new("clone");
    let clone = s.path("bailab");
    let o = git(&s.0, &["clone", "--quiet", repo, clone.to_str().unwrap()]).unwrap();
    assert!(o.status.success(), "git clone: {}", stderr(&o));
    // what `cargo run --release -- run` does once it has built the binary
    ok(&clone, &["run"]);
    let o = git(&clone, &["status", "--porcelain", "--untracked-files=all"]).unwrap();
    assert!(o.status.success());
    assert_eq!(stdout(&o), "", "the main command left the tree dirty");
    assert!(clone.join("results/default/run.json").exists());
}

#[test]
fn output_resolves_against_the_experiment_project_and_never_clobbers() {
    let s = Scratch::new("clobber");
    // a project with a committed result
    let committed = s.write(
        "project/experiments/study.toml",
        &experiment("study", RANDOM4, 40, true, "results/study"),
    );
    let elsewhere = s.path("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    // run from another folder: the result still lands beside experiments/
    ok(&elsewhere, &["run", &committed, "-q"]);
    assert!(s.path("project/results/study/summary.csv").exists());
    assert!(!elsewhere.join("results").exists());
    let before = read(&s.path("project/results/study/summary.csv"));

    // a copy with fewer deals, in another folder, writes beside itself
    let copy = s.write(
        "copies/study.toml",
        &experiment("study", RANDOM4, 10, true, "results/study"),
    );
    ok(&s.path("project"), &["run", &copy, "-q"]);
    assert!(s.path("copies/results/study/summary.csv").exists());
    assert_eq!(read(&s.path("project/results/study/summary.csv")), before);

    // the same copy aimed at the committed folder is refused, naming what differs
    let aimed = s.write(
        "copies/aimed.toml",
        &experiment("study", RANDOM4, 10, true, "../project/results/study"),
    );
    let err = fails(&s.0, &["run", &aimed, "-q"]);
    assert!(
        err.contains("holds the results of another experiment")
            && err.contains("deals: 40 there, 10 here")
            && err.contains("--force"),
        "{err}"
    );
    assert_eq!(read(&s.path("project/results/study/summary.csv")), before);
    // the same experiment may write there again (identical results), --force replaces
    ok(&s.0, &["run", &committed, "-q"]);
    assert_eq!(read(&s.path("project/results/study/summary.csv")), before);
    ok(&s.0, &["run", &aimed, "-q", "--force"]);
    assert_ne!(read(&s.path("project/results/study/summary.csv")), before);

    // merge follows the same rule
    let other = s.write("other.toml", &experiment("other", RANDOM4, 12, true, "x"));
    ok(
        &s.0,
        &["run", &other, "-q", "--shard", "0/1", "--output", "shard"],
    );
    let err = fails(
        &s.0,
        &["merge", "shard", "-q", "--output", "project/results/study"],
    );
    assert!(err.contains("another experiment"), "{err}");
    ok(
        &s.0,
        &[
            "merge",
            "shard",
            "-q",
            "--output",
            "project/results/study",
            "--force",
        ],
    );
}

#[test]
fn leftovers_of_a_dead_run_are_removed_and_other_files_kept() {
    let s = Scratch::new("leftovers");
    let exp = s.write("exp.toml", &experiment("left", RANDOM4, 20, true, "out"));
    for name in [
        "out/records.jsonl.4242.tmp",
        "out/games.csv.4243.tmp",
        "out/summary.csv.17.tmp",
        "out/games.csv.partial",
        "out/stderr.log",
        "out/notes.tmp",
    ] {
        s.write(name, "junk");
    }
    ok(&s.0, &["run", &exp, "-q"]);
    assert_eq!(
        names(&s.path("out")),
        [
            "meta.json",
            "notes.tmp",
            "run.json",
            "stderr.log",
            "summary.csv",
            "tally.json"
        ]
    );
}

#[test]
fn limits_are_clear_errors() {
    let s = Scratch::new("limits");
    let base = |agents: &str| experiment("limits", agents, 10, true, "out");
    let good = s.write("good.toml", &base(RANDOM4));
    let err = fails(&s.0, &["run", &good, "--threads", "100000"]);
    assert!(err.contains("--threads 100000: at most"), "{err}");

    let seats: Vec<(String, &str)> = vec![
        (String::new(), "0 agent(s)"),
        ("\"random\"".into(), "1 agent(s)"),
        (vec!["\"random\""; 100].join(", "), "100 agent(s)"),
    ];
    for (agents, words) in seats {
        let f = s.write("seats.toml", &base(&agents));
        let err = fails(&s.0, &["run", &f, "-q"]);
        assert!(err.contains(words), "{err}");
    }
    let params: Vec<String> = (0..10_000).map(|i| format!("k{i}=1")).collect();
    let f = s.write(
        "params.toml",
        &base(&format!("\"greedy:{}\", \"random\"", params.join(","))),
    );
    let began = Instant::now();
    let err = fails(&s.0, &["run", &f, "-q"]);
    assert!(err.contains("10000 parameters, at most 32"), "{err}");
    assert!(
        err.len() < 2000,
        "the error repeats the whole spec: {} bytes",
        err.len()
    );
    assert!(began.elapsed() < Duration::from_secs(10));

    let mut huge = base(RANDOM4);
    huge += &format!("# {}\n", "x".repeat(3 << 20));
    let f = s.write("huge.toml", &huge);
    let err = fails(&s.0, &["run", &f, "-q"]);
    assert!(err.contains("at most 1048576 bytes"), "{err}");
    assert!(!s.path("out").exists());
}

#[test]
fn a_run_that_cannot_finish_says_so_at_once() {
    let s = Scratch::new("endless");
    let f = s.write(
        "endless.toml",
        &experiment("endless", RANDOM4, 1_000_000_000_000_000, true, "out"),
    );
    let mut child = command(&s.0, &["run", &f, "-q", "--threads", "1"])
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let line = lines.next().expect("a warning line").unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.starts_with("warning: ") && line.contains("years") && line.contains("deals/s"),
        "{line}"
    );
}

#[test]
fn the_console_names_units_intervals_games_draws_and_the_reference() {
    let s = Scratch::new("console");
    let f = s.write(
        "c.toml",
        &experiment(
            "c",
            "\"greedy\", \"random\", \"random\", \"random\"",
            300,
            true,
            "out",
        ),
    );
    let text = stdout(&ok(&s.0, &["run", &f]));
    for words in [
        "300 deals × 4 seat rotations = 1,200 games",
        "drawn",
        "points (§6.1",
        "95%",
        "1/4 = 25.0%",
        "penalties",
        "win rate per seat [95%]",
        "95% interval",
        "1,200 games in",
    ] {
        assert!(text.contains(words), "no '{words}' in:\n{text}");
    }
    // games are games: every agent played in all 1,200 games; random holds 3 seats
    let random = text.lines().find(|l| l.starts_with("random ")).unwrap();
    let cols: Vec<&str> = random.split_whitespace().collect();
    assert_eq!(&cols[1..3], ["1,200", "3"], "{random}");
    assert!(!text.contains("600000") && !text.contains("3600"), "{text}");
    // rates are rounded: no long decimals anywhere
    assert!(
        !text
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .any(|w| w.split_once('.').is_some_and(|(_, d)| d.len() > 3)),
        "{text}"
    );
    // games.csv names the winning agent beside the winning seat
    ok(&s.0, &["run", &f, "-q", "--games-csv", "--output", "g"]);
    let mut r = csv::Reader::from_path(s.path("g/games.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let (w, wa) = (
        h.iter().position(|c| c == "winner").unwrap(),
        h.iter().position(|c| c == "winner_agent").unwrap(),
    );
    for rec in r.records() {
        let rec = rec.unwrap();
        match rec[w].parse::<usize>() {
            Ok(seat) => {
                let agent = &rec[h.iter().position(|c| c == format!("agent_{seat}")).unwrap()];
                assert_eq!(&rec[wa], agent);
            }
            Err(_) => assert_eq!(&rec[wa], ""),
        }
    }
}

#[test]
fn the_messages_of_the_issue() {
    let s = Scratch::new("messages");
    let here = &s.0;
    // play: more agents than seats
    let err = fails(
        here,
        &[
            "play", "--seed", "1", "--agent", "random", "--agent", "random", "--agent", "random",
            "--agent", "random", "--agent", "greedy",
        ],
    );
    assert!(err.contains("5 --agent for 4 players"), "{err}");
    // play: one player is singular
    let err = fails(here, &["play", "--seed", "1", "--players", "1"]);
    assert!(
        err.contains("1 player:") && !err.contains("1 players"),
        "{err}"
    );
    // play: a short deck does not call a given card missing
    let err = fails(here, &["play", "--deck", "rK rA"]);
    assert!(
        err.contains("rK (1 of 4 copies given)") && !err.contains("missing card is rK"),
        "{err}"
    );
    // replay: ranges in words people use
    let f = s.write("r.toml", &experiment("r", RANDOM4, 5, true, "out"));
    let err = fails(here, &["replay", &f, "--deal", "0", "--rotation", "4"]);
    assert!(err.contains("rotations 0–3"), "{err}");
    let err = fails(here, &["replay", &f, "--deal", "5"]);
    assert!(err.contains("deals 0–4"), "{err}");
    // replay: the experiment is optional (the embedded default)
    ok(here, &["replay", "--deal", "3"]);
    // merge: a shard given twice
    ok(here, &["run", &f, "-q", "--shard", "0/2", "--output", "s0"]);
    let err = fails(here, &["merge", "s0", "s0", "-q", "--output", "m"]);
    assert!(
        err.contains("deals 0..2 are repeated") && err.contains("the same folder given twice"),
        "{err}"
    );
    assert!(!err.contains("2..0"), "{err}");
    // a TOML syntax error shows the offending line and the one before it
    let bad = s.write(
        "bad.toml",
        "name = \"x\"\ngame = \"tusac\"\nagents = [\"random\", \"random\"\ndeals = 3\n",
    );
    let err = fails(here, &["run", &bad]);
    assert!(
        err.contains("|     agents = [\"random\", \"random\"") || err.contains("   3 | agents"),
        "{err}"
    );
    assert!(err.contains("   4 | deals = 3"), "{err}");
}
