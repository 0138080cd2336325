//! `ismcts`: single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley
//! and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012).
//!
//! One tree over the acting seat's information sets. Each iteration samples a determinization
//! from the seat's view, descends only through actions legal in it, selecting by UCB1 with
//! availability counts in place of the parent's visits, expands one node, plays a rollout with
//! the rollout agent and backs up the per-seat rewards: each node holds the reward of the seat
//! that chose its action. The final move is the root child with the most visits.
//!
//! Game-independent: it needs only the contracts of `crate::game` — `determinize`, legal actions
//! whose identity (`Eq`) is the same in every determinization, and `payout_scale` to map payouts
//! to rewards in `[0, 1]` ([`crate::game::reward`]).

use super::Agent;
use crate::game::{reward, ActionBuffer, GameState, Seat, SeatView, MAX_SEATS};
use crate::rng::GameRng;
use rand::Rng;
use std::time::{Duration, Instant};

const NONE: u32 = u32::MAX;

/// One node of the tree: the action that leads to it from its parent and its statistics.
#[derive(Copy, Clone, Debug)]
struct Node<A: Copy> {
    action: Option<A>,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    /// The seat that chose `action`; the rewards stored are that seat's.
    mover: Seat,
    visits: u32,
    /// How many times this node's action was legal when its parent was visited.
    available: u32,
    reward: f64,
}

/// How the final move is chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FinalMove {
    /// The root child visited most (ties: the first in legal order).
    Visits,
    /// The root child with the highest mean reward.
    Mean,
}

/// The search settings of an `ismcts` agent.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct IsmctsParams {
    /// Iterations per decision (the node arena holds this many nodes).
    pub iterations: u32,
    /// A time budget per decision instead of a fixed count (not reproducible); `None` for off.
    pub time_budget: Option<Duration>,
    /// Exploration constant of UCB1 on rewards in `[0, 1]`.
    pub exploration: f64,
    /// How the final move is chosen.
    pub final_move: FinalMove,
    /// Mixed into the agent's RNG, to draw independent searches from the same game seed.
    pub seed: u64,
}

impl Default for IsmctsParams {
    fn default() -> Self {
        IsmctsParams {
            iterations: 1000,
            time_budget: None,
            exploration: 0.7,
            final_move: FinalMove::Visits,
            seed: 0,
        }
    }
}

/// The SO-ISMCTS agent, with its preallocated node arena and rollout agent.
pub struct Ismcts<S: GameState> {
    params: IsmctsParams,
    rollout: Box<dyn Agent<S>>,
    nodes: Vec<Node<S::Action>>,
    capacity: usize,
    /// Iterations run by the last search (for benchmarks).
    pub last_iterations: u64,
}

impl<S: GameState> Ismcts<S> {
    /// An agent with these settings and rollout policy. The arena is allocated here, once.
    /// With a time budget the arena holds `params.iterations` nodes and the search stops early
    /// when it is full.
    pub fn new(params: IsmctsParams, rollout: Box<dyn Agent<S>>) -> Ismcts<S> {
        let capacity = params.iterations as usize + 1;
        Ismcts {
            params,
            rollout,
            nodes: Vec::with_capacity(capacity),
            capacity,
            last_iterations: 0,
        }
    }

    fn push(&mut self, action: Option<S::Action>, parent: u32, mover: Seat) -> u32 {
        let id = self.nodes.len() as u32;
        let next_sibling = if parent == NONE {
            NONE
        } else {
            self.nodes[parent as usize].first_child
        };
        self.nodes.push(Node {
            action,
            parent,
            first_child: NONE,
            next_sibling,
            mover,
            visits: 0,
            available: 0,
            reward: 0.0,
        });
        if parent != NONE {
            self.nodes[parent as usize].first_child = id;
        }
        id
    }

    /// The child of `node` whose action is `a`, if expanded.
    fn child_with(&self, node: u32, a: S::Action) -> Option<u32> {
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            if self.nodes[c as usize].action == Some(a) {
                return Some(c);
            }
            c = self.nodes[c as usize].next_sibling;
        }
        None
    }

    fn ucb(&self, child: u32) -> f64 {
        let n = &self.nodes[child as usize];
        let visits = f64::from(n.visits.max(1));
        n.reward / visits
            + self.params.exploration * (f64::from(n.available.max(1)).ln() / visits).sqrt()
    }

    /// Selection and expansion in a determinization; returns the node to back up from.
    fn descend(&mut self, s: &mut S, actions: &mut S::Actions, rng: &mut GameRng) -> u32 {
        let mut node = 0u32;
        while let Some(seat) = s.to_move() {
            s.legal_actions(actions);
            let legal = actions.as_slice();
            let mut untried = 0usize;
            let mut best: Option<(f64, u32)> = None;
            for &a in legal {
                match self.child_with(node, a) {
                    Some(c) => {
                        self.nodes[c as usize].available += 1;
                        let u = self.ucb(c);
                        if best.is_none_or(|(bu, _)| u > bu) {
                            best = Some((u, c));
                        }
                    }
                    None => untried += 1,
                }
            }
            if untried > 0 && self.nodes.len() < self.capacity {
                let pick = rng.random_range(0..untried as u32) as usize;
                let a = legal
                    .iter()
                    .copied()
                    .filter(|&a| self.child_with(node, a).is_none())
                    .nth(pick);
                let a = a.expect("pick < untried");
                let child = self.push(Some(a), node, seat);
                self.nodes[child as usize].available = 1;
                s.apply(a);
                return child;
            }
            let Some((_, child)) = best else { return node };
            s.apply(
                self.nodes[child as usize]
                    .action
                    .expect("a child has an action"),
            );
            node = child;
        }
        node
    }

    /// Plays the rollout policy to the end of the game.
    fn rollout(&mut self, s: &mut S, actions: &mut S::Actions, rng: &mut GameRng) {
        while let Some(seat) = s.to_move() {
            s.legal_actions(actions);
            let legal = actions.as_slice();
            let k = if legal.len() == 1 {
                0
            } else {
                self.rollout.act(&s.view(seat), legal, rng)
            };
            s.apply(legal[k]);
        }
    }

    fn backup(&mut self, mut node: u32, s: &S) {
        let outcome = s.outcome().expect("rollouts end the game");
        let scale = s.payout_scale();
        let mut rewards = [0.5f64; MAX_SEATS];
        for (r, &p) in rewards.iter_mut().zip(outcome.payouts()) {
            *r = reward(p, scale);
        }
        loop {
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            n.reward += rewards[n.mover as usize];
            if n.parent == NONE {
                break;
            }
            node = n.parent;
        }
    }

    /// Runs the search from `view` and returns the index in `legal` of the chosen action.
    pub fn search(&mut self, view: &S::View<'_>, legal: &[S::Action], rng: &mut GameRng) -> usize {
        let seed = (u128::from(rng.random::<u64>()) << 64)
            | u128::from(rng.random::<u64>() ^ self.params.seed);
        let mut srng = GameRng::new(seed | 1);
        self.nodes.clear();
        self.push(None, NONE, view.seat());
        let mut actions = S::Actions::default();
        let started = self.params.time_budget.map(|_| Instant::now());
        let mut it = 0u64;
        loop {
            match (self.params.time_budget, started) {
                (Some(budget), Some(t0)) => {
                    if (it.is_multiple_of(16) && t0.elapsed() >= budget)
                        || self.nodes.len() >= self.capacity
                    {
                        break;
                    }
                }
                _ => {
                    if it >= u64::from(self.params.iterations) {
                        break;
                    }
                }
            }
            let mut s = view.determinize(&mut srng);
            let leaf = self.descend(&mut s, &mut actions, &mut srng);
            self.rollout(&mut s, &mut actions, &mut srng);
            self.backup(leaf, &s);
            it += 1;
        }
        self.last_iterations = it;
        self.best_root_action(legal)
    }

    fn best_root_action(&self, legal: &[S::Action]) -> usize {
        let mut best = (f64::NEG_INFINITY, 0usize);
        for (i, &a) in legal.iter().enumerate() {
            let Some(c) = self.child_with(0, a) else {
                continue;
            };
            let n = &self.nodes[c as usize];
            let score = match self.params.final_move {
                FinalMove::Visits => f64::from(n.visits),
                FinalMove::Mean => n.reward / f64::from(n.visits.max(1)),
            };
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }

    /// Visits of each root action after the last search, in `legal` order (for tests and logs).
    pub fn root_visits(&self, legal: &[S::Action]) -> Vec<u32> {
        legal
            .iter()
            .map(|&a| {
                self.child_with(0, a)
                    .map_or(0, |c| self.nodes[c as usize].visits)
            })
            .collect()
    }
}

impl<S: GameState> Agent<S> for Ismcts<S> {
    fn act(&mut self, view: &S::View<'_>, legal: &[S::Action], rng: &mut GameRng) -> usize {
        if legal.len() == 1 {
            return 0;
        }
        self.search(view, legal, rng)
    }
}
