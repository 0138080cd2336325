//! The one play loop: a game played decision by decision with every agent hook called. [`Turns`]
//! tells the agents that a game begins ([`Agent::begin`]), asks the agent of each seat to decide
//! ([`Agent::act`]) and tells them that it ended ([`Agent::end`]). A seat may be played by the
//! caller instead ([`OUTSIDE`]: a learning seat stepped from Python, a teacher whose decisions are
//! collected): [`Turns::advance`] stops at that seat's decisions and the caller applies its
//! choice. [`play_out`] plays a game to its end with it. The agents' faults ([`Agent::fault`],
//! [`Agent::retry`]) are asked after each deal by the caller, which decides what a failure stops
//! ([`crate::agent::take_fault`]). Allocation-free.

use super::seeds::{agent_rngs, seeded_deal};
use crate::agent::Agent;
use crate::game::MAX_SEATS;
use crate::game::{ActionBuffer, Decision, Game, GameId, GameState, Outcome, Seat, SeatView};
use crate::rng::GameRng;

/// The agent index of a seat that no agent plays: its caller decides there (see
/// [`Turns::advance`]).
pub const OUTSIDE: usize = usize::MAX;

/// What a game loop observer is shown: the state after the deal (no decision) or after one.
pub type Step<'a, S> = (&'a S, Option<(Decision, <S as GameState>::Action)>);

/// Where [`Turns::advance`] stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// This seat, played from outside, is to decide.
    Outside(Seat),
    /// The game is over (every agent was told).
    Over(Outcome),
}

/// The agents of a game in play: `agents[seat_agent[s]]` plays seat `s` (none if
/// `seat_agent[s]` is [`OUTSIDE`]), drawing from `rngs[s]`.
pub struct Turns<'a, S: GameState> {
    /// The agents.
    pub agents: &'a mut [Box<dyn Agent<S>>],
    /// The agent index of each seat, or [`OUTSIDE`].
    pub seat_agent: &'a [usize],
    /// The RNG of each seat (see `super::seeds::agent_rng`).
    pub rngs: &'a mut [GameRng; MAX_SEATS],
}

impl<S: GameState> Turns<'_, S> {
    /// Tells the agent of every seat, in seat order, that the game of `state` begins.
    pub fn begin(&mut self, state: &S) {
        for seat in 0..state.seats() as Seat {
            let held = self.seat_agent[usize::from(seat)];
            if held != OUTSIDE {
                self.agents[held].begin(seat, &mut self.rngs[usize::from(seat)]);
            }
        }
    }

    /// Plays the agents' decisions from `state` until a seat played from outside is to decide,
    /// or the game is over: then every agent is told of its end (so a finished game is advanced
    /// once). `observe` sees the state after each decision the agents take.
    pub fn advance(&mut self, state: &mut S, mut observe: impl FnMut(Step<'_, S>)) -> Turn {
        let mut actions = S::Actions::default();
        while let Some(seat) = state.to_move() {
            let held = self.seat_agent[usize::from(seat)];
            if held == OUTSIDE {
                return Turn::Outside(seat);
            }
            state.legal_actions(&mut actions);
            let legal = actions.as_slice();
            let chosen = {
                let view = state.view(seat);
                debug_assert_eq!(view.seat(), seat);
                self.agents[held].act(&view, legal, &mut self.rngs[usize::from(seat)])
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
        for seat in 0..state.seats() as Seat {
            let held = self.seat_agent[usize::from(seat)];
            if held != OUTSIDE {
                self.agents[held].end(seat, &outcome);
            }
        }
        Turn::Over(outcome)
    }
}

/// Plays one game: deal `id.deal` of `id.master` ([`seeded_deal`]), `agents[seat_agent[s]]`
/// acting for seat `s` with its own RNG stream of `id`. `observe` sees the state after the deal
/// and after every decision. Allocation-free.
pub fn play_game<G: Game>(
    game: &G,
    id: GameId,
    agents: &mut [Box<dyn Agent<G::State>>],
    seat_agent: &[usize],
    observe: impl FnMut(Step<'_, G::State>),
) -> Outcome {
    let state = seeded_deal(game, id.master, id.deal);
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
/// a match draw from continuing streams); `state` is left at the end of the game. Every seat is
/// played by an agent (none is [`OUTSIDE`]), each told of the game's start and end.
pub fn play_out<S: GameState>(
    state: &mut S,
    agents: &mut [Box<dyn Agent<S>>],
    seat_agent: &[usize],
    rngs: &mut [GameRng; MAX_SEATS],
    mut observe: impl FnMut(Step<'_, S>),
) -> Outcome {
    observe((state, None));
    let mut turns = Turns {
        agents,
        seat_agent,
        rngs,
    };
    turns.begin(state);
    match turns.advance(state, observe) {
        Turn::Over(outcome) => outcome,
        Turn::Outside(seat) => panic!("play_out: seat {seat} has no agent"),
    }
}
