//! `exec:COMMAND`: an outside program at the table (docs/agent-protocol.md). One that always
//! answers 0 plays exactly as the built-in `first`, whatever the threads; a late, malformed or
//! out-of-range reply or a crash stops the run with an error naming the agent, the deal, the
//! seat and the decision, and a checkpoint from which the fixed agent resumes to the files of a
//! run that never failed.

use crate::common::{self, fails, ok, Scratch};

/// A bash agent: the handshake, then `DECIDE` (a bash command printing the reply) per decision;
/// it writes the `error` messages it is sent to its stderr.
fn agent(decide: &str) -> String {
    format!(
        "while IFS= read -r line; do\n  case \"$line\" in\n    \
         *'\"type\":\"hello\"'*) echo '{{\"type\":\"hello\",\"name\":\"t\",\"protocol\":1}}' ;;\n    \
         *'\"type\":\"decide\"'*) {decide} ;;\n    \
         *'\"type\":\"error\"'*) echo \"told: $line\" >&2 ;;\n  esac\ndone\n"
    )
}

const FIRST: &str = "echo '{\"action\":0}'";

fn experiment(game: &str, variant: &str, seat0: &str) -> String {
    format!(
        "name = \"x\"\ngame = \"{game}\"\nvariant = \"{variant}\"\n\
         agents = [\"{seat0}\", \"random\", \"greedy\"]\ndeals = 12\nseed = 8\n\
         games_csv = true\nrecords = true\n"
    )
}

const FILES: [&str; 3] = ["summary.csv", "games.csv", "records.jsonl"];

/// A file of a run's folder with the exec spec written as `first` (in a CSV file, a spec with a
/// comma is quoted).
fn as_first(dir: &std::path::Path, file: &str, spec: &str) -> String {
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let text = match file.ends_with(".csv") {
        true => text.replace(&format!("\"{spec}\""), "first"),
        false => text,
    };
    text.replace(spec, "first")
}

#[test]
fn an_outside_first_plays_as_the_built_in_first_in_every_game_and_thread_count() {
    let s = Scratch::new("exec_first");
    s.write("first.sh", &agent(FIRST));
    let spec = "exec:bash first.sh";
    for (game, variant) in [
        ("tusac", "classic"),
        ("tusac", "sisepai21"),
        ("chan", "standard"),
        ("tienlen", "south"),
    ] {
        s.write("first.toml", &experiment(game, variant, "first"));
        s.write("outside.toml", &experiment(game, variant, spec));
        ok(
            &s.0,
            &[
                "run",
                "first.toml",
                "--output",
                "first",
                "--quiet",
                "--force",
            ],
        );
        for threads in ["1", "2"] {
            let out = format!("outside-{threads}");
            ok(
                &s.0,
                &[
                    "run",
                    "outside.toml",
                    "--output",
                    &out,
                    "--threads",
                    threads,
                    "--quiet",
                    "--force",
                ],
            );
            for file in FILES {
                let theirs = std::fs::read_to_string(s.path("first").join(file)).unwrap();
                assert_eq!(
                    as_first(&s.path(&out), file, spec),
                    theirs,
                    "{game} {variant} {file}, {threads} threads"
                );
            }
        }
    }
}

#[test]
fn each_fault_is_named_and_the_fixed_agent_resumes_to_the_same_files() {
    let faults = [
        (
            "sleep 5; echo '{\"action\":0}'",
            "did not answer within 300 ms",
        ),
        ("echo 'zero please'", "not JSON"),
        ("echo '{\"action\":99}'", "answered action 99"),
        ("echo '{\"move\":0}'", "not {\"action\": INDEX}"),
        ("echo oops >&2; exit 3", "exit status: 3"),
    ];
    for (i, (decide, words)) in faults.into_iter().enumerate() {
        let s = Scratch::new(&format!("exec_fault_{i}"));
        s.write("agent.sh", &agent(decide));
        // Only the late agent is given a short time: the others answer at once.
        let timeout = if decide.starts_with("sleep") {
            300
        } else {
            20_000
        };
        let spec = format!("exec:bash agent.sh,timeout_ms={timeout}");
        s.write("x.toml", &experiment("chan", "standard", &spec));
        let err = fails(&s.0, &["run", "x.toml", "--output", "out", "--quiet"]);
        for needle in [
            spec.as_str(),
            "deal",
            "seat",
            "decision",
            words,
            "checkpoint",
        ] {
            assert!(err.contains(needle), "fault {i}: '{needle}' not in: {err}");
        }
        if decide.contains("exit 3") {
            assert!(err.contains("oops"), "the last stderr lines: {err}");
        }
        // The agent's stderr is in the folder's log; an agent still waiting was told why.
        let log = std::fs::read_to_string(s.path("out").join("exec-agent-0.log")).unwrap();
        assert!(log.contains("started `bash agent.sh`"), "{log}");
        if decide.contains("exit 3") {
            assert!(log.contains("] oops"), "{log}");
        } else if !decide.starts_with("sleep") {
            assert!(log.contains("told: {\"message\":"), "fault {i}: {log}");
            // The message is a JSON string: its quotes are escaped.
            let words = words.replace('"', "\\\"");
            assert!(
                log.contains(&words),
                "fault {i}: '{words}' not in the log: {log}"
            );
        }
        assert!(s.path("out").join("checkpoint.json").exists(), "fault {i}");
        s.write("agent.sh", &agent(FIRST));
        ok(&s.0, &["run", "--resume", "out", "--quiet"]);
        ok(&s.0, &["run", "x.toml", "--output", "straight", "--quiet"]);
        common::assert_same_files(&s.path("out"), &s.path("straight"), &FILES);
    }
}

#[test]
fn a_missing_program_or_command_is_a_clear_error() {
    let s = Scratch::new("exec_missing");
    s.write(
        "x.toml",
        &experiment("tienlen", "south", "exec:./no-such-agent"),
    );
    let err = fails(&s.0, &["run", "x.toml", "--output", "out", "--quiet"]);
    assert!(err.contains("could not start `./no-such-agent`"), "{err}");
    s.write("y.toml", &experiment("tienlen", "south", "exec"));
    let err = fails(&s.0, &["run", "y.toml", "--output", "out2", "--quiet"]);
    assert!(err.contains("give the command"), "{err}");
}

/// A bash agent that answers 0 but ends (exit 3) at its third decision, only while the file
/// `crash` exists in its folder; with `once`, it removes the file as it ends.
fn crashing_agent(once: bool) -> String {
    let remove = if once { "rm crash; " } else { "" };
    agent(&format!(
        "n=$((n+1)); if [ $n -eq 3 ] && [ -e crash ]; then echo 'down' >&2; {remove}exit 3; fi; \
         echo '{{\"action\":0}}'"
    ))
}

#[test]
fn a_crashed_agent_restarts_and_plays_its_deal_again_once() {
    let s = Scratch::new("exec_restart");
    s.write("first.toml", &experiment("tienlen", "south", "first"));
    ok(&s.0, &["run", "first.toml", "--output", "first", "--quiet"]);
    // It crashes once: restarted, the deal played again, the files as the built-in first's.
    let spec = "exec:bash agent.sh,restart=on-crash";
    s.write("agent.sh", &crashing_agent(true));
    s.write("crash", "");
    s.write("x.toml", &experiment("tienlen", "south", spec));
    let one_thread = ["--threads", "1", "--quiet"];
    ok(
        &s.0,
        &[&["run", "x.toml", "--output", "once"], &one_thread[..]].concat(),
    );
    for file in FILES {
        let theirs = std::fs::read_to_string(s.path("first").join(file)).unwrap();
        assert_eq!(as_first(&s.path("once"), file, spec), theirs, "{file}");
    }
    let log = std::fs::read_to_string(s.path("once").join("exec-agent-0.log")).unwrap();
    assert!(log.contains("] down"), "{log}");
    assert!(
        log.contains("restarts the agent and plays its deal again")
            && log.contains("exit status: 3"),
        "{log}"
    );
    // One worker thread: its process, and the one that replaced it.
    assert_eq!(log.matches("started `bash agent.sh`").count(), 2, "{log}");
    // It crashes again in the replayed deal: the run stops, resumable.
    s.write("agent.sh", &crashing_agent(false));
    s.write("crash", "");
    let err = fails(&s.0, &["run", "x.toml", "--output", "twice", "--quiet"]);
    for needle in [
        spec,
        "exit status: 3",
        "down",
        "was restarted",
        "checkpoint",
    ] {
        assert!(err.contains(needle), "'{needle}' not in: {err}");
    }
    // Without restart=on-crash the first crash stops the run.
    s.write(
        "y.toml",
        &experiment("tienlen", "south", "exec:bash agent.sh"),
    );
    let err = fails(&s.0, &["run", "y.toml", "--output", "never", "--quiet"]);
    assert!(
        err.contains("exit status: 3") && !err.contains("restarted"),
        "{err}"
    );
    std::fs::remove_file(s.path("crash")).unwrap();
    ok(&s.0, &["run", "--resume", "twice", "--quiet"]);
    for file in FILES {
        let theirs = std::fs::read_to_string(s.path("first").join(file)).unwrap();
        assert_eq!(as_first(&s.path("twice"), file, spec), theirs, "{file}");
    }
}

#[test]
fn killed_resumed_and_sharded_runs_of_an_outside_agent_give_the_same_files() {
    let s = Scratch::new("exec_kill");
    s.write("first.sh", &agent(FIRST));
    let spec = "exec:bash first.sh";
    let long =
        |seat0: &str| experiment("tienlen", "south", seat0).replace("deals = 12", "deals = 400");
    s.write("first.toml", &long("first"));
    s.write("x.toml", &long(spec));
    ok(&s.0, &["run", "first.toml", "--output", "first", "--quiet"]);
    // SIGKILL after the first checkpoint, then --resume.
    let args = [
        "run",
        "x.toml",
        "--output",
        "killed",
        "--quiet",
        "--threads",
        "1",
        "--checkpoint-secs",
        "0.05",
    ];
    let mut child = common::spawn(&s.0, &args);
    common::wait_for(&s.path("killed/checkpoint.json"), &mut child);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !s.path("killed/summary.csv").exists(),
        "the run finished before it was killed"
    );
    ok(
        &s.0,
        &["run", "--resume", "killed", "--quiet", "--threads", "2"],
    );
    // Two shards, merged.
    for (k, out) in [("0/2", "shard-0"), ("1/2", "shard-1")] {
        ok(
            &s.0,
            &["run", "x.toml", "--shard", k, "--output", out, "--quiet"],
        );
    }
    ok(
        &s.0,
        &[
            "merge", "shard-0", "shard-1", "--output", "merged", "--quiet",
        ],
    );
    for (dir, files) in [("killed", &FILES[..]), ("merged", &FILES[..1])] {
        for &file in files {
            let theirs = std::fs::read_to_string(s.path("first").join(file)).unwrap();
            assert_eq!(as_first(&s.path(dir), file, spec), theirs, "{dir}/{file}");
        }
    }
}

#[test]
fn play_replay_equity_and_tune_seat_an_outside_agent() {
    let s = Scratch::new("exec_commands");
    s.write("first.sh", &agent(FIRST));
    let outside = "exec:bash first.sh";
    let play = |agent: &str| {
        let o = ok(
            &s.0,
            &[
                "play", "--game", "chan", "--seed", "3", "--agent", agent, "--agent", "greedy",
            ],
        );
        common::stdout(&o).replace(agent, "first")
    };
    assert_eq!(play(outside), play("first"));
    let equity = |agent: &str, out: &str| {
        let view = format!(
            "{}/positions/tienlen-pair-nines.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        ok(
            &s.0,
            &[
                "equity",
                "--game",
                "tienlen",
                "--view",
                &view,
                "--agents",
                agent,
                "--samples",
                "40",
                "--check-every",
                "20",
                "--output",
                out,
                "--quiet",
            ],
        );
        std::fs::read_to_string(s.path(out).join("equity.csv"))
            .unwrap()
            .replace(agent, "first")
    };
    assert_eq!(equity(outside, "e1"), equity("first", "e2"));
    let tune = |agent: &str, out: &str| {
        ok(
            &s.0,
            &[
                "tune",
                "--game",
                "tienlen",
                "--opponents",
                agent,
                "--candidates",
                "2",
                "--deals",
                "4",
                "--quiet",
                "--output",
                &format!("{out}/greedy.toml"),
            ],
        );
        std::fs::read_to_string(s.path(out).join("greedy.report.csv"))
            .unwrap()
            .replace(agent, "first")
    };
    assert_eq!(tune(outside, "t1"), tune("first", "t2"));
}
