//! `bailab analyze`: the hand analyser, one hand or JSON Lines from stdin.

use super::{check_variant, GameName};
use crate::games::tusac::analyze::analyze;
use std::io::{BufRead, Write};

/// Arguments of `bailab analyze`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  bailab analyze --game tusac \"rK rA rE yA yE yE gR gC gH gH\"\n  \
bailab analyze --game tusac --json --seen \"rH rH\" \"rR rC gH yP\"\n  \
printf 'rK rA\\nrR rC rH\\n' | bailab analyze --game tusac -"
)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value = "tusac")]
    pub game: GameName,
    /// The variant.
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Print JSON instead of the readable report.
    #[arg(long)]
    pub json: bool,
    /// Cards visible elsewhere (dead pile, public blocks), used for the outs of the worst card.
    #[arg(long, default_value = "")]
    pub seen: String,
    /// The private block in notation (e.g. "rK rA rE yP"), or `-` to read one hand per line
    /// from stdin and write one JSON object per line.
    pub hand: String,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    check_variant(args.game, &args.variant)?;
    if args.hand == "-" {
        return analyze_lines(&args.seen);
    }
    let a = analyze(&args.hand, &args.seen).map_err(anyhow::Error::msg)?;
    if args.json {
        println!("{}", a.to_json());
    } else {
        println!("{}", a.to_text());
    }
    Ok(())
}

/// JSON Lines mode: a bad line gets `{"hand": ..., "error": ...}` and the rest go on.
/// Blank lines are skipped. Exits non-zero at the end if any line failed.
fn analyze_lines(seen: &str) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let value = match analyze(&line, seen) {
            Ok(a) => a.to_json(),
            Err(e) => {
                failed += 1;
                serde_json::json!({"hand": line, "error": e})
            }
        };
        writeln!(out, "{value}")?;
    }
    out.flush()?;
    if failed > 0 {
        anyhow::bail!("{failed} line(s) could not be analysed (see their \"error\" keys)");
    }
    Ok(())
}
