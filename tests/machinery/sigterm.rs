//! SIGTERM (what `scancel`, preemption, a time limit and a pod's deletion send first) stops a run
//! like Ctrl-C: a last checkpoint, the resume command, exit status 130; `bailab run --resume`
//! then finishes it with the files of an uninterrupted run, byte for byte. SIGHUP does the same.

use std::path::Path;
use std::time::Duration;

use crate::common;
use common::*;

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Deals done according to a folder's checkpoint.
fn checkpoint_done(dir: &Path) -> u64 {
    let ck: serde_json::Value =
        serde_json::from_slice(&read(&dir.join("checkpoint.json"))).expect("checkpoint JSON");
    ck["next"].as_u64().unwrap() - ck["deals"][0].as_u64().unwrap()
}

/// Runs an experiment whole, then again stopped by `sig` after its first checkpoint, resumes the
/// stopped one (with `--resume DIR`, or by running it again with `--continue`) and compares the
/// files.
fn signalled_run_resumes(test: &str, sig: i32, with_continue: bool) {
    let s = Scratch::new(test);
    let deals = 24_000u64;
    let exp = s.write(
        "exp.toml",
        &format!(
            "name = \"sigterm\"\ngame = \"tusac\"\n\
             agents = [\"random\", \"random\", \"random\", \"random\"]\n\
             deals = {deals}\nseed = 11\noutput = \"unused\"\n"
        ),
    );
    ok(
        &s.0,
        &["run", &exp, "-q", "--games-csv", "--output", "whole"],
    );

    let mut child = spawn(
        &s.0,
        &[
            "run",
            &exp,
            "-q",
            "--games-csv",
            "--output",
            "stopped",
            "--threads",
            "1",
            "--checkpoint-secs",
            "0.05",
        ],
    );
    wait_for(&s.path("stopped/checkpoint.json"), &mut child);
    std::thread::sleep(Duration::from_millis(30));
    let r = unsafe { libc::kill(child.id() as libc::pid_t, sig) };
    assert_eq!(r, 0, "kill({sig}) failed");
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(
        !s.path("stopped/summary.csv").exists(),
        "the run finished before the signal: {err}"
    );
    // bailab's own exit (not death by the signal, which has no code), after its last checkpoint
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("stopped after"), "{err}");
    assert!(err.contains("bailab run --resume stopped"), "{err}");
    let done = checkpoint_done(&s.path("stopped"));
    assert!(0 < done && done < deals, "{done} of {deals}");

    if with_continue {
        // another experiment's run is not continued: the fresh run refuses the folder
        let other = s.write(
            "other.toml",
            &std::fs::read_to_string(&exp)
                .unwrap()
                .replace("seed = 11", "seed = 12"),
        );
        let err = fails(
            &s.0,
            &["run", &other, "-q", "--output", "stopped", "--continue"],
        );
        assert!(err.contains("another experiment"), "{err}");
        let o = ok(
            &s.0,
            &[
                "run",
                &exp,
                "-q",
                "--games-csv",
                "--output",
                "stopped",
                "--continue",
            ],
        );
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "resuming the unfinished run in stopped ({done} of {deals} deals done)"
            )),
            "{err}"
        );
    } else {
        ok(&s.0, &["run", "--resume", "stopped", "-q"]);
    }
    for name in ["summary.csv", "tally.json", "meta.json", "games.csv"] {
        let (a, b) = (
            read(&s.path("whole").join(name)),
            read(&s.path("stopped").join(name)),
        );
        assert!(!a.is_empty(), "{name} is empty");
        assert!(a == b, "{name} differs after a {test} and --resume");
    }
    assert!(!s.path("stopped/checkpoint.json").exists());
    let run: serde_json::Value =
        serde_json::from_slice(&read(&s.path("stopped/run.json"))).unwrap();
    assert_eq!(run["sessions"], 2, "{run}");
    eprintln!("{test}: stopped after {done} of {deals} deals, resumed to identical files");
}

/// Resumed with `--resume DIR`.
#[test]
fn a_run_stopped_with_sigterm_resumes_to_identical_files() {
    signalled_run_resumes("sigterm", libc::SIGTERM, false);
}

#[test]
fn continue_starts_afresh_in_an_empty_folder() {
    let s = Scratch::new("continue-fresh");
    let exp = s.write(
        "exp.toml",
        "name = \"fresh\"\ngame = \"tusac\"\nagents = [\"random\", \"random\", \"random\", \"random\"]\n\
         deals = 200\nseed = 3\noutput = \"unused\"\n",
    );
    ok(&s.0, &["run", &exp, "-q", "--output", "whole"]);
    let o = ok(
        &s.0,
        &["run", &exp, "-q", "--output", "again", "--continue"],
    );
    assert!(!stderr(&o).contains("resuming"), "{}", stderr(&o));
    assert!(read(&s.path("whole/summary.csv")) == read(&s.path("again/summary.csv")));
    // a finished folder of the same experiment is simply run again
    ok(
        &s.0,
        &["run", &exp, "-q", "--output", "again", "--continue"],
    );
    let err = fails(&s.0, &["run", &exp, "--continue", "--force"]);
    assert!(err.contains("--force"), "{err}");
}

/// SIGHUP too; the run is then continued by running it again with `--continue`.
#[test]
fn a_run_stopped_with_sighup_resumes_to_identical_files() {
    signalled_run_resumes("sighup", libc::SIGHUP, true);
}
