//! `bailab agents`: the games, and the agents with the games they play and their parameters.

use crate::agent::features::all_features;
use crate::agent::AgentInfo;
use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor, GAMES};
use crate::generic_agents::catalogue::CATALOGUE;

/// Arguments of `bailab agents`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Print the features a rule list (`rules:PATH`) can test for this game instead.
    #[arg(long, value_name = "GAME", value_parser = super::args::game_names())]
    pub(crate) features: Option<String>,
}

/// Prints the features of a game.
struct Features;

impl GameVisitor for Features {
    type Output = ();
    fn visit<G: GameKind>(self) {
        println!(
            "Features of {} candidate actions (rule conditions test them; see docs/rules.md):\n",
            G::INFO.title
        );
        for f in all_features(G::FEATURES) {
            println!("  {:<22} {}", f.name, f.about);
        }
    }
}

fn print_agent(a: &AgentInfo, games: &str) {
    println!("{}  (games: {games})\n    {}", a.name, a.about);
    for p in a.params {
        println!("    {}={}  (default)  {}", p.name, p.default, p.about);
    }
    println!();
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    if let Some(game) = &args.features {
        return Ok(with_game(game, Features)?);
    }
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
        for (v, lo, hi) in g.variant_seats {
            println!("  {:<10} {v}: {lo}–{hi} seats", "");
        }
    }
    println!("\nAgent specs: NAME or NAME:KEY=VALUE,KEY=VALUE (e.g. greedy:tiebreak=random)");
    println!("The features rule lists test: bailab agents --features GAME\n");
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
