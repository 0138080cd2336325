//! scripts/k8s-indexed-job.yaml, checked without a Kubernetes cluster (none is available): its
//! lines are read as plain text (no YAML crate) for what a retried pod needs (--continue to resume
//! its shard, --threads from its CPU request, shard-K-of-N folders, podReplacementPolicy: Failed,
//! a wait that also ends on failure), and its two commands are run with the local binary, the
//! volumes replaced by scratch folders: the shards, one of them stopped by SIGTERM and run again,
//! merge to the files of one run.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common;
use common::*;

fn manifest() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/k8s-indexed-job.yaml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The Job applied by `kubectl apply -f`: the lines that are not comments.
fn shard_job(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| l.split(" #").next().unwrap().trim_end().to_string())
        .filter(|l| !l.trim().is_empty())
        .collect()
}

/// The merge Job: the lines starting with "#M ", without it.
fn merge_job(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("#M "))
        .map(|l| l.split(" #").next().unwrap().trim_end().to_string())
        .collect()
}

/// The value of the first `key: value` line (quotes removed).
fn value(lines: &[String], key: &str) -> String {
    lines
        .iter()
        .find_map(|l| l.trim().strip_prefix(&format!("{key}:")))
        .unwrap_or_else(|| panic!("no {key}: in {lines:#?}"))
        .trim()
        .trim_matches('"')
        .to_string()
}

/// The value of the environment variable `name` (its `value:` line after `- name: NAME`).
fn env_value(lines: &[String], name: &str) -> String {
    let at = lines
        .iter()
        .position(|l| l.trim() == format!("- name: {name}"))
        .unwrap_or_else(|| panic!("no variable {name}"));
    value(&lines[at + 1..at + 2], "value")
}

/// The items of the list under `command:`.
fn command(lines: &[String]) -> Vec<String> {
    let at = lines
        .iter()
        .position(|l| l.trim() == "command:")
        .expect("a command");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let item = indent(&lines[at + 1]);
    lines[at + 1..]
        .iter()
        .take_while(|l| indent(l) == item && l.trim_start().starts_with("- "))
        .map(|l| l.trim_start()[2..].to_string())
        .collect()
}

#[test]
fn the_manifest_resumes_threads_names_shards_with_n_and_waits_for_failure_too() {
    let text = manifest();
    let job = shard_job(&text);
    let n = value(&job, "completions");
    assert_eq!(env_value(&job, "SHARDS"), n, "SHARDS = completions");
    let merge = merge_job(&text);
    assert_eq!(
        env_value(&merge, "SHARDS"),
        n,
        "the merge's SHARDS = completions"
    );

    let cmd = command(&job);
    let arg = |flag: &str| {
        let at = cmd.iter().position(|a| a == flag);
        at.and_then(|i| cmd.get(i + 1))
            .unwrap_or_else(|| panic!("no {flag} VALUE in {cmd:?}"))
            .clone()
    };
    assert_eq!(&cmd[..2], ["bailab", "run"], "{cmd:?}");
    assert!(
        cmd.contains(&"--continue".to_string()),
        "no resume: {cmd:?}"
    );
    assert_eq!(arg("--shard"), "$(JOB_COMPLETION_INDEX)/$(SHARDS)");
    assert_eq!(
        arg("--output"),
        "/results/shard-$(JOB_COMPLETION_INDEX)-of-$(SHARDS)"
    );
    assert_eq!(arg("--threads"), "$(THREADS)");
    // THREADS is the CPU request, in whole CPUs
    let at = job
        .iter()
        .position(|l| l.trim() == "- name: THREADS")
        .unwrap();
    let threads: Vec<&str> = job[at..at + 6].iter().map(|l| l.trim()).collect();
    assert!(threads.contains(&"resource: requests.cpu"), "{threads:?}");
    assert!(threads.contains(&"divisor: \"1\""), "{threads:?}");
    assert!(job.iter().any(|l| l.trim() == "requests:"));

    assert_eq!(value(&job, "podReplacementPolicy"), "Failed");
    assert_eq!(value(&job, "restartPolicy"), "Never");
    assert_eq!(value(&job, "completionMode"), "Indexed");

    // the merge takes this N's folders only, and runs under a shell that exec's bailab
    let merge_cmd = command(&merge);
    assert_eq!(&merge_cmd[..2], ["sh", "-c"], "{merge_cmd:?}");
    assert!(
        merge_cmd[2].contains("/results/shard-*-of-\"$SHARDS\""),
        "{merge_cmd:?}"
    );

    // the documented wait ends on Complete and on Failed; no bare wait for completion
    let wait: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("until s=$(kubectl get job/bailab-shards"))
        .take(3)
        .collect();
    let wait = wait.join("\n");
    assert!(
        wait.contains("Complete") && wait.contains("Failed"),
        "{wait}"
    );
    assert!(
        !text.contains("kubectl wait --for=condition=complete --timeout=24h job/bailab-shards"),
        "a wait that hangs on a failed Job"
    );
}

/// `$(VAR)` of a Kubernetes command, expanded.
fn expand(arg: &str, vars: &[(&str, String)]) -> String {
    let mut s = arg.to_string();
    for (k, v) in vars {
        s = s.replace(&format!("$({k})"), v);
    }
    assert!(!s.contains("$("), "unexpanded: {s}");
    s
}

#[test]
fn the_manifest_commands_run_resume_and_merge_to_one_run() {
    let text = manifest();
    let job = shard_job(&text);
    let cmd = command(&job);
    let merge = command(&merge_job(&text));
    let s = Scratch::new("k8s");
    // the volumes: /experiments and /results
    let exp_dir = s.path("experiments");
    let results = s.path("results");
    std::fs::create_dir_all(&results).unwrap();
    let experiment = "name = \"k8s\"\ngame = \"tusac\"\n\
        agents = [\"random\", \"random\", \"random\", \"random\"]\n\
        deals = 8000\nseed = 4\noutput = \"unused\"\n";
    s.write("experiments/default.toml", experiment);
    ok(
        &s.0,
        &["run", "experiments/default.toml", "-q", "--output", "whole"],
    );
    let n = 3u64;
    // a stale shard folder of a run with another N is ignored by the merge
    ok(
        &s.0,
        &[
            "run",
            "experiments/default.toml",
            "-q",
            "--shard",
            "0/2",
            "--output",
            "results/shard-0-of-2",
        ],
    );
    let paths = |a: String| {
        a.replace("/experiments", exp_dir.to_str().unwrap())
            .replace("/results", results.to_str().unwrap())
    };
    let args = |k: u64| -> Vec<String> {
        let vars = [
            ("JOB_COMPLETION_INDEX", k.to_string()),
            ("SHARDS", n.to_string()),
            ("THREADS", "1".to_string()),
        ];
        cmd[1..].iter().map(|a| paths(expand(a, &vars))).collect()
    };
    // pod 1 is deleted mid-run (SIGTERM) and replaced: the replacement resumes
    let first: Vec<String> = args(1)
        .into_iter()
        .chain(["--checkpoint-secs".to_string(), "0.05".to_string()])
        .collect();
    let mut child = spawn(&s.0, &first.iter().map(String::as_str).collect::<Vec<_>>());
    let ck = results.join("shard-1-of-3/checkpoint.json");
    let began = Instant::now();
    while !ck.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the shard ended before a checkpoint"
        );
        assert!(began.elapsed() < Duration::from_secs(60), "no checkpoint");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) },
        0
    );
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(ck.exists());
    for k in 0..n {
        let a = args(k);
        let o = ok(&s.0, &a.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(
            stderr(&o).contains("resuming the unfinished run"),
            k == 1,
            "pod {k}: {}",
            stderr(&o)
        );
    }
    // the merge pod's shell command, with the volume paths and N
    let script = paths(merge[2].clone()).replace(
        "exec bailab",
        &format!("exec '{}'", env!("CARGO_BIN_EXE_bailab")),
    );
    let o = std::process::Command::new("sh")
        .args(["-c", &script])
        .env("SHARDS", n.to_string())
        .current_dir(&s.0)
        .output()
        .unwrap();
    assert!(o.status.success(), "{script}: {}", stderr(&o));
    for name in ["summary.csv", "tally.json", "meta.json"] {
        let a = std::fs::read(s.path("whole").join(name)).unwrap();
        let b = std::fs::read(results.join("merged").join(name)).unwrap();
        assert!(a == b, "{name} of the merge differs from one run's");
    }
}
