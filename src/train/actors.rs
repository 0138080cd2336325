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
    /// λ of the targets' λ-returns (1: the payout, the Monte-Carlo return).
    pub(crate) lambda: f64,
}

/// One actor: a policy, and the seat and the network's value (its highest Q) of each sample
/// of the game in play.
struct Actor<G: GameKind> {
    policy: NetPolicy<G>,
    behaviour: Behaviour,
    seats: Vec<Seat>,
    values: Vec<f32>,
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
        self.values.clear();
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
        let targets = &mut out.targets[first_row..];
        if self.behaviour.lambda == 1.0 {
            for (target, &seat) in targets.iter_mut().zip(&self.seats) {
                *target = (outcome.payouts[usize::from(seat)] as f64 / scale) as f32;
            }
            return;
        }
        let mut payouts = [0.0; MAX_SEATS];
        for (p, &won) in payouts.iter_mut().zip(&outcome.payouts) {
            *p = (won as f64 / scale) as f32;
        }
        lambda_returns(
            &self.seats,
            &self.values,
            payouts,
            self.behaviour.lambda,
            targets,
        );
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
        let Behaviour { eps, guide, lambda } = self.behaviour;
        let greedy = self.policy.observe(view, legal, rng);
        let best = (lambda < 1.0).then(|| {
            let q = self.policy.q_values(legal.len());
            let best = argmax(q);
            self.values.push(q[best]);
            best
        });
        let chosen = if rng.random::<f64>() < eps {
            crate::agent::uniform_index(legal.len(), rng)
        } else if guide > 0.0 && rng.random::<f64>() < guide {
            greedy
        } else {
            best.unwrap_or_else(|| argmax(self.policy.q_values(legal.len())))
        };
        out.inputs.extend_from_slice(self.policy.state());
        out.inputs
            .extend_from_slice(self.policy.action_input(chosen));
        out.targets.push(0.0);
        chosen
    }
}

/// Writes the λ-return targets of a game's samples, decided by `seats` in that order: a seat's
/// last sample's target is its payout (in `payouts`), each earlier one's `(1 − λ)·v + λ·G`,
/// where `v` is the network's value at the seat's next decision and `G` that decision's target.
fn lambda_returns(
    seats: &[Seat],
    values: &[f32],
    payouts: [f32; MAX_SEATS],
    lambda: f64,
    targets: &mut [f32],
) {
    let lambda = lambda as f32;
    let mut next = payouts;
    for ((target, &seat), &value) in targets.iter_mut().zip(seats).zip(values).rev() {
        let next = &mut next[usize::from(seat)];
        *target = *next;
        *next = (1.0 - lambda) * value + lambda * *next;
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
                values: Vec::new(),
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

#[cfg(test)]
mod tests {
    use super::lambda_returns;

    #[test]
    fn lambda_returns_bootstrap_from_the_same_seats_next_value() {
        let (seats, values) = ([0u8, 1, 0, 1], [0.5, -0.25, 0.125, 0.75]);
        let payouts = [1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let mut targets = [9.0; 4];
        lambda_returns(&seats, &values, payouts, 0.5, &mut targets);
        // Each seat's last decision gets its payout; an earlier one mixes the value at its
        // next decision (0.125 for seat 0, 0.75 for seat 1) with that decision's target.
        assert_eq!(targets, [0.5 * 0.125 + 0.5, 0.5 * 0.75 - 0.5, 1.0, -1.0]);
        lambda_returns(&seats, &values, payouts, 1.0, &mut targets);
        assert_eq!(targets, [1.0, -1.0, 1.0, -1.0]);
        lambda_returns(&seats, &values, payouts, 0.0, &mut targets);
        assert_eq!(targets, [0.125, 0.75, 1.0, -1.0]);
    }
}
