//! `bailab bench`: speed figures measured on this machine (never asserted in tests).

use crate::agents::Policy;
use crate::game::{Game, GameState};
use crate::games::tusac::analyze::analyze_hand;
use crate::games::tusac::{trash, Hand, TuSac};
use crate::rng::{stream_rng, DEAL_STREAM};
use std::hint::black_box;
use std::time::Instant;

/// Arguments of `bailab bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Random games to play for the games/s figure.
    #[arg(long, default_value_t = 200_000)]
    pub games: u64,
    /// Hands to analyse for the hands/s figures.
    #[arg(long, default_value_t = 200_000)]
    pub hands: u64,
}

/// 20-card private blocks from seeded deals (Quans removed by the deal).
fn sample_hands(count: u64) -> Vec<Hand> {
    let game = TuSac::classic(4).expect("classic");
    (0..count.div_ceil(4))
        .flat_map(|i| {
            let s = game.deal(&mut stream_rng(0xBE7C, i, DEAL_STREAM));
            (1..4).map(move |seat| s.private(seat))
        })
        .take(count as usize)
        .collect()
}

fn rate(count: u64, start: Instant) -> f64 {
    count as f64 / start.elapsed().as_secs_f64()
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!(
        "machine: {cores} cores ({}), single thread, release build expected",
        std::env::consts::ARCH
    );
    let hands = sample_hands(args.hands);
    let start = Instant::now();
    let mut sum = 0u64;
    for _ in 0..10 {
        for &h in &hands {
            sum += u64::from(trash(black_box(h)));
        }
    }
    black_box(sum);
    println!(
        "trash of a 20-card block      {:>12.0} blocks/s",
        rate(10 * hands.len() as u64, start)
    );
    let start = Instant::now();
    for &h in &hands {
        black_box(analyze_hand(black_box(h)));
    }
    println!(
        "full hand analysis (analyze)   {:>12.0} hands/s",
        rate(hands.len() as u64, start)
    );
    let game = TuSac::classic(4).expect("classic");
    let start = Instant::now();
    let mut actions = <<TuSac as Game>::State as GameState>::Actions::default();
    for i in 0..args.games {
        let mut rng = stream_rng(0xBE7C, i, DEAL_STREAM);
        let mut s = game.deal(&mut rng);
        while s.to_move().is_some() {
            s.legal_actions(&mut actions);
            let k = Policy::Random.choose(actions.as_slice().len(), &mut rng);
            s.apply(actions.as_slice()[k]);
        }
        black_box(s.outcome());
    }
    println!(
        "random×4 Tứ Sắc classic games  {:>12.0} games/s",
        rate(args.games, start)
    );
    Ok(())
}
