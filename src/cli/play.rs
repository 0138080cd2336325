//! `bailab play`: one game with the given agents, from a seed or from a given deck, printed as a
//! readable log or as a JSON record.

use super::GameArgs;
use crate::agent::Agent;
use crate::agents::catalogue::{make_agent_with, Setting};
use crate::deal_spec::{deal_rng, deal_with_spec, DealPlan, DealSpec};
use crate::game::GameId;
use crate::game::RuleMap;
use crate::games::kind::{check_players, GameKind, GameLog};
use crate::games::{with_game, GameVisitor};
use crate::record::Record;
use crate::rng::{stream_rng, DEAL_STREAM};
use crate::sim::recorder::Recorder;
use crate::sim::{agent_rngs, match_deal_stream, play_out};
use std::path::Path;

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
pub struct Args {
    /// The game and variant.
    #[command(flatten)]
    pub game: GameArgs,
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
    /// The shuffled deck (the spec's dealing order) instead of a seeded shuffle.
    #[arg(long, conflicts_with = "deck_file")]
    pub deck: Option<String>,
    /// A file holding the deck.
    #[arg(long, conflicts_with = "deal")]
    pub deck_file: Option<String>,
    /// A deal specification (TOML, docs/deals-spec.md): hands, some cards of a hand or the top
    /// of the stock fixed, the rest dealt at random from --seed and --index.
    #[arg(long, value_name = "FILE", conflicts_with = "deck")]
    pub deal: Option<String>,
    /// Print the game as a JSON record instead of the readable log.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let variant = args.game.variant()?;
    check_players(args.game.info(), args.players as usize).map_err(anyhow::Error::msg)?;
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
        (None, Some(f)) => {
            Some(std::fs::read_to_string(f).map_err(|e| anyhow::anyhow!("{f}: {e}"))?)
        }
        (None, None) => None,
    };
    let spec = args
        .deal
        .as_deref()
        .map(DealSpec::load)
        .transpose()
        .map_err(anyhow::Error::msg)?;
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
        type Output = Result<Played, String>;
        fn visit<G: GameKind>(self) -> Self::Output {
            let game = G::build(self.variant, self.players, &RuleMap::new())?;
            match self.deal {
                Some((file, spec)) => {
                    let plan = spec.check(&game).map_err(|e| format!("{file}: {e}"))?;
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
    let played = with_game(&args.game.game, visit)
        .and_then(|p| p)
        .map_err(anyhow::Error::msg)?;
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

/// Plays one game of `game` with one agent spec per seat (cycled if fewer), dealt from the deck
/// text `deck` (the spec's dealing order) or from the seeded shuffle of `id`.
pub fn play<G: GameKind>(
    game: &G,
    id: GameId,
    deck: Option<&str>,
    specs: &[String],
) -> Result<Played, String> {
    let start = match deck {
        Some(d) => game.deal_recorded(d, &RuleMap::new())?,
        None => game.deal(&mut stream_rng(id.master, id.deal, DEAL_STREAM)),
    };
    let note = if deck.is_some() { " (deck given)" } else { "" };
    play_match(game, id, start, 0, note, specs, None)
}

/// Plays one game of `game` dealt from a checked deal plan: its fixed cards, the rest from the
/// seeded stream of `id` (as `run` deals deal `id.deal`); `origin` names the specification in the
/// log's title. The agents' files are read from `base` (`None`: the current folder).
pub fn play_with_spec<G: GameKind>(
    game: &G,
    id: GameId,
    plan: &DealPlan,
    origin: &str,
    specs: &[String],
    base: Option<&Path>,
) -> Result<Played, String> {
    let start = deal_with_spec(game, plan, &mut deal_rng(id.master, id.deal));
    let note = format!(" (deal {origin}: {})", plan.describe());
    play_match(game, id, start, 0, &note, specs, base)
}

/// Plays game `j` of the match of deal `id` (the games before it are played first, unlogged,
/// with the same agents and their continuing RNG streams, as the runner plays them). The agents'
/// files are read from `base` (`None`: the current folder).
pub fn play_in_match<G: GameKind>(
    game: &G,
    id: GameId,
    j: u32,
    specs: &[String],
    base: Option<&Path>,
) -> Result<Played, String> {
    let start = game.deal(&mut stream_rng(id.master, id.deal, DEAL_STREAM));
    play_match(game, id, start, j, "", specs, base)
}

/// Plays a match from `start` (its game 0) up to game `j` and logs game `j`; the agents play
/// `game`'s variant and read their files from `base`.
fn play_match<G: GameKind>(
    game: &G,
    id: GameId,
    start: G::State,
    j: u32,
    note: &str,
    specs: &[String],
    base: Option<&Path>,
) -> Result<Played, String> {
    let setting = Setting {
        variant: Some(game.variant()),
        base,
    };
    let mut agents: Vec<Box<dyn Agent<G::State>>> = specs
        .iter()
        .map(|s| make_agent_with::<G>(s, setting))
        .collect::<Result<_, _>>()?;
    let seat_agent: Vec<usize> = (0..game.seats()).map(|s| s % specs.len()).collect();
    let per_seat: Vec<String> = seat_agent.iter().map(|&i| specs[i].clone()).collect();
    let mut rngs = agent_rngs(id);
    let mut start = start;
    for k in 1..=j {
        let mut end = start.clone();
        play_out(&mut end, &mut agents, &seat_agent, &mut rngs, |_| {});
        start = game.deal_next(
            &end,
            &mut stream_rng(id.master, id.deal, match_deal_stream(k)),
        );
    }
    let in_match = if j > 0 {
        format!(", match game {j}")
    } else {
        String::new()
    };
    let title = format!(
        "bailab: seed {}, deal {}, rotation {}{in_match}{note}, agents by seat: {}",
        id.master,
        id.deal,
        id.rotation,
        per_seat.join(" | ")
    );
    let mut log = G::Log::new(&title, &start);
    let mut recorder = Recorder::<G>::default();
    let mut last = start.clone();
    play_out(
        &mut last,
        &mut agents,
        &seat_agent,
        &mut rngs,
        |(s, step)| {
            recorder.observe(s, step);
            if let Some((d, action)) = step {
                log.decision(d.seat, d.legal, &action.to_string(), s);
            }
        },
    );
    let mut record = recorder.finish(game, &start, &last, &per_seat, Some(id));
    record.match_game = (j > 0).then_some(j);
    Ok(Played {
        log: log.finish(&last),
        record,
    })
}
