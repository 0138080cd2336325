//! `bailab run [EXPERIMENT.toml]`: play an experiment on all cores and write its statistics.

use crate::sim::experiment::Experiment;
use crate::sim::runner::{print_report, run_experiment, RunOptions, Shard};
use std::path::PathBuf;

/// Arguments of `bailab run`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Without a file, runs the embedded default experiment (experiments/default.toml).\n\
Writes summary.csv, tally.json and meta.json (and games.csv when asked) into the output folder,\n\
each to a temporary name first, then renamed: a failed run leaves earlier results untouched."
)]
pub struct Args {
    /// The experiment file (TOML); the embedded default when omitted.
    pub experiment: Option<String>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Play only shard K of N (0 ≤ K < N), e.g. `--shard 0/3`; combine with `bailab merge`.
    #[arg(long)]
    pub shard: Option<String>,
    /// Output folder (default: the experiment's `output`, or `<output>/shard-K-of-N` for a shard).
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Also write games.csv, one row per game.
    #[arg(long)]
    pub games_csv: bool,
    /// Also write records.jsonl, one JSON game record per game (see docs/records.md).
    #[arg(long)]
    pub records: bool,
    /// No progress bar and no table.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Loads the experiment named on the command line, or the default.
pub fn load(path: Option<&str>) -> anyhow::Result<Experiment> {
    match path {
        Some(p) => Experiment::load(p).map_err(anyhow::Error::msg),
        None => Ok(Experiment::default_experiment()),
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let exp = load(args.experiment.as_deref())?;
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    if args.threads == Some(0) {
        anyhow::bail!("--threads must be at least 1");
    }
    let opts = RunOptions {
        threads: args.threads,
        shard,
        quiet: args.quiet,
        output: args.output,
        games_csv: args.games_csv,
        records: args.records,
    };
    let report = run_experiment(&exp, &opts)?;
    if !args.quiet {
        print_report(&report, &mut std::io::stdout())?;
    }
    Ok(())
}
