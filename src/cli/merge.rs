//! `bailab merge DIR...`: combine shard outputs into exactly what one run would have written (a
//! tournament's shards too: each table merged as a run, then the tournament's files).

use crate::sim::files::atomic::write_atomic;
use crate::sim::files::guard::{remove_stale_stages, Outputs};
use crate::sim::run::checkpoint::{prepare_merge, TallyFile, CHECKPOINT, RUN_FILES};
use crate::sim::run::console::print_report;
use crate::sim::run::report::{write_results, RunReport};
use crate::sim::stats::tally::Tally;
use crate::sim::tournament::files::{
    read_tournament_file, write_files, write_run_json, TournamentFile, TOURNAMENT_FILE,
};
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// Arguments of `bailab merge`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each shard's games.csv (when written) is read back and must give \
exactly its tally.json (a row that cannot be one of its games names the file and line). The \
merged files are written to a staging folder and moved into place only when all of them are \
written, so a failed merge leaves nothing behind. Result files already in the output folder are \
never replaced without --force; the folder is checked writable before the shards' games are \
read."
)]
pub struct Args {
    /// Shard output folders (each with tally.json, and games.csv if written).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Output folder (default: the experiment's `output`, relative to the current folder).
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Write into a folder that holds results (of this or another experiment; they are
    /// replaced). Without it, any result file already there is an error.
    #[arg(long)]
    pub force: bool,
    /// No table (errors still go to stderr).
    #[arg(long, short)]
    pub quiet: bool,
}

fn read_tally(dir: &Path) -> anyhow::Result<TallyFile> {
    let path = dir.join("tally.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not a bailab tally", path.display()))
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

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.dirs[0].join(TOURNAMENT_FILE).exists() {
        return merge_tournament(&args.dirs, args.output, args.force, args.quiet);
    }
    let shards = read_shards(&args.dirs)?;
    let exp = shards[0].0.experiment.clone();
    let mut tally = shards[0].0.tally.clone();
    for (t, dir) in &shards[1..] {
        tally
            .merge(&t.tally)
            .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
    }
    let dir = args
        .output
        .unwrap_or_else(|| PathBuf::from(exp.output_dir()));
    let out = Outputs::open(&dir, &merge_files())?;
    let _lock = prepare_merge(&dir, &exp, args.force)?;
    out.refuse_existing(args.force)?;
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
    write_results(&exp, None, (0, exp.deals), &report)?;
    out.commit_stage(stage)?;
    report.dir = dir;
    if !args.quiet {
        print_report(&exp, &report, &mut std::io::stdout())?;
    }
    Ok(())
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
    for (t, dir) in shards {
        if &t.experiment != exp {
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
        if name == "games.csv" {
            check_games_csv(t, f, &text)?;
        }
        out.extend_from_slice(if i == 0 { &text[..] } else { body });
    }
    write_atomic(dir, name, &out)?;
    Ok(())
}

/// Checks a shard's games.csv against its tally.json: the tally rebuilt from the rows must be
/// the stored one.
fn check_games_csv(t: &TallyFile, path: &Path, text: &[u8]) -> anyhow::Result<()> {
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

/// `bailab merge` of tournament shard folders: merges each table's shards into
/// `output/tables/NN` (as `bailab merge` does for a run), then writes the tournament's files.
pub fn merge_tournament(
    dirs: &[PathBuf],
    output: Option<PathBuf>,
    force: bool,
    quiet: bool,
) -> anyhow::Result<()> {
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
        run(Args {
            dirs: shards,
            output: Some(tdir.clone()),
            force,
            quiet: true,
        })
        .with_context(|| format!("merging table {}", entry.dir))?;
        let text = std::fs::read_to_string(tdir.join("tally.json"))?;
        let merged: TallyFile = serde_json::from_str(&text)?;
        entry.deals_done = crate::sim::tournament::standings::table_deals(&merged.tally);
        tallies.push(Some(merged.tally));
    }
    let standings = t.standings(&tallies).map_err(anyhow::Error::msg)?;
    let file = TournamentFile {
        shard: None,
        tables: entries,
        status: "complete".into(),
        ..files[0].clone()
    };
    write_files(&t, &out, &file, &standings)?;
    write_run_json(&out, &file, None, None)?;
    if !quiet {
        print!("{}", super::tournament::console_tables(&t, &standings));
        println!("merged into {}", out.display());
    }
    Ok(())
}
