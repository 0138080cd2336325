//! The capability every game has: its facts ([`GameInfo`]), how it is built from a variant, a
//! player count and `[rules]`, what its rule options mean, its readable log and its own agents;
//! with the checks of a variant and a player count against a game's facts.

use super::error::{GameError, TableError};
use crate::agent::spec::AgentSpec;
use crate::agent::AgentInfo;
use crate::agent::{Agent, AgentError};
use crate::game::{Game, RuleMap, Seat};

/// What a game tells the machinery about itself.
#[derive(Copy, Clone, Debug)]
pub struct GameInfo {
    /// The name in `--game` and in experiment files (`tusac`).
    pub name: &'static str,
    /// The readable name (`Tứ Sắc`).
    pub title: &'static str,
    /// The variants implemented; the first is the default.
    pub variants: &'static [&'static str],
    /// Variants the spec defines that are not implemented yet.
    pub(crate) planned_variants: &'static [&'static str],
    /// The fewest and the most seats (over every variant).
    pub seats: (usize, usize),
    /// Variants that seat fewer than [`GameInfo::seats`]: `(variant, fewest, most)`.
    pub variant_seats: &'static [(&'static str, usize, usize)],
    /// What one unit of payout is (printed beside payouts).
    pub payout_unit: &'static str,
    /// Whether outcomes rank every seat (`Outcome::places`), so `games.csv` has place columns.
    pub(crate) ranks_places: bool,
    /// The agents this game adds to the common ones (`random`, `first`, `ismcts`).
    pub agents: &'static [AgentInfo],
}

/// A rule option's explanation for `bailab rules`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RuleDoc {
    /// The option's name (a key of [`GameCore::rules`]).
    pub name: &'static str,
    /// The spec section that defines it (`§4.7`).
    pub section: &'static str,
    /// What it means, in one line.
    pub doc: &'static str,
}
/// A readable log of one game, built as it is played (`bailab play`, golden playthroughs).
pub trait GameLog<S> {
    /// Starts the log with a title line and the deal (the state right after it).
    fn new(title: &str, start: &S) -> Self;
    /// Adds a decision (its seat, how many legal actions it had and the action's text) and the
    /// events it led to.
    fn decision(&mut self, seat: Seat, legal: usize, action: &str, after: &S);
    /// Closes the log with the final state and the outcome.
    fn finish(self, end: &S) -> String;
}

/// The capability every game has: its facts, how it is built, its rule options and its agents.
pub trait GameCore: Game + Clone + 'static {
    /// The game's facts.
    const INFO: GameInfo;
    /// The readable log of this game.
    type Log: GameLog<Self::State>;

    /// Builds the game from a variant, a number of players and rule options (any option not
    /// given keeps the variant's value). Errors name the option and the problem.
    fn build(variant: &str, players: usize, rules: &RuleMap) -> Result<Self, GameError>;
    /// Every rule option in force, `name → value` (records; `from` [`GameCore::build`]).
    fn rules(&self) -> RuleMap;
    /// The rule options in force for `variant` (implemented or only planned), `players` and
    /// `rules`, for `bailab rules`. By default those of the built game, so a planned variant is
    /// an error unless the game can check its options without playing it.
    fn rules_in_force(
        variant: &str,
        players: usize,
        rules: &RuleMap,
    ) -> Result<RuleMap, GameError> {
        Ok(Self::build(variant, players, rules)?.rules())
    }
    /// What each rule option means and where the spec defines it (`bailab rules`); none by
    /// default.
    fn rule_docs() -> Vec<RuleDoc> {
        Vec::new()
    }
    /// Builds one of the game's own agents (named in `INFO.agents`) from its spec.
    fn own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self::State>>, AgentError>;
}

/// Checks a variant name against a game's implemented variants.
pub fn check_variant(info: &GameInfo, variant: &str) -> Result<(), TableError> {
    if info.variants.contains(&variant) {
        return Ok(());
    }
    let (variant, game, known) = (variant.to_string(), info.name, info.variants.join(", "));
    if info.planned_variants.contains(&variant.as_str()) {
        return Err(TableError::PlannedVariant {
            variant,
            game,
            known,
        });
    }
    Err(TableError::UnknownVariant {
        variant,
        game,
        known,
    })
}

/// `rules` with `players` set to the table's seat count: a `players` key that disagrees with
/// the seats is an error.
pub fn rules_with_players(rules: &RuleMap, players: usize) -> Result<RuleMap, TableError> {
    let mut all = rules.clone();
    match rules.get("players") {
        Some(p) if p.as_u64() != Some(players as u64) => {
            return Err(TableError::PlayersRule {
                value: p.clone(),
                players,
            })
        }
        _ => all.insert("players".into(), players.into()),
    };
    Ok(all)
}

impl GameInfo {
    /// The fewest and the most seats of `variant`.
    pub fn seats_of(&self, variant: &str) -> (usize, usize) {
        self.variant_seats
            .iter()
            .find(|(v, ..)| *v == variant)
            .map_or(self.seats, |&(_, lo, hi)| (lo, hi))
    }
}

/// Checks a number of players against a game's seats.
pub fn check_players(info: &GameInfo, players: usize) -> Result<(), TableError> {
    let (lo, hi) = info.seats;
    if (lo..=hi).contains(&players) {
        return Ok(());
    }
    Err(TableError::Players {
        players,
        game: info.name,
        lo,
        hi,
    })
}
