//! Research probe: how much of a Monte-Carlo target's noise do two actions at one state share
//! when the game goes on with the same stock order? Greedy self-play; at one decision per game
//! with two or more legal actions, the game is forked: greedy's action and another legal one, both
//! played to the end by greedy with the same stock order and random streams, and a third copy
//! with the other action and the hidden stock reshuffled (independent luck).
//!
//!   cargo run --release --example paired_outcomes -- GAME VARIANT DEALS SEED

use bailab::agent::Agent;
use bailab::game::{ActionBuffer, GameId, GameState, RuleMap, MAX_SEATS};
use bailab::games::kind::GameKind;
use bailab::games::{with_game, GameVisitor};
use bailab::generic_agents::catalogue::{make_agent_with, Setting};
use bailab::rng::stream_rng;
use bailab::sim::deal::seeds::{agent_rngs, seeded_deal};
use bailab::sim::deal::turns::{play_out, Turn, Turns, OUTSIDE};
use rand::Rng;

struct Probe {
    variant: String,
    deals: u64,
    seed: u64,
}

fn var(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    x.iter().map(|d| (d - m) * (d - m)).sum::<f64>() / (n - 1.0)
}

impl GameVisitor for Probe {
    type Output = ();
    fn visit<G: GameKind>(self) {
        let game = G::build(&self.variant, 4, &RuleMap::new()).expect("game");
        let setting = Setting {
            variant: Some(game.variant()),
            ..Setting::default()
        };
        let mut agents: Vec<Box<dyn Agent<G::State>>> =
            vec![make_agent_with::<G>("greedy", setting).expect("greedy")];
        let all = [0usize; MAX_SEATS];
        let (mut same, mut indep, mut ga) = (Vec::new(), Vec::new(), Vec::new());
        for deal in 0..self.deals {
            let mut state = seeded_deal(&game, self.seed, deal);
            let id = GameId {
                master: self.seed,
                deal,
                rotation: 0,
            };
            let mut rngs = agent_rngs(id);
            let mut pick = stream_rng(self.seed, deal, 99);
            let outside = [OUTSIDE; MAX_SEATS];
            let mut legal = <G::State as GameState>::Actions::default();
            let fork_at = pick.random_range(0..30u32);
            let mut seen = 0u32;
            loop {
                let mut turns = Turns {
                    agents: &mut agents,
                    seat_agent: &outside,
                    rngs: &mut rngs,
                };
                let seat = match turns.advance(&mut state, |_| {}) {
                    Turn::Over(_) => break,
                    Turn::Outside(seat) => seat,
                };
                state.legal_actions(&mut legal);
                let actions = legal.as_slice();
                let s = usize::from(seat);
                let chosen = agents[0].act(&state.view(seat), actions, &mut rngs[s]);
                if actions.len() > 1 && seen == fork_at {
                    let other =
                        (chosen + 1 + pick.random_range(0..actions.len() - 1)) % actions.len();
                    let mut play = |action, shuffle: bool| {
                        let mut st = state.clone();
                        let mut r = rngs.clone();
                        st.apply(action);
                        if shuffle {
                            let h = G::hidden_stock(&st);
                            for i in (h.start + 1..h.end).rev() {
                                let j = pick.random_range(h.start..=i);
                                G::swap_stock(&mut st, i, j);
                            }
                        }
                        play_out(&mut st, &mut agents, &all[..4], &mut r, |_| {}).payouts()[s]
                            as f64
                    };
                    let a = play(actions[chosen], false);
                    let b = play(actions[other], false);
                    let c = play(actions[other], true);
                    same.push(a - b);
                    indep.push(a - c);
                    ga.push(a);
                    break;
                }
                if actions.len() > 1 {
                    seen += 1;
                }
                state.apply(actions[chosen]);
            }
        }
        println!(
            "{} {}: {} forks; var(G) {:.1}; var(G_a − G_b) same stock {:.1}, reshuffled {:.1}; ratio {:.3}",
            G::INFO.name,
            self.variant,
            same.len(),
            var(&ga),
            var(&same),
            var(&indep),
            var(&same) / var(&indep)
        );
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let p = Probe {
        variant: a[1].clone(),
        deals: a[2].parse().unwrap(),
        seed: a[3].parse().unwrap(),
    };
    with_game(&a[0], p).expect("game");
}
