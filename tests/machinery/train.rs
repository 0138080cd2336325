//! `bailab train`: on one thread with a fixed seed, a fixed budget of decisions gives the same
//! network whether trained whole, stopped and resumed, or killed and resumed; its outputs are
//! guarded; bad settings are refused before any work.

use crate::common::*;
use bailab::generic_agents::net::file::from_bytes;
use std::time::Duration;

/// A tiny training of Tiến Lên (a small network, small generations, a short evaluation).
const TINY: &[&str] = &[
    "train",
    "--game",
    "tienlen",
    "--hidden",
    "8",
    "--update-games",
    "8",
    "--eval-every",
    "100000",
    "--eval-deals",
    "4",
    "--guide-decisions",
    "2000",
    "--threads",
    "1",
    "--seed",
    "5",
    "--quiet",
];

fn train(s: &Scratch, out: &str, extra: &[&str]) -> std::process::Output {
    let mut args: Vec<&str> = TINY.to_vec();
    args.extend_from_slice(&["--output", out]);
    args.extend_from_slice(extra);
    bailab(&s.0, &args)
}

/// The weights' checksum, and the header without its timings and command (the first session's:
/// its output folder and budget), of a network file.
fn network(path: &std::path::Path) -> (u64, String) {
    let bytes = read(path);
    let file = from_bytes(&bytes, "net").expect("a network file");
    let mut header = file.header.clone();
    header.seconds = 0.0;
    header.cpu_seconds = 0.0;
    header.command.clear();
    let weights: Vec<u8> = (file.net.layers().iter())
        .flat_map(|l| l.weight.iter().chain(&l.bias).flat_map(|x| x.to_le_bytes()))
        .collect();
    (
        bailab::sim::files::seal::fnv1a64(&weights),
        serde_json::to_string(&header).unwrap(),
    )
}

#[test]
fn training_is_reproducible_whole_stopped_or_killed() {
    let s = Scratch::new("train-repro");
    let whole = train(&s, "whole", &["--decisions", "250000"]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let reference = network(&s.path("whole/network.safetensors"));
    let curve = String::from_utf8(read(&s.path("whole/curve.csv"))).unwrap();
    assert_eq!(curve.lines().count(), 3, "two evaluations: {curve}");
    // plot draws the curve, report has a section for the folder
    ok(&s.0, &["plot", "whole/curve.csv", "--output", "charts"]);
    let svgs: Vec<_> = std::fs::read_dir(s.path("charts")).unwrap().collect();
    assert_eq!(svgs.len(), 1, "one chart");
    ok(&s.0, &["report", "whole", "--output", "page.html"]);
    let page = String::from_utf8(read(&s.path("page.html"))).unwrap();
    assert!(
        page.contains("learning curve of bailab train") && page.contains("<svg"),
        "{page}"
    );

    // stopped at a budget, resumed to the same budget
    let first = train(&s, "split", &["--decisions", "120000"]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert_ne!(network(&s.path("split/network.safetensors")).0, reference.0);
    let resumed = resume(&s, "split", &[]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(network(&s.path("split/network.safetensors")), reference);
    let resumed_curve = String::from_utf8(read(&s.path("split/curve.csv"))).unwrap();
    assert_eq!(resumed_curve.lines().count(), curve.lines().count());

    // killed at some moment (checkpoints every generation), resumed
    let mut args: Vec<&str> = TINY.to_vec();
    args.extend_from_slice(&[
        "--output",
        "killed",
        "--decisions",
        "250000",
        "--checkpoint-minutes",
        "0",
    ]);
    let mut child = spawn(&s.0, &args);
    std::thread::sleep(Duration::from_millis(1500));
    let running = child.try_wait().unwrap().is_none();
    assert!(
        running,
        "the training ended before the kill: give it more decisions"
    );
    let _ = child.kill();
    let _ = child.wait();
    let killed = s.path("killed");
    let again = if killed.join("checkpoint.safetensors").exists() {
        bailab(
            &s.0,
            &[
                "train",
                "--resume",
                killed.to_str().unwrap(),
                "--decisions",
                "250000",
                "--threads",
                "1",
                "--quiet",
            ],
        )
    } else {
        train(&s, "killed", &["--decisions", "250000", "--force"])
    };
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(network(&s.path("killed/network.safetensors")), reference);
}

#[test]
fn a_training_on_rollout_targets_is_reproducible_stopped_and_resumed() {
    let s = Scratch::new("train-rollouts");
    let reference = whole_and_resumed(&s, &["--rollouts", "0.5"], "500", "1200");
    let file = from_bytes(&read(&s.path("whole/network.safetensors")), "net").unwrap();
    assert!(
        file.header.command.contains("--rollouts 0.5"),
        "{:?}",
        file.header
    );
    // the same budget on Monte-Carlo targets is another network
    let returns = train(&s, "returns", &["--decisions", "1200"]);
    assert!(returns.status.success(), "{}", stderr(&returns));
    assert_ne!(
        network(&s.path("returns/network.safetensors")).0,
        reference.0
    );
    // a resumed training may switch the rollout policy; the command records it
    let e = fails(
        &s.0,
        &["train", "--resume", "returns", "--rollout-policy", "own"],
    );
    assert!(e.contains("no rollout targets"), "{e}");
    let own = resume_to(&s, "split", "1600", &["--rollout-policy", "own"]);
    assert!(own.status.success(), "{}", stderr(&own));
    let file = from_bytes(&read(&s.path("split/network.safetensors")), "net").unwrap();
    let command = &file.header.command;
    assert!(
        command.contains("; from ") && command.contains("--rollout-policy own"),
        "{command}"
    );
    // and its rollout worlds, recorded too; a Monte-Carlo training has none to change
    let e = fails(
        &s.0,
        &["train", "--resume", "returns", "--rollout-worlds", "3"],
    );
    assert!(
        e.contains("--rollout-worlds: this training has no rollout targets"),
        "{e}"
    );
    let worlds = ["--rollout-worlds", "3", "--rollout-resample", "view"];
    let more = resume_to(&s, "split", "1900", &worlds);
    assert!(more.status.success(), "{}", stderr(&more));
    let file = from_bytes(&read(&s.path("split/network.safetensors")), "net").unwrap();
    assert!(
        file.header
            .command
            .ends_with("--rollout-worlds 3 --rollout-resample view"),
        "{}",
        file.header.command
    );
    // and its rollout agent, recorded and kept in the checkpoint
    let agent = ["--rollout-agent", "random"];
    let random = resume_to(&s, "split", "2200", &agent);
    assert!(random.status.success(), "{}", stderr(&random));
    let file = from_bytes(&read(&s.path("split/network.safetensors")), "net").unwrap();
    assert!(
        file.header.command.ends_with("--rollout-agent random"),
        "{}",
        file.header.command
    );
    // and its least rows, recorded and kept in the checkpoint too
    let rows = resume_to(&s, "split", "2400", &["--rollout-min-rows", "2"]);
    assert!(rows.status.success(), "{}", stderr(&rows));
    let on = resume_to(&s, "split", "2500", &[]);
    assert!(on.status.success(), "{}", stderr(&on));
    let checkpoint = read(&s.path("split/checkpoint.safetensors"));
    let text = String::from_utf8_lossy(&checkpoint);
    assert!(
        text.contains("rollout_agent\\\":\\\"random"),
        "kept on resuming"
    );
    assert!(text.contains("rollout_min_rows\\\":2"), "kept on resuming");
    let e = fails(
        &s.0,
        &[
            "train",
            "--resume",
            "split",
            "--rollout-agent",
            "rules:x.toml",
        ],
    );
    assert!(e.contains("--rollout-agent rules:x.toml: "), "{e}");
}

#[test]
fn members_train_as_one_ensemble_whole_or_stopped_and_resumed() {
    let s = Scratch::new("train-members");
    let reference = whole_and_resumed(&s, &["--members", "3"], "20000", "40000");
    let file = from_bytes(&read(&s.path("whole/network.safetensors")), "net").unwrap();
    // the file is the members' ensemble: three hidden layers of 8 side by side
    assert_eq!(file.header.hidden, [24]);
    assert_eq!(file.net.layers()[0].outputs, 24);
    // one network on the same budget is another; a resumed training keeps its count
    let one = train(&s, "one", &["--decisions", "40000"]);
    assert!(one.status.success(), "{}", stderr(&one));
    assert_ne!(network(&s.path("one/network.safetensors")).0, reference.0);
    let e = fails(&s.0, &["train", "--resume", "split", "--members", "2"]);
    assert!(e.contains("--members"), "{e}");
    // and `net:` plays the ensemble
    let spec = format!("net:{}", s.path("whole/network.safetensors").display());
    let args = [
        "--game",
        "tienlen",
        "--agent",
        &spec,
        "--agent-decisions",
        "200",
    ];
    ok(&s.0, &[&["bench"][..], &args].concat());
}

/// Trains with `extra` to `total` decisions whole (in `whole/`), and to `part` then resumed to
/// `total` (in `split/`); asserts that both give the same network and returns it.
fn whole_and_resumed(s: &Scratch, extra: &[&str], part: &str, total: &str) -> (u64, String) {
    let whole = train(s, "whole", &[extra, &["--decisions", total]].concat());
    assert!(whole.status.success(), "{}", stderr(&whole));
    let reference = network(&s.path("whole/network.safetensors"));
    let first = train(s, "split", &[extra, &["--decisions", part]].concat());
    assert!(first.status.success(), "{}", stderr(&first));
    let resumed = resume_to(s, "split", total, &[]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(network(&s.path("split/network.safetensors")), reference);
    reference
}

/// Resumes the training in `dir` to 250,000 decisions with `extra` arguments.
fn resume(s: &Scratch, dir: &str, extra: &[&str]) -> std::process::Output {
    resume_to(s, dir, "250000", extra)
}

/// Resumes the training in `dir` to `decisions` with `extra` arguments, on one thread.
fn resume_to(s: &Scratch, dir: &str, decisions: &str, extra: &[&str]) -> std::process::Output {
    let path = s.path(dir);
    let mut args = vec!["train", "--resume", path.to_str().unwrap()];
    args.extend_from_slice(&["--decisions", decisions, "--threads", "1", "--quiet"]);
    args.extend_from_slice(extra);
    bailab(&s.0, &args)
}

#[test]
fn a_resumed_training_takes_a_new_learning_rate_and_records_it() {
    let s = Scratch::new("train-lr");
    let first = train(&s, "a", &["--decisions", "120000"]);
    assert!(first.status.success(), "{}", stderr(&first));
    for copy in ["same", "lower"] {
        std::fs::create_dir(s.path(copy)).unwrap();
        for name in ["checkpoint.safetensors", "network.safetensors", "curve.csv"] {
            std::fs::copy(s.path("a").join(name), s.path(copy).join(name)).unwrap();
        }
    }
    for (dir, extra) in [
        ("a", &[][..]),
        ("same", &["--lr", "0.001"]),
        ("lower", &["--lr", "0.0001"]),
    ] {
        let out = resume(&s, dir, extra);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let net = |dir: &str| network(&s.path(dir).join("network.safetensors"));
    // the default rate given again changes nothing but the command; a lower one the weights
    assert_eq!(net("same").0, net("a").0);
    assert_ne!(net("lower").0, net("a").0);
    let header = |dir: &str| {
        from_bytes(&read(&s.path(dir).join("network.safetensors")), "n")
            .unwrap()
            .header
    };
    assert!(
        !header("a").command.contains("; from"),
        "{}",
        header("a").command
    );
    let command = header("lower").command;
    assert!(
        command.starts_with("bailab train --game tienlen"),
        "{command}"
    );
    assert!(
        command.contains("; from ") && command.ends_with("--lr 0.0001"),
        "{command}"
    );
    let bad = resume(&s, "a", &["--lr", "0"]);
    assert!(!bad.status.success() && stderr(&bad).contains("--lr 0: must be above 0"));
}

#[test]
fn train_guards_its_output_and_refuses_bad_settings() {
    let s = Scratch::new("train-guard");
    let done = train(&s, "out", &["--decisions", "500"]);
    assert!(done.status.success(), "{}", stderr(&done));
    let again = train(&s, "out", &["--decisions", "500"]);
    assert!(!again.status.success());
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    for (line, expected) in [
        ("train --game tienlen --hours 0", "--hours 0"),
        ("train --game tienlen --decisions 0", "--decisions 0"),
        ("train --game tienlen --hidden 0", "--hidden"),
        ("train --game tienlen --members 0", "--members"),
        ("train --game tienlen --lr 2", "--lr 2"),
        (
            "train --game tienlen --rollout-policy own",
            "give --rollouts",
        ),
        (
            "train --game tienlen --rollout-worlds 4",
            "--rollout-worlds: give --rollouts",
        ),
        (
            "train --game tienlen --rollout-resample view",
            "--rollout-resample: give --rollouts",
        ),
        (
            "train --game tienlen --rollouts 1 --rollout-worlds 0",
            "--rollout-worlds",
        ),
        (
            "train --game tienlen --rollout-agent random",
            "--rollout-agent: give --rollouts",
        ),
        (
            "train --game tienlen --rollout-min-rows 2",
            "--rollout-min-rows: give --rollouts",
        ),
        (
            "train --game tienlen --rollouts 0.25 --rollout-min-rows 2000",
            "--rollout-min-rows 2000: must be a number of rows",
        ),
        (
            "train --game tusac --rollouts 1 --rollout-agent rules:no-such-list.toml",
            "--rollout-agent rules:no-such-list.toml: ",
        ),
        (
            "train --game tienlen --rollouts 1 --rollout-agent exec:./agent",
            "an outside program cannot play rollouts",
        ),
        ("train --game tienlen --rollouts 2", "--rollouts 2"),
        (
            "train --game tienlen --rollouts 1 --td-lambda 0.5",
            "--td-lambda",
        ),
        ("train --game tienlen --players 9", "9"),
        ("train --resume nowhere", "no checkpoint.safetensors"),
        ("train --resume out --seed 3", "cannot be used with"),
    ] {
        let args: Vec<&str> = line.split_whitespace().collect();
        let e = fails(&s.0, &args);
        assert!(e.contains(expected), "{line}: {e}");
    }
    // a damaged checkpoint is refused by name, and nothing is replaced
    let ck = s.path("out/checkpoint.safetensors");
    let mut bytes = read(&ck);
    let at = bytes.len() - 10;
    bytes[at] ^= 0x40;
    std::fs::write(&ck, &bytes).unwrap();
    let before = read(&s.path("out/network.safetensors"));
    let e = fails(&s.0, &["train", "--resume", "out", "--decisions", "900"]);
    assert!(
        e.contains("checkpoint.safetensors") && e.contains("checksum"),
        "{e}"
    );
    assert_eq!(read(&s.path("out/network.safetensors")), before);
}
