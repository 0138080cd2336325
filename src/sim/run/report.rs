//! What a run writes: the result files (`summary.csv`, `matches.csv`, `sprt.csv`, `tally.json`,
//! `meta.json`, `run.json`) of a finished run or merge, and the report it returns.

use crate::sim::files::guard::ResultSet;
use crate::sim::run::checkpoint::{absolute_project, Shard, TallyFile};
use crate::sim::run::experiment::{Experiment, Runtime};
use crate::sim::run::summary::{matches_csv, summary_csv};
use crate::sim::run::threads::cores;
use crate::sim::stats::sprt::sprt_csv;
use crate::sim::stats::sprt::{SprtOutcome, SprtStep};
use crate::sim::stats::tally::Tally;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Stages `summary.csv`, `tally.json` and `meta.json` (the reproducible files: the same for any
/// threads, sharding or stops) and `run.json` (this machine's figures: threads, elapsed time,
/// games/s, and for a run the project folder of `runtime` its agent files were read from) of a
/// finished run or merge: the set the caller completes and commits as a unit. A shard's `tally.json` keeps the digests of the agent files it read (`agent_files`) and is
/// sealed (see [`TallyFile::to_file_text`]).
pub(crate) fn write_results(
    (exp, runtime): (&Experiment, &Runtime),
    shard: Option<Shard>,
    deals: (u64, u64),
    r: &RunReport,
    agent_files: &BTreeMap<String, String>,
) -> anyhow::Result<ResultSet> {
    let mut set = ResultSet::new(&r.dir);
    set.add("summary.csv", &summary_csv(exp, &r.tally))?;
    match &r.sprt {
        Some(o) => set.add("sprt.csv", &sprt_csv(&r.sprt_steps, o))?,
        None => set.remove("sprt.csv"),
    }
    if r.tally.matches.is_empty() {
        set.remove("matches.csv");
    } else {
        set.add("matches.csv", &matches_csv(exp, &r.tally))?;
    }
    let tally = TallyFile {
        experiment: exp.clone(),
        shard,
        deals,
        tally: r.tally.clone(),
        agent_files: match shard {
            Some(_) => agent_files.clone(),
            None => BTreeMap::new(),
        },
    };
    set.add("tally.json", tally.to_file_text()?.as_bytes())?;
    let mut meta = serde_json::json!({
        "experiment": exp,
        "version": env!("CARGO_PKG_VERSION"),
        "seed": exp.seed,
        "shard": shard.map(|s| format!("{}/{}", s.k, s.n)),
        "deals": [deals.0, deals.1],
        "games": r.games,
    });
    let mut run = serde_json::json!({
        "threads": r.threads,
        "cores": cores(),
        "elapsed_s": r.elapsed,
        "elapsed_is_sum_of_shards": r.threads.is_none(),
        "games_per_s": r.games as f64 / r.elapsed.max(1e-9),
        "sessions": r.sessions,
        "resumed_from_deal": r.resumed_from,
    });
    // where a run read its agent files (a merge reads none)
    if r.threads.is_some() {
        run["project"] = serde_json::to_value(absolute_project(runtime))?;
    }
    if let Some(o) = &r.sprt {
        meta["sprt"] = serde_json::to_value(o)?;
        run["sprt"] = serde_json::to_value(o)?;
    }
    set.add("meta.json", serde_json::to_string_pretty(&meta)?.as_bytes())?;
    set.add("run.json", serde_json::to_string_pretty(&run)?.as_bytes())?;
    Ok(set)
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The output folder.
    pub dir: PathBuf,
    /// The tallies.
    pub tally: Tally,
    /// Games played.
    pub games: u64,
    /// Wall time in seconds (for a merge: the sum of the shards' times).
    pub elapsed: f64,
    /// Threads used (`None` for a merge of shards).
    pub threads: Option<usize>,
    /// Sessions the run took (more than 1 when it was resumed).
    pub(crate) sessions: u32,
    /// The deal the last session resumed at, if it was resumed.
    pub resumed_from: Option<u64>,
    /// How the early-stopping test ended, for an experiment with an `[sprt]` table.
    pub sprt: Option<SprtOutcome>,
    /// The looks of that test, in order (`sprt.csv`).
    pub(crate) sprt_steps: Vec<SprtStep>,
}
