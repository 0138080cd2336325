//! `bailab deals`: hand-value distributions of dealt games, or of a run's played games
//! (`docs/deals.md`).

use crate::games::kind::{check_players, check_variant, GameKind};
use crate::games::{game_info, with_game, GameVisitor};
use crate::sim::files::guard::Outputs;
use crate::study::deals::{
    applicable, count_deals, distributions, summary, write_outputs, DealPlan, MAX_DEALS,
    OUTPUT_FILES,
};
use crate::study::played::{games_file, read_games, run_game};
use crate::text::thousands;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `bailab deals`.
#[derive(clap::Args, Debug)]
#[command(
    about = "Deal N games and count what the hands hold (trash, sets, natural wins, bombs...), \
             or read a run's games.csv",
    after_help = "Writes distributions.csv (count and share of each value, Wilson 95% interval), \
means.csv (mean with its 95% interval), meta.json (the command, seed, deals, measures) and \
run.json (threads, seconds, deals/s) into --output. Files already there are never replaced \
without --force; the folder is checked writable before any deal is counted, and a failed command \
leaves earlier files as they were.\n\
Deal i is the deal of `bailab play --seed S --index i` and of deal i of a run with seed S.\n\
Examples:\n  bailab deals --game tusac --deals 1000000\n  \
bailab deals --game tienlen --deals 10000000 --seed 1 --output results/deals-tienlen-south\n  \
bailab deals --games results/chan-ismcts-vs-greedy"
)]
pub(crate) struct Args {
    /// The game (default: the first of the registry).
    #[arg(long, value_parser = super::args::game_names(), conflicts_with = "games")]
    pub(crate) game: Option<String>,
    /// The variant (default: the game's first).
    #[arg(long, conflicts_with = "games")]
    pub(crate) variant: Option<String>,
    /// Number of players.
    #[arg(long, default_value_t = 4, conflicts_with = "games")]
    pub(crate) players: usize,
    /// Number of deals (deal indices 0..N).
    #[arg(long, default_value_t = 100_000, conflicts_with = "games")]
    #[arg(value_parser = clap::value_parser!(u64).range(0..=MAX_DEALS))]
    pub(crate) deals: u64,
    /// Master seed.
    #[arg(long, default_value_t = 0, conflicts_with = "games")]
    pub(crate) seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it. With --games it is
    /// checked and recorded (a games.csv is read on one thread).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// A run's games.csv, or its folder: distributions of winning hand values and payouts per
    /// agent instead of dealt hands.
    #[arg(long)]
    pub(crate) games: Option<PathBuf>,
    /// Output folder (default: results/deals-GAME-VARIANT, or for --games
    /// results/deals-games-RUNFOLDER).
    #[arg(long)]
    pub(crate) output: Option<PathBuf>,
    /// Replace the files of an earlier count in the output folder (without it, an existing
    /// one is an error).
    #[arg(long)]
    pub(crate) force: bool,
    /// Hide the progress bar and the summary (errors still go to stderr).
    #[arg(short, long)]
    pub(crate) quiet: bool,
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    match &args.games {
        Some(path) => from_games(path, &args),
        None => from_deals(&args),
    }
}

/// The command line as one shell line (for `meta.json` and `run.json`).
fn command_line() -> String {
    std::env::args()
        .map(|a| {
            if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c))
            {
                a
            } else {
                format!("'{}'", a.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn from_deals(args: &Args) -> anyhow::Result<()> {
    let name = args
        .game
        .clone()
        .unwrap_or_else(|| crate::games::GAMES[0].name.to_string());
    let info = game_info(&name)?;
    let variant = args
        .variant
        .clone()
        .unwrap_or_else(|| info.variants[0].to_string());
    check_variant(info, &variant)?;
    check_players(info, args.players)?;
    if args.deals == 0 {
        anyhow::bail!("--deals 0: give at least 1 deal");
    }
    let threads = threads(args)?;
    let plan = DealPlan {
        seed: args.seed,
        deals: args.deals,
        threads,
        quiet: args.quiet,
    };
    let dir = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("results/deals-{name}-{variant}")));
    let visit = Visit {
        variant: &variant,
        players: args.players,
        plan: &plan,
        dir: &dir,
        force: args.force,
        quiet: args.quiet,
    };
    with_game(&name, visit)?
}

struct Visit<'a> {
    variant: &'a str,
    players: usize,
    plan: &'a DealPlan,
    dir: &'a Path,
    force: bool,
    quiet: bool,
}

impl GameVisitor for Visit<'_> {
    type Output = anyhow::Result<()>;
    fn visit<G: GameKind>(self) -> anyhow::Result<()> {
        let rules = crate::game::RuleMap::new();
        let game = G::build(self.variant, self.players, &rules)?;
        // the game is checked first: a bad player count is named before the output folder
        let out = Outputs::prepare(self.dir, &OUTPUT_FILES, self.force)?;
        let began = Instant::now();
        let counts = count_deals(&game, self.plan)?;
        let elapsed = began.elapsed().as_secs_f64();
        let dists = distributions(G::DEAL_MEASURES, &counts);
        let rate = counts.deals as f64 / elapsed.max(1e-9);
        let meta = serde_json::json!({
            "command": command_line(),
            "game": G::INFO.name,
            "variant": self.variant,
            "players": self.players,
            "seed": self.plan.seed,
            "deals": counts.deals,
            "version": env!("CARGO_PKG_VERSION"),
            "measures": applicable(G::DEAL_MEASURES, &counts).map(|(m, _)| serde_json::json!({
                "name": m.name, "per": m.per.name(), "doc": m.doc,
            })).collect::<Vec<_>>(),
        });
        let run = serde_json::json!({
            "command": command_line(),
            "threads": self.plan.threads,
            "elapsed_s": elapsed,
            "deals_per_s": rate,
        });
        let dir = out.dir().to_path_buf();
        write_outputs(out, G::INFO.name, self.variant, &dists, &meta, &run)?;
        if !self.quiet {
            let head = format!(
                "{} {}, {} players: {} deals (seed {}) in {:.1} s, {} deals/s on {} thread(s)\n\n",
                G::INFO.title,
                self.variant,
                self.players,
                thousands(counts.deals),
                self.plan.seed,
                elapsed,
                thousands(rate.round() as u64),
                self.plan.threads
            );
            show(&head, &dists, &dir);
        }
        Ok(())
    }
}

/// Prints the summary; a closed standard output (`| head`) is not an error, the files are
/// already written.
fn show(head: &str, dists: &[crate::study::deals::Distribution], dir: &Path) {
    use std::io::Write;
    let text = format!("{head}{}\nwritten to {}\n", summary(dists), dir.display());
    let _ = std::io::stdout().write_all(text.as_bytes());
}

/// The thread count asked for (checked), or the number of cores.
fn threads(args: &Args) -> anyhow::Result<usize> {
    match args.threads {
        Some(t) => {
            crate::sim::run::threads::check_threads(t)?;
            Ok(t)
        }
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

fn from_games(path: &Path, args: &Args) -> anyhow::Result<()> {
    let threads = threads(args)?;
    let file = games_file(path)?;
    let folder = file
        .parent()
        .and_then(|p| p.file_name())
        .map_or("run".to_string(), |n| n.to_string_lossy().to_string());
    let dir = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("results/deals-games-{folder}")));
    let out = Outputs::prepare(&dir, &OUTPUT_FILES, args.force)?;
    let began = Instant::now();
    let dists = read_games(&file)?;
    let run = run_game(&file);
    let meta = serde_json::json!({
        "command": command_line(),
        "games_csv": file.display().to_string(),
        "game": run.game,
        "variant": run.variant,
        "version": env!("CARGO_PKG_VERSION"),
    });
    let timing = serde_json::json!({
        "command": command_line(),
        "threads": threads,
        "elapsed_s": began.elapsed().as_secs_f64(),
    });
    write_outputs(out, &run.game, &run.variant, &dists, &meta, &timing)?;
    if !args.quiet {
        let head = format!("{} ({} {})\n\n", file.display(), run.game, run.variant);
        show(&head, &dists, &dir);
    }
    Ok(())
}
