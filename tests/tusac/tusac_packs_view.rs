//! The multi-pack determinization (sisepai21, dirtyking26) against the truth of greedy play.

use bailab::agent::greedy::TieBreak;
use bailab::agent::Agent;
use bailab::game::{Game, GameState, Seat};
use bailab::games::tusac::actions::Phase;
use bailab::games::tusac::card::Card;
use bailab::games::tusac::meld::Melds;
use bailab::games::tusac::options::Options;
use bailab::games::tusac::packs::greedy::PacksGreedy;
use bailab::games::tusac::packs::loose::win_score;
use bailab::games::tusac::packs::melds::{identical_claims, legal_melds, meld_points};
use bailab::games::tusac::packs::{MultiPack, PacksState};
use bailab::games::tusac::sets::SetRules;

use crate::discard_calibration;
use discard_calibration::{assert_calibrated, win_on_discard_rates};

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

#[test]
fn determinizations_predict_how_often_an_opponent_can_win_on_a_discard() {
    for (name, opts) in [
        ("sisepai21", Options::sisepai21(4)),
        ("dirtyking26", Options::dirtyking26(4)),
    ] {
        let game = MultiPack::new(opts).unwrap();
        let mut greedy = PacksGreedy {
            tiebreak: TieBreak::Canonical,
            prospects: true,
        };
        let rates = win_on_discard_rates(
            |rng| game.deal(rng),
            (400, 40),
            |s: &PacksState| matches!(s.phase(), Phase::MustDiscard(_)),
            |s, legal, rng| greedy.act(&s.view(s.to_move().unwrap()), legal, rng),
            someone_wins_on,
        );
        assert_calibrated(name, rates, 0.005);
    }
}
