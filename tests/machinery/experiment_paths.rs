//! One rule for every path in an experiment, through the real binary: the files of its agents
//! (`rules:PATH`, `greedy:PATH`) resolve like its `output`, against its project folder, from
//! whatever folder bailab runs in; a stopped run resumes from any folder, inside its own output
//! folder included, to the files of an uninterrupted run; paths on the command line keep
//! resolving against the current folder.

use std::path::{Path, PathBuf};

use crate::common;
use common::*;

/// The files of a finished run that never depend on how or from where it was run.
const REPRODUCIBLE: [&str; 4] = ["summary.csv", "tally.json", "meta.json", "games.csv"];

fn assert_identical(a: &Path, b: &Path) {
    assert_same_files(a, b, &REPRODUCIBLE);
    assert!(!b.join("checkpoint.json").exists(), "{}", b.display());
}

/// A project folder as a clone holds one: `experiments/study.toml` naming a rule list and a
/// greedy weight file under `agents/` (copies of the shipped ones), and an empty folder
/// `elsewhere/` beside it to run from. Returns the experiment's path relative to `elsewhere/`.
fn project(s: &Scratch, deals: u64) -> String {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (from, to) in [
        ("agents/tusac-classic.toml", "project/agents/rules.toml"),
        (
            "agents/tusac-classic-greedy.toml",
            "project/agents/weights.toml",
        ),
    ] {
        let text = std::fs::read_to_string(repo.join(from)).unwrap();
        s.write(to, &text);
    }
    s.write(
        "project/experiments/study.toml",
        &format!(
            "name = \"study\"\ngame = \"tusac\"\n\
             agents = [\"rules:agents/rules.toml\", \"greedy:agents/weights.toml\", \"random\", \
             \"random\"]\ndeals = {deals}\nseed = 4\nrotate = false\n\
             output = \"results/study\"\ngames_csv = true\n"
        ),
    );
    std::fs::create_dir_all(s.path("elsewhere")).unwrap();
    "../project/experiments/study.toml".to_string()
}

#[test]
fn agent_files_resolve_against_the_project_folder() {
    let s = Scratch::new("paths-run");
    let exp = project(&s, 60);
    // From another folder: the agents' files and the output are the project's.
    ok(&s.path("elsewhere"), &["run", &exp, "-q"]);
    let results = s.path("project/results/study");
    assert!(results.join("summary.csv").exists());
    assert!(!s.path("elsewhere/results").exists());
    // The same study run from inside the project writes the same files.
    ok(
        &s.path("project"),
        &[
            "run",
            "experiments/study.toml",
            "-q",
            "--output",
            "../from-inside",
        ],
    );
    assert_identical(&results, &s.path("from-inside"));
    // run.json says where the agent files were read from (the reproducible files do not).
    let run: serde_json::Value = serde_json::from_slice(&read(&results.join("run.json"))).unwrap();
    let project = s.path("project").canonicalize().unwrap();
    assert_eq!(
        Path::new(run["project"].as_str().unwrap())
            .canonicalize()
            .unwrap(),
        project
    );
    assert!(!String::from_utf8_lossy(&read(&results.join("meta.json"))).contains("elsewhere"));
    // replay reads them the same way
    let log = ok(&s.path("elsewhere"), &["replay", &exp, "--deal", "3"]);
    assert!(stdout(&log).contains("rules:agents/rules.toml"));
}

#[test]
fn command_line_agent_paths_resolve_against_the_current_folder() {
    let s = Scratch::new("paths-cli");
    project(&s, 1);
    let args = [
        "play",
        "--agent",
        "rules:agents/rules.toml",
        "--agent",
        "greedy:agents/weights.toml",
    ];
    ok(&s.path("project"), &args);
    let err = fails(&s.path("elsewhere"), &args);
    assert!(
        err.contains("rule file agents/rules.toml: cannot read it"),
        "{err}"
    );
}

/// Starts the study from `elsewhere/` into `dir` on one thread, kills it (SIGKILL) after its
/// first checkpoint and returns the folder; the checkpoint names the project folder.
fn stopped_run(s: &Scratch, exp: &str, dir: &str) -> PathBuf {
    let out = s.path(dir);
    let out_arg = out.to_str().unwrap();
    let args = [
        "run",
        exp,
        "-q",
        "--output",
        out_arg,
        "--threads",
        "1",
        "--checkpoint-secs",
        "0.05",
    ];
    let mut child = command(&s.path("elsewhere"), &args).spawn().unwrap();
    wait_for(&out.join("checkpoint.json"), &mut child);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !out.join("summary.csv").exists(),
        "the run finished before it was killed"
    );
    let ck: serde_json::Value =
        serde_json::from_slice(&read(&out.join("checkpoint.json"))).unwrap();
    let recorded = Path::new(
        ck["project"]
            .as_str()
            .expect("the checkpoint names the project"),
    );
    assert!(recorded.is_absolute(), "{recorded:?}");
    assert_eq!(
        recorded.canonicalize().unwrap(),
        s.path("project").canonicalize().unwrap()
    );
    out
}

#[test]
fn a_stopped_run_resumes_from_any_folder_to_identical_files() {
    let s = Scratch::new("paths-resume");
    let exp = project(&s, 3000);
    ok(&s.path("elsewhere"), &["run", &exp, "-q"]);
    let whole = s.path("project/results/study");

    // from inside the output folder (a cluster requeue's working folder)
    let inside = stopped_run(&s, &exp, "stopped-inside");
    ok(&inside, &["run", "--resume", ".", "-q"]);
    assert_identical(&whole, &inside);

    // from a folder that is neither the project nor the output folder
    let other = stopped_run(&s, &exp, "stopped-other");
    std::fs::create_dir_all(s.path("third")).unwrap();
    ok(
        &s.path("third"),
        &["run", "--resume", "../stopped-other", "-q"],
    );
    assert_identical(&whole, &other);
    let run: serde_json::Value = serde_json::from_slice(&read(&other.join("run.json"))).unwrap();
    assert_eq!(run["sessions"], 2);
}

#[test]
fn an_output_path_naming_a_file_is_refused() {
    let s = Scratch::new("paths-output-file");
    let exp = project(&s, 1);
    let file = s.write("elsewhere/notes.txt", "my notes\n");
    let err = fails(
        &s.path("elsewhere"),
        &["run", &exp, "-q", "--output", "notes.txt"],
    );
    assert!(
        err.contains("notes.txt: the output path is a file, not a folder"),
        "{err}"
    );
    assert!(!err.contains("os error"), "{err}");
    assert_eq!(std::fs::read_to_string(file).unwrap(), "my notes\n");
}

#[test]
fn a_rule_list_for_another_variant_is_refused_in_play() {
    let s = Scratch::new("paths-variant");
    project(&s, 1);
    let err = fails(
        &s.path("project"),
        &[
            "play",
            "--game",
            "tusac",
            "--variant",
            "4sac",
            "--agent",
            "rules:agents/rules.toml",
        ],
    );
    assert!(
        err.contains("rule file agents/rules.toml: the rules are for tusac classic, not 4sac"),
        "{err}"
    );
}
