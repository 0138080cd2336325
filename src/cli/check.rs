//! `bailab check FILE`: rebuild every recorded game from its deck, replay its events through the
//! engine and report `ok` or the first problem, per record.

use crate::sim::files::record_stream::{RecordError, Records};
use crate::sim::recorder::check;
use std::io::BufRead;

/// Arguments of `bailab check`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "FILE holds records as JSON Lines (one per line) or written over several lines each\n\
(pretty-printed); `-` reads stdin. The file is streamed: any size is fine, but a record over\n\
4 MiB (on one line or several) is refused.\n\
Prints one line per record: `ok`, or the first event that is illegal, a forced move that is\n\
missing or differs, or an outcome that differs. Exits 1 if any record fails."
)]
pub(crate) struct Args {
    /// The record file, or `-` for stdin.
    pub(crate) file: String,
    /// Print only the failures and the totals.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let input: Box<dyn BufRead> = if args.file == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f =
            std::fs::File::open(&args.file).map_err(|e| anyhow::anyhow!("{}: {e}", args.file))?;
        Box::new(std::io::BufReader::with_capacity(1 << 16, f))
    };
    let mut records = Records::new(input);
    let (mut total, mut failed) = (0usize, 0usize);
    while let Some((line, rec)) = records
        .next_record()
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.file))?
    {
        total += 1;
        let label = match &rec {
            Ok(r) => match (r.seed, r.deal, r.rotation) {
                (Some(s), Some(d), Some(rot)) => {
                    format!("record {total} (line {line}, seed {s}, deal {d}, rotation {rot})")
                }
                _ => format!("record {total} (line {line})"),
            },
            Err(_) => format!("record {total} (line {line})"),
        };
        match rec.and_then(|r| check(&r).map_err(RecordError::Check)) {
            Ok(()) if !args.quiet => println!("{label}: ok"),
            Ok(()) => {}
            Err(e) => {
                failed += 1;
                println!("{label}: {e}");
            }
        }
    }
    if total == 0 {
        anyhow::bail!("{}: no records", args.file);
    }
    println!("{total} records: {} ok, {failed} failed", total - failed);
    if failed > 0 {
        anyhow::bail!("{failed} of {total} records failed the check");
    }
    Ok(())
}
