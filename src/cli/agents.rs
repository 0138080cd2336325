//! `bailab agents`: the games, and the agents with the games they play and their parameters.

use crate::agents::catalogue::{AgentInfo, CATALOGUE};
use crate::games::GAMES;

/// Arguments of `bailab agents`.
#[derive(clap::Args, Debug)]
pub struct Args {}

fn print_agent(a: &AgentInfo, games: &str) {
    println!("{}  (games: {games})\n    {}", a.name, a.about);
    for p in a.params {
        println!("    {}={}  (default)  {}", p.name, p.default, p.about);
    }
    println!();
}

/// Runs the command.
pub fn run(_args: Args) -> anyhow::Result<()> {
    println!("Games (--game, or `game` in an experiment):");
    for g in GAMES {
        println!(
            "  {:<10} {} — variants: {}; {}–{} seats; payouts in {}",
            g.name,
            g.title,
            g.variants.join(", "),
            g.seats.0,
            g.seats.1,
            g.payout_unit
        );
    }
    println!("\nAgent specs: NAME or NAME:KEY=VALUE,KEY=VALUE (e.g. greedy:tiebreak=random)\n");
    for a in CATALOGUE {
        print_agent(a, "all");
    }
    for g in GAMES {
        for a in g.agents {
            print_agent(a, g.name);
        }
    }
    Ok(())
}
