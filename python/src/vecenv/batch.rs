//! The typed batch behind `bailab.VecEnv`: [`Batch`] (object-safe, what the Python class holds)
//! implemented for every game by [`Typed`], built by [`MakeBatch`] through the registry, so the
//! loop that plays the opponents and encodes the views is monomorphised for the game and
//! allocates nothing.
//!
//! Environment `i` of `n` plays deals `i, i + n, i + 2n, …` of the master seed: each dealt as
//! `bailab play` deals it (`seeded_deal`) and played by the library's one play loop (`Turns`,
//! the learning seat played from outside), each opponent drawing from the runner's agent RNG of
//! its seat (`agent_rngs`, rotation 0) and told of each game's start and end, so the games do not
//! depend on the number of threads nor on the order the environments are stepped in. An
//! opponent's failure (an outside program's, see `Agent::fault`) is an error at the end of the
//! deal it failed in, naming the agent.

use crate::engine::{python_rng, Engine, GameEngine};
use bailab::agent::{take_fault, Agent, AgentError};
use bailab::game::{ActionBuffer, Game, GameId, GameState, Seat, MAX_SEATS};
use bailab::games::kind::{GameError, GameKind};
use bailab::games::observe::layout_len;
use bailab::games::GameVisitor;
use bailab::generic_agents::catalogue::{make_agent_with, Setting};
use bailab::generic_agents::net::{input_lengths, ActionInputs};
use bailab::rng::GameRng;
use bailab::sim::deal::seeds::{agent_rngs, seeded_deal};
use bailab::sim::deal::turns::{Turn, Turns, OUTSIDE};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::PyErr;
use rayon::prelude::*;
use rayon::ThreadPool;
use std::sync::Arc;

/// How many deals in a row an environment skips (the opponents ended them before the learning
/// seat decided) before it reports an error rather than loop on.
const MAX_SKIPS: u32 = 10_000;

/// Why a batch cannot be built, reset or stepped; the kind decides the Python exception (see
/// `From<BatchError> for PyErr`), the text is its message.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// A learning seat not at the table (`ValueError`).
    #[error("seat {seat} is not at the table: the seats are 0 to {}", .seats - 1)]
    Seat {
        /// The seat asked for.
        seat: Seat,
        /// The seats at the table.
        seats: usize,
    },
    /// No opponent spec (`ValueError`).
    #[error("opponents: give at least one agent spec")]
    NoOpponents,
    /// A game whose view tensor has no element (`ValueError`).
    #[error("{game}: the view tensor's layout is empty")]
    EmptyTensor {
        /// The game's name.
        game: &'static str,
    },
    /// A worker pool that cannot be built (`ValueError`).
    #[error("threads: {0}")]
    Threads(rayon::ThreadPoolBuildError),
    /// A game that cannot be built with the engine's rules (`ValueError`).
    #[error(transparent)]
    Game(#[from] GameError),
    /// An opponent spec that does not make an agent (`ValueError`).
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// An opponent that cannot be made again at a reset (`RuntimeError`).
    #[error(transparent)]
    Reset(AgentError),
    /// An action index outside an environment's legal actions (`IndexError`).
    #[error(
        "env {env}: action index {action} out of range: seat {seat} has {legal} legal actions"
    )]
    Action {
        /// The environment.
        env: usize,
        /// The index given.
        action: i64,
        /// The learning seat.
        seat: Seat,
        /// Its legal actions.
        legal: usize,
    },
    /// An opponent's fault in a deal, naming the agent (`RuntimeError`).
    #[error("deal {deal}: {fault}")]
    Fault {
        /// The deal.
        deal: u64,
        /// The fault as the agent reports it.
        fault: String,
    },
    /// A learning seat the opponents never let decide (`RuntimeError`).
    #[error("deal {deal}: seat {seat} had no decision in {MAX_SKIPS} deals in a row")]
    NoDecision {
        /// The last deal skipped.
        deal: u64,
        /// The learning seat.
        seat: Seat,
    },
}

impl From<BatchError> for PyErr {
    fn from(e: BatchError) -> PyErr {
        let message = e.to_string();
        match e {
            BatchError::Action { .. } => PyIndexError::new_err(message),
            BatchError::Reset(_) | BatchError::Fault { .. } | BatchError::NoDecision { .. } => {
                PyRuntimeError::new_err(message)
            }
            BatchError::Seat { .. }
            | BatchError::NoOpponents
            | BatchError::EmptyTensor { .. }
            | BatchError::Threads(_)
            | BatchError::Game(_)
            | BatchError::Agent(_) => PyValueError::new_err(message),
        }
    }
}

/// The legal-action buffer of game `G`.
type Actions<G> = <<G as Game>::State as GameState>::Actions;

/// What a batch is made of, besides the game.
pub struct Config {
    /// The number of environments.
    pub num_envs: usize,
    /// The master seed of the deals.
    pub seed: u64,
    /// The learning seat.
    pub seat: Seat,
    /// The opponents' agent specs, cycled over the other seats in seat order.
    pub opponents: Vec<String>,
    /// The worker threads (1: step in the calling thread).
    pub threads: usize,
}

/// The arrays every environment writes its own row of: the learning seat's view tensor and its
/// legal-action mask.
pub struct Rows<'a> {
    /// `(num_envs, tensor_size)`, row-major.
    pub obs: &'a mut [f32],
    /// `(num_envs, max_actions)`, row-major.
    pub mask: &'a mut [bool],
}

/// What a step reports per environment beside the rows.
pub struct Report<'a> {
    /// The learning seat's payout of the game that ended in this step (else 0).
    pub rewards: &'a mut [f32],
    /// Whether a game ended in this step.
    pub dones: &'a mut [bool],
    /// The deal each environment plays now.
    pub deal: &'a mut [i64],
    /// The deal of the game that ended in this step, or -1.
    pub finished_deal: &'a mut [i64],
    /// The deals skipped since the last step returned (the opponents ended them first).
    pub skipped: &'a mut [i64],
    /// The learning seat's payouts of those skipped deals, summed.
    pub skipped_reward: &'a mut [f32],
}

/// What [`Batch::action_rows`] writes of each legal action.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ActionRows {
    /// Its action vector (`game.action_layout()`).
    Vectors,
    /// What a `net:` network reads of it: its action vector, then its squashed rule features
    /// (`bailab.net.action_inputs`).
    NetInputs,
}

/// A batch of environments of one game, whatever the game.
pub trait Batch: Send {
    /// Deals every environment's first deal again (of master seed `seed` if given), with fresh
    /// opponents, and writes the first decisions of the learning seat into `rows`.
    fn reset(&mut self, seed: Option<u64>, rows: Rows<'_>) -> Result<(), BatchError>;
    /// Checks one legal-action index per environment; the error names the first bad one.
    fn check(&self, actions: &[i64]) -> Result<(), BatchError>;
    /// Applies one checked action per environment, plays the opponents up to the learning
    /// seat's next decision (dealing the next game when one ends) and writes it into `rows`.
    fn step(&mut self, actions: &[i64], rows: Rows<'_>) -> Result<(), BatchError>;
    /// Writes the last step's results per environment, and clears the skip counts.
    fn report(&mut self, report: Report<'_>);
    /// Writes a row per legal action of every environment, `(num_envs, max_actions, width)`
    /// (the width of `kind`), zeros beyond the legal ones.
    fn action_rows(&mut self, kind: ActionRows, out: &mut [f32]);
    /// The games finished since the last reset and, among them, those skipped.
    fn totals(&self) -> (u64, u64);
}

/// What every environment of a batch shares.
struct Shared<G: GameKind> {
    /// The game.
    game: Arc<G>,
    /// The master seed of the deals.
    seed: u64,
    /// The learning seat.
    seat: Seat,
    /// The number of environments: each steps its deal index by it.
    stride: u64,
    /// The opponent slot of each seat ([`OUTSIDE`] for the learning seat).
    seat_agent: [usize; MAX_SEATS],
    /// The length of a view tensor.
    tensor_len: usize,
    /// The capacity of the legal-action list (the width of a mask).
    max_actions: usize,
    /// The length of an action vector.
    action_len: usize,
}

impl<G: GameKind> Shared<G> {
    /// Deals deal `index` of the seed, with the opponents' RNGs of that deal.
    fn deal(&self, index: u64) -> (G::State, [GameRng; MAX_SEATS]) {
        let state = seeded_deal(&*self.game, self.seed, index);
        let id = GameId {
            master: self.seed,
            deal: index,
            rotation: 0,
        };
        (state, agent_rngs(id))
    }
}

/// One environment: a game in progress, its opponents and what its last step did.
struct Env<G: GameKind> {
    /// The game in progress.
    state: G::State,
    /// Its deal index.
    deal: u64,
    /// The agents' RNGs of that deal, by seat.
    rngs: [GameRng; MAX_SEATS],
    /// The opponents, one per spec.
    agents: Vec<Box<dyn Agent<G::State>>>,
    /// The writer of the network inputs of the learning seat's actions.
    inputs: ActionInputs<G>,
    /// The number of legal actions of the learning seat's pending decision.
    legal_len: usize,
    /// The last step's reward, whether a game ended in it, and which deal (-1: none).
    reward: f32,
    done: bool,
    finished_deal: i64,
    /// Deals skipped since the last report, and the learning seat's payouts in them.
    skipped: u32,
    skipped_reward: f64,
    /// Games finished since the reset, and among them those skipped.
    finished: u64,
    skipped_total: u64,
}

impl<G: GameKind> Env<G> {
    /// Environment of first deal `index`, its opponents told that its game begins and its
    /// learning seat not yet brought to a decision.
    fn new(shared: &Shared<G>, index: u64, agents: Vec<Box<dyn Agent<G::State>>>) -> Self {
        let (state, rngs) = shared.deal(index);
        let mut env = Env {
            state,
            deal: index,
            rngs,
            agents,
            inputs: ActionInputs::new(&*shared.game),
            legal_len: 0,
            reward: 0.0,
            done: false,
            finished_deal: -1,
            skipped: 0,
            skipped_reward: 0.0,
            finished: 0,
            skipped_total: 0,
        };
        let (state, mut turns) = env.in_play(shared);
        turns.begin(state);
        env
    }

    /// The game in play and the play loop over its opponents (the learning seat played from
    /// outside).
    fn in_play<'a>(&'a mut self, shared: &'a Shared<G>) -> (&'a mut G::State, Turns<'a, G::State>) {
        let turns = Turns {
            agents: &mut self.agents,
            seat_agent: &shared.seat_agent,
            rngs: &mut self.rngs,
        };
        (&mut self.state, turns)
    }

    /// Counts the game just ended and deals the environment's next deal, its opponents told
    /// that its game begins.
    fn next_deal(&mut self, shared: &Shared<G>) {
        self.finished += 1;
        self.deal += shared.stride;
        (self.state, self.rngs) = shared.deal(self.deal);
        let (state, mut turns) = self.in_play(shared);
        turns.begin(state);
    }

    /// Lets the opponents play until the learning seat decides (`None`) or the game ends (the
    /// learning seat's payout); an opponent's fault in the deal is an error then.
    fn play_opponents(&mut self, shared: &Shared<G>) -> Result<Option<i64>, BatchError> {
        let (state, mut turns) = self.in_play(shared);
        let outcome = match turns.advance(state, |_| {}) {
            Turn::Outside(_) => return Ok(None),
            Turn::Over(outcome) => outcome,
        };
        if let Some(fault) = take_fault(&mut self.agents) {
            return Err(BatchError::Fault {
                deal: self.deal,
                fault,
            });
        }
        Ok(Some(outcome.payouts()[usize::from(shared.seat)]))
    }

    /// Brings the learning seat to a decision, skipping (and counting) the deals the opponents
    /// end first.
    fn settle(&mut self, shared: &Shared<G>) -> Result<(), BatchError> {
        for _ in 0..MAX_SKIPS {
            let Some(payout) = self.play_opponents(shared)? else {
                return Ok(());
            };
            self.skipped += 1;
            self.skipped_total += 1;
            self.skipped_reward += payout as f64;
            self.next_deal(shared);
        }
        Err(BatchError::NoDecision {
            deal: self.deal,
            seat: shared.seat,
        })
    }

    /// Applies the learning seat's legal action `index` (checked), then plays on to its next
    /// decision, in the next deal if this one ends.
    fn act(&mut self, shared: &Shared<G>, index: usize) -> Result<(), BatchError> {
        let mut legal = Actions::<G>::default();
        self.state.legal_actions(&mut legal);
        self.state.apply(legal.as_slice()[index]);
        self.reward = 0.0;
        self.done = false;
        self.finished_deal = -1;
        if let Some(payout) = self.play_opponents(shared)? {
            self.reward = payout as f32;
            self.done = true;
            self.finished_deal = self.deal as i64;
            self.next_deal(shared);
        }
        self.settle(shared)
    }

    /// Writes the learning seat's view tensor and legal-action mask (it is to decide).
    fn write(&mut self, shared: &Shared<G>, obs: &mut [f32], mask: &mut [bool]) {
        let mut legal = Actions::<G>::default();
        self.state.legal_actions(&mut legal);
        self.legal_len = legal.as_slice().len();
        shared.game.tensor(&self.state.view(shared.seat), obs);
        mask[..self.legal_len].fill(true);
        mask[self.legal_len..].fill(false);
    }

    /// Writes a row of `kind` per legal action of the learning seat, zeros after them; the rule
    /// features of [`ActionRows::NetInputs`] draw greedy's ties from the RNG of
    /// `view.feature_rows()` (Python's seed 0), so they equal `bailab.net.action_inputs(view)`.
    fn action_rows(&mut self, shared: &Shared<G>, kind: ActionRows, out: &mut [f32]) {
        let mut legal = Actions::<G>::default();
        self.state.legal_actions(&mut legal);
        let (legal, view) = (legal.as_slice(), self.state.view(shared.seat));
        let width = match kind {
            ActionRows::Vectors => {
                for (&action, row) in legal.iter().zip(out.chunks_mut(shared.action_len)) {
                    shared.game.action_vector(&view, action, row);
                }
                shared.action_len
            }
            ActionRows::NetInputs => {
                let rng = &mut python_rng(0);
                (self.inputs).write(&*shared.game, &view, legal, rng, out);
                self.inputs.width()
            }
        };
        out[legal.len() * width..].fill(0.0);
    }
}

/// [`Batch`] for the game `G`.
pub struct Typed<G: GameKind> {
    /// What the environments share.
    shared: Shared<G>,
    /// The environments (none before the first reset).
    envs: Vec<Env<G>>,
    /// The number of environments the reset deals.
    num_envs: usize,
    /// The opponents' agent specs.
    specs: Vec<String>,
    /// The worker threads, or `None` to step in the calling thread.
    pool: Option<ThreadPool>,
}

impl<G: GameKind> Typed<G> {
    /// A batch of `config.num_envs` environments of `game`, dealt by the first reset; a bad
    /// agent spec or learning seat is an error (the command line's message).
    fn new(game: Arc<G>, config: Config) -> Result<Self, BatchError> {
        let seats = game.seats();
        if usize::from(config.seat) >= seats {
            return Err(BatchError::Seat {
                seat: config.seat,
                seats,
            });
        }
        if config.opponents.is_empty() {
            return Err(BatchError::NoOpponents);
        }
        let mut seat_agent = [0; MAX_SEATS];
        seat_agent[usize::from(config.seat)] = OUTSIDE;
        let others = (0..seats).filter(|&s| s != usize::from(config.seat));
        for (k, s) in others.enumerate() {
            seat_agent[s] = k % config.opponents.len();
        }
        let tensor_len = layout_len(&game.tensor_layout());
        if tensor_len == 0 {
            return Err(BatchError::EmptyTensor { game: G::INFO.name });
        }
        let shared = Shared {
            tensor_len,
            action_len: layout_len(&game.action_layout()),
            max_actions: Actions::<G>::CAPACITY,
            game,
            seed: config.seed,
            seat: config.seat,
            stride: config.num_envs as u64,
            seat_agent,
        };
        let pool = (config.threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(config.threads)
                    .build()
            })
            .transpose()
            .map_err(BatchError::Threads)?;
        let batch = Typed {
            shared,
            envs: Vec::new(),
            num_envs: config.num_envs,
            specs: config.opponents,
            pool,
        };
        batch.agents()?;
        Ok(batch)
    }

    /// The opponents of one environment, one per spec.
    /// An outside program (`exec:`) runs in the current folder, its stderr to bailab's, one
    /// process per environment.
    fn agents(&self) -> Result<Vec<Box<dyn Agent<G::State>>>, AgentError> {
        let game = &self.shared.game;
        let rules = game.rules();
        let setting = Setting {
            variant: Some(game.variant()),
            base: None,
            host: None,
            table: Some((&rules, game.seats())),
            stderr_log: None,
        };
        self.specs
            .iter()
            .map(|s| make_agent_with::<G>(s, setting))
            .collect()
    }

    /// Deals every environment's first deal with fresh opponents.
    fn deal_all(&mut self) -> Result<(), BatchError> {
        let envs = (0..self.num_envs)
            .map(|i| Ok(Env::new(&self.shared, i as u64, self.agents()?)))
            .collect::<Result<Vec<_>, AgentError>>()
            .map_err(BatchError::Reset)?;
        self.envs = envs;
        Ok(())
    }

    /// Runs `f` on every environment and its rows, in parallel on the pool if there is one.
    fn each_row<F>(&mut self, rows: Rows<'_>, f: F) -> Result<(), BatchError>
    where
        F: Fn(usize, &mut Env<G>, &Shared<G>, &mut [f32], &mut [bool]) -> Result<(), BatchError>
            + Sync,
    {
        let shared = &self.shared;
        let (tensor_len, max_actions) = (shared.tensor_len, shared.max_actions);
        let Some(pool) = &self.pool else {
            let rows = rows
                .obs
                .chunks_mut(tensor_len)
                .zip(rows.mask.chunks_mut(max_actions));
            return (self.envs.iter_mut().zip(rows).enumerate())
                .try_for_each(|(i, (env, (obs, mask)))| f(i, env, shared, obs, mask));
        };
        let min_len = (self.envs.len() / (8 * pool.current_num_threads())).max(1);
        let envs = &mut self.envs;
        pool.install(|| {
            let obs = rows.obs.par_chunks_mut(tensor_len);
            let rows = obs.zip(rows.mask.par_chunks_mut(max_actions));
            (envs.par_iter_mut().zip(rows).enumerate())
                .with_min_len(min_len)
                .try_for_each(|(i, (env, (obs, mask)))| f(i, env, shared, obs, mask))
        })
    }
}

impl<G: GameKind> Batch for Typed<G> {
    fn reset(&mut self, seed: Option<u64>, rows: Rows<'_>) -> Result<(), BatchError> {
        if let Some(seed) = seed {
            self.shared.seed = seed;
        }
        self.deal_all()?;
        self.each_row(rows, |_, env, shared, obs, mask| {
            env.settle(shared)?;
            env.write(shared, obs, mask);
            Ok(())
        })
    }

    fn check(&self, actions: &[i64]) -> Result<(), BatchError> {
        for (i, (env, &a)) in self.envs.iter().zip(actions).enumerate() {
            if a < 0 || a as u64 >= env.legal_len as u64 {
                return Err(BatchError::Action {
                    env: i,
                    action: a,
                    seat: self.shared.seat,
                    legal: env.legal_len,
                });
            }
        }
        Ok(())
    }

    fn step(&mut self, actions: &[i64], rows: Rows<'_>) -> Result<(), BatchError> {
        self.each_row(rows, |i, env, shared, obs, mask| {
            env.act(shared, actions[i] as usize)?;
            env.write(shared, obs, mask);
            Ok(())
        })
    }

    fn report(&mut self, report: Report<'_>) {
        for (i, env) in self.envs.iter_mut().enumerate() {
            report.rewards[i] = env.reward;
            report.dones[i] = env.done;
            report.deal[i] = env.deal as i64;
            report.finished_deal[i] = env.finished_deal;
            report.skipped[i] = i64::from(env.skipped);
            report.skipped_reward[i] = env.skipped_reward as f32;
            env.skipped = 0;
            env.skipped_reward = 0.0;
        }
    }

    fn action_rows(&mut self, kind: ActionRows, out: &mut [f32]) {
        let shared = &self.shared;
        let width = match kind {
            ActionRows::Vectors => shared.action_len,
            ActionRows::NetInputs => input_lengths(&*shared.game).1,
        };
        let block = shared.max_actions * width;
        if block == 0 {
            return;
        }
        let Some(pool) = &self.pool else {
            for (env, out) in self.envs.iter_mut().zip(out.chunks_mut(block)) {
                env.action_rows(shared, kind, out);
            }
            return;
        };
        let envs = &mut self.envs;
        pool.install(|| {
            (envs.par_iter_mut().zip(out.par_chunks_mut(block)))
                .for_each(|(env, out)| env.action_rows(shared, kind, out))
        });
    }

    fn totals(&self) -> (u64, u64) {
        let finished = self.envs.iter().map(|e| e.finished).sum();
        let skipped = self.envs.iter().map(|e| e.skipped_total).sum();
        (finished, skipped)
    }
}

/// Builds the batch of a built game through the registry (`with_game` by the game's name).
pub struct MakeBatch<'a> {
    /// The built game.
    pub engine: &'a Arc<dyn Engine>,
    /// The batch's settings.
    pub config: Config,
}

impl GameVisitor for MakeBatch<'_> {
    type Output = Result<Box<dyn Batch>, BatchError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        let game = match self.engine.as_any().downcast_ref::<GameEngine<G>>() {
            Some(engine) => Arc::clone(&engine.game),
            None => {
                let (_, variant, players) = self.engine.describe();
                Arc::new(G::build(variant, players, &self.engine.rules())?)
            }
        };
        Ok(Box::new(Typed::new(game, self.config)?))
    }
}
