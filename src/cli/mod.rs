//! The `bailab` command line (clap): one module per command.

pub(crate) mod agents;
pub(crate) mod analyze;
pub(crate) mod args;
pub(crate) mod bench;
pub(crate) mod check;
pub(crate) mod deals;
pub(crate) mod equity;
pub(crate) mod learn;
pub(crate) mod merge;
pub(crate) mod play;
pub(crate) mod plot;
pub(crate) mod progress;
pub(crate) mod replay;
pub(crate) mod report;
pub(crate) mod rules;
pub(crate) mod run;
#[cfg(feature = "serve")]
pub(crate) mod serve;
pub(crate) mod soak;
pub(crate) mod tournament;
#[cfg(feature = "train")]
pub(crate) mod train;
pub(crate) mod tune;

use clap::{Parser, Subcommand};

/// bailab: simulate Vietnamese card games and study AI strategies.
#[derive(Parser, Debug)]
#[command(name = "bailab", version, about, long_about = None)]
pub(crate) struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
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
    /// Analyse a hand: trash or loose cards, an optimal partition, discards, value, waits.
    Analyze(analyze::Args),
    /// Play one seeded game with built-in policies and print it as a readable log.
    Play(play::Args),
    /// Learn a readable rule list (the `rules:PATH` agent) from a teacher and from play.
    Learn(learn::Args),
    /// Train a learned agent (`net:FILE`) by deep Monte-Carlo self-play, checkpointed.
    #[cfg(feature = "train")]
    Train(train::Args),
    /// Which action is best here: each legal action's win rate and mean payout in a position.
    Equity(equity::Args),
    /// Measure speed on this machine: trash evaluations, hand analyses and games per second.
    Bench(bench::Args),
    /// Draw SVG charts from summary, strength, distributions, equity and tuning CSVs.
    Plot(plot::Args),
    /// Write one self-contained HTML page (tables, intervals, charts) from output folders.
    Report(report::Args),
    /// Tune a game's greedy weights against a fixed field (common random numbers, racing).
    Tune(tune::Args),
    /// Deal N games and count what the hands hold, or read a run's games.csv: distributions.
    Deals(deals::Args),
    /// Print the rule options in force for a game and variant, with their meaning and section.
    Rules(rules::Args),
    /// Play millions of games per table with every contract checked; report the faults.
    Soak(soak::Args),
    /// Compare many agents: tables of every pair (or subset), a cross-table and ratings.
    Tournament(tournament::Args),
    /// A local web app: watch records step by step, play against the agents, read runs.
    #[cfg(feature = "serve")]
    Serve(serve::Args),
}

/// The binary's entry: reads the command line (a bad one ends the process with clap's message)
/// and runs its command.
pub fn main() -> anyhow::Result<()> {
    run(Cli::parse())
}

/// Runs a parsed command line.
pub(crate) fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Run(args) => run::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Agents(args) => agents::run(args),
        Command::Check(args) => check::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Play(args) => play::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Learn(args) => learn::run(args),
        #[cfg(feature = "train")]
        Command::Train(args) => train::run(args),
        Command::Plot(args) => plot::run(args),
        Command::Report(args) => report::run(args),
        Command::Equity(args) => equity::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Deals(args) => deals::run(args),
        Command::Rules(args) => rules::run(args),
        Command::Soak(args) => soak::run(args),
        Command::Tournament(args) => tournament::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args),
    }
}
