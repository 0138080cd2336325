//! The actors of deep Monte-Carlo training: self-play games in which every seat plays the current
//! network ε-greedily from its own view, each decision with more than one legal action kept as a
//! sample (the view tensor and the chosen action's vector) whose target is the seat's final
//! payout over the game's payout scale (the Monte-Carlo return).
//!
//! Training game `g` is deal `TRAIN_DEALS_FROM + g` of the seed, each seat drawing from its own
//! stream ([`crate::sim::deal::seeds`]); games are played in parallel in fixed chunks and their
//! samples gathered in game order, so a generation's samples do not depend on the thread count.

use crate::game::{ActionBuffer, GameId, GameState, Seat, MAX_SEATS};
use crate::games::kind::GameKind;
use crate::games::observe::{ActionOf, ViewOf};
use crate::generic_agents::net::qnet::QNet;
use crate::generic_agents::net::{argmax, NetPolicy, Sampling};
use crate::sim::deal::seeds::{agent_rngs, seeded_deal};
use crate::sim::deal::turns::{Turn, Turns, OUTSIDE};
use rand::Rng;
use rayon::prelude::*;
use std::sync::Arc;

/// Training game `g` is deal `TRAIN_DEALS_FROM + g` of the seed, apart from evaluation deals.
pub(crate) const TRAIN_DEALS_FROM: u64 = 1 << 42;

/// Games per parallel chunk (fixed, so that results do not depend on the threads).
const CHUNK: u64 = 4;

/// The samples of a run of self-play games, in game order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Samples {
    /// Rows of view tensor then action vector.
    pub(crate) inputs: Vec<f32>,
    /// The target of each row: the deciding seat's payout over the payout scale.
    pub(crate) targets: Vec<f32>,
    /// Decisions taken, one legal action or more.
    pub(crate) all_decisions: u64,
}

impl Samples {
    /// Appends `other`.
    fn extend(&mut self, other: Samples) {
        self.inputs.extend(other.inputs);
        self.targets.extend(other.targets);
        self.all_decisions += other.all_decisions;
    }
}

/// How the actors choose: the network's best action, but a uniform legal action with chance
/// `eps`, else greedy's with chance `guide` (training starts from greedy's play, and the chance
/// falls to 0 over the first `guide_decisions`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Behaviour {
    /// The chance of a uniform legal action.
    pub(crate) eps: f64,
    /// The chance of greedy's action when not uniform.
    pub(crate) guide: f64,
}

/// One actor: a policy and the seats of a game's samples.
struct Actor<G: GameKind> {
    policy: NetPolicy<G>,
    behaviour: Behaviour,
    seats: Vec<Seat>,
}

impl<G: GameKind> Actor<G> {
    /// Plays training game `g` of `seed` and appends its samples to `out`.
    fn play(&mut self, seed: u64, g: u64, out: &mut Samples) {
        let deal = TRAIN_DEALS_FROM + g;
        let mut state = seeded_deal(self.policy.game(), seed, deal);
        let id = GameId {
            master: seed,
            deal,
            rotation: 0,
        };
        let mut rngs = agent_rngs(id);
        let outside = [OUTSIDE; MAX_SEATS];
        let mut turns = Turns {
            agents: &mut [],
            seat_agent: &outside,
            rngs: &mut rngs,
        };
        turns.begin(&state);
        let first_row = out.targets.len();
        self.seats.clear();
        let mut legal = <G::State as GameState>::Actions::default();
        let outcome = loop {
            match turns.advance(&mut state, |_| {}) {
                Turn::Over(outcome) => break outcome,
                Turn::Outside(seat) => {
                    state.legal_actions(&mut legal);
                    let actions = legal.as_slice();
                    let rng = &mut turns.rngs[usize::from(seat)];
                    let chosen = self.decide(&state.view(seat), actions, rng, out);
                    out.all_decisions += 1;
                    if actions.len() > 1 {
                        self.seats.push(seat);
                    }
                    state.apply(actions[chosen]);
                }
            }
        };
        let scale = state.payout_scale();
        for (row, &seat) in self.seats.iter().enumerate() {
            out.targets[first_row + row] =
                (outcome.payouts[usize::from(seat)] as f64 / scale) as f32;
        }
    }

    /// Chooses among `legal` ε-greedily, keeping the sample of a real choice in `out` (its
    /// target set at the game's end).
    fn decide(
        &mut self,
        view: &ViewOf<'_, G>,
        legal: &[ActionOf<G>],
        rng: &mut crate::rng::GameRng,
        out: &mut Samples,
    ) -> usize {
        if legal.len() == 1 {
            return 0;
        }
        let Behaviour { eps, guide } = self.behaviour;
        let greedy = self.policy.observe(view, legal, rng);
        let chosen = if rng.random::<f64>() < eps {
            crate::agent::uniform_index(legal.len(), rng)
        } else if guide > 0.0 && rng.random::<f64>() < guide {
            greedy
        } else {
            argmax(self.policy.q_values(legal.len()))
        };
        out.inputs.extend_from_slice(self.policy.state());
        out.inputs
            .extend_from_slice(self.policy.action_input(chosen));
        out.targets.push(0.0);
        chosen
    }
}

/// Plays training games `games` of `seed` with `net` as `behaviour` says on the current rayon
/// pool; `make_game` builds the game for each worker.
pub(crate) fn self_play<G: GameKind>(
    make_game: &(dyn Fn() -> G + Sync),
    net: &Arc<QNet>,
    behaviour: Behaviour,
    seed: u64,
    games: std::ops::Range<u64>,
) -> Samples {
    let chunks: Vec<u64> = (games.start..games.end).step_by(CHUNK as usize).collect();
    let parts: Vec<Samples> = chunks
        .par_iter()
        .map_init(
            || Actor {
                policy: NetPolicy::new(make_game(), Arc::clone(net), Sampling::default()),
                behaviour,
                seats: Vec::new(),
            },
            |actor, &start| {
                let mut out = Samples::default();
                for g in start..(start + CHUNK).min(games.end) {
                    actor.play(seed, g, &mut out);
                }
                out
            },
        )
        .collect();
    let mut all = Samples::default();
    for part in parts {
        all.extend(part);
    }
    all
}
