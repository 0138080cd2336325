//! `ismcts`: single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley
//! and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012).
//!
//! One tree over the acting seat's information sets. Each iteration samples a determinization
//! from the seat's view, descends only through actions legal in it, selecting by UCB1 with
//! availability counts in place of the parent's visits, expands one node, plays a rollout with
//! the rollout agent and backs up the per-seat rewards: each node holds the reward of the seat
//! that chose its action. The final move is the root child with the most visits.
//!
//! Options beyond the paper (each off in [`IsmctsParams::default`], which is the paper's search;
//! the `ismcts` agent spec turns on `root = sweep`, `deviate = 2.5` and `depth = 1` unless told
//! otherwise, see `crate::generic_agents::ismcts_spec::ismcts_params`):
//! - `root = sweep`: each determinization is played once through every root action, so the root
//!   actions are compared on common random numbers (below the root the search is unchanged);
//! - `root = halving`: sweeps too, in rounds that each drop the worse half of the root actions,
//!   so that the budget goes to the actions still in contention when many are legal;
//! - `deviate = z` (needs a sweep or halving): the final move is the rollout policy's own choice
//!   (or a given move: [`Ismcts::search_from`], how `net:…,search=N` checks the network's move)
//!   unless another root action beats it in paired payout with a t-statistic above `z`. This is the
//!   safe policy improvement of SPARTA (Lerer, Hu, Foerster and Brown, "Improving Policies via
//!   Search in Cooperative Partially Observable Games", AAAI 2020): with a few hundred
//!   determinizations per action most differences are noise, and a deviation on noise costs;
//! - `opponents = rollout`: the other seats act by the rollout policy inside the tree too;
//! - `depth = d`: the tree holds at most `d` levels of decisions below the root; past them every
//!   seat acts by the rollout policy. With `depth = 1` and a paired root the search is SPARTA's
//!   one-step lookahead: each root action followed by the rollout policy alone. A node below the
//!   root stands for an action sequence, so one node covers every card the seat may draw on the
//!   way there (a draw is chance, not an action): the tree's later moves cannot depend on what
//!   the seat will hold, while the rollout policy's do. The spec's default since the committed
//!   runs against three greedy (`results/*-ismcts-depth1-vs-greedy` against
//!   `results/*-ismcts-vs-greedy`) measured it no weaker than the unlimited tree in any game,
//!   and above greedy in every variant; `depth=off` in a spec keeps the unlimited tree
//!   (docs/ismcts.md);
//! - a leaf judge ([`Ismcts::with_leaf`], what `net:…,leaf=q` gives it): with a paired root each
//!   playout stops at the searching seat's next choice, whose value the judge gives;
//! - the searching seat's own player ([`Ismcts::with_own_moves`], what `net:…,playout=own` gives
//!   it): the seat's first choices in each playout by another agent than the rollout policy.
//!
//! Game-independent: it needs only the contracts of `crate::game` — `determinize`, legal actions
//! whose identity (`Eq`) is the same in every determinization, and `payout_scale` to map payouts
//! to rewards in `[0, 1]` ([`crate::game::reward`]).

mod paired_root;

use self::paired_root::PairedRoot;
use crate::agent::{play_until, Agent};
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
    /// With a paired root ([`Root::Sweep`], [`Root::Halving`]): keep the rollout policy's root
    /// action unless another beats it with a paired t-statistic above this; `None` for the plain
    /// final move.
    pub deviate: Option<f64>,
    /// The most levels of decisions the tree holds (the root's children are level 1); `None`
    /// for no limit.
    pub depth: Option<u32>,
    /// Determinize with the game's further inference from the public history
    /// ([`crate::game::SeatView::determinize_inferred`]).
    pub infer: bool,
}

/// How each iteration picks its root action.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Root {
    /// By UCB1 with availability counts, as at every other node (the paper).
    Ucb,
    /// In turn: one determinization per sweep through all root actions (common random numbers).
    Sweep,
    /// Sweeps as [`Root::Sweep`], in ⌈log2 k⌉ rounds of equal budget; each round drops the half of
    /// the k root actions with the lowest mean gain (sequential halving: Karnin, Koren and Somekh,
    /// "Almost Optimal Exploration in Multi-Armed Bandits", ICML 2013), so the budget goes to the
    /// actions still in contention.
    Halving,
}

/// How the seats other than the searching one choose inside the tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opponents {
    /// By UCB1 on their own rewards, as SO-ISMCTS does (each node maximises its mover's reward).
    Tree,
    /// By the rollout policy: the tree holds only the searching seat's decisions.
    Rollout,
}

/// The paper's search: UCB1 at the root too, final move by most visits, an unlimited tree,
/// 1000 iterations. (The `ismcts` agent spec defaults to the root sweep with `deviate = 2.5` and
/// `depth = 1` instead: `ismcts:root=ucb,deviate=off,depth=off` is this search.)
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
            depth: None,
            infer: false,
        }
    }
}

/// A judge of the positions a paired one-step search reaches, in place of playouts to the end:
/// the searching seat's expected payout (payout points) from its own view there.
pub trait LeafValue<S: GameState>: Send {
    /// The value to `seat`, to move in `state` with a choice among `legal` (its legal actions).
    fn value(&mut self, state: &S, seat: Seat, legal: &[S::Action], rng: &mut GameRng) -> f64;
}

/// The SO-ISMCTS agent, with its preallocated node arena and rollout agent.
pub struct Ismcts<S: GameState> {
    params: IsmctsParams,
    rollout: Box<dyn Agent<S>>,
    /// With a paired root: after the root action the rollout policy plays on only until the
    /// searching seat's next choice, which this judges (see [`Ismcts::with_leaf`]).
    leaf: Option<Box<dyn LeafValue<S>>>,
    /// The searching seat's player in the playouts, for its first so many choices in each.
    own: Option<(Box<dyn Agent<S>>, u32)>,
    nodes: Vec<Node<S::Action>>,
    capacity: usize,
    paired: PairedRoot,
    /// Iterations run by the last search (for benchmarks).
    pub last_iterations: u64,
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
            leaf: None,
            own: None,
            // a sweep adds its root children on top of one expansion per iteration
            nodes: Vec::with_capacity(capacity + actions),
            capacity,
            paired: PairedRoot::with_room(actions),
            last_iterations: 0,
        }
    }

    /// The same search with `leaf` judging where each playout stops: with a paired root, the
    /// rollout policy plays after the root action only until the searching seat has its next
    /// choice, whose value `leaf` gives (the payout itself if the game ends first). A playout
    /// to the end carries the luck of every later draw; a judge of the seat's view averages it
    /// out. Meant for the one-step search (`depth = 1`): nothing is backed up into a tree
    /// below the root. Without a paired root the playouts go to the end as before.
    pub fn with_leaf(mut self, leaf: Box<dyn LeafValue<S>>) -> Ismcts<S> {
        self.leaf = Some(leaf);
        self
    }

    /// The same search with `agent` making the searching seat's first `horizon` choices in
    /// each playout (`u32::MAX`: all of them), the rollout policy the others' and the seat's
    /// later ones.
    pub fn with_own_moves(mut self, agent: Box<dyn Agent<S>>, horizon: u32) -> Ismcts<S> {
        self.own = Some((agent, horizon));
        self
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
        let mut level = 0u32;
        if let Some(a) = root_action {
            node = self.sweep_root(s, actions, a);
            level = 1;
        }
        let me = self.nodes[0].mover;
        let deepest = self.params.depth.unwrap_or(u32::MAX);
        while let Some(seat) = s.to_move() {
            if level >= deepest {
                return node;
            }
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
            level += 1;
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

    /// Plays to the end of the game: the rollout policy, but `me`'s first choices by its own
    /// player if it has one ([`Ismcts::with_own_moves`]).
    fn rollout(&mut self, s: &mut S, actions: &mut S::Actions, rng: &mut GameRng, me: Seat) {
        if let Some((agent, horizon)) = self.own.as_mut() {
            for _ in 0..*horizon {
                if !play_until(s, actions, self.rollout.as_mut(), rng, Some(me)) {
                    return;
                }
                let legal = actions.as_slice();
                let k = agent.act(&s.view(me), legal, rng);
                s.apply(legal[k]);
            }
        }
        crate::agent::play_out(s, actions, self.rollout.as_mut(), rng);
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
        self.search_from(view, legal, rng, None)
    }

    /// [`Ismcts::search`], with `baseline` (an index in `legal`) as the move that a paired root
    /// keeps unless another is clearly better, in place of the rollout policy's choice.
    pub fn search_from(
        &mut self,
        view: &S::View<'_>,
        legal: &[S::Action],
        rng: &mut GameRng,
        baseline: Option<usize>,
    ) -> usize {
        let seed = (u128::from(rng.random::<u64>()) << 64)
            | u128::from(rng.random::<u64>() ^ self.params.seed);
        let mut srng = GameRng::new(seed | 1);
        self.nodes.clear();
        self.push(None, NONE, view.seat());
        let paired = self.params.root != Root::Ucb;
        if paired {
            let baseline = match (self.params.deviate, baseline) {
                (Some(_), Some(given)) => given,
                (Some(_), None) => self.rollout.act(view, legal, &mut srng),
                (None, _) => 0,
            };
            let halving = self.params.root == Root::Halving;
            self.paired
                .reset(legal.len(), baseline, halving, self.params.iterations);
        }
        let mut actions = S::Actions::default();
        let started = Instant::now();
        let mut it = 0u64;
        let mut world: Option<S> = None;
        while !self.budget_spent(it, started) {
            let mut s = match (&world, paired && !self.paired.starts_sweep()) {
                (Some(w), true) => w.clone(),
                _ => {
                    let w = match self.params.infer {
                        true => view.determinize_inferred(&mut srng),
                        false => view.determinize(&mut srng),
                    };
                    if paired {
                        world = Some(w.clone());
                    }
                    w
                }
            };
            let root_action = paired.then(|| legal[self.paired.action()]);
            let node = self.descend(&mut s, &mut actions, &mut srng, root_action);
            match self.leaf.as_mut().filter(|_| paired) {
                Some(judge) => {
                    let me = view.seat();
                    let rollout = self.rollout.as_mut();
                    let payout = if play_until(&mut s, &mut actions, rollout, &mut srng, Some(me)) {
                        judge.value(&s, me, actions.as_slice(), &mut srng)
                    } else {
                        s.outcome().expect("the game ended").payouts()[me as usize] as f64
                    };
                    self.paired.record(payout);
                }
                None => {
                    self.rollout(&mut s, &mut actions, &mut srng, view.seat());
                    self.backup(node, &s);
                    if paired {
                        let payout = s.outcome().expect("rollouts end the game").payouts()
                            [view.seat() as usize];
                        self.paired.record(payout as f64);
                    }
                }
            }
            it += 1;
        }
        self.last_iterations = it;
        match (self.params.root, self.params.deviate) {
            (Root::Ucb, _) => self.best_root_action(legal, self.params.final_move),
            (_, Some(z)) => self.paired.choose(z),
            // a sweep visits the root actions equally: their means decide
            (Root::Sweep, None) => self.best_root_action(legal, FinalMove::Mean),
            (Root::Halving, None) => self.paired.best_mean(),
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

    /// After a search with a paired root (`sweep` or `halving`) and `deviate`: its choice
    /// again, with `prior` (another judge's gain of each legal action over the baseline, in
    /// payout points, `legal` order) counted as `weight` determinizations of each action.
    /// `None` for other settings.
    pub fn choose_with_prior(&self, prior: &[f64], weight: f64) -> Option<usize> {
        let z = self
            .params
            .deviate
            .filter(|_| self.params.root != Root::Ucb)?;
        Some(self.paired.choose_with_prior(z, prior, weight))
    }

    /// After a search with a paired root (`sweep` or `halving`) and `deviate`: each root action's
    /// mean payout gain over the rollout policy's action (0 for that action), in `legal` order,
    /// measured on the determinizations it was played in. `None` for other settings or before a
    /// search.
    pub fn root_gains(&self) -> Option<impl Iterator<Item = f64> + '_> {
        let paired = self.params.root != Root::Ucb && self.params.deviate.is_some();
        self.paired.gains().filter(|_| paired)
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
