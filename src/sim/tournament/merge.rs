//! Merging the shards of a tournament: each table's shards merged as a run's, then the
//! tournament's files written from the merged tables.

use crate::sim::run::checkpoint::parse_tally_file;
use crate::sim::run::merge::merge_run;
use crate::sim::stats::tally::Tally;
use crate::sim::tournament::files::{
    read_tournament_file, write_files, write_run_json, TournamentFile,
};
use crate::sim::tournament::spec::Tournament;
use crate::sim::tournament::standings::{table_deals, Standings};
use anyhow::{bail, Context};
use std::path::PathBuf;

/// A merged tournament: what `bailab merge` prints.
pub(crate) struct MergedTournament {
    /// The tournament.
    pub tournament: Tournament,
    /// Its standings over the merged tables.
    pub(crate) standings: Standings,
    /// The folder merged into.
    pub dir: PathBuf,
}

/// Merges tournament shard folders: each table's shards into `output/tables/NN` (as
/// [`merge_run`] does for a run), then the tournament's files.
pub(crate) fn merge_tournament(
    dirs: &[PathBuf],
    output: Option<PathBuf>,
    force: bool,
) -> anyhow::Result<MergedTournament> {
    let files: Vec<TournamentFile> = dirs
        .iter()
        .map(|d| {
            read_tournament_file(d)?.with_context(|| {
                format!(
                    "{}: not a tournament folder (no tournament.json), but {} is one",
                    d.display(),
                    dirs[0].display()
                )
            })
        })
        .collect::<anyhow::Result<_>>()?;
    let t = files[0].tournament.clone();
    for (f, d) in files.iter().zip(dirs) {
        if !f.tournament.same_study(&t) {
            bail!(
                "{}: a different tournament from {}",
                d.display(),
                dirs[0].display()
            );
        }
        if f.status != "complete" {
            bail!(
                "{}: this shard is unfinished; finish it with `bailab tournament --resume {}`",
                d.display(),
                d.display()
            );
        }
    }
    let out = output.unwrap_or_else(|| PathBuf::from(t.output_dir()));
    if let Some(there) = read_tournament_file(&out)? {
        if !force {
            bail!(
                "{}: holds tournament results ('{}'); --force replaces them",
                out.display(),
                there.tournament.name
            );
        }
    }
    let mut tallies: Vec<Option<Tally>> = Vec::new();
    let mut entries = files[0].tables.clone();
    for entry in &mut entries {
        let shards: Vec<PathBuf> = dirs.iter().map(|d| d.join(&entry.dir)).collect();
        let tdir = out.join(&entry.dir);
        merge_run(&shards, Some(tdir.clone()), force)
            .with_context(|| format!("merging table {}", entry.dir))?;
        let path = tdir.join("tally.json");
        let text = crate::input::read_text(&path, crate::input::TALLY)?;
        let merged = parse_tally_file(&path, &text)?;
        entry.deals_done = table_deals(&merged.tally);
        tallies.push(Some(merged.tally));
    }
    let standings = t.standings(&tallies)?;
    let file = TournamentFile {
        shard: None,
        tables: entries,
        status: "complete".into(),
        ..files[0].clone()
    };
    write_files(&t, &out, &file, &standings)?;
    write_run_json(&out, &file, None, None)?;
    Ok(MergedTournament {
        tournament: t,
        standings,
        dir: out,
    })
}
