//! Merging the shards of a run: their tallies combined and their per-game files concatenated
//! and checked into exactly what one run would have written.

use crate::sim::files::atomic::AtomicFile;
use crate::sim::files::guard::{remove_stale_stages, Outputs};
use crate::sim::run::checkpoint::{
    parse_tally_file, prepare_merge, TallyFile, CHECKPOINT, RUN_FILES,
};
use crate::sim::run::experiment::{Experiment, Runtime};
use crate::sim::run::integrity::check_same_agent_files;
use crate::sim::run::report::{write_results, RunReport};
use anyhow::{bail, Context};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

fn read_tally(dir: &Path) -> anyhow::Result<TallyFile> {
    let path = dir.join("tally.json");
    let text = crate::input::read_text(&path, crate::input::TALLY)?;
    parse_tally_file(&path, &text)
}

/// The files a merge may write into its folder (every result file of a run but the
/// checkpoint).
fn merge_files() -> Vec<&'static str> {
    RUN_FILES
        .iter()
        .copied()
        .filter(|&n| n != CHECKPOINT)
        .collect()
}

/// Merges the shard folders `dirs` of one experiment into `output` (default: the experiment's
/// `output`, relative to the current folder): exactly the files one run would have written,
/// moved into place only when all of them are written. Result files already there are refused
/// unless `force`. Returns the experiment and the merged report, for printing.
pub(crate) fn merge_run(
    dirs: &[PathBuf],
    output: Option<PathBuf>,
    force: bool,
) -> anyhow::Result<(Experiment, RunReport)> {
    let shards = read_shards(dirs)?;
    let exp = shards[0].0.experiment.clone();
    let mut tally = shards[0].0.tally.clone();
    for (t, dir) in &shards[1..] {
        tally
            .merge(&t.tally)
            .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
    }
    let dir = output.unwrap_or_else(|| PathBuf::from(exp.output_dir()));
    let out = Outputs::open(&dir, &merge_files())?;
    let _lock = prepare_merge(&dir, &exp, force)?;
    out.refuse_existing(force)?;
    remove_stale_stages(&dir);
    let stage = out.stage()?;
    for (name, header) in [("games.csv", true), ("records.jsonl", false)] {
        merge_per_game_file(&shards, stage.path(), name, header)?;
    }
    let elapsed = shards.iter().map(|(_, d)| elapsed_of(d)).sum();
    let mut report = RunReport {
        dir: stage.path().to_path_buf(),
        games: tally.games,
        tally,
        elapsed,
        threads: None,
        sessions: 1,
        resumed_from: None,
        sprt: None,
        sprt_steps: Vec::new(),
    };
    // a merge reads no agent files: run.json names no project
    write_results(
        (&exp, &Runtime::default()),
        None,
        (0, exp.deals),
        &report,
        &BTreeMap::new(),
    )?
    .commit()?;
    out.commit_stage(stage)?;
    report.dir = dir;
    Ok((exp, report))
}

/// Reads every shard's tally, in deal order, and checks they are one experiment's shards
/// covering its deals once each.
fn read_shards(dirs: &[PathBuf]) -> anyhow::Result<Vec<(TallyFile, PathBuf)>> {
    let mut shards: Vec<(TallyFile, PathBuf)> = dirs
        .iter()
        .map(|d| read_tally(d).map(|t| (t, d.clone())))
        .collect::<anyhow::Result<_>>()?;
    shards.sort_by_key(|(t, _)| t.deals);
    let exp = &shards[0].0.experiment;
    if exp.sprt.is_some() {
        bail!(
            "{}: experiment '{}' has an [sprt] table; a sequential test is never sharded \
             (`bailab run --shard` refuses it), so there is nothing to merge",
            shards[0].1.display(),
            exp.name
        );
    }
    check_coverage(&shards)?;
    Ok(shards)
}

/// Checks that the shards are of one experiment and hold its deals once each.
fn check_coverage(shards: &[(TallyFile, PathBuf)]) -> anyhow::Result<()> {
    let exp = &shards[0].0.experiment;
    let mut next = 0;
    let mut previous: Option<&PathBuf> = None;
    let first = (shards[0].1.join("tally.json"), &shards[0].0.agent_files);
    for (t, dir) in shards {
        if &t.experiment != exp {
            bail!(
                "{}: a different experiment from {}",
                dir.display(),
                shards[0].1.display()
            );
        }
        let here = dir.join("tally.json");
        check_same_agent_files((&here, &t.agent_files), (&first.0, first.1))?;
        if t.deals.0 < next {
            let other = previous.map_or_else(String::new, |p| p.display().to_string());
            let same = previous.is_some_and(|p| same_folder(p, dir));
            bail!(
                "deals {}..{} are repeated: {} and {} both hold them{}",
                t.deals.0,
                next.min(t.deals.1),
                other,
                dir.display(),
                if same {
                    " (the same folder given twice)"
                } else {
                    " (a shard given twice?)"
                }
            );
        }
        if t.deals.0 > next {
            bail!(
                "deals {next}..{} are missing (before {}): give every shard",
                t.deals.0,
                dir.display()
            );
        }
        next = t.deals.1;
        previous = Some(dir);
    }
    if next != exp.deals {
        bail!("deals {next}..{} are missing: give every shard", exp.deals);
    }
    Ok(())
}

/// Concatenates a per-game file (one line per game, after an optional header) of every shard in
/// deal order into `dir`, checking each against its tally (a games.csv row by row); absent
/// everywhere is fine, absent somewhere is not.
fn merge_per_game_file(
    shards: &[(TallyFile, PathBuf)],
    dir: &Path,
    name: &str,
    header: bool,
) -> anyhow::Result<()> {
    let files: Vec<PathBuf> = shards.iter().map(|(_, d)| d.join(name)).collect();
    if !files.iter().any(|f| f.exists()) {
        return Ok(());
    }
    if let Some(absent) = files.iter().find(|f| !f.exists()) {
        bail!(
            "{} is missing, but other shards have {name}: give shards all run with or all \
             without it",
            absent.display()
        );
    }
    for (f, (t, _)) in files.iter().zip(shards) {
        let rows = count_rows(open(f)?, header)?;
        if rows != t.tally.games {
            bail!(
                "{}: {rows} rows, but its tally counts {} games (a stale file?)",
                f.display(),
                t.tally.games
            );
        }
        if name == "games.csv" {
            check_games_csv(t, f, BufReader::new(open(f)?))?;
        }
    }
    // every shard checked: only now is the merged file written (streamed, shard by shard)
    let mut out = AtomicFile::create(dir, name)?;
    for (i, f) in files.iter().enumerate() {
        let mut input = BufReader::new(open(f)?);
        if header && i > 0 {
            input.read_until(b'\n', &mut Vec::new())?;
        }
        loop {
            let block = input
                .fill_buf()
                .with_context(|| format!("reading {}", f.display()))?;
            if block.is_empty() {
                break;
            }
            out.write_all(block)?;
            let n = block.len();
            input.consume(n);
        }
    }
    out.commit()
        .with_context(|| format!("writing {}", dir.join(name).display()))?;
    Ok(())
}

/// Opens a shard's file for reading.
fn open(path: &Path) -> anyhow::Result<File> {
    File::open(path).with_context(|| format!("reading {}", path.display()))
}

/// The lines of a per-game file after its header (if `header`), read in blocks: a shard's file
/// may be larger than memory.
fn count_rows(file: File, header: bool) -> anyhow::Result<u64> {
    let mut input = BufReader::new(file);
    let mut lines = 0u64;
    loop {
        let block = input.fill_buf()?;
        if block.is_empty() {
            break;
        }
        lines += block.iter().filter(|&&b| b == b'\n').count() as u64;
        let n = block.len();
        input.consume(n);
    }
    Ok(lines.saturating_sub(u64::from(header)))
}

/// Checks a shard's games.csv against its tally.json: the tally rebuilt from the rows must be
/// the stored one.
fn check_games_csv(t: &TallyFile, path: &Path, text: impl Read) -> anyhow::Result<()> {
    let rows = crate::sim::run::games_csv::tally_of(&t.experiment, t.deals, path, text)?;
    if let Some(diff) = crate::sim::run::games_csv::difference(&rows, &t.tally) {
        let tally = path.with_file_name("tally.json");
        bail!(
            "{} does not agree with {}: {diff} (an altered or stale file; nothing was merged)",
            path.display(),
            tally.display()
        );
    }
    Ok(())
}

/// A shard's wall time, from its `run.json` (or the `meta.json` of older versions).
fn elapsed_of(dir: &Path) -> f64 {
    ["run.json", "meta.json"]
        .iter()
        .filter_map(|name| crate::input::read_text(&dir.join(name), crate::input::RESULT).ok())
        .filter_map(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .find_map(|v| v["elapsed_s"].as_f64())
        .unwrap_or(0.0)
}

/// Whether two paths name one folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
