//! `bailab replay EXPERIMENT.toml --deal I [--rotation R]`: the readable log of one game of an
//! experiment, played again with the experiment's agents.

use super::play::play_tusac;
use super::run::load;
use crate::games::tusac::TuSac;
use crate::sim::GameId;

/// Arguments of `bailab replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The experiment file (TOML); the embedded default when omitted.
    pub experiment: Option<String>,
    /// The deal index.
    #[arg(long)]
    pub deal: u64,
    /// The rotation (0 .. players−1 with seat rotation, else 0).
    #[arg(long, default_value_t = 0)]
    pub rotation: usize,
    /// Print the game as a JSON record instead of the readable log.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let exp = load(args.experiment.as_deref())?;
    if args.deal >= exp.deals {
        anyhow::bail!(
            "--deal {}: the experiment has deals 0..{}",
            args.deal,
            exp.deals
        );
    }
    if args.rotation >= exp.rotations() {
        anyhow::bail!(
            "--rotation {}: the experiment has rotations 0..{}",
            args.rotation,
            exp.rotations()
        );
    }
    let game = TuSac::classic(exp.players() as u8).map_err(anyhow::Error::msg)?;
    let specs: Vec<String> = (0..exp.players())
        .map(|s| exp.agents[exp.slot(args.rotation, s)].clone())
        .collect();
    let id = GameId {
        master: exp.seed,
        deal: args.deal,
        rotation: args.rotation as u8,
    };
    let played = play_tusac(&game, id, None, &specs).map_err(anyhow::Error::msg)?;
    if args.json {
        println!("{}", serde_json::to_string(&played.record)?);
    } else {
        print!("{}", played.log);
    }
    Ok(())
}
