//! The `bailab` command line (clap): one module per command.

pub mod agents;
pub mod analyze;
pub mod bench;
pub mod check;
pub mod merge;
pub mod play;
pub mod replay;
pub mod run;

use clap::{Parser, Subcommand, ValueEnum};

/// bailab: simulate Vietnamese card games and study AI strategies.
#[derive(Parser, Debug)]
#[command(name = "bailab", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run an experiment (default: the embedded one) on all cores and write its statistics.
    Run(run::Args),
    /// Combine shard outputs into the summary one run would have written.
    Merge(merge::Args),
    /// Print the log of one game of an experiment.
    Replay(replay::Args),
    /// List the agents and their parameters.
    Agents(agents::Args),
    /// Check game records: replay each from its deck and report ok or the first problem.
    Check(check::Args),
    /// Analyse a hand: trash, an optimal partition, legal and worst discards, value, waits.
    Analyze(analyze::Args),
    /// Play one seeded game with built-in policies and print it as a readable log.
    Play(play::Args),
    /// Measure speed on this machine: trash evaluations, hand analyses and games per second.
    Bench(bench::Args),
}

/// The games bailab knows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// Tứ Sắc (four colours).
    Tusac,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Run(args) => run::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Agents(args) => agents::run(args),
        Command::Check(args) => check::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Play(args) => play::run(args),
        Command::Bench(args) => bench::run(args),
    }
}

/// Checks a `--variant` name for a game; only implemented variants are accepted.
pub fn check_variant(game: GameName, variant: &str) -> anyhow::Result<()> {
    match (game, variant) {
        (GameName::Tusac, "classic") => Ok(()),
        (GameName::Tusac, "4sac" | "sisepai21" | "dirtyking26") => {
            anyhow::bail!(
                "variant '{variant}' of tusac is specified but not implemented yet; use classic"
            )
        }
        (GameName::Tusac, _) => {
            anyhow::bail!("unknown variant '{variant}' of tusac; known: classic (4sac, sisepai21, dirtyking26 to come)")
        }
    }
}
