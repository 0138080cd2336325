//! Research probe: where an agent's moves differ from the search's, and what each difference
//! costs by the search's own measure. Games of AGENT (seats 0 and 2) against `ismcts:iters=1000`
//! (seats 1 and 3, the `ismcts` spec's default search: a root sweep over determinizations of the
//! seat's view, greedy playouts, greedy's move kept unless another's paired gain has t > 2.5).
//! At every decision with two or more legal actions, at every seat, three moves are taken: the
//! agent's, greedy's and search A's (`ismcts:iters=1000`, the move the search seats play), and a
//! second search B (`ismcts:iters=EVAL`, its own draws) gives each legal action's mean payout
//! gain over greedy's move. B, independent of A, then measures without selection bias what the
//! agent's move and greedy's give up against A's, in the search's model (greedy at every seat
//! after the move, uniform determinizations): B's gain of A's move minus B's gain of the other.
//! Decisions are grouped by the kinds of their legal actions (a Tứ Sắc "Meld+Pass" is a claim).
//!
//!   cargo run --release --example moves_against_search -- GAME VARIANT AGENT GAMES SEED [EVAL]
//!
//! (EVAL defaults to 2000.) Prints a Markdown table: per group, decisions per game, how often the
//! agent's, greedy's and A's moves agree, and the agent's and greedy's loss against A in points
//! per game with a 95% interval (decisions are counted as independent). A research script for
//! `docs/train.md` ("Where the networks lose to the search"), not a `bailab` command.

#[path = "common/decision_group.rs"]
mod decision_group;

use bailab::agent::spec::AgentSpec;
use bailab::game::{ActionBuffer, GameState, RuleMap};
use bailab::games::kind::GameKind;
use bailab::games::{with_game, GameVisitor};
use bailab::generic_agents::catalogue::{make_agent, make_agent_with, Setting};
use bailab::generic_agents::ismcts::Ismcts;
use bailab::generic_agents::ismcts_spec::ismcts_params;
use bailab::rng::GameRng;
use bailab::sim::deal::seeds::seeded_deal;
use decision_group::group;
use rayon::prelude::*;
use std::collections::BTreeMap;

struct Probe {
    variant: String,
    agent: String,
    games: u64,
    seed: u64,
    eval_iters: u32,
}

/// Sums over a group's decisions.
#[derive(Default, Clone)]
struct Tally {
    decisions: f64,
    agent_is_search: f64,
    greedy_is_search: f64,
    agent_is_greedy: f64,
    agent_loss: (f64, f64),
    greedy_loss: (f64, f64),
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.decisions += o.decisions;
        self.agent_is_search += o.agent_is_search;
        self.greedy_is_search += o.greedy_is_search;
        self.agent_is_greedy += o.agent_is_greedy;
        self.agent_loss.0 += o.agent_loss.0;
        self.agent_loss.1 += o.agent_loss.1;
        self.greedy_loss.0 += o.greedy_loss.0;
        self.greedy_loss.1 += o.greedy_loss.1;
    }
}

fn add_loss(sums: &mut (f64, f64), x: f64) {
    sums.0 += x;
    sums.1 += x * x;
}

/// A search of `iters` iterations with its own `seed`, greedy playouts.
fn search<G: GameKind>(iters: u32, seed: u64) -> Ismcts<G::State> {
    let spec = AgentSpec::parse(&format!("ismcts:iters={iters},seed={seed}")).expect("spec");
    let params = ismcts_params(&spec).expect("ismcts parameters");
    Ismcts::new(params, make_agent::<G>("greedy").expect("greedy"))
}

impl Probe {
    /// Plays game `g` and tallies its decisions by group.
    fn play<G: GameKind>(&self, game: &G, g: u64) -> BTreeMap<String, Tally> {
        let setting = Setting {
            variant: Some(game.variant()),
            ..Setting::default()
        };
        let mut agent = make_agent_with::<G>(&self.agent, setting).expect("agent");
        let mut greedy = make_agent::<G>("greedy").expect("greedy");
        let (mut search_a, mut search_b) = (search::<G>(1000, 0), search::<G>(self.eval_iters, 77));
        let mut state = seeded_deal(game, self.seed, g);
        let mut rngs = [1u64, 2, 3].map(|k| GameRng::new(u128::from(g) << 64 | u128::from(k)));
        let mut legal = <G::State as GameState>::Actions::default();
        let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
        let mut gains = Vec::new();
        while let Some(seat) = state.to_move() {
            state.legal_actions(&mut legal);
            let actions = legal.as_slice();
            if actions.len() == 1 {
                state.apply(actions[0]);
                continue;
            }
            let [agent_rng, search_rng, eval_rng] = &mut rngs;
            let (by_greedy, by_agent, by_search) = {
                let view = state.view(seat);
                let by_greedy = greedy.act(&view, actions, &mut agent_rng.clone());
                let by_agent = agent.act(&view, actions, agent_rng);
                let by_search = search_a.search(&view, actions, search_rng);
                search_b.search(&view, actions, eval_rng);
                (by_greedy, by_agent, by_search)
            };
            gains.clear();
            gains.extend(search_b.root_gains().expect("a paired root"));
            let t = tallies.entry(group(actions)).or_default();
            t.decisions += 1.0;
            t.agent_is_search += f64::from(u8::from(by_agent == by_search));
            t.greedy_is_search += f64::from(u8::from(by_greedy == by_search));
            t.agent_is_greedy += f64::from(u8::from(by_agent == by_greedy));
            add_loss(&mut t.agent_loss, gains[by_search] - gains[by_agent]);
            add_loss(&mut t.greedy_loss, gains[by_search] - gains[by_greedy]);
            let chosen = if seat % 2 == 0 { by_agent } else { by_search };
            state.apply(actions[chosen]);
        }
        tallies
    }
}

impl GameVisitor for Probe {
    type Output = ();
    fn visit<G: GameKind>(self) {
        let game = G::build(&self.variant, 4, &RuleMap::new()).expect("game");
        let parts: Vec<BTreeMap<String, Tally>> = (0..self.games)
            .into_par_iter()
            .map(|g| self.play(&game, g))
            .collect();
        let mut groups: BTreeMap<String, Tally> = BTreeMap::new();
        let mut all = Tally::default();
        for part in &parts {
            for (k, t) in part {
                groups.entry(k.clone()).or_default().add(t);
                all.add(t);
            }
        }
        groups.insert("all".into(), all);
        let games = self.games as f64;
        // per game: the sum's mean and half its 95% interval (decisions taken as independent)
        let per_game = |t: &Tally, (s, sq): (f64, f64)| {
            let mean = s / t.decisions;
            let var = (sq / t.decisions - mean * mean).max(0.0);
            (
                s / games,
                1.96 * (var / t.decisions).sqrt() * t.decisions / games,
            )
        };
        println!(
            "{} {}: `{}` at seats 0 and 2, `ismcts:iters=1000` at 1 and 3, {} games of seed {}, \
             losses measured by `ismcts:iters={}`\n",
            G::INFO.name,
            self.variant,
            self.agent,
            self.games,
            self.seed,
            self.eval_iters
        );
        println!("| decision | per game | agent = search | greedy = search | agent = greedy | agent's loss per game | greedy's loss per game |");
        println!("| --- | --- | --- | --- | --- | --- | --- |");
        for (k, t) in &groups {
            let (al, ah) = per_game(t, t.agent_loss);
            let (gl, gh) = per_game(t, t.greedy_loss);
            let n = t.decisions;
            println!(
                "| {k} | {:.1} | {:.0}% | {:.0}% | {:.0}% | {al:+.2} ±{ah:.2} | {gl:+.2} ±{gh:.2} |",
                n / games,
                100.0 * t.agent_is_search / n,
                100.0 * t.greedy_is_search / n,
                100.0 * t.agent_is_greedy / n,
            );
        }
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() < 5 {
        eprintln!("usage: moves_against_search GAME VARIANT AGENT GAMES SEED [EVAL]");
        std::process::exit(2);
    }
    let probe = Probe {
        variant: a[1].clone(),
        agent: a[2].clone(),
        games: a[3].parse().expect("GAMES: a count"),
        seed: a[4].parse().expect("SEED: a number"),
        eval_iters: a.get(5).map_or(2000, |s| s.parse().expect("EVAL: a count")),
    };
    with_game(&a[0], probe).expect("game");
}
