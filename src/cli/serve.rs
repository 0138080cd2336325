//! `bailab serve [--port P] [--host ADDR] [PATH...]`: the local web app (docs/serve.md): watch
//! records, play against the agents, read runs.

use crate::serve::{serve, Config};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `bailab serve`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Open the address it prints in a browser. Files are read only from the PATHs\n\
given: record files (a run's records.jsonl, `bailab play --json` output), folders holding them\n\
(a run folder also opens as its report, with links to its games), deal specifications and\n\
agents' files (net:, rules:). Ctrl-C stops it.\n\
Examples:\n  bailab serve tests/golden\n  \
bailab serve --port 8080 results/my-run agents"
)]
pub(crate) struct Args {
    /// Record files, run folders, deal specifications and agents' files it may read.
    #[arg(value_name = "DIR_OR_FILE")]
    pub(crate) paths: Vec<PathBuf>,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 8047)]
    pub(crate) port: u16,
    /// The address to listen on: loopback unless you mean to share it.
    #[arg(long, default_value = "127.0.0.1")]
    pub(crate) host: String,
    /// The most games in play at once.
    #[arg(long, default_value_t = 256)]
    pub(crate) max_games: usize,
    /// Minutes a game may stay unused before it is dropped.
    #[arg(long, default_value_t = 30)]
    pub(crate) idle_minutes: u64,
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let config = Config {
        host: args.host,
        port: args.port,
        paths: args.paths,
        max_games: args.max_games,
        idle: Duration::from_secs(args.idle_minutes * 60),
    };
    serve(config, |addr| {
        println!("bailab serve: open http://{addr}/ (Ctrl-C stops it)");
    })?;
    println!("bailab serve: stopped");
    Ok(())
}
