//! The game registry: one folder per game, and the one list that plugs each into the machinery.
//!
//! The machinery (`sim/`, the generic agents, `record.rs`, the commands) is written once against
//! [`GameKind`] and never names a game. A game joins by implementing the contracts of
//! [`crate::game`] plus the capability traits that make up [`GameKind`] (in [`kind`]), and by one
//! entry in the `registry!` line at the bottom of this file; the commands then reach it through [`with_game`], monomorphised for it, so the
//! hot loop stays static (`play_game::<G>`) with no dynamic dispatch per action.
//!
//! # Adding a game
//!
//! 1. Write `src/games/<name>/` with a `Game` (its rule options), a `GameState` (a fixed-size
//!    `Copy` value), a `SeatView` with `determinize`, and impls of the capability traits of
//!    [`kind`]: [`GameCore`] (its facts, [`GameInfo`]: name, variants, seats, payout unit, its
//!    own agents such as `greedy`; how to build it from a variant, a player count and a `[rules]`
//!    map; its readable log, [`GameLog`](kind::GameLog)), [`Records`](kind::Records) (deck,
//!    setup, forced moves), [`PartialDeals`](crate::deal_spec::PartialDeals),
//!    [`Features`](kind::Features), [`Analyzer`](kind::Analyzer),
//!    [`DealMeasures`](kind::DealMeasures), [`SoakChecks`](kind::SoakChecks),
//!    [`Luck`](kind::Luck) (empty for a game without a stock) and
//!    [`Observe`](observe::Observe). [`GameKind`] is then implemented for it.
//! 2. Add `pub mod <name>;` and the game's type to the `registry!` line below.
//!
//! Nothing else changes: `run`, `merge`, `replay`, `play`, `check`, `analyze`, `agents` and
//! `bench` find the game by its name, and `random`, `first` and `ismcts` play it.

pub mod chan;
pub mod kind;
pub mod observe;
pub mod position;
pub(crate) mod rule_table;
pub mod tienlen;
pub mod tusac;

use kind::{GameCore, GameError, GameInfo, GameKind};

/// Code run for a game chosen by name: [`with_game`] calls `visit::<G>()` with the game's type.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs for game `G`.
    fn visit<G: GameKind>(self) -> Self::Output;
}

/// The registry: every game, by its type. Adding a game adds its type here.
macro_rules! registry {
    ($($game:ty),+ $(,)?) => {
        /// The facts of every registered game, in registry order.
        pub const GAMES: &[GameInfo] = &[$(<$game as GameCore>::INFO),+];

        /// Runs `visitor` for the game named `name`.
        pub fn with_game<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, GameError> {
            $(
                if name == <$game as GameCore>::INFO.name {
                    return Ok(visitor.visit::<$game>());
                }
            )+
            Err(unknown_game(name))
        }
    };
}

registry!(tusac::TuSac, tienlen::TienLen, chan::Chan);

/// The error for a game name not in the registry.
fn unknown_game(name: &str) -> GameError {
    let known: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
    GameError::UnknownGame {
        name: name.to_string(),
        known: known.join(", "),
    }
}

/// The facts of the game named `name`.
pub fn game_info(name: &str) -> Result<&'static GameInfo, GameError> {
    GAMES
        .iter()
        .find(|g| g.name == name)
        .ok_or_else(|| unknown_game(name))
}
