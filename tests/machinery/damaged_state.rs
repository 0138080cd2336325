//! Damaged checkpoints and shard tallies (issue 44, item 4), through the real binary: a run is
//! killed (SIGKILL) after its first checkpoint, or its shards are run, then a file is edited
//! and `run --resume` or `merge` must refuse it with a message that names the file and the
//! field, never panic nor finish with wrong figures. Each edit is tried as a careless edit
//! (the checksum no longer checks) and sealed again (the counts must not add up), and the
//! committed tallies of results/ must still read.

use bailab::sim::files::seal::{seal, Layout};
use bailab::sim::run::checkpoint::parse_tally_file;
use serde_json::Value;
use std::path::{Path, PathBuf};

use crate::common::*;

const WEIGHTS: &str = include_str!("../../agents/chan-standard-greedy.toml");

/// An experiment of greedy with the weight file `weights.toml` against random, long enough not
/// to end before it is killed.
fn setup(s: &Scratch) -> String {
    s.write("weights.toml", WEIGHTS);
    s.write(
        "exp.toml",
        "name = \"damaged\"\ngame = \"chan\"\nagents = [\"greedy:weights.toml\", \"random\"]\n\
         deals = 2000000\n",
    )
}

/// Runs `exp` into `dir` on one thread and kills it (SIGKILL) after its first checkpoint.
fn killed_run(s: &Scratch, exp: &str, dir: &str) -> PathBuf {
    let out = s.path(dir);
    let args = ["run", exp, "-q", "--output", dir, "--threads", "1"];
    let mut child = command(&s.0, &[&args[..], &["--checkpoint-secs", "0.05"]].concat())
        .spawn()
        .unwrap();
    wait_for(&out.join("checkpoint.json"), &mut child);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!out.join("summary.csv").exists(), "the run was not killed");
    out
}

/// A copy of the flat folder `from` as `to`.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Edits the JSON file `path` with `edit`, then writes it compact or pretty, sealed again or
/// not.
fn edit_json(path: &Path, layout: Layout, sealed: bool, edit: impl Fn(&mut Value)) {
    let mut v: Value = serde_json::from_slice(&read(path)).unwrap();
    v.as_object_mut().unwrap().remove("checksum");
    edit(&mut v);
    let text = match layout {
        Layout::Compact => serde_json::to_string(&v).unwrap(),
        Layout::Pretty => serde_json::to_string_pretty(&v).unwrap(),
    };
    let text = if sealed { seal(&text, layout) } else { text };
    std::fs::write(path, text).unwrap();
}

/// Resumes `dir` and returns its error message, which must name the checkpoint and `field`.
fn resume_refused(s: &Scratch, dir: &Path, field: &str) -> String {
    let o = bailab(&s.0, &["run", "--resume", dir.to_str().unwrap(), "-q"]);
    let err = stderr(&o);
    assert!(!o.status.success(), "resumed: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains(&format!("{}/checkpoint.json", dir.display()))
            && err.contains(&format!("field `{field}`")),
        "{err}"
    );
    assert!(!dir.join("summary.csv").exists(), "{err}");
    err
}

/// Each damaged checkpoint of the issue, careless and sealed again.
#[test]
fn a_damaged_checkpoint_is_refused_naming_the_file_and_field() {
    let s = Scratch::new("damaged-checkpoint");
    let exp = setup(&s);
    let killed = killed_run(&s, &exp, "killed");
    type Edit = fn(&mut Value);
    let cases: [(&str, Edit, &str); 4] = [
        // an edited agent list: was a panic in the runner
        (
            "agents",
            |v| v["experiment"]["agents"][1] = "first".into(),
            "tally.agents",
        ),
        // a truncated per_agent: was an index out of bounds in the stats
        (
            "per-agent",
            |v| {
                v["tally"]["per_agent"].as_array_mut().unwrap().pop();
            },
            "tally.per_agent",
        ),
        // next beyond the deals: was a "complete" summary of the deals played so far
        ("next", |v| v["next"] = 999_999_999u64.into(), "next"),
        // next moved within the deals: the tally no longer adds up to it
        (
            "next-within",
            |v| v["next"] = (v["next"].as_u64().unwrap() + 1).into(),
            "tally.games",
        ),
    ];
    for (name, edit, field) in cases {
        for sealed in [false, true] {
            let dir = s.path(&format!("{name}-{sealed}"));
            copy_folder(&killed, &dir);
            edit_json(&dir.join("checkpoint.json"), Layout::Compact, sealed, edit);
            let field = if sealed { field } else { "checksum" };
            resume_refused(&s, &dir, field);
        }
    }
    // one byte flipped anywhere in the file, and the file cut short
    let text = read(&killed.join("checkpoint.json"));
    for at in [
        0,
        text.len() / 3,
        text.len() / 2,
        text.len() - 20,
        text.len() - 1,
    ] {
        let dir = s.path(&format!("byte-{at}"));
        copy_folder(&killed, &dir);
        let mut bytes = text.clone();
        bytes[at] ^= 0x04;
        std::fs::write(dir.join("checkpoint.json"), &bytes).unwrap();
        let o = bailab(&s.0, &["run", "--resume", dir.to_str().unwrap(), "-q"]);
        let err = stderr(&o);
        assert!(!o.status.success() && !err.contains("panicked"), "{err}");
        assert!(err.contains("checkpoint.json"), "{err}");
    }
}

/// An agent file edited between the kill and the resume is refused, naming it.
#[test]
fn an_agent_file_edited_after_a_kill_is_refused() {
    let s = Scratch::new("damaged-agent-file");
    let exp = setup(&s);
    let killed = killed_run(&s, &exp, "killed");
    s.write(
        "weights.toml",
        &WEIGHTS.replace("chan = 1.56", "chan = 0.5"),
    );
    let err = resume_refused(&s, &killed, "agent_files");
    assert!(err.contains("agent file weights.toml"), "{err}");
    // restored, it resumes (killed again once it has played on)
    s.write("weights.toml", WEIGHTS);
    let dir = killed.to_str().unwrap();
    let args = ["run", "--resume", dir, "-q", "--checkpoint-secs", "0.05"];
    let mut child = command(&s.0, &args).spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(running, "{}", stderr(&o));
}

/// A merge of shards (no games.csv, so no rows to check the tally against) refuses a shard
/// whose tally is damaged: was an exit 0 with wrong seat-games.
#[test]
fn a_merge_refuses_a_damaged_shard_tally() {
    let s = Scratch::new("damaged-shard");
    s.write("weights.toml", WEIGHTS);
    let exp = s.write(
        "exp.toml",
        "name = \"shards\"\ngame = \"chan\"\nagents = [\"greedy:weights.toml\", \"random\"]\n\
         deals = 60\n",
    );
    for k in 0..2 {
        let shard = format!("{k}/2");
        let out = format!("s{k}");
        ok(
            &s.0,
            &["run", &exp, "-q", "--shard", &shard, "--output", &out],
        );
    }
    ok(&s.0, &["merge", "s0", "s1", "-q", "--output", "whole"]);
    for sealed in [false, true] {
        let dir = format!("s1-{sealed}");
        copy_folder(&s.path("s1"), &s.path(&dir));
        edit_json(
            &s.path(&dir).join("tally.json"),
            Layout::Pretty,
            sealed,
            |v| {
                v["tally"]["per_agent"].as_array_mut().unwrap().pop();
            },
        );
        let out = format!("m-{sealed}");
        let err = fails(&s.0, &["merge", "s0", &dir, "-q", "--output", &out]);
        let field = if sealed {
            "tally.per_agent"
        } else {
            "checksum"
        };
        assert!(
            err.contains(&format!("{dir}/tally.json")) && err.contains(&format!("field `{field}`")),
            "{err}"
        );
        assert!(!s.path(&out).join("summary.csv").exists());
    }
    // shards that read different agent files are not one study
    s.write(
        "weights.toml",
        &WEIGHTS.replace("chan = 1.56", "chan = 0.5"),
    );
    ok(
        &s.0,
        &["run", &exp, "-q", "--shard", "1/2", "--output", "s1-other"],
    );
    let err = fails(
        &s.0,
        &["merge", "s0", "s1-other", "-q", "--output", "m-other"],
    );
    assert!(
        err.contains("s1-other/tally.json")
            && err.contains("field `agent_files`")
            && err.contains("weights.toml"),
        "{err}"
    );
}

/// Every committed tally.json (whole runs, tournament tables) reads with the new checks.
#[test]
fn every_committed_tally_still_reads() {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, found);
            } else if p.file_name().is_some_and(|n| n == "tally.json") {
                found.push(p);
            }
        }
    }
    let mut found = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("results"),
        &mut found,
    );
    assert!(found.len() > 10, "{found:?}");
    for path in found {
        let text = String::from_utf8(read(&path)).unwrap();
        parse_tally_file(&path, &text).unwrap_or_else(|e| panic!("{e:#}"));
    }
}
