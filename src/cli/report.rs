//! `bailab report DIR...`: one self-contained HTML page from bailab output folders (see
//! docs/report.md).

use crate::study::page::{build, write};
use std::path::PathBuf;

/// Arguments of `bailab report`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Reads each output and writes one HTML page: a section per output, a table of contents.\n\
\x20 run folder (summary.csv, meta.json)   what was played, win rates, mean payouts, paired\n\
\x20                                       differences, an SPRT stop, the summary chart\n\
\x20 tournament folder (tournament.json)   ratings (chart), cross-table of paired differences,\n\
\x20                                       games per pair, strength per ISMCTS iteration count\n\
\x20 deals folder (distributions.csv)      means and one histogram per measure\n\
\x20 equity folder (equity.csv)            the actions ranked, with the position\n\
\x20 NAME.report.csv (tune or learn)       the candidates or rules with their paired gains (a\n\
\x20                                       folder of them, such as agents/, gives one each)\n\
\x20 ismcts-strength.csv                   strength and time per decision against iterations\n\
Two or more runs or tournaments add a table of every agent's figure in every run. Every\n\
figure comes with its 95% interval and its payout unit. The page needs no network and no\n\
JavaScript: its CSS and its SVG charts (those of bailab plot) are inline.\n\
A path that is not one of these is an error naming it, and nothing is written. The page is\n\
written through a temporary file and a rename; an existing file that is not a page of\n\
bailab report is replaced only with --force."
)]
pub(crate) struct Args {
    /// Output folders (or a tune/learn report, a rule list or weights file, a strength CSV).
    #[arg(required = true, value_name = "DIR")]
    pub(crate) inputs: Vec<PathBuf>,
    /// The page to write (relative to the current folder).
    #[arg(long, short, value_name = "FILE.html", default_value = "report.html")]
    pub(crate) output: PathBuf,
    /// The page's title (default: from the outputs' names).
    #[arg(long, value_name = "T")]
    pub(crate) title: Option<String>,
    /// Replace the output file even when it is not a page of bailab report.
    #[arg(long)]
    pub(crate) force: bool,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let page = build(&args.inputs, args.title.as_deref())?;
    write(&args.output, &page, args.force)?;
    if !args.quiet {
        println!(
            "{} ({} KiB, {} input{})",
            args.output.display(),
            page.len().div_ceil(1024),
            args.inputs.len(),
            if args.inputs.len() == 1 { "" } else { "s" }
        );
    }
    Ok(())
}
