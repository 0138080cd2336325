//! `bailab train`: deep Monte-Carlo self-play (DMC, the method of DouZero: Zha et al., ICML
//! 2021) for the `net:` agent.
//!
//! Training runs in generations. In each, the actors ([`actors`]) play `update_games` self-play
//! games with the current network at every seat (ε-greedy), keeping each decision with more than
//! one legal action as a sample whose target is the seat's final payout over the game's payout
//! scale (the Monte-Carlo return; with `--rollouts`, each legal action of some choices is played
//! out and learned as an advantage, see [`actors`]); the learner ([`learner`]) then takes the
//! generation's samples once each, shuffled, in minibatches of Adam on the squared error; the
//! actors take the new weights for the next generation. With `--members K` the learner fits K
//! networks to the same minibatches and the network is their ensemble; the actors play one
//! member a generation, in turn. Every `eval_every` decisions the network plays the fixed
//! evaluation deals against greedy ([`eval`]) and a row goes to `curve.csv`; every few minutes,
//! and at the end, the whole state goes to a checkpoint ([`checkpoint`]) and the network to its
//! file, so that a stopped or killed training resumes where it was.
//!
//! Everything is seeded and gathered in game order: on one thread, the same seed and settings
//! give the same weights, whole or stopped and resumed.

pub(crate) mod actors;
pub(crate) mod checkpoint;
pub(crate) mod config;
pub(crate) mod eval;
pub(crate) mod learner;
pub(crate) mod value;

use self::actors::{self_play, Behaviour, Samples};
use self::checkpoint::{CurveRow, TrainState};
use self::config::adam;
pub(crate) use self::config::TrainConfig;
use self::eval::{evaluate, greedy_baseline};
use self::learner::Learner;
use crate::games::kind::GameKind;
use crate::generic_agents::catalogue::{make_agent_with, Setting};
use crate::generic_agents::net::file::{layout_text, NetHeader, FEATURE_VERSION, FORMAT};
use crate::generic_agents::net::{action_input_layout, input_lengths, payout_scale};
use crate::rng::{shuffle, stream_rng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When to stop.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Budget {
    /// Stop after the generation that reaches this many training decisions.
    pub(crate) decisions: Option<u64>,
    /// Stop after the generation that reaches this much wall time (all sessions together).
    pub(crate) hours: Option<f64>,
}

/// How fast the last generation went.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Pace {
    /// Decisions taken per wall second, the learner's time included.
    pub(crate) decisions_per_second: f64,
    /// The share of the generation's wall time the actors took (the rest: the learner).
    pub(crate) actors_share: f64,
}

/// What the caller is told while training runs.
pub(crate) trait TrainProgress: Sync {
    /// A generation ended at `pace`.
    fn generation(&self, state: &TrainState, pace: Pace);
    /// An evaluation ended.
    fn evaluated(&self, row: &CurveRow);
}

/// How a training ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The budget was reached.
    Done,
    /// Stopped by the caller's flag (a checkpoint was written).
    Stopped,
}

/// Why training failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TrainError {
    /// The game cannot be built.
    #[error("{0}")]
    Game(#[from] crate::games::kind::GameError),
    /// The learner failed (a tensor error).
    #[error("learner: {0}")]
    Learner(#[from] candle_core::Error),
    /// A checkpoint or output file.
    #[error("{0}")]
    Checkpoint(#[from] checkpoint::CheckpointError),
    /// The rollout agent's spec cannot play the rollouts.
    #[error("--rollout-agent {spec}: {why}")]
    RolloutAgent {
        /// The spec as given.
        spec: String,
        /// Why it cannot.
        why: String,
    },
}

/// Where training writes and how often.
pub(crate) struct Session<'a> {
    /// The output folder.
    pub(crate) dir: &'a std::path::Path,
    /// Wall time between checkpoints.
    pub(crate) checkpoint_every: Duration,
    /// Set to stop after the current generation.
    pub(crate) stop: Arc<AtomicBool>,
}

/// The game of `cfg`.
fn build<G: GameKind>(cfg: &TrainConfig) -> Result<G, crate::games::kind::GameError> {
    G::build(&cfg.variant, cfg.players, &cfg.rules)
}

/// [`check_rollout_agent`] for `cfg`'s game, named (before a fresh training's folder is made).
pub(crate) fn check_rollout_agent_of(cfg: &TrainConfig) -> Result<(), TrainError> {
    struct Check<'a>(&'a TrainConfig);
    impl crate::games::GameVisitor for Check<'_> {
        type Output = Result<(), TrainError>;
        fn visit<G: GameKind>(self) -> Result<(), TrainError> {
            check_rollout_agent::<G>(self.0)
        }
    }
    crate::games::with_game(&cfg.game, Check(cfg)).unwrap_or(Ok(()))
}

/// Checks that `cfg`'s rollout agent can be built for its table (a rule list of its variant, a
/// file that reads) and plays in-process: an outside program (`exec:`) is refused.
fn check_rollout_agent<G: GameKind>(cfg: &TrainConfig) -> Result<(), TrainError> {
    let refuse = |why: String| TrainError::RolloutAgent {
        spec: cfg.rollout_agent.clone(),
        why,
    };
    if cfg.rollout_agent.split(':').next() == Some("exec") {
        return Err(refuse("an outside program cannot play rollouts".into()));
    }
    let setting = Setting {
        variant: Some(&cfg.variant),
        ..Setting::default()
    };
    make_agent_with::<G>(&cfg.rollout_agent, setting).map_err(|e| refuse(e.to_string()))?;
    Ok(())
}

/// The network file header of the training in `state`.
pub(crate) fn header<G: GameKind>(game: &G, state: &TrainState) -> NetHeader {
    let cfg = &state.config;
    NetHeader {
        format: FORMAT.into(),
        game: G::INFO.name.into(),
        variant: cfg.variant.clone(),
        players: cfg.players,
        rules: game.rules(),
        feature_version: FEATURE_VERSION,
        state_layout: layout_text(&game.tensor_layout()),
        action_layout: action_input_layout(game),
        architecture: "mlp".into(),
        hidden: cfg.hidden.iter().map(|w| w * cfg.members).collect(),
        payout_scale: payout_scale(game),
        command: state.command.clone(),
        decisions: state.decisions,
        games: state.games,
        seconds: state.seconds,
        cpu_seconds: state.cpu_seconds,
        margin: None,
        search: None,
    }
}

/// A fresh training state and learner for `cfg`.
pub(crate) fn start<G: GameKind>(
    cfg: &TrainConfig,
    command: String,
) -> Result<(TrainState, Learner), TrainError> {
    let game = build::<G>(cfg)?;
    let (s, a) = input_lengths(&game);
    let learner = Learner::new(s, a, &cfg.hidden, cfg.seed, adam(cfg), cfg.members);
    Ok((TrainState::new(cfg.clone(), command), learner))
}

/// Trains from `state` and `learner` until `budget` or the stop flag, checkpointing in
/// `session.dir`. Returns how it ended; the final checkpoint and network file are written.
pub(crate) fn train<G: GameKind>(
    mut state: TrainState,
    mut learner: Learner,
    budget: Budget,
    session: &Session<'_>,
    progress: &dyn TrainProgress,
) -> Result<Ending, TrainError> {
    let cfg = state.config.clone();
    let make_game = || build::<G>(&cfg).expect("the table was built once");
    let game = make_game();
    check_rollout_agent::<G>(&cfg)?;
    let baseline = greedy_baseline::<G>(&make_game, cfg.seed, cfg.eval_deals);
    let clock = Clock::start(&state);
    let mut last_checkpoint = Instant::now();
    let ending = loop {
        if session.stop.load(Ordering::Relaxed) {
            break Ending::Stopped;
        }
        if reached(&state, budget) {
            break Ending::Done;
        }
        let started = Instant::now();
        let games = state.games..state.games + cfg.update_games;
        let behaviour = Behaviour {
            eps: cfg.eps,
            guide: guide_chance(&cfg, state.decisions),
            lambda: cfg.td_lambda,
            rollouts: cfg.rollouts,
            rollout_min_rows: cfg.rollout_min_rows,
            rollout_policy: cfg.rollout_policy,
            rollout_worlds: cfg.rollout_worlds,
            rollout_resample: cfg.rollout_resample,
            rollout_agent: &cfg.rollout_agent,
        };
        let actor = state.generation as usize % learner.member_count();
        let net = Arc::new(learner.member_qnet(actor)?);
        let samples = self_play(&make_game, &net, behaviour, cfg.seed, games);
        let acted = started.elapsed().as_secs_f64();
        state.loss = learn_generation(&mut learner, &samples, &cfg, state.generation)?;
        state.generation += 1;
        state.games += cfg.update_games;
        state.decisions += samples.decisions;
        state.all_decisions += samples.all_decisions;
        clock.update(&mut state);
        let took = started.elapsed().as_secs_f64();
        let pace = Pace {
            decisions_per_second: samples.all_decisions as f64 / took,
            actors_share: acted / took,
        };
        progress.generation(&state, pace);
        if state.decisions >= state.next_eval {
            let ensemble = Arc::new(learner.qnet()?);
            let gain = evaluate::<G>(&make_game, &ensemble, cfg.seed, &baseline);
            clock.update(&mut state);
            let row = CurveRow::new(&state, gain);
            progress.evaluated(&row);
            state.curve.push(row);
            state.next_eval += cfg.eval_every;
        }
        if last_checkpoint.elapsed() >= session.checkpoint_every {
            checkpoint::save(session.dir, &state, &learner, &header(&game, &state))?;
            last_checkpoint = Instant::now();
        }
    };
    clock.update(&mut state);
    checkpoint::save(session.dir, &state, &learner, &header(&game, &state))?;
    Ok(ending)
}

/// The actors' chance of greedy's action after `decisions`: from 1 down to 0 over
/// `guide_decisions`.
fn guide_chance(cfg: &TrainConfig, decisions: u64) -> f64 {
    if decisions >= cfg.guide_decisions {
        return 0.0;
    }
    1.0 - decisions as f64 / cfg.guide_decisions as f64
}

/// Whether `state` has used up `budget`.
fn reached(state: &TrainState, budget: Budget) -> bool {
    let by_decisions = budget.decisions.is_some_and(|n| state.decisions >= n);
    let by_time = budget.hours.is_some_and(|h| state.seconds >= h * 3600.0);
    by_decisions || by_time
}

/// One pass of the learner over a generation's samples, shuffled by the generation's stream;
/// returns the mean loss of its minibatches.
fn learn_generation(
    learner: &mut Learner,
    samples: &Samples,
    cfg: &TrainConfig,
    generation: u64,
) -> Result<f64, candle_core::Error> {
    let rows = samples.targets.len();
    if rows == 0 {
        return Ok(0.0);
    }
    let width = samples.inputs.len() / rows;
    let mut order: Vec<u32> = (0..rows as u32).collect();
    shuffle(
        &mut order,
        &mut stream_rng(cfg.seed, generation, SHUFFLE_STREAM),
    );
    let (mut inputs, mut targets) = (Vec::new(), Vec::new());
    let (mut total, mut batches) = (0.0, 0);
    for chunk in order.chunks(cfg.batch) {
        inputs.clear();
        targets.clear();
        for &r in chunk {
            let r = r as usize;
            inputs.extend_from_slice(&samples.inputs[r * width..(r + 1) * width]);
            targets.push(samples.targets[r]);
        }
        total += f64::from(learner.step(&inputs, &targets)?);
        batches += 1;
    }
    Ok(total / f64::from(batches))
}

/// The stream a generation's samples are shuffled by.
const SHUFFLE_STREAM: u64 = 0x7368_7566; // "shuf"

/// Wall and CPU time of a training, carried over from earlier sessions.
struct Clock {
    wall: Instant,
    seconds_before: f64,
    cpu_at_start: f64,
    cpu_before: f64,
}

impl Clock {
    fn start(state: &TrainState) -> Clock {
        Clock {
            wall: Instant::now(),
            seconds_before: state.seconds,
            cpu_at_start: cpu_seconds(),
            cpu_before: state.cpu_seconds,
        }
    }

    fn update(&self, state: &mut TrainState) {
        state.seconds = self.seconds_before + self.wall.elapsed().as_secs_f64();
        state.cpu_seconds = self.cpu_before + (cpu_seconds() - self.cpu_at_start);
    }
}

/// CPU seconds this process has used, on every thread.
fn cpu_seconds() -> f64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct it is given.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}
