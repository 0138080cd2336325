//! Playing a tournament: its tables one after another through the runner, each in its own
//! folder `tables/NN` (so each has the runner's checkpoints, `--resume` and shards), then the
//! cross-table, pairs and ratings of what was played. `tournament.json` says what the folder
//! holds (figures aside, it depends on the study alone); `run.json` holds the times.

use crate::sim::files::atomic::write_atomic;
use crate::sim::files::guard::{refuse_folders, refuse_foreign};
use crate::sim::run::checkpoint::{parse_tally_file, read_checkpoint, Shard, Stopped, CHECKPOINT};
use crate::sim::run::experiment::Runtime;
use crate::sim::run::runner::{resume_run, run_experiment, RunOptions};
use crate::sim::run::threads::cores;
use crate::sim::stats::tally::Tally;
use crate::sim::tournament::files::{
    read_tournament_file, write_files, write_run_json, TableEntry, TournamentFile, TOURNAMENT_FILE,
    TOURNAMENT_FILES, TOURNAMENT_FORMAT,
};
use crate::sim::tournament::spec::{Table, Tournament};
use crate::sim::tournament::standings::{table_deals, Standings};
use anyhow::{bail, Context};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How to play a tournament (command-line settings, not part of the study).
#[derive(Clone, Debug, Default)]
pub(crate) struct TournamentOptions {
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
pub(crate) struct TournamentReport {
    /// The standings over what was played.
    pub(crate) standings: Standings,
    /// Whether every table is done.
    pub complete: bool,
    /// Whether the time budget ran out (rather than a stop request).
    pub(crate) budget_spent: bool,
    /// Seconds this session played.
    pub elapsed: f64,
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
    let text = crate::input::read_text(&path, crate::input::TALLY)?;
    let t = parse_tally_file(&path, &text)?;
    let deals = table_deals(&t.tally);
    Ok(TableState::Done(t.tally, deals))
}

/// Checks that `dir` may take this tournament: none of a tournament's files there, or this same
/// study unfinished with `resume`; with `force`, a tournament there is removed and this one
/// played afresh, and files of no tournament are replaced.
fn guard(dir: &Path, t: &Tournament, opts: &TournamentOptions) -> anyhow::Result<()> {
    let Some(there) = read_tournament_file(dir)? else {
        if opts.resume {
            bail!(
                "{}: no tournament to resume here (no {TOURNAMENT_FILE})",
                dir.display()
            );
        }
        let kind = "bailab tournament (no tournament.json)";
        let names: Vec<&str> = TOURNAMENT_FILES.iter().copied().chain(["tables"]).collect();
        refuse_foreign(dir, &names, kind, false, opts.force)?;
        return refuse_folders(dir, &TOURNAMENT_FILES);
    };
    let same = there.tournament.same_study(t) && there.shard == opts.shard;
    if opts.force {
        // played again from the start: this folder's tables are a tournament's own
        let tables = dir.join("tables");
        if tables.exists() {
            std::fs::remove_dir_all(&tables)
                .with_context(|| format!("removing {}", tables.display()))?;
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
pub(crate) fn run_tournament(
    t: &Tournament,
    dir: &Path,
    opts: &TournamentOptions,
) -> anyhow::Result<TournamentReport> {
    guard(dir, t, opts)?;
    if !opts.resume {
        // a fresh start: the times and command of another tournament go
        crate::sim::files::game_files::remove_stale(&dir.join("run.json"))?;
    }
    let tables = t.tables();
    let runtime = t.runtime();
    let mut file = fresh_file(t, &tables, opts.shard);
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    write_atomic(
        dir,
        TOURNAMENT_FILE,
        serde_json::to_string_pretty(&file)?.as_bytes(),
    )?;
    let (stop, spent) = budget_flag(opts.stop.clone(), t.budget_minutes);
    let began = Instant::now();
    let mut tallies: Vec<Option<Tally>> = vec![None; tables.len()];
    let mut stopped = false;
    for table in &tables {
        stopped |= stop.load(Ordering::SeqCst);
        let start = Instant::now();
        let (tally, halted) = play_table(
            (table, &runtime),
            &dir.join(&table.dir),
            opts,
            (&stop, stopped),
        )?;
        stopped |= halted;
        if let Some((tally, n)) = tally {
            file.tables[table.index].deals_done = n;
            tallies[table.index] = Some(tally);
        }
        if !opts.quiet && !stopped {
            let agents: Vec<&str> = t.table_agents()[table.index]
                .iter()
                .map(|&i| t.agents[i].as_str())
                .collect();
            eprintln!(
                "table {:>2}/{}: {} — {} deals, {:.1} s",
                table.index + 1,
                tables.len(),
                agents.join(" vs "),
                file.tables[table.index].deals_done,
                start.elapsed().as_secs_f64()
            );
        }
    }
    let standings = t.standings(&tallies)?;
    file.status = if stopped { "partial" } else { "complete" }.into();
    let elapsed = began.elapsed().as_secs_f64();
    write_files(t, dir, &file, &standings)?;
    let threads = Some(opts.threads.unwrap_or_else(cores));
    write_run_json(dir, &file, threads, Some(elapsed))?;
    Ok(TournamentReport {
        standings,
        complete: !stopped,
        budget_spent: spent.load(Ordering::SeqCst),
        elapsed,
    })
}

/// `tournament.json` of a tournament begun: its tables, none played yet, status partial.
fn fresh_file(t: &Tournament, tables: &[Table], shard: Option<Shard>) -> TournamentFile {
    TournamentFile {
        format: TOURNAMENT_FORMAT.into(),
        tournament: Tournament {
            budget_minutes: None,
            ..t.clone()
        },
        shard,
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
    }
}

/// Plays (or goes on with) one table in `tdir` and `runtime`, unless `stopped` already; returns its tally and
/// deals played so far (`None`: nothing played) and whether the run was stopped in it.
fn play_table(
    (table, runtime): (&Table, &Runtime),
    tdir: &Path,
    opts: &TournamentOptions,
    (stop, stopped): (&Arc<AtomicBool>, bool),
) -> anyhow::Result<(Option<(Tally, u64)>, bool)> {
    let state = table_state(tdir)?;
    if stopped {
        return Ok(match state {
            TableState::Done(tally, n) | TableState::Unfinished(tally, n) => {
                (Some((tally, n)), true)
            }
            TableState::Fresh => (None, true),
        });
    }
    let run_opts = RunOptions {
        threads: opts.threads,
        shard: opts.shard,
        quiet: true,
        output: Some(tdir.to_path_buf()),
        stop: Some(stop.clone()),
        checkpoint_every: opts.checkpoint_every,
        runtime: runtime.clone(),
        ..RunOptions::default()
    };
    let result = match state {
        TableState::Done(tally, n) => return Ok((Some((tally, n)), false)),
        TableState::Unfinished(..) => resume_run(tdir, &run_opts),
        TableState::Fresh => run_experiment(&table.experiment, &run_opts),
    };
    match result {
        Ok(r) => Ok((Some((r.tally.clone(), table_deals(&r.tally))), false)),
        Err(e) if e.downcast_ref::<Stopped>().is_some() => match table_state(tdir)? {
            TableState::Unfinished(tally, n) => Ok((Some((tally, n)), true)),
            _ => Ok((None, true)),
        },
        Err(e) => Err(e.context(format!("table {} ({})", table.index, table.dir))),
    }
}
