//! `bailab play`: one game with the given agents, from a seed or from a given deck, printed as a
//! readable log or as a JSON record.

use super::args::GameArgs;
use crate::deal_spec::DealSpec;
use crate::game::GameId;
use crate::game::RuleMap;
use crate::games::kind::{check_players, GameError, GameKind};
use crate::games::{with_game, GameVisitor};
use crate::sim::play::{play, play_with_spec, PlayError, Played};

/// Arguments of `bailab play`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The same --seed and --index always print the same game.\n\
Examples:\n  bailab play --game tusac --seed 1 --agent greedy --agent random\n  \
bailab play --game tienlen --seed 1 --agent greedy\n  \
bailab play --seed 1 --json > game.json && bailab check game.json\n  \
bailab play --deck \"$(cat deck.txt)\" --agent greedy\n  \
bailab play --deal my-hand.toml --seed 3 --agent greedy --json"
)]
pub(crate) struct Args {
    /// The game and variant.
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// Master seed (the deal, unless --deck is given, and the agents' RNGs).
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Deal index under the master seed.
    #[arg(long, default_value_t = 0)]
    pub(crate) index: u64,
    /// Number of players.
    #[arg(long, default_value_t = 4)]
    pub(crate) players: u8,
    /// An agent spec per seat, repeated for more seats and cycled when fewer than the players
    /// (e.g. `--agent greedy --agent random`); see `bailab agents`.
    #[arg(long = "agent", alias = "policy", default_value = "random")]
    pub(crate) agents: Vec<String>,
    /// The shuffled deck (the spec's dealing order) instead of a seeded shuffle.
    #[arg(long, conflicts_with = "deck_file")]
    pub(crate) deck: Option<String>,
    /// A file holding the deck.
    #[arg(long, conflicts_with = "deal")]
    pub(crate) deck_file: Option<String>,
    /// A deal specification (TOML, docs/deals-spec.md): hands, some cards of a hand or the top
    /// of the stock fixed, the rest dealt at random from --seed and --index.
    #[arg(long, value_name = "FILE", conflicts_with = "deck")]
    pub(crate) deal: Option<String>,
    /// Print the game as a JSON record instead of the readable log.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Runs the command.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let variant = args.game.variant()?;
    check_players(args.game.info(), args.players as usize)?;
    if args.agents.len() > args.players as usize {
        anyhow::bail!(
            "{} --agent for {} player{}: give at most one per seat (fewer are cycled through \
             the seats)",
            args.agents.len(),
            args.players,
            if args.players == 1 { "" } else { "s" }
        );
    }
    let specs: Vec<String> = (0..args.players as usize)
        .map(|s| args.agents[s % args.agents.len()].clone())
        .collect();
    let deck = match (&args.deck, &args.deck_file) {
        (Some(d), _) => Some(d.clone()),
        (None, Some(f)) => Some(crate::input::read_text(
            std::path::Path::new(f),
            crate::input::DECK,
        )?),
        (None, None) => None,
    };
    let spec = args.deal.as_deref().map(DealSpec::load).transpose()?;
    let id = GameId {
        master: args.seed,
        deal: args.index,
        rotation: 0,
    };
    struct Play<'a> {
        variant: &'a str,
        players: usize,
        id: GameId,
        deck: Option<&'a str>,
        deal: Option<(&'a str, &'a DealSpec)>,
        specs: &'a [String],
    }
    impl GameVisitor for Play<'_> {
        type Output = Result<Played, PlayError>;
        fn visit<G: GameKind>(self) -> Self::Output {
            let game = G::build(self.variant, self.players, &RuleMap::new())?;
            match self.deal {
                Some((file, spec)) => {
                    let plan = spec.check(&game).map_err(|error| PlayError::Deal {
                        file: file.to_string(),
                        error,
                    })?;
                    play_with_spec(&game, self.id, &plan, file, self.specs, None)
                }
                None => play(&game, self.id, self.deck, self.specs),
            }
        }
    }
    let visit = Play {
        variant: &variant,
        players: args.players as usize,
        id,
        deck: deck.as_deref(),
        deal: args.deal.as_deref().zip(spec.as_ref()),
        specs: &specs,
    };
    show(with_game(&args.game.game, visit), args.json)
}

/// Prints a game played through `with_game` (`bailab play`, `bailab replay`): its JSON record
/// when `json`, else its readable log; an unknown game or a failed play is the error.
pub(crate) fn show(
    played: Result<Result<Played, PlayError>, GameError>,
    json: bool,
) -> anyhow::Result<()> {
    let played = played??;
    if json {
        println!("{}", serde_json::to_string(&played.record)?);
    } else {
        print!("{}", played.log);
    }
    Ok(())
}
