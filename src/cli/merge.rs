//! `bailab merge DIR...`: combine shard outputs into exactly what one run would have written (a
//! tournament's shards too: each table merged as a run, then the tournament's files).

use super::tournament::console_tables;
use crate::sim::run::console::print_report;
use crate::sim::run::merge::merge_run;
use crate::sim::tournament::files::TOURNAMENT_FILE;
use crate::sim::tournament::merge::merge_tournament;
use std::path::PathBuf;

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
pub(crate) struct Args {
    /// Shard output folders (each with tally.json, and games.csv if written).
    #[arg(required = true)]
    pub(crate) dirs: Vec<PathBuf>,
    /// Output folder (default: the experiment's `output`, relative to the current folder).
    #[arg(long)]
    pub(crate) output: Option<PathBuf>,
    /// Write into a folder that holds results (of this or another experiment; they are
    /// replaced). Without it, any result file already there is an error.
    #[arg(long)]
    pub(crate) force: bool,
    /// No table (errors still go to stderr).
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    if args.dirs[0].join(TOURNAMENT_FILE).exists() {
        let merged = merge_tournament(&args.dirs, args.output, args.force)?;
        if !args.quiet {
            print!("{}", console_tables(&merged.tournament, &merged.standings));
            println!("merged into {}", merged.dir.display());
        }
        return Ok(());
    }
    let (exp, report) = merge_run(&args.dirs, args.output, args.force)?;
    if !args.quiet {
        print_report(&exp, &report, &mut std::io::stdout())?;
    }
    Ok(())
}
