//! Where every game's randomness comes from, written once. Everything that deals deal `i` of a
//! master seed (`run`, `play`, `replay`, `soak`, `deals`, `equity`, `tune`, `learn`, Python's
//! `Game.deal` and `VecEnv`) deals it here, so one deal index means one deal everywhere.
//!
//! Each stream is [`stream_rng`]`(master, deal, stream)` (SplitMix64 into a `Pcg64Mcg`, see
//! [`crate::rng`]), the streams of one deal being:
//!
//! | stream | draws |
//! | --- | --- |
//! | `0` | game 0 of the deal's match: the deal itself ([`deal_rng`], [`Opening::deal`]) |
//! | `1 + 8·r + s` | the agent at seat `s` in rotation `r` ([`agent_stream`], `agent_rng`), continuing over the games of the match |
//! | `1000 + j` | game `j ≥ 1` of the deal's match, dealt on from game `j − 1` ([`deal_next`]) |
//!
//! Every rotation of a deal shares its deck: only the agents' streams depend on the rotation.

use crate::deal_spec::{deal_with_spec, DealPlan};
use crate::game::{Game, GameId, GameState, Seat, MAX_SEATS};
use crate::games::kind::GameKind;
use crate::rng::{stream_rng, GameRng, DEAL_STREAM};

/// The RNG stream of the agent at `seat` in rotation `rotation` of a deal: `1 + 8·rotation + seat`.
pub const fn agent_stream(rotation: u8, seat: Seat) -> u64 {
    1 + (rotation as u64) * MAX_SEATS as u64 + seat as u64
}

/// The RNG stream of game `j` of a deal's match: the deal's own stream 0 for game 0, then
/// `1000 + j`, clear of the agents' streams.
const fn match_deal_stream(j: u32) -> u64 {
    if j == 0 {
        DEAL_STREAM
    } else {
        1000 + j as u64
    }
}

/// The RNG that deals game `j` of deal `deal`'s match under `master` (game 0: the deal itself).
pub fn deal_rng(master: u64, deal: u64, j: u32) -> GameRng {
    stream_rng(master, deal, match_deal_stream(j))
}

/// The RNG of the agent at `seat` in game `id` (its deal and rotation).
pub(crate) fn agent_rng(id: GameId, seat: Seat) -> GameRng {
    stream_rng(id.master, id.deal, agent_stream(id.rotation, seat))
}

/// The agents' RNGs of game `id`, one per seat (see `agent_rng`).
pub fn agent_rngs(id: GameId) -> [GameRng; MAX_SEATS] {
    std::array::from_fn(|s| agent_rng(id, s as Seat))
}

/// Deal `deal` of `game` under `master` by a seeded shuffle: what `bailab play --seed master
/// --index deal` plays, and game 0 of deal `deal` of a run.
pub fn seeded_deal<G: Game>(game: &G, master: u64, deal: u64) -> G::State {
    game.deal(&mut deal_rng(master, deal, 0))
}

/// Game `j ≥ 1` of deal `deal`'s match under `master`, dealt on from game `j − 1`, `previous`.
pub fn deal_next<G: Game>(
    game: &G,
    previous: &G::State,
    master: u64,
    deal: u64,
    j: u32,
) -> G::State {
    game.deal_next(previous, &mut deal_rng(master, deal, j))
}

/// How game 0 of a deal's match is dealt.
pub enum Opening<'a, S> {
    /// A seeded shuffle ([`seeded_deal`]).
    Seeded,
    /// A checked deal plan: its fixed cards, the rest shuffled with the deal's stream.
    Plan(&'a DealPlan),
    /// A given deal (e.g. from a deck text), the same for every deal index.
    Given(&'a S),
}

impl<S> Clone for Opening<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Opening<'_, S> {}

impl<S: GameState> Opening<'_, S> {
    /// Game 0 of deal `deal` of `game` under `master`, dealt this way.
    pub fn deal<G: GameKind<State = S>>(self, game: &G, master: u64, deal: u64) -> S {
        match self {
            Opening::Seeded => seeded_deal(game, master, deal),
            Opening::Plan(plan) => deal_with_spec(game, plan, &mut deal_rng(master, deal, 0)),
            Opening::Given(s) => s.clone(),
        }
    }
}
