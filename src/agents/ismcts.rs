//! `ismcts`: single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley
//! and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012).
//!
//! One tree over the acting seat's information sets. Each iteration samples a determinization
//! from the seat's view, descends only through actions legal in it, selecting by UCB1 with
//! availability counts in place of the parent's visits, expands one node, plays a rollout with
//! the rollout agent and backs up the per-seat rewards: each node holds the reward of the seat
//! that chose its action. The final move is the root child with the most visits.
//!
//! Options beyond the paper (each off unless asked for, see [`IsmctsParams`]):
//! - `root = sweep`: each determinization is played once through every root action, so the root
//!   actions are compared on common random numbers (below the root the search is unchanged);
//! - `deviate = z` (needs the sweep): the final move is the rollout policy's own choice unless
//!   another root action beats it in paired payout with a t-statistic above `z`. This is the
//!   safe policy improvement of SPARTA (Lerer, Hu, Foerster and Brown, "Improving Policies via
//!   Search in Cooperative Partially Observable Games", AAAI 2020): with a few hundred
//!   determinizations per action most differences are noise, and a deviation on noise costs;
//! - `opponents = rollout`: the other seats act by the rollout policy inside the tree too.
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
    /// How the other seats act inside the tree.
    pub opponents: Opponents,
    /// How root actions are chosen per iteration.
    pub root: Root,
    /// With [`Root::Sweep`]: keep the rollout policy's root action unless another beats it with
    /// a paired t-statistic above this; `None` for the plain final move.
    pub deviate: Option<f64>,
}

/// How each iteration picks its root action.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Root {
    /// By UCB1 with availability counts, as at every other node (the paper).
    Ucb,
    /// In turn: one determinization per sweep through all root actions (common random numbers).
    Sweep,
}

/// How the seats other than the searching one choose inside the tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opponents {
    /// By UCB1 on their own rewards, as SO-ISMCTS does (each node maximises its mover's reward).
    Tree,
    /// By the rollout policy: the tree holds only the searching seat's decisions.
    Rollout,
}

/// The paper's search: UCB1 at the root too, final move by most visits, 1000 iterations. (The
/// `ismcts` agent spec defaults to the root sweep with `deviate = 2.5` instead.)
impl Default for IsmctsParams {
    fn default() -> Self {
        IsmctsParams {
            iterations: 1000,
            time_budget: None,
            exploration: 0.7,
            final_move: FinalMove::Visits,
            seed: 0,
            opponents: Opponents::Tree,
            root: Root::Ucb,
            deviate: None,
        }
    }
}

/// The SO-ISMCTS agent, with its preallocated node arena and rollout agent.
pub struct Ismcts<S: GameState> {
    params: IsmctsParams,
    rollout: Box<dyn Agent<S>>,
    nodes: Vec<Node<S::Action>>,
    capacity: usize,
    paired: PairedRoot,
    /// Iterations run by the last search (for benchmarks).
    pub last_iterations: u64,
}

/// Root actions compared with the rollout policy's choice over the determinizations of a sweep:
/// per action, the sum and sum of squares of its payout minus the choice's payout.
#[derive(Default)]
struct PairedRoot {
    baseline: usize,
    payouts: Vec<f64>,
    diff: Vec<f64>,
    diff_sq: Vec<f64>,
    worlds: u32,
}

impl PairedRoot {
    /// Room for `actions` root actions (the game's action capacity), so searches never allocate.
    fn with_room(actions: usize) -> PairedRoot {
        let room = || Vec::with_capacity(actions);
        PairedRoot {
            payouts: room(),
            diff: room(),
            diff_sq: room(),
            ..PairedRoot::default()
        }
    }

    fn reset(&mut self, actions: usize, baseline: usize) {
        for v in [&mut self.payouts, &mut self.diff, &mut self.diff_sq] {
            v.clear();
            v.resize(actions, 0.0);
        }
        self.baseline = baseline;
        self.worlds = 0;
    }

    /// The searching seat's payout when root action `i` was played in the current
    /// determinization; the last action of a sweep folds the sweep into the sums.
    fn record(&mut self, i: usize, payout: f64) {
        self.payouts[i] = payout;
        if i + 1 == self.payouts.len() {
            let base = self.payouts[self.baseline];
            for (k, &p) in self.payouts.iter().enumerate() {
                self.diff[k] += p - base;
                self.diff_sq[k] += (p - base) * (p - base);
            }
            self.worlds += 1;
        }
    }

    /// The baseline, or the action with the highest mean gain over it among those whose paired
    /// t-statistic exceeds `z`.
    fn choose(&self, z: f64) -> usize {
        let n = f64::from(self.worlds);
        if n < 2.0 {
            return self.baseline;
        }
        let mut best = (0.0, self.baseline);
        for (k, (&sum, &sq)) in self.diff.iter().zip(&self.diff_sq).enumerate() {
            let mean = sum / n;
            let var = ((sq - n * mean * mean) / (n - 1.0)).max(0.0);
            if mean > best.0 && mean > z * (var / n).sqrt() {
                best = (mean, k);
            }
        }
        best.1
    }
}

impl<S: GameState> Ismcts<S> {
    /// An agent with these settings and rollout policy. The arena is allocated here, once.
    /// With a time budget the arena holds `params.iterations` nodes and the search stops early
    /// when it is full.
    pub fn new(params: IsmctsParams, rollout: Box<dyn Agent<S>>) -> Ismcts<S> {
        let capacity = params.iterations as usize + 1;
        let actions = <S::Actions as ActionBuffer<S::Action>>::CAPACITY;
        Ismcts {
            params,
            rollout,
            // a sweep adds its root children on top of one expansion per iteration
            nodes: Vec::with_capacity(capacity + actions),
            capacity,
            paired: PairedRoot::with_room(actions),
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

    /// Selection and expansion in a determinization; returns the node to back up from. With
    /// `root_action`, the root's choice is that action (a sweep) instead of UCB1.
    fn descend(
        &mut self,
        s: &mut S,
        actions: &mut S::Actions,
        rng: &mut GameRng,
        root_action: Option<S::Action>,
    ) -> u32 {
        let mut node = 0u32;
        if let Some(a) = root_action {
            node = self.sweep_root(s, actions, a);
        }
        let me = self.nodes[0].mover;
        while let Some(seat) = s.to_move() {
            s.legal_actions(actions);
            let legal = actions.as_slice();
            if seat != me && self.params.opponents == Opponents::Rollout {
                let k = if legal.len() == 1 {
                    0
                } else {
                    self.rollout.act(&s.view(seat), legal, rng)
                };
                s.apply(legal[k]);
                continue;
            }
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

    /// Plays root action `a` in a sweep: every root child is available, `a`'s child is made if
    /// new. Returns that child.
    fn sweep_root(&mut self, s: &mut S, actions: &mut S::Actions, a: S::Action) -> u32 {
        s.legal_actions(actions);
        for &b in actions.as_slice() {
            if let Some(c) = self.child_with(0, b) {
                self.nodes[c as usize].available += 1;
            }
        }
        let child = match self.child_with(0, a) {
            Some(c) => c,
            None => {
                let c = self.push(Some(a), 0, self.nodes[0].mover);
                self.nodes[c as usize].available = 1;
                c
            }
        };
        s.apply(a);
        child
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
        let sweep = self.params.root == Root::Sweep;
        if sweep {
            let baseline = match self.params.deviate {
                Some(_) => self.rollout.act(view, legal, &mut srng),
                None => 0,
            };
            self.paired.reset(legal.len(), baseline);
        }
        let mut actions = S::Actions::default();
        let started = Instant::now();
        let mut it = 0u64;
        let mut world: Option<S> = None;
        while !self.budget_spent(it, started) {
            let i = (it % legal.len() as u64) as usize;
            let mut s = match (&world, sweep && i > 0) {
                (Some(w), true) => w.clone(),
                _ => {
                    let w = view.determinize(&mut srng);
                    if sweep {
                        world = Some(w.clone());
                    }
                    w
                }
            };
            let leaf = self.descend(&mut s, &mut actions, &mut srng, sweep.then(|| legal[i]));
            self.rollout(&mut s, &mut actions, &mut srng);
            self.backup(leaf, &s);
            if sweep {
                let payout =
                    s.outcome().expect("rollouts end the game").payouts()[view.seat() as usize];
                self.paired.record(i, payout as f64);
            }
            it += 1;
        }
        self.last_iterations = it;
        match (sweep, self.params.deviate) {
            (true, Some(z)) => self.paired.choose(z),
            // a sweep visits the root actions equally: their means decide
            (true, None) => self.best_root_action(legal, FinalMove::Mean),
            (false, _) => self.best_root_action(legal, self.params.final_move),
        }
    }

    /// Whether the search must stop before iteration `it`: the iteration count, or the time
    /// budget (checked every 16 iterations) or a full arena.
    fn budget_spent(&self, it: u64, started: Instant) -> bool {
        match self.params.time_budget {
            Some(budget) => {
                it.is_multiple_of(16) && started.elapsed() >= budget
                    || self.nodes.len() >= self.capacity
            }
            None => it >= u64::from(self.params.iterations),
        }
    }

    fn best_root_action(&self, legal: &[S::Action], final_move: FinalMove) -> usize {
        let mut best = (f64::NEG_INFINITY, 0usize);
        for (i, &a) in legal.iter().enumerate() {
            let Some(c) = self.child_with(0, a) else {
                continue;
            };
            let n = &self.nodes[c as usize];
            let score = match final_move {
                FinalMove::Visits => f64::from(n.visits),
                FinalMove::Mean => n.reward / f64::from(n.visits.max(1)),
            };
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }

    /// After a search with `root=sweep` and `deviate`: each root action's mean payout gain over
    /// the rollout policy's action (0 for that action), in `legal` order, measured on the same
    /// determinizations. `None` for other settings or before a search.
    pub fn root_gains(&self) -> Option<impl Iterator<Item = f64> + '_> {
        let sweep = self.params.root == Root::Sweep && self.params.deviate.is_some();
        let n = f64::from(self.paired.worlds);
        (sweep && n > 0.0).then(|| self.paired.diff.iter().map(move |d| d / n))
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

#[cfg(test)]
mod tests {
    use super::PairedRoot;

    fn paired(baseline: usize, worlds: &[[f64; 3]]) -> PairedRoot {
        let mut p = PairedRoot::with_room(3);
        p.reset(3, baseline);
        for w in worlds {
            for (i, &payout) in w.iter().enumerate() {
                p.record(i, payout);
            }
        }
        p
    }

    #[test]
    fn paired_root_deviates_only_on_a_significant_gain() {
        // action 2 gains 1 in every world: no variance, a clear gain
        let sure: Vec<[f64; 3]> = (0..10)
            .map(|w| [w as f64, w as f64, w as f64 + 1.0])
            .collect();
        assert_eq!(paired(0, &sure).choose(2.5), 2);
        // action 1 gains +3/−2 in turn: mean +0.5, se ≈ 0.83 over 10 worlds: kept at z = 2.5
        let noisy: Vec<[f64; 3]> = (0..10)
            .map(|w| [0.0, if w % 2 == 0 { 3.0 } else { -2.0 }, -1.0])
            .collect();
        assert_eq!(paired(0, &noisy).choose(2.5), 0);
        assert_eq!(paired(0, &noisy).choose(0.5), 1);
        // the baseline's own difference is 0, never a gain; one world proves nothing
        assert_eq!(paired(2, &sure).choose(0.0), 2);
        assert_eq!(paired(0, &sure[..1]).choose(0.0), 0);
    }

    #[test]
    fn an_unfinished_sweep_is_not_counted() {
        let mut p = PairedRoot::with_room(3);
        p.reset(3, 0);
        p.record(0, 0.0);
        p.record(1, 5.0);
        assert_eq!(p.worlds, 0);
        p.record(2, 1.0);
        assert_eq!(p.worlds, 1);
        assert_eq!(p.diff, vec![0.0, 5.0, 1.0]);
    }
}
