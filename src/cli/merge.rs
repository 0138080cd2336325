//! `bailab merge DIR...`: combine shard outputs into exactly what one run would have written.

use crate::sim::output::write_atomic;
use crate::sim::runner::{prepare_merge, print_report, write_results, RunReport, TallyFile};
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// Arguments of `bailab merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Shard output folders (each with tally.json, and games.csv if written).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Output folder (default: the experiment's `output`, relative to the current folder).
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Write into a folder that holds another experiment's results (they are replaced).
    #[arg(long)]
    pub force: bool,
    /// No table.
    #[arg(long, short)]
    pub quiet: bool,
}

fn read_tally(dir: &Path) -> anyhow::Result<TallyFile> {
    let path = dir.join("tally.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not a bailab tally", path.display()))
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut shards: Vec<(TallyFile, PathBuf)> = args
        .dirs
        .iter()
        .map(|d| read_tally(d).map(|t| (t, d.clone())))
        .collect::<anyhow::Result<_>>()?;
    shards.sort_by_key(|(t, _)| t.deals);
    let exp = shards[0].0.experiment.clone();
    if exp.sprt.is_some() {
        bail!(
            "{}: experiment '{}' has an [sprt] table; a sequential test is never sharded \
             (`bailab run --shard` refuses it), so there is nothing to merge",
            shards[0].1.display(),
            exp.name
        );
    }
    let mut next = 0;
    let mut previous: Option<&PathBuf> = None;
    for (t, dir) in &shards {
        if t.experiment != exp {
            bail!(
                "{}: a different experiment from {}",
                dir.display(),
                shards[0].1.display()
            );
        }
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
    let mut tally = shards[0].0.tally.clone();
    for (t, dir) in &shards[1..] {
        tally
            .merge(&t.tally)
            .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
    }
    let dir = args
        .output
        .unwrap_or_else(|| PathBuf::from(exp.output_dir()));
    let _lock = prepare_merge(&dir, &exp, args.force)?;
    for (name, header) in [("games.csv", true), ("records.jsonl", false)] {
        merge_per_game_file(&shards, &dir, name, header)?;
    }
    let elapsed = shards.iter().map(|(_, d)| elapsed_of(d)).sum();
    let report = RunReport {
        dir,
        games: tally.games,
        tally,
        elapsed,
        threads: None,
        sessions: 1,
        resumed_from: None,
        sprt: None,
        sprt_steps: Vec::new(),
    };
    write_results(&exp, None, (0, exp.deals), &report)?;
    if !args.quiet {
        print_report(&exp, &report, &mut std::io::stdout())?;
    }
    Ok(())
}

/// Concatenates a per-game file (one line per game, after an optional header) of every shard in
/// deal order, checking each against its tally; absent everywhere is fine, absent somewhere is not.
fn merge_per_game_file(
    shards: &[(TallyFile, PathBuf)],
    dir: &Path,
    name: &str,
    header: bool,
) -> anyhow::Result<()> {
    let files: Vec<PathBuf> = shards.iter().map(|(_, d)| d.join(name)).collect();
    if !files.iter().any(|f| f.exists()) {
        return crate::sim::runner::remove_stale(&dir.join(name));
    }
    if !files.iter().all(|f| f.exists()) {
        bail!("some shards have {name} and some do not");
    }
    let mut out = Vec::new();
    for (i, (f, (t, _))) in files.iter().zip(shards).enumerate() {
        let text = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
        let body = if header { skip_line(&text) } else { &text[..] };
        let rows = body.iter().filter(|&&b| b == b'\n').count() as u64;
        if rows != t.tally.games {
            bail!(
                "{}: {rows} rows, but its tally counts {} games (a stale file?)",
                f.display(),
                t.tally.games
            );
        }
        out.extend_from_slice(if i == 0 { &text[..] } else { body });
    }
    write_atomic(dir, name, &out)?;
    Ok(())
}

fn skip_line(text: &[u8]) -> &[u8] {
    match text.iter().position(|&b| b == b'\n') {
        Some(i) => &text[i + 1..],
        None => &[],
    }
}

/// A shard's wall time, from its `run.json` (or the `meta.json` of older versions).
fn elapsed_of(dir: &Path) -> f64 {
    ["run.json", "meta.json"]
        .iter()
        .filter_map(|name| std::fs::read_to_string(dir.join(name)).ok())
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
