//! `bailab learn`: learn a readable rule list for a game (the `rules:PATH` agent), seeded and
//! reproducible, and write it with a report of every rule tried.

use super::args::GameArgs;
use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor};
use crate::learn::{learn, LearnConfig, LearnError, Learned, MAX_LEARN_DEALS, MAX_TEACHER_DEALS};
use crate::sim::files::guard::{split_file, Outputs};
use crate::sim::files::schema::LEARN_REPORT_HEADER;
use std::path::{Path, PathBuf};

/// Arguments of `bailab learn`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Method (imitation proposes, play disposes): the teacher plays \
--teacher-deals games in one seat against greedy; every candidate rule is scored by how many of \
its decisions the list would then match, by the teacher's estimate of the gain of the list's \
choices (ISMCTS's root values), and by precision (newly matched over no longer matched); the \
--pool best by each \
race on the first quarter of --deals training deals in every rotation against three greedy, the \
--shortlist best play them all, paired with the current list on the same deals, and the best is \
kept if its gain is --min-t standard errors above zero. Stops at --max-rules or at a step that \
keeps nothing.\n\
Writes the list (TOML, the header says how it was learned; default \
results/learn-GAME-VARIANT/rules.toml, never a file of agents/) and, beside it, NAME.report.csv \
with every rule tried: its agreement with the teacher and its measured payout gain. The same seed \
and settings write the same files on any thread count. An existing list or report is never \
replaced without --force; the folder is checked writable before any game is played, and a failed \
learn leaves earlier files as they were.\n\
Play the list with the agent `rules:PATH`, e.g. agents = [\"rules:agents/tusac-classic.toml\", \
\"greedy\", \"greedy\", \"greedy\"]. docs/rules.md describes the file."
)]
pub(crate) struct Args {
    /// The game and variant.
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// Seats at the table (default: the most the game seats, up to 4).
    #[arg(long)]
    pub(crate) players: Option<usize>,
    /// The master seed of every game played (keep it apart from evaluation seeds).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// The agent imitated (by default ISMCTS with the unlimited tree the committed lists of
    /// agents/ were learned with).
    #[arg(long, default_value = "ismcts:iters=1000,depth=off")]
    pub(crate) teacher: String,
    /// Games the teacher plays.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(0..=MAX_TEACHER_DEALS))]
    pub(crate) teacher_deals: u64,
    /// Deals (each in every rotation) on which each proposed rule plays.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(0..=MAX_LEARN_DEALS))]
    pub(crate) deals: u64,
    /// The most rules in the list (at most 30 keeps it readable).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub(crate) max_rules: u16,
    /// Rules proposed per step: this many by teacher decisions matched, as many by the
    /// teacher's values, and as many by precision (decisions newly matched over decisions no
    /// longer matched).
    #[arg(long, default_value_t = 96, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub(crate) pool: u16,
    /// Proposals that go on to play every training deal after the first quarter.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u16).range(1..=100))]
    pub(crate) shortlist: u16,
    /// The paired gain a rule needs, in standard errors above zero.
    #[arg(long, default_value_t = 1.5)]
    pub(crate) min_t: f64,
    /// A folder that keeps the teacher's decisions; a later run with the same game, table,
    /// seed, teacher and --teacher-deals reads them instead of playing the teacher again.
    #[arg(long, value_name = "DIR")]
    pub(crate) teacher_cache: Option<PathBuf>,
    /// Where to write the list (default: results/learn-GAME-VARIANT/rules.toml); the report
    /// goes beside it.
    #[arg(long)]
    pub(crate) output: Option<PathBuf>,
    /// Replace the list and the report if they exist (without it, an existing one is an error).
    #[arg(long)]
    pub(crate) force: bool,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// No progress bars, no closing line and no printed list (errors still go to stderr).
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// The fewest training deals: the race plays their first quarter, and an interval needs two.
pub(crate) const MIN_DEALS: u64 = 8;

/// Runs `bailab learn`.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let variant = args.game.variant()?;
    let info = args.game.info();
    let players = args.players.unwrap_or(info.seats.1.min(4));
    crate::games::kind::check_players(info, players)?;
    check_budgets(&args)?;
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| default_output(info.name, &variant));
    let (_, report) = split_file(&report_path(&output))?;
    let guard = Outputs::for_file(&output, &[report.as_str()], args.force)?;
    let cfg = LearnConfig {
        variant,
        players,
        seed: args.seed,
        teacher: args.teacher.clone(),
        teacher_deals: args.teacher_deals,
        deals: args.deals,
        max_rules: args.max_rules.into(),
        pool: args.pool.into(),
        shortlist: args.shortlist.into(),
        min_t: args.min_t,
        teacher_cache: args.teacher_cache.clone(),
    };
    let progress = super::progress::PhaseBars::new(args.quiet);
    let start = std::time::Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let learned = pool.install(|| with_game(&args.game.game, Learn(&cfg, &progress)))??;
    progress.finish();
    write_outputs(guard, &output, &command_line(&args, &cfg), &cfg, &learned)?;
    if !args.quiet {
        eprintln!(
            "learned {} rule(s) in {:.0} s; wrote {} and {}",
            learned.list.rules.len(),
            start.elapsed().as_secs_f64(),
            output.display(),
            report_path(&output).display()
        );
        print!("{}", learned.list);
        println!(
            "versus greedy on the training deals: {} per game",
            learned.vs_greedy
        );
    }
    Ok(())
}

/// Refuses budgets that cannot learn anything: no teacher games, too few training deals, a
/// bad `--min-t` or thread count.
fn check_budgets(args: &Args) -> anyhow::Result<()> {
    if args.teacher_deals == 0 {
        anyhow::bail!(
            "--teacher-deals 0: the teacher plays no game, so no rule can be proposed; give at \
             least 1 (default 2000)"
        );
    }
    if args.deals < MIN_DEALS {
        anyhow::bail!(
            "--deals {}: too few training deals to measure a rule's gain (the race plays the \
             first quarter, and an interval needs 2 deals); give at least {MIN_DEALS} (default \
             4000)",
            args.deals
        );
    }
    if !(args.min_t.is_finite() && args.min_t >= 0.0) {
        anyhow::bail!("--min-t {}: must be a number ≥ 0", args.min_t);
    }
    if let Some(t) = args.threads {
        crate::sim::run::threads::check_threads(t)?;
    }
    Ok(())
}

/// The default list file: `results/learn-GAME-VARIANT/rules.toml`, beside its report and never
/// one of the shipped agent files.
pub(crate) fn default_output(game: &str, variant: &str) -> PathBuf {
    Path::new("results")
        .join(format!("learn-{game}-{variant}"))
        .join("rules.toml")
}

struct Learn<'a>(&'a LearnConfig, &'a super::progress::PhaseBars);

impl GameVisitor for Learn<'_> {
    type Output = Result<Learned, LearnError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        learn::<G>(self.0, self.1)
    }
}

/// The command that learns this list again (without the output path).
fn command_line(args: &Args, cfg: &LearnConfig) -> String {
    format!(
        "bailab learn --game {} --variant {} --players {} --seed {} --teacher {} \
         --teacher-deals {} --deals {} --max-rules {} --pool {} --shortlist {} --min-t {}",
        args.game.game,
        cfg.variant,
        cfg.players,
        cfg.seed,
        cfg.teacher,
        cfg.teacher_deals,
        cfg.deals,
        cfg.max_rules,
        cfg.pool,
        cfg.shortlist,
        cfg.min_t
    )
}

/// The report beside a list: `NAME.report.csv`.
pub(crate) fn report_path(list: &Path) -> PathBuf {
    list.with_extension("report.csv")
}

/// Writes the list and its report (both or neither).
fn write_outputs(
    guard: Outputs,
    path: &Path,
    command: &str,
    cfg: &LearnConfig,
    l: &Learned,
) -> anyhow::Result<()> {
    let text = l.list.to_toml(&header(command, cfg, l), &rule_notes(l));
    let csv = report_csv(l)?;
    let (_, name) = split_file(path)?;
    let (_, report) = split_file(&report_path(path))?;
    guard.write(&[
        (name.as_str(), text.as_bytes()),
        (report.as_str(), csv.as_bytes()),
    ])
}

fn header(command: &str, cfg: &LearnConfig, l: &Learned) -> Vec<String> {
    vec![
        format!("Rules for {} {}, learned by:", l.list.game, l.list.variant),
        format!("  {command}"),
        String::new(),
        "Read top to bottom: each rule narrows the candidate actions (prefer: keep those meeting"
            .into(),
        "it, if any; avoid: drop those meeting it, unless all do; lowest/highest: keep the least/"
            .into(),
        "greatest value). Then the candidate greedy would take first (greedy_rank).".into(),
        "Features: `bailab agents --features GAME` and docs/rules.md.".into(),
        String::new(),
        format!(
            "Teacher {}: {} decisions, {:.1}% of them greedy's choice.",
            cfg.teacher,
            l.decisions,
            100.0 * l.teacher_is_greedy as f64 / l.decisions.max(1) as f64
        ),
        format!(
            "Against three greedy on the {} training deals (every rotation): {} per game over greedy.",
            cfg.deals, l.vs_greedy
        ),
        "Each rule's note gives its gain over the rules above it on those deals.".into(),
    ]
}

fn rule_notes(l: &Learned) -> Vec<Vec<String>> {
    l.trials
        .iter()
        .filter(|t| t.accepted)
        .map(|t| {
            vec![format!(
                "{}. gain {} per game; matches the teacher {:.1}% -> {:.1}%",
                t.step + 1,
                t.gain,
                100.0 * t.agree_before,
                100.0 * t.agree_after
            )]
        })
        .collect()
}

fn report_csv(l: &Learned) -> anyhow::Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(LEARN_REPORT_HEADER)?;
    for t in &l.trials {
        w.write_record([
            (t.step + 1).to_string(),
            t.rule.clone(),
            format!("{:.6}", t.agree_before),
            format!("{:.6}", t.agree_after),
            t.deals.to_string(),
            format!("{:.6}", t.gain.mean),
            format!("{:.6}", t.gain.lo),
            format!("{:.6}", t.gain.hi),
            t.accepted.to_string(),
        ])?;
    }
    Ok(String::from_utf8(w.into_inner()?)?)
}
