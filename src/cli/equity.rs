//! `bailab equity --game G --view FILE` (or `--deal FILE`): the win rate and mean payout of
//! every legal action of the seat to move in a position, or at the first decision of a partly
//! specified deal, by seeded Monte Carlo with common random numbers
//! ([`crate::study::equity`], docs/equity.md).

use super::args::GameArgs;
use crate::deal_spec::{DealFileError, DealSpec, DealSpecError};
use crate::game::RuleMap;
use crate::games::kind::{GameError, GameKind, TableError};
use crate::games::{with_game, GameVisitor};
use crate::sim::files::guard::Outputs;
use crate::sim::run::threads::check_threads;
use crate::study::equity::{
    csv, estimate, table, CsvStudy, EquityOptions, EquityReport, Progress, Source,
};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `bailab equity`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The position file (TOML) is one seat's view: its hand, the cards visible \
elsewhere, the phase and the active card or trick; docs/equity.md gives its keys per game.\n\
Instead of --view, --deal takes a deal specification (docs/deals-spec.md): the estimate is \
then of the game's first decision, each sample dealing the cards not fixed at random; the \
deciding seat's whole hand must be fixed, and deals that end before the decision are skipped.\n\
Each sample deals the hidden cards once (seeded by the sample index) and plays every legal \
action out on that same deal (common random numbers), so actions are compared in pairs. The \
estimate stops when the best action's paired 95% interval against every other action is above \
zero (checked every --check-every samples, so the result is the same for any thread count) or \
at --samples.\n\
Writes equity.csv (ranked actions), equity.json (position, seed, samples, why it stopped) and \
run.json (command line, threads, time) into --output. Files already there are never replaced \
without --force; the folder is checked writable before any sample is played, and a failed \
command leaves earlier files as they were.\n\
Example:\n  bailab equity --game tusac --view positions/tusac-w1.toml --samples 20000"
)]
pub(crate) struct Args {
    /// The game and variant.
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// The position file: one seat's view (TOML, docs/equity.md).
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "deal",
        conflicts_with = "deal"
    )]
    pub(crate) view: Option<PathBuf>,
    /// A deal specification (TOML, docs/deals-spec.md): estimate the game's first decision.
    #[arg(long, value_name = "FILE")]
    pub(crate) deal: Option<PathBuf>,
    /// Number of players, with --deal (a position file names its own).
    #[arg(long, default_value_t = 4, requires = "deal")]
    pub(crate) players: usize,
    /// Agent specs that play the rest of the game, one per seat from seat 0, cycled when fewer
    /// (the deciding seat's own agent plays its later decisions); see `bailab agents`.
    #[arg(long = "agents", num_args = 1.., default_value = "greedy")]
    pub(crate) agents: Vec<String>,
    /// The sample budget (deals of the hidden cards; every action is played on each).
    #[arg(long, default_value_t = 20_000)]
    pub(crate) samples: u64,
    /// Samples between checks of the stopping rule.
    #[arg(long, default_value_t = 1_000)]
    pub(crate) check_every: u64,
    /// Master seed.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Worker threads (default: all cores). The result does not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Output folder (default: results/equity-STEM, STEM the view file's name without extension).
    #[arg(long)]
    pub(crate) output: Option<PathBuf>,
    /// Replace the files of an earlier estimate in the output folder (without it, an existing
    /// one is an error).
    #[arg(long)]
    pub(crate) force: bool,
    /// No progress bar and no table (errors still go to stderr).
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// A progress bar on stderr (none when quiet or not on a terminal).
struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    fn new(quiet: bool, len: u64) -> Bar {
        let show = !quiet && std::io::stderr().is_terminal();
        Bar(show.then(|| {
            let b = indicatif::ProgressBar::new(len);
            let style = indicatif::ProgressStyle::with_template(
                "samples {bar:30} {human_pos}/{human_len} eta {eta} (stops early once separated)",
            )
            .expect("valid template");
            b.set_style(style);
            b
        }))
    }
}

impl Progress for Bar {
    fn advance(&self, n: u64) {
        if let Some(b) = &self.0 {
            b.inc(n);
        }
    }
}

/// `bailab equity` for the game it visits.
struct Visit<'a> {
    args: &'a Args,
    variant: &'a str,
    text: &'a str,
    path: &'a str,
    threads: usize,
    output: &'a Path,
}
impl GameVisitor for Visit<'_> {
    type Output = anyhow::Result<()>;
    fn visit<G: GameKind>(self) -> anyhow::Result<()> {
        let a = self.args;
        let (game, source) = source::<G>(a, self.variant, self.text, self.path).map_err(|e| {
            // TOML syntax errors already start with the file and line
            match e.to_string().starts_with(self.path) {
                true => anyhow::anyhow!("{e}"),
                false => anyhow::anyhow!("{}: {e}", self.path),
            }
        })?;
        let players = game.seats();
        anyhow::ensure!(
            a.agents.len() <= players,
            "{} --agents for {players} players: give at most one per seat",
            a.agents.len()
        );
        let agents: Vec<String> = (0..players)
            .map(|s| a.agents[s % a.agents.len()].clone())
            .collect();
        let opts = EquityOptions {
            agents,
            budget: a.samples,
            check_every: a.check_every,
            seed: a.seed,
            threads: self.threads,
            table: (game.variant().to_string(), game.rules()),
        };
        let out = Outputs::prepare(self.output, &OUTPUT_FILES, a.force)?;
        let began = Instant::now();
        let bar = Bar::new(a.quiet, a.samples);
        let report = estimate::<G>(&source, &opts, &bar)?;
        if let Some(b) = &bar.0 {
            b.finish_and_clear();
        }
        let seconds = began.elapsed().as_secs_f64();
        let meta = Meta {
            game: G::INFO.name,
            variant: self.variant,
            path: self.path,
            text: self.text,
            threads: self.threads,
            seconds,
            deal: a.deal.is_some(),
        };
        write(out, &meta, &opts, &report)?;
        if !a.quiet {
            print!("{}", table(&report, G::INFO.payout_unit));
            println!(
                "{:.1} s, {} threads; wrote {}",
                seconds,
                self.threads,
                self.output.join("equity.csv").display()
            );
        }
        Ok(())
    }
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let variant = args.game.variant()?;
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    check_threads(threads)?;
    anyhow::ensure!(args.samples >= 2, "--samples must be at least 2");
    anyhow::ensure!(args.check_every >= 2, "--check-every must be at least 2");
    let file = args
        .view
        .as_ref()
        .or(args.deal.as_ref())
        .expect("clap requires one");
    let path = file.display().to_string();
    let kind = if args.view.is_some() {
        crate::input::POSITION
    } else {
        crate::input::DEAL_SPEC
    };
    let text = crate::input::read_text(file, kind)?;
    let output = args.output.clone().unwrap_or_else(|| {
        let stem = file
            .file_stem()
            .map_or("position".into(), |s| s.to_string_lossy().to_string());
        PathBuf::from("results").join(format!("equity-{stem}"))
    });
    with_game(
        &args.game.game,
        Visit {
            args: &args,
            variant: &variant,
            text: &text,
            path: &path,
            threads,
            output: &output,
        },
    )?
}

/// Why the position file or deal specification of `equity` does not give samples for the game.
#[derive(Debug, thiserror::Error)]
enum SourceError {
    /// The position file does not read, or the game cannot be built as asked.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A player count the game does not seat.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The deal specification does not read.
    #[error(transparent)]
    DealFile(#[from] DealFileError),
    /// The deal specification does not fit the game.
    #[error(transparent)]
    DealSpec(#[from] DealSpecError),
}

/// The game played and where the samples come from: the position file (`--view`) or the deal
/// specification (`--deal`), read and checked for `G`.
fn source<G: GameKind>(
    args: &Args,
    variant: &str,
    text: &str,
    path: &str,
) -> Result<(G, Source<G>), SourceError> {
    if args.view.is_some() {
        let (game, pos) = G::read_position(variant, text, path)?;
        return Ok((game, Source::View(pos)));
    }
    crate::games::kind::check_players(&G::INFO, args.players)?;
    let game = G::build(variant, args.players, &RuleMap::new())?;
    let plan = DealSpec::parse(text, path)?.check(&game)?;
    Ok((game.clone(), Source::Deal { game, plan }))
}

/// What the output files record beside the report.
struct Meta<'a> {
    game: &'a str,
    variant: &'a str,
    path: &'a str,
    text: &'a str,
    threads: usize,
    seconds: f64,
    deal: bool,
}

/// The files `equity` writes into its output folder.
const OUTPUT_FILES: [&str; 3] = ["equity.csv", "equity.json", "run.json"];

/// Writes equity.csv, equity.json (deterministic: the same for any thread count) and run.json
/// (command line, threads, time) through the folder's guard: all of them or none.
fn write(out: Outputs, m: &Meta<'_>, opts: &EquityOptions, r: &EquityReport) -> anyhow::Result<()> {
    let mut json = serde_json::json!({
        "game": m.game,
        "variant": m.variant,
        "position": m.path,
        "position_text": m.text,
        "seat": r.seat,
        "agents": opts.agents,
        "seed": opts.seed,
        "budget": opts.budget,
        "check_every": opts.check_every,
        "samples": r.samples,
        "stopped": r.stop.id(),
        "checkpoints": r.checkpoints,
        "actions": r.rows,
    });
    if m.deal {
        // a deal specification, not a position: say so, and how many deals were skipped
        json["deal_specification"] = true.into();
        json["skipped"] = r.skipped.into();
    }
    let run = serde_json::json!({
        "command": std::env::args().collect::<Vec<_>>().join(" "),
        "threads": m.threads,
        "seconds": m.seconds,
        "samples_per_second": r.samples as f64 / m.seconds,
    });
    let study = CsvStudy {
        game: m.game,
        variant: m.variant,
        players: opts.agents.len(),
        seat: r.seat,
    };
    let json = serde_json::to_string_pretty(&json)?;
    let run = serde_json::to_string_pretty(&run)?;
    let table = csv(&study, &r.rows)?;
    out.write(&[
        (OUTPUT_FILES[0], &table[..]),
        (OUTPUT_FILES[1], json.as_bytes()),
        (OUTPUT_FILES[2], run.as_bytes()),
    ])
}
