//! `bailab bench`: speed figures measured on this machine (never asserted in tests).

use crate::game::Game;
use crate::games::tusac::analyze::analyze_hand;
use crate::games::tusac::{trash, Hand, TuSac};
use crate::rng::{stream_rng, DEAL_STREAM};
use crate::sim::experiment::Experiment;
use crate::sim::runner::throughput;
use rand::Rng;
use std::hint::black_box;
use std::time::Instant;

/// Arguments of `bailab bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Deals per matchup (each played once, no rotation).
    #[arg(long, default_value_t = 200_000)]
    pub deals: u64,
    /// Hands to analyse for the hands/s figures.
    #[arg(long, default_value_t = 200_000)]
    pub hands: u64,
    /// Decisions searched for each ISMCTS figure.
    #[arg(long, default_value_t = 300)]
    pub searches: u64,
    /// ISMCTS iteration counts to time per decision (comma-separated), e.g. 100,300,1000,3000.
    #[arg(long, value_delimiter = ',', default_value = "1000")]
    pub ismcts_iters: Vec<u32>,
}

/// Decision points of greedy×4 games with more than one legal action (states for the search).
fn decision_states(count: u64) -> Vec<crate::games::tusac::TuSacState> {
    use crate::agents::catalogue::tusac_agent;
    use crate::game::GameState;
    let game = TuSac::classic(4).expect("classic");
    let mut greedy = tusac_agent("greedy").expect("greedy");
    let mut out = Vec::new();
    let mut actions = <crate::games::tusac::TuSacState as GameState>::Actions::default();
    for deal in 0.. {
        let mut rng = stream_rng(0x15C7, deal, DEAL_STREAM);
        let mut s = game.deal(&mut rng);
        while let Some(seat) = s.to_move() {
            s.legal_actions(&mut actions);
            if actions.len() > 1 && out.len() < count as usize && rng.random_range(0..4) == 0 {
                out.push(s);
            }
            let k = greedy.act(&s.view(seat), &actions, &mut rng);
            s.apply(actions[k]);
        }
        if out.len() >= count as usize {
            return out;
        }
    }
    unreachable!()
}

/// The ISMCTS settings timed by the benchmark (after `iters=N,`): the spec's defaults (greedy
/// rollouts, root sweep, deviate 2.5), and the paper's search with random and greedy rollouts.
pub const ISMCTS_BENCH_SETTINGS: [&str; 3] = [
    "rollout=greedy,root=sweep,deviate=2.5",
    "rollout=random,root=ucb",
    "rollout=greedy,root=ucb",
];

/// ISMCTS with `settings` on one thread over `count` searched decisions of `iterations` each:
/// `(iterations per second, milliseconds per decision)`.
fn ismcts_speed(settings: &str, iterations: u32, count: u64) -> (f64, f64) {
    use crate::agents::catalogue::{ismcts_params, tusac_agent};
    use crate::agents::ismcts::Ismcts;
    use crate::agents::spec::AgentSpec;
    use crate::game::GameState;
    let states = decision_states(count);
    let spec = AgentSpec::parse(&format!("ismcts:iters={iterations},{settings}")).expect("spec");
    let params = ismcts_params(&spec).expect("bench settings are valid");
    let rollout = tusac_agent(spec.get("rollout").unwrap_or("greedy")).expect("rollout agent");
    let mut search = Ismcts::new(params, rollout);
    let mut actions = <crate::games::tusac::TuSacState as GameState>::Actions::default();
    let mut rng = stream_rng(0x15C7, 0, 1);
    let start = Instant::now();
    let mut total = 0;
    for s in &states {
        let seat = s.to_move().expect("a decision");
        s.legal_actions(&mut actions);
        black_box(search.search(&s.view(seat), &actions, &mut rng));
        total += search.last_iterations;
    }
    let seconds = start.elapsed().as_secs_f64();
    (
        total as f64 / seconds,
        1000.0 * seconds / states.len() as f64,
    )
}

/// 20-card private blocks from seeded deals (Quans removed by the deal).
fn sample_hands(count: u64) -> Vec<Hand> {
    let game = TuSac::classic(4).expect("classic");
    (0..count.div_ceil(3))
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

fn matchup(agent: &str, deals: u64) -> Experiment {
    let mut exp = Experiment::default_experiment();
    exp.agents = vec![agent.to_string(); 4];
    exp.rotate = false;
    exp.deals = deals;
    exp
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let build = if cfg!(debug_assertions) {
        "debug build: figures are not representative"
    } else {
        "release build"
    };
    println!(
        "machine: {cores} cores, {}; {build}",
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
        "{:<44} {:>12.0} blocks/s",
        "trash of a 20-card block, 1 thread",
        rate(10 * hands.len() as u64, start)
    );
    let start = Instant::now();
    for &h in &hands {
        black_box(analyze_hand(black_box(h)));
    }
    println!(
        "{:<44} {:>12.0} hands/s",
        "hand analysis (analyze), 1 thread",
        rate(hands.len() as u64, start)
    );
    for agent in ["random", "greedy"] {
        let exp = matchup(agent, args.deals);
        for threads in [1, cores] {
            let gps = throughput(&exp, threads, args.deals)?;
            println!(
                "{:<44} {:>12.0} games/s",
                format!("tusac classic {agent}×4, {threads} thread(s)"),
                gps
            );
        }
    }
    for settings in ISMCTS_BENCH_SETTINGS {
        for &iters in &args.ismcts_iters {
            let (per_s, ms) = ismcts_speed(settings, iters, args.searches);
            let label = format!("ismcts iters={iters},{settings} (1 thread)");
            println!("{label:<44} {per_s:>12.0} iterations/s {ms:>10.3} ms/decision");
        }
    }
    Ok(())
}
