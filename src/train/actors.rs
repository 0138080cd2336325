//! The actors of deep Monte-Carlo training: self-play games in which every seat plays the current
//! network ε-greedily from its own view, each decision with more than one legal action kept as a
//! sample (the view tensor and the chosen action's vector) whose target is the seat's final
//! payout over the game's payout scale (the Monte-Carlo return).
//!
//! With rollout targets (`--rollouts P`), a share `P` of the real choices is instead kept whole:
//! from the true deal, every legal action is played and then the rollout policy to the end
//! (the rollout agent, `greedy` unless `--rollout-agent` names another, at every seat; with
//! `--rollout-policy own` the deciding seat by the current network, with `all` every seat by
//! it), and each action's row has as target its payout minus the mean over the legal actions
//! (an advantage: what the deal gives every action alike cancels). The network still reads the
//! seat's view only; the target, as a Monte-Carlo return does, comes from the real deal.
//!
//! Training game `g` is deal `TRAIN_DEALS_FROM + g` of the seed, each seat drawing from its own
//! stream ([`crate::sim::deal::seeds`]); games are played in parallel in fixed chunks and their
//! samples gathered in game order, so a generation's samples do not depend on the thread count.

use super::config::{Resample, RolloutPolicy};
use crate::agent::{play_out, Agent};
use crate::game::SeatView;
use crate::game::{ActionBuffer, GameId, GameState, Seat, MAX_SEATS};
use crate::games::kind::GameKind;
use crate::games::observe::{ActionOf, ViewOf};
use crate::generic_agents::catalogue::make_agent;
use crate::generic_agents::net::qnet::QNet;
use crate::generic_agents::net::{argmax, NetPolicy, Sampling};
use crate::rng::{stream_rng, GameRng};
use crate::sim::deal::seeds::{agent_rngs, seeded_deal};
use crate::sim::deal::turns::{Turn, Turns, OUTSIDE};
use rand::Rng;
use rayon::prelude::*;
use std::sync::Arc;

/// Training game `g` is deal `TRAIN_DEALS_FROM + g` of the seed, apart from evaluation deals.
pub(crate) const TRAIN_DEALS_FROM: u64 = 1 << 42;

/// Games per parallel chunk (fixed, so that results do not depend on the threads).
const CHUNK: u64 = 4;

/// The stream of a training game's rollouts: which choices are played out, and the draws of
/// their players.
const ROLLOUT_STREAM: u64 = 0x726f_6c6c; // "roll"

/// The samples of a run of self-play games, in game order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Samples {
    /// Rows of view tensor then action vector.
    pub(crate) inputs: Vec<f32>,
    /// The target of each row: the deciding seat's payout over the payout scale (with rollout
    /// targets, minus the mean over the choice's legal actions).
    pub(crate) targets: Vec<f32>,
    /// Choices kept as samples (with rollout targets, one for the rows of all legal actions).
    pub(crate) decisions: u64,
    /// Decisions taken, one legal action or more.
    pub(crate) all_decisions: u64,
}

impl Samples {
    /// Appends `other`.
    fn extend(&mut self, other: Samples) {
        self.inputs.extend(other.inputs);
        self.targets.extend(other.targets);
        self.decisions += other.decisions;
        self.all_decisions += other.all_decisions;
    }
}

/// How the actors choose: the network's best action, but a uniform legal action with chance
/// `eps`, else greedy's with chance `guide` (training starts from greedy's play, and the chance
/// falls to 0 over the first `guide_decisions`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Behaviour<'a> {
    /// The chance of a uniform legal action.
    pub(crate) eps: f64,
    /// The chance of greedy's action when not uniform.
    pub(crate) guide: f64,
    /// λ of the targets' λ-returns (1: the payout, the Monte-Carlo return).
    pub(crate) lambda: f64,
    /// The share of real choices played out for rollout targets (0: Monte-Carlo targets).
    pub(crate) rollouts: f64,
    /// Rows a choice gives at least on average: one of `k` legal actions is played out with
    /// chance at least `min_rows / k` (0: the share `rollouts` alone).
    pub(crate) rollout_min_rows: f64,
    /// Who plays the rollouts.
    pub(crate) rollout_policy: RolloutPolicy,
    /// Worlds each rollout is played in (the true deal, then worlds drawn anew).
    pub(crate) rollout_worlds: u32,
    /// What the worlds after the first draw anew.
    pub(crate) rollout_resample: Resample,
    /// The spec of the agent that plays the rollouts' seats the network does not (checked
    /// before training starts).
    pub(crate) rollout_agent: &'a str,
}

impl Behaviour<'_> {
    /// The chance that a choice of `legal` legal actions is played out: the share `rollouts`, or
    /// `rollout_min_rows / legal` where that is more (at most 1).
    fn rollout_chance(&self, legal: usize) -> f64 {
        if self.rollout_min_rows == 0.0 {
            return self.rollouts;
        }
        self.rollouts
            .max(self.rollout_min_rows / legal as f64)
            .min(1.0)
    }
}

/// One actor: a policy, the seat and the network's value (its highest Q) of each sample of the
/// game in play, and the rollout agent with its buffers.
struct Actor<'a, G: GameKind> {
    policy: NetPolicy<G>,
    behaviour: Behaviour<'a>,
    seats: Vec<Seat>,
    values: Vec<f32>,
    rollout: Box<dyn Agent<G::State>>,
    /// The network for the rollouts' choices by the network (buffers apart from `policy`'s,
    /// which hold the choice being played out).
    rollout_net: NetPolicy<G>,
    rollout_actions: <G::State as GameState>::Actions,
    returns: Vec<f32>,
}

/// The players of a rollout, as `policy` says: `seat` (or every seat) by `net`, the others by
/// the rollout agent.
struct RolloutPlayers<'a, G: GameKind> {
    policy: RolloutPolicy,
    seat: Seat,
    net: &'a mut NetPolicy<G>,
    agent: &'a mut dyn Agent<G::State>,
}

impl<G: GameKind> Agent<G::State> for RolloutPlayers<'_, G> {
    fn act(&mut self, view: &ViewOf<'_, G>, legal: &[ActionOf<G>], rng: &mut GameRng) -> usize {
        if self.policy.by_net(view.seat(), self.seat) {
            self.net.choose(view, legal, rng)
        } else {
            self.agent.act(view, legal, rng)
        }
    }
}

impl<G: GameKind> Actor<'_, G> {
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
        let mut rollout_rng = stream_rng(seed, deal, ROLLOUT_STREAM);
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
                    let chosen = self.decide(&state.view(seat), actions, rng);
                    out.all_decisions += 1;
                    if actions.len() > 1 {
                        if self.behaviour.rollouts == 0.0 {
                            self.keep(chosen, out);
                            self.seats.push(seat);
                        } else if rollout_rng.random::<f64>()
                            < self.behaviour.rollout_chance(actions.len())
                        {
                            self.roll_out(&state, seat, actions, &mut rollout_rng, out);
                        }
                    }
                    state.apply(actions[chosen]);
                }
            }
        };
        if self.behaviour.rollouts > 0.0 {
            return; // the rows' targets are set
        }
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

    /// Chooses among `legal` ε-greedily (every legal action's input written in the policy).
    fn decide(&mut self, view: &ViewOf<'_, G>, legal: &[ActionOf<G>], rng: &mut GameRng) -> usize {
        if legal.len() == 1 {
            return 0;
        }
        let Behaviour {
            eps, guide, lambda, ..
        } = self.behaviour;
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
        chosen
    }

    /// Keeps the sample of the choice just decided, action `chosen`, in `out` (its target set at
    /// the game's end).
    fn keep(&self, chosen: usize, out: &mut Samples) {
        out.inputs.extend_from_slice(self.policy.state());
        out.inputs
            .extend_from_slice(self.policy.action_input(chosen));
        out.targets.push(0.0);
        out.decisions += 1;
    }

    /// Keeps a row for every legal action of the choice just decided by `seat` in `state`: the
    /// action then the rollout policy to the end, on common draws, in each world (the true
    /// deal, then worlds drawn anew: the stock's hidden order, or all the seat does not see);
    /// its target is its mean payout over the worlds minus the mean over the legal actions, over
    /// the payout scale.
    fn roll_out(
        &mut self,
        state: &G::State,
        seat: Seat,
        legal: &[ActionOf<G>],
        rng: &mut GameRng,
        out: &mut Samples,
    ) {
        self.returns.clear();
        self.returns.resize(legal.len(), 0.0);
        let mut players = RolloutPlayers {
            policy: self.behaviour.rollout_policy,
            seat,
            net: &mut self.rollout_net,
            agent: self.rollout.as_mut(),
        };
        let worlds = self.behaviour.rollout_worlds.max(1);
        // the true deal first, then each world drawn anew (a copy made only then)
        let mut world: Option<G::State> = None;
        // the shuffles' own stream, so that the worlds leave the choices played out unchanged
        let mut shuffles = GameRng::new(u128::from(rng.clone().random::<u64>()) << 64 | 1);
        for w in 0..worlds {
            match self.behaviour.rollout_resample {
                _ if w == 0 => {}
                Resample::Stock => {
                    let drawn = world.get_or_insert_with(|| state.clone());
                    shuffle_hidden_stock::<G>(drawn, &mut shuffles);
                }
                Resample::View => world = Some(state.view(seat).determinize(&mut shuffles)),
            }
            let from = world.as_ref().unwrap_or(state);
            for (&action, total) in legal.iter().zip(self.returns.iter_mut()) {
                let (mut s, mut draws) = (from.clone(), rng.clone());
                s.apply(action);
                play_out(&mut s, &mut self.rollout_actions, &mut players, &mut draws);
                let payout =
                    s.outcome().expect("rollouts end the game").payouts()[usize::from(seat)];
                *total += (payout as f64 / s.payout_scale()) as f32;
            }
        }
        rng.random::<u64>(); // the next choice's rollouts draw anew
        let per_world = 1.0 / worlds as f32;
        self.returns.iter_mut().for_each(|r| *r *= per_world);
        let mean = self.returns.iter().sum::<f32>() / self.returns.len() as f32;
        for (i, &r) in self.returns.iter().enumerate() {
            out.inputs.extend_from_slice(self.policy.state());
            out.inputs.extend_from_slice(self.policy.action_input(i));
            out.targets.push(r - mean);
        }
        out.decisions += 1;
    }
}

/// Shuffles the part of the stock whose order no seat knows (a uniform shuffle given
/// everything else: another world the seat's choice could be in).
fn shuffle_hidden_stock<G: GameKind>(state: &mut G::State, rng: &mut GameRng) {
    let hidden = G::hidden_stock(state);
    for i in (hidden.start + 1..hidden.end).rev() {
        let j = rng.random_range(hidden.start..=i);
        G::swap_stock(state, i, j);
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
    behaviour: Behaviour<'_>,
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
                rollout: make_agent::<G>(behaviour.rollout_agent)
                    .expect("the rollout agent was checked"),
                rollout_net: NetPolicy::new(make_game(), Arc::clone(net), Sampling::default()),
                rollout_actions: Default::default(),
                returns: Vec::new(),
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
    use super::{lambda_returns, self_play, Behaviour, Resample, RolloutPolicy};
    use crate::game::RuleMap;
    use crate::games::kind::{GameCore, GameKind};
    use crate::games::tienlen::TienLen;
    use crate::games::tusac::TuSac;
    use crate::generic_agents::net::input_lengths;
    use crate::generic_agents::net::qnet::QNet;
    use crate::train::learner::{Adam, Learner};
    use std::sync::Arc;

    /// A network of 8 hidden units (first weights of seed 1) for `game`, and its input lengths.
    fn tiny_net<G: GameKind>(game: &G) -> (usize, usize, Arc<QNet>) {
        let (state_len, action_len) = input_lengths(game);
        let learner = Learner::new(state_len, action_len, &[8], 1, Adam::default(), 1);
        (state_len, action_len, Arc::new(learner.qnet().unwrap()))
    }

    #[test]
    fn rollout_rows_are_each_legal_actions_advantage() {
        let make_game = || TienLen::build("south", 4, &RuleMap::new()).unwrap();
        let (state_len, action_len, net) = tiny_net(&make_game());
        let behaviour = Behaviour {
            eps: 0.05,
            guide: 0.5,
            lambda: 1.0,
            rollouts: 1.0,
            rollout_min_rows: 0.0,
            rollout_policy: RolloutPolicy::Greedy,
            rollout_worlds: 1,
            rollout_resample: Default::default(),
            rollout_agent: "greedy",
        };
        let samples = self_play(&make_game, &net, behaviour, 3, 0..2);
        let groups = rows_per_choice(&samples, state_len, action_len);
        assert_eq!(groups.len() as u64, samples.decisions);
        let mut targets = samples.targets.as_slice();
        for &n in &groups {
            let (choice, rest) = targets.split_at(n);
            assert!(n >= 2 && choice.iter().sum::<f32>().abs() < 1e-4);
            targets = rest;
        }
        assert!(
            samples.targets.iter().any(|&t| t.abs() > 0.01),
            "actions differ"
        );
        // every real choice is played out: as many as the Monte-Carlo samples
        let mc = Behaviour {
            rollouts: 0.0,
            ..behaviour
        };
        let returns = self_play(&make_game, &net, mc, 3, 0..2);
        assert_eq!(returns.decisions, samples.decisions);
        assert_eq!(returns.targets.len() as u64, returns.decisions);
        // the network in the rollouts, at the deciding seat or every seat: the same rows, each
        // policy its own targets
        let played_by = |rollout_policy| {
            let b = Behaviour {
                rollout_policy,
                ..behaviour
            };
            self_play(&make_game, &net, b, 3, 0..2)
        };
        let (own, all) = (played_by(RolloutPolicy::Own), played_by(RolloutPolicy::All));
        assert_eq!(own.inputs, samples.inputs);
        assert_eq!(all.inputs, samples.inputs);
        assert_ne!(own.targets, samples.targets);
        assert_ne!(all.targets, samples.targets);
        assert_ne!(all.targets, own.targets);
        // another rollout agent at the seats the network does not play: the same rows, its own
        // targets
        let random = self_play(
            &make_game,
            &net,
            Behaviour {
                rollout_agent: "random",
                ..behaviour
            },
            3,
            0..2,
        );
        assert_eq!(random.inputs, samples.inputs);
        assert_ne!(random.targets, samples.targets);
    }

    /// Greedy actors playing out half their choices with greedy rollouts in `worlds` worlds.
    fn in_worlds(worlds: u32, resample: Resample) -> Behaviour<'static> {
        Behaviour {
            eps: 0.05,
            guide: 1.0,
            lambda: 1.0,
            rollouts: 0.5,
            rollout_min_rows: 0.0,
            rollout_policy: RolloutPolicy::Greedy,
            rollout_worlds: worlds,
            rollout_resample: resample,
            rollout_agent: "greedy",
        }
    }

    #[test]
    fn rollout_worlds_average_reshuffled_stocks() {
        let make_game = || TuSac::build("sisepai21", 4, &RuleMap::new()).unwrap();
        let (state_len, action_len, net) = tiny_net(&make_game());
        let worlds = |worlds| {
            let behaviour = in_worlds(worlds, Resample::Stock);
            self_play(&make_game, &net, behaviour, 5, 0..2)
        };
        let (one, four) = (worlds(1), worlds(4));
        // the same choices played out, with the same rows; other targets, still advantages
        assert!(one.decisions > 0);
        assert_eq!(four.inputs, one.inputs);
        assert_ne!(four.targets, one.targets);
        let mut targets = four.targets.as_slice();
        for n in rows_per_choice(&four, state_len, action_len) {
            let (choice, rest) = targets.split_at(n);
            let sum = choice.iter().sum::<f32>();
            assert!(sum.abs() < 1e-4, "a choice's targets sum to 0");
            targets = rest;
        }
        // a world is a deal: as many worlds give the same rows and targets again
        assert_eq!(worlds(4).targets, four.targets);
    }

    /// The number of rows of each choice played out in `samples` (a choice's rows share its
    /// view tensor).
    fn rows_per_choice(
        samples: &super::Samples,
        state_len: usize,
        action_len: usize,
    ) -> Vec<usize> {
        let rows: Vec<&[f32]> = samples.inputs.chunks(state_len + action_len).collect();
        let mut sizes: Vec<usize> = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            if r == 0 || rows[r - 1][..state_len] != row[..state_len] {
                sizes.push(0);
            }
            *sizes.last_mut().unwrap() += 1;
        }
        sizes
    }

    #[test]
    fn least_rows_play_out_every_choice_of_few_actions() {
        let chance = |rollouts, rollout_min_rows, legal| {
            Behaviour {
                rollouts,
                rollout_min_rows,
                ..in_worlds(1, Resample::Stock)
            }
            .rollout_chance(legal)
        };
        assert_eq!(chance(0.25, 0.0, 2), 0.25);
        assert_eq!(chance(0.25, 2.0, 2), 1.0);
        assert_eq!(chance(0.25, 2.0, 4), 0.5);
        assert_eq!(chance(0.25, 2.0, 12), 0.25);
        assert_eq!(chance(0.25, 3.0, 2), 1.0);
        // sisepai21: its claims have two legal actions, its discards many; the choices played
        // out do not change the play, so every run meets the same choices
        let make_game = || TuSac::build("sisepai21", 4, &RuleMap::new()).unwrap();
        let (state_len, action_len, net) = tiny_net(&make_game());
        let sizes = |rollouts, rollout_min_rows| {
            let behaviour = Behaviour {
                rollouts,
                rollout_min_rows,
                ..in_worlds(1, Resample::Stock)
            };
            let samples = self_play(&make_game, &net, behaviour, 5, 0..4);
            rows_per_choice(&samples, state_len, action_len)
        };
        let count =
            |sizes: &[usize], pick: fn(usize) -> bool| sizes.iter().filter(|&&n| pick(n)).count();
        let (all, quarter, least) = (sizes(1.0, 0.0), sizes(0.25, 0.0), sizes(0.25, 2.0));
        let (two, many) = (|n| n == 2, |n| n > 4);
        assert!(count(&all, two) > 20 && count(&all, many) > 20);
        assert!(count(&quarter, two) < count(&all, two));
        assert_eq!(
            count(&least, two),
            count(&all, two),
            "every two-action choice"
        );
        assert!(
            count(&least, many) < count(&all, many),
            "a share of the rest"
        );
    }

    #[test]
    fn view_worlds_redraw_the_hands_stock_worlds_only_the_stock() {
        // Tiến Lên has no stock: its stock worlds are the true deal again, its view worlds
        // deal the other hands anew
        let make_game = || TienLen::build("south", 4, &RuleMap::new()).unwrap();
        let (_, _, net) = tiny_net(&make_game());
        let worlds =
            |worlds, resample| self_play(&make_game, &net, in_worlds(worlds, resample), 5, 0..2);
        let one = worlds(1, Resample::Stock);
        let (stock, view) = (worlds(4, Resample::Stock), worlds(4, Resample::View));
        assert!(one.decisions > 0);
        assert_eq!(view.inputs, one.inputs);
        let most_apart = |a: &[f32], b: &[f32]| {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0f32, f32::max)
        };
        assert!(most_apart(&stock.targets, &one.targets) < 1e-5);
        assert!(most_apart(&view.targets, &one.targets) > 0.01);
    }

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
