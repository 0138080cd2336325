//! Playing games: the seeded game loop shared by `play`, `replay`, the runner and the tests.

pub mod deal;
pub mod files;
pub mod invariants;
pub mod play;
pub mod recorder;
pub mod run;
pub mod soak;
pub mod stats;
pub mod tournament;

use crate::agent::Agent;
use crate::game::{ActionBuffer, Game, GameState, Outcome, Seat, SeatView, MAX_SEATS};
use crate::rng::{stream_rng, GameRng, DEAL_STREAM};

/// The RNG stream of the agent at `seat` in rotation `rotation` of a deal: `1 + 8·rotation + seat`.
/// (The deal itself is stream 0; all rotations of a deal share its deck.)
pub const fn agent_stream(rotation: u8, seat: Seat) -> u64 {
    1 + (rotation as u64) * MAX_SEATS as u64 + seat as u64
}

use crate::game::{Decision, GameId};

/// The RNG stream of game `j` of a match's deal (game 0 is the deal's own stream 0; later games
/// use streams `1000 + j`, clear of the agents' streams).
pub const fn match_deal_stream(j: u32) -> u64 {
    if j == 0 {
        DEAL_STREAM
    } else {
        1000 + j as u64
    }
}

/// The agents' RNGs of a game, one stream per seat (see [`agent_stream`]).
pub fn agent_rngs(id: GameId) -> [GameRng; MAX_SEATS] {
    std::array::from_fn(|s| stream_rng(id.master, id.deal, agent_stream(id.rotation, s as Seat)))
}

/// What a game loop observer is shown: the state after the deal (no decision) or after one.
pub type Step<'a, S> = (&'a S, Option<(Decision, <S as GameState>::Action)>);

/// Plays one game. `agents[seat_agent[s]]` acts for seat `s`, each with its own RNG stream.
/// `observe` sees the state after the deal and after every decision. Allocation-free.
pub fn play_game<G: Game>(
    game: &G,
    id: GameId,
    agents: &mut [Box<dyn Agent<G::State>>],
    seat_agent: &[usize],
    observe: impl FnMut(Step<'_, G::State>),
) -> Outcome {
    let state = game.deal(&mut stream_rng(id.master, id.deal, DEAL_STREAM));
    play_from(state, id, agents, seat_agent, observe)
}

/// Plays a dealt game to the end (the deal may come from a given deck); the agents' RNG streams
/// come from `id` as in [`play_game`].
pub fn play_from<S: GameState>(
    mut state: S,
    id: GameId,
    agents: &mut [Box<dyn Agent<S>>],
    seat_agent: &[usize],
    observe: impl FnMut(Step<'_, S>),
) -> Outcome {
    play_out(&mut state, agents, seat_agent, &mut agent_rngs(id), observe)
}

/// Plays `state` to the end with the agents' own RNGs (kept by the caller, so that the games of
/// a match draw from continuing streams); `state` is left at the end of the game. Every seat's
/// agent is told of the game's start and end ([`Agent::begin`], [`Agent::end`]).
pub fn play_out<S: GameState>(
    state: &mut S,
    agents: &mut [Box<dyn Agent<S>>],
    seat_agent: &[usize],
    rngs: &mut [GameRng; MAX_SEATS],
    mut observe: impl FnMut(Step<'_, S>),
) -> Outcome {
    observe((state, None));
    let seats = state.seats() as Seat;
    for seat in 0..seats {
        agents[seat_agent[seat as usize]].begin(seat, &mut rngs[seat as usize]);
    }
    let mut actions = S::Actions::default();
    while let Some(seat) = state.to_move() {
        state.legal_actions(&mut actions);
        let legal = actions.as_slice();
        let agent = &mut agents[seat_agent[seat as usize]];
        let chosen = {
            let view = state.view(seat);
            debug_assert_eq!(view.seat(), seat);
            agent.act(&view, legal, &mut rngs[seat as usize])
        };
        let action = legal[chosen];
        let decision = Decision {
            seat,
            legal: legal.len(),
            chosen,
        };
        state.apply(action);
        observe((state, Some((decision, action))));
    }
    let outcome = state.outcome().expect("a finished game has an outcome");
    for seat in 0..seats {
        agents[seat_agent[seat as usize]].end(seat, &outcome);
    }
    outcome
}
