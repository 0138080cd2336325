//! Tiến Lên's features for rule lists: hand-written positions with their exact feature values
//! (one case or more per family), and random-play properties: features read the seat's view
//! only (a determinization of the view gives the same rows) and agree with independent
//! computations (the splitter, thối, brute-force beating). What every game's list must be is
//! tested in `rules_agent.rs`, that features never allocate in `alloc.rs`.

use bailab::agent::features::{FeatureRow, MAX_FEATURES};
use bailab::game::SeatView;
use bailab::games::kind::Features;
use bailab::games::tienlen::card::DECK_SIZE;
use bailab::games::tienlen::moves::combinations;
use bailab::games::tienlen::split::{combos, Splitter};
use bailab::games::tienlen::{
    beats, classify, thoi, Action, Actions, Card, Cards, Options, Phase, Setup, TienLen,
    TienLenState,
};
use bailab::rng::stream_rng;
use bailab::{Game, GameState, Seat};
use rand::Rng;

// ---------- helpers ----------

fn cards(s: &str) -> Cards {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// A normal game (no required card) in which seat `s` holds `hands[s]` (13 cards each), dealer
/// 0, `leader` leads; with fewer than 4 players the other cards are set aside.
fn deal(hands: &[&str], leader: Seat) -> TienLenState {
    let n = hands.len();
    let mut lists: Vec<Vec<Card>> = hands.iter().map(|h| cards(h).iter().collect()).collect();
    let dealt = hands.iter().fold(Cards::EMPTY, |a, h| {
        assert_eq!(cards(h).len(), 13, "{h}");
        assert!(a.inter(cards(h)).is_empty(), "a card in two hands");
        a.union(cards(h))
    });
    let mut deck = [Card::default(); DECK_SIZE];
    for (k, slot) in deck.iter_mut().enumerate().take(13 * n) {
        *slot = lists[k % n].remove(0);
    }
    for (k, c) in Cards::ALL.minus(dealt).iter().enumerate() {
        deck[13 * n + k] = c;
    }
    let setup = Setup {
        dealer: 0,
        initial: false,
        leader: Some(leader),
    };
    let s = TienLen::standard(n as u8).unwrap().deal_deck(&deck, setup);
    assert!(s.toi_trang().is_none(), "no tới trắng in the test deal");
    s
}

fn legal(s: &TienLenState) -> Actions {
    let mut a = Actions::new();
    s.legal_actions(&mut a);
    a
}

/// Applies the legal action of `seat` whose text is `text`, declining out-of-turn windows
/// first.
fn act(s: &mut TienLenState, seat: Seat, text: &str) {
    while matches!(s.phase(), Phase::OotWindow(q) if !(q == seat && text.starts_with("chop"))) {
        s.apply(Action::Decline);
    }
    assert_eq!(s.to_move(), Some(seat), "seat {seat} to move for `{text}`");
    let list = legal(s);
    let a = list
        .iter()
        .find(|x| x.to_string() == text)
        .unwrap_or_else(|| panic!("`{text}` is not legal: {list:?}"));
    s.apply(*a);
}

/// The feature rows of the seat to move, one per legal action.
fn rows_of(s: &TienLenState) -> (Actions, Vec<FeatureRow>) {
    let seat = s.to_move().expect("a seat to move");
    let list = legal(s);
    let mut rows = vec![[0i16; MAX_FEATURES]; list.len()];
    TienLen::features(&s.view(seat), &list, &mut rows);
    (list, rows)
}

fn index(name: &str) -> usize {
    TienLen::FEATURES
        .iter()
        .position(|f| f.name == name)
        .unwrap_or_else(|| panic!("no feature {name}"))
}

/// Asserts the features of the action `text` of the seat to move.
fn check(s: &TienLenState, text: &str, want: &[(&str, i16)]) {
    let (list, rows) = rows_of(s);
    let i = list
        .iter()
        .position(|a| a.to_string() == text)
        .unwrap_or_else(|| panic!("`{text}` is not legal: {list:?}"));
    for &(name, value) in want {
        assert_eq!(rows[i][index(name)], value, "`{text}`: {name}");
    }
}

/// Asserts features that are the same for every action of the decision.
fn check_all(s: &TienLenState, want: &[(&str, i16)]) {
    let (list, rows) = rows_of(s);
    for (a, row) in list.iter().zip(&rows) {
        for &(name, value) in want {
            assert_eq!(row[index(name)], value, "`{a}`: {name}");
        }
    }
}

// ---------- hand-written positions ----------

/// Four seats; seat 0: a straight 3-6, a triple of 8s and the pair sequence T-J-Q.
const FOUR: [&str; 4] = [
    "3s 4d 5c 6h 8s 8c 8d Ts Tc Jd Jh Qs Qc",
    "3c 3d 4s 5s 6s 7s 9s Td Js Qd Ks As 2s",
    "3h 4c 4h 5d 5h 6c 6d 7c 8h Kc Kd Ac 2c",
    "7d 7h 9c 9d 9h Th Jc Qh Kh Ad Ah 2d 2h",
];

#[test]
fn a_lead_with_a_straight_a_triple_and_a_pair_sequence() {
    let s = deal(&FOUR, 0);
    check_all(
        &s,
        &[
            ("is_pass", 0),
            ("is_lead", 1),
            ("plays_before", 3),
            ("opp_min_cards", 13),
            ("next_cards", 13),
            ("opps_left", 3),
            ("in_trick", 3),
            ("table_rank", -1),
            ("top_owner_cards", 0),
            ("unseen_twos", 4),
            ("bomb_threat", 1),
            ("not_played_yet", 1),
            ("unplayed_opps", 3),
            ("is_chop", 0),
            ("chop_value", 0),
            ("beyond_min_opp", 0),
        ],
    );
    // the split's straight, whole
    check(
        &s,
        "play 3s 4d 5c 6h",
        &[
            ("combo", 4),
            ("size", 4),
            ("top_rank", 3),
            ("cards_after", 9),
            ("plays_after", 2),
            ("extra_plays", 0),
            ("breaks_straight", 0),
            ("breaks_hang", 0),
            ("thoi_after", 2),
            ("lowest_of_kind", 1),
            ("highest_of_kind", 1),
        ],
    );
    // its low end: the straight 4-6 stays
    check(
        &s,
        "play 3s",
        &[
            ("combo", 1),
            ("size", 1),
            ("top_rank", 0),
            ("plays_after", 3),
            ("extra_plays", 1),
            ("breaks_straight", 0),
            ("lowest_of_kind", 1),
            ("highest_of_kind", 0),
            ("unseen_higher", 39),
            ("unbeatable", 0),
            ("goes_out", 0),
            ("plays_twos", 0),
            ("twos_after", 0),
        ],
    );
    // its middle: 3, 4 and 6 are left as singles
    check(
        &s,
        "play 5c",
        &[
            ("plays_after", 5),
            ("extra_plays", 3),
            ("breaks_straight", 1),
        ],
    );
    check(
        &s,
        "play Qc",
        &[
            ("highest_of_kind", 1),
            ("lowest_of_kind", 0),
            ("unseen_higher", 14),
        ],
    );
    // the triple
    check(
        &s,
        "play 8s 8c 8d",
        &[("combo", 3), ("extra_plays", 0), ("breaks_triple", 0)],
    );
    check(
        &s,
        "play 8s 8c",
        &[
            ("combo", 2),
            ("breaks_triple", 1),
            ("breaks_pair", 0),
            ("extra_plays", 1),
            ("lowest_of_kind", 1),
        ],
    );
    check(
        &s,
        "play 8s 8d",
        &[("lowest_of_kind", 0), ("highest_of_kind", 0)],
    );
    check(&s, "play 8s", &[("breaks_triple", 1), ("extra_plays", 1)]);
    // the pair sequence: whole, or broken by one of its pairs
    check(
        &s,
        "play Ts Tc Jd Jh Qs Qc",
        &[
            ("combo", 5),
            ("size", 6),
            ("top_rank", 9),
            ("breaks_hang", 0),
            ("thoi_after", 0),
            ("extra_plays", 0),
            ("beyond_min_opp", 0),
        ],
    );
    check(
        &s,
        "play Ts Tc",
        &[
            ("breaks_hang", 1),
            ("thoi_after", 0),
            ("extra_plays", 2),
            ("breaks_pair", 0),
            ("highest_of_kind", 0),
        ],
    );
    check(&s, "play Qs Qc", &[("highest_of_kind", 1)]);
}

#[test]
fn chops_and_their_chain() {
    let mut s = deal(&FOUR, 0);
    act(&mut s, 0, "play 3s");
    act(&mut s, 1, "play 2s");
    // seat 2 holds the pair sequence 4-5-6 against a black 2
    check_all(
        &s,
        &[
            ("is_lead", 0),
            ("table_rank", 12),
            ("top_owner_cards", 12),
            ("opp_min_cards", 12),
            ("next_cards", 13),
            ("in_trick", 3),
            ("not_played_yet", 1),
            ("unplayed_opps", 1),
            ("unseen_twos", 2),
        ],
    );
    let chop = "play 4c 4h 5d 5h 6c 6d";
    check(
        &s,
        chop,
        &[
            ("is_chop", 1),
            ("chop_value", 1),
            ("combo", 5),
            ("size", 6),
            ("breaks_hang", 0),
            ("thoi_after", 1),
            ("twos_after", 1),
            ("unbeatable", 0),
            // 3-8 and 4-6 were the split's straights; the chop leaves 3, 7, 8 alone
            ("breaks_straight", 1),
            ("plays_after", 6),
            ("extra_plays", 2),
        ],
    );
    check(
        &s,
        "play 2c",
        &[
            ("is_chop", 0),
            ("chop_value", 0),
            ("plays_twos", 1),
            ("twos_after", 0),
            ("thoi_after", 2),
            ("unbeatable", 0),
            ("unseen_higher", 2),
        ],
    );
    check(
        &s,
        "pass",
        &[
            ("is_pass", 1),
            ("combo", 0),
            ("size", 0),
            ("top_rank", -1),
            ("cards_after", 13),
            ("plays_after", 5),
            ("extra_plays", 0),
            ("twos_after", 1),
            ("thoi_after", 3),
            ("lowest_of_kind", 0),
            ("unbeatable", 0),
        ],
    );
    check_all(&s, &[("plays_before", 5)]);
    act(&mut s, 2, chop);
    act(&mut s, 3, "pass");
    // seat 0 chops the chop: the chain (the 2: 1) plus the pair sequence (2)
    check(
        &s,
        "play Ts Tc Jd Jh Qs Qc",
        &[("is_chop", 1), ("chop_value", 3)],
    );
    check_all(
        &s,
        &[
            ("top_owner_cards", 7),
            ("table_rank", 3),
            ("in_trick", 2),
            ("opp_min_cards", 7),
            ("next_cards", 12),
            ("not_played_yet", 0),
            ("unplayed_opps", 1),
        ],
    );
}

/// Two seats (26 cards set aside): seat 0 runs a long straight, then plays out.
const TWO: [&str; 2] = [
    "3s 4c 4d 4h 5d 6h 7s 8c 9d Th Qh Kh Ah",
    "3c 3d 4s 5h 6s 9s 9h Js Jd Ks Kc As 2s",
];

#[test]
fn the_end_of_a_hand() {
    let mut s = deal(&TWO, 0);
    act(&mut s, 0, "play 3s 4c 5d 6h 7s 8c 9d Th");
    act(&mut s, 1, "pass");
    // seat 0: 4d 4h and the straight Q-K-A
    check_all(
        &s,
        &[("plays_before", 2), ("opps_left", 1), ("in_trick", 1)],
    );
    check(
        &s,
        "play Qh Kh Ah",
        &[
            ("unbeatable", 1),
            ("unseen_higher", 4),
            ("plays_after", 1),
            ("sure_out_after", 1),
            ("thoi_after", 0),
        ],
    );
    // a low single first: the straight then wins the lead back, the last 4 goes out
    check(
        &s,
        "play 4d",
        &[
            ("breaks_pair", 1),
            ("extra_plays", 1),
            ("sure_out_after", 1),
            ("lowest_of_kind", 1),
        ],
    );
    check(
        &s,
        "play Kh",
        &[
            ("breaks_straight", 1),
            ("extra_plays", 2),
            ("sure_out_after", 0),
        ],
    );
    check(
        &s,
        "play Ah",
        &[
            ("highest_of_kind", 1),
            ("unbeatable", 0),
            ("unseen_higher", 4),
        ],
    );
    act(&mut s, 0, "play Qh Kh Ah");
    act(&mut s, 1, "pass");
    check(
        &s,
        "play 4d 4h",
        &[
            ("goes_out", 1),
            ("cards_after", 0),
            ("plays_after", 0),
            ("sure_out_after", 1),
            ("extra_plays", 0),
        ],
    );
    check(&s, "play 4d", &[("goes_out", 0), ("extra_plays", 1)]);
    act(&mut s, 0, "play 4d");
    // seat 1 answers a 4 from a seat holding one card
    check_all(
        &s,
        &[
            ("opp_min_cards", 1),
            ("next_cards", 1),
            ("top_owner_cards", 1),
            ("table_rank", 1),
            ("not_played_yet", 1),
            ("unplayed_opps", 0),
            ("unseen_twos", 3),
            ("beyond_min_opp", 0),
        ],
    );
    check(&s, "play As", &[("unseen_higher", 5), ("unbeatable", 0)]);
    check(&s, "play 2s", &[("plays_twos", 1), ("unseen_higher", 3)]);
    act(&mut s, 1, "play 2s");
    act(&mut s, 0, "pass");
    // seat 1 leads against that one card: a pair or a straight cannot be answered
    check_all(
        &s,
        &[("is_lead", 1), ("not_played_yet", 0), ("opp_min_cards", 1)],
    );
    check(&s, "play 3c 3d", &[("beyond_min_opp", 1)]);
    check(&s, "play 3c 4s 5h", &[("beyond_min_opp", 1)]);
    check(&s, "play 3c", &[("beyond_min_opp", 0)]);
}

// ---------- random play ----------

/// True when a combination of `unseen` cards of at most `cap` cards beats `x` (brute force).
fn brute_beatable(unseen: Cards, cap: u32, x: Cards, o: &Options) -> bool {
    let x = classify(x).unwrap();
    let mut any = false;
    combinations(unseen, &mut |c, _| {
        if !any && c.len() <= cap && beats(&classify(c).unwrap(), &x, o) {
            any = true;
        }
    });
    any
}

/// The active opponents' most cards.
fn cap(s: &TienLenState, me: Seat) -> u32 {
    let leavers = s.leavers();
    (0..s.players() as Seat)
        .filter(|&q| q != me && s.cong() >> q & 1 == 0 && !leavers.contains(&q))
        .map(|q| s.hand_len(q) as u32)
        .max()
        .unwrap_or(0)
}

/// Checks one decision: the rows equal those of a determinization of the view, and agree
/// with independent computations. Returns how many plays were checked by brute force.
fn check_decision(
    s: &TienLenState,
    rng: &mut bailab::rng::GameRng,
    splitter: &mut Splitter,
) -> usize {
    let seat = s.to_move().unwrap();
    let (list, rows) = rows_of(s);
    let n = TienLen::FEATURES.len();
    let d = s.view(seat).determinize(rng);
    let mut other = vec![[0i16; MAX_FEATURES]; list.len()];
    TienLen::features(&d.view(seat), &list, &mut other);
    for (i, a) in list.iter().enumerate() {
        assert_eq!(
            rows[i][..n],
            other[i][..n],
            "`{a}`: features read hidden cards"
        );
        assert!(rows[i][n..].iter().all(|&v| v == 0), "slots past the list");
    }
    let o = s.options();
    let hand = s.hand(seat);
    let unseen = s.view(seat).unseen();
    let f = |name: &str, i: usize| rows[i][index(name)];
    let before = combos(splitter.cost(hand));
    let mut brute = 0;
    for (i, a) in list.iter().enumerate() {
        let x = match *a {
            Action::Play(x) | Action::Chop(x) => x,
            _ => Cards::EMPTY,
        };
        let after = hand.minus(x);
        assert_eq!(f("is_pass", i), i16::from(x.is_empty()));
        assert_eq!(f("plays_before", i), i16::from(before));
        assert_eq!(f("cards_after", i), after.len() as i16);
        assert_eq!(f("plays_after", i), i16::from(combos(splitter.cost(after))));
        assert_eq!(f("thoi_after", i), thoi(after, o) as i16);
        assert!((0..=12).contains(&f("extra_plays", i)));
        if !x.is_empty() && unseen.len() <= 16 {
            let want = !brute_beatable(unseen, cap(s, seat), x, o);
            assert_eq!(
                f("unbeatable", i) == 1,
                want,
                "`{a}` unbeatable, unseen {unseen}"
            );
            brute += 1;
        }
    }
    brute
}

#[test]
fn features_read_the_view_only_and_agree_with_brute_force() {
    let mut splitter = Splitter::default();
    let (mut decisions, mut brute) = (0, 0);
    for players in 2..=4u8 {
        let game = TienLen::standard(players).unwrap();
        for g in 0..150u64 {
            let mut rng = stream_rng(0xFEA7, g, u64::from(players));
            let mut s = game.deal(&mut rng);
            while s.to_move().is_some() {
                brute += check_decision(&s, &mut rng, &mut splitter);
                decisions += 1;
                let list = legal(&s);
                s.apply(list[rng.random_range(0..list.len())]);
            }
        }
    }
    assert!(decisions > 10_000, "{decisions} decisions");
    assert!(brute > 2_000, "{brute} plays checked by brute force");
}

#[test]
fn features_under_other_options() {
    let mut o = Options::default_for(4);
    o.ps3_chops_pair_of_twos = true;
    o.ps5_powers = false;
    o.passed_player_may_chop_in_turn = true;
    o.forbid_finish_on_two = true;
    o.oot_chop_min_pairs = Some(5);
    let game = TienLen::new(o).unwrap();
    let mut splitter = Splitter::default();
    for g in 0..100u64 {
        let mut rng = stream_rng(0xFEA8, g, 0);
        let mut s = game.deal(&mut rng);
        while s.to_move().is_some() {
            check_decision(&s, &mut rng, &mut splitter);
            let list = legal(&s);
            s.apply(list[rng.random_range(0..list.len())]);
        }
    }
}
