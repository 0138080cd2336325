//! `exec:COMMAND`: an outside program at the table (docs/agent-protocol.md). One that always
//! answers 0 plays exactly as the built-in `first`, whatever the threads; a late, malformed or
//! out-of-range reply or a crash stops the run with an error naming the agent, the deal, the
//! seat and the decision, and a checkpoint from which the fixed agent resumes to the files of a
//! run that never failed.

use crate::common::{self, fails, ok, Scratch};

/// A bash agent: the handshake, then `DECIDE` (a bash command printing the reply) per decision.
fn agent(decide: &str) -> String {
    format!(
        "while IFS= read -r line; do\n  case \"$line\" in\n    \
         *'\"type\":\"hello\"'*) echo '{{\"type\":\"hello\",\"name\":\"t\",\"protocol\":1}}' ;;\n    \
         *'\"type\":\"decide\"'*) {decide} ;;\n  esac\ndone\n"
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

/// A file of a run's folder with the exec spec written as `first`.
fn as_first(dir: &std::path::Path, file: &str, spec: &str) -> String {
    std::fs::read_to_string(dir.join(file))
        .unwrap()
        .replace(spec, "first")
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
