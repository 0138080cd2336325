//! `bailab tournament [FILE.toml] [flags]`: compare many agents of one game in tables the runner
//! plays, and write a cross-table, the pairs and ratings; `--resume DIR` goes on with one that
//! was stopped; `bailab merge` combines its shards (`crate::sim::tournament::merge`).

use crate::sim::run::checkpoint::Shard;
use crate::sim::run::threads::check_threads;
use crate::sim::tournament::files::read_tournament_file;
use crate::sim::tournament::play::{run_tournament, TournamentOptions};
use crate::sim::tournament::spec::{SeatingScheme, Tournament, ZERO_SEATS};
use crate::sim::tournament::standings::Standings;
use anyhow::bail;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `bailab tournament`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "A tournament is a TOML file (docs/tournament.md) or flags; flags \
override the file's keys. Example:\n  bailab tournament --game tienlen --agent random --agent \
first --agent greedy --deals 200\n\n\
Seating: `pairs` (default) plays every pair of agents head to head, the two alternating round \
the table (A B A B) and every deal played in every rotation; `subsets` seats every set of as many \
agents as seats. Every table plays the same deals (the seed). Each table is a run of its own in \
OUTPUT/tables/NN (summary.csv, tally.json …); the tournament writes crosstable.csv (row agent \
minus column agent: mean paired payout difference per game), pairs.csv (the same with deals, games \
and 95% intervals), ratings.csv (payout per game above the anchor, fitted to all pairs, with 95% \
intervals) and tournament.json.\n\n\
Ctrl-C or the time budget stops it with a checkpoint: the files then hold what was played \
(status partial) and `bailab tournament --resume DIR` goes on. `--shard K/N` plays part K of \
every table's deals (into OUTPUT/shard-K-of-N); `bailab merge` of all N folders writes what one \
whole run writes."
)]
pub(crate) struct Args {
    /// The tournament file (TOML).
    #[arg(conflicts_with = "resume")]
    pub(crate) file: Option<String>,
    /// The game (`bailab agents` lists them).
    #[arg(long)]
    pub(crate) game: Option<String>,
    /// The variant (default: the game's first).
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// Seats per table (default 4, or fewer if the variant seats fewer).
    #[arg(long)]
    pub(crate) players: Option<usize>,
    /// An agent spec; give it once per agent (replaces the file's list).
    #[arg(long = "agent", value_name = "SPEC")]
    pub(crate) agents: Vec<String>,
    /// Deals per table (default 100 without a file).
    #[arg(long)]
    pub(crate) deals: Option<u64>,
    /// The master seed.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// How agents are seated: pairs or subsets.
    #[arg(long, value_parser = ["pairs", "subsets"])]
    pub(crate) seating: Option<String>,
    /// The agent rated 0 (default: the first).
    #[arg(long)]
    pub(crate) anchor: Option<String>,
    /// Stop after this many minutes (a checkpoint is kept; --resume goes on).
    #[arg(long)]
    pub(crate) budget_minutes: Option<f64>,
    /// A name (default output folder results/tournament-NAME).
    #[arg(long)]
    pub(crate) name: Option<String>,
    /// Output folder, relative to the current folder (default: the file's `output`).
    #[arg(long)]
    pub(crate) output: Option<PathBuf>,
    /// Worker threads per table (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Play only part K of N of every table's deals (e.g. 0/3); combine with `bailab merge`.
    #[arg(long)]
    pub(crate) shard: Option<String>,
    /// Go on with the stopped tournament in DIR.
    #[arg(long, value_name = "DIR")]
    pub(crate) resume: Option<PathBuf>,
    /// Replace the tournament in the output folder (its tables are played again), or result
    /// files bailab did not write there (no tournament.json).
    #[arg(long, conflicts_with = "resume")]
    pub(crate) force: bool,
    /// No line per table and no tables at the end.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Seconds between checkpoints (by default 5, the first after 1 second so that a short run
    /// leaves something to resume; given, the first comes after as long as the others).
    #[arg(long, hide = true)]
    pub(crate) checkpoint_secs: Option<f64>,
}

/// The tournament of a file and the flags.
fn tournament_of(args: &Args) -> anyhow::Result<Tournament> {
    let mut t = match &args.file {
        Some(f) => Tournament::load(f)?,
        None => {
            let Some(game) = args.game.clone() else {
                bail!("give a tournament file or --game and two or more --agent");
            };
            Tournament {
                name: "tournament".into(),
                game,
                variant: String::new(),
                players: 0,
                rules: Default::default(),
                agents: Vec::new(),
                deals: 100,
                seed: 0,
                seating: SeatingScheme::Pairs,
                anchor: None,
                output: None,
                sprt: None,
                estimator: Default::default(),
                value: None,
                budget_minutes: None,
                project: None,
            }
        }
    };
    let origin = args
        .file
        .clone()
        .unwrap_or_else(|| "the command line".into());
    if args.file.is_some() && args.game.as_ref().is_some_and(|g| *g != t.game) {
        bail!(
            "--game {}: the file is a {} tournament",
            args.game.as_deref().unwrap_or(""),
            t.game
        );
    }
    if let Some(v) = &args.variant {
        t.variant = v.clone();
    }
    if let Some(p) = args.players {
        if p == 0 {
            bail!("--players: {ZERO_SEATS}");
        }
        t.players = p;
    }
    if !args.agents.is_empty() {
        t.agents = args.agents.clone();
    }
    t.deals = args.deals.unwrap_or(t.deals);
    t.seed = args.seed.unwrap_or(t.seed);
    if let Some(s) = &args.seating {
        t.seating = if s == "subsets" {
            SeatingScheme::Subsets
        } else {
            SeatingScheme::Pairs
        };
    }
    t.anchor = args.anchor.clone().or(t.anchor);
    t.budget_minutes = args.budget_minutes.or(t.budget_minutes);
    t.name = args.name.clone().unwrap_or(t.name);
    t.fill_defaults()?;
    t.check().map_err(|e| anyhow::anyhow!("{origin}: {e}"))?;
    Ok(t)
}

/// The tournament, its folder and whether it goes on with one begun there: from `--resume DIR`,
/// or from the file and flags (a shard's folder is `OUTPUT/shard-K-of-N`).
fn plan(args: &Args, shard: Option<Shard>) -> anyhow::Result<(Tournament, PathBuf, Option<Shard>)> {
    if let Some(dir) = &args.resume {
        let Some(file) = read_tournament_file(dir)? else {
            bail!(
                "{}: no tournament to resume here (no tournament.json)",
                dir.display()
            );
        };
        if shard.is_some() && file.shard != shard {
            bail!("--shard: the folder holds another shard");
        }
        let t = Tournament {
            budget_minutes: args.budget_minutes,
            ..file.tournament
        };
        return Ok((t, dir.clone(), file.shard));
    }
    let t = tournament_of(args)?;
    let base = args
        .output
        .clone()
        .unwrap_or_else(|| t.resolve_output(args.file.as_deref().map(Path::new)));
    let dir = match shard {
        Some(s) => base.join(format!("shard-{}-of-{}", s.k, s.n)),
        None => base,
    };
    Ok((t, dir, shard))
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    if !args
        .checkpoint_secs
        .is_none_or(|secs| secs >= 0.0 && secs.is_finite())
    {
        bail!("--checkpoint-secs must be a number of seconds ≥ 0");
    }
    if let Some(t) = args.threads {
        check_threads(t)?;
    }
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let (t, dir, shard) = plan(&args, shard)?;
    if t.sprt.is_some() && shard.is_some() {
        bail!(
            "--shard: this tournament stops its pairs early ([sprt]), which decides on deals in \
             order; run it whole"
        );
    }
    let opts = TournamentOptions {
        threads: args.threads,
        shard,
        resume: args.resume.is_some(),
        force: args.force,
        quiet: args.quiet,
        stop: Some(super::run::stop_on_ctrl_c()),
        checkpoint_every: args.checkpoint_secs.map(Duration::from_secs_f64),
    };
    let report = run_tournament(&t, &dir, &opts)?;
    if !args.quiet {
        print!("{}", console_tables(&t, &report.standings));
        println!(
            "results in {} ({:.1} s this session)",
            dir.display(),
            report.elapsed
        );
    }
    if !report.complete {
        let why = if report.budget_spent {
            "the time budget is spent"
        } else {
            "stopped"
        };
        eprintln!(
            "{why}: the files hold what was played (status partial). Go on with:\n  bailab \
             tournament --resume {}",
            dir.display()
        );
        if !report.budget_spent {
            std::process::exit(130);
        }
    }
    Ok(())
}

/// The ratings and the cross-table as the console shows them.
pub(crate) fn console_tables(t: &Tournament, s: &Standings) -> String {
    let unit = crate::sim::files::csv::csv_payout_unit(&t.game);
    let width = t
        .agents
        .iter()
        .map(|a| a.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = format!(
        "{} {} at {} seats, {} deals per table (seed {}); ratings in {unit} per game above {}:\n",
        t.game,
        t.variant,
        t.players,
        t.deals,
        t.seed,
        t.agents[t.anchor_index()]
    );
    for (rank, i) in s.order().into_iter().enumerate() {
        let r = s.ratings[i];
        out += &format!(
            "{:>3}. {:<width$}  {:>+9.3}  [{:+.3}, {:+.3}]  {} deals\n",
            rank + 1,
            t.agents[i],
            r.rating,
            r.lo,
            r.hi,
            s.deals[i]
        );
    }
    out += "cross-table (row minus column, per game):\n";
    let k = t.agents.len();
    out += &format!("{:<width$}", "");
    for j in 0..k {
        out += &format!(" {:>8}", j + 1);
    }
    out += "\n";
    for i in 0..k {
        out += &format!("{:<width$}", format!("{}. {}", i + 1, t.agents[i]));
        for j in 0..k {
            let ((m, _, _), p) = s.versus(i, j);
            let cell = if i == j || p.deals == 0 {
                "·".to_string()
            } else {
                format!("{m:+.3}")
            };
            out += &format!(" {cell:>8}");
        }
        out += "\n";
    }
    out
}
