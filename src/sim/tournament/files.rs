//! A tournament's folder: `tournament.json` (what the folder holds; figures aside, it depends
//! on the study alone), `pairs.csv`, `crosstable.csv` and `ratings.csv` (the standings), and
//! `run.json` (the times).

use crate::input::{read_text, InputError, InputProblem, RESULT, TALLY};
use crate::sim::files::atomic::write_atomic;
use crate::sim::files::csv::{csv_bytes, fmt, study_columns};
use crate::sim::files::guard::ResultSet;
use crate::sim::files::schema::{
    CORRECTED_COLUMNS, CORRECTED_RATING_COLUMNS, PAIRS_HEADER, RATINGS_HEADER,
};
use crate::sim::run::checkpoint::Shard;
use crate::sim::run::threads::cores;
use crate::sim::tournament::spec::Tournament;
use crate::sim::tournament::standings::Standings;
use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The value of `tournament.json`'s `format` key.
pub(crate) const TOURNAMENT_FORMAT: &str = "bailab-tournament-1";

/// The file that says a folder holds a tournament.
pub(crate) const TOURNAMENT_FILE: &str = "tournament.json";

/// The files a tournament writes into its folder.
pub const TOURNAMENT_FILES: [&str; 5] = [
    TOURNAMENT_FILE,
    "pairs.csv",
    "crosstable.csv",
    "ratings.csv",
    "run.json",
];

/// One table as `tournament.json` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TableEntry {
    /// Its index.
    pub index: usize,
    /// The agent spec of each seat (before rotation).
    pub agents: Vec<String>,
    /// Its folder, relative to the tournament's.
    pub dir: String,
    /// Deals played so far (of its range).
    pub(crate) deals_done: u64,
}

/// `tournament.json`: the tournament, the shard played (if any), its tables and whether every
/// table is done.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct TournamentFile {
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

/// Reads a folder's `tournament.json`, if it has one.
pub(crate) fn read_tournament_file(dir: &Path) -> anyhow::Result<Option<TournamentFile>> {
    let path = dir.join(TOURNAMENT_FILE);
    let text = match read_text(&path, TALLY) {
        Ok(t) => t,
        Err(InputError {
            problem: InputProblem::Read(e),
            ..
        }) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.into()),
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

impl Tournament {
    fn study(&self) -> Vec<String> {
        study_columns(&self.game, &self.variant, self.players)
    }

    /// `pairs.csv`: one row per ordered pair that played, agent minus versus, per game; a
    /// luck-corrected tournament adds the corrected difference's columns.
    pub(crate) fn pairs_csv(&self, s: &Standings) -> Vec<u8> {
        let k = self.agents.len();
        let corrected = s.corrected.is_some();
        let rows = (0..k)
            .flat_map(|i| (0..k).filter(move |&j| j != i).map(move |j| (i, j)))
            .filter(|&(i, j)| s.versus(i, j).1.deals > 0)
            .map(|(i, j)| {
                let ((m, lo, hi), p) = s.versus(i, j);
                let mut row = self.study();
                row.extend([
                    self.agents[i].clone(),
                    self.agents[j].clone(),
                    p.deals.to_string(),
                    p.games.to_string(),
                    fmt(m),
                    fmt(lo),
                    fmt(hi),
                ]);
                if let Some((m, lo, hi)) = s.corrected_versus(i, j) {
                    row.extend([fmt(m), fmt(lo), fmt(hi)]);
                }
                row
            })
            .collect();
        if corrected {
            let header: Vec<&str> = PAIRS_HEADER
                .iter()
                .chain(&CORRECTED_COLUMNS)
                .copied()
                .collect();
            return csv_bytes(&header, rows);
        }
        csv_bytes(&PAIRS_HEADER, rows)
    }

    /// `crosstable.csv`: row agent minus column agent, mean paired payout difference per game.
    pub(crate) fn crosstable_csv(&self, s: &Standings) -> Vec<u8> {
        let k = self.agents.len();
        let mut header = vec!["agent"];
        header.extend(self.agents.iter().map(String::as_str));
        let rows = (0..k)
            .map(|i| {
                let mut row = vec![self.agents[i].clone()];
                row.extend((0..k).map(|j| match (i == j, s.versus(i, j)) {
                    (false, ((m, _, _), p)) if p.deals > 0 => fmt(m),
                    _ => String::new(),
                }));
                row
            })
            .collect();
        csv_bytes(&header, rows)
    }

    /// `ratings.csv`: the agents by rating, with their intervals (and in a luck-corrected
    /// tournament, the ratings fitted to the corrected pairs).
    pub(crate) fn ratings_csv(&self, s: &Standings) -> Vec<u8> {
        let rows = s
            .order()
            .into_iter()
            .enumerate()
            .map(|(rank, i)| {
                let r = s.ratings[i];
                let mut row = self.study();
                row.extend([
                    (rank + 1).to_string(),
                    self.agents[i].clone(),
                    fmt(r.rating),
                    fmt(r.lo),
                    fmt(r.hi),
                    s.deals[i].to_string(),
                    s.games[i].to_string(),
                ]);
                if let Some(c) = &s.corrected_ratings {
                    row.extend([fmt(c[i].rating), fmt(c[i].lo), fmt(c[i].hi)]);
                }
                row
            })
            .collect();
        if s.corrected_ratings.is_some() {
            let header: Vec<&str> = (RATINGS_HEADER.iter())
                .chain(&CORRECTED_RATING_COLUMNS)
                .copied()
                .collect();
            return csv_bytes(&header, rows);
        }
        csv_bytes(&RATINGS_HEADER, rows)
    }
}

/// Writes the deterministic files as one set: `pairs.csv`, `crosstable.csv`, `ratings.csv` and
/// `tournament.json` (renamed last, so that a folder whose file says complete has the others).
pub(crate) fn write_files(
    t: &Tournament,
    dir: &Path,
    file: &TournamentFile,
    s: &Standings,
) -> anyhow::Result<()> {
    let mut set = ResultSet::new(dir);
    set.add("pairs.csv", &t.pairs_csv(s))?;
    set.add("crosstable.csv", &t.crosstable_csv(s))?;
    set.add("ratings.csv", &t.ratings_csv(s))?;
    set.add(
        TOURNAMENT_FILE,
        serde_json::to_string_pretty(file)?.as_bytes(),
    )?;
    set.commit()
}

/// A table's wall time over all its sessions, from its `run.json` (0 if not written yet).
fn table_elapsed(dir: &Path) -> f64 {
    run_json(dir)
        .and_then(|v| v["elapsed_s"].as_f64())
        .unwrap_or(0.0)
}

/// The `run.json` of a folder, if it has one that reads.
fn run_json(dir: &Path) -> Option<serde_json::Value> {
    let text = read_text(&dir.join("run.json"), RESULT).ok()?;
    serde_json::from_str(&text).ok()
}

/// The command that began the tournament in `dir` (kept from an earlier session's `run.json`,
/// so that a resumed one still names it), or this process's.
fn first_command(dir: &Path) -> String {
    run_json(dir)
        .and_then(|v| v["command"].as_str().map(str::to_string))
        .unwrap_or_else(|| std::env::args().collect::<Vec<_>>().join(" "))
}

/// `run.json`: the wall time of each table in `file` (over all its sessions, or the sum of its
/// shards' after a merge) and their sum, this session's time (`None` for a merge) and the
/// machine.
pub(crate) fn write_run_json(
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
