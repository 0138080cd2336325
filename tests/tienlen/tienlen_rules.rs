//! The Tiến Lên rules against the worked examples of the rules reference `docs/games/tienlen.md`
//! (the vectors of §10 and the games of §7.7), the options of §8, generation against brute force
//! (perft) and the action-list capacity.

use bailab::games::tienlen::card::DECK_SIZE;
use bailab::games::tienlen::combo::heo_total;
use bailab::games::tienlen::moves::{beating, combinations, MAX_ACTIONS};
use bailab::games::tienlen::types::Rule;
use bailab::games::tienlen::{
    beats, chat_value, classify, is_chat, parse_cards, thoi, toi_trang, Action, Card, Cards, Combo,
    ComboType, Event, Options, Phase, QuadChops, Setup, TienLen, TienLenState, ToiTrang,
};
use bailab::rng::stream_rng;
use bailab::GameState;
use rand::Rng;
use std::collections::BTreeSet;

// ---------- helpers ----------

fn cards(s: &str) -> Cards {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn combo(s: &str) -> Combo {
    classify(cards(s)).unwrap_or_else(|| panic!("{s} is a combination"))
}

fn def() -> Options {
    Options::default_for(4)
}

/// Hàng value of a hand without its 2s (half-cược).
fn hang_value(h: Cards) -> u32 {
    thoi(h, &def()) - heo_total(h)
}

/// A deck giving each seat its listed cards, the rest dealt at random (seeded) so that no
/// completed hand meets a tới trắng condition or holds hàng its listed cards did not; the
/// remaining cards (N < 4) are set aside.
fn deck_from(hands: &[&str], dealer: u8) -> [Card; DECK_SIZE] {
    let n = hands.len();
    let given: Vec<Cards> = hands.iter().map(|s| cards(s)).collect();
    let used = given.iter().fold(Cards::EMPTY, |a, &b| {
        assert!(a.inter(b).is_empty(), "a card in two hands");
        a.union(b)
    });
    let mut rng = stream_rng(11, 22, 33);
    for _ in 0..10_000 {
        let mut free: Vec<Card> = Cards::ALL.minus(used).iter().collect();
        bailab::rng::shuffle(&mut free, &mut rng);
        let mut h = given.clone();
        for x in h.iter_mut() {
            while x.len() < 13 {
                *x = x.with(free.pop().unwrap());
            }
        }
        let ok = (0..n).all(|i| {
            given[i].len() == 13
                || (toi_trang(h[i], false, &def()).is_empty()
                    && hang_value(h[i]) == hang_value(given[i]))
        });
        if !ok {
            continue;
        }
        let mut deck = [Card::default(); DECK_SIZE];
        let mut lists: Vec<Vec<Card>> = h.iter().map(|x| x.iter().collect()).collect();
        for (k, slot) in deck.iter_mut().enumerate().take(13 * n) {
            *slot = lists[(dealer as usize + k) % n].remove(0);
        }
        free.sort();
        for (k, c) in free.into_iter().enumerate() {
            deck[13 * n + k] = c;
        }
        return deck;
    }
    panic!("no deck for {hands:?}");
}

fn normal(leader: u8) -> Setup {
    Setup {
        dealer: 0,
        initial: false,
        leader: Some(leader),
    }
}

fn deal(o: Options, hands: &[&str], setup: Setup) -> TienLenState {
    TienLen::new(o)
        .unwrap()
        .deal_deck(&deck_from(hands, setup.dealer), setup)
}

fn legal(s: &TienLenState) -> Vec<String> {
    let mut a = bailab::games::tienlen::Actions::new();
    s.legal_actions(&mut a);
    a.iter().map(|x| x.to_string()).collect()
}

/// Applies the legal action of `seat` whose text is `text`.
fn act(s: &mut TienLenState, seat: u8, text: &str) {
    assert_eq!(
        s.to_move(),
        Some(seat),
        "seat {seat} to move for `{text}`: {:?}",
        s.phase()
    );
    let mut a = bailab::games::tienlen::Actions::new();
    s.legal_actions(&mut a);
    let x = a
        .iter()
        .find(|x| x.to_string() == text)
        .unwrap_or_else(|| panic!("`{text}` is not legal for seat {seat}: {:?}", legal(s)));
    s.apply(*x);
}

/// Runs a script of `(seat, action)`; `decline`s of out-of-turn windows may be omitted: any
/// window before a scripted step is declined.
fn script(s: &mut TienLenState, steps: &[(u8, &str)]) {
    for &(seat, text) in steps {
        while matches!(s.phase(), Phase::OotWindow(q) if !(q == seat && text.starts_with("chop"))) {
            let q = s.to_move().unwrap();
            act(s, q, "decline");
        }
        act(s, seat, text);
    }
}

fn transfers(s: &TienLenState) -> Vec<(u8, u8, u32, &'static str)> {
    s.transfers()
        .iter()
        .map(|t| (t.from, t.to, t.amount, t.rule.id()))
        .collect()
}

fn payouts(s: &TienLenState) -> Vec<i64> {
    s.outcome().expect("game over").payouts().to_vec()
}

// ---------- §10.1 classification ----------

fn kind_of(v: &serde_json::Value) -> Option<ComboType> {
    let size = v["size"].as_u64().unwrap_or(0) as u8;
    Some(match v["type"].as_str()? {
        "Single" => ComboType::Single,
        "Pair" => ComboType::Pair,
        "Triple" => ComboType::Triple,
        "Quad" => ComboType::Quad,
        "Straight" => ComboType::Straight(size),
        "PairSequence" => ComboType::PairSequence(size),
        t => panic!("unknown type {t}"),
    })
}

fn vectors(name: &str) -> Vec<serde_json::Value> {
    let path = format!("{}/tests/data/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn classify_vectors_from_jsonl() {
    let v = vectors("tienlen-classify.jsonl");
    assert_eq!(v.len(), 22);
    for x in v {
        let got = classify(cards(x["cards"].as_str().unwrap()));
        assert_eq!(got.map(|c| c.kind), kind_of(&x), "{}", x["id"]);
        if let Some(c) = got {
            assert_eq!(c.top.to_string(), x["top"].as_str().unwrap(), "{}", x["id"]);
        }
    }
}

macro_rules! classify_tests {
    ($($name:ident: $cards:expr => $kind:expr, $top:expr;)*) => {$(
        #[test]
        fn $name() {
            let got = classify(cards($cards));
            let want: Option<(ComboType, &str)> = $kind.map(|k| (k, $top));
            assert_eq!(got.map(|c| (c.kind, c.top.to_string())), want.map(|(k, t)| (k, t.to_string())));
        }
    )*};
}

use ComboType::*;
classify_tests! {
    k01: "3s" => Some(Single), "3s";
    k02: "7c 7h" => Some(Pair), "7h";
    k03: "2s 2c 2h" => Some(Triple), "2h";
    k04: "9s 9c 9d 9h" => Some(Quad), "9h";
    k05: "3s 4h 5d" => Some(Straight(3)), "5d";
    k06: "Jh Qh Ks" => Some(Straight(3)), "Ks";
    k07: "Qs Ks As 2h" => None::<ComboType>, "";
    k08: "As 2s 3s" => None::<ComboType>, "";
    k09: "3s 3c 4d 4h 5s 5c" => Some(PairSequence(3)), "5c";
    k10: "Ts Tc Jh Jc Qs Qd" => Some(PairSequence(3)), "Qd";
    k11: "3s 3c 4d 4h 5s 5c 6d 6h" => Some(PairSequence(4)), "6h";
    k12: "Ks Kc As Ac 2s 2c" => None::<ComboType>, "";
    k13: "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As" => Some(Straight(12)), "As";
    k14: "3s 3c 3d 4s 4c" => None::<ComboType>, "";
    k15: "5s 5c 6d" => None::<ComboType>, "";
    k16: "4s 4c 5s 5c" => None::<ComboType>, "";
    k17: "7s 7c 7d 7h 8s" => None::<ComboType>, "";
    k18: "3s 5s 7s" => None::<ComboType>, "";
    k19: "3s 3c 5s 5c 6s 6c" => None::<ComboType>, "";
    k20: "3s 3c 4d 4h 5s 5c 6d 6h 7s 7c" => Some(PairSequence(5)), "7c";
    k21: "4s 4c 4d 5s 5c 5d" => None::<ComboType>, "";
    k22: "Js Jc Qs Qc Ks Kc As Ac" => Some(PairSequence(4)), "Ac";
}

// ---------- §10.2 beats ----------

#[test]
fn beats_vectors_from_jsonl() {
    let v = vectors("tienlen-beats.jsonl");
    assert_eq!(v.len(), 23);
    let o = def();
    for x in v {
        let (a, b) = (
            combo(x["a"].as_str().unwrap()),
            combo(x["b"].as_str().unwrap()),
        );
        assert_eq!(
            beats(&a, &b, &o),
            x["a_beats_b"].as_bool().unwrap(),
            "{}",
            x["id"]
        );
        assert_eq!(
            beats(&b, &a, &o),
            x["b_beats_a"].as_bool().unwrap(),
            "{}",
            x["id"]
        );
    }
}

macro_rules! beats_tests {
    ($($name:ident: $a:expr, $b:expr => $ab:expr, $ba:expr;)*) => {$(
        #[test]
        fn $name() {
            let (a, b, o) = (combo($a), combo($b), def());
            assert_eq!((beats(&a, &b, &o), beats(&b, &a, &o)), ($ab, $ba));
        }
    )*};
}

beats_tests! {
    b01: "2s", "Ah" => true, false;
    b02: "2h", "2d" => true, false;
    b03: "3s 3c 4d 4h 5s 5c", "2h" => true, false;
    b04: "3s 3c 4d 4h 5s 5c", "2s 2c" => false, false;
    b05: "9s 9c 9d 9h", "2s 2h" => true, false;
    b06: "9s 9c 9d 9h", "3s 3c 4d 4h 5s 5c" => true, false;
    b07: "Qs Qc Qd Qh", "4s 4c 4d 4h" => true, false;
    b08: "3s 3c 4d 4h 5s 5c 6d 6h", "Ks Kc Kd Kh" => true, false;
    b09: "7s 7h", "7c 7d" => true, false;
    b10: "Jh Qh Ks", "6h 7h 8h" => true, false;
    b11: "3s 4h 5d", "3d 4d 5s" => true, false;
    b12: "3s 4h 5d 6c", "4s 5s 6s" => false, false;
    b13: "9s 9c 9d 9h", "As" => false, false;
    b14: "Ts Tc Jh Jc Qs Qd", "8s 8c 9d 9h Td Th" => true, false;
    b15: "5s 5c 5d", "4s 4c 4d" => true, false;
    b16: "3s 3c 4d 4h 5s 5c 6d 6h 7s 7c", "2s 2c 2h" => true, false;
    b17: "Ts Tc Jh Jc Qs Qd Kh Kd", "9s 9c 9d 9h" => true, false;
    b18: "Ah", "Kh Kd" => false, false;
    b19: "Ts Tc Jh Jc Qs Qd", "3s 3c 4d 4h 5s 5c" => true, false;
    b20: "3s 3c 4d 4h 5s 5c", "9s 9c 9d 9h" => false, true;
    b21: "9s Th Jc Qd Kh As", "8c 9c Tc Jd Qc Kc" => true, false;
    b22: "2c 2h", "2s 2d" => true, false;
    b23: "2s 2c 2d 2h", "As Ac Ad Ah" => true, false;
}

#[test]
fn b04_with_ps3_chops_pair_of_twos() {
    let mut o = def();
    o.ps3_chops_pair_of_twos = true;
    assert!(beats(&combo("3s 3c 4d 4h 5s 5c"), &combo("2s 2c"), &o));
    assert!(!beats(&combo("2s 2c"), &combo("3s 3c 4d 4h 5s 5c"), &o));
}

#[test]
fn chat_and_chat_values_of_the_vectors() {
    let o = def();
    // (a, b, chặt?, value of b in half-cược)
    for (a, b, chat, value) in [
        ("3s 3c 4d 4h 5s 5c", "2h", true, 2),                   // B3: 1
        ("9s 9c 9d 9h", "2s 2h", true, 3),                      // B5: 1.5
        ("9s 9c 9d 9h", "3s 3c 4d 4h 5s 5c", true, 2),          // B6: 1
        ("Qs Qc Qd Qh", "4s 4c 4d 4h", true, 3),                // B7: 1.5
        ("3s 3c 4d 4h 5s 5c 6d 6h", "Ks Kc Kd Kh", true, 3),    // B8: 1.5
        ("3s 3c 4d 4h 5s 5c 6d 6h 7s 7c", "2s 2c 2h", true, 4), // B16: 2
        ("Ts Tc Jh Jc Qs Qd", "3s 3c 4d 4h 5s 5c", true, 2),    // B19: 1
        ("2s", "Ah", false, 0),
        ("2h", "2d", false, 2),
    ] {
        let (a, b) = (combo(a), combo(b));
        assert!(beats(&a, &b, &o));
        assert_eq!(is_chat(&a, &b, &o), chat, "{a} on {b}");
        assert_eq!(chat_value(&b, &o), value, "{b}");
    }
    // PS4 = 2, PS5 = ps5_value, four 2s = 3 cược
    assert_eq!(chat_value(&combo("3s 3c 4d 4h 5s 5c 6d 6h"), &o), 4);
    assert_eq!(chat_value(&combo("3s 3c 4d 4h 5s 5c 6d 6h 7s 7c"), &o), 4);
    assert_eq!(chat_value(&combo("2s 2c 2d 2h"), &o), 6);
}

// ---------- §10.4 thối ----------

#[test]
fn thoi_vectors_h1_to_h7() {
    let o = def();
    for (id, hand, half) in [
        ("H1", "3s 3c 4d 4h 5s 5c 2h", 4),
        ("H2", "4s 4c 5s 5c 5d 5h 6d 6h 2c", 4),
        ("H3", "3c 5s 5c 5d 5h 9c 9d Ts Th Jc Jd 2s 2h", 8),
        ("H4", "2s 2c 2d 2h", 6),
        ("H5", "7s 7c 8d 8h 9s 9c Ts Tc Js Jc", 4),
        ("H6", "3s 3c 4s 4c 5d 5h 6d 6h 7s 7c 8s 8c", 4),
        ("H7", "Kh", 0),
    ] {
        assert_eq!(thoi(cards(hand), &o), half, "{id}");
    }
    // the maximum matters: with PS5 worth 0.5, H6 splits 3 + 3 (2 cược), H5 keeps PS3 (1)
    let mut o = def();
    o.ps5_value = 1;
    assert_eq!(thoi(cards("3s 3c 4s 4c 5d 5h 6d 6h 7s 7c 8s 8c"), &o), 4);
    assert_eq!(thoi(cards("7s 7c 8d 8h 9s 9c Ts Tc Js Jc"), &o), 4); // PS4 + a pair
}

// ---------- §10.5 tới trắng ----------

#[test]
fn toi_trang_vectors_w1_to_w11() {
    let o = def();
    use ToiTrang::*;
    for (id, hand, initial, want) in [
        (
            "W1",
            "3s 3c 4s 5d 5h 7s 7c 9d 9h Js Jc Kd Kh",
            false,
            vec![SauDoi],
        ),
        (
            "W2",
            "3c 4d 5h 6s 7s 8d 9c Th Js Qd Kc As 2h",
            false,
            vec![SanhRong],
        ),
        (
            "W3",
            "3s 3c 4d 4h 5s 5c 7c 9d Jh Qs Kd Ac 2h",
            true,
            vec![BaDoiThongCo3Bich],
        ),
        (
            "W4",
            "3s 3c 4d 4h 5s 5c 7c 9d Jh Qs Kd Ac 2h",
            false,
            vec![],
        ),
        (
            "W5",
            "5s 6c 7d 8h 9s Tc Jd Qh Kc 2s 2c 2d 2h",
            false,
            vec![TuQuyHeo],
        ),
        (
            "W6",
            "3d 4d 5d 6h 7h 8h 9d Td Jh Qh Kd Ah 2s",
            false,
            vec![SanhRong, DongMau],
        ),
        (
            "W7",
            "3h 5s 5c 5d 6s 6c 6d 9c 9d 9h Ks Kc Kd",
            false,
            vec![BonSam],
        ),
        (
            "W8",
            "3s 3c 3d 3h 7s 7c 7d 7h 8d 9d Tc Jh Qs",
            false,
            vec![HaiTuQuy],
        ),
        (
            "W9",
            "3s 3c 3d 3h 7s 7c 7d 7h 8d 9d Tc Jh Qs",
            true,
            vec![TuQuy3],
        ),
        (
            "W10",
            "6s 6c 7d 7h 8s 8c 9d 9h Ts Tc Kd Ah 2h",
            false,
            vec![NamDoiThong],
        ),
        (
            "W11",
            "5s 6c 7d 8h 9s Tc Jd Qh Kc 2s 2c 2d 2h",
            true,
            vec![],
        ),
    ] {
        let got: Vec<ToiTrang> = toi_trang(cards(hand), initial, &o).iter().collect();
        assert_eq!(got, want, "{id}");
    }
}

#[test]
fn toi_trang_priority_is_nearest_to_the_leader() {
    let six_pairs_b = "3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh As";
    let six_pairs_d = "4s 4c 6d 6h 8s 8c Td Th Qs Qc Ad Ah 2s";
    for (leader, winner) in [(2u8, 3u8), (0, 1), (1, 1), (3, 3)] {
        let s = deal(def(), &["", six_pairs_b, "", six_pairs_d], normal(leader));
        assert_eq!(s.toi_trang().map(|t| t.0), Some(winner), "leader {leader}");
        assert_eq!(s.outcome().unwrap().reason, "toi_trang");
        let places = s.outcome().unwrap().places;
        assert_eq!(places[winner as usize], 1);
        assert_eq!(places[..4].iter().filter(|&&p| p > 0).count(), 1);
    }
}

// ---------- §10.3 legality in context ----------

#[test]
fn l1_l2_first_play_must_contain_3s() {
    let mut s = deal(
        def(),
        &["", "3s 4c 4d 4h 5h 7s 8c 9d Th Qs Kc Ad 2h", "", ""],
        Setup::FIRST,
    );
    assert_eq!(s.leader(), 1);
    let l = legal(&s);
    assert!(!l.contains(&"play 4c 4h".to_string()), "L1");
    assert!(l.contains(&"play 3s 4d 5h".to_string()), "L2");
    assert!(l.iter().all(|a| a.starts_with("play ") && a.contains("3s")));
    act(&mut s, 1, "play 3s 4d 5h");
    // once played, the constraint is gone
    assert!(s.required().is_none());
}

#[test]
fn first_play_without_3s_uses_the_lowest_dealt_card() {
    // 3 players: the 13 cards 3s..6s set aside (deck tail), so 6c is the lowest dealt card
    let mut deck = TienLen::fresh_deck();
    deck.rotate_left(13);
    let s = TienLen::standard(3).unwrap().deal_deck(&deck, Setup::FIRST);
    assert_eq!(s.required().map(|c| c.to_string()), Some("6c".into()));
    assert!(s.hand(s.leader()).contains("6c".parse().unwrap()));
    assert!(legal(&s).iter().all(|a| a.contains("6c")));
}

#[test]
fn l3_passed_player_is_polled_for_an_out_of_turn_chop() {
    let mut s = deal(
        def(),
        &["2s 2c", "3s 3c", "", "5s 5c 6d 6h 7s 7c 8d 8h"],
        normal(1),
    );
    script(
        &mut s,
        &[
            (1, "play 3s 3c"),
            (2, "pass"),
            (3, "pass"),
            (0, "play 2s 2c"),
        ],
    );
    assert_eq!(s.phase(), Phase::OotWindow(3), "L3: D is polled");
    let l = legal(&s);
    assert_eq!(l.last().map(String::as_str), Some("decline"));
    assert!(l.contains(&"chop 5s 5c 6d 6h 7s 7c 8d 8h".to_string()));
    act(&mut s, 3, "chop 5s 5c 6d 6h 7s 7c 8d 8h");
    assert_eq!(s.top().map(|t| t.1), Some(3));
}

fn never_asked(d_cards: &str) {
    let mut s = deal(def(), &["2h", "3s", "", d_cards], normal(1));
    script(
        &mut s,
        &[(1, "play 3s"), (2, "pass"), (3, "pass"), (0, "play 2h")],
    );
    // B passes; D (passed, PS3 / quad) is never asked; A leads the next trick
    script(&mut s, &[(1, "pass")]);
    assert_eq!(s.phase(), Phase::Lead(0));
}

#[test]
fn l4_passed_player_with_ps3_is_not_asked() {
    never_asked("5s 5c 6d 6h 7s 7c");
}

#[test]
fn l5_passed_player_with_quad_is_not_asked() {
    never_asked("9s 9c 9d 9h");
}

#[test]
fn l6_no_pass_on_a_lead() {
    let s = deal(def(), &["", "", "", ""], normal(0));
    assert_eq!(s.phase(), Phase::Lead(0));
    assert!(!legal(&s).contains(&"pass".to_string()));
}

#[test]
fn l7_higher_single_in_turn() {
    let mut s = deal(def(), &["Ks", "Ah", "", ""], normal(0));
    act(&mut s, 0, "play Ks");
    assert_eq!(s.phase(), Phase::Respond(1));
    assert!(legal(&s).contains(&"play Ah".to_string()));
}

/// A holds a sảnh rồng and 2h (tới trắng lists off so the game is played).
fn only_two_left(forbid: bool) -> TienLenState {
    let mut o = def();
    o.toi_trang_lists = bailab::games::tienlen::ToiTrangSet::EMPTY;
    o.forbid_finish_on_two = forbid;
    let mut s = deal(
        o,
        &["3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah 2h", "", "", ""],
        normal(0),
    );
    script(
        &mut s,
        &[
            (0, "play 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah"),
            (1, "pass"),
            (2, "pass"),
            (3, "pass"),
        ],
    );
    s
}

#[test]
fn l8_forbid_finish_on_two() {
    // default: A leads his last card, a 2, and finishes
    let s = only_two_left(false);
    assert_eq!(legal(&s), vec!["play 2h".to_string()]);
    // forbid_finish_on_two: no lead is legal, A leaves play at once, last place (v2)
    let s = only_two_left(true);
    assert_eq!(s.phase(), Phase::Lead(1));
    assert_eq!(s.places()[0], 4);
    assert!(s
        .last_events()
        .iter()
        .any(|e| e.forced_by() == Some(Rule::LeaveOnTwo)));
}

#[test]
fn forbid_finish_on_two_also_bars_a_response_and_leaver_pays_thoi() {
    let mut o = def();
    o.toi_trang_lists = bailab::games::tienlen::ToiTrangSet::EMPTY;
    o.forbid_finish_on_two = true;
    // B holds 3c..Ac (12) + 2d; A leads 3s..; B responds with a higher dragon, then holds 2d only
    let mut s = deal(
        o,
        &[
            "3s 4d 5s 6d 7s 8d 9s Td Js Qd Ks Ad 2c",
            "3c 4h 5c 6h 7c 8h 9c Th Jc Qh Kc Ah 2d",
            "",
            "",
        ],
        normal(0),
    );
    script(
        &mut s,
        &[
            (0, "play 3s 4d 5s 6d 7s 8d 9s Td Js Qd Ks Ad"),
            (1, "play 3c 4h 5c 6h 7c 8h 9c Th Jc Qh Kc Ah"),
            (2, "pass"),
            (3, "pass"),
        ],
    );
    // A's response with his last card 2c would finish on a 2: only Pass
    assert_eq!(s.phase(), Phase::Respond(0));
    assert_eq!(legal(&s), vec!["pass".to_string()]);
    act(&mut s, 0, "pass");
    // B leads with only 2d: he leaves (place 4); the lead goes to C
    assert_eq!(s.places()[1], 4);
    assert_eq!(s.phase(), Phase::Lead(2));
    // play on (first legal action) to the end: B pays thối on his 2d (1 cược) to place 3
    let mut list = bailab::games::tienlen::Actions::new();
    while s.to_move().is_some() {
        s.legal_actions(&mut list);
        s.apply(list[0]);
    }
    let third = s.places().iter().position(|&p| p == 3).unwrap() as u8;
    assert!(
        transfers(&s).contains(&(1, third, 2, "4.3-LeaveThoi")),
        "{:?}",
        transfers(&s)
    );
    // the leaver is last (place 4): the last seat in play (3rd) pays no §7.3 thối
    assert!(
        transfers(&s).iter().all(|t| t.3 != "7.3-Thoi"),
        "{:?}",
        transfers(&s)
    );
    assert_eq!(s.outcome().unwrap().payouts().iter().sum::<i64>(), 0);
}

/// The hands of the §7.3 leaver case (3 players, seat 0 dealer; `first` play at every turn).
const LEAVER_HANDS: [&str; 3] = [
    "Qs 6d 6h 4h 7c 6s Jc Ks Tc Kd 3s 6c 5h",
    "2h 2d 5c 9c As Kc Ad 9s Qc Ts Jd Td 4d",
    "8h 4s Ac 5s Qd 8d 9h 7s 8c 8s Js 2c 3h",
];

#[test]
fn only_the_last_placed_pays_thoi_when_a_leaver_is_last() {
    // §7.3 with §4.3 v2: seat 1 leaves on a 2 and takes place 3; seat 0, the last seat in play,
    // is 2nd and pays no thối (it used to pay seat 2 a 7.3-Thoi of 1.5 cược: [-1, -6, +7])
    let mut o = Options::default_for(3);
    o.forbid_finish_on_two = true;
    let mut s = TienLen::new(o)
        .unwrap()
        .deal_deck(&deck_from(&LEAVER_HANDS, 0), Setup::FIRST);
    let mut list = bailab::games::tienlen::Actions::new();
    while s.to_move().is_some() {
        s.legal_actions(&mut list);
        s.apply(list[0]);
    }
    assert_eq!(&s.places()[..3], &[2, 3, 1]);
    assert_eq!(s.leavers(), &[1]);
    let t = transfers(&s);
    assert!(t.iter().all(|x| x.3 != "7.3-Thoi"), "{t:?}");
    assert_eq!(payouts(&s)[..3], [2, -6, 4], "{t:?}");
}

// ---------- §7.7 payment examples ----------

const EX1_HANDS: [&str; 4] = [
    "9h Th Jh Qh Kh Ah 3h 4c 5h 6h 7h 7d Kc",
    "3d 4s 5d 6s 7s 8s 9s Ts Js Qs Ks 6c 6d",
    "3s 3c 4d 4h 5s 5c 2h 7c 8c 9c Tc Jc Qc",
    "8d 9d Td Jd Qd Kd Ac Ad 8h As 2s 2c 2d",
];

const EX1_STEPS: [(u8, &str); 28] = [
    (1, "play 3d 4s 5d 6s 7s 8s"),
    (2, "play 7c 8c 9c Tc Jc Qc"),
    (3, "play 8d 9d Td Jd Qd Kd"),
    (0, "play 9h Th Jh Qh Kh Ah"),
    (1, "pass"),
    (2, "pass"),
    (3, "pass"),
    (0, "play 3h 4c 5h 6h 7h"),
    (1, "play 9s Ts Js Qs Ks"),
    (2, "pass"),
    (3, "pass"),
    (0, "pass"),
    (1, "play 6c 6d"),
    (2, "pass"),
    (3, "play Ac Ad"),
    (0, "pass"),
    (3, "play 2s 2c 2d"),
    (0, "pass"),
    (2, "pass"),
    (3, "play 8h"),
    (0, "pass"),
    (2, "pass"),
    (3, "play As"),
    (0, "pass"),
    (2, "pass"),
    (0, "play 7d"),
    (2, "pass"),
    (0, "play Kc"),
];

#[test]
fn example_1_plain_game_with_thoi() {
    let mut s = deal(def(), &EX1_HANDS, normal(1));
    script(&mut s, &EX1_STEPS);
    assert_eq!(s.hand(2), cards("3s 3c 4d 4h 5s 5c 2h"));
    assert_eq!(s.places(), &[3, 1, 4, 2]);
    // C→B 1, A→D ½, C→A 2 (thối)
    assert_eq!(
        transfers(&s),
        vec![
            (2, 1, 2, "7.2-PlaceStake"),
            (0, 3, 1, "7.2-PlaceStake"),
            (2, 0, 4, "7.3-Thoi")
        ]
    );
    assert_eq!(payouts(&s), vec![3, 2, -6, 1]);
    assert_eq!(s.outcome().unwrap().winner, Some(1));
}

/// Examples 2 and 3: A leads 2h, B chops with PS3, C with a quad.
fn chain_deal() -> TienLenState {
    deal(
        def(),
        &[
            "2h",
            "3s 3c 4d 4h 5s 5c",
            "7s 7c 7d 7h",
            "9s 9c Td Th Js Jc Qd Qh",
        ],
        normal(0),
    )
}

#[test]
fn example_2_chat_chong() {
    let mut s = chain_deal();
    script(
        &mut s,
        &[
            (0, "play 2h"),
            (1, "play 3s 3c 4d 4h 5s 5c"),
            (2, "play 7s 7c 7d 7h"),
            (3, "pass"),
            (0, "pass"),
            (1, "pass"),
        ],
    );
    // D's last window before the trick closes: declined too
    act(&mut s, 3, "decline");
    assert_eq!(s.phase(), Phase::Lead(2));
    assert_eq!(s.chain().links, 0);
    assert_eq!(transfers(&s), vec![(1, 2, 4, "7.4-Chat")]); // B pays C 2
}

#[test]
fn example_3_chain_extended_out_of_turn() {
    let mut s = chain_deal();
    script(
        &mut s,
        &[
            (0, "play 2h"),
            (1, "play 3s 3c 4d 4h 5s 5c"),
            (2, "play 7s 7c 7d 7h"),
            (3, "pass"),
            (0, "pass"),
            (1, "pass"),
            (3, "chop 9s 9c Td Th Js Jc Qd Qh"),
            (2, "pass"),
        ],
    );
    assert_eq!(s.phase(), Phase::Lead(3));
    assert_eq!(transfers(&s), vec![(2, 3, 7, "7.4-Chat")]); // C pays D 3.5
}

#[test]
fn example_4_void_chain() {
    let hands = [
        "2h",
        "8d 9d Td Jd Qd Kd Ad 3s 3c 4d 4h 5s 5c",
        "8h 9h Th Jh Qh Kh Ah 3h 7s 7c 7d 7h",
        "6s",
    ];
    let mut s = deal(def(), &hands, normal(1));
    script(
        &mut s,
        &[
            (1, "play 8d 9d Td Jd Qd Kd Ad"),
            (2, "play 8h 9h Th Jh Qh Kh Ah"),
            (3, "pass"),
            (0, "pass"),
            (1, "pass"),
            (2, "play 3h"),
            (3, "play 6s"),
            (0, "play 2h"),
            (1, "play 3s 3c 4d 4h 5s 5c"),
            (2, "play 7s 7c 7d 7h"),
            (3, "pass"),
            (0, "pass"),
        ],
    );
    assert_eq!(s.places()[1], 1, "B went out with the chopped PS3");
    assert_eq!(s.cong(), 0);
    assert!(s
        .last_events()
        .iter()
        .any(|e| matches!(e, Event::VoidChain { victim: 1 })));
    assert!(transfers(&s).is_empty(), "no chặt payment");
    assert_eq!(s.phase(), Phase::Lead(2));
}

#[test]
fn example_5_cong_1_nha() {
    let hands = [
        "3s 2h 3h 4s 5h 6s 7h 8s Ts Jh Qs Kd As",
        "5c Tc Js Qc Kc Ac 3d 4d 5d 6d 7d 8h 2c",
        "6c",
        "4c 6h 8d 9s 9c 9d 9h Jc Qd Kh Ah 2s 2d",
    ];
    let mut s = deal(def(), &hands, normal(0));
    assert_eq!(thoi(s.hand(3), &def()), 6, "D's thối is 3 cược");
    script(
        &mut s,
        &[
            (0, "play 3s"),
            (1, "play 5c"),
            (2, "play 6c"),
            (3, "pass"),
            (0, "play 2h"),
            (1, "pass"),
            (2, "pass"), // D passed in this trick: A leads
            (0, "play 3h 4s 5h 6s 7h 8s"),
            (1, "pass"),
            (2, "pass"),
            (3, "pass"),
            (0, "play Ts Jh Qs Kd As"),
        ],
    );
    assert_eq!(s.cong(), 1 << 3);
    assert_eq!(s.places()[3], 4);
    script(
        &mut s,
        &[
            (1, "play Tc Js Qc Kc Ac"),
            (2, "pass"),
            (1, "play 3d 4d 5d 6d 7d 8h"),
            (2, "pass"),
            (1, "play 2c"),
        ],
    );
    assert_eq!(s.places(), &[1, 2, 3, 4]);
    // C→B ½ (stake), D→A 2 + 3 (cóng); no thối
    assert_eq!(
        transfers(&s),
        vec![(2, 1, 1, "7.2-PlaceStake"), (3, 0, 10, "7.5-Cong")]
    );
    assert_eq!(payouts(&s), vec![10, 1, -1, -10]);
    assert_eq!(s.outcome().unwrap().reason, "cong");
}

#[test]
fn example_6_cong_2_nha() {
    let hands = [
        "3s 2s 3c 4h 5s 6h 7s 8h 9s Th Js Qh Ks",
        "4s 2c 2d",
        "",
        "2h",
    ];
    let mut s = deal(def(), &hands, normal(0));
    assert_eq!(thoi(s.hand(2), &def()), 0);
    assert_eq!(thoi(s.hand(3), &def()), 2);
    script(
        &mut s,
        &[
            (0, "play 3s"),
            (1, "play 4s"),
            (2, "pass"),
            (3, "pass"),
            (0, "play 2s"),
            (1, "pass"), // C and D passed in this trick: A leads
            (0, "play 3c 4h 5s 6h 7s 8h 9s Th Js Qh Ks"),
        ],
    );
    assert_eq!(s.places(), &[1, 2, 3, 4]);
    assert_eq!(
        transfers(&s),
        vec![(2, 0, 4, "7.5-Cong"), (3, 0, 6, "7.5-Cong")]
    );
    assert_eq!(payouts(&s), vec![10, 0, -4, -6]);
}

#[test]
fn example_7_cong_3_nha_with_den() {
    let hands = ["3s 4s 5h 6s 7h 8s 9h Ts Jh Qs 2c 2d 2h", "", "2s", ""];
    let game = TienLen::standard(4).unwrap();
    let mut s = deal(def(), &hands, normal(0));
    let o = def();
    assert_eq!(
        (
            thoi(s.hand(1), &o),
            thoi(s.hand(2), &o),
            thoi(s.hand(3), &o)
        ),
        (0, 1, 0)
    );
    script(
        &mut s,
        &[
            (0, "play 3s"),
            (1, "pass"), // B holds higher singles: a pass with a legal play
            (2, "pass"),
            (3, "pass"),
            (0, "play 4s 5h 6s 7h 8s 9h Ts Jh Qs"),
            (1, "pass"),
            (2, "pass"),
            (3, "pass"),
            (0, "play 2c 2d 2h"),
        ],
    );
    assert_eq!(s.den_player(), Some(1));
    assert_eq!(transfers(&s), vec![(1, 0, 13, "6.4-Den")]); // 2 + 2.5 + 2 = 6.5
    assert_eq!(payouts(&s), vec![13, -13, 0, 0]);
    assert_eq!(s.outcome().unwrap().penalized, Some(1));
    // B leads the next game
    let next = game.next_setup(&s);
    assert_eq!(
        (next.leader, next.initial, next.dealer),
        (Some(1), false, 1)
    );
    // without đền each cóng seat pays for itself
    let mut o = def();
    o.cong_den_enabled = false;
    let mut s = deal(o, &hands, normal(0));
    script(
        &mut s,
        &[
            (0, "play 3s"),
            (1, "pass"),
            (2, "pass"),
            (3, "pass"),
            (0, "play 4s 5h 6s 7h 8s 9h Ts Jh Qs"),
            (1, "pass"),
            (2, "pass"),
            (3, "pass"),
            (0, "play 2c 2d 2h"),
        ],
    );
    assert_eq!(payouts(&s), vec![13, -4, -5, -4]);
}

#[test]
fn example_8_toi_trang() {
    let s = deal(
        def(),
        &["", "", "3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh As", ""],
        normal(0),
    );
    assert_eq!(s.toi_trang(), Some((2, ToiTrang::SauDoi)));
    assert!(s
        .last_events()
        .iter()
        .any(|e| e.forced_by() == Some(Rule::ToiTrang(ToiTrang::SauDoi))));
    assert_eq!(payouts(&s), vec![-4, -4, 12, -4]);
    assert_eq!(s.outcome().unwrap().places[..4], [0, 0, 1, 0]);
    // the next game is an initial game
    let next = TienLen::standard(4).unwrap().next_setup(&s);
    assert!(next.initial);
}

// ---------- options (§8) ----------

#[test]
fn option_toi_trang_pay_and_dem_heo() {
    let hands = ["2s", "2h", "3s 3c 5d 5h 7s 7c 9d 9h Js Jc Kd Kh As", ""];
    let mut o = def();
    o.toi_trang_pay = 3;
    o.toi_trang_dem_heo = true;
    let s = deal(o, &hands, normal(0));
    let t = |seat: u8| thoi(s.hand(seat), &o) as i64;
    let p = payouts(&s);
    assert_eq!(p[0], -3 - t(0));
    assert_eq!(p[1], -3 - t(1));
    assert_eq!(p[3], -3 - t(3));
}

#[test]
fn option_toi_trang_lists_and_initial_general_list() {
    let hand = "5s 6c 7d 8h 9s Tc Jd Qh Kc 2s 2c 2d 2h"; // W5/W11
    let mut o = def();
    assert!(toi_trang(cards(hand), true, &o).is_empty());
    o.initial_game_also_general_list = true;
    assert!(toi_trang(cards(hand), true, &o).contains(ToiTrang::TuQuyHeo));
    o.toi_trang_lists = bailab::games::tienlen::ToiTrangSet::EMPTY.with(ToiTrang::SauDoi);
    assert!(toi_trang(cards(hand), false, &o).is_empty());
}

#[test]
fn option_quad_chops() {
    let q = combo("9s 9c 9d 9h");
    let (single, pair, ps3) = (combo("2h"), combo("2s 2c"), combo("3s 3c 4d 4h 5s 5c"));
    for (mode, s, p) in [
        (QuadChops::SingleAndPair, true, true),
        (QuadChops::PairOnly, false, true),
        (QuadChops::SingleOnly, true, false),
    ] {
        let mut o = def();
        o.quad_chops = mode;
        assert_eq!(
            (beats(&q, &single, &o), beats(&q, &pair, &o)),
            (s, p),
            "{mode:?}"
        );
        assert!(beats(&q, &ps3, &o), "v2: a quad still chops any PS3");
    }
}

#[test]
fn option_ps5_powers_and_value() {
    let ps5 = combo("3s 3c 4d 4h 5s 5c 6d 6h 7s 7c");
    let mut o = def();
    assert!(beats(&ps5, &combo("2s 2c 2h"), &o));
    assert!(beats(&ps5, &combo("Ks Kc Kd Kh"), &o));
    assert!(beats(
        &combo("3s 3c 4d 4h 5s 5c 6d 6h 7s 7c 8s 8c"),
        &ps5,
        &o
    ));
    o.ps5_powers = false;
    assert!(!beats(&ps5, &combo("2s 2c 2h"), &o));
    assert!(!beats(&ps5, &combo("2h"), &o));
    assert!(beats(&combo("4s 4c 5d 5h 6s 6c 7d 7h 8s 8c"), &ps5, &o));
    o.ps5_value = 5;
    assert_eq!(chat_value(&ps5, &o), 5);
}

#[test]
fn option_same_type_hang_beat_is_chat() {
    let (a, b) = (combo("Qs Qc Qd Qh"), combo("4s 4c 4d 4h"));
    let mut o = def();
    assert!(is_chat(&a, &b, &o));
    o.same_type_hang_beat_is_chat = false;
    assert!(!is_chat(&a, &b, &o));
    assert!(is_chat(&combo("3s 3c 4d 4h 5s 5c 6d 6h"), &b, &o));
}

#[test]
fn option_oot_chop_min_pairs() {
    for (min, polled) in [(Some(4), true), (Some(5), false), (None, false)] {
        let mut o = def();
        o.oot_chop_min_pairs = min;
        let mut s = deal(
            o,
            &["2s 2c", "3s 3c", "", "5s 5c 6d 6h 7s 7c 8d 8h"],
            normal(1),
        );
        script(
            &mut s,
            &[
                (1, "play 3s 3c"),
                (2, "pass"),
                (3, "pass"),
                (0, "play 2s 2c"),
            ],
        );
        assert_eq!(s.phase() == Phase::OotWindow(3), polled, "{min:?}");
    }
}

#[test]
fn option_passed_player_may_chop_in_turn() {
    let hands = ["2h", "3s", "", "9s 9c 9d 9h"];
    let steps = [
        (1u8, "play 3s"),
        (2, "pass"),
        (3, "pass"),
        (0, "play 2h"),
        (1, "pass"),
    ];
    let mut o = def();
    o.passed_player_may_chop_in_turn = true;
    let mut s = deal(o, &hands, normal(1));
    script(&mut s, &steps);
    // D passed earlier but holds a quad that chops the 2: asked in turn, only the chặt and Pass
    assert_eq!(s.phase(), Phase::Respond(3));
    assert_eq!(
        legal(&s),
        vec!["play 9s 9c 9d 9h".to_string(), "pass".to_string()]
    );
    act(&mut s, 3, "pass");
    assert_eq!(s.phase(), Phase::Lead(0), "a second pass drops him out");
    // default: never asked (L5)
    let mut s = deal(def(), &hands, normal(1));
    script(&mut s, &steps);
    assert_eq!(s.phase(), Phase::Lead(0));
}

#[test]
fn option_place_stakes_and_cong_pay() {
    let mut r = def().to_rules();
    r.insert(
        "place_stakes".into(),
        serde_json::json!({"4": [[4, 1, 1], [3, 1, 1], [2, 1, 1]]}),
    );
    r.insert("cong_pay".into(), serde_json::json!(1.5));
    let o = Options::from_rules(&r).unwrap();
    assert_eq!(o.cong_pay, 3);
    assert_eq!(o.stakes().len(), 3);
    // example 6's game under "all losers pay first" 1 cược each, cóng worth 1.5
    let hands = [
        "3s 2s 3c 4h 5s 6h 7s 8h 9s Th Js Qh Ks",
        "4s 2c 2d",
        "",
        "2h",
    ];
    let mut s = deal(o, &hands, normal(0));
    script(
        &mut s,
        &[
            (0, "play 3s"),
            (1, "play 4s"),
            (2, "pass"),
            (3, "pass"),
            (0, "play 2s"),
            (1, "pass"), // C and D passed in this trick: A leads
            (0, "play 3c 4h 5s 6h 7s 8h 9s Th Js Qh Ks"),
        ],
    );
    // B (2nd, not cóng) pays A 1; C and D pay 1.5 + thối instead of their stakes
    assert_eq!(
        transfers(&s),
        vec![
            (1, 0, 2, "7.2-PlaceStake"),
            (2, 0, 3, "7.5-Cong"),
            (3, 0, 5, "7.5-Cong")
        ]
    );
}

#[test]
fn option_huong_sai_next_active_after_finisher() {
    // example 1: D goes out with As, A and C pass: the lead passes to A, the first active seat
    // after D (§4.3.5, T14)
    let mut s = deal(def(), &EX1_HANDS, normal(1));
    script(&mut s, &EX1_STEPS[..25]);
    assert_eq!(EX1_STEPS[22], (3, "play As"));
    assert!(s.last_events().iter().any(|e| matches!(
        e,
        Event::TrickEnd {
            leader: 0,
            rule: Rule::HuongSai
        }
    )));
    assert_eq!(s.phase(), Phase::Lead(0));
}

// ---------- rules map ----------

#[test]
fn rules_round_trip_and_bad_values_are_named() {
    for n in 2..=4 {
        let o = Options::default_for(n);
        assert_eq!(Options::from_rules(&o.to_rules()), Ok(o));
    }
    let mut o = Options::default_for(3);
    o.quad_chops = QuadChops::PairOnly;
    o.oot_chop_min_pairs = None;
    o.ps5_value = 3;
    o.toi_trang_lists = bailab::games::tienlen::ToiTrangSet::INITIAL;
    assert_eq!(Options::from_rules(&o.to_rules()), Ok(o));
    assert_eq!(o.to_rules()["ps5_value"], serde_json::json!(1.5));
    for (k, v, needle) in [
        ("colour", serde_json::json!(1), "unknown option 'colour'"),
        ("players", serde_json::json!(5), "'players'"),
        ("ps5_value", serde_json::json!(0.3), "'ps5_value'"),
        ("quad_chops", serde_json::json!("Both"), "'quad_chops'"),
        (
            "oot_chop_min_pairs",
            serde_json::json!(3),
            "'oot_chop_min_pairs'",
        ),
        (
            "toi_trang_lists",
            serde_json::json!(["SauDoi", "Bogus"]),
            "Bogus",
        ),
        (
            "forbid_finish_on_two",
            serde_json::json!("yes"),
            "'forbid_finish_on_two'",
        ),
        (
            "place_stakes",
            serde_json::json!({"4": [[4, 4, 1]]}),
            "'place_stakes'",
        ),
    ] {
        let mut r = serde_json::Map::new();
        r.insert(k.into(), v);
        let e = Options::from_rules(&r).unwrap_err().to_string();
        assert!(e.contains(needle), "{k}: {e}");
    }
    let mut r = serde_json::Map::new();
    r.insert("oot_chop_min_pairs".into(), serde_json::json!("none"));
    assert_eq!(Options::from_rules(&r).unwrap().oot_chop_min_pairs, None);
}

#[test]
fn notation_errors_name_token_and_position() {
    let e = parse_cards("3s 4s 1x").unwrap_err();
    assert_eq!((e.token.as_str(), e.position), ("1x", 3));
    assert!(e.to_string().contains("card 3 '1x'"));
    let e = parse_cards("Th 10h").unwrap_err();
    assert_eq!(e.position, 2);
    assert!(e.reason.contains("twice"));
    let e = parse_cards("3z").unwrap_err();
    assert!(e.reason.contains("suit"));
}

#[test]
fn actions_print_uniquely() {
    assert_eq!(Action::Play(cards("5s 3s 4s")).to_string(), "play 3s 4s 5s");
    assert_eq!(
        Action::Chop(cards("5s 5c 6d 6h 7s 7c 8d 8h")).to_string(),
        "chop 5s 5c 6d 6h 7s 7c 8d 8h"
    );
    assert_eq!(
        (Action::Pass.to_string(), Action::Decline.to_string()),
        ("pass".into(), "decline".into())
    );
}

// ---------- generation = brute force (perft) ----------

fn brute_combinations(hand: Cards) -> Vec<Cards> {
    let list: Vec<Card> = hand.iter().collect();
    let mut out = Vec::new();
    for m in 1u32..(1 << list.len()) {
        let x: Cards = (0..list.len())
            .filter(|i| m >> i & 1 == 1)
            .map(|i| list[i])
            .collect();
        if classify(x).is_some() {
            out.push(x);
        }
    }
    out
}

fn random_hand(rng: &mut bailab::rng::GameRng, size: usize) -> Cards {
    let mut deck = TienLen::fresh_deck();
    bailab::rng::shuffle(&mut deck, rng);
    deck[..size].iter().copied().collect()
}

/// A hand rich in pairs and runs, so bombs and sequences appear often.
fn dense_hand(rng: &mut bailab::rng::GameRng) -> Cards {
    let lo: u8 = rng.random_range(0..10);
    let width: u8 = rng.random_range(3..=5);
    let mut h = Cards::EMPTY;
    while h.len() < 13 {
        let r = if rng.random_range(0..4) == 0 {
            12
        } else {
            (lo + rng.random_range(0..width)).min(12)
        };
        h = h.with(Card::new(r, rng.random_range(0..4)));
    }
    h
}

#[test]
fn generation_equals_brute_force() {
    let mut rng = stream_rng(2024, 0, 0);
    let mut option_sets = vec![def()];
    let mut o = def();
    o.ps3_chops_pair_of_twos = true;
    o.quad_chops = QuadChops::PairOnly;
    option_sets.push(o);
    let mut o = def();
    o.ps5_powers = false;
    o.quad_chops = QuadChops::SingleOnly;
    option_sets.push(o);
    let mut checked = 0;
    for i in 0..1500 {
        let hand = if i % 2 == 0 {
            {
                let size = rng.random_range(1..=13);
                random_hand(&mut rng, size)
            }
        } else {
            dense_hand(&mut rng)
        };
        let all = brute_combinations(hand);
        let mut gen = Vec::new();
        combinations(hand, &mut |x, kind| {
            assert_eq!(classify(x).map(|c| c.kind), Some(kind));
            gen.push(x);
        });
        let gset: BTreeSet<Cards> = gen.iter().copied().collect();
        assert_eq!(gset.len(), gen.len(), "no duplicates");
        assert_eq!(gset, all.iter().copied().collect(), "leads of {hand}");
        assert!(gen.len() < MAX_ACTIONS);
        // tops: combinations of another dense hand
        let other = dense_hand(&mut rng);
        let tops = brute_combinations(other);
        for _ in 0..8 {
            let b = classify(tops[rng.random_range(0..tops.len())]).unwrap();
            for o in &option_sets {
                let want: BTreeSet<Cards> = all
                    .iter()
                    .copied()
                    .filter(|&x| beats(&classify(x).unwrap(), &b, o))
                    .collect();
                let mut got = Vec::new();
                beating(hand, &b, o, &mut |x, _| got.push(x));
                let gset: BTreeSet<Cards> = got.iter().copied().collect();
                assert_eq!(gset.len(), got.len(), "no duplicates");
                assert_eq!(gset, want, "responses of {hand} to {b} under {o:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 30_000);
}

// ---------- capacity ----------

fn c2(x: u64) -> u64 {
    x * x.saturating_sub(1) / 2
}

/// Combinations of a hand with these per-rank counts (index 12 = the 2s).
fn count_of(c: &[u64; 13]) -> u64 {
    let mut n: u64 = c.iter().map(|&x| (1u64 << x) - 1).sum(); // singles..quads
    for s in 0..12 {
        let (mut p, mut q) = (1, 1);
        for (len, &x) in c[s..12].iter().enumerate() {
            p *= x;
            if p == 0 {
                break;
            }
            if len >= 2 {
                n += p;
            }
        }
        for (len, &x) in c[s..12].iter().enumerate() {
            q *= c2(x);
            if q == 0 {
                break;
            }
            if len >= 2 {
                n += q;
            }
        }
    }
    n
}

fn search(i: usize, left: u64, c: &mut [u64; 13], best: &mut (u64, [u64; 13])) {
    if i == 13 {
        if left == 0 {
            let v = count_of(c);
            if v > best.0 {
                *best = (v, *c);
            }
        }
        return;
    }
    for x in 0..=left.min(4) {
        if left - x > 4 * (12 - i) as u64 {
            continue;
        }
        c[i] = x;
        search(i + 1, left - x, c, best);
    }
    c[i] = 0;
}

#[test]
fn capacity_is_the_exhaustive_maximum() {
    // every rank-count pattern of 13 cards (suits do not change the count)
    let mut best = (0, [0; 13]);
    search(0, 13, &mut [0; 13], &mut best);
    assert_eq!(
        best.0 as usize,
        MAX_ACTIONS - 1,
        "worst pattern {:?}",
        best.1
    );
    // the generator produces exactly that many for a hand of the worst pattern
    let mut hand = Cards::EMPTY;
    for (r, &x) in best.1.iter().enumerate() {
        for s in 0..x as u8 {
            hand = hand.with(Card::new(r as u8, s));
        }
    }
    let mut n = 0;
    combinations(hand, &mut |_, _| n += 1);
    assert_eq!(n, best.0);
    // and the formula agrees with the generator on random hands
    let mut rng = stream_rng(7, 7, 7);
    for _ in 0..500 {
        let h = dense_hand(&mut rng);
        let mut c = [0u64; 13];
        for (r, x) in c.iter_mut().enumerate() {
            *x = u64::from(h.rank_count(r as u8));
        }
        let mut n = 0;
        combinations(h, &mut |_, _| n += 1);
        assert_eq!(n, count_of(&c));
    }
}
