//! `bailab play`: one seeded game with built-in policies, printed as a readable log.

use super::{check_variant, GameName};
use crate::agents::Policy;
use crate::games::tusac::log::GameLog;
use crate::games::tusac::{Options, TuSac};
use crate::sim::play_seeded;

/// Arguments of `bailab play`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The same --seed and --index always print the same game.\n\
Example: bailab play --game tusac --seed 1 --policy random,first,random,first"
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
    /// Policies, one per seat (comma-separated, repeated cyclically): random or first.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "random")]
    pub policy: Vec<Policy>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    check_variant(args.game, &args.variant)?;
    let game = TuSac::new(Options::classic(args.players)).map_err(anyhow::Error::msg)?;
    print!("{}", tusac_log(&game, args.seed, args.index, &args.policy));
    Ok(())
}

/// The full readable log of one seeded Tứ Sắc game.
pub fn tusac_log(game: &TuSac, seed: u64, index: u64, policies: &[Policy]) -> String {
    let names: Vec<String> = policies
        .iter()
        .map(|p| format!("{p:?}").to_lowercase())
        .collect();
    let title = format!(
        "bailab play: seed {seed}, deal {index}, policies {}",
        names.join(",")
    );
    let mut log: Option<GameLog> = None;
    let mut last = None;
    play_seeded(game, seed, index, policies, |s, step| {
        match (step, log.as_mut()) {
            (None, _) => log = Some(GameLog::new(&title, s)),
            (Some((d, action)), Some(l)) => l.decision(d.seat, d.legal, &action.to_string(), s),
            (Some(_), None) => unreachable!("the deal is observed first"),
        }
        last = Some(*s);
    });
    log.expect("logged").finish(&last.expect("a final state"))
}
