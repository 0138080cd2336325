//! How well a game's determinizations predict that another seat could win on a discard: the
//! measure behind the Tứ Sắc determinization weights (tests/tusac/tusac_view.rs,
//! tests/tusac/tusac_packs_view.rs).

use bailab::game::{ActionBuffer, GameState, SeatView};
use bailab::games::tusac::{Action, Card};
use bailab::rng::{stream_rng, GameRng};

/// Over seat 0's discard decisions (`is_discard`, more than one legal action) in `deals` games
/// dealt by `deal` and played by `act`: the true chance that `wins(state, card)` for each legal
/// discard, and the mean chance over `samples` determinizations of seat 0's view.
pub fn win_on_discard_rates<S: GameState<Action = Action>>(
    deal: impl Fn(&mut GameRng) -> S,
    (deals, samples): (u64, usize),
    is_discard: impl Fn(&S) -> bool,
    mut act: impl FnMut(&S, &[Action], &mut GameRng) -> usize,
    wins: impl Fn(&S, Card) -> bool,
) -> (f64, f64) {
    let mut actions = S::Actions::default();
    let (mut truth, mut model, mut n) = (0.0, 0.0, 0.0);
    for d in 0..deals {
        let mut s = deal(&mut stream_rng(5, d, 0));
        let mut rng = stream_rng(5, d, 1);
        while let Some(x) = s.to_move() {
            s.legal_actions(&mut actions);
            if x == 0 && actions.as_slice().len() > 1 && is_discard(&s) {
                let worlds: Vec<S> = (0..samples)
                    .map(|_| s.view(0).determinize(&mut rng))
                    .collect();
                for a in actions.as_slice() {
                    let Action::Discard(c) = *a else { continue };
                    truth += f64::from(u8::from(wins(&s, c)));
                    let hits = worlds.iter().filter(|w| wins(w, c)).count();
                    model += hits as f64 / samples as f64;
                    n += 1.0;
                }
            }
            let k = act(&s, actions.as_slice(), &mut rng);
            s.apply(actions.as_slice()[k]);
        }
    }
    (truth / n, model / n)
}

/// Fails unless the prediction is within 0.7–1.5 times a true rate above `floor`.
pub fn assert_calibrated(name: &str, (truth, model): (f64, f64), floor: f64) {
    println!("{name}, a win on the discard: true {truth:.4}, predicted {model:.4}");
    assert!(truth > floor, "{name}: the measure sees wins: {truth}");
    assert!(
        model > 0.7 * truth && model < 1.5 * truth,
        "{name}: predicted {model:.4}, true {truth:.4}"
    );
}
