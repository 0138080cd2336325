//! A tournament's standings: the paired payout differences of its tables pooled per pair of
//! agents, and the ratings fitted from them.

use crate::sim::stats::interval::mean_interval;
use crate::sim::stats::ratings::{fit, PairResult, Rating};
use crate::sim::stats::tally::{PairTally, Tally, LUCK_UNIT};
use crate::sim::tournament::spec::Tournament;

/// The deals a table's tally holds (every pair of a table plays every deal).
pub(crate) fn table_deals(tally: &Tally) -> u64 {
    tally.pairs.first().map_or(0, |p| p.deals)
}

/// Table tallies that cannot be pooled into one tournament's standings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum StandingsError {
    /// A table seated an agent the tournament does not list.
    #[error("agent '{0}' is not in the tournament")]
    NotInTournament(String),
    /// Two tables weigh one pair's seats differently.
    #[error("tables weigh a pair's seats differently")]
    Scales,
}

/// The pooled paired results of one pair of agents over the tables where both sat.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct PairStat {
    /// Deals played.
    pub deals: u64,
    /// Games played.
    pub games: u64,
    /// `Σ D` of agent `a` minus `b` (see [`crate::sim::stats::tally::PairTally`]).
    pub sum: i128,
    /// `Σ D²`.
    pub(crate) sum_sq: i128,
    /// `c_a · c_b`, the same in every table of a tournament.
    pub(crate) scale: i64,
}

impl PairStat {
    /// `(mean, lo, hi, sd)` of the per-deal difference, per game.
    pub(crate) fn interval(&self) -> (f64, f64, f64, f64) {
        mean_interval(self.sum, self.sum_sq, self.deals, self.scale.max(1) as f64)
    }
}

/// The results of a tournament: the pooled pair statistics (`pairs[i][j]`, `i < j`, agent `i`
/// minus `j`) and the ratings fitted from them.
#[derive(Clone, Debug)]
pub(crate) struct Standings {
    /// Pair statistics, indexed `[i][j]` for `i < j`.
    pub pairs: Vec<Vec<PairStat>>,
    /// The luck-corrected pair statistics, as `pairs`, in units of [`LUCK_UNIT`] (`None`: a
    /// plain tournament).
    pub corrected: Option<Vec<Vec<PairStat>>>,
    /// One rating per agent.
    pub ratings: Vec<Rating>,
    /// One rating per agent fitted to the luck-corrected pairs (`None`: a plain tournament).
    pub corrected_ratings: Option<Vec<Rating>>,
    /// Deals played per agent (over its tables).
    pub deals: Vec<u64>,
    /// Games played per agent (over its tables).
    pub games: Vec<u64>,
}

impl Tournament {
    /// Pools the tallies of the tables played so far (`None`: not started) into standings.
    pub(crate) fn standings(&self, tallies: &[Option<Tally>]) -> Result<Standings, StandingsError> {
        let k = self.agents.len();
        let mut pairs = vec![vec![PairStat::default(); k]; k];
        let mut corrected: Option<Vec<Vec<PairStat>>> = None;
        let (mut deals, mut games) = (vec![0u64; k], vec![0u64; k]);
        for tally in tallies.iter().flatten() {
            let idx = |spec: &String| self.agents.iter().position(|a| a == spec);
            let table_deals = table_deals(tally);
            for spec in &tally.agents {
                let i = idx(spec).ok_or_else(|| StandingsError::NotInTournament(spec.clone()))?;
                deals[i] += table_deals;
                games[i] += tally.games;
            }
            pool(&mut pairs, tally, &tally.pairs, idx)?;
            if !tally.corrected.is_empty() {
                let corrected =
                    corrected.get_or_insert_with(|| vec![vec![PairStat::default(); k]; k]);
                pool(corrected, tally, &tally.corrected, idx)?;
            }
        }
        let ratings = fit(k, self.anchor_index(), &pair_results(&pairs, 1));
        let corrected_ratings =
            (corrected.as_ref()).map(|c| fit(k, self.anchor_index(), &pair_results(c, LUCK_UNIT)));
        Ok(Standings {
            pairs,
            corrected,
            ratings,
            corrected_ratings,
            deals,
            games,
        })
    }
}

/// The pooled pairs (`[i][j]`, `i < j`, sums in units of `1/unit`) as the rating fit's inputs.
fn pair_results(pairs: &[Vec<PairStat>], unit: i64) -> Vec<PairResult> {
    let k = pairs.len();
    (0..k)
        .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
        .map(|(i, j)| {
            let p = &pairs[i][j];
            let scale = p.scale.max(1) as f64 * unit as f64;
            let (mean, _, _, sd) = mean_interval(p.sum, p.sum_sq, p.deals, scale);
            PairResult {
                a: i,
                b: j,
                mean,
                variance: sd * sd / p.deals as f64,
            }
        })
        .collect()
}

/// Adds a table's pair tallies `table_pairs` (of `tally`'s agents; `idx` finds an agent among
/// the tournament's) into the pooled `pairs`.
fn pool(
    pairs: &mut [Vec<PairStat>],
    tally: &Tally,
    table_pairs: &[PairTally],
    idx: impl Fn(&String) -> Option<usize>,
) -> Result<(), StandingsError> {
    for p in table_pairs {
        let (a, b) = (idx(&tally.agents[p.a]), idx(&tally.agents[p.b]));
        let (Some(a), Some(b)) = (a, b) else { continue };
        let (i, j, sign) = if a < b { (a, b, 1) } else { (b, a, -1) };
        let s = &mut pairs[i][j];
        if s.deals > 0 && p.deals > 0 && s.scale != p.scale {
            return Err(StandingsError::Scales);
        }
        s.deals += p.deals;
        s.games += tally.games;
        s.sum += sign * p.diff_sum;
        s.sum_sq += p.diff_sq;
        s.scale = s.scale.max(p.scale);
    }
    Ok(())
}

impl Standings {
    /// The luck-corrected result of agent `i` minus agent `j`, as [`Standings::versus`]'s
    /// `(mean, lo, hi)` (`None`: a plain tournament).
    pub(crate) fn corrected_versus(&self, i: usize, j: usize) -> Option<(f64, f64, f64)> {
        let s = &self.corrected.as_ref()?[i.min(j)][i.max(j)];
        let (m, lo, hi, _) = mean_interval(
            s.sum,
            s.sum_sq,
            s.deals,
            s.scale.max(1) as f64 * LUCK_UNIT as f64,
        );
        Some(if i < j {
            (m, lo, hi)
        } else {
            (-m + 0.0, -hi + 0.0, -lo + 0.0)
        })
    }

    /// The result of agent `i` minus agent `j` (`i != j`): `(mean, lo, hi)`, and the pair's stats.
    pub(crate) fn versus(&self, i: usize, j: usize) -> ((f64, f64, f64), &PairStat) {
        let s = &self.pairs[i.min(j)][i.max(j)];
        let (m, lo, hi, _) = s.interval();
        if i < j {
            ((m, lo, hi), s)
        } else {
            // `+ 0.0` turns a negated zero into zero (no "-0.000000" in the files)
            ((-m + 0.0, -hi + 0.0, -lo + 0.0), s)
        }
    }

    /// The agents in rank order: highest rating first, unrated last, ties in listed order.
    pub(crate) fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.ratings.len()).collect();
        let key = |i: usize| {
            let r = self.ratings[i].rating;
            if r.is_nan() {
                f64::NEG_INFINITY
            } else {
                r
            }
        };
        order.sort_by(|&a, &b| key(b).total_cmp(&key(a)));
        order
    }
}
