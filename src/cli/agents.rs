//! `bailab agents`: the agents, their games and parameters.

use crate::agents::catalogue::CATALOGUE;

/// Arguments of `bailab agents`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs the command.
pub fn run(_args: Args) -> anyhow::Result<()> {
    println!("Agent specs: NAME or NAME:KEY=VALUE,KEY=VALUE (e.g. greedy:tiebreak=random)\n");
    for a in CATALOGUE {
        println!("{}  (games: {})\n    {}", a.name, a.games, a.about);
        for p in a.params {
            println!("    {}={}  (default)  {}", p.name, p.default, p.about);
        }
        println!();
    }
    Ok(())
}
