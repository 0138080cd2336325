//! Measures what luck correction does to a head-to-head: fits a value model on greedy self-play
//! (its own seed), then plays agent A against agent B (two of each, seats alternated and
//! rotated) and prints the plain and corrected paired differences with their 95% intervals, and
//! the luck taken out (plain − corrected, mean zero) with its own. The decisions of `random` are
//! corrected as in a run.
//!
//!   cargo run --release --example luck_width -- GAME VARIANT A B FIT_DEALS DEALS SEED
//!
//! The value model is fitted on deals of `SEED ^ 0xF17`, never on the compared deals, played by
//! `greedy` (or the comma-separated specs of `FIT_AGENTS`, rotated); `VALUE_NET=W,W` fits a
//! value network of those hidden widths instead of the linear model; `VALUE_ROLLOUTS=K` values
//! states by K playouts of the first of `FIT_AGENTS` instead (no fit). A research
//! script for `docs/variance.md` (issue: luck-corrected estimates), not yet a `bailab` command.

use bailab::agent::Agent;
use bailab::game::RuleMap;
use bailab::games::kind::GameKind;
use bailab::games::{with_game, GameVisitor};
use bailab::generic_agents::catalogue::{make_agent_with, Setting};
use bailab::sim::deal::{DealLoop, Event, Seating};
use bailab::sim::luck::{fit_value_model, Corrector, NetValue, RolloutValue, ValueFunction};
use bailab::{fit_value_net, ValueTraining};
use rayon::prelude::*;
use std::time::Instant;

struct Measure {
    variant: String,
    a: String,
    b: String,
    fit_deals: u64,
    deals: u64,
    seed: u64,
}

fn agents<G: GameKind>(game: &G, specs: &[&str]) -> Vec<Box<dyn Agent<G::State>>> {
    let setting = Setting {
        variant: Some(game.variant()),
        ..Setting::default()
    };
    specs
        .iter()
        .map(|s| make_agent_with::<G>(s, setting).expect("agent"))
        .collect()
}

fn stats(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let v = x.iter().map(|d| (d - m) * (d - m)).sum::<f64>() / (n - 1.0);
    (m, 1.96 * (v / n).sqrt())
}

impl GameVisitor for Measure {
    type Output = ();
    fn visit<G: GameKind>(self) {
        let game = G::build(&self.variant, 4, &RuleMap::new()).expect("game");
        let t = Instant::now();
        let fit_specs = std::env::var("FIT_AGENTS").unwrap_or("greedy".into());
        let fit_specs: Vec<&str> = fit_specs.split(',').collect();
        let mut fit_agents = agents(&game, &fit_specs);
        let net = std::env::var("VALUE_NET").ok().map(|hidden| {
            let training = ValueTraining {
                seed: self.seed ^ 0xF17,
                deals: self.fit_deals,
                hidden: hidden.split(',').map(|w| w.parse().unwrap()).collect(),
                lr: 1e-3,
                sample_rate: 1.0,
                batch_deals: 50,
                minibatch: 256,
            };
            let (net, fit) = fit_value_net(&game, &mut fit_agents, &training, |d, r| {
                eprint!("\rvalue net: {d} deals, loss/variance {r:.3}   ")
            })
            .expect("fit");
            println!(
                "\nvalue net {hidden}: {} samples, last batch loss/variance {:.3}, {:.1} s",
                fit.samples,
                fit.last_loss / fit.last_variance,
                t.elapsed().as_secs_f64()
            );
            net
        });
        let fit_deals = if net.is_some() { 1 } else { self.fit_deals };
        let (model, fit) = fit_value_model(
            &game,
            &mut fit_agents,
            self.seed ^ 0xF17,
            fit_deals,
            "self-play",
        );
        if net.is_none() {
            let weights: Vec<String> = (model.inputs.iter().zip(&model.weights))
                .map(|(n, w)| format!("{n}={w:.3}"))
                .collect();
            println!(
                "linear value model: {} games, {} samples, R² {:.3}, {:.1} s; {}",
                fit.games,
                fit.samples,
                fit.r2,
                t.elapsed().as_secs_f64(),
                weights.join(" ")
            );
        }
        let t = Instant::now();
        let rows: Vec<(f64, f64, u32, [f64; 3])> = (0..self.deals)
            .into_par_iter()
            .map_init(
                || {
                    let rollouts = std::env::var("VALUE_ROLLOUTS").ok();
                    let value: Box<dyn ValueFunction<G>> = match (&net, rollouts) {
                        (_, Some(k)) => Box::new(RolloutValue::new(
                            agents(&game, &fit_specs[..1]).remove(0),
                            k.parse().unwrap(),
                            self.seed ^ 0xF17,
                        )),
                        (Some(net), None) => Box::new(NetValue::new(&game, net)),
                        (None, None) => Box::new(&model),
                    };
                    // `random`'s decisions are corrected as in a run (its policy is uniform).
                    let mut uniform = [false; bailab::MAX_SEATS];
                    uniform[0] = self.a == "random";
                    uniform[1] = self.b == "random";
                    let corrector = Corrector::new(value).with_uniform_slots(uniform);
                    (agents(&game, &[&self.a, &self.b]), corrector)
                },
                |(ags, corrector), deal| {
                    let looper = DealLoop::seeded(&game, self.seed, Seating::Rotate(2), 0..2);
                    let (mut plain, mut fixed, mut events) = ([0.0; 2], [0.0; 2], 0);
                    let mut seat0 = [0.0; 3];
                    looper.play(deal, ags, |at, e| match e {
                        Event::Step(step) => {
                            if step.1.is_none() {
                                corrector.seat(&at.seats[..game.seats()]);
                            }
                            corrector.observe(step)
                        }
                        Event::End(_, o) => {
                            for x in 0..game.seats() {
                                let who = at.seats[x];
                                let p = o.payouts()[x] as f64;
                                plain[who] += p;
                                fixed[who] += p - corrector.luck()[x];
                            }
                            events += corrector.events();
                            if at.rotation == 0 {
                                let (p, l) = (o.payouts()[0] as f64, corrector.luck()[0]);
                                seat0 = [p, l, p - l];
                            }
                        }
                    });
                    (plain[0] - plain[1], fixed[0] - fixed[1], events, seat0)
                },
            )
            .collect();
        let per = game.seats() as f64; // seat-games per agent per deal (2 rotations × seats/2)
        let plain: Vec<f64> = rows.iter().map(|r| r.0 / per).collect();
        let fixed: Vec<f64> = rows.iter().map(|r| r.1 / per).collect();
        let events: u32 = rows.iter().map(|r| r.2).sum();
        let (pm, pw) = stats(&plain);
        let (cm, cw) = stats(&fixed);
        println!(
            "{} {}: {} vs {}, {} deals of seed {} ({:.1} s, {:.1} corrected draws per game)",
            G::INFO.name,
            self.variant,
            self.a,
            self.b,
            self.deals,
            self.seed,
            t.elapsed().as_secs_f64(),
            events as f64 / (2 * self.deals) as f64
        );
        println!("plain     {pm:+.3} [{:+.3}, {:+.3}]", pm - pw, pm + pw);
        println!("corrected {cm:+.3} [{:+.3}, {:+.3}]", cm - cw, cm + cw);
        println!("width ratio {:.2}", pw / cw);
        // Diagnosis only (fitted on these deals): the best multiple of the luck to subtract.
        let luck: Vec<f64> = plain.iter().zip(&fixed).map(|(p, f)| p - f).collect();
        let (lm, lw) = stats(&luck);
        println!(
            "luck (plain − corrected) {lm:+.3} [{:+.3}, {:+.3}]",
            lm - lw,
            lm + lw
        );
        let cov = plain
            .iter()
            .zip(&luck)
            .map(|(p, l)| (p - pm) * (l - lm))
            .sum::<f64>();
        let beta = cov / luck.iter().map(|l| (l - lm).powi(2)).sum::<f64>();
        let best: Vec<f64> = plain.iter().zip(&luck).map(|(p, l)| p - beta * l).collect();
        println!(
            "best multiple {beta:.2}: width ratio {:.2}",
            pw / stats(&best).1
        );
        // Per seat-game: the payouts' variance, the luck's and the corrected payouts'.
        let seat = |i: usize| rows.iter().map(move |r| r.3[i]);
        let var = |x: Vec<f64>| stats(&x).1.powi(2) * x.len() as f64 / 3.8416;
        println!(
            "per seat-game variance: payout {:.1}, luck {:.1}, corrected {:.1}",
            var(seat(0).collect()),
            var(seat(1).collect()),
            var(seat(2).collect())
        );
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let m = Measure {
        variant: a[1].clone(),
        a: a[2].clone(),
        b: a[3].clone(),
        fit_deals: a[4].parse().unwrap(),
        deals: a[5].parse().unwrap(),
        seed: a[6].parse().unwrap(),
    };
    with_game(&a[0], m).expect("game");
}
