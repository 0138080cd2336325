//! Scoring a rule list by play: its payout in one seat against greedy in the others, on the
//! same deals for every list (common random numbers), every deal in all rotations.

use crate::agent::Agent;
use crate::games::kind::GameKind;
use crate::generic_agents::rules::list::RuleList;
use crate::generic_agents::rules::{greedy, RulesAgent};
use crate::sim::deal::{DealLoop, Seating};
use crate::sim::stats::interval::mean_interval;
use rayon::prelude::*;
use std::sync::Arc;

/// Self-play deal `d` is deal `SELFPLAY_DEALS_FROM + d` of the seed, clear of the teacher's.
pub(crate) const SELFPLAY_DEALS_FROM: u64 = 1 << 40;

/// The rule list's summed payout over the rotations of each of the training deals `deals`
/// (the list in seat `r` of rotation `r`, greedy elsewhere), in deal order. `tick` is called
/// once per deal.
pub(crate) fn payouts<G: GameKind>(
    game: &G,
    list: &Arc<RuleList>,
    seed: u64,
    deals: std::ops::Range<u64>,
    tick: &(dyn Fn() + Sync),
) -> Vec<i64> {
    let n = game.seats();
    deals
        .into_par_iter()
        .map_init(
            || -> Vec<Box<dyn Agent<G::State>>> {
                vec![
                    Box::new(RulesAgent::<G>::new(Arc::clone(list))),
                    greedy::<G>(),
                ]
            },
            |agents, d| {
                let looper = DealLoop::seeded(game, seed, Seating::Spotlight(2), 0..n);
                let mut total = 0i64;
                looper.outcomes(SELFPLAY_DEALS_FROM + d, agents, |at, o| {
                    total += o.payouts[at.rotation]
                });
                tick();
                total
            },
        )
        .collect()
}

/// A paired difference per game with its 95% interval: `(mean, lo, hi)`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Gain {
    /// Mean difference per game.
    pub mean: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end of the 95% interval.
    pub hi: f64,
}

impl Gain {
    /// The paired difference `a − b` per game, from per-deal sums over `rotations` games.
    pub(crate) fn paired(a: &[i64], b: &[i64], rotations: usize) -> Gain {
        let (mut sum, mut sq) = (0i128, 0i128);
        for (x, y) in a.iter().zip(b) {
            let d = i128::from(x - y);
            sum += d;
            sq += d * d;
        }
        let (mean, lo, hi, _) = mean_interval(sum, sq, a.len() as u64, rotations as f64);
        Gain { mean, lo, hi }
    }

    /// The mean over its standard error (read from the 95% half-width, with 1.96 for the t
    /// quantile: these samples are thousands of deals).
    pub(crate) fn t(&self) -> f64 {
        let se = (self.hi - self.lo) / (2.0 * 1.96);
        if se > 0.0 {
            self.mean / se
        } else if self.mean > 0.0 {
            f64::INFINITY
        } else {
            0.0
        }
    }
}

impl std::fmt::Display for Gain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:+.3} [{:+.3}, {:+.3}]", self.mean, self.lo, self.hi)
    }
}
