//! `bailab learn`: learning a rule list (`rules:PATH`) for a game.
//!
//! The method is *imitation proposes, play disposes*:
//!
//! 1. **Teacher decisions.** The teacher (by default `ismcts:iters=1000,depth=off`, the
//!    unlimited tree) plays `teacher_deals` games, one seat against greedy in the others; at
//!    each of its decisions with more than one legal action we keep every action's features
//!    and the teacher's choice ([`samples`]).
//! 2. **Proposals.** Every candidate rule (a test on one feature, two tests joined by `and`,
//!    or the lowest/highest of a feature) is scored by how many teacher decisions the list
//!    would then match, and how many of those it does not match now (its fixes) ([`search`]).
//!    A sweeping ISMCTS teacher also estimates each action's payout gain over greedy's; a rule
//!    is then also scored by the estimated gain of the list's choices (its value). The `pool`
//!    best by matches, by value (each among those raising it) and by precision (fixes over
//!    decisions no longer matched, smoothed) are proposed; a rule is proposed once.
//! 3. **Acceptance by play, as a race.** Each proposal, appended to the list, plays the first
//!    quarter of the `deals` training deals in every rotation against three greedy; the
//!    `shortlist` best play the rest. Every payout is paired with the current list's on the
//!    same deals (common random numbers), and the best is accepted if its gain over all the
//!    deals is at least `min_t` standard errors above zero (`selfplay`). Learning stops at
//!    `max_rules` rules or at a step that accepts nothing.
//!
//! Why both: imitation alone copies the teacher's noise and cannot tell a rule that matches
//! many harmless decisions from one that matters; search by play alone cannot afford to try
//! thousands of rules. The teacher narrows thousands of candidates to a few, and play decides
//! with a measured gain, which the report gives for every rule tried.
//!
//! Everything is seeded: the same seed and settings give the same file on any thread count.

pub mod samples;
pub mod search;
pub(crate) mod selfplay;

use crate::agent::AgentError;
use crate::game::RuleMap;
use crate::games::kind::{GameError, GameKind};
use crate::generic_agents::rules::list::{Rule, RuleList};
use crate::generic_agents::rules::{feature_names, greedy_column, rank_column};
use crate::input::{read_bytes, TEACHER_CACHE};
use selfplay::Gain;
use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;

/// The settings of one learning run.
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// The variant.
    pub variant: String,
    /// Seats at the table.
    pub players: usize,
    /// The master seed of every game played.
    pub seed: u64,
    /// The teacher's agent spec.
    pub teacher: String,
    /// Games played by the teacher.
    pub(crate) teacher_deals: u64,
    /// Training deals (each in every rotation) on which a shortlisted rule plays.
    pub deals: u64,
    /// The most rules learned.
    pub(crate) max_rules: usize,
    /// Rules proposed per step: this many by matches and this many by fixes.
    pub pool: usize,
    /// Proposals kept after the first quarter of the training deals.
    pub(crate) shortlist: usize,
    /// The paired gain a rule needs, in standard errors above zero.
    pub(crate) min_t: f64,
    /// A folder keeping the teacher's decisions, reused when the game, table, seed, teacher
    /// and teacher games are the same.
    pub(crate) teacher_cache: Option<std::path::PathBuf>,
}

/// One proposal tried, and what play made of it.
#[derive(Clone, Debug)]
pub(crate) struct Trial {
    /// The step (rules already accepted when it was tried).
    pub step: usize,
    /// The rule, as read.
    pub rule: String,
    /// Teacher decisions matched before the rule, as a fraction.
    pub(crate) agree_before: f64,
    /// Teacher decisions matched with the rule.
    pub(crate) agree_after: f64,
    /// Training deals it played.
    pub deals: u64,
    /// Paired payout gain per game over the list without it, on those deals.
    pub(crate) gain: Gain,
    /// Whether it joined the list.
    pub accepted: bool,
}

/// What a learning run produced.
#[derive(Clone, Debug)]
pub struct Learned {
    /// The list.
    pub list: RuleList,
    /// Every proposal tried, in order.
    pub(crate) trials: Vec<Trial>,
    /// Teacher decisions collected.
    pub decisions: usize,
    /// Of them, where the teacher took greedy's action.
    pub(crate) teacher_is_greedy: usize,
    /// The final list's paired gain per game over greedy on the training deals.
    pub(crate) vs_greedy: Gain,
}

/// Why a rule list cannot be learned.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// The game cannot be built as asked.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The teacher's spec cannot be built.
    #[error(transparent)]
    Teacher(#[from] AgentError),
    /// The teacher cache cannot be written.
    #[error("teacher cache {}: {error}", path.display())]
    Cache {
        /// The cache file.
        path: std::path::PathBuf,
        /// The system's message.
        error: std::io::Error,
    },
}

/// Reports progress: a phase starts with its length, and ticks.
pub trait Progress: Sync {
    /// A phase of `len` steps starts.
    fn phase(&self, what: &str, len: u64);
    /// One step of the phase is done.
    fn tick(&self);
}

/// Learns a rule list for game `G`.
pub fn learn<G: GameKind>(
    cfg: &LearnConfig,
    progress: &dyn Progress,
) -> Result<Learned, LearnError> {
    let game = G::build(&cfg.variant, cfg.players, &RuleMap::new())?;
    let samples = teacher_decisions(&game, cfg, progress)?;
    let mut learner = Learner::<G> {
        cfg,
        progress,
        tests: search::tests(&samples, feature_names::<G>().len()),
        fit: search::Fit::new(&samples, rank_column::<G>()),
        samples,
        list: RuleList {
            game: G::INFO.name.to_string(),
            variant: cfg.variant.clone(),
            rules: Vec::new(),
            features: feature_names::<G>(),
        },
        current: Vec::new(),
        trials: Vec::new(),
        rejected: HashSet::new(),
        game,
    };
    let greedy = learner.play(&learner.list.clone(), 0..cfg.deals, "greedy");
    learner.current = greedy.clone();
    while learner.list.rules.len() < cfg.max_rules && learner.step() {}
    Ok(Learned {
        vs_greedy: Gain::paired(&learner.current, &greedy, learner.game.seats()),
        decisions: learner.samples.len(),
        teacher_is_greedy: learner.samples.teacher_is_greedy(),
        list: learner.list,
        trials: learner.trials,
    })
}

/// The teacher's decisions: played, or read from the cache when it holds them.
fn teacher_decisions<G: GameKind>(
    game: &G,
    cfg: &LearnConfig,
    progress: &dyn Progress,
) -> Result<samples::Samples, LearnError> {
    let names = feature_names::<G>();
    let file = cfg.teacher_cache.as_ref().map(|dir| {
        let teacher: String = cfg
            .teacher
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        dir.join(format!(
            "{}-{}-{}p-seed{}-{teacher}-{}.bin",
            G::INFO.name,
            cfg.variant,
            cfg.players,
            cfg.seed,
            cfg.teacher_deals
        ))
    });
    let cached = file
        .as_ref()
        .and_then(|f| read_bytes(f, TEACHER_CACHE).ok());
    if let Some(s) = cached {
        if let Some(samples) = samples::Samples::from_bytes(&s, &names) {
            return Ok(samples);
        }
    }
    progress.phase("teacher games", cfg.teacher_deals);
    let tick = || progress.tick();
    let samples = samples::collect(game, &cfg.teacher, cfg.seed, cfg.teacher_deals, &tick)?;
    if let Some(f) = &file {
        let dir = f.parent().expect("a folder");
        let name = f.file_name().expect("a name").to_string_lossy();
        std::fs::create_dir_all(dir)
            .and_then(|()| {
                crate::sim::files::atomic::write_atomic(dir, &name, &samples.to_bytes(&names))
            })
            .map_err(|error| LearnError::Cache {
                path: f.clone(),
                error,
            })?;
    }
    Ok(samples)
}

/// The most teacher games (`--teacher-deals`): every decision's feature rows are kept in memory,
/// some tens of kilobytes a game.
pub const MAX_TEACHER_DEALS: u64 = 100_000;
/// The most training deals (`--deals`): the payouts of every shortlisted rule on every deal are
/// kept in memory.
pub const MAX_LEARN_DEALS: u64 = 10_000_000;

/// A learning run in progress.
struct Learner<'a, G: GameKind> {
    cfg: &'a LearnConfig,
    progress: &'a dyn Progress,
    game: G,
    samples: samples::Samples,
    tests: Vec<crate::generic_agents::rules::list::Test>,
    fit: search::Fit,
    list: RuleList,
    /// The list's payouts on every training deal.
    current: Vec<i64>,
    trials: Vec<Trial>,
    rejected: HashSet<Rule>,
}

impl<G: GameKind> Learner<'_, G> {
    /// The payouts of `list` on the training deals `deals`.
    fn play(&self, list: &RuleList, deals: Range<u64>, what: &str) -> Vec<i64> {
        self.progress.phase(what, deals.end - deals.start);
        let tick = || self.progress.tick();
        let list = Arc::new(list.clone());
        selfplay::payouts(&self.game, &list, self.cfg.seed, deals, &tick)
    }

    /// The proposals of this step, never proposed before: the best `pool` rules by matches
    /// and by value (each among those raising it), and the best `pool` by precision, `fixes / (breaks + 5)`
    /// (among those fixing at least 5), where breaks are the decisions matched now and no
    /// longer with the rule. Of rules with the same matches and fixes (very likely the same
    /// choices) only the first, the simplest, is proposed.
    fn proposals(&self) -> Vec<search::Scored> {
        self.progress.phase("scoring rules", 1);
        let ranked = search::ranked(&self.samples, &self.fit, &self.tests, greedy_column::<G>());
        self.progress.tick();
        let now = self.fit.agree();
        let mut signatures = HashSet::new();
        let fresh: Vec<&search::Scored> = ranked
            .iter()
            .filter(|s| {
                let signature = (s.agree, s.fixes, s.value.to_bits());
                !self.rejected.contains(&s.rule) && signatures.insert(signature)
            })
            .collect();
        let precision = |s: &search::Scored| {
            let breaks = now + s.fixes - s.agree;
            s.fixes as f64 / (breaks as f64 + 5.0)
        };
        let mut by_precision: Vec<&search::Scored> =
            fresh.iter().copied().filter(|s| s.fixes >= 5).collect();
        by_precision.sort_by(|a, b| precision(b).total_cmp(&precision(a)));
        let mut by_value: Vec<&search::Scored> = fresh
            .iter()
            .copied()
            .filter(|s| self.samples.valued && s.value > self.fit.value())
            .collect();
        by_value.sort_by(|a, b| b.value.total_cmp(&a.value));
        let mut seen = HashSet::new();
        fresh
            .iter()
            .copied()
            .filter(|s| s.agree > now)
            .take(self.cfg.pool)
            .chain(by_value.into_iter().take(self.cfg.pool))
            .chain(by_precision.into_iter().take(self.cfg.pool))
            .filter(|s| seen.insert(s.rule.clone()))
            .cloned()
            .collect()
    }

    /// One step: races the proposals on the first quarter of the training deals, plays the
    /// `shortlist` best on all of them and accepts the best if its gain is clear. Returns
    /// whether a rule was accepted.
    fn step(&mut self) -> bool {
        let proposals = self.proposals();
        if proposals.is_empty() {
            return false;
        }
        let quarter = (self.cfg.deals / 4).max(1);
        let mut raced: Vec<(usize, Vec<i64>)> = Vec::new();
        for (k, p) in proposals.iter().enumerate() {
            let pay = self.try_rule(p, 0..quarter);
            raced.push((k, pay));
            self.rejected.insert(p.rule.clone());
        }
        raced.sort_by(|a, b| {
            let gain = |x: &(usize, Vec<i64>)| x.1.iter().sum::<i64>();
            gain(b).cmp(&gain(a)).then(a.0.cmp(&b.0))
        });
        let mut best: Option<(usize, usize, Vec<i64>, Gain)> = None;
        for (k, mut pay) in raced.into_iter().take(self.cfg.shortlist) {
            if quarter < self.cfg.deals {
                pay.extend(self.try_rule(&proposals[k], quarter..self.cfg.deals));
            }
            let gain = Gain::paired(&pay, &self.current, self.game.seats());
            self.trials
                .push(self.trial(&proposals[k], self.cfg.deals, gain));
            if gain.t() >= self.cfg.min_t && best.as_ref().is_none_or(|b| gain.mean > b.3.mean) {
                best = Some((k, self.trials.len() - 1, pay, gain));
            }
        }
        let Some((k, trial, pay, _)) = best else {
            return false;
        };
        self.trials[trial].accepted = true;
        let rule = proposals[k].rule.clone();
        self.fit.push(&self.samples, &rule);
        self.list.rules.push(rule);
        self.current = pay;
        true
    }

    /// Plays the list with `p` appended on `deals`; on the race's quarter (deals from 0) it
    /// also records the trial.
    fn try_rule(&mut self, p: &search::Scored, deals: Range<u64>) -> Vec<i64> {
        let mut with = self.list.clone();
        with.rules.push(p.rule.clone());
        let label = format!(
            "rule {}: {}",
            self.list.rules.len() + 1,
            self.list.rule_text(&p.rule)
        );
        let pay = self.play(&with, deals.clone(), &label);
        if deals.start == 0 {
            let n = pay.len();
            let gain = Gain::paired(&pay, &self.current[..n], self.game.seats());
            self.trials.push(self.trial(p, n as u64, gain));
        }
        pay
    }

    fn trial(&self, p: &search::Scored, deals: u64, gain: Gain) -> Trial {
        let total = self.samples.len().max(1) as f64;
        Trial {
            step: self.list.rules.len(),
            rule: self.list.rule_text(&p.rule),
            agree_before: self.fit.agree() as f64 / total,
            agree_after: p.agree as f64 / total,
            deals,
            gain,
            accepted: false,
        }
    }
}
