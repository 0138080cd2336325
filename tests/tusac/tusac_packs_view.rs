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

/// Seat 0 holds an `rC`, seat 1 (`T` on its discard) a chow for it, `pair_at` (2 or 3) two more.
fn rc_table(pair_at: Seat) -> PacksState {
    let (with, without) = ("rC rC yA gE wR", "gR gC wH wA wE");
    let (h2, h3) = if pair_at == 2 {
        (with, without)
    } else {
        (without, with)
    };
    let hands = ["yA yE yR yC gP rC", "rR rH gA gE wH", h2, h3];
    position(Options::sisepai21(4), &hands, "wP wP wP")
}

/// Seat 0 discards `rC`; `T` = seat 1 declares a chow and the window goes on to whichever of
/// seats 2 and 3 holds the other two `rC` (`pair_at`), asked in `Claim`.
fn declaring(pair_at: Seat) -> PacksState {
    let mut s = rc_table(pair_at);
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

// ------------------------------------------- passed windows (S3, S4) as evidence

/// Whether some seat other than 0 that let `c` pass before holds two copies of it now.
fn pair_held_after_passing(s: &PacksState, c: Card) -> bool {
    (1..s.options().players)
        .any(|y| s.view(0).passed(y) >> c.index() & 1 == 1 && s.hand(y)[c.index()] >= 2)
}

/// Over seat 0's discards in 4 × greedy sisepai21 games: the true chance that a seat which let
/// the card pass holds a pair of it, and the chance predicted by the plain and the inferring
/// determinizations of seat 0's view.
fn pass_rates(deals: u64, samples: usize) -> (f64, f64, f64) {
    let (mut truth, mut plain, mut inferred, mut n) = (0.0, 0.0, 0.0, 0.0);
    greedy_decisions(6, deals, |_, s, x, legal, rng| {
        if x != 0 || legal.len() < 2 || !matches!(s.phase(), Phase::MustDiscard(_)) {
            return;
        }
        let view = s.view(0);
        let a: Vec<_> = (0..samples).map(|_| view.determinize(rng)).collect();
        let b: Vec<_> = (0..samples)
            .map(|_| view.determinize_inferred(rng))
            .collect();
        let share = |w: &[PacksState], c| {
            w.iter().filter(|w| pair_held_after_passing(w, c)).count() as f64 / samples as f64
        };
        for a_ in legal {
            let Action::Discard(c) = *a_ else { continue };
            truth += f64::from(u8::from(pair_held_after_passing(s, c)));
            plain += share(&a, c);
            inferred += share(&b, c);
            n += 1.0;
        }
    });
    (truth / n, plain / n, inferred / n)
}

/// Plays `deals` games of 4 × greedy sisepai21 (deals and choices from random stream `stream`),
/// calling `check(deal, state, seat to move, legal actions, rng)` before each decision.
fn greedy_decisions(
    stream: u64,
    deals: u64,
    mut check: impl FnMut(u64, &PacksState, Seat, &[Action], &mut bailab::rng::GameRng),
) {
    let game = MultiPack::new(Options::sisepai21(4)).unwrap();
    let mut greedy = PacksGreedy {
        tiebreak: TieBreak::Canonical,
        prospects: true,
    };
    let mut actions = <PacksState as GameState>::Actions::default();
    for d in 0..deals {
        let mut s = game.deal(&mut stream_rng(stream, d, 0));
        let mut rng = stream_rng(stream, d, 1);
        while let Some(x) = s.to_move() {
            s.legal_actions(&mut actions);
            check(d, &s, x, &actions, &mut rng);
            let k = greedy.act(&s.view(x), &actions, &mut rng);
            s.apply(actions[k]);
        }
    }
}

#[test]
fn determinizations_with_passes_predict_identical_claims() {
    let (truth, plain, inferred) = pass_rates(400, 20);
    println!("a pair of a passed type: true {truth:.4}, plain {plain:.4}, inferred {inferred:.4}");
    assert!(truth > 0.0, "the measure sees pairs kept after a pass");
    assert!(plain > 2.0 * truth, "plain {plain:.4}, true {truth:.4}");
    assert!(
        inferred > 0.7 * truth && inferred < 1.5 * truth,
        "inferred {inferred:.4}, true {truth:.4}"
    );
}

#[test]
fn a_window_nobody_takes_marks_its_claim_order_as_having_let_the_card_pass() {
    let mut s = rc_table(2);
    let (rc, wp) = (1u32 << card("rC").index(), 1u32 << card("wP").index());
    let passed = |s: &PacksState| [0, 1, 2, 3].map(|x| s.view(0).passed(x));
    act(&mut s, 0, Action::Discard(card("rC")));
    act(&mut s, 1, Action::Draw);
    assert_eq!(
        passed(&s),
        [0; 4],
        "nothing is known while the window is open"
    );
    act(&mut s, 2, Action::Pass); // S3: seats 1, 2 and 3, not the discarder
    assert_eq!(passed(&s), [0, rc, rc, rc]);
    act(&mut s, 1, Action::PassDrawn); // S4 on the own draw: every seat, the drawer first
    assert_eq!(passed(&s), [wp, rc | wp, rc | wp, rc | wp]);
    assert_eq!(s.view(3).passed(0), wp, "every seat sees the same (public)");
}

#[test]
fn a_window_someone_takes_marks_nobody() {
    let mut s = rc_table(2);
    act(&mut s, 0, Action::Discard(card("rC")));
    act(&mut s, 1, Action::Draw);
    act(&mut s, 2, meld(SetKind::Triple, "rC rC"));
    assert!((0..4).all(|x| s.view(1).passed(x) == 0));
}

#[test]
fn inferring_determinizations_keep_the_seen_and_differ_only_by_the_passes() {
    let (mut differ, mut passes) = (0, 0);
    greedy_decisions(8, 40, |d, s, x, _, _| {
        let view = s.view(x);
        let others = (0..4).filter(|&y| y != x);
        let any_pass = others.clone().any(|y| view.passed(y) != 0);
        let turn = u64::from(s.turns());
        let (a, b) = (
            view.determinize(&mut stream_rng(9, d, turn)),
            view.determinize_inferred(&mut stream_rng(9, d, turn)),
        );
        assert_eq!(b.hand(x), s.hand(x));
        assert_eq!(b.view(x).unseen(), view.unseen());
        assert!(others.clone().all(|y| b.hand_len(y) == s.hand_len(y)));
        let same = others.clone().all(|y| a.hand(y) == b.hand(y));
        assert!(any_pass || same, "no pass, no difference (deal {d})");
        (passes, differ) = (passes + usize::from(any_pass), differ + usize::from(!same));
    });
    assert!(
        differ > passes / 10,
        "{differ} of {passes} decisions after a pass"
    );
}

/// The actions `spec` takes at every seat over deals 0 to 2 of Tứ Sắc under `opts`.
fn search_choices(opts: Options, spec: &str) -> Vec<usize> {
    use bailab::generic_agents::catalogue::{make_agent_with, Setting};
    let game = TuSac::new(opts).unwrap();
    let mut agent = make_agent_with::<TuSac>(spec, Setting::default()).unwrap();
    let mut rng = stream_rng(1, 2, 3);
    let mut chosen = Vec::new();
    let mut legal = <TuSacState as GameState>::Actions::default();
    for deal in 0..3 {
        let mut state = bailab::sim::deal::seeds::seeded_deal(&game, deal, 0);
        while let Some(seat) = state.to_move() {
            state.legal_actions(&mut legal);
            let i = agent.act(&state.view(seat), &legal, &mut rng);
            chosen.push(i);
            state.apply(legal[i]);
        }
    }
    chosen
}

#[test]
fn infer_changes_the_multi_pack_searches_only() {
    let (plain, infer) = ("ismcts:iters=40", "ismcts:iters=40,infer=on");
    let (classic, s21) = (Options::classic(4), Options::sisepai21(4));
    assert_eq!(
        search_choices(classic, plain),
        search_choices(classic, infer)
    );
    assert_ne!(search_choices(s21, plain), search_choices(s21, infer));
}

#[test]
fn determinizations_read_the_view_only() {
    // two states a seat cannot tell apart (the second a determinization of the first, from that
    // seat's view) give the same samples from the same random stream, with or without inference
    let mut compared = 0;
    greedy_decisions(10, 30, |d, s, x, _, rng| {
        let twin = s.view(x).determinize(rng);
        let turn = u64::from(s.turns());
        for infer in [false, true] {
            let sample = |t: &PacksState| {
                let mut r = stream_rng(11, d, turn);
                match infer {
                    false => t.view(x).determinize(&mut r),
                    true => t.view(x).determinize_inferred(&mut r),
                }
            };
            let (a, b) = (sample(s), sample(&twin));
            for y in 0..4 {
                assert_eq!(a.hand(y), b.hand(y), "deal {d} turn {turn} seat {y}");
                assert!(a.face_down(y).eq(b.face_down(y)));
            }
            assert_eq!(a.deck(), b.deck());
            compared += 1;
        }
    });
    assert!(compared > 1000, "{compared}");
}
