//! `bailab learn`: learning a rule list (`rules:PATH`) for a game.
//!
//! The method is *imitation proposes, play disposes*:
//!
//! 1. **Teacher decisions.** The teacher (by default `ismcts:iters=1000`) plays `teacher_deals`
//!    games, one seat against greedy in the others; at each of its decisions with more than
//!    one legal action we keep every action's features and the teacher's choice
//!    ([`samples`]).
//! 2. **Proposals.** Every candidate rule (a test on one feature, two tests joined by `and`,
//!    or the lowest/highest of a feature) is scored by how many teacher decisions the list
//!    would then match ([`search`]); the best `shortlist` raising that count are proposed.
//! 3. **Acceptance by play.** Each proposal, appended to the list, plays `deals` deals in every
//!    rotation against three greedy; its payout is compared with the current list's on the
//!    same deals (common random numbers), and the best is accepted if its paired gain is at
//!    least `min_t` standard errors above zero ([`selfplay`]). A rejected proposal is not
//!    proposed again. Learning stops at `max_rules` rules or when a step accepts nothing
//!    within `rounds` shortlists.
//!
//! Why both: imitation alone copies the teacher's noise and cannot tell a rule that matches
//! many harmless decisions from one that matters; search by play alone cannot afford to try
//! thousands of rules. The teacher narrows thousands of candidates to a few, and play decides
//! with a measured gain, which the report gives for every rule tried.
//!
//! Everything is seeded: the same seed and settings give the same file on any thread count.

pub mod samples;
pub mod search;
pub mod selfplay;

use crate::agents::rules::list::{Rule, RuleList};
use crate::agents::rules::{feature_names, greedy_column};
use crate::games::{GameKind, RuleMap};
use selfplay::Gain;
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
    pub teacher_deals: u64,
    /// Deals (each in every rotation) on which a proposal plays.
    pub deals: u64,
    /// The most rules learned.
    pub max_rules: usize,
    /// Proposals played per round.
    pub shortlist: usize,
    /// Rounds of proposals a step may try before learning stops.
    pub rounds: usize,
    /// The paired gain a proposal needs, in standard errors above zero.
    pub min_t: f64,
}

/// One proposal tried, and what play made of it.
#[derive(Clone, Debug)]
pub struct Trial {
    /// The step (rules already accepted when it was tried).
    pub step: usize,
    /// The rule, as read.
    pub rule: String,
    /// Teacher decisions matched before and with the rule, as fractions.
    pub agree_before: f64,
    /// Teacher decisions matched with the rule.
    pub agree_after: f64,
    /// Paired payout gain per game over the list without it.
    pub gain: Gain,
    /// Whether it joined the list.
    pub accepted: bool,
}

/// What a learning run produced.
#[derive(Clone, Debug)]
pub struct Learned {
    /// The list.
    pub list: RuleList,
    /// Every proposal tried, in order.
    pub trials: Vec<Trial>,
    /// Teacher decisions collected.
    pub decisions: usize,
    /// Of them, where the teacher took greedy's action.
    pub teacher_is_greedy: usize,
    /// The final list's paired gain per game over greedy on the training deals.
    pub vs_greedy: Gain,
}

/// Reports progress: a phase starts with its length, and ticks.
pub trait Progress: Sync {
    /// A phase of `len` steps starts.
    fn phase(&self, what: &str, len: u64);
    /// One step of the phase is done.
    fn tick(&self);
}

/// Learns a rule list for game `G`.
pub fn learn<G: GameKind>(cfg: &LearnConfig, progress: &dyn Progress) -> Result<Learned, String> {
    let game = G::build(&cfg.variant, cfg.players, &RuleMap::new())?;
    let tick = || progress.tick();
    progress.phase("teacher games", cfg.teacher_deals);
    let samples = samples::collect(&game, &cfg.teacher, cfg.seed, cfg.teacher_deals, &tick)?;
    let names = feature_names::<G>();
    let tests = search::tests(&samples, names.len());
    let mut fit = search::Fit::new(&samples);
    let mut list = RuleList {
        game: G::INFO.name.to_string(),
        variant: cfg.variant.clone(),
        rules: Vec::new(),
        features: names,
    };
    let play = |list: &RuleList, what: &str| {
        progress.phase(what, cfg.deals);
        selfplay::payouts(&game, &Arc::new(list.clone()), cfg.seed, cfg.deals, &tick)
    };
    let greedy_payouts = play(&list, "greedy");
    let mut current = greedy_payouts.clone();
    let mut trials = Vec::new();
    let mut rejected: Vec<Rule> = Vec::new();
    let total = samples.len().max(1) as f64;
    'steps: while list.rules.len() < cfg.max_rules {
        for _round in 0..cfg.rounds {
            progress.phase("scoring rules", 1);
            let ranked = search::ranked(&samples, &fit, &tests, greedy_column::<G>());
            progress.tick();
            let proposals: Vec<search::Scored> = ranked
                .into_iter()
                .filter(|s| s.agree > fit.agree() && !rejected.contains(&s.rule))
                .take(cfg.shortlist)
                .collect();
            if proposals.is_empty() {
                break 'steps;
            }
            let mut best: Option<(usize, Gain, Vec<i64>)> = None;
            let first_trial = trials.len();
            for (k, p) in proposals.iter().enumerate() {
                let mut with = list.clone();
                with.rules.push(p.rule.clone());
                let label = format!("rule {}: {}", list.rules.len() + 1, list.rule_text(&p.rule));
                let pay = play(&with, &label);
                let gain = Gain::paired(&pay, &current, game.seats());
                trials.push(Trial {
                    step: list.rules.len(),
                    rule: list.rule_text(&p.rule),
                    agree_before: fit.agree() as f64 / total,
                    agree_after: p.agree as f64 / total,
                    gain,
                    accepted: false,
                });
                if gain.t() >= cfg.min_t && best.as_ref().is_none_or(|b| gain.mean > b.1.mean) {
                    best = Some((k, gain, pay));
                }
            }
            match best {
                Some((k, _, pay)) => {
                    trials[first_trial + k].accepted = true;
                    fit.push(&samples, &proposals[k].rule);
                    list.rules.push(proposals[k].rule.clone());
                    current = pay;
                    continue 'steps;
                }
                None => rejected.extend(proposals.into_iter().map(|p| p.rule)),
            }
        }
        break;
    }
    Ok(Learned {
        vs_greedy: Gain::paired(&current, &greedy_payouts, game.seats()),
        list,
        trials,
        decisions: samples.len(),
        teacher_is_greedy: samples.teacher_is_greedy(),
    })
}
