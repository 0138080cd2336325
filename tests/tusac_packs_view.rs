//! The multi-pack determinization (sisepai21, dirtyking26) against the truth of greedy play.

use bailab::agents::greedy::TieBreak;
use bailab::agents::Agent;
use bailab::game::{Game, GameState, Seat, SeatView};
use bailab::games::tusac::card::Card;
use bailab::games::tusac::options::Options;
use bailab::games::tusac::packs::greedy::PacksGreedy;
use bailab::games::tusac::packs::loose::{win_score, SetRules};
use bailab::games::tusac::packs::melds::{identical_claims, legal_melds, meld_points};
use bailab::games::tusac::packs::{MultiPack, PacksState};
use bailab::games::tusac::rules::Melds;
use bailab::games::tusac::state::{Action, Phase};
use bailab::rng::stream_rng;

/// Whether some seat other than the discarder 0 would win on its discard `c` (S2.1: the turn
/// player with any legal meld, the others with an identical claim).
fn someone_wins_on(s: &PacksState, c: Card) -> bool {
    let opts = s.options();
    let rules = SetRules::new(opts, s.double_rank());
    let mut melds = Melds::new();
    (1..opts.players).any(|y: Seat| {
        let hand = s.hand(y);
        let fixed = s.fixed_points(y);
        if y == 1 {
            legal_melds(
                hand,
                c,
                fixed,
                &rules,
                opts.pair_meld_min_points,
                &mut melds,
            );
        } else {
            identical_claims(hand, c, &mut melds);
        }
        melds.iter().any(|m| {
            let mut left = *hand;
            m.used().iter().for_each(|u| left[u.index()] -= 1);
            let fixed = fixed + meld_points(*m, c, &rules);
            win_score(&left, fixed, &rules, opts.win_test).is_some()
        })
    })
}

/// Over seat 0's discard decisions in four-greedy games: the true chance that some other seat
/// can win on the card discarded, and the chance its determinizations predict.
fn win_on_discard_rates(opts: Options, deals: u64, samples: usize) -> (f64, f64) {
    let game = MultiPack::new(opts).unwrap();
    let mut greedy = PacksGreedy {
        tiebreak: TieBreak::Canonical,
    };
    let mut actions = <PacksState as GameState>::Actions::default();
    let (mut truth, mut model, mut n) = (0.0, 0.0, 0.0);
    for deal in 0..deals {
        let mut s = game.deal(&mut stream_rng(5, deal, 0));
        let mut rng = stream_rng(5, deal, 1);
        while let Some(x) = s.to_move() {
            s.legal_actions(&mut actions);
            if x == 0 && actions.len() > 1 && matches!(s.phase(), Phase::MustDiscard(_)) {
                let worlds: Vec<PacksState> = (0..samples)
                    .map(|_| s.view(0).determinize(&mut rng))
                    .collect();
                for a in actions.as_slice() {
                    let Action::Discard(c) = *a else { continue };
                    truth += f64::from(u8::from(someone_wins_on(&s, c)));
                    let hits = worlds.iter().filter(|w| someone_wins_on(w, c)).count();
                    model += hits as f64 / samples as f64;
                    n += 1.0;
                }
            }
            let k = greedy.act(&s.view(x), actions.as_slice(), &mut rng);
            s.apply(actions[k]);
        }
    }
    (truth / n, model / n)
}

#[test]
fn determinizations_predict_how_often_an_opponent_can_win_on_a_discard() {
    for (name, opts) in [
        ("sisepai21", Options::sisepai21(4)),
        ("dirtyking26", Options::dirtyking26(4)),
    ] {
        let (truth, model) = win_on_discard_rates(opts, 400, 40);
        println!("{name}, a win on the discard: true {truth:.4}, predicted {model:.4}");
        assert!(truth > 0.005, "{name}: the measure sees wins: {truth}");
        assert!(
            model > 0.7 * truth && model < 1.5 * truth,
            "{name}: predicted {model:.4}, true {truth:.4}"
        );
    }
}
