//! The output guards of `tune`, `learn`, `deals`, `equity` and `merge`: no default output is a
//! shipped agent file, an existing output is refused (naming it and `--force`) and replaced only
//! with `--force`, an unwritable folder is found before any work, degenerate budgets are
//! refused, a shard whose games.csv disagrees with its tally is refused and a failed merge
//! leaves nothing, `--quiet` is quiet everywhere, and `deals --games` takes `--threads`.

use crate::common;

use common::{bailab, fails, ok, stderr, stdout, Scratch};
use std::path::Path;
use std::time::{Duration, Instant};

/// A position file shipped with the repository.
fn position(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("positions")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// A tiny tune of Chắn (2 deals, 1 sampled candidate), with `extra` arguments.
fn tune(extra: &[&str]) -> Vec<String> {
    let mut args = [
        "tune",
        "--game",
        "chan",
        "--candidates",
        "1",
        "--deals",
        "2",
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// A tiny learn of Chắn (a random teacher, 2 teacher games, 8 training deals, 1 rule).
fn learn(extra: &[&str]) -> Vec<String> {
    let mut args = [
        "learn",
        "--game",
        "chan",
        "--teacher",
        "random",
        "--teacher-deals",
        "2",
        "--deals",
        "8",
        "--max-rules",
        "1",
        "--pool",
        "1",
        "--shortlist",
        "1",
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// A tiny count of dealt Tứ Sắc hands.
fn deals(extra: &[&str]) -> Vec<String> {
    let mut args = ["deals", "--game", "tusac", "--deals", "50"]
        .map(String::from)
        .to_vec();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// An equity estimate of a shipped Tiến Lên position, of `samples` samples.
fn equity(samples: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "equity".to_string(),
        "--game".into(),
        "tienlen".into(),
        "--view".into(),
        position("tienlen-pair-nines.toml"),
        "--samples".into(),
        samples.into(),
        "--check-every".into(),
        "4".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// A small Tứ Sắc experiment that writes games.csv and records.jsonl.
fn experiment(s: &Scratch) -> String {
    s.write(
        "exp.toml",
        "name = \"guards\"\ngame = \"tusac\"\nvariant = \"classic\"\n\
         agents = [\"greedy\", \"random\"]\ndeals = 12\nseed = 3\nrotate = true\n\
         output = \"whole\"\ngames_csv = true\nrecords = true\n",
    )
}

/// Runs the experiment as two shards, `s0` and `s1`.
fn shards(s: &Scratch) {
    let exp = experiment(s);
    for k in 0..2 {
        let (shard, out) = (format!("{k}/2"), format!("s{k}"));
        ok(
            &s.0,
            &["run", &exp, "-q", "--shard", &shard, "--output", &out],
        );
    }
}

/// The files in a folder (none when it does not exist).
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn tune_and_learn_never_write_a_shipped_agent_file_by_default() {
    let s = Scratch::new("guards-defaults");
    let shipped = [
        "agents/chan-standard-greedy.toml",
        "agents/chan-standard.toml",
    ];
    for f in shipped {
        s.write(f, "# shipped\n");
    }
    ok(&s.0, &strs(&tune(&["-q"])));
    ok(&s.0, &strs(&learn(&["-q"])));
    for f in shipped {
        let text = std::fs::read_to_string(s.path(f)).unwrap();
        assert_eq!(text, "# shipped\n", "{f} was replaced");
    }
    assert_eq!(
        entries(&s.path("agents")).len(),
        2,
        "nothing new in agents/"
    );
    for f in [
        "results/tune-chan-standard/greedy.toml",
        "results/tune-chan-standard/greedy.report.csv",
        "results/learn-chan-standard/rules.toml",
        "results/learn-chan-standard/rules.report.csv",
    ] {
        assert!(s.path(f).is_file(), "{f} not written");
    }
    // the default weights play as an agent
    let text = std::fs::read_to_string(s.path("results/tune-chan-standard/greedy.toml")).unwrap();
    assert!(
        text.contains("greedy:results/tune-chan-standard/greedy.toml"),
        "{text}"
    );
}

/// Runs `args` once (it must succeed), again (it must fail naming `file` and `--force`, and
/// leave `file` as it was), then with `--force` (it must succeed).
fn refused_then_forced(s: &Scratch, args: &[String], file: &str) {
    ok(&s.0, &strs(args));
    let path = s.path(file);
    std::fs::write(&path, "earlier result\n").unwrap();
    let err = fails(&s.0, &strs(args));
    assert!(
        err.contains(file) && err.contains("already exist") && err.contains("--force"),
        "{args:?}: {err}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, "earlier result\n", "{args:?}: {file} was replaced");
    let mut forced = args.to_vec();
    forced.push("--force".into());
    ok(&s.0, &strs(&forced));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_ne!(
        text, "earlier result\n",
        "{args:?} --force did not replace {file}"
    );
}

#[test]
fn every_command_refuses_an_existing_output_unless_forced() {
    let s = Scratch::new("guards-force");
    refused_then_forced(&s, &tune(&["-q", "--output", "t/w.toml"]), "t/w.toml");
    refused_then_forced(
        &s,
        &learn(&["-q", "--output", "l/r.toml"]),
        "l/r.report.csv",
    );
    refused_then_forced(&s, &deals(&["-q", "--output", "d"]), "d/means.csv");
    refused_then_forced(&s, &equity("8", &["-q", "--output", "e"]), "e/equity.json");
    shards(&s);
    let merge: Vec<String> = ["merge", "s0", "s1", "-q", "--output", "m"]
        .map(String::from)
        .to_vec();
    refused_then_forced(&s, &merge, "m/summary.csv");
    // only one of a command's files there is enough to refuse, and nothing is written then
    s.write("only/w.report.csv", "earlier\n");
    let err = fails(&s.0, &strs(&tune(&["-q", "--output", "only/w.toml"])));
    assert!(err.contains("only/w.report.csv"), "{err}");
    assert!(
        !s.path("only/w.toml").exists(),
        "a refused tune wrote its weights"
    );
}

/// Runs `args`, which must fail at once: within a few seconds (the work it was given takes far
/// longer), printing nothing on stdout, with an error naming `names`.
fn fails_before_work(s: &Scratch, args: &[String], names: &[&str]) {
    let began = Instant::now();
    let o = bailab(&s.0, &strs(args));
    let took = began.elapsed();
    let err = stderr(&o);
    assert!(!o.status.success(), "{args:?} succeeded");
    assert!(
        took < Duration::from_secs(10),
        "{args:?}: failed only after {took:?}"
    );
    assert!(stdout(&o).is_empty(), "{args:?}: printed {}", stdout(&o));
    for n in names {
        assert!(err.contains(n), "{args:?}: '{n}' not in: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn an_unwritable_output_folder_is_found_before_any_work() {
    let s = Scratch::new("guards-unwritable");
    s.write("blocker", "a file, not a folder\n");
    // budgets of minutes: only a check before the work fails fast
    let long_tune = [
        "tune",
        "--game",
        "tusac",
        "--candidates",
        "24",
        "--deals",
        "4000",
    ];
    let long_learn = ["learn", "--game", "tusac", "--teacher-deals", "4000"];
    let long_deals = ["deals", "--game", "tusac", "--deals", "100000000"];
    let cases: Vec<(Vec<String>, &str)> = vec![
        (long_tune.map(String::from).to_vec(), "--output"),
        (long_learn.map(String::from).to_vec(), "--output"),
        (long_deals.map(String::from).to_vec(), "--output"),
        (equity("100000000", &[]), "--output"),
    ];
    for (args, flag) in &cases {
        let file = if args[0] == "tune" || args[0] == "learn" {
            "blocker/out/x.toml"
        } else {
            "blocker/out"
        };
        let mut a = args.clone();
        a.extend([flag.to_string(), file.to_string()]);
        fails_before_work(&s, &a, &["blocker/out", "blocker is a file", "--output"]);
    }
    shards(&s);
    let merge = ["merge", "s0", "s1", "--output", "blocker/m"].map(String::from);
    fails_before_work(&s, &merge, &["blocker/m", "blocker is a file"]);

    // a read-only folder (root writes anyway: then this part cannot be shown)
    let ro = s.path("read-only");
    std::fs::create_dir(&ro).unwrap();
    set_mode(&ro, 0o555);
    if std::fs::write(ro.join("probe"), "").is_ok() {
        eprintln!("skipped the read-only folder case: this user writes into a 0555 folder");
    } else {
        for (args, _) in &cases {
            let file = if args[0] == "tune" || args[0] == "learn" {
                "read-only/x.toml"
            } else {
                "read-only"
            };
            let mut a = args.clone();
            a.extend(["--output".to_string(), file.to_string()]);
            fails_before_work(&s, &a, &["cannot write into", "read-only"]);
        }
    }
    set_mode(&ro, 0o755);
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn learn_and_tune_refuse_budgets_that_cannot_work() {
    let s = Scratch::new("guards-budgets");
    let err = fails(
        &s.0,
        &[
            "learn",
            "--game",
            "chan",
            "--deals",
            "0",
            "--teacher-deals",
            "0",
        ],
    );
    assert!(
        err.contains("--teacher-deals 0") && err.contains("at least 1"),
        "{err}"
    );
    for n in ["0", "3"] {
        let err = fails(&s.0, &["learn", "--game", "chan", "--deals", n]);
        let want = format!("--deals {n}: too few training deals");
        assert!(err.contains(&want) && err.contains("at least 8"), "{err}");
    }
    let err = fails(&s.0, &["tune", "--game", "chan", "--candidates", "0"]);
    assert!(err.contains("nothing to race"), "{err}");
    // the only candidate given is the defaults themselves
    let w = &<bailab::games::chan::Chan as bailab::games::kind::Features>::GREEDY_WEIGHTS[0];
    let same = format!("{}={}", w.name, w.default);
    let err = fails(
        &s.0,
        &[
            "tune",
            "--game",
            "chan",
            "--candidates",
            "0",
            "--include",
            &same,
            "--deals",
            "2",
        ],
    );
    assert!(err.contains("nothing to race"), "{err}");
    assert!(!err.contains("NaN"), "{err}");
    assert!(
        entries(&s.0).is_empty(),
        "written on an error: {:?}",
        entries(&s.0)
    );
}

/// Replaces field `column` of data line `line` (1 = the first row after the header) of a CSV
/// file with `f(old)`.
fn alter(path: &Path, line: usize, column: &str, f: impl Fn(i64) -> i64) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let col = lines[0].split(',').position(|h| h == column).unwrap();
    let mut cells: Vec<String> = lines[line].split(',').map(String::from).collect();
    cells[col] = f(cells[col].parse().unwrap()).to_string();
    lines[line] = cells.join(",");
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// The first data line of a games.csv whose game has a winner.
fn won_line(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|&h| h == "winner").unwrap();
    text.lines()
        .enumerate()
        .skip(1)
        .find(|(_, l)| !l.split(',').nth(col).unwrap().is_empty())
        .unwrap()
        .0
}

#[test]
fn merge_checks_games_csv_against_the_tally_and_leaves_nothing_on_failure() {
    let s = Scratch::new("guards-merge");
    shards(&s);
    let games = s.path("s1/games.csv");
    let original = std::fs::read(&games).unwrap();
    // an altered payout: the row is no longer zero-sum, its line is named
    alter(&games, 3, "payout_0", |p| p + 1);
    let err = fails(&s.0, &["merge", "s0", "s1", "-q", "--output", "m"]);
    assert!(
        err.contains("s1/games.csv") && err.contains("line 4") && err.contains("sum to 1"),
        "{err}"
    );
    assert!(
        entries(&s.path("m")).is_empty(),
        "{:?}",
        entries(&s.path("m"))
    );
    // an altered winning hand value: the rows disagree with the tally
    std::fs::write(&games, &original).unwrap();
    let line = won_line(&games);
    alter(&games, line, "winning_hand_value", |v| v + 7);
    let err = fails(&s.0, &["merge", "s0", "s1", "-q", "--output", "m"]);
    assert!(
        err.contains("s1/games.csv")
            && err.contains("s1/tally.json")
            && err.contains("hand values"),
        "{err}"
    );
    assert!(
        entries(&s.path("m")).is_empty(),
        "{:?}",
        entries(&s.path("m"))
    );
    // a bad records.jsonl after a good games.csv: no orphan games.csv
    std::fs::write(&games, &original).unwrap();
    let records = s.path("s1/records.jsonl");
    let text = std::fs::read_to_string(&records).unwrap();
    std::fs::write(&records, text.lines().next().unwrap().to_string() + "\n").unwrap();
    let err = fails(&s.0, &["merge", "s0", "s1", "-q", "--output", "m"]);
    assert!(err.contains("s1/records.jsonl"), "{err}");
    assert!(
        entries(&s.path("m")).is_empty(),
        "{:?}",
        entries(&s.path("m"))
    );
    // into a folder holding results: nothing of them is touched
    s.write("held/summary.csv", "earlier\n");
    let err = fails(&s.0, &["merge", "s0", "s1", "-q", "--output", "held"]);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(entries(&s.path("held")), ["summary.csv"]);
}

#[test]
fn quiet_prints_nothing_in_every_study_command() {
    let s = Scratch::new("guards-quiet");
    let commands = [
        tune(&["--output", "t/w.toml"]),
        learn(&["--output", "l/r.toml"]),
        deals(&["--output", "d"]),
        equity("8", &["--output", "e"]),
    ];
    for args in &commands {
        let mut quiet = args.clone();
        quiet.push("-q".into());
        let o = ok(&s.0, &strs(&quiet));
        assert!(stdout(&o).is_empty(), "{quiet:?}: {}", stdout(&o));
        assert!(stderr(&o).is_empty(), "{quiet:?}: {}", stderr(&o));
        let mut loud = args.clone();
        loud.push("--force".into());
        let o = ok(&s.0, &strs(&loud));
        assert!(!stdout(&o).is_empty(), "{loud:?} printed no table");
    }
}

#[test]
fn deals_from_a_runs_games_takes_threads() {
    let s = Scratch::new("guards-deals-threads");
    let exp = experiment(&s);
    ok(&s.0, &["run", &exp, "-q"]);
    let args = [
        "deals",
        "--games",
        "whole",
        "--threads",
        "2",
        "-q",
        "--output",
        "d",
    ];
    ok(&s.0, &args);
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(s.path("d/run.json")).unwrap()).unwrap();
    assert_eq!(run["threads"], 2);
    let err = fails(
        &s.0,
        &[
            "deals",
            "--games",
            "whole",
            "--threads",
            "0",
            "--output",
            "d0",
        ],
    );
    assert!(err.contains("--threads"), "{err}");
    assert!(!s.path("d0").exists());
}

/// Issue 44: `run` and `tournament` refuse a folder holding files of theirs that no bailab
/// output of that kind wrote (the user's `summary.csv`, `ratings.csv`), and replace them only
/// with `--force`; a folder they made is still theirs to write again.
#[test]
fn run_and_tournament_refuse_a_folder_bailab_did_not_make() {
    let s = Scratch::new("guards-foreign");
    let exp = experiment(&s);
    s.write("d/summary.csv", "mine\n");
    let run = ["run", &exp, "-q", "--output", "d", "--records"];
    let err = fails(&s.0, &run);
    assert!(
        err.contains("d/summary.csv") && err.contains("no bailab run") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(s.path("d/summary.csv")).unwrap(),
        "mine\n"
    );
    assert!(
        !s.path("d/records.jsonl").exists(),
        "a refused run wrote records"
    );
    ok(&s.0, &[&run[..], &["--force"]].concat());
    assert_ne!(
        std::fs::read_to_string(s.path("d/summary.csv")).unwrap(),
        "mine\n"
    );
    ok(&s.0, &run); // its own results: the same experiment runs again

    s.write("d1/ratings.csv", "mine\n");
    let tournament = [
        "tournament",
        "--game",
        "tusac",
        "--agent",
        "greedy",
        "--agent",
        "random",
        "--deals",
        "2",
        "-q",
        "--output",
        "d1",
    ];
    let err = fails(&s.0, &tournament);
    assert!(
        err.contains("d1/ratings.csv")
            && err.contains("no bailab tournament")
            && err.contains("--force"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(s.path("d1/ratings.csv")).unwrap(),
        "mine\n"
    );
    assert!(!s.path("d1/tables").exists(), "a refused tournament played");
    ok(&s.0, &[&tournament[..], &["--force"]].concat());
    assert_ne!(
        std::fs::read_to_string(s.path("d1/ratings.csv")).unwrap(),
        "mine\n"
    );
}

/// Issue 44: a folder standing where `meta.json` goes fails the run before any file of the
/// earlier result set is replaced (not after `summary.csv` and `tally.json`: a mixed set).
#[test]
fn a_folder_where_a_result_file_goes_leaves_the_earlier_set_whole() {
    let s = Scratch::new("guards-mixed");
    let exp = experiment(&s);
    ok(&s.0, &["run", &exp, "-q", "--output", "d"]);
    let before: Vec<Vec<u8>> = ["summary.csv", "tally.json", "run.json"]
        .iter()
        .map(|n| common::read(&s.path(&format!("d/{n}"))))
        .collect();
    std::fs::remove_file(s.path("d/meta.json")).unwrap();
    std::fs::create_dir(s.path("d/meta.json")).unwrap();
    let other = s.write(
        "other.toml",
        &std::fs::read_to_string(&exp)
            .unwrap()
            .replace("seed = 3", "seed = 4"),
    );
    let err = fails(&s.0, &["run", &other, "-q", "--output", "d", "--force"]);
    let after: Vec<Vec<u8>> = ["summary.csv", "tally.json", "run.json"]
        .iter()
        .map(|n| common::read(&s.path(&format!("d/{n}"))))
        .collect();
    assert!(
        before == after,
        "the earlier set was partly replaced: {err}"
    );
    assert!(err.contains("d/meta.json is a folder"), "{err}");
}
