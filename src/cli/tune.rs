//! `bailab tune`: tune a game's `greedy` weights against a fixed opponent field, with common
//! random numbers and racing, and write the best as a loadable agent with a report.

use super::args::GameArgs;
use crate::agent::greedy::{Weight, Weights};
use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor};
use crate::sim::files::guard::{split_file, Outputs};
use crate::sim::files::schema::TUNE_REPORT_HEADER;
use crate::study::tune::{tune, TuneConfig, TuneError, Tuned, MAX_CANDIDATES};
use std::path::{Path, PathBuf};

/// Arguments of `bailab tune`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Method: candidate 0 is greedy's default weights (the reference), then \
--start and each --include; --candidates more are sampled from the seed, each changing one to \
three weights of the start. Every candidate plays one seat against --opponents on the same \
training deals (deal 2^40+i of --seed), each deal in every rotation, and is paired with the \
default on those deals (common random numbers). Racing by successive halving: round 1 plays \
--deals deals, each later round doubles them; after each round the better half of the others by \
paired mean gain is kept, and one whose 95% interval lies wholly below the best one's is \
dropped; the default stays until one other is left, and the better of that pair is written.\n\
Writes the weights (TOML, its header says how they were tuned; default \
results/tune-GAME-VARIANT/greedy.toml, never a file of agents/) and, beside it, NAME.report.csv: \
one row per candidate per round (candidate,params,round,deals,mean_diff,mean_diff_lo95,\
mean_diff_hi95,status). Same seed and settings, same files, on any thread count. An existing \
weights file or report is never replaced without --force; the folder is checked writable before \
any game is played, and a failed tune leaves earlier files as they were.\n\
Play the result with `greedy:PATH`, e.g. agents = [\"greedy:agents/tusac-classic-greedy.toml\", \
\"greedy\", \"greedy\", \"greedy\"]; judge it on deals it was not tuned on (another seed). \
docs/tune.md lists each game's weights."
)]
pub(crate) struct Args {
    /// The game and variant.
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// The opponents' agent spec: one for every other seat, or one per other seat (repeat the
    /// option).
    #[arg(long, default_value = "greedy")]
    pub(crate) opponents: Vec<String>,
    /// Candidates sampled besides the default weights.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(0..=MAX_CANDIDATES as u64))]
    pub(crate) candidates: u64,
    /// Deals of the first round (each in every rotation); each later round doubles them.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(2..=100_000_000))]
    pub(crate) deals: u64,
    /// The master seed of the training deals and of the sampling (keep it apart from the
    /// seeds of evaluation runs).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// A candidate to race besides the sampled ones: a weight file or `name=value,...` (the
    /// other weights at their defaults). Repeat for more.
    #[arg(long, value_name = "WEIGHTS")]
    pub(crate) include: Vec<String>,
    /// Centre the search here instead of at the defaults (a weight file, e.g. an earlier
    /// tune's, or `name=value,...`); the default weights stay the reference.
    #[arg(long, value_name = "WEIGHTS")]
    pub(crate) start: Option<String>,
    /// Where to write the weights (default: results/tune-GAME-VARIANT/greedy.toml); the report
    /// goes beside it.
    #[arg(long)]
    pub(crate) output: Option<PathBuf>,
    /// Replace the weights file and the report if they exist (without it, an existing one is an
    /// error).
    #[arg(long)]
    pub(crate) force: bool,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// No progress bar, no closing line and no ranking (errors still go to stderr).
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// Runs `bailab tune`.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let variant = args.game.variant()?;
    let info = args.game.info();
    let players = info.seats.1.min(4);
    if let Some(t) = args.threads {
        crate::sim::run::threads::check_threads(t)?;
    }
    let opponents = opponents(&args, players)?;
    if args.candidates == 0 && args.include.is_empty() && args.start.is_none() {
        anyhow::bail!(
            "--candidates 0 with no --include or --start: nothing to race against the default \
             weights; give --candidates N (N ≥ 1), --include WEIGHTS or --start WEIGHTS"
        );
    }
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| default_output(info.name, &variant));
    let (_, report) = split_file(&report_path(&output))?;
    let guard = Outputs::for_file(&output, &[report.as_str()], args.force)?;
    let cfg = TuneConfig {
        variant,
        players,
        opponents,
        candidates: args.candidates as usize,
        deals: args.deals,
        seed: args.seed,
        include: args.include.clone(),
        start: args.start.clone(),
    };
    let progress = super::progress::PhaseBars::new(args.quiet);
    let start = std::time::Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let (tuned, table) = pool.install(|| with_game(&args.game.game, Tune(&cfg, &progress)))??;
    progress.finish();
    let command = command_line(&args, &cfg);
    write_outputs(guard, &output, &command, &cfg, info.name, table, &tuned)?;
    if !args.quiet {
        eprintln!(
            "tuned {} candidate(s) in {:.0} s; wrote {} and {}",
            tuned.candidates.len(),
            start.elapsed().as_secs_f64(),
            output.display(),
            report_path(&output).display()
        );
        print!("{}", ranking(table, &tuned));
    }
    Ok(())
}

/// The opponents' specs, one per other seat: `--opponents` given once (for every other seat)
/// or once per other seat.
fn opponents(args: &Args, players: usize) -> anyhow::Result<Vec<String>> {
    match args.opponents.len() {
        1 => Ok(vec![args.opponents[0].clone(); players - 1]),
        n if n == players - 1 => Ok(args.opponents.clone()),
        n => anyhow::bail!(
            "--opponents given {n} times: give one spec (for every other seat) or {} (one per \
             other seat)",
            players - 1
        ),
    }
}

/// The default weights file: `results/tune-GAME-VARIANT/greedy.toml`, beside its report and
/// never one of the shipped agent files.
pub(crate) fn default_output(game: &str, variant: &str) -> PathBuf {
    Path::new("results")
        .join(format!("tune-{game}-{variant}"))
        .join("greedy.toml")
}

struct Tune<'a>(&'a TuneConfig, &'a super::progress::PhaseBars);

impl GameVisitor for Tune<'_> {
    type Output = Result<(Tuned, &'static [Weight]), TuneError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        Ok((tune::<G>(self.0, self.1)?, G::GREEDY_WEIGHTS))
    }
}

/// The command that tunes these weights again (without the output path).
fn command_line(args: &Args, cfg: &TuneConfig) -> String {
    let mut opponents = String::new();
    for o in &args.opponents {
        opponents += &format!(" --opponents {o}");
    }
    for i in &args.include {
        opponents += &format!(" --include {i}");
    }
    if let Some(s) = &args.start {
        opponents += &format!(" --start {s}");
    }
    format!(
        "bailab tune --game {} --variant {}{opponents} --candidates {} --deals {} --seed {}",
        args.game.game, cfg.variant, cfg.candidates, cfg.deals, cfg.seed
    )
}

/// The report beside the weights: `NAME.report.csv`.
pub(crate) fn report_path(weights: &Path) -> PathBuf {
    weights.with_extension("report.csv")
}

/// The weights that differ from the defaults, `name=value,...` (`default` if none).
fn changed(table: &[Weight], w: &Weights) -> String {
    let parts: Vec<String> = table
        .iter()
        .zip(w.values())
        .filter(|(t, v)| t.default != **v)
        .map(|(t, v)| format!("{}={v}", t.name))
        .collect();
    if parts.is_empty() {
        "default".into()
    } else {
        parts.join(",")
    }
}

/// Writes the weights and the report (both or neither).
fn write_outputs(
    guard: Outputs,
    path: &Path,
    command: &str,
    cfg: &TuneConfig,
    game: &str,
    table: &'static [Weight],
    t: &Tuned,
) -> anyhow::Result<()> {
    let best = &t.candidates[t.best];
    let header = vec![
        format!("Greedy weights for {game} {}, tuned by:", cfg.variant),
        format!("  {command}"),
        String::new(),
        format!(
            "Random search: {} candidates besides the default (centred on {}), raced by \
             successive halving on common random",
            t.candidates.len() - 1,
            cfg.start.as_deref().unwrap_or("the defaults")
        ),
        format!(
            "numbers: training deals 2^40+i of seed {}, every rotation, one seat against {}.",
            cfg.seed,
            cfg.opponents.join(", ")
        ),
        format!(
            "Best: candidate {} ({}), {} per game over default greedy on {} deals.",
            t.best,
            changed(table, best),
            t.gain,
            t.deals
        ),
        format!(
            "Play it as the agent `greedy:{}`; docs/tune.md describes the weights.",
            path.display()
        ),
    ];
    let text = best.to_toml(table, &header, game, &cfg.variant);
    let (_, name) = split_file(path)?;
    let (_, report) = split_file(&report_path(path))?;
    let csv = report_csv(table, t)?;
    guard.write(&[
        (name.as_str(), text.as_bytes()),
        (report.as_str(), csv.as_bytes()),
    ])
}

/// `report.csv`: one row per candidate per round.
fn report_csv(table: &[Weight], t: &Tuned) -> anyhow::Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(TUNE_REPORT_HEADER)?;
    for r in &t.rows {
        w.write_record([
            r.candidate.to_string(),
            changed(table, &t.candidates[r.candidate]),
            r.round.to_string(),
            r.deals.to_string(),
            format!("{:.6}", r.gain.mean),
            format!("{:.6}", r.gain.lo),
            format!("{:.6}", r.gain.hi),
            r.status.as_str().to_string(),
        ])?;
    }
    Ok(String::from_utf8(w.into_inner()?)?)
}

/// The ranking: each candidate by its last round (later rounds first), then its gain.
fn ranking(table: &[Weight], t: &Tuned) -> String {
    let mut last: Vec<&crate::study::tune::RoundRow> = Vec::new();
    for r in t.rows.iter().rev() {
        if !last.iter().any(|x| x.candidate == r.candidate) {
            last.push(r);
        }
    }
    last.sort_by(|a, b| {
        b.round
            .cmp(&a.round)
            .then(b.gain.mean.total_cmp(&a.gain.mean))
            .then(a.candidate.cmp(&b.candidate))
    });
    let mut out = String::from(
        "rank  cand  round    deals  gain per game over default     status   weights\n",
    );
    for (i, r) in last.iter().enumerate() {
        out += &format!(
            "{:>4}  {:>4}  {:>5}  {:>7}  {:<29}  {:<7}  {}\n",
            i + 1,
            r.candidate,
            r.round,
            r.deals,
            r.gain.to_string(),
            r.status.as_str(),
            changed(table, &t.candidates[r.candidate])
        );
    }
    out
}
