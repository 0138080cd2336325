//! The Slurm path against a real Slurm (e.g. the one-node cluster of
//! scripts/slurm/start-local-cluster.sh, with its SLURM_CONF exported): scripts/slurm-shards.sh
//! as a 4-task job array plus scripts/slurm-merge.sh give the files of one `bailab run` byte for
//! byte; so does an array with a task cancelled mid-run and resubmitted (it resumes from its
//! checkpoint), and one whose node is set down mid-run (Slurm requeues the tasks, which resume).
//!
//! Without a reachable Slurm (`sinfo` missing or failing) the tests say so and pass, unless
//! BAILAB_REQUIRE_SLURM=1 (as in .ci/run), which makes that a failure. The cluster must see this
//! machine's temp folder and binary (a one-node cluster on this machine does). The tests share
//! the cluster's CPUs and its one node, so they take turns.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

mod common;
use common::*;

/// Shards and deals: 4 tasks of 150,000 deals of four random players, some seconds each on one
/// thread (a first checkpoint after one second), so that a task can be caught mid-run.
const N: u64 = 4;
const DEALS: u64 = 600_000;

fn experiment() -> String {
    format!(
        "name = \"slurm\"\ngame = \"tusac\"\n\
         agents = [\"random\", \"random\", \"random\", \"random\"]\n\
         deals = {DEALS}\nseed = 5\nrotate = false\noutput = \"unused\"\n"
    )
}

/// The files a merge must reproduce exactly.
const COMPARED: [&str; 3] = ["summary.csv", "tally.json", "meta.json"];

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts")
}

/// Runs a Slurm command (or a script) in `cwd`; its stdout, or an error with its stderr.
fn run(cwd: &Path, program: &str, args: &[&str], env: &[(&str, &str)]) -> Result<String, String> {
    let out = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(cwd)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.success() {
        Ok(text)
    } else {
        Err(format!(
            "{program} {args:?} failed ({}): {}{}",
            out.status,
            text,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Runs a Slurm command that must succeed.
fn must(cwd: &Path, program: &str, args: &[&str]) -> String {
    run(cwd, program, args, &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// The cluster's one node when Slurm answers, else why not.
fn reachable() -> Result<String, String> {
    let out = run(Path::new("."), "sinfo", &["-h", "-N", "-o", "%N %t"], &[])?;
    let mut nodes = out.lines().filter_map(|l| l.split_whitespace().next());
    let node = nodes.next().ok_or("sinfo lists no node")?.to_string();
    Ok(node)
}

/// Takes the cluster for one test, or None (after saying why) when there is no Slurm to test
/// against and BAILAB_REQUIRE_SLURM is not 1.
fn cluster() -> Option<(MutexGuard<'static, ()>, String)> {
    static TURN: Mutex<()> = Mutex::new(());
    match reachable() {
        Ok(node) => Some((TURN.lock().unwrap_or_else(|e| e.into_inner()), node)),
        Err(why) => {
            let msg = format!(
                "no Slurm reachable ({why}): skipped. Start one with \
                 scripts/slurm/start-local-cluster.sh and export the SLURM_CONF it prints"
            );
            if std::env::var("BAILAB_REQUIRE_SLURM").as_deref() == Ok("1") {
                panic!("BAILAB_REQUIRE_SLURM=1: {msg}");
            }
            eprintln!("{msg}");
            None
        }
    }
}

/// One array (and its merges) in a scratch folder, submitted from it, and the single run of the
/// same experiment to compare with (`whole/`, made on one thread beside the array).
struct Study {
    s: Scratch,
    began: Instant,
    whole: RefCell<Option<std::process::Child>>,
    jobs: RefCell<Vec<String>>,
}

impl Drop for Study {
    /// A failed test leaves nothing running: its jobs are cancelled, its single run killed.
    fn drop(&mut self) {
        let jobs = self.jobs.borrow().clone();
        if !jobs.is_empty() {
            let _ = Command::new("scancel").args(&jobs).output();
        }
        if let Some(mut child) = self.whole.borrow_mut().take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Study {
    fn new(test: &str) -> Study {
        let s = Scratch::new(test);
        s.write("exp.toml", &experiment());
        let whole = spawn(
            &s.0,
            &[
                "run",
                "exp.toml",
                "-q",
                "--threads",
                "1",
                "--output",
                "whole",
            ],
        );
        Study {
            s,
            began: Instant::now(),
            whole: Some(whole).into(),
            jobs: RefCell::default(),
        }
    }

    /// The single run's folder, once it has finished.
    fn whole(&self) -> PathBuf {
        if let Some(child) = self.whole.borrow_mut().take() {
            let o = child.wait_with_output().unwrap();
            assert!(o.status.success(), "the single run failed: {}", stderr(&o));
        }
        self.dir().join("whole")
    }

    /// Says how long the test has been running, and what happened.
    fn say(&self, what: &str) {
        eprintln!("{:6.1} s  {what}", self.began.elapsed().as_secs_f64());
    }

    fn dir(&self) -> &Path {
        &self.s.0
    }

    /// Submits the array (tasks `range`) with N shards; its job id.
    fn submit_shards(&self, range: &str) -> String {
        let shards = scripts().join("slurm-shards.sh");
        let out = run(
            self.dir(),
            "sbatch",
            &[
                "--parsable",
                &format!("--array={range}"),
                &format!("--export=ALL,N={N},BAILAB={}", env!("CARGO_BIN_EXE_bailab")),
                shards.to_str().unwrap(),
                "exp.toml",
                "out",
            ],
            &[],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let id = job_id(&out);
        self.jobs.borrow_mut().push(id.clone());
        id
    }

    /// Submits the merge after `jobids` (comma-separated) with dependency type `after`.
    fn submit_merge(&self, jobids: &str, after: &str) -> String {
        let merge = scripts().join("slurm-merge.sh");
        let n = N.to_string();
        let out = run(
            self.dir(),
            merge.to_str().unwrap(),
            &[jobids, "exp.toml", "out"],
            &[
                ("N", &n),
                ("AFTER", after),
                ("BAILAB", env!("CARGO_BIN_EXE_bailab")),
            ],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let id = job_id(&out);
        self.jobs.borrow_mut().push(id.clone());
        id
    }

    /// A task's log (appended to by each of its starts).
    fn log(&self, array: &str, task: u64) -> String {
        let path = self
            .dir()
            .join(format!("slurm-bailab-shard-{array}_{task}.out"));
        std::fs::read_to_string(&path).unwrap_or_default()
    }

    /// The folder of shard `k`.
    fn shard(&self, k: u64) -> PathBuf {
        self.dir().join(format!("out/shard-{k}-of-{N}"))
    }

    /// Waits for the merge job to end, asserts it completed and the merged files equal one run's.
    fn assert_merged(&self, merge: &str) {
        let state = wait_for(&format!("merge job {merge} to end"), 150, || {
            job_state(self.dir(), merge).filter(|s| {
                !matches!(
                    s.as_str(),
                    "PENDING" | "RUNNING" | "COMPLETING" | "CONFIGURING"
                )
            })
        });
        let log =
            std::fs::read_to_string(self.dir().join(format!("slurm-bailab-merge-{merge}.out")))
                .unwrap_or_default();
        assert_eq!(state, "COMPLETED", "merge log:\n{log}");
        for name in COMPARED {
            let (a, b) = (
                read(&self.whole().join(name)),
                read(&self.dir().join("out").join(name)),
            );
            assert!(!a.is_empty(), "{name} is empty");
            assert!(
                a == b,
                "{name} of the merge differs from one run's ({})",
                self.dir().display()
            );
        }
        eprintln!(
            "{}: merged files identical to one run after {:.1} s",
            self.dir().display(),
            self.began.elapsed().as_secs_f64()
        );
    }
}

/// The job id of `sbatch --parsable` output (`ID` or `ID;CLUSTER`).
fn job_id(out: &str) -> String {
    let id = out.trim().split(';').next().unwrap_or("").to_string();
    assert!(
        !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()),
        "not a job id: {out:?}"
    );
    id
}

/// A job's state (`scontrol show job`), or None once Slurm has forgotten it.
fn job_state(cwd: &Path, job: &str) -> Option<String> {
    let out = run(cwd, "scontrol", &["show", "job", "-o", job], &[]).ok()?;
    field(out.lines().next()?, "JobState")
}

/// `KEY=value` of a `scontrol -o` line.
fn field(line: &str, key: &str) -> Option<String> {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{key}=")).map(str::to_string))
}

/// The array's tasks known to squeue: (task, job id, state, reason).
fn tasks(cwd: &Path, array: &str) -> Vec<(u64, String, String, String)> {
    let out = run(
        cwd,
        "squeue",
        &["-h", "-r", "-j", array, "-o", "%K|%A|%T|%r"],
        &[],
    )
    .unwrap_or_default();
    out.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            Some((
                f.first()?.parse().ok()?,
                f.get(1)?.to_string(),
                f.get(2)?.to_string(),
                f.get(3)?.to_string(),
            ))
        })
        .collect()
}

/// Polls `f` every 200 ms until it gives a value; fails after `secs` seconds.
fn wait_for<T>(what: &str, secs: u64, mut f: impl FnMut() -> Option<T>) -> T {
    let began = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            began.elapsed() < Duration::from_secs(secs),
            "waited {secs} s for {what}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Deals done according to a shard folder's checkpoint, if it has one.
fn checkpoint_done(dir: &Path) -> Option<u64> {
    let text = std::fs::read(dir.join("checkpoint.json")).ok()?;
    let ck: serde_json::Value = serde_json::from_slice(&text).ok()?;
    Some(ck["next"].as_u64()? - ck["deals"][0].as_u64()?)
}

/// Waits until task `k` of `array` runs and has checkpointed some deals.
fn wait_mid_run(study: &Study, array: &str, k: u64) -> u64 {
    wait_for(&format!("task {k} of {array} to checkpoint"), 60, || {
        let running = tasks(study.dir(), array)
            .iter()
            .any(|t| t.0 == k && t.2 == "RUNNING");
        checkpoint_done(&study.shard(k)).filter(|&d| running && d > 0)
    })
}

/// The deals a task's log says it resumed from.
fn resumed_from(log: &str) -> Option<u64> {
    let line = log
        .lines()
        .find(|l| l.contains("resuming the unfinished run"))?;
    let inside = line.split('(').nth(1)?;
    inside.split_whitespace().next()?.parse().ok()
}

#[test]
fn an_array_and_its_merge_equal_one_run() {
    let Some((_turn, _node)) = cluster() else {
        return;
    };
    let study = Study::new("slurm-array");
    let array = study.submit_shards(&format!("0-{}", N - 1));
    let merge = study.submit_merge(&array, "afterok");
    study.assert_merged(&merge);
    for k in 0..N {
        let log = study.log(&array, k);
        assert!(
            log.contains(&format!("shard {k}/{N} done")),
            "task {k}:\n{log}"
        );
        assert!(
            !log.contains("resuming"),
            "task {k} had nothing to resume:\n{log}"
        );
    }
}

#[test]
fn a_cancelled_task_resubmitted_resumes_and_the_merge_is_identical() {
    let Some((_turn, _node)) = cluster() else {
        return;
    };
    let study = Study::new("slurm-cancel");
    let array = study.submit_shards(&format!("0-{}", N - 1));
    let merge = study.submit_merge(&array, "afterok");
    let seen = wait_mid_run(&study, &array, 0);
    study.say(&format!("task 0 mid-run ({seen} deals)"));
    must(study.dir(), "scancel", &[&format!("{array}_0")]);
    // SIGTERM: the run stops at the next deal with a last checkpoint; the task is gone
    wait_for("the cancelled task to end", 60, || {
        (!tasks(study.dir(), &array).iter().any(|t| t.0 == 0)).then_some(())
    });
    study.say("task 0 cancelled");
    let stopped = checkpoint_done(&study.shard(0)).expect("a checkpoint after scancel");
    assert!(
        seen <= stopped && stopped < DEALS / N,
        "{seen} ≤ {stopped} < {}",
        DEALS / N
    );
    assert!(!study.shard(0).join("summary.csv").exists());
    // resubmitted at once (it resumes), with a merge after both the array and it
    let redo = study.submit_shards("0");
    study.say(&format!("task 0 resubmitted as {redo}"));
    let merge2 = study.submit_merge(&format!("{array},{redo}"), "afterany");
    // the first merge's afterok on the array can never be satisfied (Slurm says so once every
    // task of the array has ended): it has to be cancelled
    let reason = wait_for("the first merge to give up on its dependency", 90, || {
        let out = run(
            study.dir(),
            "squeue",
            &["-h", "-j", &merge, "-o", "%T %r"],
            &[],
        )
        .ok()?;
        let r = out.trim().to_string();
        (r == "PENDING DependencyNeverSatisfied").then_some(r)
    });
    study.say(&format!("merge {merge}: {reason}"));
    must(study.dir(), "scancel", &[&merge]);
    let merge = merge2;
    study.assert_merged(&merge);
    let log = study.log(&redo, 0);
    assert_eq!(
        resumed_from(&log),
        Some(stopped),
        "the resubmitted task did not resume:\n{log}"
    );
    let run: serde_json::Value =
        serde_json::from_slice(&read(&study.shard(0).join("run.json"))).unwrap();
    assert_eq!(run["sessions"], 2, "{run}");
    eprintln!(
        "cancelled after {stopped} of {} deals; resumed from there",
        DEALS / N
    );
}

#[test]
fn a_node_set_down_requeues_its_tasks_which_resume() {
    let Some((_turn, node)) = cluster() else {
        return;
    };
    let study = Study::new("slurm-down");
    let array = study.submit_shards(&format!("0-{}", N - 1));
    let merge = study.submit_merge(&array, "afterok");
    wait_mid_run(&study, &array, 0);
    let running: Vec<u64> = tasks(study.dir(), &array)
        .iter()
        .filter(|t| t.2 == "RUNNING")
        .map(|t| t.0)
        .collect();
    // Slurm reports a task RUNNING a moment before its script logs its start: wait until each
    // has, so that the start after the requeue is its second.
    wait_for("the running tasks to log their start", 30, || {
        running
            .iter()
            .all(|&k| {
                study
                    .log(&array, k)
                    .contains(&format!("shard {k}/{N} of exp.toml"))
            })
            .then_some(())
    });
    must(
        study.dir(),
        "scontrol",
        &[
            "update",
            &format!("nodename={node}"),
            "state=down",
            "reason=bailab-test",
        ],
    );
    let down = Instant::now();
    study.say(&format!("node {node} down; tasks {running:?} were running"));
    // The running tasks are killed and requeued (held for a while before they may start again).
    let requeued = wait_for("the running tasks to be requeued", 60, || {
        let t = tasks(study.dir(), &array);
        let pending: Vec<(u64, String)> = t
            .iter()
            .filter(|t| running.contains(&t.0) && t.2 == "PENDING")
            .map(|t| (t.0, t.1.clone()))
            .collect();
        (pending.len() == running.len()).then_some(pending)
    });
    study.say(&format!("requeued: {requeued:?}"));
    let stopped: Vec<(u64, u64)> = requeued
        .iter()
        .map(|(k, _)| (*k, checkpoint_done(&study.shard(*k)).unwrap_or(0)))
        .collect();
    // ReturnToService=2 brings the node back by itself once its slurmd registers; else resume it
    if let Err(e) = run(
        study.dir(),
        "scontrol",
        &["update", &format!("nodename={node}"), "state=resume"],
        &[],
    ) {
        let state = must(study.dir(), "sinfo", &["-h", "-n", &node, "-o", "%t"]);
        assert!(!state.contains("down"), "node {node} {state}: {e}");
    }
    for (_, job) in &requeued {
        must(
            study.dir(),
            "scontrol",
            &["update", &format!("jobid={job}"), "StartTime=now"],
        );
    }
    eprintln!(
        "node down: tasks {running:?} requeued and released after {:.1} s (checkpoints {stopped:?})",
        down.elapsed().as_secs_f64()
    );
    study.assert_merged(&merge);
    for (k, done) in stopped {
        let log = study.log(&array, k);
        assert_eq!(
            log.matches(&format!("shard {k}/{N} of exp.toml")).count(),
            2,
            "task {k} started twice, its log appended:\n{log}"
        );
        if done > 0 {
            // from its last checkpoint (maybe written after the one read above, while it stopped)
            let from =
                resumed_from(&log).unwrap_or_else(|| panic!("task {k} did not resume:\n{log}"));
            assert!(
                done <= from && from < DEALS / N,
                "task {k}: {done} ≤ {from} < {}",
                DEALS / N
            );
        }
    }
}
