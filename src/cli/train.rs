//! `bailab train`: train a `net:` agent by deep Monte-Carlo self-play, checkpointed and
//! resumable (`docs/train.md`).

use super::args::GameArgs;
use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor};
use crate::train::checkpoint::{load, CurveRow, TrainState, CHECKPOINT, CURVE, NETWORK};
use crate::train::config::{greedy_spec, Resample, RolloutPolicy, MAX_MEMBERS};
use crate::train::{start, train, Budget, Ending, Pace, Session, TrainConfig, TrainProgress};
use anyhow::{bail, Context};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The settings a resumed training takes from its checkpoint.
const SETTINGS: &[&str] = &[
    "game",
    "variant",
    "players",
    "rules",
    "seed",
    "hidden",
    "members",
    "batch",
    "eps",
    "td_lambda",
    "rollouts",
    "update_games",
    "eval_every",
    "eval_deals",
    "output",
    "force",
];

/// Arguments of `bailab train`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Method (deep Monte-Carlo, as DouZero): actor threads play every seat \
with the current network (epsilon-greedy); each decision with more than one legal action is a \
sample (the seat's view tensor and the chosen action's vector) whose target is the seat's final \
payout over the game's payout scale; the learner fits Q(view, action) to them by minibatch Adam, \
and the actors take the new weights every --update-games games. Every --eval-every decisions the \
network plays --eval-deals fixed evaluation deals (every rotation) in one seat against greedy, \
paired with greedy in that seat, and a row goes to curve.csv.\n\
Writes, in --output (default results/train-GAME-VARIANT): network.safetensors (play it with \
net:DIR/network.safetensors), curve.csv and checkpoint.safetensors, every few minutes and at the \
end. Ctrl-C (or SIGTERM) stops after the current generation with a checkpoint; `bailab train \
--resume DIR --hours H` goes on (the budget counts all sessions). On one thread the same seed and \
settings give the same weights, whole or resumed."
)]
pub(crate) struct Args {
    /// The game and variant.
    #[command(flatten)]
    pub(crate) game: GameArgs,
    /// Seats at the table (default: the most the game seats, up to 4).
    #[arg(long)]
    pub(crate) players: Option<usize>,
    /// A rule option, as in an experiment's `[rules]` table (`KEY=VALUE`). Repeatable.
    #[arg(long = "rules", value_name = "KEY=VALUE")]
    pub(crate) rules: Vec<String>,
    /// Stop after this much wall time in all (default 0.25 without --decisions).
    #[arg(long, conflicts_with = "decisions")]
    pub(crate) hours: Option<f64>,
    /// Stop after the generation that reaches this many training decisions in all.
    #[arg(long)]
    pub(crate) decisions: Option<u64>,
    /// The master seed of training and evaluation deals and of the first weights (keep it apart
    /// from the seeds of evaluations).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// The hidden layers' widths.
    #[arg(long, default_value = "256,128", value_delimiter = ',')]
    pub(crate) hidden: Vec<usize>,
    /// Networks trained side by side, each from its own first weights, on the same minibatches:
    /// the network file is their ensemble, whose Q is the mean of theirs (its hidden widths are
    /// the members' summed; `net:` costs about the members' sum per decision). The actors play
    /// one member a generation, in turn; the learner's work grows with the count, the actors'
    /// does not.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_MEMBERS as i64))]
    pub(crate) members: u32,
    /// Adam's learning rate (default 0.001); with --resume, the rate from now on (a decay by
    /// hand, recorded in the network's command).
    #[arg(long)]
    pub(crate) lr: Option<f64>,
    /// Minibatch rows.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub(crate) batch: u32,
    /// The actors' chance of a uniform legal action (exploration).
    #[arg(long, default_value_t = 0.05)]
    pub(crate) eps: f64,
    /// Training decisions over which the actors' chance of playing greedy's action (instead of
    /// the network's) falls from 1 to 0: training starts from greedy's play and improves on it
    /// (0: pure self-play from random weights).
    #[arg(long, default_value_t = 5_000_000)]
    pub(crate) guide_decisions: u64,
    /// λ of the targets: 1 is the Monte-Carlo return (each decision's target the seat's
    /// payout); below 1, λ-returns that mix in the network's value (its highest Q) at the seat's
    /// later decisions: less variance, some bias.
    #[arg(long, default_value_t = 1.0)]
    pub(crate) td_lambda: f64,
    /// Rollout targets: the share of the actors' real choices (0 to 1) whose every legal action
    /// is played out, from the true deal, by the rollout agent (--rollout-agent, default greedy)
    /// at every seat to the end; each action is a sample whose target is its payout minus the
    /// mean over the legal actions (the deal's luck cancels; the network still reads the view
    /// only). 0: Monte-Carlo targets.
    #[arg(long, default_value_t = 0.0)]
    pub(crate) rollouts: f64,
    /// Who plays the rollouts of --rollouts after the action: `greedy`, the rollout agent
    /// (--rollout-agent, default greedy) at every seat, or `own`, the deciding seat by the
    /// current network and the others by the rollout agent (a step of policy iteration: slower,
    /// as the network plays), or `all`, every seat by the network (self-play policy iteration:
    /// slower still). With --resume, the policy from now on (recorded in the network's command).
    #[arg(long, value_enum)]
    pub(crate) rollout_policy: Option<RolloutPolicy>,
    /// Rows a choice played out gives at least on average (default 0: none): a choice of k legal
    /// actions is played out with chance at least R/k (at most 1) rather than the share of
    /// --rollouts alone, so that choices of few actions (Tứ Sắc's claims and melds: two or
    /// three) are not outweighed by choices of many (its discards: one per non-King type in the
    /// hand). With --resume, from now on.
    #[arg(long, value_name = "R")]
    pub(crate) rollout_min_rows: Option<f64>,
    /// Worlds each rollout of --rollouts is played in (default 1): the true deal, then the true
    /// deal with the stock's hidden order shuffled anew for each further one; an action's
    /// target is its mean payout over them (less noise, the same expectation; each world costs
    /// a rollout). With --resume, the worlds from now on (recorded in the network's command).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) rollout_worlds: Option<u32>,
    /// What each rollout world after the first draws anew: `stock`, the stock's hidden order
    /// (the hands stay the true ones), or `view`, all the deciding seat does not see, drawn
    /// from its view as `ismcts` draws its determinizations. With --resume, from now on.
    #[arg(long, value_enum)]
    pub(crate) rollout_resample: Option<Resample>,
    /// The agent that plays the rollouts' seats the network does not (default `greedy`): any
    /// agent spec but `exec:`, e.g. `rules:agents/tusac-dirtyking26.toml` (a file read from the
    /// folder training runs in). A stronger, cheap player judges each action by a stronger
    /// continuation. With --resume, the agent from now on (recorded in the network's command).
    #[arg(long, value_name = "SPEC")]
    pub(crate) rollout_agent: Option<String>,
    /// Self-play games between weight updates of the actors.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub(crate) update_games: u64,
    /// Training decisions between evaluations against greedy.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) eval_every: u64,
    /// Evaluation deals (each in every rotation).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(2..=1_000_000))]
    pub(crate) eval_deals: u64,
    /// Minutes between checkpoints (0: after every generation).
    #[arg(long, default_value_t = 5.0)]
    pub(crate) checkpoint_minutes: f64,
    /// The output folder (default: results/train-GAME-VARIANT).
    #[arg(long)]
    pub(crate) output: Option<PathBuf>,
    /// Go on with the training in this folder (its settings come from its checkpoint).
    #[arg(long, value_name = "DIR", conflicts_with_all = SETTINGS)]
    pub(crate) resume: Option<PathBuf>,
    /// Replace an earlier training's files in the output folder.
    #[arg(long)]
    pub(crate) force: bool,
    /// Worker threads (default: all cores); on one thread the weights are reproducible.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// No progress bar and no closing lines.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// Runs `bailab train`.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let budget = budget(&args)?;
    if let Some(lr) = args.lr {
        check_lr(lr)?; // fresh or resumed: checked once, here
    }
    if let Some(t) = args.threads {
        crate::sim::run::threads::check_threads(t)?;
    }
    check_min_rows(&args)?;
    let (dir, fresh) = match &args.resume {
        Some(dir) => (dir.clone(), None),
        None => {
            let cfg = config(&args)?;
            crate::train::check_rollout_agent_of(&cfg)?;
            let dir = (args.output.clone()).unwrap_or_else(|| {
                Path::new("results").join(format!("train-{}-{}", cfg.game, cfg.variant))
            });
            prepare(&dir, args.force)?;
            (dir, Some(cfg))
        }
    };
    let stop = super::run::stop_on_ctrl_c_at("the end of the current generation");
    let session = Session {
        dir: &dir,
        checkpoint_every: Duration::from_secs_f64(args.checkpoint_minutes * 60.0),
        stop,
    };
    let bars = Bars::new(args.quiet, budget);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let game = fresh
        .as_ref()
        .map_or_else(|| read_game(&dir), |c| Ok(c.game.clone()))?;
    let visit = Train {
        fresh: fresh.as_ref(),
        new_lr: args.lr.filter(|_| fresh.is_none()),
        new_rollouts: rollout_flag(&args)
            .filter(|_| fresh.is_none())
            .map(|flag| RolloutChange {
                policy: args.rollout_policy,
                min_rows: args.rollout_min_rows,
                worlds: args.rollout_worlds,
                resample: args.rollout_resample,
                agent: args.rollout_agent.clone(),
                flag,
            }),
        budget,
        session: &session,
        bars: &bars,
    };
    let ending = pool
        .install(|| with_game(&game, visit))
        .map_err(anyhow::Error::msg)??;
    bars.finish();
    if !args.quiet {
        let done = match ending {
            Ending::Done => "trained",
            Ending::Stopped => "stopped (resume with --resume)",
        };
        eprintln!("{done}; wrote {}", dir.join(NETWORK).display());
        eprintln!("play it with: net:{}", dir.join(NETWORK).display());
    }
    if ending == Ending::Stopped {
        std::process::exit(130);
    }
    Ok(())
}

/// The budget of `args` (0.25 hours by default), checked.
fn budget(args: &Args) -> anyhow::Result<Budget> {
    if let Some(h) = args.hours.filter(|h| !(h.is_finite() && *h > 0.0)) {
        bail!("--hours {h}: must be a number above 0");
    }
    if !(args.checkpoint_minutes.is_finite() && args.checkpoint_minutes >= 0.0) {
        bail!(
            "--checkpoint-minutes {}: must be a number ≥ 0",
            args.checkpoint_minutes
        );
    }
    if args.decisions == Some(0) {
        bail!("--decisions 0: must be at least 1");
    }
    Ok(Budget {
        decisions: args.decisions,
        hours: args.hours.or(args.decisions.is_none().then_some(0.25)),
    })
}

/// The settings of a fresh training, checked.
fn config(args: &Args) -> anyhow::Result<TrainConfig> {
    let variant = args.game.variant()?;
    let info = args.game.info();
    let players = args.players.unwrap_or(info.seats.1.min(4));
    crate::games::kind::check_players(info, players).map_err(anyhow::Error::msg)?;
    let rules = super::rules::parse_rules(&args.rules).map_err(anyhow::Error::msg)?;
    if args.hidden.is_empty() || args.hidden.iter().any(|&w| w == 0 || w > 4096) {
        bail!("--hidden: give one or more widths from 1 to 4096, e.g. 256,128");
    }
    if !(0.0..=1.0).contains(&args.td_lambda) {
        bail!("--td-lambda {}: must be from 0 to 1", args.td_lambda);
    }
    if !(0.0..=1.0).contains(&args.rollouts) {
        bail!("--rollouts {}: must be a share from 0 to 1", args.rollouts);
    }
    if let Some(flag) = rollout_flag(args) {
        if args.rollouts == 0.0 {
            bail!("{flag}: give --rollouts too (the share of choices played out)");
        }
    }
    if args.rollouts > 0.0 && args.td_lambda < 1.0 {
        bail!("--rollouts and --td-lambda below 1: choose one kind of target");
    }
    if !(0.0..=1.0).contains(&args.eps) {
        bail!("--eps {}: must be from 0 to 1", args.eps);
    }
    Ok(TrainConfig {
        game: info.name.into(),
        variant,
        players,
        rules,
        seed: args.seed,
        hidden: args.hidden.clone(),
        members: args.members as usize,
        lr: args.lr.unwrap_or(0.001),
        batch: args.batch as usize,
        eps: args.eps,
        guide_decisions: args.guide_decisions,
        td_lambda: args.td_lambda,
        rollouts: args.rollouts,
        rollout_min_rows: args.rollout_min_rows.unwrap_or(0.0),
        rollout_policy: args.rollout_policy.unwrap_or_default(),
        rollout_worlds: args.rollout_worlds.unwrap_or(1),
        rollout_resample: args.rollout_resample.unwrap_or_default(),
        rollout_agent: args.rollout_agent.clone().unwrap_or_else(greedy_spec),
        update_games: args.update_games,
        eval_every: args.eval_every,
        eval_deals: args.eval_deals,
    })
}

/// Checks `--rollout-min-rows`: a number of rows from 0 to 1024.
fn check_min_rows(args: &Args) -> anyhow::Result<()> {
    match args.rollout_min_rows {
        Some(r) if !(r.is_finite() && (0.0..=1024.0).contains(&r)) => {
            bail!("--rollout-min-rows {r}: must be a number of rows from 0 to 1024")
        }
        _ => Ok(()),
    }
}

/// The first rollout flag given (`--rollout-policy`, `--rollout-min-rows`, `--rollout-worlds`,
/// `--rollout-resample`, `--rollout-agent`), if any: each needs rollout targets.
fn rollout_flag(args: &Args) -> Option<&'static str> {
    [
        ("--rollout-policy", args.rollout_policy.is_some()),
        ("--rollout-min-rows", args.rollout_min_rows.is_some()),
        ("--rollout-worlds", args.rollout_worlds.is_some()),
        ("--rollout-resample", args.rollout_resample.is_some()),
        ("--rollout-agent", args.rollout_agent.is_some()),
    ]
    .into_iter()
    .find_map(|(flag, given)| given.then_some(flag))
}

/// The rollout settings a resumed training is given anew.
struct RolloutChange {
    policy: Option<RolloutPolicy>,
    min_rows: Option<f64>,
    worlds: Option<u32>,
    resample: Option<Resample>,
    agent: Option<String>,
    /// The first of their flags, for the error.
    flag: &'static str,
}

impl RolloutChange {
    /// Sets them in `cfg`, refused for a training without rollout targets.
    fn apply(&self, cfg: &mut TrainConfig) -> anyhow::Result<()> {
        if cfg.rollouts == 0.0 {
            bail!(
                "{}: this training has no rollout targets (--rollouts)",
                self.flag
            );
        }
        cfg.rollout_policy = self.policy.unwrap_or(cfg.rollout_policy);
        cfg.rollout_min_rows = self.min_rows.unwrap_or(cfg.rollout_min_rows);
        cfg.rollout_worlds = self.worlds.unwrap_or(cfg.rollout_worlds);
        cfg.rollout_resample = self.resample.unwrap_or(cfg.rollout_resample);
        if let Some(agent) = &self.agent {
            cfg.rollout_agent = agent.clone();
        }
        Ok(())
    }
}

/// Checks a learning rate.
fn check_lr(lr: f64) -> anyhow::Result<()> {
    if !(lr.is_finite() && lr > 0.0 && lr < 1.0) {
        bail!("--lr {lr}: must be above 0 and below 1");
    }
    Ok(())
}

/// Creates `dir` and refuses an earlier training's files there unless `force` (which removes
/// them, so that no old checkpoint is ever resumed with the new settings).
fn prepare(dir: &Path, force: bool) -> anyhow::Result<()> {
    let names = [CHECKPOINT, NETWORK, CURVE];
    crate::sim::files::guard::Outputs::prepare(dir, &names, force)?.keep_replacing()
}

/// The game of the checkpoint in `dir`.
fn read_game(dir: &Path) -> anyhow::Result<String> {
    if !dir.join(CHECKPOINT).exists() {
        bail!(
            "--resume {}: no {CHECKPOINT} there (start a training with --output {})",
            dir.display(),
            dir.display()
        );
    }
    Ok(load(dir).context("--resume")?.0.config.game)
}

/// The command line as given, for the network file's header.
fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    format!("bailab {}", args.join(" "))
}

struct Train<'a> {
    fresh: Option<&'a TrainConfig>,
    /// A new learning rate for a resumed training.
    new_lr: Option<f64>,
    /// New rollout settings for a resumed training.
    new_rollouts: Option<RolloutChange>,
    budget: Budget,
    session: &'a Session<'a>,
    bars: &'a Bars,
}

impl GameVisitor for Train<'_> {
    type Output = anyhow::Result<Ending>;
    fn visit<G: GameKind>(self) -> anyhow::Result<Ending> {
        let (state, learner) = match self.fresh {
            Some(cfg) => start::<G>(cfg, command_line())?,
            None => {
                let (mut state, mut learner) = load(self.session.dir)?;
                if let Some(lr) = self.new_lr {
                    state.config.lr = lr;
                    learner.set_lr(lr);
                }
                if let Some(change) = &self.new_rollouts {
                    change.apply(&mut state.config)?;
                }
                if self.new_lr.is_some() || self.new_rollouts.is_some() {
                    let from = state.decisions;
                    state.command += &format!("; from {from} decisions: {}", command_line());
                }
                eprintln!(
                    "resuming the training in {} ({} decisions, {:.2} h done)",
                    self.session.dir.display(),
                    state.decisions,
                    state.seconds / 3600.0
                );
                (state, learner)
            }
        };
        Ok(train::<G>(
            state,
            learner,
            self.budget,
            self.session,
            self.bars,
        )?)
    }
}

/// The progress bar: decisions per second, loss and the latest evaluation.
struct Bars {
    bar: Option<indicatif::ProgressBar>,
    quiet: bool,
}

impl Bars {
    fn new(quiet: bool, budget: Budget) -> Bars {
        let show = !quiet && std::io::stderr().is_terminal();
        let bar = show.then(|| {
            let len = budget.decisions.unwrap_or(0);
            let bar = indicatif::ProgressBar::new(len);
            let template = if len > 0 {
                "{elapsed_precise} {bar:25} {human_pos}/{human_len} {msg}"
            } else {
                "{elapsed_precise} {human_pos} decisions {msg}"
            };
            bar.set_style(indicatif::ProgressStyle::with_template(template).expect("valid"));
            bar
        });
        Bars { bar, quiet }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl TrainProgress for Bars {
    fn generation(&self, state: &TrainState, pace: Pace) {
        if let Some(b) = &self.bar {
            b.set_position(state.decisions);
            let eval = state.curve.last().map_or(String::new(), |r| {
                format!(
                    " | vs greedy {:+.2} [{:+.2}, {:+.2}]",
                    r.gain.0, r.gain.1, r.gain.2
                )
            });
            b.set_message(format!(
                "{:.0} decisions/s ({:.0}% actors), loss {:.4}{eval}",
                pace.decisions_per_second,
                100.0 * pace.actors_share,
                state.loss
            ));
        }
    }

    fn evaluated(&self, row: &CurveRow) {
        let line = format!(
            "{} decisions, {:.0} s: vs greedy {:+.3} per game [{:+.3}, {:+.3}] on {} deals",
            row.decisions, row.wall_seconds, row.gain.0, row.gain.1, row.gain.2, row.eval_deals
        );
        match &self.bar {
            Some(b) => b.println(line),
            None if !self.quiet => eprintln!("{line}"),
            None => {}
        }
    }
}
