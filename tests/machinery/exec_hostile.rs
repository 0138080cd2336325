//! Outside agents that misbehave (docs/agent-protocol.md, "When an agent fails"): one that stops
//! reading and floods its output is stopped within its `timeout_ms`, a signal included; a second
//! reply to one decision is a fault; the processes an agent forks end with it, on a fault, at the
//! run's end and at a second signal; an agent whose bailab is killed (SIGKILL) ends too; its log
//! is capped and never written through a planted symbolic link.
//!
//! Every run here has a wall-clock bound: a run that hangs is killed and the test fails.

use crate::common::{self, Scratch};
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

/// `bailab run x.toml` into `out`, quiet, on one thread (the outside agent's exchanges in order).
const RUN_ONE_THREAD: [&str; 7] = [
    "run",
    "x.toml",
    "--output",
    "out",
    "--quiet",
    "--threads",
    "1",
];

/// A bash agent: the handshake, then `DECIDE` (bash commands printing the reply) per decision.
fn agent(decide: &str) -> String {
    format!(
        "while IFS= read -r line; do\n  case \"$line\" in\n    \
         *'\"type\":\"hello\"'*) echo '{{\"type\":\"hello\",\"name\":\"t\",\"protocol\":1}}' ;;\n    \
         *'\"type\":\"decide\"'*) {decide} ;;\n  esac\ndone\n"
    )
}

/// A Tiến Lên experiment of `deals` deals, the agent `spec` against `first`.
fn experiment(spec: &str, deals: u64) -> String {
    format!(
        "name = \"x\"\ngame = \"tienlen\"\nagents = [\"{spec}\", \"first\"]\ndeals = {deals}\n\
         seed = 3\n"
    )
}

/// Waits for `child` to end by itself within `limit`; one that overruns is killed and the test
/// fails. Returns its exit code and its stderr.
fn ended_within(mut child: Child, limit: Duration) -> (Option<i32>, String) {
    let began = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if began.elapsed() > limit {
            child.kill().unwrap();
            let o = child.wait_with_output().unwrap();
            panic!(
                "bailab did not end within {limit:?} (killed): {}",
                common::stderr(&o)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    assert!(
        !common::stderr(&o).contains("panicked"),
        "{}",
        common::stderr(&o)
    );
    (o.status.code(), common::stderr(&o))
}

/// Runs `args` in `dir`, expecting a failure within `limit`; returns its stderr.
fn fails_within(dir: &Path, args: &[&str], limit: Duration) -> String {
    let (code, err) = ended_within(common::spawn(dir, args), limit);
    assert!(
        code.is_some_and(|c| c != 0),
        "{args:?} ended with {code:?}: {err}"
    );
    err
}

/// Whether process `pid` is running (a zombie, killed but not reaped, is not).
fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|s| !s.starts_with(" Z"))
    })
}

/// Whether process `pid` ends within two seconds; it is killed in any case, so that a failing
/// test leaves nothing running.
fn ends_soon(pid: i32) -> bool {
    let began = Instant::now();
    while alive(pid) && began.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let ended = !alive(pid);
    // SAFETY: a signal to one process id.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    ended
}

/// The process id an agent wrote to `name` in `s`, waited for up to ten seconds.
fn pid_in(s: &Scratch, name: &str) -> i32 {
    let began = Instant::now();
    loop {
        let text = std::fs::read_to_string(s.path(name)).unwrap_or_default();
        if let Ok(pid) = text.trim().parse() {
            return pid;
        }
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "no pid in {name}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_agent_that_stops_reading_and_floods_its_output_is_stopped_within_its_timeout() {
    let s = Scratch::new("exec_flood");
    // The handshake, then replies forever without reading a message.
    s.write(
        "flood.sh",
        "read -r line\necho '{\"type\":\"hello\",\"name\":\"t\",\"protocol\":1}'\n\
         exec yes '{\"action\":0}'\n",
    );
    let spec = "exec:bash flood.sh,timeout_ms=2000";
    s.write("x.toml", &experiment(spec, 2000));
    let mut child = common::spawn(&s.0, &RUN_ONE_THREAD);
    // A signal while it may be blocked: the run still ends by itself, with a checkpoint.
    std::thread::sleep(Duration::from_millis(500));
    if child.try_wait().unwrap().is_none() {
        // SAFETY: a signal to the child's process id.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    }
    let (code, err) = ended_within(child, Duration::from_secs(10));
    assert!(matches!(code, Some(1) | Some(130)), "{code:?}: {err}");
    assert!(s.path("out/checkpoint.json").exists(), "{err}");
    if code == Some(1) {
        for needle in [spec, "deal", "seat", "checkpoint"] {
            assert!(err.contains(needle), "'{needle}' not in: {err}");
        }
        assert!(
            err.contains("answered more than once") || err.contains("no answer was asked for"),
            "{err}"
        );
    }
}

#[test]
fn a_second_reply_to_one_decision_is_a_fault() {
    let s = Scratch::new("exec_twice");
    // Both replies in one write: bailab finds the second with the first.
    s.write(
        "twice.py",
        "import sys\nfor line in sys.stdin:\n    \
         if '\"type\":\"hello\"' in line:\n        \
         sys.stdout.write('{\"type\":\"hello\",\"name\":\"t\",\"protocol\":1}\\n')\n    \
         elif '\"type\":\"decide\"' in line:\n        \
         sys.stdout.write('{\"action\":0}\\n{\"action\":0}\\n')\n    \
         sys.stdout.flush()\n",
    );
    let spec = "exec:python3 twice.py";
    s.write("x.toml", &experiment(spec, 20));
    let err = fails_within(&s.0, &RUN_ONE_THREAD, Duration::from_secs(20));
    for needle in [spec, "deal 0", "seat", "checkpoint"] {
        assert!(err.contains(needle), "'{needle}' not in: {err}");
    }
    assert!(
        err.contains(
            "its decision 1 of the deal, answered more than once: after its answer it \
                      wrote {\"action\":0}"
        ),
        "{err}"
    );
}

#[test]
fn the_processes_an_agent_forks_end_with_it_at_the_end_of_a_run_and_on_a_fault() {
    for (i, answer) in ["0", "99"].into_iter().enumerate() {
        let s = Scratch::new(&format!("exec_fork_{i}"));
        // At its first decision it starts a child that reads nothing and writes its pid.
        let decide = format!(
            "[ -e child.pid ] || {{ sleep 60 & echo $! > child.pid; }}; \
             echo '{{\"action\":{answer}}}'"
        );
        s.write("fork.sh", &agent(&decide));
        s.write("x.toml", &experiment("exec:bash fork.sh", 3));
        let (code, err) = ended_within(
            common::spawn(&s.0, &RUN_ONE_THREAD),
            Duration::from_secs(20),
        );
        assert_eq!(code == Some(0), answer == "0", "{err}");
        let child = pid_in(&s, "child.pid");
        assert!(
            ends_soon(child),
            "answer {answer}: the forked child outlived the run"
        );
    }
}

#[test]
fn an_agent_ends_when_bailab_is_killed() {
    let s = Scratch::new("exec_orphan");
    // At its first decision it writes its pid and becomes a process that reads nothing.
    s.write("stuck.sh", &agent("echo $$ > agent.pid; exec sleep 60"));
    s.write(
        "x.toml",
        &experiment("exec:bash stuck.sh,timeout_ms=60000", 3),
    );
    let args = ["run", "x.toml", "--output", "out", "--quiet"];
    let mut child = common::spawn(&s.0, &args);
    let agent = pid_in(&s, "agent.pid");
    std::thread::sleep(Duration::from_millis(100));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(ends_soon(agent), "the agent outlived its killed bailab");
}

#[test]
fn a_second_signal_ends_the_agents_and_their_children() {
    let s = Scratch::new("exec_second_signal");
    // Slow decisions, and a child started at the first.
    let decide = "[ -e child.pid ] || { sleep 60 & echo $! > child.pid; }; sleep 0.3; \
                  echo '{\"action\":0}'";
    s.write("slow.sh", &agent(decide));
    s.write(
        "x.toml",
        &experiment("exec:bash slow.sh,timeout_ms=60000", 50),
    );
    let child = common::spawn(&s.0, &RUN_ONE_THREAD);
    let forked = pid_in(&s, "child.pid");
    for _ in 0..2 {
        // SAFETY: a signal to the child's process id.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        std::thread::sleep(Duration::from_millis(100));
    }
    let (code, err) = ended_within(child, Duration::from_secs(10));
    assert_eq!(code, Some(130), "{err}");
    assert!(
        ends_soon(forked),
        "the agent's child outlived the second signal"
    );
}

#[test]
fn the_agents_log_keeps_only_its_last_lines_past_its_cap() {
    let s = Scratch::new("exec_log_cap");
    // 20 MB of stderr at its first decision, then a last line.
    let decide = "[ -e flooded ] || { touch flooded; { head -c 20000000 /dev/zero | tr '\\0' x \
                  | fold -w 1000; echo; echo 'the last line'; } >&2; }; echo '{\"action\":0}'";
    s.write("loud.sh", &agent(decide));
    s.write(
        "x.toml",
        &experiment("exec:bash loud.sh,timeout_ms=30000", 30),
    );
    let (code, err) = ended_within(
        common::spawn(&s.0, &RUN_ONE_THREAD),
        Duration::from_secs(30),
    );
    assert_eq!(code, Some(0), "{err}");
    let log = std::fs::read(s.path("out/exec-agent-0.log")).unwrap();
    let cap = bailab::generic_agents::exec::LOG_CAP;
    assert!(
        log.len() as u64 <= cap,
        "{} bytes over the cap {cap}",
        log.len()
    );
    let log = String::from_utf8_lossy(&log);
    assert!(
        log.contains("] the last line"),
        "the last line was not kept"
    );
    assert!(log.contains("earlier lines dropped"), "no note of the cut");
}

#[test]
fn a_symbolic_link_planted_as_the_log_is_not_followed() {
    let s = Scratch::new("exec_log_link");
    s.write("first.sh", &agent("echo '{\"action\":0}'"));
    s.write("x.toml", &experiment("exec:bash first.sh", 3));
    s.write("theirs.txt", "mine\n");
    std::fs::create_dir(s.path("out")).unwrap();
    let log = s.path("out/exec-agent-0.log");
    std::os::unix::fs::symlink(s.path("theirs.txt"), &log).unwrap();
    let args = ["run", "x.toml", "--output", "out", "--quiet", "--force"];
    let err = fails_within(&s.0, &args, Duration::from_secs(20));
    assert_eq!(
        std::fs::read_to_string(s.path("theirs.txt")).unwrap(),
        "mine\n"
    );
    assert!(
        err.contains("its log out/exec-agent-0.log is a symbolic link"),
        "{err}"
    );
}
