//! `bailab play`: one game with the given agents, from a seed or from a given deck, printed as a
//! readable log or as a JSON record.

use super::{check_variant, GameName};
use crate::agents::catalogue::tusac_agent;
use crate::agents::Agent;
use crate::game::Game;
use crate::games::tusac::card::Card;
use crate::games::tusac::log::GameLog;
use crate::games::tusac::record::{parse_deck, Recorder};
use crate::games::tusac::state::DECK_SIZE;
use crate::games::tusac::{Options, TuSac, TuSacState};
use crate::record::Record;
use crate::rng::{stream_rng, DEAL_STREAM};
use crate::sim::{play_from, GameId};

/// Arguments of `bailab play`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The same --seed and --index always print the same game.\n\
Examples:\n  bailab play --game tusac --seed 1 --agent greedy --agent random\n  \
bailab play --seed 1 --json > game.json && bailab check game.json\n  \
bailab play --deck \"$(cat deck.txt)\" --agent greedy"
)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value = "tusac")]
    pub game: GameName,
    /// The variant.
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Master seed (the deal, unless --deck is given, and the agents' RNGs).
    #[arg(long, default_value_t = 0)]
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
    /// The shuffled deck (112 cards, the spec's dealing order) instead of a seeded shuffle.
    #[arg(long, conflicts_with = "deck_file")]
    pub deck: Option<String>,
    /// A file holding the deck.
    #[arg(long)]
    pub deck_file: Option<String>,
    /// Print the game as a JSON record instead of the readable log.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    check_variant(args.game, &args.variant)?;
    let game = TuSac::new(Options::classic(args.players)).map_err(anyhow::Error::msg)?;
    let specs: Vec<String> = (0..args.players as usize)
        .map(|s| args.agents[s % args.agents.len()].clone())
        .collect();
    let deck_text = match (&args.deck, &args.deck_file) {
        (Some(d), _) => Some(d.clone()),
        (None, Some(f)) => {
            Some(std::fs::read_to_string(f).map_err(|e| anyhow::anyhow!("{f}: {e}"))?)
        }
        (None, None) => None,
    };
    let deck = deck_text
        .as_deref()
        .map(parse_deck)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let id = GameId {
        master: args.seed,
        deal: args.index,
        rotation: 0,
    };
    let played = play_tusac(&game, id, deck.as_ref(), &specs).map_err(anyhow::Error::msg)?;
    if args.json {
        println!("{}", serde_json::to_string(&played.record)?);
    } else {
        print!("{}", played.log);
    }
    Ok(())
}

/// One played game as a readable log and as a record.
pub struct Played {
    /// The readable log.
    pub log: String,
    /// The record.
    pub record: Record,
}

/// Plays one Tứ Sắc game with one agent spec per seat (cycled if fewer), dealt from `deck` or
/// from the seeded shuffle of `id`.
pub fn play_tusac(
    game: &TuSac,
    id: GameId,
    deck: Option<&[Card; DECK_SIZE]>,
    specs: &[String],
) -> Result<Played, String> {
    let mut agents: Vec<Box<dyn Agent<TuSacState>>> = specs
        .iter()
        .map(|s| tusac_agent(s))
        .collect::<Result<_, _>>()?;
    let seat_agent: Vec<usize> = (0..game.seats()).map(|s| s % specs.len()).collect();
    let per_seat: Vec<String> = seat_agent.iter().map(|&i| specs[i].clone()).collect();
    let title = format!(
        "bailab: seed {}, deal {}, rotation {}{}, agents by seat: {}",
        id.master,
        id.deal,
        id.rotation,
        if deck.is_some() { " (deck given)" } else { "" },
        per_seat.join(" | ")
    );
    let start = match deck {
        Some(d) => game.deal_deck(d),
        None => game.deal(&mut stream_rng(id.master, id.deal, DEAL_STREAM)),
    };
    let mut log = GameLog::new(&title, &start);
    let mut recorder = Recorder::default();
    let mut last = start;
    play_from(start, id, &mut agents, &seat_agent, |(s, step)| {
        recorder.observe(s, step);
        if let Some((d, action)) = step {
            log.decision(d.seat, d.legal, &action.to_string(), s);
        }
        last = *s;
    });
    let record = recorder.finish(&start, &last, &per_seat, Some(id));
    Ok(Played {
        log: log.finish(&last),
        record,
    })
}

/// The full readable log of one seeded Tứ Sắc game.
pub fn tusac_log(game: &TuSac, id: GameId, specs: &[String]) -> Result<String, String> {
    play_tusac(game, id, None, specs).map(|p| p.log)
}
