//! Luck-corrected estimates (`bailab::sim::luck`): each draw's correction has mean zero over the
//! cards the draw could have been (checked exactly, every variant with a stock), a broken
//! correction is caught by that check, and a head-to-head of two copies of one agent keeps zero
//! in the corrected interval.

use bailab::agent::Agent;
use bailab::game::{ActionBuffer, Decision, GameState, RuleMap, MAX_SEATS};
use bailab::games::chan::Chan;
use bailab::games::kind::{GameCore, GameKind, Luck};
use bailab::games::tusac::{TuSac, TuSacState};
use bailab::generic_agents::catalogue::make_agent;
use bailab::rng::stream_rng;
use bailab::sim::deal::{DealLoop, Event, Seating};
use bailab::sim::luck::{fit_value_model, Corrector, NetValue, ValueFunction, ValueModel};
use bailab::sim::seeded_deal;
use bailab::{fit_value_net, ValueTraining};
use rand::Rng;

/// A value model of `game` fitted on a few greedy self-play games.
fn model<G: GameKind>(game: &G) -> ValueModel {
    let mut agents: Vec<Box<dyn Agent<G::State>>> = vec![make_agent::<G>("greedy").unwrap()];
    fit_value_model(game, &mut agents, 77, 40, "test").0
}

/// For random games of `game`, at every step that drew from the stock: the luck of each seat,
/// averaged over the `m` cards the draw could have been (each swapped in as the real draw), is
/// zero. `broken` perturbs the model's value of one seat in the real game only (a correction
/// that reads the wrong seat's value): the check must then fail. Returns the steps checked.
fn mean_luck_is_zero<G: GameKind, V: ValueFunction<G>>(
    game: &G,
    make: impl Fn() -> V,
    deals: u64,
    broken: bool,
) -> Result<usize, String> {
    let mut corrector = Corrector::<G, V>::new(make());
    let mut value = make();
    let mut actions = <G::State as GameState>::Actions::default();
    let mut checked = 0;
    for deal in 0..deals {
        let mut s = seeded_deal(game, 5, deal);
        let mut rng = stream_rng(6, deal, 0);
        while let Some(seat) = s.to_move() {
            s.legal_actions(&mut actions);
            let chosen = rng.random_range(0..actions.as_slice().len());
            let action = actions.as_slice()[chosen];
            let before = s.clone();
            s.apply(action);
            let hidden = G::hidden_stock(&before);
            if G::stock_draws(&s) == 0 || hidden.len() < 2 {
                continue;
            }
            let decision = Decision {
                seat,
                legal: actions.as_slice().len(),
                chosen,
            };
            let mut sum = [0.0; MAX_SEATS];
            for q in hidden.clone() {
                let mut other = before.clone();
                G::swap_stock(&mut other, hidden.start, q);
                other.apply(action);
                corrector.observe((&before, None));
                corrector.observe((&other, Some((decision, action))));
                let mut v = [0.0; MAX_SEATS];
                value.values(&other, &mut v);
                let n = other.seats();
                for (x, t) in sum.iter_mut().enumerate().take(n) {
                    // Broken: the real value read for the next seat, the mean for this one.
                    let wrong = if broken { v[(x + 1) % n] - v[x] } else { 0.0 };
                    *t += corrector.luck()[x] + wrong;
                }
            }
            let scale = 1.0 + sum.iter().map(|x| x.abs()).fold(0.0, f64::max);
            for (x, t) in sum.iter().enumerate().take(s.seats()) {
                let mean = t / hidden.len() as f64;
                if mean.abs() > 1e-9 * scale {
                    return Err(format!(
                        "{} {}: deal {deal}, seat {x}: mean luck {mean} over {} draws",
                        G::INFO.name,
                        game.variant(),
                        hidden.len()
                    ));
                }
            }
            checked += 1;
        }
    }
    Ok(checked)
}

#[test]
fn every_draw_corrects_by_zero_on_average_over_the_cards_it_could_have_been() {
    for variant in ["classic", "4sac", "sisepai21", "dirtyking26"] {
        check_every_draw(&TuSac::build(variant, 4, &RuleMap::new()).unwrap());
    }
    check_every_draw(&Chan::build("standard", 4, &RuleMap::new()).unwrap());
}

/// [`mean_luck_is_zero`] holds with a linear value model and with a value network, and fails
/// when broken.
fn check_every_draw<G: GameKind>(game: &G) {
    let name = format!("{} {}", G::INFO.name, game.variant());
    let linear = model(game);
    let checked = mean_luck_is_zero(game, || &linear, 3, false).unwrap();
    assert!(checked > 10, "{name}: {checked} draws checked");
    let broken = mean_luck_is_zero(game, || &linear, 3, true);
    assert!(broken.is_err(), "{name}: broken");
    let net = tiny_net(game);
    let checked = mean_luck_is_zero(game, || NetValue::new(game, &net), 2, false).unwrap();
    assert!(
        checked > 5,
        "{name}: {checked} draws checked with a network"
    );
}

/// A value network of one hidden layer of 8, fitted on 6 deals of greedy self-play.
fn tiny_net<G: GameKind>(game: &G) -> bailab::generic_agents::net::qnet::QNet {
    let mut agents: Vec<Box<dyn Agent<G::State>>> = vec![make_agent::<G>("greedy").unwrap()];
    let training = ValueTraining {
        seed: 78,
        deals: 6,
        hidden: vec![8],
        lr: 1e-3,
        sample_rate: 1.0,
        batch_deals: 3,
        minibatch: 64,
    };
    let (net, fit) = fit_value_net(game, &mut agents, &training, |_, _| {}).unwrap();
    assert!(fit.samples > 0 && fit.last_loss.is_finite());
    net
}

/// Mean and 95% half-width of a sample.
fn interval(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let v = x.iter().map(|d| (d - m) * (d - m)).sum::<f64>() / (n - 1.0);
    (m, 1.96 * (v / n).sqrt())
}

/// Plain and corrected per-deal differences of agent 0 minus agent 1 (two of each, seats
/// alternated, both rotations) over `deals` deals of `seed`.
fn head_to_head<G: GameKind>(
    game: &G,
    specs: [&str; 2],
    deals: u64,
    seed: u64,
) -> (Vec<f64>, Vec<f64>) {
    let model = model(game);
    let mut agents: Vec<Box<dyn Agent<G::State>>> =
        specs.iter().map(|s| make_agent::<G>(s).unwrap()).collect();
    let mut corrector = Corrector::<G, _>::new(&model);
    paired(game, &mut agents, &mut corrector, deals, seed)
}

/// Plain and corrected per-deal differences of `agents[0]` minus `agents[1]` (two of each, seats
/// alternated, both rotations) over `deals` deals of `seed`, corrected by `corrector` (told the
/// seating at each deal).
fn paired<G: GameKind, V: ValueFunction<G>>(
    game: &G,
    agents: &mut [Box<dyn Agent<G::State>>],
    corrector: &mut Corrector<G, V>,
    deals: u64,
    seed: u64,
) -> (Vec<f64>, Vec<f64>) {
    let looper = DealLoop::seeded(game, seed, Seating::Rotate(2), 0..2);
    let (mut plain, mut fixed) = (Vec::new(), Vec::new());
    for deal in 0..deals {
        let (mut p, mut f) = ([0.0; 2], [0.0; 2]);
        looper.play(deal, agents, |at, e| match e {
            Event::Step(step) => {
                if step.1.is_none() {
                    corrector.seat(&at.seats[..game.seats()]);
                }
                corrector.observe(step)
            }
            Event::End(_, o) => {
                for x in 0..o.payouts().len() {
                    let pay = o.payouts()[x] as f64;
                    p[at.seats[x]] += pay;
                    f[at.seats[x]] += pay - corrector.luck()[x];
                }
            }
        });
        plain.push(p[0] - p[1]);
        fixed.push(f[0] - f[1]);
    }
    (plain, fixed)
}

#[test]
fn two_copies_of_one_agent_differ_by_zero_within_the_corrected_interval() {
    let game = TuSac::build("classic", 4, &RuleMap::new()).unwrap();
    let (plain, fixed) = head_to_head(&game, ["random", "random"], 400, 31);
    let (pm, pw) = interval(&plain);
    let (cm, cw) = interval(&fixed);
    assert!(pm.abs() < pw, "plain {pm} ± {pw}");
    assert!(cm.abs() < cw, "corrected {cm} ± {cw}");
    // Corrections happened: the corrected differences are not the plain ones.
    assert!(plain.iter().zip(&fixed).any(|(a, b)| (a - b).abs() > 1e-6));
}

#[test]
fn tien_len_has_no_chance_event_after_the_deal() {
    let game = bailab::games::tienlen::TienLen::build("south", 4, &RuleMap::new()).unwrap();
    let (plain, fixed) = head_to_head(&game, ["greedy", "random"], 30, 31);
    assert_eq!(plain, fixed);
}

/// Plain and corrected per-deal differences of greedy minus random in Tiến Lên (two of each,
/// seats alternated, both rotations), the value 8 playouts by the agents as seated, the
/// decisions of the slots marked in `uniform` corrected as uniformly random ones.
fn greedy_random_decisions(uniform: [bool; 2], deals: u64) -> (Vec<f64>, Vec<f64>) {
    use bailab::games::tienlen::TienLen;
    use bailab::sim::luck::RolloutValue;
    let game = TienLen::build("south", 4, &RuleMap::new()).unwrap();
    let make = |s: &str| make_agent::<TienLen>(s).unwrap();
    let mut agents = vec![make("greedy"), make("random")];
    let value = RolloutValue::with_agents(vec![make("greedy"), make("random")], 8, 99);
    let mut flags = [false; MAX_SEATS];
    flags[..2].copy_from_slice(&uniform);
    let mut corrector = Corrector::<TienLen, _>::new(value).with_uniform_slots(flags);
    paired(&game, &mut agents, &mut corrector, deals, 31)
}

#[test]
fn a_uniformly_random_seats_decisions_are_corrected_without_bias() {
    let (plain, fixed) = greedy_random_decisions([false, true], 150);
    let ((pm, pw), (cm, cw)) = (interval(&plain), interval(&fixed));
    assert!(plain.iter().zip(&fixed).any(|(a, b)| (a - b).abs() > 1e-6));
    assert!(
        (pm - cm).abs() < pw + cw,
        "plain {pm} ± {pw}, corrected {cm} ± {cw}"
    );
    // Greedy's decisions corrected as if they were random: biased, and the check sees it.
    let (_, wrong) = greedy_random_decisions([true, false], 150);
    let (wm, ww) = interval(&wrong);
    assert!(
        (pm - wm).abs() > pw + ww,
        "plain {pm} ± {pw}, wrong {wm} ± {ww}"
    );
}

#[test]
fn the_stock_looked_at_for_the_double_rank_is_not_swapped() {
    let game = TuSac::build("dirtyking26", 4, &RuleMap::new()).unwrap();
    let mut actions = <TuSacState as GameState>::Actions::default();
    let mut public_seen = 0;
    for deal in 0..20 {
        let mut s = seeded_deal(&game, 8, deal);
        let mut rng = stream_rng(9, deal, 0);
        while s.to_move().is_some() {
            let packs = s.multi_pack().unwrap();
            let hidden = <TuSac as Luck>::hidden_stock(&s);
            assert_eq!(
                hidden.len() + packs.public_stock().len(),
                packs.stock_len(),
                "deal {deal}: the hidden part and the public part make the stock"
            );
            public_seen += packs.public_stock().len();
            s.legal_actions(&mut actions);
            let i = rng.random_range(0..actions.as_slice().len());
            s.apply(actions.as_slice()[i]);
        }
    }
    assert!(public_seen > 0, "some stock was public");
}

#[test]
fn each_seats_value_inputs_are_every_view_tensor_from_its_own_on() {
    use bailab::games::observe::Observe;
    use bailab::sim::luck::{value_input_len, write_value_inputs};
    let game = Chan::build("standard", 4, &RuleMap::new()).unwrap();
    let s = seeded_deal(&game, 3, 0);
    let width = value_input_len(&game);
    let view_len = width / 4;
    let mut rows = vec![0.0; 4 * width];
    write_value_inputs(&game, &s, &mut rows);
    let mut tensor = vec![0.0; view_len];
    for x in 0..4 {
        for k in 0..4 {
            let seat = ((x + k) % 4) as bailab::game::Seat;
            game.tensor(&s.view(seat), &mut tensor);
            let at = x * width + k * view_len;
            assert_eq!(&rows[at..at + view_len], &tensor[..], "seat {x}, block {k}");
        }
    }
}
