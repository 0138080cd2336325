//! Issue 44's smaller faults: a name that is not plain never becomes a folder; non-finite agent
//! parameters and 0 seats are refused; a temporary file a killed process left is removed by the
//! next write; `check` names seats plainly and says a record cut off at the end is cut short;
//! an agent that closes its output is said to; a write error names the file; `deals --games`
//! gives the real reason a file cannot be read.

use crate::common::{self, fails, ok, Scratch};
use bailab::sim::run::experiment::Experiment;
use bailab::sim::tournament::spec::Tournament;

#[test]
fn a_name_that_is_not_plain_never_becomes_a_folder() {
    let s = Scratch::new("small-names");
    s.write(
        "e.toml",
        "name = \"../x\"\ngame = \"tienlen\"\nagents = [\"first\", \"random\"]\ndeals = 2\n",
    );
    let err = fails(&s.0, &["run", "e.toml", "-q"]);
    assert!(
        err.contains("key 'name'") && err.contains("'../x'"),
        "{err}"
    );
    assert!(!s.path("x").exists() && !s.path("results").exists());
    s.write(
        "t.toml",
        "name = \"../x\"\ngame = \"tienlen\"\nagents = [\"first\", \"random\"]\ndeals = 2\n",
    );
    let err = fails(&s.0, &["tournament", "t.toml", "-q"]);
    assert!(err.contains("key 'name'"), "{err}");
    assert!(!s.path("results").exists(), "a stray results/tournament-..");
    for name in ["a/b", "a\\\\b", ".hidden", ""] {
        let text = format!(
            "name = \"{name}\"\ngame = \"chan\"\nagents = [\"random\", \"random\"]\ndeals = 1\n"
        );
        let err = Experiment::parse(&text, "e.toml").unwrap_err().to_string();
        assert!(err.contains("key 'name'"), "{name}: {err}");
    }
    // with an `output`, the name names no folder
    let text = "name = \"a/b\"\noutput = \"o\"\ngame = \"chan\"\nagents = [\"random\", \"random\"]\ndeals = 1\n";
    Experiment::parse(text, "e.toml").unwrap();
}

#[test]
fn non_finite_agent_parameters_and_zero_seats_are_refused() {
    for spec in ["ismcts:c=nan", "ismcts:deviate=nan", "ismcts:c=inf"] {
        let text = format!("game = \"tienlen\"\nagents = [\"{spec}\", \"random\"]\ndeals = 1\n");
        let err = Experiment::parse(&text, "e.toml").unwrap_err().to_string();
        assert!(err.contains("is outside"), "{spec}: {err}");
    }
    let text = "game = \"tienlen\"\nplayers = 0\nagents = [\"first\", \"random\"]\ndeals = 1\n";
    let err = Tournament::parse(text, "t.toml", None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("key 'players': 0 seats") && err.contains("at least 2"),
        "{err}"
    );
    let s = Scratch::new("small-seats");
    let args = [
        "tournament",
        "--game",
        "tienlen",
        "--agent",
        "first",
        "--agent",
        "random",
    ];
    let err = fails(
        &s.0,
        &[&args[..], &["--players", "0", "--deals", "1"]].concat(),
    );
    assert!(
        err.contains("--players") && err.contains("0 seats"),
        "{err}"
    );
    let err = fails(
        &s.0,
        &[&args[..], &["--players", "9", "--deals", "1"]].concat(),
    );
    assert!(
        err.contains("'players': 9 seats") && err.contains("2 to 4"),
        "{err}"
    );
}

#[test]
fn a_temporary_file_of_an_ended_process_is_removed_by_the_next_write() {
    let s = Scratch::new("small-temps");
    s.write(
        "e.toml",
        "name = \"e\"\ngame = \"tienlen\"\nagents = [\"first\", \"random\"]\ndeals = 2\noutput = \"o\"\n",
    );
    ok(&s.0, &["run", "e.toml", "-q"]);
    // the id of a process that has ended, as a report killed while writing its page leaves
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = s.write(&format!("page.html.{dead}.tmp"), "half a page");
    let live = s.write(
        &format!("page.html.{}.tmp", std::process::id()),
        "being written",
    );
    ok(&s.0, &["report", "o", "--output", "page.html", "-q"]);
    assert!(
        !std::path::Path::new(&stale).exists(),
        "the stale temporary file is left"
    );
    assert!(
        std::path::Path::new(&live).exists(),
        "a live process's file was removed"
    );
}

#[test]
fn check_names_seats_plainly_and_says_a_record_is_cut_short() {
    let s = Scratch::new("small-check");
    s.write(
        "e.toml",
        "name = \"r\"\ngame = \"tusac\"\nvariant = \"classic\"\nagents = [\"greedy\", \"random\"]\n\
         deals = 1\nseed = 3\noutput = \"o\"\n",
    );
    ok(&s.0, &["run", "e.toml", "-q", "--records"]);
    let text = std::fs::read_to_string(s.path("o/records.jsonl")).unwrap();
    let line = text.lines().next().unwrap();
    let record: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    let mut acted = record.clone();
    acted["events"][0]["seat"] = 99.into();
    s.write("a.jsonl", &format!("{acted}\n"));
    let err = common::stdout(&common::bailab(&s.0, &["check", "a.jsonl"]));
    assert!(
        err.contains("seat 99 acts") && !err.contains("Some("),
        "{err}"
    );
    let mut forced = record.clone();
    let events = forced["events"].as_array_mut().unwrap();
    let first = events.iter().position(|e| e["forced"] == true).unwrap();
    events[first]["seat"] = serde_json::Value::Null;
    s.write("b.jsonl", &format!("{forced}\n"));
    let err = common::stdout(&common::bailab(&s.0, &["check", "b.jsonl"]));
    assert!(
        err.contains("the record has no seat") && !err.contains("None"),
        "{err}"
    );
    s.write("c.jsonl", &line[..line.len() / 2]);
    let err = common::stdout(&common::bailab(&s.0, &["check", "c.jsonl"]));
    assert!(
        err.contains("cut short") && !err.contains("control character"),
        "{err}"
    );
}

#[test]
fn an_agent_that_closes_its_output_is_said_to() {
    let s = Scratch::new("small-closed");
    s.write(
        "closes.sh",
        "read -r line\necho '{\"type\":\"hello\",\"name\":\"t\",\"protocol\":1}'\nexec 1>&-\nsleep 30\n",
    );
    s.write(
        "e.toml",
        "name = \"x\"\ngame = \"tienlen\"\nagents = [\"exec:bash closes.sh\", \"first\"]\n\
         deals = 2\nseed = 3\noutput = \"o\"\n",
    );
    let err = fails(&s.0, &["run", "e.toml", "-q", "--threads", "1"]);
    assert!(
        err.contains("closed its output") && !err.contains("(still running)"),
        "{err}"
    );
}

#[test]
fn a_write_error_names_the_file() {
    let s = Scratch::new("small-write");
    s.write(
        "e.toml",
        "name = \"r\"\ngame = \"tusac\"\nvariant = \"classic\"\nagents = [\"greedy\", \"random\"]\n\
         deals = 40\nseed = 3\noutput = \"o\"\n",
    );
    // files of at most 8 KiB (as a full disk would refuse them), the signal of a larger one
    // ignored so that the write fails instead
    let o = std::process::Command::new("sh")
        .args(["-c", "ulimit -f 16; trap '' XFSZ; exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_bailab"))
        .args(["run", "e.toml", "-q", "--records"])
        .current_dir(&s.0)
        .output()
        .unwrap();
    let err = common::stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains("o/records.jsonl.partial"), "{err}");
}

#[test]
fn deals_from_a_file_that_is_not_regular_gives_the_reason() {
    let s = Scratch::new("small-games");
    let err = fails(&s.0, &["deals", "--games", "/dev/zero", "-q"]);
    assert!(
        err.contains("not a regular file") && !err.contains("no such file"),
        "{err}"
    );
}
