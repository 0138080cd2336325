//! `bailab check FILE`: rebuild every recorded game from its deck, replay its events through the
//! engine and report `ok` or the first problem, per record.

use crate::record::Record;
use crate::sim::recorder::check;
use std::io::Read;

/// Arguments of `bailab check`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "FILE holds one record (JSON) or many (JSON Lines, one per line); `-` reads stdin.\n\
Prints one line per record: `ok`, or the first event that is illegal, a forced move that is\n\
missing or differs, or an outcome that differs. Exits 1 if any record fails."
)]
pub struct Args {
    /// The record file, or `-` for stdin.
    pub file: String,
    /// Print only the failures and the totals.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The records of a file: one JSON document, or one per line. Each comes with its line number.
fn records(text: &str) -> Vec<(usize, Result<Record, String>)> {
    if let Ok(r) = serde_json::from_str::<Record>(text) {
        return vec![(1, Ok(r))];
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            (
                i + 1,
                serde_json::from_str::<Record>(l).map_err(|e| format!("not a record: {e}")),
            )
        })
        .collect()
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut text = String::new();
    if args.file == "-" {
        std::io::stdin().read_to_string(&mut text)?;
    } else {
        text = std::fs::read_to_string(&args.file)
            .map_err(|e| anyhow::anyhow!("{}: {e}", args.file))?;
    }
    let all = records(&text);
    if all.is_empty() {
        anyhow::bail!("{}: no records", args.file);
    }
    let mut failed = 0;
    for (n, (line, rec)) in all.iter().enumerate() {
        let label = match rec {
            Ok(r) => match (r.seed, r.deal, r.rotation) {
                (Some(s), Some(d), Some(rot)) => format!(
                    "record {} (line {line}, seed {s}, deal {d}, rotation {rot})",
                    n + 1
                ),
                _ => format!("record {} (line {line})", n + 1),
            },
            Err(_) => format!("record {} (line {line})", n + 1),
        };
        let verdict = rec
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|r| check(r).map_err(|e| e.to_string()));
        match verdict {
            Ok(()) if !args.quiet => println!("{label}: ok"),
            Ok(()) => {}
            Err(e) => {
                failed += 1;
                println!("{label}: {e}");
            }
        }
    }
    println!(
        "{} records: {} ok, {failed} failed",
        all.len(),
        all.len() - failed
    );
    if failed > 0 {
        anyhow::bail!("{failed} of {} records failed the check", all.len());
    }
    Ok(())
}
