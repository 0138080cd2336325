//! Research probe: what the search's guesses about the hidden hands cost it. An oracle O runs
//! the `ismcts` spec's default one-step sweep (1,000 playouts, greedy at every seat after the
//! move, greedy's move kept unless another's paired gain has t > 2.5) on the true hands, only
//! the stock's hidden order reshuffled in each world (the games' luck capability names that
//! part; the multi-pack core's seed of its one later reshuffle, §4.7, is kept as dealt, a game
//! that rarely reaches it). The oracle sees what no seat may: it is a yardstick for how much any better reading of
//! the hidden hands could give a one-step search, never a player (only this probe builds it).
//!
//!   cargo run --release --example value_of_hands -- GAME VARIANT GAMES SEED [EVAL]
//!   cargo run --release --example value_of_hands -- GAME VARIANT DEALS SEED --duel
//!
//! Without `--duel`: games of four `ismcts:iters=1000`. At every decision with two or more legal
//! actions the seat's move is taken by search A (`ismcts:iters=1000`, worlds sampled from the
//! seat's view, the move played), by search I (the same with `infer=on`), by greedy and by O; a
//! second oracle sweep B (EVAL playouts, default 2,000, its own draws) gives each action's mean
//! gain, and B's gain of O's move minus B's gain of A's (or I's, or greedy's) is what that move
//! gives up for not knowing the hands, in the search's model. Prints per decision group the
//! decisions per game, how often each move equals O's and its loss in points per game with a
//! 95% interval (decisions counted as independent), A's loss minus I's, and where A's move and
//! O's differ what each leads to in the true state (another seat wins at once; another seat's
//! next choice has a meld).
//!
//! With `--duel`: O against `ismcts:iters=1000` in play, two of each, every deal played twice
//! (O at the even seats, then at the odd); prints O − search in points per game with a 95%
//! interval over the deals. A research script for `docs/ismcts.md` ("What the hidden hands are
//! worth"), not a `bailab` command.

#[path = "common/decision_group.rs"]
mod decision_group;

use bailab::agent::spec::AgentSpec;
use bailab::agent::{play_out, Agent};
use bailab::game::{ActionBuffer, GameState, RuleMap, Seat};
use bailab::games::kind::GameKind;
use bailab::games::{with_game, GameVisitor};
use bailab::generic_agents::catalogue::make_agent;
use bailab::generic_agents::ismcts::Ismcts;
use bailab::generic_agents::ismcts_spec::ismcts_params;
use bailab::rng::GameRng;
use bailab::sim::deal::seeds::seeded_deal;
use decision_group::group;
use rand::Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// The moves compared with the oracle's, in table order.
const MOVES: [&str; 3] = ["A (view)", "I (infer=on)", "greedy"];

struct Probe {
    variant: String,
    games: u64,
    seed: u64,
    eval: u32,
    /// Play the oracle against the search instead of measuring decisions.
    duel: bool,
}

/// Sums over a group's decisions: count, agreements with O and losses (sum, sum of squares),
/// and where A's move and O's differ, what each leads to in the true state (another seat wins
/// at once; another seat may meld it).
#[derive(Default, Clone)]
struct Tally {
    decisions: f64,
    same: [f64; 3],
    loss: [(f64, f64); 3],
    differ: f64,
    feeds: [[f64; 2]; 2],
    /// A's loss minus I's, per decision (sum, sum of squares).
    a_minus_i: (f64, f64),
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.decisions += o.decisions;
        for k in 0..3 {
            self.same[k] += o.same[k];
            self.loss[k].0 += o.loss[k].0;
            self.loss[k].1 += o.loss[k].1;
        }
        self.differ += o.differ;
        self.a_minus_i.0 += o.a_minus_i.0;
        self.a_minus_i.1 += o.a_minus_i.1;
        for m in 0..2 {
            for f in 0..2 {
                self.feeds[m][f] += o.feeds[m][f];
            }
        }
    }
}

/// A search of spec `ismcts:iters=1000,…` with its own `seed`, greedy playouts.
fn search<G: GameKind>(extra: &str, seed: u64) -> Ismcts<G::State> {
    let spec = AgentSpec::parse(&format!("ismcts:iters=1000,seed={seed}{extra}")).expect("spec");
    let params = ismcts_params(&spec).expect("ismcts parameters");
    Ismcts::new(params, make_agent::<G>("greedy").expect("greedy"))
}

/// The true state with the stock's hidden order reshuffled: a world that knows every hand.
fn oracle_world<G: GameKind>(state: &G::State, rng: &mut GameRng) -> G::State {
    let mut w = state.clone();
    let hidden = G::hidden_stock(&w);
    for i in (hidden.start + 1..hidden.end).rev() {
        let j = rng.random_range(hidden.start..=i);
        G::swap_stock(&mut w, i, j);
    }
    w
}

/// Plays `s` to the end with `greedy` at every seat; the payout of `me`.
fn playout<G: GameKind>(
    mut s: G::State,
    me: Seat,
    greedy: &mut dyn Agent<G::State>,
    rng: &mut GameRng,
) -> f64 {
    let mut legal = <G::State as GameState>::Actions::default();
    play_out(&mut s, &mut legal, greedy, rng);
    s.outcome().expect("the game ended").payouts()[usize::from(me)] as f64
}

/// The one-step sweep on oracle worlds: `iters` playouts over the legal actions, each world
/// played through every action. Returns the SPARTA choice (greedy's move `base` unless another's
/// paired gain has t > 2.5) and each action's mean gain over `base`.
fn oracle_sweep<G: GameKind>(
    state: &G::State,
    legal: &[<G::State as GameState>::Action],
    base: usize,
    iters: u32,
    greedy: &mut dyn Agent<G::State>,
    rng: &mut GameRng,
) -> (usize, Vec<f64>) {
    let me = state.to_move().expect("a decision");
    let k = legal.len();
    let worlds = (iters as usize / k).max(2);
    let (mut sum, mut sq) = (vec![0.0; k], vec![0.0; k]);
    let mut pay = vec![0.0; k];
    for _ in 0..worlds {
        let w = oracle_world::<G>(state, rng);
        for (a, &action) in legal.iter().enumerate() {
            let mut s = w.clone();
            s.apply(action);
            pay[a] = playout::<G>(s, me, greedy, rng);
        }
        for a in 0..k {
            let d = pay[a] - pay[base];
            sum[a] += d;
            sq[a] += d * d;
        }
    }
    let n = worlds as f64;
    let gains: Vec<f64> = sum.iter().map(|s| s / n).collect();
    let mut best = (0.0, base);
    for a in 0..k {
        let var = ((sq[a] - n * gains[a] * gains[a]) / (n - 1.0)).max(0.0);
        let bar = 2.5 * (var / n).sqrt();
        if gains[a] > best.0 && gains[a] > bar {
            best = (gains[a], a);
        }
    }
    (best.1, gains)
}

/// What `action` leads to in the true state `state`: another seat wins at once, and another
/// seat's next choice has a meld.
fn feeds<S: GameState>(state: &S, action: S::Action) -> [bool; 2] {
    let me = state.to_move();
    let mut s = state.clone();
    s.apply(action);
    let won = s
        .outcome()
        .is_some_and(|o| o.winner.is_some() && o.winner != me);
    let mut legal = S::Actions::default();
    let melds = match s.to_move() {
        Some(x) if Some(x) != me => {
            s.legal_actions(&mut legal);
            group(legal.as_slice()).contains("Meld")
        }
        _ => false,
    };
    [won, melds]
}

impl Probe {
    /// Plays game `g` (four `ismcts:iters=1000`) and tallies its decisions by group.
    fn play<G: GameKind>(&self, game: &G, g: u64) -> BTreeMap<String, Tally> {
        let mut greedy = make_agent::<G>("greedy").expect("greedy");
        let (mut plain, mut infer) = (search::<G>("", 0), search::<G>(",infer=on", 0));
        let mut state = seeded_deal(game, self.seed, g);
        let mut rngs = [1u64, 2, 3, 4].map(|k| GameRng::new(u128::from(g) << 64 | u128::from(k)));
        let mut legal = <G::State as GameState>::Actions::default();
        let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
        while let Some(seat) = state.to_move() {
            state.legal_actions(&mut legal);
            let actions = legal.as_slice();
            if actions.len() == 1 {
                state.apply(actions[0]);
                continue;
            }
            let [a_rng, i_rng, o_rng, b_rng] = &mut rngs;
            let (by_greedy, by_a, by_i) = {
                let view = state.view(seat);
                let by_greedy = greedy.act(&view, actions, &mut a_rng.clone());
                let by_a = plain.search(&view, actions, a_rng);
                (by_greedy, by_a, infer.search(&view, actions, i_rng))
            };
            let g_ = greedy.as_mut();
            let (by_o, _) = oracle_sweep::<G>(&state, actions, by_greedy, 1000, g_, o_rng);
            let (_, gains) = oracle_sweep::<G>(&state, actions, by_greedy, self.eval, g_, b_rng);
            let t = tallies.entry(group(actions)).or_default();
            t.decisions += 1.0;
            for (k, m) in [by_a, by_i, by_greedy].into_iter().enumerate() {
                t.same[k] += f64::from(u8::from(m == by_o));
                let x = gains[by_o] - gains[m];
                t.loss[k].0 += x;
                t.loss[k].1 += x * x;
            }
            let x = gains[by_i] - gains[by_a];
            t.a_minus_i.0 += x;
            t.a_minus_i.1 += x * x;
            if by_a != by_o {
                t.differ += 1.0;
                for (m, k) in [by_a, by_o].into_iter().enumerate() {
                    let f = feeds(&state, actions[k]);
                    (0..2).for_each(|i| t.feeds[m][i] += f64::from(u8::from(f[i])));
                }
            }
            state.apply(actions[by_a]);
        }
        tallies
    }
}

impl Probe {
    /// Plays game `g` with the oracle's sweep at the seats of parity `oracle` and search A at
    /// the others; the oracle seats' mean payout minus the others'.
    fn duel<G: GameKind>(&self, game: &G, g: u64, oracle: u8) -> f64 {
        let mut greedy = make_agent::<G>("greedy").expect("greedy");
        let mut plain = search::<G>("", 0);
        let mut state = seeded_deal(game, self.seed, g);
        let mut rngs = [1u64, 3].map(|k| GameRng::new(u128::from(g) << 64 | u128::from(k)));
        let mut legal = <G::State as GameState>::Actions::default();
        while let Some(seat) = state.to_move() {
            state.legal_actions(&mut legal);
            let actions = legal.as_slice();
            let [a_rng, o_rng] = &mut rngs;
            let k = if actions.len() == 1 {
                0
            } else if seat % 2 == oracle {
                let base = greedy.act(&state.view(seat), actions, &mut a_rng.clone());
                oracle_sweep::<G>(&state, actions, base, 1000, greedy.as_mut(), o_rng).0
            } else {
                plain.search(&state.view(seat), actions, a_rng)
            };
            state.apply(actions[k]);
        }
        let outcome = state.outcome().expect("the game ended");
        let p = outcome.payouts();
        let side = |r: u8| {
            let seats = (0..p.len()).filter(|&x| x % 2 == usize::from(r));
            seats.map(|x| p[x] as f64).sum::<f64>() / 2.0
        };
        side(oracle) - side(1 - oracle)
    }

    /// Head to head: each deal played twice, the oracle at the even seats and then the odd.
    fn duels<G: GameKind>(&self, game: &G) {
        let diffs: Vec<f64> = (0..self.games)
            .into_par_iter()
            .map(|g| (self.duel(game, g, 0) + self.duel(game, g, 1)) / 2.0)
            .collect();
        let n = diffs.len() as f64;
        let mean = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
        println!(
            "{} {}: the oracle's sweep − `ismcts:iters=1000`, two of each, {} deals of seed {} \
             each played with the oracle at the even and at the odd seats: {mean:+.2} ±{:.2} \
             points per game",
            G::INFO.name,
            self.variant,
            self.games,
            self.seed,
            1.96 * (var / n).sqrt()
        );
    }
}

impl GameVisitor for Probe {
    type Output = ();
    fn visit<G: GameKind>(self) {
        let game = G::build(&self.variant, 4, &RuleMap::new()).expect("game");
        if self.duel {
            return self.duels(&game);
        }
        let parts: Vec<BTreeMap<String, Tally>> = (0..self.games)
            .into_par_iter()
            .map(|g| self.play(&game, g))
            .collect();
        let mut groups: BTreeMap<String, Tally> = BTreeMap::new();
        for (k, t) in parts.iter().flatten() {
            groups.entry(k.clone()).or_default().add(t);
            groups.entry("all".into()).or_default().add(t);
        }
        let games = self.games as f64;
        let per_game = |t: &Tally, (s, sq): (f64, f64)| {
            let mean = s / t.decisions;
            let var = (sq / t.decisions - mean * mean).max(0.0);
            let half = 1.96 * (var / t.decisions).sqrt() * t.decisions / games;
            format!("{:+.2} ±{half:.2}", s / games)
        };
        println!(
            "{} {}: four `ismcts:iters=1000`, {} games of seed {}; the oracle knows every hand, \
             its gains measured by an oracle sweep of {} playouts\n",
            G::INFO.name,
            self.variant,
            self.games,
            self.seed,
            self.eval
        );
        let names = MOVES.map(|m| format!("{m} = O"));
        let losses = MOVES.map(|m| format!("{m}: loss per game"));
        println!(
            "| decision | per game | {} | {} |",
            names.join(" | "),
            losses.join(" | ")
        );
        println!("| --- | --- |{}", " --- |".repeat(6));
        for (k, t) in &groups {
            let same = t.same.map(|s| format!("{:.0}%", 100.0 * s / t.decisions));
            let loss = t.loss.map(|l| per_game(t, l));
            let per = t.decisions / games;
            println!(
                "| {k} | {per:.1} | {} | {} |",
                same.join(" | "),
                loss.join(" | ")
            );
        }
        let all = &groups["all"];
        println!(
            "\nA's loss − I's: {} per game\n",
            per_game(all, all.a_minus_i)
        );
        println!("\nWhere A's move and O's differ, what each leads to in the true state:\n");
        println!("| decision | differ per game | A's: another wins | A's: another may meld | O's: another wins | O's: another may meld |");
        println!("| --- | --- | --- | --- | --- | --- |");
        for (k, t) in &groups {
            let f =
                |m: usize, i: usize| format!("{:.0}%", 100.0 * t.feeds[m][i] / t.differ.max(1.0));
            let per = t.differ / games;
            println!(
                "| {k} | {per:.2} | {} | {} | {} | {} |",
                f(0, 0),
                f(0, 1),
                f(1, 0),
                f(1, 1)
            );
        }
    }
}

fn main() {
    let mut a: Vec<String> = std::env::args().skip(1).collect();
    let duel = a.iter().any(|x| x == "--duel");
    a.retain(|x| x != "--duel");
    if a.len() < 4 {
        eprintln!("usage: value_of_hands GAME VARIANT GAMES SEED [EVAL] [--duel]");
        std::process::exit(2);
    }
    let probe = Probe {
        variant: a[1].clone(),
        games: a[2].parse().expect("GAMES: a count"),
        seed: a[3].parse().expect("SEED: a number"),
        eval: a.get(4).map_or(2000, |s| s.parse().expect("EVAL: a count")),
        duel,
    };
    with_game(&a[0], probe).expect("game");
}
