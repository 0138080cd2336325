//! The compiled example agent (examples/agents/first.rs, `cargo build --release --example
//! first-agent`) seated with `exec:`: it plays exactly as the built-in `first`, and with `random`
//! its games replay exactly.

use crate::common::{ok, Scratch};
use std::path::PathBuf;
use std::process::Command;

const FILES: [&str; 3] = ["summary.csv", "games.csv", "records.jsonl"];

/// The example agent, built (or found up to date) by cargo with the profile of these tests.
fn first_agent() -> PathBuf {
    let bin_dir = PathBuf::from(env!("CARGO_BIN_EXE_bailab"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let mut build = Command::new(env!("CARGO"));
    build.args(["build", "--quiet", "--example", "first-agent"]);
    if bin_dir.ends_with("release") {
        build.arg("--release");
    }
    let status = build
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build --example first-agent");
    let agent = bin_dir.join("examples").join("first-agent");
    assert!(agent.exists(), "{} was not built", agent.display());
    agent
}

fn experiment(game: &str, variant: &str, seat0: &str) -> String {
    format!(
        "name = \"x\"\ngame = \"{game}\"\nvariant = \"{variant}\"\n\
         agents = [\"{seat0}\", \"random\", \"greedy\"]\ndeals = 12\nseed = 8\n\
         games_csv = true\nrecords = true\n"
    )
}

/// Runs the experiment of `file` into folder `out` of `s`.
fn run(s: &Scratch, file: &str, out: &str) {
    ok(&s.0, &["run", file, "--output", out, "--quiet", "--force"]);
}

/// A file of a run's folder.
fn read(s: &Scratch, out: &str, file: &str) -> String {
    std::fs::read_to_string(s.path(out).join(file)).unwrap()
}

#[test]
fn the_compiled_first_agent_plays_as_the_built_in_first() {
    let spec = format!("exec:{}", first_agent().display());
    let s = Scratch::new("exec_compiled_first");
    for (game, variant) in [
        ("tusac", "classic"),
        ("tusac", "dirtyking26"),
        ("chan", "standard"),
        ("tienlen", "south"),
    ] {
        s.write("first.toml", &experiment(game, variant, "first"));
        s.write("outside.toml", &experiment(game, variant, &spec));
        run(&s, "first.toml", "first");
        run(&s, "outside.toml", "outside");
        for file in FILES {
            assert_eq!(
                read(&s, "outside", file).replace(&spec, "first"),
                read(&s, "first", file),
                "{game} {variant} {file}"
            );
        }
    }
}

#[test]
fn the_compiled_agent_with_random_replays_its_games_and_is_not_first() {
    let spec = format!("exec:{} random", first_agent().display());
    let s = Scratch::new("exec_compiled_random");
    s.write("first.toml", &experiment("tienlen", "south", "first"));
    s.write("random.toml", &experiment("tienlen", "south", &spec));
    run(&s, "first.toml", "first");
    run(&s, "random.toml", "a");
    ok(
        &s.0,
        &[
            "run",
            "random.toml",
            "--output",
            "b",
            "--threads",
            "2",
            "--quiet",
            "--force",
        ],
    );
    for file in FILES {
        assert_eq!(read(&s, "a", file), read(&s, "b", file), "{file}");
    }
    let records = read(&s, "a", "records.jsonl");
    assert_ne!(
        records.replace(&spec, "first"),
        read(&s, "first", "records.jsonl")
    );
}
