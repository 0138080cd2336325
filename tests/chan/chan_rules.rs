//! Chắn rules tests (`docs/games/chan.md`): the §11.1 vectors (decomposition from
//! the JSONL file, ù and scoring through the engine), the §8.5 worked examples, the §11.2
//! restriction vectors and every §6 predicate as constructed positions, the §5.3 priority
//! order, Thiên ù, the stock-exhausted draw, each §9 option, notation errors and the options'
//! round trip.

use bailab::game::RuleMap;
use bailab::game::{Game, GameState, Outcome};
use bailab::games::chan::{
    decompose, parse_cards, win_shape, Action, Card, Chan, ChanDiscardRule, ChanState, Factor,
    FirstAfterDraw, Hand, MeldSource, Options, Origin, Phase, Pred, PredSet, Resume, Setup,
    ThapThanhRule, Via,
};
use bailab::games::kind::{Analyzer, GameCore, Records};

fn c(s: &str) -> Card {
    s.parse().unwrap()
}
fn h(s: &str) -> Hand {
    s.parse().unwrap()
}
fn std4() -> Options {
    Options::default_for(4)
}
fn game(o: Options) -> Chan {
    Chan::new(o).unwrap()
}

// ---------------------------------------------------------------- §11.1 decomposition

#[test]
fn section_11_1_decompositions_from_the_jsonl_file() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/vectors/chan-decompose.jsonl"
    ))
    .expect("the §11.1 vector file");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let hand = h(v["hand19"].as_str().unwrap());
        assert_eq!(hand.len(), 19, "{}", v["id"]);
        let d = decompose(&hand);
        assert_eq!(
            (u64::from(d.chan), u64::from(d.ca)),
            (v["chan"].as_u64().unwrap(), v["ca"].as_u64().unwrap()),
            "{}",
            v["id"]
        );
        n += 1;
    }
    assert_eq!(n, 15);
}

#[test]
fn section_11_1_lone_columns() {
    let cases = [
        (
            "2v 2v 2n 3v 3n 4s 5v 5v 5n 6v 6n 6s 7n 7n 8v 8v 9s 9s ch",
            "2n 4s 5n 6s ch",
            1,
        ),
        (
            "2v 2v 2s 3v 3n 4v 4n 4n 4s 5s 5s 6v 6v 7s 7s 8n 8s 9v 9v",
            "2s",
            0,
        ),
        (
            "2v 2v 3v 3n 4v 4n 4s 5s 5s 6v 6v 6n 6s 7s 7s 8n 8s 9n 9n",
            "4s",
            1,
        ),
        (
            "2v 2v 3v 3n 4v 4n 4n 4s 5s 5s 6v 6v 7s 7s 8n 8s 9n 9n ch",
            "ch",
            0,
        ),
    ];
    for (hand, lone, badau) in cases {
        let d = decompose(&h(hand));
        assert_eq!(bailab::games::chan::format_cards(d.lone_cards()), lone);
        assert_eq!(d.b(), badau);
    }
    // C1: the ba đầu of rank 6 is one Ca (6v 6n) and a Lone (6s)
    let d = decompose(&h("6v 6n 6s"));
    assert_eq!((d.chan, d.ca, d.l(), d.b()), (0, 1, 0, 1));
}

// ---------------------------------------------------------------- §11.1 through the engine

/// Where the ù card comes from.
#[derive(Copy, Clone)]
enum Src {
    /// W (seat 0) draws it.
    W,
    /// Seat 1 draws it.
    Other,
    /// Seat 3 discards it to W's gate.
    Discard,
}

/// Plays the ù of a §11.1 vector: W = seat 0 with `concealed` and `melds`; returns the state
/// after the card appears (and, when W is asked, after its `ClaimU`).
fn play_u(
    o: Options,
    concealed: &str,
    melds: &[(&str, &str, MeldSource)],
    card: &str,
    src: Src,
    prev_w: bool,
) -> ChanState {
    let g = game(o);
    let mut pos = g.position().hand(0, concealed).setup(Setup {
        first: 0,
        prev_winner: prev_w.then_some(0),
    });
    for &(hc, t, s) in melds {
        pos = pos.meld(0, hc, t, s);
    }
    let mut s = match src {
        Src::W => pos
            .stock(card)
            .live("2s", 0, Origin::Discard, Via::Discard, Some(3))
            .at(Phase::Turn(0)),
        Src::Other => pos
            .stock(card)
            .live("2s", 1, Origin::Discard, Via::Discard, Some(0))
            .at(Phase::Turn(1)),
        Src::Discard => pos.hand(3, card).stock("2s").at(Phase::MustDiscard(3)),
    };
    match src {
        Src::Discard => s.apply(Action::Discard(c(card))),
        _ => s.apply(Action::Draw),
    }
    if let Phase::UWindow { seat: 0, .. } = s.phase() {
        let mut legal = arrayvec::ArrayVec::new();
        s.legal_actions(&mut legal);
        assert_eq!(legal.as_slice(), [Action::ClaimU(c(card)), Action::Decline]);
        s.apply(Action::ClaimU(c(card)));
    }
    s
}

fn factors(s: &ChanState) -> Vec<&'static str> {
    s.score()
        .expect("a scored win")
        .instances()
        .map(|f| f.id())
        .collect()
}

/// Checks a won vector: its factors, points, gà, S and 4-player payouts.
fn check_win(s: &ChanState, want: &[&str], points: u32, ga: u32, big_s: u32) {
    let o: Outcome = s.outcome().expect("the hand ended");
    assert_eq!(o.winner, Some(0));
    let sc = s.score().unwrap();
    assert_eq!(factors(s), want);
    assert_eq!((sc.points, sc.ga, sc.s), (points, ga, big_s));
    let each = i64::from(big_s);
    assert_eq!(o.payouts(), [3 * each, -each, -each, -each]);
    assert_eq!(o.hand_value, points);
}

const C2: &str = "2v 2v 2s 3v 3n 4v 4n 4n 4s 5s 5s 6v 6v 7s 7s 8n 8s 9v 9v";
const C4: &str = "2v 2v 3v 3n 4v 4n 4n 4s 5s 5s 6v 6v 6n 7s 7s 8n 8s 9v 9n";

#[test]
fn c2_xuong_section_8_5_example_7() {
    let s = play_u(std4(), C2, &[], "2n", Src::Other, false);
    check_win(&s, &[], 2, 0, 2);
}

#[test]
fn c3_chi() {
    check_win(
        &play_u(std4(), C2, &[], "2n", Src::W, false),
        &["UChi"],
        3,
        0,
        3,
    );
}

#[test]
fn c3t_thong_and_chi() {
    let s = play_u(std4(), C2, &[], "2n", Src::W, true);
    check_win(&s, &["UThong", "UChi"], 4, 0, 4);
}

#[test]
fn c4_chi_bach_thu_section_8_5_example_1() {
    let s = play_u(std4(), C4, &[], "6n", Src::W, false);
    check_win(&s, &["UChi", "BachThu"], 5, 1, 10);
}

#[test]
fn c4b_bach_thu_drawn_by_another() {
    let s = play_u(std4(), C4, &[], "6n", Src::Other, false);
    check_win(&s, &["BachThu"], 4, 0, 4);
}

#[test]
fn c5_c6_c18_are_not_u() {
    for (hand, card) in [
        (C4, "6s"),
        (
            "2v 2v 3v 3n 4v 4n 4n 4s 5s 5s 6v 6v 7s 7s 8n 8s 9n 9n ch",
            "ch",
        ),
        (C2, "7n"),
    ] {
        assert!(!win_shape(&h(hand), 0, Some(c(card))), "{hand} + {card}");
        for src in [Src::W, Src::Other] {
            let s = play_u(std4(), hand, &[], card, src, false);
            assert!(s.outcome().is_none(), "{hand} + {card}: nobody is asked");
        }
    }
}

#[test]
fn c7_chi_leo_bach_thu_on_ch() {
    let s = play_u(
        std4(),
        "2v 2v 3v 3n 4v 4n 4n 4s 5s 5s 6v 6v 7s 7s 8n 8s 9v 9n ch",
        &[],
        "ch",
        Src::W,
        false,
    );
    check_win(&s, &["UChi", "Leo", "BachThu"], 7, 1, 12);
}

#[test]
fn c8_tom_leo_section_8_5_example_2() {
    let s = play_u(
        std4(),
        "2v 2v 2n 2s 3v 4n 4n 5s 5s 6v 6v 7n 7n 8v 8s 9v 9n ch ch",
        &[],
        "3s",
        Src::Other,
        false,
    );
    check_win(&s, &["Tom", "Leo"], 6, 0, 6);
}

#[test]
fn c9_two_leo_and_chi_section_8_5_example_3() {
    let s = play_u(
        std4(),
        "2v 2v 3v 3n 4n 4n 5v 6s 6s 7n 7s 8s 8s 9v 9v 9n 9s ch ch",
        &[],
        "5s",
        Src::W,
        false,
    );
    check_win(&s, &["UChi", "Leo", "Leo"], 8, 0, 8);
}

#[test]
fn c10_bach_dinh() {
    let s = play_u(
        std4(),
        "2v 2v 2n 2s 3v 3n 3n 3s 4n 4s 4s 5v 5v 5n 5s 6n 6n 7s 7s",
        &[],
        "4v",
        Src::Other,
        false,
    );
    check_win(&s, &["BachDinh"], 7, 1, 12);
}

#[test]
fn c11_tam_do_and_leo_section_8_5_example_4() {
    let s = play_u(
        std4(),
        "2v 2v 3v 4n 4n 5v 5s 6s 6s 8v 8v 8n 8s 9v 9n 9s 9s ch ch",
        &[],
        "3n",
        Src::Other,
        false,
    );
    check_win(&s, &["Leo", "TamDo"], 10, 1, 15);
}

const C12_CONCEALED: &str = "2v 2v 2n 2s 3v 3n 3n 3s 4s 4s 5v 5v 6v 7n 7s";

#[test]
fn c12_kinh_tu_chi_thien_khai_tom_section_8_5_example_5() {
    let s = play_u(
        std4(),
        C12_CONCEALED,
        &[("ch", "ch", MeldSource::ThienKhai)],
        "6n",
        Src::Other,
        false,
    );
    check_win(&s, &["Tom", "ThienKhai", "KinhTuChi"], 15, 1, 20);
}

const C13: &str = "2v 2v 3v 3v 3s 3s 4n 4n 5s 5s 6v 6v 6n 6n 7n 7n 8n 8n 9n";

#[test]
fn c13_thap_thanh_section_8_5_example_6() {
    let s = play_u(std4(), C13, &[], "9n", Src::W, false);
    check_win(
        &s,
        &["UChi", "Tom", "Tom", "BachDinh", "ThapThanh"],
        30,
        2,
        40,
    );
    assert_eq!(s.outcome().unwrap().payouts(), [120, -40, -40, -40]);
}

const C14: &str = "2v 2v 3v 3n 3s 3s 4v 4n 4n 4s 5s 5s 6v 6v 7s 7s 8v 8n 9n 9n";

fn thien_u(o: Options, hand20: &str, prev_winner: Option<u8>) -> ChanState {
    let mut s = game(o)
        .position()
        .hand(0, hand20)
        .setup(Setup {
            first: 0,
            prev_winner,
        })
        .at(Phase::Opening(0));
    let mut legal = arrayvec::ArrayVec::new();
    s.legal_actions(&mut legal);
    assert_eq!(legal[0], Action::DeclareThienU);
    s.apply(Action::DeclareThienU);
    s
}

#[test]
fn c14_thien_u() {
    let s = thien_u(std4(), C14, None);
    check_win(&s, &["ThienU"], 3, 0, 3);
    assert_eq!(s.outcome().unwrap().reason, "thien_u");
}

#[test]
fn c14t_thien_u_and_thong() {
    check_win(
        &thien_u(std4(), C14, Some(0)),
        &["UThong", "ThienU"],
        4,
        0,
        4,
    );
}

#[test]
fn c15_chiu_u_on_a_discard() {
    let s = play_u(
        std4(),
        "2v 2v 3v 3n 4v 4n 4n 4s 5v 5v 5v 6s 6s 7s 7s 8n 8s 9v 9n",
        &[],
        "5v",
        Src::Discard,
        false,
    );
    check_win(&s, &["BachThu", "Chiu"], 6, 0, 6);
    // the chíu ù laid the Quad down and counts as a chíu
    let w = s.seat(0);
    assert_eq!(w.chiu_count, 1);
    assert_eq!(w.melds.as_slice().last().unwrap().len(), 4);
}

#[test]
fn c16_chi_bach_thu_bon() {
    let s = play_u(
        std4(),
        "2v 2v 3v 3n 4v 4n 4n 4s 5v 5n 6s 7s 7s 8n 8s 9n 9n",
        &[("6s", "6s", MeldSource::Eat)],
        "6s",
        Src::W,
        false,
    );
    check_win(&s, &["UChi", "BachThu", "Bon"], 7, 1, 12);
}

#[test]
fn c17_not_bach_thu_with_a_ca_of_the_u_rank() {
    let s = play_u(
        std4(),
        "2v 2v 3v 3n 4v 4n 4s 5s 5s 6v 6v 6n 6s 7s 7s 8n 8s 9n 9n",
        &[],
        "4n",
        Src::Other,
        false,
    );
    check_win(&s, &[], 2, 0, 2);
}

#[test]
fn c19_nine_red_is_not_tam_do() {
    let s = play_u(
        std4(),
        "2v 2v 3v 4n 4n 5v 5s 6s 6s 8v 8v 8n 8s 9v 9s 9s 9s ch ch",
        &[],
        "3n",
        Src::Other,
        false,
    );
    check_win(&s, &["Leo"], 5, 0, 5);
}

// ---------------------------------------------------------------- §11.2 and §6 predicates

/// P = seat 0 with `concealed` plus filler that keeps a legal discard, in `Turn(0)` with `t`
/// live (a discard by seat 3) or in `MustDiscard(0)` without a live card.
fn pos_turn(o: Options, concealed: &str, t: Option<&str>) -> bailab::games::chan::Position {
    let p = game(o).position().hand(0, concealed).stock("2s 2s");
    match t {
        Some(t) => p.live(t, 0, Origin::Discard, Via::Discard, Some(3)),
        None => p,
    }
}

fn turn(p: bailab::games::chan::Position, t: Option<&str>) -> ChanState {
    p.at(if t.is_some() {
        Phase::Turn(0)
    } else {
        Phase::MustDiscard(0)
    })
}

fn eat(hand: &str, card: &str) -> Action {
    Action::Eat {
        hand: c(hand),
        card: c(card),
    }
}

fn fails(s: &ChanState, a: Action) -> PredSet {
    let f = s.explain(a);
    let mut legal = arrayvec::ArrayVec::new();
    s.legal_actions(&mut legal);
    assert_eq!(
        f.is_empty(),
        legal.contains(&a),
        "explain and legal_actions agree on {a}"
    );
    f
}

const FILL: &str = "2v 3n 7s";

fn with_fill(cards: &str) -> String {
    format!("{cards} {FILL}")
}

#[test]
fn r1_to_r5_ca_and_chan_eats() {
    let at = |hand: &str, t: &str| turn(pos_turn(std4(), &with_fill(hand), Some(t)), Some(t));
    assert_eq!(fails(&at("5v", "5n"), eat("5v", "5n")), PredSet::EMPTY);
    assert_eq!(
        fails(&at("5v 5n", "5s"), eat("5v", "5s")),
        PredSet::of(&[Pred::E8])
    );
    assert_eq!(
        fails(&at("5v 5v", "5n"), eat("5v", "5n")),
        PredSet::of(&[Pred::E7, Pred::E8])
    );
    assert_eq!(
        fails(&at("5v 5s", "5v"), eat("5s", "5v")),
        PredSet::of(&[Pred::E8, Pred::E11])
    );
    assert_eq!(fails(&at("5v 5s", "5v"), eat("5v", "5v")), PredSet::EMPTY);
}

#[test]
fn r6_r7_declined_chan() {
    let p = pos_turn(std4(), &with_fill("7n"), None).declined(0, "7n");
    assert_eq!(
        fails(&turn(p, None), Action::Discard(c("7n"))),
        PredSet::of(&[Pred::D1])
    );
    let p = pos_turn(std4(), &with_fill("7n"), Some("7n")).declined(0, "7n");
    assert_eq!(
        fails(&turn(p, Some("7n")), eat("7n", "7n")),
        PredSet::of(&[Pred::E2])
    );
}

#[test]
fn r8_r9_discarded_identity() {
    let p = pos_turn(std4(), &with_fill("3v"), Some("3v")).discarded(0, "3v");
    assert_eq!(
        fails(&turn(p, Some("3v")), eat("3v", "3v")),
        PredSet::of(&[Pred::E1])
    );
    let p = pos_turn(std4(), &with_fill("3v"), None).discarded(0, "3v");
    assert_eq!(
        fails(&turn(p, None), Action::Discard(c("3v"))),
        PredSet::of(&[Pred::D2])
    );
}

#[test]
fn r10_danh_ca() {
    let p = pos_turn(std4(), &with_fill("6v"), Some("6n")).discarded(0, "4v 4n");
    assert_eq!(
        fails(&turn(p, Some("6n")), eat("6v", "6n")),
        PredSet::of(&[Pred::E3])
    );
}

#[test]
fn r11_ate_a_ca_then_discards_a_ca() {
    let p = pos_turn(std4(), "4n 3n 7s 9v", None)
        .discarded(0, "4v")
        .meld(0, "2v", "2n", MeldSource::Eat);
    assert_eq!(
        fails(&turn(p, None), Action::Discard(c("4n"))),
        PredSet::of(&[Pred::D4])
    );
}

#[test]
fn r12_r13_three_copies_chiu_not_eat() {
    let s = turn(
        pos_turn(std4(), &with_fill("8s 8s 8s"), Some("8s")),
        Some("8s"),
    );
    assert_eq!(fails(&s, eat("8s", "8s")), PredSet::of(&[Pred::E10]));
    assert_eq!(fails(&s, Action::Chiu(c("8s"))), PredSet::EMPTY);
}

#[test]
fn r14_no_ca_while_waiting() {
    let hand = "2v 2v 2n 2s 3v 3v 3n 3s 4v 4v 5v 5v 7v 7v 8v 8n 9v 9n 6n";
    let s = turn(pos_turn(std4(), hand, Some("6v")), Some("6v"));
    assert!(s.seat(0).waiting());
    assert_eq!(fails(&s, eat("6n", "6v")), PredSet::of(&[Pred::E9]));
}

#[test]
fn r15_to_r17_eaten_ca_of_the_rank() {
    let p = |hand: &str, t: Option<&str>| {
        turn(
            pos_turn(std4(), &with_fill(hand).replace("2v ", "9v "), t).meld(
                0,
                "2v",
                "2n",
                MeldSource::Eat,
            ),
            t,
        )
    };
    assert_eq!(
        fails(&p("2s", Some("2s")), eat("2s", "2s")),
        PredSet::of(&[Pred::E6])
    );
    assert_eq!(
        fails(&p("2s", None), Action::Discard(c("2s"))),
        PredSet::of(&[Pred::D5])
    );
    assert_eq!(
        fails(&p("2s 2s 2s", Some("2s")), Action::Chiu(c("2s"))),
        PredSet::of(&[Pred::ChiuLegal])
    );
}

#[test]
fn r18_ate_the_twin() {
    let p = pos_turn(std4(), &with_fill("9v"), None).meld(0, "9v", "9v", MeldSource::Eat);
    assert_eq!(
        fails(&turn(p, None), Action::Discard(c("9v"))),
        PredSet::of(&[Pred::D3])
    );
}

#[test]
fn e4_passed_a_ca_for_h() {
    let p = pos_turn(std4(), &with_fill("5v"), Some("5s")).declined(0, "5n");
    assert_eq!(
        fails(&turn(p, Some("5s")), eat("5v", "5s")),
        PredSet::of(&[Pred::E4])
    );
}

#[test]
fn e5_discarded_a_card_of_the_rank() {
    let p = pos_turn(std4(), &with_fill("5v"), Some("5s")).discarded(0, "5n");
    assert_eq!(
        fails(&turn(p, Some("5s")), eat("5v", "5s")),
        PredSet::of(&[Pred::E5])
    );
}

#[test]
fn e12_no_dead_end_after_an_eat() {
    // after eating 5v the only card left, 7n, was declined earlier (D1)
    let p = pos_turn(std4(), "5v 7n", Some("5v")).declined(0, "7n");
    let s = turn(p, Some("5v"));
    assert_eq!(fails(&s, eat("5v", "5v")), PredSet::of(&[Pred::E12]));
    // and a chíu that would leave no legal discard is refused too (§6.2)
    let p = pos_turn(std4(), "8s 8s 8s 7n", Some("8s")).declined(0, "7n");
    assert_eq!(
        fails(&turn(p, Some("8s")), Action::Chiu(c("8s"))),
        PredSet::of(&[Pred::ChiuLegal])
    );
}

#[test]
fn dstrict_only_with_the_strict_option() {
    let hand = "5v 5v 2n 7s";
    let s = turn(pos_turn(std4(), hand, None), None);
    assert_eq!(fails(&s, Action::Discard(c("5v"))), PredSet::EMPTY);
    let mut o = std4();
    o.chan_discard_rule = ChanDiscardRule::Strict;
    let s = turn(pos_turn(o, hand, None), None);
    assert_eq!(
        fails(&s, Action::Discard(c("5v"))),
        PredSet::of(&[Pred::Dstrict])
    );
    // §5.1 fallback: an Opening hand of nothing but chắn under Strict may throw anything
    let s = game(o)
        .position()
        .hand(0, "5v 5v 6n 6n")
        .at(Phase::Opening(0));
    let mut legal = arrayvec::ArrayVec::new();
    s.legal_actions(&mut legal);
    assert_eq!(
        legal.as_slice(),
        [Action::Discard(c("5v")), Action::Discard(c("6n"))]
    );
}

#[test]
fn non_predicate_reasons() {
    let s = turn(pos_turn(std4(), &with_fill("5v"), Some("5n")), Some("5n"));
    assert_eq!(fails(&s, eat("9n", "5n")), PredSet::of(&[Pred::NotInHand]));
    assert_eq!(fails(&s, eat("2v", "5n")), PredSet::of(&[Pred::EatKind]));
    assert_eq!(
        fails(&s, Action::EndHand),
        PredSet::of(&[Pred::StockNotEmpty])
    );
    assert_eq!(fails(&s, Action::PassDrawn), PredSet::of(&[Pred::Phase]));
    let s = game(std4())
        .position()
        .hand(0, "2v 3v")
        .at(Phase::Opening(0));
    assert_eq!(
        fails(&s, Action::DeclareThienU),
        PredSet::of(&[Pred::ThienU])
    );
}

// ---------------------------------------------------------------- §5.3 priority

#[test]
fn section_5_3_u_before_chiu_before_the_owner() {
    // seat 3 discards 5v to gate 0; seat 2 holds three 5v in a winning shape (a chíu ù)
    let w = "2v 2v 3v 3n 4v 4n 4n 4s 5v 5v 5v 6s 6s 7s 7s 8n 8s 9v 9n";
    let mut s = game(std4())
        .position()
        .hand(2, w)
        .hand(3, "5v 9s")
        .hand(0, "6v 7v")
        .stock("2s")
        .at(Phase::MustDiscard(3));
    s.apply(Action::Discard(c("5v")));
    assert_eq!(
        s.phase(),
        Phase::UWindow {
            seat: 2,
            resume: Resume::Turn
        }
    );
    s.apply(Action::Decline);
    assert_eq!(
        s.phase(),
        Phase::ChiuWindow {
            seat: 2,
            resume: Resume::Turn
        }
    );
    s.apply(Action::Chiu(c("5v")));
    assert_eq!(
        s.phase(),
        Phase::MustReturn {
            seat: 2,
            gate: 0,
            resume: Resume::Turn
        }
    );
    s.apply(Action::Discard(c("9n")));
    // the return lies at gate 0 and seat 0 resumes its turn with it
    assert_eq!(s.phase(), Phase::Turn(0));
    let live = s.live().unwrap();
    assert_eq!(
        (live.card, live.gate, live.origin, live.via),
        (c("9n"), 0, Origin::Return, Via::MustReturn)
    );
}

#[test]
fn section_5_3_u_claims_from_the_gate_owner_in_play_order() {
    let w = "2v 2v 2s 3v 3n 4v 4n 4n 4s 5s 5s 6v 6v 7s 7s 8n 8s 9v 9v"; // C2, wins on 2n
    let base = |owner_wins: bool| {
        let mut p = game(std4())
            .position()
            .hand(3, w)
            .hand(0, w)
            .stock("2n")
            .live("9s", 1, Origin::Discard, Via::Discard, Some(0));
        if owner_wins {
            p = p.hand(1, w);
        }
        let mut s = p.at(Phase::Turn(1));
        s.apply(Action::Draw);
        s
    };
    // seat 1 draws 2n: order 1, 2, 3, 0
    let mut s = base(false);
    assert!(matches!(s.phase(), Phase::UWindow { seat: 3, .. }));
    s.apply(Action::Decline);
    assert!(matches!(s.phase(), Phase::UWindow { seat: 0, .. }));
    s.apply(Action::Decline);
    assert_eq!(s.phase(), Phase::Drawn(1));
    // the gate owner is asked first
    assert!(matches!(base(true).phase(), Phase::UWindow { seat: 1, .. }));
}

#[test]
fn a_discard_never_completes_an_ordinary_u() {
    let mut s = game(std4())
        .position()
        .hand(0, C2)
        .hand(3, "2n 9s")
        .stock("2s")
        .at(Phase::MustDiscard(3));
    s.apply(Action::Discard(c("2n")));
    assert_eq!(s.phase(), Phase::Turn(0));
}

// ---------------------------------------------------------------- deal, Thiên ù, draw

/// A deck that deals `first_hand` (20 cards) to F = seat 0 of 4, the rest in canonical order.
fn deck_dealing(first_hand: &str) -> [Card; 100] {
    let mine = parse_cards(first_hand).unwrap();
    let mut rest = Hand::of(&Chan::fresh_deck());
    mine.iter().for_each(|&x| rest.remove(x));
    let mut others = rest.cards();
    let mut deck = [Card::default(); 100];
    let mut mi = mine.iter();
    for (k, slot) in deck.iter_mut().enumerate() {
        *slot = if (k < 76 && k % 4 == 0) || k == 76 {
            *mi.next().unwrap()
        } else {
            others.next().unwrap()
        };
    }
    deck
}

#[test]
fn thien_u_through_the_deal_and_only_for_the_first_player() {
    let g = game(std4());
    let mut s = g.deal_deck(&deck_dealing(C14), Setup::default());
    assert_eq!(s.seat(0).concealed, h(C14));
    assert_eq!((s.seat(1).concealed.len(), s.stock_len()), (19, 23));
    let mut legal = arrayvec::ArrayVec::new();
    s.legal_actions(&mut legal);
    assert_eq!(legal[0], Action::DeclareThienU);
    s.apply(Action::DeclareThienU);
    assert_eq!(factors(&s), ["ThienU"]);
    // a non-first player never has DeclareThienU
    let s = g.deal_deck(
        &deck_dealing(C14),
        Setup {
            first: 0,
            prev_winner: None,
        },
    );
    assert_eq!(s.to_move(), Some(0));
}

#[test]
fn the_stock_exhausted_draw() {
    let mut s = game(std4())
        .position()
        .hand(2, "2v 3v")
        .live("9s", 2, Origin::Discard, Via::Discard, Some(1))
        .at(Phase::Turn(2));
    let mut legal = arrayvec::ArrayVec::new();
    s.legal_actions(&mut legal);
    assert_eq!(legal.as_slice(), [Action::EndHand]);
    assert_eq!(s.explain(Action::Draw), PredSet::of(&[Pred::StockEmpty]));
    s.apply(Action::EndHand);
    let o = s.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason, o.payouts()),
        (None, "stock_empty", &[0i64; 4][..])
    );
    assert_eq!(s.to_move(), None);
}

// ---------------------------------------------------------------- §9 options

#[test]
fn option_players_sets_the_stock() {
    for n in 2..=5u8 {
        let g = Chan::standard(n).unwrap();
        let s = g.deal(&mut bailab::rng::stream_rng(1, 0, 0));
        assert_eq!(s.stock_len(), 100 - 19 * n as usize - 1);
        assert_eq!(s.seat(0).concealed.len() + 4 * s.seat(0).melds.len(), 20);
    }
    assert!(Chan::standard(6).is_err());
}

#[test]
fn option_first_player_after_draw() {
    let drawn = |o: Options| {
        let mut s = game(o)
            .position()
            .setup(Setup {
                first: 2,
                prev_winner: Some(1),
            })
            .live("9s", 2, Origin::Discard, Via::Discard, Some(1))
            .at(Phase::Turn(2));
        s.apply(Action::EndHand);
        game(o).next_setup(&s)
    };
    assert_eq!(
        drawn(std4()),
        Setup {
            first: 2,
            prev_winner: None
        }
    );
    let mut o = std4();
    o.first_player_after_draw = FirstAfterDraw::Next;
    assert_eq!(
        drawn(o),
        Setup {
            first: 3,
            prev_winner: None
        }
    );
    // after a win the winner is first and the previous winner
    let won = play_u(std4(), C2, &[], "2n", Src::Other, false);
    assert_eq!(
        game(std4()).next_setup(&won),
        Setup {
            first: 0,
            prev_winner: Some(0)
        }
    );
}

#[test]
fn option_auto_expose_thien_khai() {
    let hand = "2v 2v 2v 2v 3v 3n 3s 3s 4v 4n 4n 4s 5s 5s 6v 6v 7s 7s 8v 8n";
    let s = game(std4()).deal_deck(&deck_dealing(hand), Setup::default());
    assert_eq!(s.seat(0).melds.len(), 1);
    assert_eq!(s.seat(0).concealed.count(c("2v")), 0);
    assert!(<Chan as Records>::forced_event(&s.last_events()[0]).is_some());
    let mut o = std4();
    o.auto_expose_thien_khai = false;
    let s = game(o).deal_deck(&deck_dealing(hand), Setup::default());
    assert_eq!(
        (s.seat(0).melds.len(), s.seat(0).concealed.count(c("2v"))),
        (0, 4)
    );
}

#[test]
fn option_u_pass_forfeit() {
    // seat 1 draws 2n, seat 0 (C2) declines; seat 1 passes 2n on to gate 2, where seat 0 is
    // asked again unless declining forfeited its ù
    let run = |o: Options| {
        let mut s = game(o)
            .position()
            .hand(0, C2)
            .stock("2n 9s")
            .live("9s", 1, Origin::Discard, Via::Discard, Some(0))
            .at(Phase::Turn(1));
        s.apply(Action::Draw);
        assert!(matches!(s.phase(), Phase::UWindow { seat: 0, .. }));
        s.apply(Action::Decline);
        s.apply(Action::PassDrawn);
        s.phase()
    };
    assert!(matches!(run(std4()), Phase::UWindow { seat: 0, .. }));
    let mut o = std4();
    o.u_pass_forfeit = true;
    assert_eq!(run(o), Phase::Turn(2));
}

#[test]
fn option_chi_includes_passed_draw() {
    let run = |o: Options| {
        let mut s = game(o)
            .position()
            .hand(0, C2)
            .stock("2n")
            .live("9s", 3, Origin::Discard, Via::Discard, Some(2))
            .at(Phase::Turn(3));
        s.apply(Action::Draw);
        s.apply(Action::Decline); // seat 0 declines on seat 3's gate
        s.apply(Action::PassDrawn); // 2n passed to gate 0
        s.apply(Action::ClaimU(c("2n")));
        factors(&s)
    };
    assert_eq!(run(std4()), Vec::<&str>::new());
    let mut o = std4();
    o.chi_includes_passed_draw = true;
    assert_eq!(run(o), ["UChi"]);
}

#[test]
fn option_bach_thu_on_thien_u() {
    let six = "2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 2n 2s 3n 3s 4n 4s 5n 5s";
    assert_eq!(
        factors(&thien_u(std4(), six, None)),
        ["ThienU", "BachThu", "BachDinh"]
    );
    let mut o = std4();
    o.bach_thu_on_thien_u = false;
    assert_eq!(factors(&thien_u(o, six, None)), ["ThienU", "BachDinh"]);
}

#[test]
fn option_quad_factor_values() {
    let mut o = std4();
    o.quad_factor_values = (3, 1);
    let s = play_u(
        o,
        C12_CONCEALED,
        &[("ch", "ch", MeldSource::ThienKhai)],
        "6n",
        Src::Other,
        false,
    );
    assert_eq!(s.score().unwrap().points, 12 + 1 + 1);
}

#[test]
fn option_thien_u_values() {
    let mut o = std4();
    o.thien_u_values = (4, 1);
    assert_eq!(thien_u(o, C14, None).score().unwrap().points, 4);
}

#[test]
fn option_thap_thanh_rule() {
    let mut o = std4();
    o.thap_thanh_rule = ThapThanhRule::SumPointsOfColourFactors;
    let s = play_u(o, C13, &[], "9n", Src::W, false);
    // ThapThanh 12 + BachDinh 7 points; UChi and two Tôm by dịch 1 each
    assert_eq!(s.score().unwrap().points, 12 + 7 + 1 + 1 + 1);
}

#[test]
fn options_xuong_ga_and_stake() {
    let mut o = std4();
    o.xuong_points = 3;
    o.stake = 3;
    let s = play_u(o, C2, &[], "2n", Src::Other, false);
    assert_eq!(s.outcome().unwrap().payouts(), [27, -9, -9, -9]);
    let mut o = std4();
    o.ga_points = 0;
    let s = play_u(o, C4, &[], "6n", Src::W, false);
    assert_eq!((s.score().unwrap().ga, s.score().unwrap().s), (1, 5));
    assert_eq!(s.score().unwrap().count(Factor::BachThu), 1);
}

#[test]
fn options_round_trip_and_errors_name_the_key() {
    let mut o = Options::default_for(5);
    o.first_player_after_draw = FirstAfterDraw::Next;
    o.chan_discard_rule = ChanDiscardRule::Strict;
    o.quad_factor_values = (3, 1);
    o.thap_thanh_rule = ThapThanhRule::SumPointsOfColourFactors;
    o.stake = 7;
    for o in [std4(), o] {
        assert_eq!(Options::from_rules(&o.to_rules()).unwrap(), o);
        let g = Chan::build("standard", o.players as usize, &o.to_rules()).unwrap();
        assert_eq!(g.options(), &o);
    }
    let err = |k: &str, v: serde_json::Value| {
        let mut m = RuleMap::new();
        m.insert(k.into(), v);
        Options::from_rules(&m).unwrap_err().to_string()
    };
    assert!(err("bogus", 1.into()).contains("'bogus'"));
    assert!(err("stake", 0.into()).contains("'stake'"));
    assert!(err("stake", "x".into()).contains("'stake'"));
    assert!(err("players", 6.into()).contains("'players'"));
    assert!(err("chan_discard_rule", "Lax".into()).contains("'chan_discard_rule'"));
    assert!(err("quad_factor_values", serde_json::json!([5])).contains("'quad_factor_values'"));
    assert!(err("extra_factors", serde_json::json!(["DiaU"])).contains("'extra_factors'"));
    assert!(err("u_pass_forfeit", 1.into()).contains("'u_pass_forfeit'"));
    assert!(Chan::build("standard", 4, &RuleMap::new()).is_ok());
    assert!(Chan::build("other", 4, &RuleMap::new()).is_err());
}

// ---------------------------------------------------------------- notation

#[test]
fn notation_errors_name_token_and_position() {
    let e = parse_cards("2v 2n 10v").unwrap_err();
    assert_eq!((e.position, e.token.as_str()), (3, "10v"));
    assert!(e.to_string().starts_with("card 3 '10v'"));
    let e = parse_cards("4s 4s 4s 4s 4s").unwrap_err();
    assert!(e.to_string().contains("card 5 '4s'") && e.to_string().contains("copy 5"));
    assert_eq!(h("ch 9s 2v 3n 2v").to_string(), "2v 2v 3n 9s ch");
    let g = Chan::standard(4).unwrap();
    let full = bailab::games::chan::format_cards(Chan::fresh_deck());
    assert!(g.deal_recorded(&full, &RuleMap::new()).is_ok());
    let short = full.replacen("2v ", "", 1);
    assert!(g
        .deal_recorded(&short, &RuleMap::new())
        .unwrap_err()
        .to_string()
        .contains("first missing card is 2v"));
    assert!(g
        .deal_recorded("2v zz", &RuleMap::new())
        .unwrap_err()
        .to_string()
        .contains("card 2 'zz'"));
}

#[test]
fn the_analyser_reports_decomposition_waits_and_scores() {
    let opts = bailab::games::kind::AnalyzeOptions {
        variant: "standard".into(),
        ..Default::default()
    };
    let a = Chan::analyze(C4, &opts).unwrap();
    assert_eq!(a.json["chan"], 5);
    assert_eq!(a.json["ca"], 4);
    assert_eq!(a.json["lone"], serde_json::json!(["6n"]));
    assert_eq!(a.json["waiting"], true);
    let wins = a.json["wins"].as_array().unwrap();
    assert_eq!(wins.len(), 1);
    assert_eq!(wins[0]["card"], "6n");
    assert_eq!(wins[0]["factors"], serde_json::json!(["BachThu"]));
    assert!(a.text.contains("6n"));
    let t = Chan::analyze(C14, &opts).unwrap();
    assert_eq!(t.json["wins"][0]["factors"], serde_json::json!(["ThienU"]));
    let bad = bailab::games::kind::AnalyzeOptions {
        play: Some("2v".into()),
        ..opts.clone()
    };
    assert!(Chan::analyze(C4, &bad)
        .unwrap_err()
        .to_string()
        .contains("--play"));
    assert!(Chan::analyze("2v 2x", &opts)
        .unwrap_err()
        .to_string()
        .contains("card 2 '2x'"));
}
