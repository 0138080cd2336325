//! The settings of a training: everything that decides its weights (the budget does not).

use super::learner::Adam;
use crate::game::RuleMap;
pub(crate) use crate::generic_agents::net::playout::RolloutPolicy;
use serde::{Deserialize, Serialize};

/// What is trained and how: everything that decides the weights (the budget does not: a
/// resumed training may be given more).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct TrainConfig {
    /// The game.
    pub(crate) game: String,
    /// The variant.
    pub(crate) variant: String,
    /// Seats at the table.
    pub(crate) players: usize,
    /// The rule options given (the network file names every option in force).
    pub(crate) rules: RuleMap,
    /// The master seed of training and evaluation deals, and of the initial weights.
    pub(crate) seed: u64,
    /// The hidden layers' widths.
    pub(crate) hidden: Vec<usize>,
    /// Networks trained side by side on the same minibatches from their own first weights; the
    /// network file is their ensemble (the mean of their Q), the actors play one member a
    /// generation in turn. Left out of the checkpoint at 1, so earlier checkpoints keep their
    /// bytes.
    #[serde(default = "one_member", skip_serializing_if = "is_one_member")]
    pub(crate) members: usize,
    /// Adam's learning rate.
    pub(crate) lr: f64,
    /// Minibatch rows.
    pub(crate) batch: usize,
    /// The actors' chance of a uniform legal action.
    pub(crate) eps: f64,
    /// Decisions over which the actors' chance of playing greedy's action falls from 1 to 0
    /// (0: never).
    #[serde(default)]
    pub(crate) guide_decisions: u64,
    /// λ of the targets' λ-returns: 1 is the Monte-Carlo return (the payout); below 1 a
    /// target mixes in the network's value of the seat's later decisions (less variance, some
    /// bias). Left out of the checkpoint at 1, so Monte-Carlo checkpoints keep their bytes.
    #[serde(default = "monte_carlo", skip_serializing_if = "is_monte_carlo")]
    pub(crate) td_lambda: f64,
    /// The share of the actors' real choices kept as rollout targets, every legal action played
    /// out by the rollout policy from the true deal (0: Monte-Carlo targets). Left out of the
    /// checkpoint at 0, so Monte-Carlo checkpoints keep their bytes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) rollouts: f64,
    /// Rows a played-out choice gives at least on average: a choice of `k` legal actions is
    /// played out with chance at least `rollout_min_rows / k` (so that choices of few actions are
    /// not outweighed by choices of many). A resumed training may change it. Left out of the
    /// checkpoint at 0, so earlier checkpoints keep their bytes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) rollout_min_rows: f64,
    /// Who plays the rollouts after the action. A resumed training may change it.
    #[serde(default, skip_serializing_if = "RolloutPolicy::is_greedy")]
    pub(crate) rollout_policy: RolloutPolicy,
    /// Worlds each rollout is played in: the true deal, then worlds drawn anew as
    /// `rollout_resample` says; an action's target is its mean payout over them (less noise).
    /// A resumed training may change it. Left out of the checkpoint at 1, so earlier
    /// checkpoints keep their bytes.
    #[serde(default = "one_world", skip_serializing_if = "is_one_world")]
    pub(crate) rollout_worlds: u32,
    /// What the rollout worlds after the first draw anew. A resumed training may change it.
    #[serde(default, skip_serializing_if = "Resample::is_stock")]
    pub(crate) rollout_resample: Resample,
    /// The agent spec that plays the rollouts' seats the network does not (`greedy` by default;
    /// a file in it is read from the folder training runs in). A resumed training may change
    /// it. Left out of the checkpoint at `greedy`, so earlier checkpoints keep their bytes.
    #[serde(default = "greedy_spec", skip_serializing_if = "is_greedy_spec")]
    pub(crate) rollout_agent: String,
    /// Self-play games per generation (between weight updates of the actors).
    pub(crate) update_games: u64,
    /// Decisions between evaluations.
    pub(crate) eval_every: u64,
    /// Evaluation deals (each in every rotation).
    pub(crate) eval_deals: u64,
}

/// λ = 1: the Monte-Carlo return.
fn monte_carlo() -> f64 {
    1.0
}

/// Whether `lambda` is the Monte-Carlo return's.
fn is_monte_carlo(lambda: &f64) -> bool {
    *lambda == 1.0
}

/// The most networks a training fits side by side (`--members`).
pub(crate) const MAX_MEMBERS: usize = 16;

/// One network: no ensemble.
fn one_member() -> usize {
    1
}

/// Whether one network is trained.
fn is_one_member(members: &usize) -> bool {
    *members == 1
}

/// One world per rollout: the true deal alone.
fn one_world() -> u32 {
    1
}

/// Whether rollouts are played in the true deal alone.
fn is_one_world(worlds: &u32) -> bool {
    *worlds == 1
}

/// The default rollout agent: `greedy`.
pub(crate) fn greedy_spec() -> String {
    "greedy".into()
}

/// Whether `spec` is the default rollout agent.
fn is_greedy_spec(spec: &str) -> bool {
    spec == "greedy"
}

/// What each rollout world after the first (the true deal) draws anew.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Resample {
    /// The stock's hidden order; the hands stay the true ones.
    #[default]
    Stock,
    /// Everything the deciding seat does not see, drawn from its view (as `ismcts` draws its
    /// determinizations): the other hands and the stock.
    View,
}

impl Resample {
    /// Whether it is the default, the stock alone.
    fn is_stock(&self) -> bool {
        *self == Resample::Stock
    }
}

/// Whether a share or a count is 0 (no rollout targets; no least rows).
fn is_zero(share: &f64) -> bool {
    *share == 0.0
}

/// Adam's settings of `cfg`.
pub(crate) fn adam(cfg: &TrainConfig) -> Adam {
    Adam {
        lr: cfg.lr,
        ..Adam::default()
    }
}
