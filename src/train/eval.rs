//! The evaluation of a network during training: the network in one seat against the game's
//! `greedy` in the others, every deal in every rotation, paired with `greedy` in that seat on the
//! same deals and streams (common random numbers). Evaluation deal `i` is deal
//! `EVAL_DEALS_FROM + i` of the training seed: fixed for the whole training and apart from every
//! training deal.

use crate::agent::Agent;
use crate::games::kind::GameKind;
use crate::generic_agents::net::qnet::QNet;
use crate::generic_agents::net::{NetAgent, NetPolicy, Sampling};
use crate::generic_agents::rules::greedy;
use crate::learn::selfplay::Gain;
use crate::sim::deal::{DealLoop, Seating};
use rayon::prelude::*;
use std::sync::Arc;

/// Evaluation deal `i` is deal `EVAL_DEALS_FROM + i` of the seed.
pub(crate) const EVAL_DEALS_FROM: u64 = 1 << 43;

/// The summed payout of the spotlight seat over the rotations of each evaluation deal, in deal
/// order, with `spotlight` in that seat and greedy elsewhere.
fn spotlight_payouts<G: GameKind>(
    make_game: &(dyn Fn() -> G + Sync),
    spotlight: &(dyn Fn(G) -> Box<dyn Agent<G::State>> + Sync),
    seed: u64,
    deals: u64,
) -> Vec<i64> {
    (0..deals)
        .into_par_iter()
        .map_init(
            || (make_game(), vec![spotlight(make_game()), greedy::<G>()]),
            |(game, agents), d| {
                let n = game.seats();
                let looper = DealLoop::seeded(&*game, seed, Seating::Spotlight(2), 0..n);
                let mut total = 0i64;
                looper.outcomes(EVAL_DEALS_FROM + d, agents, |at, o| {
                    total += o.payouts[at.rotation]
                });
                total
            },
        )
        .collect()
}

/// Greedy's per-deal sums in the spotlight seat: the baseline every evaluation is paired with.
pub(crate) fn greedy_baseline<G: GameKind>(
    make_game: &(dyn Fn() -> G + Sync),
    seed: u64,
    deals: u64,
) -> Vec<i64> {
    spotlight_payouts(make_game, &|_| greedy::<G>(), seed, deals)
}

/// The network's paired gain per game over greedy on the evaluation deals of `baseline`.
pub(crate) fn evaluate<G: GameKind>(
    make_game: &(dyn Fn() -> G + Sync),
    net: &Arc<QNet>,
    seed: u64,
    baseline: &[i64],
) -> Gain {
    let play = |game: G| -> Box<dyn Agent<G::State>> {
        Box::new(NetAgent::new(NetPolicy::new(
            game,
            Arc::clone(net),
            Sampling::default(),
        )))
    };
    let net_sums = spotlight_payouts(make_game, &play, seed, baseline.len() as u64);
    let rotations = make_game().seats();
    Gain::paired(&net_sums, baseline, rotations)
}
