//! A new game at a table from the home page's choices: game, variant, players, the human's
//! seat, the agents at the other seats, and a seed or a deal file (one the command line gave).

use super::error::{bad, ApiError};
use super::files::Files;
use super::live::{Live, LiveGame, HUMAN};
use crate::agent::spec::AgentSpec;
use crate::deal_spec::DealSpec;
use crate::game::{GameId, RuleMap, Seat};
use crate::games::kind::{check_players, check_variant, GameKind};
use crate::games::{game_info, with_game, GameVisitor};
use crate::sim::deal::seeds::Opening;
use serde::Deserialize;

/// The body of `POST /api/games`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The game's name (`tusac`, `chan`, `tienlen`).
    pub game: String,
    /// The variant (the game's first when omitted).
    #[serde(default)]
    pub variant: Option<String>,
    /// Number of players.
    pub players: usize,
    /// The human's seat.
    #[serde(default)]
    pub seat: usize,
    /// Agent specs for the other seats in seat order, cycled when fewer (default `greedy`).
    #[serde(default)]
    pub agents: Vec<String>,
    /// The master seed: the deal (unless a deal file is given) and the agents' streams.
    #[serde(default)]
    pub seed: u64,
    /// A deal specification file (docs/deals-spec.md), one of the paths the server was given.
    #[serde(default)]
    pub deal: Option<String>,
}

/// Builds the game `request` asks for.
pub fn create(request: &NewGame, files: &Files) -> Result<Box<dyn Live>, ApiError> {
    let info = game_info(&request.game).map_err(bad)?;
    let variant = request
        .variant
        .clone()
        .unwrap_or_else(|| info.variants[0].to_string());
    check_variant(info, &variant).map_err(bad)?;
    check_players(info, request.players).map_err(bad)?;
    let (lo, hi) = info.seats_of(&variant);
    if !(lo..=hi).contains(&request.players) {
        return Err(bad(format!(
            "{variant} seats {lo} to {hi} players, not {}",
            request.players
        )));
    }
    if request.seat >= request.players {
        return Err(bad(format!(
            "seat {} is not at a table of {} (seats 0–{})",
            request.seat,
            request.players,
            request.players - 1
        )));
    }
    let deal = match &request.deal {
        Some(path) => {
            let allowed = files.allowed(path)?;
            let spec = DealSpec::load(&allowed.to_string_lossy()).map_err(bad)?;
            Some((path.clone(), spec))
        }
        None => None,
    };
    for spec in &request.agents {
        check_spec(spec, files)?;
    }
    let visit = Build {
        request,
        variant: &variant,
        deal: deal.as_ref().map(|(p, s)| (p.as_str(), s)),
    };
    with_game(&request.game, visit).map_err(bad)?
}

/// Refuses an agent the web app does not run (`exec:`, another program) or whose file is not one
/// the server was given.
fn check_spec(text: &str, files: &Files) -> Result<(), ApiError> {
    let spec = AgentSpec::parse(text).map_err(|e| bad(format!("agent '{text}': {e}")))?;
    if spec.name == "exec" {
        return Err(ApiError::Forbidden(format!(
            "agent '{text}': the web app does not run other programs (exec:)"
        )));
    }
    if let Some(file) = spec.file() {
        files.allowed(&file.to_string_lossy())?;
    }
    Ok(())
}

/// The specs of every seat: the human's [`HUMAN`], the others from `agents`, cycled.
fn seat_specs(request: &NewGame) -> Vec<String> {
    let others: Vec<String> = if request.agents.is_empty() {
        vec!["greedy".into()]
    } else {
        request.agents.clone()
    };
    let mut k = 0;
    (0..request.players)
        .map(|s| {
            if s == request.seat {
                return HUMAN.to_string();
            }
            k += 1;
            others[(k - 1) % others.len()].clone()
        })
        .collect()
}

/// Builds the game for game type `G`.
struct Build<'a> {
    request: &'a NewGame,
    variant: &'a str,
    deal: Option<(&'a str, &'a DealSpec)>,
}

impl GameVisitor for Build<'_> {
    type Output = Result<Box<dyn Live>, ApiError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        let r = self.request;
        let game = G::build(self.variant, r.players, &RuleMap::new()).map_err(bad)?;
        let start = match self.deal {
            Some((file, spec)) => {
                let plan = spec.check(&game).map_err(|e| bad(format!("{file}: {e}")))?;
                Opening::Plan(&plan).deal(&game, r.seed, 0)
            }
            None => Opening::<G::State>::Seeded.deal(&game, r.seed, 0),
        };
        let id = GameId {
            master: r.seed,
            deal: 0,
            rotation: 0,
        };
        let live = LiveGame::new(game, start, r.seat as Seat, seat_specs(r), id)?;
        Ok(Box::new(live))
    }
}
