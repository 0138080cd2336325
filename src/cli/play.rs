//! `bailab play`: one seeded game with the given agents, printed as a readable log.

use super::{check_variant, GameName};
use crate::agents::catalogue::tusac_agent;
use crate::agents::Agent;
use crate::game::Game;
use crate::games::tusac::log::GameLog;
use crate::games::tusac::{Options, TuSac, TuSacState};
use crate::sim::{play_game, GameId};

/// Arguments of `bailab play`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The same --seed and --index always print the same game.\n\
Example: bailab play --game tusac --seed 1 --agent greedy --agent random"
)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value = "tusac")]
    pub game: GameName,
    /// The variant.
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Master seed.
    #[arg(long)]
    pub seed: u64,
    /// Deal index under the master seed.
    #[arg(long, default_value_t = 0)]
    pub index: u64,
    /// Number of players.
    #[arg(long, default_value_t = 4)]
    pub players: u8,
    /// An agent spec per seat, repeated for more seats and cycled when fewer than the players
    /// (e.g. `--agent greedy --agent random`); see `bailab agents`.
    #[arg(long = "agent", alias = "policy", default_value = "random")]
    pub agents: Vec<String>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    check_variant(args.game, &args.variant)?;
    let game = TuSac::new(Options::classic(args.players)).map_err(anyhow::Error::msg)?;
    let specs: Vec<String> = (0..args.players as usize)
        .map(|s| args.agents[s % args.agents.len()].clone())
        .collect();
    let id = GameId {
        master: args.seed,
        deal: args.index,
        rotation: 0,
    };
    print!(
        "{}",
        tusac_log(&game, id, &specs).map_err(anyhow::Error::msg)?
    );
    Ok(())
}

/// The full readable log of one Tứ Sắc game with one agent spec per seat (cycled if fewer).
pub fn tusac_log(game: &TuSac, id: GameId, specs: &[String]) -> Result<String, String> {
    let mut agents: Vec<Box<dyn Agent<TuSacState>>> = specs
        .iter()
        .map(|s| tusac_agent(s))
        .collect::<Result<_, _>>()?;
    let seat_agent: Vec<usize> = (0..game.seats()).map(|s| s % specs.len()).collect();
    let title = format!(
        "bailab: seed {}, deal {}, rotation {}, agents by seat: {}",
        id.master,
        id.deal,
        id.rotation,
        seat_agent
            .iter()
            .map(|&i| specs[i].as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let mut log: Option<GameLog> = None;
    let mut last = None;
    play_game(game, id, &mut agents, &seat_agent, |(s, step)| {
        match (step, log.as_mut()) {
            (None, _) => log = Some(GameLog::new(&title, s)),
            (Some((d, action)), Some(l)) => l.decision(d.seat, d.legal, &action.to_string(), s),
            (Some(_), None) => unreachable!("the deal is observed first"),
        }
        last = Some(*s);
    });
    Ok(log.expect("logged").finish(&last.expect("a final state")))
}
