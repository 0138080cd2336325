//! Playing games: the seeded game loop shared by `play`, the tests and (later) the runner.

use crate::agents::Policy;
use crate::game::{ActionBuffer, Game, GameState, Outcome, Seat};
use crate::rng::{stream_rng, GameRng, DEAL_STREAM};

/// The stream of seat `seat`'s policy RNG for a deal (the deal itself is stream 0).
pub const fn seat_stream(seat: Seat) -> u64 {
    1 + seat as u64
}

/// A decision just taken: the seat, the number of legal actions and the index chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The deciding seat.
    pub seat: Seat,
    /// How many legal actions it had.
    pub legal: usize,
    /// The index of the chosen action in the legal list.
    pub chosen: usize,
}

/// Plays deal `index` of master seed `master` with one policy per seat (repeated if fewer are
/// given). `observe` sees the state after the deal (`None`) and after every decision.
pub fn play_seeded<G: Game>(
    game: &G,
    master: u64,
    index: u64,
    policies: &[Policy],
    mut observe: impl FnMut(&G::State, Option<(Decision, <G::State as GameState>::Action)>),
) -> Outcome {
    let mut state = game.deal(&mut stream_rng(master, index, DEAL_STREAM));
    let mut rngs: Vec<GameRng> = (0..game.seats() as Seat)
        .map(|s| stream_rng(master, index, seat_stream(s)))
        .collect();
    observe(&state, None);
    let mut actions = <G::State as GameState>::Actions::default();
    while let Some(seat) = state.to_move() {
        state.legal_actions(&mut actions);
        let legal = actions.as_slice().len();
        let policy = policies[seat as usize % policies.len()];
        let chosen = policy.choose(legal, &mut rngs[seat as usize]);
        let action = actions.as_slice()[chosen];
        state.apply(action);
        observe(
            &state,
            Some((
                Decision {
                    seat,
                    legal,
                    chosen,
                },
                action,
            )),
        );
    }
    state.outcome().expect("a finished game has an outcome")
}
