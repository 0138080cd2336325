//! Fitting a value model: self-play games of given agents on deals of a seed kept for it, the
//! value inputs of every seat at every state after a decision, the seat's final payout as the
//! target; ordinary least squares with a small ridge, solved by Cholesky.

use super::model::{ValueModel, MAX_VALUE_INPUTS};
use crate::agent::Agent;
use crate::game::{GameState, Seat, MAX_SEATS};
use crate::games::kind::GameKind;
use crate::sim::deal::{DealLoop, Event, Seating};

/// What a fit saw: samples and the share of the payouts' variance the model explains.
#[derive(Clone, Debug)]
pub struct FitSummary {
    /// Samples (seat-states) fitted.
    pub samples: u64,
    /// Games played.
    pub games: u64,
    /// 1 − residual variance / payout variance over the samples.
    pub r2: f64,
}

/// Fits a value model of `game` on deals `0..deals` of `seed`, every seat played by `agents`
/// (seat `s` by `agents[s mod len]`, rotated over the seats); `fitted` is recorded in the model.
pub fn fit_value_model<G: GameKind>(
    game: &G,
    agents: &mut [Box<dyn Agent<G::State>>],
    seed: u64,
    deals: u64,
    fitted: &str,
) -> (ValueModel, FitSummary) {
    let names = ValueModel::input_names::<G>();
    let d = names.len();
    let mut xtx = vec![0.0; d * d];
    let mut xty = vec![0.0; d];
    let (mut yy, mut y_sum, mut samples, mut games) = (0.0, 0.0, 0u64, 0u64);
    let mut rows: Vec<([f64; MAX_VALUE_INPUTS], Seat)> = Vec::new();
    let seats = game.seats();
    let looper = DealLoop::seeded(game, seed, Seating::Rotate(agents.len()), 0..agents.len());
    for deal in 0..deals {
        looper.play(deal, agents, |_, e| match e {
            Event::Step((s, _)) if s.outcome().is_none() => {
                let mut v = [[0.0; MAX_VALUE_INPUTS]; MAX_SEATS];
                ValueModel::inputs::<G>(s, &mut v);
                rows.extend((0..seats as Seat).map(|x| (v[usize::from(x)], x)));
            }
            Event::End(_, o) => {
                for (v, x) in rows.drain(..) {
                    let y = o.payouts()[usize::from(x)] as f64;
                    for i in 0..d {
                        xty[i] += v[i] * y;
                        for j in 0..d {
                            xtx[i * d + j] += v[i] * v[j];
                        }
                    }
                    yy += y * y;
                    y_sum += y;
                    samples += 1;
                }
                games += 1;
            }
            _ => {}
        });
    }
    let n = samples.max(1) as f64;
    for i in 0..d {
        xtx[i * d + i] += 1e-6 * n;
    }
    let weights = solve(&xtx, &xty, d);
    let fitted_ss: f64 = (0..d)
        .map(|i| {
            (0..d)
                .map(|j| weights[i] * weights[j] * xtx[i * d + j])
                .sum::<f64>()
        })
        .sum();
    let explained = 2.0 * (0..d).map(|i| weights[i] * xty[i]).sum::<f64>() - fitted_ss;
    let var = yy - y_sum * y_sum / n;
    let residual = yy - explained;
    let r2 = 1.0 - residual / var.max(f64::MIN_POSITIVE);
    let model = ValueModel {
        game: game.name().to_string(),
        variant: game.variant().to_string(),
        players: seats,
        inputs: names,
        weights,
        fitted: fitted.to_string(),
    };
    (model, FitSummary { samples, games, r2 })
}

/// Solves `a·x = b` for a symmetric positive definite `a` (`d × d`, row-major) by Cholesky.
fn solve(a: &[f64], b: &[f64], d: usize) -> Vec<f64> {
    let mut l = vec![0.0; d * d];
    for i in 0..d {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i * d + k] * l[j * d + k]).sum();
            l[i * d + j] = if i == j {
                (a[i * d + i] - s).max(1e-12).sqrt()
            } else {
                (a[i * d + j] - s) / l[j * d + j]
            };
        }
    }
    let mut y = vec![0.0; d];
    for i in 0..d {
        let s: f64 = (0..i).map(|k| l[i * d + k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i * d + i];
    }
    let mut x = vec![0.0; d];
    for i in (0..d).rev() {
        let s: f64 = (i + 1..d).map(|k| l[k * d + i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i * d + i];
    }
    x
}
