//! `bailab plot CSV_OR_DIR...`: SVG charts from the toolkit's CSVs (see docs/plot.md).

use crate::study::plot::{inputs, plan, write, Options};
use std::path::PathBuf;

/// Arguments of `bailab plot`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Recognises each CSV by its header and draws:\n\
  summary.csv (a run)        win rates per agent and paired payout differences -> summary.svg\n\
  ismcts-strength.csv        ISMCTS strength against iterations (log axis)     -> ismcts-strength.svg\n\
  distributions.csv (deals)  one histogram per measure                         -> distributions-MEASURE.svg\n\
  equity.csv                 mean payout and win rate per action, ranked       -> equity.svg\n\
  report.csv (tune)          each candidate's paired difference, by round      -> report.svg\n\
  curve.csv (train)          the learning curve: the network - greedy per game -> curve.svg\n\
A folder plots every such CSV directly in it (other CSVs are skipped). The SVGs are written\n\
beside their CSV (or into --output), each through a temporary file: a bad input writes nothing.\n\
The payout unit and the title come from a meta.json beside the CSV (a run's folder), or from\n\
<stem>/*/meta.json; --game names the game when neither exists.")]
pub(crate) struct Args {
    /// CSV files or folders of CSV files.
    #[arg(required = true, value_name = "CSV_OR_DIR")]
    pub(crate) inputs: Vec<PathBuf>,
    /// Write the SVGs into this folder (created if needed) instead of beside each CSV.
    #[arg(long, value_name = "DIR")]
    pub(crate) output: Option<PathBuf>,
    /// The title of every chart (default: from the run's name and game).
    #[arg(long, value_name = "T")]
    pub(crate) title: Option<String>,
    /// The game whose payout unit labels the axes, when no meta.json says.
    #[arg(long, value_parser = super::args::game_names())]
    pub(crate) game: Option<String>,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let found = inputs(&args.inputs)?;
    let opts = Options {
        output: args.output,
        title: args.title,
        game: args.game,
    };
    let svgs = plan(&found.files, &opts)?;
    write(&svgs)?;
    if !args.quiet {
        for s in &found.skipped {
            eprintln!("skipped {}: not a CSV that bailab plot draws", s.display());
        }
        for s in &svgs {
            println!("{} -> {}", s.source.display(), s.path.display());
        }
    }
    Ok(())
}
