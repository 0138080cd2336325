//! Playing a tournament: its tables one after another through the runner, each in its own
//! folder `tables/NN` (so each has the runner's checkpoints, `--resume` and shards), then the
//! cross-table, pairs and ratings of what was played. `tournament.json` says what the folder
//! holds (figures aside, it depends on the study alone); `run.json` holds the times.

use super::checkpoint::{read_checkpoint, Shard, Stopped, TallyFile, CHECKPOINT};
use super::output::write_atomic;
use super::report::cores;
use super::runner::{resume_run, run_experiment, RunOptions};
use super::stats::Tally;
use super::tournament::{Standings, Tournament, TOURNAMENT_FORMAT};
use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The file that says a folder holds a tournament.
pub const TOURNAMENT_FILE: &str = "tournament.json";

/// One table as `tournament.json` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableEntry {
    /// Its index.
    pub index: usize,
    /// The agent spec of each seat (before rotation).
    pub agents: Vec<String>,
    /// Its folder, relative to the tournament's.
    pub dir: String,
    /// Deals played so far (of its range).
    pub deals_done: u64,
}

/// `tournament.json`: the tournament, the shard played (if any), its tables and whether every
/// table is done.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentFile {
    /// Always [`TOURNAMENT_FORMAT`].
    pub format: String,
    /// The tournament as played.
    pub tournament: Tournament,
    /// The shard of every table's deals played here, if any.
    pub shard: Option<Shard>,
    /// The tables.
    pub tables: Vec<TableEntry>,
    /// `complete`, or `partial` (stopped or under way; `--resume` goes on).
    pub status: String,
}

/// How to play a tournament (command-line settings, not part of the study).
#[derive(Clone, Debug, Default)]
pub struct TournamentOptions {
    /// Worker threads per table (default: all cores).
    pub threads: Option<usize>,
    /// Play only this shard of every table's deals.
    pub shard: Option<Shard>,
    /// Go on with an unfinished tournament in the folder.
    pub resume: bool,
    /// Replace another study's results in the folder.
    pub force: bool,
    /// No line per table.
    pub quiet: bool,
    /// Set (by Ctrl-C) to stop at the next deal with a checkpoint.
    pub stop: Option<Arc<AtomicBool>>,
    /// Seconds between checkpoints of the tables.
    pub checkpoint_every: Option<Duration>,
}

/// What a tournament session produced.
pub struct TournamentReport {
    /// The folder.
    pub dir: PathBuf,
    /// The standings over what was played.
    pub standings: Standings,
    /// Whether every table is done.
    pub complete: bool,
    /// Whether the time budget ran out (rather than a stop request).
    pub budget_spent: bool,
    /// Seconds this session played.
    pub elapsed: f64,
}

/// Reads a folder's `tournament.json`, if it has one.
pub fn read_tournament_file(dir: &Path) -> anyhow::Result<Option<TournamentFile>> {
    let path = dir.join(TOURNAMENT_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let file: TournamentFile = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a bailab tournament file", path.display()))?;
    if file.format != TOURNAMENT_FORMAT {
        bail!(
            "{}: format '{}', expected '{TOURNAMENT_FORMAT}'",
            path.display(),
            file.format
        );
    }
    Ok(Some(file))
}

/// What is in a table's folder: done (its tally), unfinished (a checkpoint), or nothing.
enum TableState {
    Done(Tally, u64),
    Unfinished(Tally, u64),
    Fresh,
}

fn table_state(dir: &Path) -> anyhow::Result<TableState> {
    if dir.join(CHECKPOINT).exists() {
        let ck = read_checkpoint(dir)?;
        return Ok(TableState::Unfinished(ck.tally, ck.next - ck.deals.0));
    }
    let path = dir.join("tally.json");
    if !path.exists() {
        return Ok(TableState::Fresh);
    }
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let t: TallyFile = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a bailab tally", path.display()))?;
    let deals = t.tally.pairs.first().map_or(0, |p| p.deals);
    Ok(TableState::Done(t.tally, deals))
}

/// Checks that `dir` may take this tournament: empty, or holding this same study (unfinished
/// with `resume`, or any with `force`).
fn guard(dir: &Path, t: &Tournament, opts: &TournamentOptions) -> anyhow::Result<()> {
    let Some(there) = read_tournament_file(dir)? else {
        if opts.resume {
            bail!(
                "{}: no tournament to resume here (no {TOURNAMENT_FILE})",
                dir.display()
            );
        }
        let busy = dir.join("tables").exists();
        if busy && !opts.force {
            bail!(
                "{}: holds tables but no {TOURNAMENT_FILE}; use another folder or --force",
                dir.display()
            );
        }
        return Ok(());
    };
    let same = there.tournament.same_study(t) && there.shard == opts.shard;
    if opts.force {
        if !same {
            std::fs::remove_dir_all(dir.join("tables")).ok();
        }
        return Ok(());
    }
    if !same {
        bail!(
            "{}: holds the results of another tournament ('{}'); use another output folder, or \
             --force to replace them",
            dir.display(),
            there.tournament.name
        );
    }
    if there.status == "complete" && !opts.resume {
        bail!(
            "{}: this tournament is already complete (--force plays it again)",
            dir.display()
        );
    }
    if there.status != "complete" && !opts.resume {
        bail!(
            "{}: holds this tournament unfinished; go on with `bailab tournament --resume {}` \
             (or --force to start again)",
            dir.display(),
            dir.display()
        );
    }
    Ok(())
}

/// A flag that is set when `flag` is, or when `minutes` have passed.
fn budget_flag(
    flag: Option<Arc<AtomicBool>>,
    minutes: Option<f64>,
) -> (Arc<AtomicBool>, Arc<AtomicBool>) {
    let stop = flag.unwrap_or_default();
    let spent = Arc::new(AtomicBool::new(false));
    if let Some(m) = minutes {
        let (stop, spent) = (stop.clone(), spent.clone());
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs_f64(m * 60.0));
            spent.store(true, Ordering::SeqCst);
            stop.store(true, Ordering::SeqCst);
        });
    }
    (stop, spent)
}

/// Plays (or goes on with) tournament `t` in folder `dir` and writes its files. Stopped by
/// `opts.stop` or the time budget, it writes the files of what was played, marked partial.
pub fn run_tournament(
    t: &Tournament,
    dir: &Path,
    opts: &TournamentOptions,
) -> anyhow::Result<TournamentReport> {
    guard(dir, t, opts)?;
    if !opts.resume {
        // a fresh start: the times and command of another tournament go
        super::game_files::remove_stale(&dir.join("run.json"))?;
    }
    let tables = t.tables();
    let mut file = TournamentFile {
        format: TOURNAMENT_FORMAT.into(),
        tournament: Tournament {
            budget_minutes: None,
            ..t.clone()
        },
        shard: opts.shard,
        tables: tables
            .iter()
            .map(|x| TableEntry {
                index: x.index,
                agents: x.experiment.agents.clone(),
                dir: x.dir.clone(),
                deals_done: 0,
            })
            .collect(),
        status: "partial".into(),
    };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    write_atomic(
        dir,
        TOURNAMENT_FILE,
        serde_json::to_string_pretty(&file)?.as_bytes(),
    )?;
    let (stop, spent) = budget_flag(opts.stop.clone(), t.budget_minutes);
    let began = Instant::now();
    let mut tallies: Vec<Option<Tally>> = vec![None; tables.len()];
    let mut times = vec![0.0; tables.len()];
    let mut stopped = false;
    for table in &tables {
        let tdir = dir.join(&table.dir);
        let run_opts = RunOptions {
            threads: opts.threads,
            shard: opts.shard,
            quiet: true,
            output: Some(tdir.clone()),
            stop: Some(stop.clone()),
            checkpoint_every: opts.checkpoint_every,
            ..RunOptions::default()
        };
        let state = table_state(&tdir)?;
        if stopped || stop.load(Ordering::SeqCst) {
            stopped = true;
            if let TableState::Done(tally, n) | TableState::Unfinished(tally, n) = state {
                file.tables[table.index].deals_done = n;
                tallies[table.index] = Some(tally);
            }
            continue;
        }
        let start = Instant::now();
        let result = match state {
            TableState::Done(tally, n) => Ok((tally, n)),
            TableState::Unfinished(..) => {
                resume_run(&tdir, &run_opts).map(|r| (r.tally.clone(), deals_of(&r.tally)))
            }
            TableState::Fresh => run_experiment(&table.experiment, &run_opts)
                .map(|r| (r.tally.clone(), deals_of(&r.tally))),
        };
        times[table.index] = start.elapsed().as_secs_f64();
        match result {
            Ok((tally, n)) => {
                file.tables[table.index].deals_done = n;
                tallies[table.index] = Some(tally);
            }
            Err(e) if e.downcast_ref::<Stopped>().is_some() => {
                stopped = true;
                if let TableState::Unfinished(tally, n) = table_state(&tdir)? {
                    file.tables[table.index].deals_done = n;
                    tallies[table.index] = Some(tally);
                }
            }
            Err(e) => return Err(e.context(format!("table {} ({})", table.index, table.dir))),
        }
        if !opts.quiet {
            eprintln!(
                "table {:>2}/{}: {} — {} deals, {:.1} s",
                table.index + 1,
                tables.len(),
                t.table_agents()[table.index]
                    .iter()
                    .map(|&i| t.agents[i].as_str())
                    .collect::<Vec<_>>()
                    .join(" vs "),
                file.tables[table.index].deals_done,
                times[table.index]
            );
        }
    }
    let standings = t.standings(&tallies).map_err(anyhow::Error::msg)?;
    file.status = if stopped { "partial" } else { "complete" }.into();
    let elapsed = began.elapsed().as_secs_f64();
    write_files(t, dir, &file, &standings)?;
    write_run_json(
        dir,
        &file,
        Some(opts.threads.unwrap_or_else(cores)),
        Some(elapsed),
    )?;
    Ok(TournamentReport {
        dir: dir.to_path_buf(),
        standings,
        complete: !stopped,
        budget_spent: spent.load(Ordering::SeqCst),
        elapsed,
    })
}

fn deals_of(t: &Tally) -> u64 {
    t.pairs.first().map_or(0, |p| p.deals)
}

/// Writes the deterministic files: `pairs.csv`, `crosstable.csv`, `ratings.csv` and
/// `tournament.json` (last, so that a folder whose file says complete has the others).
pub fn write_files(
    t: &Tournament,
    dir: &Path,
    file: &TournamentFile,
    s: &Standings,
) -> anyhow::Result<()> {
    write_atomic(dir, "pairs.csv", &t.pairs_csv(s))?;
    write_atomic(dir, "crosstable.csv", &t.crosstable_csv(s))?;
    write_atomic(dir, "ratings.csv", &t.ratings_csv(s))?;
    write_atomic(
        dir,
        TOURNAMENT_FILE,
        serde_json::to_string_pretty(file)?.as_bytes(),
    )?;
    Ok(())
}

/// A table's wall time over all its sessions, from its `run.json` (0 if not written yet).
fn table_elapsed(dir: &Path) -> f64 {
    std::fs::read_to_string(dir.join("run.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["elapsed_s"].as_f64())
        .unwrap_or(0.0)
}

/// The command that began the tournament in `dir` (kept from an earlier session's `run.json`,
/// so that a resumed one still names it), or this process's.
fn first_command(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("run.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["command"].as_str().map(str::to_string))
        .unwrap_or_else(|| std::env::args().collect::<Vec<_>>().join(" "))
}

/// `run.json`: the wall time of each table in `file` (over all its sessions, or the sum of its
/// shards' after a merge) and their sum, this session's time (`None` for a merge) and the
/// machine.
pub fn write_run_json(
    dir: &Path,
    file: &TournamentFile,
    threads: Option<usize>,
    session: Option<f64>,
) -> anyhow::Result<()> {
    let times: Vec<f64> = file
        .tables
        .iter()
        .map(|x| table_elapsed(&dir.join(&x.dir)))
        .collect();
    let run = serde_json::json!({
        "threads": threads,
        "cores": cores(),
        "elapsed_s": times.iter().sum::<f64>(),
        "session_elapsed_s": session,
        "table_elapsed_s": times,
        "command": first_command(dir),
    });
    write_atomic(
        dir,
        "run.json",
        serde_json::to_string_pretty(&run)?.as_bytes(),
    )?;
    Ok(())
}
