//! `bailab soak`: many seeded games per table (game, variant, seat count) with every contract
//! checked on every game (`docs/soak.md`); prints and writes, per table, the games played, the
//! faults found and the time taken, and exits non-zero if any game broke a contract.

use crate::games::kind::{GameError, GameInfo, GameKind};
use crate::games::{game_info, with_game, GameVisitor, GAMES};
use crate::sim::files::soak_csv::{write_soak_csv, SoakRow};
use crate::sim::run::threads::check_threads;
use crate::sim::soak::{rule_sets, soak, SoakError, SoakOptions, SoakReport, MAX_GAMES};
use crate::text::thousands;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `bailab soak`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "TABLE is GAME, GAME/VARIANT or GAME/VARIANT/PLAYERS, where PLAYERS is \
a number or a range such as 2-5; a table without a variant or players soaks every variant or \
seat count. Without tables: every game, variant and seat count.\n\n\
Deal d plays rule set d mod R (the variant's own, then those of the game's samples the table accepts) and \
seats the agents in every mix. Checked on every game: cards conserved at every step, an outcome \
only at the end, an end within 10,000 decisions, zero-sum payouts, and no panic; on every \
--deep-every-th game also: a legal action at every decision, determinizations consistent with \
the state, and a record that `bailab check` accepts.\n\n\
Example (the figures of docs/soak.md): scripts/soak.sh"
)]
pub(crate) struct Args {
    /// Tables to soak (default: every game, variant and seat count).
    pub(crate) tables: Vec<String>,
    /// Games per table.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(0..=MAX_GAMES))]
    pub(crate) games: u64,
    /// The master seed of the deals.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// The first deal played (to play one faulty deal again: --first-deal D --games 1).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=MAX_GAMES))]
    pub(crate) first_deal: u64,
    /// Check every this many deals deeply (0: none; 1: all).
    #[arg(long, default_value_t = 1000)]
    pub(crate) deep_every: u64,
    /// The agents seated, in every mix at every table (repeatable).
    #[arg(long = "agent", default_values_t = ["random".to_string(), "greedy".to_string()])]
    pub(crate) agents: Vec<String>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// A CSV file to write the tables' figures to (rewritten after each table).
    #[arg(long, short)]
    pub(crate) output: Option<PathBuf>,
    /// Print only the totals and the faults.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// One table to soak.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TableSpec {
    /// The game's name.
    pub(crate) game: &'static str,
    /// The variant.
    pub(crate) variant: &'static str,
    /// The seat count.
    pub(crate) players: usize,
}

/// A table argument that names no table.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("table '{table}': {problem}")]
pub(crate) struct TablesError {
    /// The argument as given.
    table: String,
    /// What is wrong with it.
    problem: TableProblem,
}

/// What is wrong with a table argument (see [`TablesError`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
enum TableProblem {
    /// A game the registry does not know ([`GameError::UnknownGame`], boxed to keep the error
    /// small).
    #[error("{0}")]
    UnknownGame(Box<GameError>),
    /// A variant the game does not have.
    #[error("{game} has no variant '{variant}' (it has {known})")]
    NoVariant {
        /// The game.
        game: &'static str,
        /// The variant asked for.
        variant: String,
        /// The game's variants, comma-separated.
        known: String,
    },
    /// More than three parts.
    #[error("too many parts (GAME/VARIANT/PLAYERS)")]
    TooManyParts,
    /// A players part that is neither a number nor a range (as given).
    #[error("players '{0}' is not a number or a range such as 2-5")]
    Players(String),
    /// Seat counts the variant does not seat.
    #[error("{game} {variant} seats {lo} to {hi} players")]
    Seats {
        /// The game.
        game: &'static str,
        /// The variant.
        variant: &'static str,
        /// The fewest seats.
        lo: usize,
        /// The most seats.
        hi: usize,
    },
}

/// The tables named by `text` (`GAME[/VARIANT[/PLAYERS]]`); errors name the part at fault.
pub(crate) fn parse_tables(text: &str) -> Result<Vec<TableSpec>, TablesError> {
    let fail = |problem| TablesError {
        table: text.to_string(),
        problem,
    };
    let mut parts = text.split('/');
    let game = parts.next().unwrap_or("");
    let info: &'static GameInfo =
        game_info(game).map_err(|e| fail(TableProblem::UnknownGame(e.into())))?;
    let variants: Vec<&'static str> = match parts.next() {
        None | Some("") => info.variants.to_vec(),
        Some(v) => {
            let found = info.variants.iter().find(|&&x| x == v).ok_or_else(|| {
                fail(TableProblem::NoVariant {
                    game: info.name,
                    variant: v.to_string(),
                    known: info.variants.join(", "),
                })
            })?;
            vec![*found]
        }
    };
    let players = parts.next();
    if parts.next().is_some() {
        return Err(fail(TableProblem::TooManyParts));
    }
    let mut out = Vec::new();
    for variant in variants {
        let (lo, hi) = info.seats_of(variant);
        let (from, to) = match players {
            None | Some("") => (lo, hi),
            Some(p) => seat_range(p).map_err(fail)?,
        };
        if from < lo || to > hi || from > to {
            return Err(fail(TableProblem::Seats {
                game: info.name,
                variant,
                lo,
                hi,
            }));
        }
        out.extend((from..=to).map(|players| TableSpec {
            game: info.name,
            variant,
            players,
        }));
    }
    Ok(out)
}

/// `N` or `A-B`.
fn seat_range(text: &str) -> Result<(usize, usize), TableProblem> {
    let number = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| TableProblem::Players(text.to_string()))
    };
    match text.split_once('-') {
        Some((a, b)) => Ok((number(a)?, number(b)?)),
        None => number(text).map(|n| (n, n)),
    }
}

/// Soaks one table of the game visited.
struct SoakTable<'a> {
    table: &'a TableSpec,
    opts: &'a SoakOptions<'a>,
}

impl GameVisitor for SoakTable<'_> {
    type Output = Result<(SoakReport, usize), SoakError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        let (variant, players) = (self.table.variant, self.table.players);
        let report = soak::<G>(variant, players, self.opts)?;
        Ok((report, rule_sets::<G>(variant, players)?.len()))
    }
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let tables = tables(&args.tables)?;
    if args.agents.is_empty() {
        anyhow::bail!("--agent: give at least one agent");
    }
    if let Some(a) = args.agents.iter().find(|a| a.starts_with("exec:")) {
        anyhow::bail!(
            "--agent {a}: soak seats built-in agents only (an outside program is told one table's \
             rules, and a soak changes them from deal to deal)"
        );
    }
    if let Some(t) = args.threads {
        check_threads(t)?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let threads = pool.current_num_threads();
    let mut rows = Vec::new();
    let mut faults = 0;
    for t in &tables {
        let bar = progress_bar(&args, t);
        let tick = |n: u64| {
            if let Some(b) = &bar {
                b.inc(n);
            }
        };
        let opts = SoakOptions {
            seed: args.seed,
            first_deal: args.first_deal,
            games: args.games,
            deep_every: args.deep_every,
            agents: &args.agents,
            progress: &tick,
        };
        let (report, sets) = pool
            .install(|| {
                with_game(
                    t.game,
                    SoakTable {
                        table: t,
                        opts: &opts,
                    },
                )
            })?
            .map_err(|e| anyhow::anyhow!("{}/{}/{}: {e}", t.game, t.variant, t.players))?;
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        print_table(t, &report, &args);
        faults += report.fault_count;
        rows.push(soak_row(t, &report, sets, &args, threads));
        if let Some(path) = &args.output {
            write_soak_csv(path, &rows)?;
        }
    }
    if faults > 0 {
        anyhow::bail!("{faults} game(s) broke a contract");
    }
    Ok(())
}

/// The CSV row of a table's figures.
fn soak_row(t: &TableSpec, r: &SoakReport, sets: usize, args: &Args, threads: usize) -> SoakRow {
    SoakRow {
        game: t.game.to_string(),
        variant: t.variant.to_string(),
        players: t.players,
        games: r.games,
        decisions: r.decisions,
        deep_checked: r.deep,
        faults: r.fault_count,
        seconds: r.seconds,
        threads,
        seed: args.seed,
        first_deal: args.first_deal,
        rule_sets: sets,
        agents: args.agents.clone(),
    }
}

/// Every table named (in order, each once), or every table of every game.
fn tables(texts: &[String]) -> Result<Vec<TableSpec>, TablesError> {
    let all: Vec<String> = GAMES.iter().map(|g| g.name.to_string()).collect();
    let texts = if texts.is_empty() { &all[..] } else { texts };
    let mut out: Vec<TableSpec> = Vec::new();
    for text in texts {
        for t in parse_tables(text)? {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    Ok(out)
}

/// The progress bar of one table (none when quiet or not on a terminal).
fn progress_bar(args: &Args, t: &TableSpec) -> Option<indicatif::ProgressBar> {
    if args.quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(args.games);
    let style = indicatif::ProgressStyle::with_template(
        "{msg:24!} {bar:30} {human_pos}/{human_len} {per_sec} eta {eta}",
    )
    .expect("valid template");
    bar.set_style(style);
    bar.set_message(format!("{}/{}/{}", t.game, t.variant, t.players));
    Some(bar)
}

/// Prints a table's figures and its first faults, each with the command that plays it again.
fn print_table(t: &TableSpec, r: &SoakReport, args: &Args) {
    let name = format!("{}/{}/{}", t.game, t.variant, t.players);
    if !args.quiet || r.fault_count > 0 {
        println!(
            "{name:24} {:>12} games {:>14} decisions {:>9} deep  {} faults  {:.1} s  {} games/s",
            thousands(r.games),
            thousands(r.decisions),
            thousands(r.deep),
            r.fault_count,
            r.seconds,
            thousands((r.games as f64 / r.seconds.max(1e-9)) as u64)
        );
    }
    for f in &r.faults {
        println!(
            "  fault in deal {} (rules {}, seats {}): {}\n    again: bailab soak {name} --seed {} \
             --first-deal {} --games 1 --deep-every 1 {}",
            f.deal,
            f.rules,
            f.seats.join(" "),
            f.message,
            args.seed,
            f.deal,
            args.agents
                .iter()
                .map(|a| format!("--agent '{a}'"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}
