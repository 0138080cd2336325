//! Training a value network for luck-corrected estimates ([`crate::sim::luck`]): self-play games
//! of given agents on deals of a seed kept for it; at a sampled share of the states after each
//! decision, every seat's value inputs (all seats' view tensors, its own first) with its final
//! payout over the game's payout scale as the target; minibatch Adam on the squared error, each
//! sample once, a batch of games at a time.

use super::learner::{Adam, LearnError, Learner};
use crate::agent::Agent;
use crate::game::{GameState, Outcome};
use crate::games::kind::GameKind;
use crate::generic_agents::net::payout_scale;
use crate::generic_agents::net::qnet::QNet;
use crate::rng::{shuffle, stream_rng};
use crate::sim::deal::{DealLoop, Event, Seating};
use crate::sim::luck::{value_input_len, write_value_inputs};
use rand::Rng;

/// How a value network is fitted.
#[derive(Clone, Debug)]
pub struct ValueTraining {
    /// The deals' master seed (keep it apart from every evaluation's).
    pub seed: u64,
    /// Deals played (each in every rotation of the agents).
    pub deals: u64,
    /// The hidden widths.
    pub hidden: Vec<usize>,
    /// Adam's learning rate.
    pub lr: f64,
    /// The share of the states after a decision that are kept as samples.
    pub sample_rate: f64,
    /// Deals per batch of games (their samples are shuffled together).
    pub batch_deals: u64,
    /// Minibatch rows.
    pub minibatch: usize,
}

/// What a fit saw: samples, and the mean squared error (over the payout scale) of the last
/// batch of games before and after it was learned.
#[derive(Clone, Debug)]
pub struct ValueFit {
    /// Samples (seat-states) learned.
    pub samples: u64,
    /// The last batch's mean squared error before it was learned.
    pub last_loss: f64,
    /// The last batch's variance of targets (the loss of predicting their mean).
    pub last_variance: f64,
}

/// Fits a value network of `game` (see the module documentation); `agents` play seat `s` of
/// rotation `r` as `agents[(s + r) mod len]`.
pub fn fit_value_net<G: GameKind>(
    game: &G,
    agents: &mut [Box<dyn Agent<G::State>>],
    t: &ValueTraining,
    mut progress: impl FnMut(u64, f64),
) -> Result<(QNet, ValueFit), LearnError> {
    let width = value_input_len(game);
    let n = game.seats();
    let scale = payout_scale(game) as f32;
    let mut learner = Learner::new(
        0,
        width,
        &t.hidden,
        t.seed,
        Adam {
            lr: t.lr,
            ..Adam::default()
        },
        1,
    );
    let mut rng = stream_rng(t.seed, 1, 0x7A1);
    let looper = DealLoop::seeded(game, t.seed, Seating::Rotate(agents.len()), 0..agents.len());
    let mut row = vec![0.0f32; n * width];
    let (mut inputs, mut targets): (Vec<f32>, Vec<f32>) = (Vec::new(), Vec::new());
    let mut pending: Vec<f32> = Vec::new();
    let mut fit = ValueFit {
        samples: 0,
        last_loss: 0.0,
        last_variance: 0.0,
    };
    let mut deal = 0;
    while deal < t.deals {
        let end = (deal + t.batch_deals).min(t.deals);
        for d in deal..end {
            looper.play(d, agents, |_, e| match e {
                Event::Step((s, _))
                    if s.outcome().is_none() && rng.random::<f64>() < t.sample_rate =>
                {
                    write_value_inputs(game, s, &mut row);
                    pending.extend_from_slice(&row);
                }
                Event::End(_, o) => {
                    take_targets(&o, n, scale, &mut pending, width, &mut inputs, &mut targets);
                }
                _ => {}
            });
        }
        let (loss, variance) = learn(
            &mut learner,
            &mut inputs,
            &mut targets,
            width,
            t.minibatch,
            &mut rng,
        )?;
        fit.samples += targets.len() as u64;
        (fit.last_loss, fit.last_variance) = (loss, variance);
        inputs.clear();
        targets.clear();
        deal = end;
        progress(deal, loss / variance.max(1e-12));
    }
    Ok((learner.qnet()?, fit))
}

/// Moves a finished game's pending rows (one per seat per kept state) to the samples, with each
/// seat's payout over `scale` as its target.
fn take_targets(
    o: &Outcome,
    n: usize,
    scale: f32,
    pending: &mut Vec<f32>,
    width: usize,
    inputs: &mut Vec<f32>,
    targets: &mut Vec<f32>,
) {
    for (i, r) in pending.chunks_exact(width).enumerate() {
        inputs.extend_from_slice(r);
        targets.push(o.payouts()[i % n] as f32 / scale);
    }
    pending.clear();
}

/// One pass of minibatch Adam over the samples, shuffled; returns their mean squared error
/// before (computed batch by batch as learned) and their variance.
fn learn(
    learner: &mut Learner,
    inputs: &mut [f32],
    targets: &mut [f32],
    width: usize,
    minibatch: usize,
    rng: &mut crate::rng::GameRng,
) -> Result<(f64, f64), LearnError> {
    let rows = targets.len();
    let mut order: Vec<usize> = (0..rows).collect();
    shuffle(&mut order, rng);
    let (mut x, mut y) = (
        Vec::with_capacity(minibatch * width),
        Vec::with_capacity(minibatch),
    );
    let (mut loss, mut seen) = (0.0, 0usize);
    for chunk in order.chunks(minibatch) {
        x.clear();
        y.clear();
        for &i in chunk {
            x.extend_from_slice(&inputs[i * width..(i + 1) * width]);
            y.push(targets[i]);
        }
        loss += f64::from(learner.step(&x, &y)?) * chunk.len() as f64;
        seen += chunk.len();
    }
    let mean = targets.iter().map(|&v| f64::from(v)).sum::<f64>() / rows.max(1) as f64;
    let var = targets
        .iter()
        .map(|&v| (f64::from(v) - mean).powi(2))
        .sum::<f64>()
        / rows.max(1) as f64;
    Ok((loss / seen.max(1) as f64, var))
}
