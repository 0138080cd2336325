//! Statistics of a study, kept as exact integer sums so that any split of the deals (threads,
//! shards) adds up to the same figures: per-agent win and payout tallies and paired per-deal
//! payout differences (their intervals are `super::interval`'s).

use crate::agent::AgentKey;
use crate::game::{Outcome, MAX_SEATS};
use serde::{Deserialize, Serialize};

/// Exact tallies of one agent over its seat-games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct AgentTally {
    /// Seat-games played.
    pub games: u64,
    /// Seat-games won.
    pub wins: u64,
    /// Seat-games in drawn games.
    pub draws: u64,
    /// Sum of payouts.
    pub(crate) payout_sum: i64,
    /// Sum of squared payouts.
    pub(crate) payout_sq: i128,
    /// Sum of the hand values of its wins.
    pub(crate) win_value_sum: u64,
    /// Penalties paid (§5.3).
    pub(crate) penalties: u64,
}

/// Exact tallies of the per-deal payout difference of agent `a` minus agent `b`. With `c_a`,
/// `c_b` seat-games per deal, the deal's difference of means is `D / (c_a·c_b)` where
/// `D = sum_a·c_b − sum_b·c_a`, an integer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairTally {
    /// Index of agent `a`.
    pub a: usize,
    /// Index of agent `b`.
    pub b: usize,
    /// Deals in which both played.
    pub deals: u64,
    /// `Σ D`.
    pub(crate) diff_sum: i128,
    /// `Σ D²`.
    pub(crate) diff_sq: i128,
    /// `c_a · c_b`.
    pub(crate) scale: i64,
}

/// Exact tallies of one agent over its seat-matches (experiments whose deals are matches of
/// several games): the sum over a match's games of the agent's payouts at one seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchTally {
    /// Seat-matches played.
    pub matches: u64,
    /// Seat-matches whose total payout was the match's highest, alone.
    pub wins: u64,
    /// Sum of match totals.
    pub(crate) payout_sum: i64,
    /// Sum of squared match totals.
    pub(crate) payout_sq: i128,
}

/// The tallies of a study: one entry per distinct agent spec and per pair of them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// The distinct agents, in order of first appearance among the seats, each as its first
    /// written spec (two spellings of one agent, `ismcts` and `ismcts:depth=1`, are one agent
    /// written as the first seat writes it).
    pub agents: Vec<String>,
    /// Per-agent tallies, parallel to `agents`.
    pub(crate) per_agent: Vec<AgentTally>,
    /// One entry per pair `a < b`.
    pub pairs: Vec<PairTally>,
    /// Games played.
    pub games: u64,
    /// Per-agent match tallies, parallel to `agents` (empty unless deals are matches).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<MatchTally>,
    /// The luck-corrected paired differences (`docs/variance.md`), parallel to `pairs`, in
    /// units of [`LUCK_UNIT`] (empty unless the study corrects for luck).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corrected: Vec<PairTally>,
}

/// The fixed-point unit of luck-corrected sums: a payout of 1 is `LUCK_UNIT` of them, and a
/// seat's luck is rounded to the nearest unit, so that the sums are exact integers that any
/// split of the deals adds up to the same.
pub const LUCK_UNIT: i64 = 1_000_000;

/// Two tallies that cannot be added as shards of one study.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TallyMergeError {
    /// Different agents (those of each, in order).
    #[error("agents differ: {0:?} vs {1:?}")]
    Agents(Vec<String>, Vec<String>),
    /// A pair whose seats the two weigh differently.
    #[error("pair scales differ between shards")]
    Scales,
    /// Entries per agent, per pair or per match that are not one per agent (or pair) in both.
    #[error("entries per agent or pair do not match between shards")]
    Entries,
    /// A sum beyond what its integer holds.
    #[error("a sum overflows")]
    Overflow,
}

impl Tally {
    /// An empty tally for these seat specs: specs of the same `key` are one agent, written as
    /// the first of them (see [`Tally::agents`]).
    pub fn new(seat_specs: &[String], key: impl Fn(&str) -> AgentKey) -> Tally {
        let mut agents: Vec<String> = Vec::new();
        let mut keys: Vec<AgentKey> = Vec::new();
        for s in seat_specs {
            let k = key(s);
            if !keys.contains(&k) {
                keys.push(k);
                agents.push(s.clone());
            }
        }
        let n = agents.len();
        let pairs = (0..n)
            .flat_map(|a| {
                (a + 1..n).map(move |b| PairTally {
                    a,
                    b,
                    ..PairTally::default()
                })
            })
            .collect();
        Tally {
            per_agent: vec![AgentTally::default(); n],
            agents,
            pairs,
            games: 0,
            matches: Vec::new(),
            corrected: Vec::new(),
        }
    }

    /// Adds the matches of one deal: `outcomes` holds consecutive matches of `k` games;
    /// `seat_agent(g, s)` is the agent index at seat `s` in game `g`.
    pub(crate) fn add_matches(
        &mut self,
        outcomes: &[Outcome],
        k: usize,
        seat_agent: impl Fn(usize, usize) -> usize,
    ) {
        if self.matches.is_empty() {
            self.matches = vec![MatchTally::default(); self.agents.len()];
        }
        for (m, games) in outcomes.chunks(k).enumerate() {
            let mut total = [0i64; MAX_SEATS];
            for o in games {
                for (t, p) in total.iter_mut().zip(o.payouts()) {
                    *t += p;
                }
            }
            let seats = games[0].seats as usize;
            let best = total[..seats].iter().copied().max().unwrap_or(0);
            let alone = total[..seats].iter().filter(|&&t| t == best).count() == 1;
            for (s, &t) in total[..seats].iter().enumerate() {
                let a = &mut self.matches[seat_agent(m * k, s)];
                a.matches += 1;
                a.wins += u64::from(alone && t == best);
                a.payout_sum += t;
                a.payout_sq += i128::from(t) * i128::from(t);
            }
        }
    }

    /// Adds the games of one deal. `seat_agent(g, s)` is the agent index at seat `s` in game `g`.
    pub(crate) fn add_deal(
        &mut self,
        outcomes: &[Outcome],
        seat_agent: impl Fn(usize, usize) -> usize,
    ) {
        let mut sum = [0i64; MAX_SEATS];
        let mut count = [0i64; MAX_SEATS];
        for (g, o) in outcomes.iter().enumerate() {
            self.games += 1;
            for (s, &p) in o.payouts().iter().enumerate() {
                let a = seat_agent(g, s);
                let t = &mut self.per_agent[a];
                t.games += 1;
                t.payout_sum += p;
                t.payout_sq += i128::from(p) * i128::from(p);
                t.draws += u64::from(o.winner.is_none());
                if o.winner == Some(s as u8) {
                    t.wins += 1;
                    t.win_value_sum += u64::from(o.hand_value);
                }
                t.penalties += u64::from(o.penalized == Some(s as u8));
                sum[a] += p;
                count[a] += 1;
            }
        }
        for p in &mut self.pairs {
            let d = i128::from(sum[p.a]) * i128::from(count[p.b])
                - i128::from(sum[p.b]) * i128::from(count[p.a]);
            p.deals += 1;
            p.diff_sum += d;
            p.diff_sq += d * d;
            p.scale = count[p.a] * count[p.b];
        }
    }

    /// Adds the luck-corrected differences of one deal (after [`Tally::add_deal`] of its
    /// outcomes): `luck[g][s]` is the luck of seat `s` in game `g` in units of [`LUCK_UNIT`],
    /// subtracted from its payout.
    pub(crate) fn add_corrected(
        &mut self,
        outcomes: &[Outcome],
        luck: &[[i64; MAX_SEATS]],
        seat_agent: impl Fn(usize, usize) -> usize,
    ) {
        if self.corrected.is_empty() {
            self.corrected = (self.pairs.iter())
                .map(|p| PairTally {
                    a: p.a,
                    b: p.b,
                    ..PairTally::default()
                })
                .collect();
        }
        let mut sum = [0i128; MAX_SEATS];
        let mut count = [0i64; MAX_SEATS];
        for (g, (o, luck)) in outcomes.iter().zip(luck).enumerate() {
            for (s, (&p, &l)) in o.payouts().iter().zip(luck).enumerate() {
                let a = seat_agent(g, s);
                sum[a] += i128::from(p) * i128::from(LUCK_UNIT) - i128::from(l);
                count[a] += 1;
            }
        }
        for p in &mut self.corrected {
            let d = sum[p.a] * i128::from(count[p.b]) - sum[p.b] * i128::from(count[p.a]);
            p.deals += 1;
            p.diff_sum += d;
            p.diff_sq += d * d;
            p.scale = count[p.a] * count[p.b];
        }
    }

    /// Adds another tally of the same agents (a shard): refused if their entries do not match
    /// or a sum would overflow, leaving `self` as it was.
    pub fn merge(&mut self, other: &Tally) -> Result<(), TallyMergeError> {
        if self.agents != other.agents {
            return Err(TallyMergeError::Agents(
                self.agents.clone(),
                other.agents.clone(),
            ));
        }
        let n = self.agents.len();
        let fits = |matches: &[MatchTally]| matches.is_empty() || matches.len() == n;
        if [&self.per_agent, &other.per_agent]
            .iter()
            .any(|p| p.len() != n)
            || self.pairs.len() != other.pairs.len()
            || !fits(&self.matches)
            || !fits(&other.matches)
            || !(self.corrected.is_empty()
                || other.corrected.is_empty()
                || self.corrected.len() == other.corrected.len())
        {
            return Err(TallyMergeError::Entries);
        }
        let mut sum = self.clone();
        sum.add(other).ok_or(TallyMergeError::Overflow)??;
        *self = sum;
        Ok(())
    }

    /// Adds `other` (of the same entries) with checked sums: `None` on overflow.
    fn add(&mut self, other: &Tally) -> Option<Result<(), TallyMergeError>> {
        self.games = self.games.checked_add(other.games)?;
        for (t, o) in self.per_agent.iter_mut().zip(&other.per_agent) {
            t.games = t.games.checked_add(o.games)?;
            t.wins = t.wins.checked_add(o.wins)?;
            t.draws = t.draws.checked_add(o.draws)?;
            t.payout_sum = t.payout_sum.checked_add(o.payout_sum)?;
            t.payout_sq = t.payout_sq.checked_add(o.payout_sq)?;
            t.win_value_sum = t.win_value_sum.checked_add(o.win_value_sum)?;
            t.penalties = t.penalties.checked_add(o.penalties)?;
        }
        if self.matches.is_empty() {
            self.matches = other.matches.clone();
        } else if !other.matches.is_empty() {
            for (t, o) in self.matches.iter_mut().zip(&other.matches) {
                t.matches = t.matches.checked_add(o.matches)?;
                t.wins = t.wins.checked_add(o.wins)?;
                t.payout_sum = t.payout_sum.checked_add(o.payout_sum)?;
                t.payout_sq = t.payout_sq.checked_add(o.payout_sq)?;
            }
        }
        if self.corrected.is_empty() {
            self.corrected = other.corrected.clone();
        } else {
            if let Err(e) = add_pairs(&mut self.corrected, &other.corrected)? {
                return Some(Err(e));
            }
        }
        add_pairs(&mut self.pairs, &other.pairs)
    }
}

/// Adds the pair tallies `other` to `pairs` (the same pairs) with checked sums: `None` on
/// overflow.
fn add_pairs(pairs: &mut [PairTally], other: &[PairTally]) -> Option<Result<(), TallyMergeError>> {
    for (p, o) in pairs.iter_mut().zip(other) {
        if p.scale != 0 && o.scale != 0 && p.scale != o.scale {
            return Some(Err(TallyMergeError::Scales));
        }
        p.deals = p.deals.checked_add(o.deals)?;
        p.diff_sum = p.diff_sum.checked_add(o.diff_sum)?;
        p.diff_sq = p.diff_sq.checked_add(o.diff_sq)?;
        p.scale = p.scale.max(o.scale);
    }
    Some(Ok(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_splits_add_up() {
        let specs = ["a", "b", "b"].map(String::from);
        let o = |p: [i64; 3]| {
            let mut payouts = [0; MAX_SEATS];
            payouts[..3].copy_from_slice(&p);
            Outcome {
                seats: 3,
                winner: Some(0),
                reason: "win",
                payouts,
                hand_value: 5,
                turns: 1,
                penalized: None,
                places: [0; MAX_SEATS],
            }
        };
        let deals = [[o([10, -5, -5])], [o([-4, 8, -4])], [o([2, -1, -1])]];
        let ident = |_: usize, s: usize| [0, 1, 1][s];
        let mut whole = Tally::new(&specs, AgentKey::written);
        deals.iter().for_each(|d| whole.add_deal(d, ident));
        let mut left = Tally::new(&specs, AgentKey::written);
        let mut right = Tally::new(&specs, AgentKey::written);
        left.add_deal(&deals[0], ident);
        deals[1..].iter().for_each(|d| right.add_deal(d, ident));
        left.merge(&right).unwrap();
        assert_eq!(left, whole);
        assert_eq!(whole.per_agent[1].games, 6);
        // deal 1: a = 10, b mean = -5: D = 10·2 − (−10)·1 = 30 over scale 2 → 15
        assert_eq!(whole.pairs[0].scale, 2);
        assert_eq!(whole.pairs[0].diff_sum, 30 - 12 + 6);
    }
}
