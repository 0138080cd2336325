//! `bailab analyze`: the hand analyser of a game, for one hand (or play) or JSON Lines from stdin.

use super::args::GameArgs;
use crate::games::kind::{Analysis, AnalyzeOptions, GameError, GameKind};
use crate::games::{with_game, GameVisitor};
use crate::text::{BoundedLines, Line};
use std::io::Write;

/// Arguments of `bailab analyze`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  bailab analyze --game tusac \"rK rA rE yA yE yE gR gC gH gH\"\n  \
bailab analyze --game tusac --json --seen \"rH rH\" \"rR rC gH yP\"\n  \
printf 'rK rA\\nrR rC rH\\n' | bailab analyze --game tusac -\n  \
bailab analyze --game tusac --variant sisepai21 \"gH gH gH gH yR yR yR yC yH rC\"\n  \
bailab analyze --game tusac --variant dirtyking26 --json \"players=6 double=H wH wH wH wH rK\"\n  \
bailab analyze --game tienlen \"3s 3c 4d 4h 5s 5c 7c 9d Jh Qs Kd Ac 2h\"\n  \
bailab analyze --game tienlen --play \"9s 9c 9d 9h\" --against \"2s 2h\"\n\
With `-` in place of the hand (or of --play's cards), one input per line is read from stdin\n\
and one JSON object per line is written (output line N answers input line N, blank lines too);\n\
a bad line gets {\"line\": N, \"input\": …, \"error\": …}."
)]
pub(crate) struct Args {
    /// The game and variant.
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// Print JSON instead of the readable report.
    #[arg(long)]
    pub(crate) json: bool,
    /// Cards visible elsewhere (Tứ Sắc: dead pile, public blocks), used for unseen counts: the
    /// outs of the worst card (classic, 4sac), the unseen copies of the waits (all variants).
    #[arg(long, default_value = "")]
    pub(crate) seen: String,
    /// A play to classify (Tiến Lên): its type and size; `-` reads one play per line.
    #[arg(long)]
    pub(crate) play: Option<String>,
    /// The play on the table (Tiến Lên): whether --play beats it, and whether that is a chặt.
    #[arg(long, requires = "play")]
    pub(crate) against: Option<String>,
    /// The hand in the game's notation (e.g. "rK rA rE yP"), or `-` to read one hand per line
    /// from stdin and write one JSON object per line. Optional with --play. Tứ Sắc sisepai21 and
    /// dirtyking26 take `players=N` (2-8, default 4: the packs) and `double=R` (dirtyking26's
    /// double rank) before the cards.
    #[arg(required_unless_present = "play")]
    pub(crate) hand: Option<String>,
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let opts = AnalyzeOptions {
        variant: args.game.variant()?,
        seen: args.seen.clone(),
        play: args.play.clone(),
        against: args.against.clone(),
    };
    let hand = args.hand.clone().unwrap_or_default();
    if hand == "-" || opts.play.as_deref() == Some("-") {
        return analyze_lines(&args.game.game, &hand, &opts);
    }
    let a = analyze(&args.game.game, &hand, &opts)?;
    if args.json {
        println!("{}", a.json);
    } else {
        println!("{}", a.text);
    }
    Ok(())
}

/// The analysis of `hand` (and `opts.play`) by the game named `game`.
fn analyze(game: &str, hand: &str, opts: &AnalyzeOptions) -> Result<Analysis, GameError> {
    struct Analyze<'a>(&'a str, &'a AnalyzeOptions);
    impl GameVisitor for Analyze<'_> {
        type Output = Result<Analysis, GameError>;
        fn visit<G: GameKind>(self) -> Self::Output {
            G::analyze(self.0, self.1)
        }
    }
    with_game(game, Analyze(hand, opts))?
}

/// The longest input line `analyze -` reads (a hand or a play is a few hundred bytes).
const MAX_LINE_BYTES: usize = 64 << 10;

/// JSON Lines mode: each stdin line replaces the `-` argument; a bad line gets
/// `{"line": N, "input": ..., "error": ...}` and the rest go on. Every input line, blank ones
/// included, gets exactly one output line, so output line N answers input line N. Exits non-zero
/// at the end if any line failed.
fn analyze_lines(game: &str, hand: &str, opts: &AnalyzeOptions) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    let field = if hand == "-" { "hand" } else { "play" };
    let mut lines = BoundedLines::new(stdin.lock(), MAX_LINE_BYTES);
    while let Some((n, line)) = lines.next_line()? {
        let i = n - 1;
        let read = match line {
            Line::Text(bytes) => line_text(bytes),
            Line::TooLong(len) => Err((
                String::new(),
                format!(
                    "the line is {len} bytes long, over the {} KiB an input line may take: \
                     refused",
                    MAX_LINE_BYTES >> 10
                ),
            )),
        };
        let line = match read {
            Ok(line) => line,
            Err(e) => {
                failed += 1;
                writeln!(out, "{}", bad_line(i + 1, field, &e))?;
                continue;
            }
        };
        if line.trim().is_empty() {
            failed += 1;
            let error = "blank line: no input to analyse";
            let value =
                serde_json::json!({"line": i + 1, "input": line, "hand": line, "error": error});
            writeln!(out, "{value}")?;
            continue;
        }
        let (hand, opts) = if hand == "-" {
            (line.as_str(), opts.clone())
        } else {
            let mut o = opts.clone();
            o.play = Some(line.clone());
            (hand, o)
        };
        let value = match analyze(game, hand, &opts) {
            Ok(a) => a.json,
            Err(e) => {
                failed += 1;
                let e = e.to_string();
                serde_json::json!({"line": i + 1, "input": line, field: line, "error": e})
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

/// One input line (without its line ending) as text; a line that is not UTF-8 is an error
/// naming the first bad byte, with the line as far as it can be read.
fn line_text(bytes: &[u8]) -> Result<String, (String, String)> {
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let byte = e.as_bytes()[at];
        let input = String::from_utf8_lossy(e.as_bytes()).into_owned();
        let error = format!(
            "not UTF-8: byte {} (0x{byte:02x}) of the line is not valid UTF-8; write the cards \
             in UTF-8 (ASCII is enough)",
            at + 1
        );
        (input, error)
    })
}

/// The answer to a line that could not be read: its number, what it held and why.
fn bad_line(line: usize, field: &str, (input, error): &(String, String)) -> serde_json::Value {
    serde_json::json!({"line": line, "input": input, field: input, "error": error})
}
