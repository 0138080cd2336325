//! One game played and shown: its readable log and its record, from a seed, a given deck or a
//! deal plan, or as game `j` of a deal's match. `bailab play` and `bailab replay` print these;
//! the golden playthroughs check them. The games are played by the one [`DealLoop`].

use super::deal::{DealLoop, Event, Opening, Seating};
use crate::agent::{take_fault, Agent, AgentError};
use crate::deal_spec::{DealPlan, DealSpecError};
use crate::game::GameId;
use crate::game::RuleMap;
use crate::games::kind::{GameError, GameKind, GameLog};
use crate::generic_agents::catalogue::{make_agent_with, Setting};
use crate::record::Record;
use crate::sim::recorder::Recorder;
use std::path::Path;

/// Why a game could not be played and shown.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The game cannot be built, or its deck given cannot be dealt.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A deal specification (named by its file) that the game refuses.
    #[error("{file}: {error}")]
    Deal {
        /// The specification's file.
        file: String,
        /// What the game refuses.
        error: DealSpecError,
    },
    /// An agent spec that cannot be built.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// An agent that failed during the game (its fault, naming it).
    #[error("{0}")]
    Fault(String),
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
) -> Result<Played, PlayError> {
    match deck {
        Some(d) => {
            let start = game.deal_recorded(d, &RuleMap::new())?;
            play_match(
                game,
                id,
                Opening::Given(&start),
                0,
                " (deck given)",
                specs,
                None,
            )
        }
        None => play_match(game, id, Opening::Seeded, 0, "", specs, None),
    }
}

/// Plays one game of `game` dealt from a checked deal plan: its fixed cards, the rest from the
/// seeded stream of `id` (as `run` deals deal `id.deal`); `origin` names the specification in the
/// log's title. The agents' files are read from `base` (`None`: the current folder).
pub(crate) fn play_with_spec<G: GameKind>(
    game: &G,
    id: GameId,
    plan: &DealPlan,
    origin: &str,
    specs: &[String],
    base: Option<&Path>,
) -> Result<Played, PlayError> {
    let note = format!(" (deal {origin}: {})", plan.describe());
    play_match(game, id, Opening::Plan(plan), 0, &note, specs, base)
}

/// Plays game `j` of the match of deal `id` (the games before it are played first, unlogged,
/// with the same agents and their continuing RNG streams, as the runner plays them). The agents'
/// files are read from `base` (`None`: the current folder).
pub(crate) fn play_in_match<G: GameKind>(
    game: &G,
    id: GameId,
    j: u32,
    specs: &[String],
    base: Option<&Path>,
) -> Result<Played, PlayError> {
    play_match(game, id, Opening::Seeded, j, "", specs, base)
}

/// Plays the match of deal `id` (rotation `id.rotation`, seat `s` played by `specs[s mod n]`)
/// from `opening` up to game `j` and logs game `j`; the agents play `game`'s variant and read
/// their files from `base`.
fn play_match<G: GameKind>(
    game: &G,
    id: GameId,
    opening: Opening<'_, G::State>,
    j: u32,
    note: &str,
    specs: &[String],
    base: Option<&Path>,
) -> Result<Played, PlayError> {
    let rules = game.rules();
    let setting = Setting {
        variant: Some(game.variant()),
        base,
        host: None,
        table: Some((&rules, game.seats())),
        stderr_log: None,
    };
    let mut agents: Vec<Box<dyn Agent<G::State>>> = specs
        .iter()
        .map(|s| make_agent_with::<G>(s, setting))
        .collect::<Result<_, _>>()?;
    let per_seat: Vec<String> = (0..game.seats())
        .map(|s| specs[s % specs.len()].clone())
        .collect();
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
    let r = id.rotation as usize;
    let looper = DealLoop {
        game,
        master: id.master,
        opening,
        seating: Seating::Fixed(specs.len()),
        rotations: r..r + 1,
        match_games: j + 1,
    };
    let mut shown: Option<(G::State, G::Log, Recorder<G>)> = None;
    let mut played = None;
    looper.play(id.deal, &mut agents, |at, event| match event {
        _ if at.game != j => {}
        Event::Step((s, None)) => {
            let mut recorder = Recorder::<G>::default();
            recorder.observe(s, None);
            shown = Some((s.clone(), G::Log::new(&title, s), recorder));
        }
        Event::Step((s, Some((d, action)))) => {
            let (_, log, recorder) = shown.as_mut().expect("the deal comes first");
            recorder.observe(s, Some((d, action)));
            log.decision(d.seat, d.legal, &action.to_string(), s);
        }
        Event::End(last, _) => {
            let (start, log, recorder) = shown.take().expect("the deal comes first");
            let mut record = recorder.finish(game, &start, last, &per_seat, Some(id));
            record.match_game = (j > 0).then_some(j);
            played = Some(Played {
                log: log.finish(last),
                record,
            });
        }
    });
    if let Some(fault) = take_fault(&mut agents) {
        return Err(PlayError::Fault(fault));
    }
    Ok(played.expect("game j was played"))
}
