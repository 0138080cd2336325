//! The multi-pack view and determinization (sisepai21, dirtyking26): against the truth of greedy
//! play, and against what a seat cannot see (who an open window asks, §4.6 S2.2) or can (the
//! stock after a reshuffle is the old dead pile, §4.7).

use crate::packs_position::{act, card, legal, meld, position};
use bailab::agent::greedy::TieBreak;
use bailab::agent::Agent;
use bailab::game::SeatView;
use bailab::game::{Game, GameState, Seat};
use bailab::games::observe::Observe;
use bailab::games::tusac::actions::Phase;
use bailab::games::tusac::actions::{Action, Event};
use bailab::games::tusac::card::Card;
use bailab::games::tusac::meld::Melds;
use bailab::games::tusac::options::Options;
use bailab::games::tusac::packs::greedy::PacksGreedy;
use bailab::games::tusac::packs::loose::win_score;
use bailab::games::tusac::packs::melds::{identical_claims, legal_melds, meld_points};
use bailab::games::tusac::packs::{MultiPack, PacksState};
use bailab::games::tusac::sets::SetRules;
use bailab::games::tusac::{SetKind, TuSac, TuSacState};
use bailab::rng::stream_rng;

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

// ------------------------------------------- what a seat does not see (§1.5, S2.2, §4.7)

/// Seat 0 discards `rC`; `T` = seat 1 declares a chow and the window goes on to whichever of
/// seats 2 and 3 holds the other two `rC` (`pair_at`), asked in `Claim`.
fn declaring(pair_at: Seat) -> PacksState {
    let (with, without) = ("rC rC yA gE wR", "gR gC wH wA wE");
    let (h2, h3) = if pair_at == 2 {
        (with, without)
    } else {
        (without, with)
    };
    let hands = ["yA yE yR yC gP rC", "rR rH gA gE wH", h2, h3];
    let mut s = position(Options::sisepai21(4), &hands, "wP wP wP");
    act(&mut s, 0, Action::Discard(card("rC")));
    act(&mut s, 1, meld(SetKind::RookCannonHorse, "rR rH"));
    assert_eq!(s.phase(), Phase::Claim(pair_at));
    s
}

/// The observation (JSON) of `seat`'s view of `s`.
fn observation(s: &PacksState, seat: Seat) -> serde_json::Value {
    let game = TuSac::from(MultiPack::new(*s.options()).unwrap());
    game.observation(&TuSacState::from(*s).view(seat))
}

#[test]
fn who_an_open_declaration_window_asks_is_not_seen_by_the_others() {
    // S2.2: declarations are simultaneous and hidden; holding the pair is private (§1.5)
    let (at2, at3) = (declaring(2), declaring(3));
    let (v2, v3) = (at2.view(0), at3.view(0));
    assert_eq!(
        v2.phase(),
        v3.phase(),
        "the discarder sees no Claim of another seat"
    );
    assert_eq!(v2.to_move(), v3.to_move());
    assert_eq!(observation(&at2, 0), observation(&at3, 0));
    assert_eq!(observation(&at2, 1), observation(&at3, 1), "nor does T");
    // nor do its determinizations keep the pair in the seat asked
    let mut kept = 0;
    for k in 0..200 {
        let d = at2.view(0).determinize(&mut stream_rng(5, k, 5));
        kept += usize::from(d.hand(2)[card("rC").index()] >= 2);
        if let Phase::Claim(x) = d.phase() {
            assert!(d.hand(x)[card("rC").index()] >= 2, "a sample asks seat {x}");
        }
    }
    assert!(kept < 150, "seat 2 holds the pair in {kept} of 200 samples");
}

/// A two-seat sisepai21 game played by declining everything until the dead pile has become the
/// stock (§4.7); the state of the first decision after the reshuffle.
fn after_reshuffle() -> PacksState {
    let hands = ["yA yE yR gC", "rA rE gR"];
    let opts = Options {
        hand_size: 3,
        ..Options::sisepai21(2)
    };
    let mut s = position(opts, &hands, "wP wH wC");
    act(&mut s, 0, Action::Discard(card("gC")));
    while let Some(seat) = s.to_move() {
        let a = *legal(&s).last().unwrap(); // always decline: draw or pass
        act(&mut s, seat, a);
        if s.last_events()
            .iter()
            .any(|e| matches!(e, Event::Reshuffle { .. }))
        {
            return s;
        }
    }
    panic!("no reshuffle")
}

/// The cards `s` draws from here to its end, declining everything, sorted.
fn drawn_to_the_end(mut s: PacksState) -> Vec<Card> {
    let mut out = Vec::new();
    while let Some(seat) = s.to_move() {
        let a = *legal(&s).last().unwrap();
        act(&mut s, seat, a);
        for e in s.last_events() {
            if let Event::Draw { card, .. } = e {
                out.push(*card);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn after_a_reshuffle_the_stock_is_the_known_dead_pile() {
    // §4.7: the new stock is the old dead pile, public; only its order is unknown
    let s = after_reshuffle();
    assert!(s.stock_len() > 1);
    for x in 0..2 {
        let other = 1 - x;
        let unseen: usize = s.view(x).unseen().iter().map(|&n| usize::from(n)).sum();
        assert_eq!(
            unseen,
            s.hand_len(other),
            "seat {x}: only seat {other}'s hand is unseen"
        );
        for k in 0..20 {
            let d = s.view(x).determinize(&mut stream_rng(9, k, x.into()));
            assert_eq!(d.hand(other), s.hand(other), "seat {x}'s sample {k}");
            assert_eq!(
                drawn_to_the_end(d),
                drawn_to_the_end(s),
                "the stock stays the stock"
            );
        }
    }
}
