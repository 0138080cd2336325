//! Scoring candidate rules against teacher decisions: which rule, appended to the list, makes
//! the list choose as the teacher chose at the most decisions.

use super::samples::Samples;
use crate::agent::features::FeatureRow;
use crate::generic_agents::rules::list::{final_choice, narrow, Cond, Op, Rule, Test};
use rayon::prelude::*;
use std::collections::BTreeMap;

/// The most threshold values tried per feature.
const MAX_CUTS: usize = 6;
/// Tests that seed two-test conditions: the best single tests by matches, and by fixes.
const PAIR_SEEDS: usize = 12;

/// The list's state on the teacher decisions: each decision's remaining candidates.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The row index of `greedy_rank`, which breaks the ties the rules leave.
    rank: usize,
    cands: Vec<Vec<u16>>,
    agree: usize,
    value: f64,
}

impl Fit {
    /// The empty list (every legal action a candidate: the choice is greedy's).
    pub fn new(samples: &Samples, rank: usize) -> Fit {
        let cands: Vec<Vec<u16>> = (0..samples.len())
            .map(|i| (0..samples.rows_of(i).len() as u16).collect())
            .collect();
        let agree = samples.teacher_is_greedy();
        Fit {
            rank,
            cands,
            agree,
            value: 0.0,
        }
    }

    /// The teacher's estimate of the list's payout gain over greedy, summed over the decisions
    /// (0 without estimates).
    pub fn value(&self) -> f64 {
        self.value
    }

    /// Decisions at which the list chooses as the teacher did.
    pub(crate) fn agree(&self) -> usize {
        self.agree
    }

    /// Appends `rule` to the list.
    pub fn push(&mut self, samples: &Samples, rule: &Rule) {
        self.cands
            .par_iter_mut()
            .enumerate()
            .for_each(|(i, c)| narrow(rule, samples.rows_of(i), c));
        let picks: Vec<usize> = (0..samples.len())
            .map(|i| final_choice(&self.cands[i], samples.rows_of(i), self.rank))
            .collect();
        self.agree = (0..samples.len())
            .filter(|&i| picks[i] == samples.teacher[i] as usize)
            .count();
        self.value = (0..samples.len())
            .map(|i| f64::from(samples.values_of(i)[picks[i]]))
            .sum();
    }

    /// What appending `rule` would do: decisions matching the teacher with it, of them the
    /// decisions the list does not match now, and the teacher's estimate of the list's payout
    /// gain over greedy summed over the decisions.
    pub(crate) fn agree_with(&self, samples: &Samples, rule: &Rule) -> (usize, usize, f64) {
        let (mut agree, mut fixes, mut value) = (0, 0, 0.0);
        for i in 0..samples.len() {
            let c = &self.cands[i];
            let rows = samples.rows_of(i);
            let teacher = samples.teacher[i] as usize;
            let now = final_choice(c, rows, self.rank);
            let pick = if c.len() <= 1 {
                now
            } else {
                predict(rule, rows, c, self.rank)
            };
            agree += usize::from(pick == teacher);
            fixes += usize::from(pick == teacher && now != teacher);
            value += f64::from(samples.values_of(i)[pick]);
        }
        (agree, fixes, value)
    }
}

/// The choice after narrowing `cands` by `rule`, without changing them.
fn predict(rule: &Rule, rows: &[FeatureRow], cands: &[u16], rank: usize) -> usize {
    let row = |i: u16| &rows[i as usize];
    let pick = |keep: &dyn Fn(u16) -> bool| -> usize {
        let mut best: Option<u16> = None;
        for &i in cands {
            if keep(i) && best.is_none_or(|b| row(i)[rank] < row(b)[rank]) {
                best = Some(i);
            }
        }
        best.map_or_else(|| final_choice(cands, rows, rank), usize::from)
    };
    match rule {
        Rule::Prefer(c) => pick(&|i| c.holds(row(i))),
        Rule::Avoid(c) => pick(&|i| !c.holds(row(i))),
        Rule::Lowest(f) => {
            let m = cands.iter().map(|&i| row(i)[*f as usize]).min();
            pick(&|i| Some(row(i)[*f as usize]) == m)
        }
        Rule::Highest(f) => {
            let m = cands.iter().map(|&i| row(i)[*f as usize]).max();
            pick(&|i| Some(row(i)[*f as usize]) == m)
        }
    }
}

/// The single tests worth trying, from the values each feature takes in the samples: a flag
/// gives `f` and `not f`; a feature with a few values gives `f == v` and `f != v`; others
/// give `f <= v` and `f > v` at up to `MAX_CUTS` quantiles.
pub fn tests(samples: &Samples, features: usize) -> Vec<Test> {
    let mut out = Vec::new();
    for f in 0..features {
        let mut counts: BTreeMap<i16, u64> = BTreeMap::new();
        for row in &samples.rows {
            *counts.entry(row[f]).or_default() += 1;
        }
        let values: Vec<i16> = counts.keys().copied().collect();
        let test = |op, value| Test {
            feature: f as u8,
            op,
            value,
        };
        match values.len() {
            0 | 1 => {}
            2 if values == [0, 1] => out.extend([test(Op::Ne, 0), test(Op::Eq, 0)]),
            2..=4 => {
                for &v in &values {
                    out.extend([test(Op::Eq, v), test(Op::Ne, v)]);
                }
            }
            _ => {
                for v in cuts(&counts) {
                    out.extend([test(Op::Le, v), test(Op::Gt, v)]);
                }
            }
        }
    }
    out
}

/// Up to [`MAX_CUTS`] values splitting a distribution at evenly spaced quantiles.
fn cuts(counts: &BTreeMap<i16, u64>) -> Vec<i16> {
    let total: u64 = counts.values().sum();
    let mut out = Vec::new();
    let mut seen = 0;
    let last = *counts.keys().next_back().expect("values");
    for (&v, &n) in counts {
        let before = seen * (MAX_CUTS as u64 + 1) / total;
        seen += n;
        let after = seen * (MAX_CUTS as u64 + 1) / total;
        if after > before && v != last {
            out.push(v);
        }
    }
    out
}

/// A candidate rule with the agreement it reaches.
#[derive(Clone, Debug)]
pub struct Scored {
    /// The rule.
    pub rule: Rule,
    /// Decisions agreeing with the teacher with the rule appended.
    pub(crate) agree: usize,
    /// Of them, decisions the list without the rule does not match.
    pub(crate) fixes: usize,
    /// The teacher's estimate of the list's payout gain over greedy with the rule, summed.
    pub value: f64,
}

fn cond(tests: &[Test]) -> Cond {
    Cond(tests.iter().copied().collect())
}

/// Every candidate rule, scored, best first (ties in generation order): `prefer` a single
/// test; `lowest`/`highest` of a feature with more than two values; `prefer` and `avoid` of
/// two tests on different features, one of them among the best single tests (by matches or by
/// fixes) or on `greedy`.
pub fn ranked(samples: &Samples, fit: &Fit, tests: &[Test], greedy_col: usize) -> Vec<Scored> {
    let score = |rules: Vec<Rule>| -> Vec<Scored> {
        rules
            .into_par_iter()
            .map(|rule| {
                let (agree, fixes, value) = fit.agree_with(samples, &rule);
                Scored {
                    rule,
                    agree,
                    fixes,
                    value,
                }
            })
            .collect()
    };
    let mut singles = score(tests.iter().map(|t| Rule::Prefer(cond(&[*t]))).collect());
    let best = |key: fn(&Scored) -> usize| {
        let mut order: Vec<usize> = (0..singles.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(key(&singles[i])));
        order.into_iter().take(PAIR_SEEDS).map(|i| tests[i])
    };
    let mut seeds: Vec<Test> = best(|s| s.agree)
        .chain(best(|s| s.fixes))
        .chain(best(|s| (s.value * 1000.0).max(0.0) as usize))
        .chain(
            tests
                .iter()
                .copied()
                .filter(|t| t.feature as usize == greedy_col),
        )
        .collect();
    let mut unique_seeds = std::collections::HashSet::new();
    seeds.retain(|t| unique_seeds.insert(*t));
    let mut more = Vec::new();
    let mut features: Vec<u8> = tests.iter().map(|t| t.feature).collect();
    features.dedup();
    for &f in &features {
        let many = tests.iter().filter(|t| t.feature == f).count() > 2;
        if many {
            more.extend([Rule::Lowest(f), Rule::Highest(f)]);
        }
    }
    for s in &seeds {
        for t in tests.iter().filter(|t| t.feature != s.feature) {
            let pair = cond(&[*s.min(t), *s.max(t)]);
            more.push(Rule::Prefer(pair.clone()));
            more.push(Rule::Avoid(pair));
        }
    }
    let mut unique = std::collections::HashSet::new();
    more.retain(|r| unique.insert(r.clone()));
    singles.extend(score(more));
    let mut all: Vec<(usize, Scored)> = singles.into_iter().enumerate().collect();
    all.sort_by_key(|(i, s)| (std::cmp::Reverse(s.agree), *i));
    let mut seen = std::collections::HashSet::new();
    all.into_iter()
        .map(|(_, s)| s)
        .filter(|s| seen.insert(s.rule.clone()))
        .collect()
}
