//! Chắn's rule-list features (`src/games/chan/features.rs`): hand-built positions with their
//! exact feature values (one or more per family: action type, the action's card, the removed
//! hand card's role and outs, discard consequences, value, the position after the action, the
//! situation), and properties over random games: the features of a decision are the same in
//! every determinization of the deciding seat's view (they read no hidden card) and they stay in
//! their documented ranges. What every game's list must be is tested in `rules_agent.rs`, that
//! features never allocate in `alloc.rs`.

use bailab::agent::features::{FeatureRow, MAX_FEATURES};
use bailab::agent::uniform_index;
use bailab::game::{Game, GameState, Seat, SeatView};
use bailab::games::chan::{
    Action, Card, Chan, ChanState, MeldSource, Origin, Phase, Resume, Setup, Via,
};
use bailab::games::kind::Features;
use bailab::rng::{stream_rng, DEAL_STREAM};
use bailab::sim::agent_stream;

/// A value no feature writes: slots past the game's own must keep it.
const UNTOUCHED: i16 = 777;

fn c(s: &str) -> Card {
    s.parse().unwrap()
}

fn std4() -> Chan {
    Chan::standard(4).unwrap()
}

/// The legal actions of the seat to move and their feature rows.
fn rows(s: &ChanState) -> (Vec<Action>, Vec<FeatureRow>) {
    let seat = s.to_move().expect("a decision");
    let mut legal = <ChanState as GameState>::Actions::default();
    s.legal_actions(&mut legal);
    let mut rows = vec![[UNTOUCHED; MAX_FEATURES]; legal.len()];
    Chan::features(&s.view(seat), &legal, &mut rows);
    (legal.to_vec(), rows)
}

/// The row of `action`.
fn row_of(s: &ChanState, action: Action) -> FeatureRow {
    let (legal, rows) = rows(s);
    let i = legal
        .iter()
        .position(|&a| a == action)
        .unwrap_or_else(|| panic!("{action} is not legal: {legal:?}"));
    rows[i]
}

/// The slot of a feature by name.
fn slot(name: &str) -> usize {
    Chan::FEATURES
        .iter()
        .position(|f| f.name == name)
        .unwrap_or_else(|| panic!("no feature {name}"))
}

/// Asserts the named features of a row (`what` names the case in failures).
fn check(what: &str, row: &FeatureRow, expected: &[(&str, i16)]) {
    let got: Vec<(&str, i16)> = expected.iter().map(|&(n, _)| (n, row[slot(n)])).collect();
    assert_eq!(got, expected, "{what}");
}

// ---------------------------------------------------------------- discards

/// Seat 0 must discard from `2v 2v 3v 3n 4s 5v 5n 5s ch ch`: a Chắn (2v), a Cạ (3v 3n), a lone
/// 4s, a ba đầu (rank 5) and a Chắn of chi chi. Seat 1 (which receives the discard) let 3v pass
/// at its gate and ate a Cạ 5v+5n.
fn discard_position() -> ChanState {
    std4()
        .position()
        .hand(0, "2v 2v 3v 3n 4s 5v 5n 5s ch ch")
        .hand(1, "2n 2n 6v")
        .declined(1, "3v")
        .meld(1, "5v", "5n", MeldSource::Eat)
        .stock("6s 6s")
        .at(Phase::MustDiscard(0))
}

#[test]
fn discard_roles_outs_and_card() {
    let s = discard_position();
    let (legal, _) = rows(&s);
    let names: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    assert_eq!(
        names,
        ["2v", "3v", "3n", "4s", "5v", "5n", "5s", "ch"].map(|x| format!("discard {x}"))
    );
    let role = [
        "is_discard",
        "card_lone",
        "card_in_chan",
        "card_in_ca",
        "card_in_badau",
    ];
    let expect_role = |x: &str, r: [i16; 5]| {
        let row = row_of(&s, Action::Discard(c(x)));
        let exp: Vec<(&str, i16)> = role.iter().copied().zip(r).collect();
        check(&format!("role of {x}"), &row, &exp);
    };
    expect_role("2v", [1, 0, 1, 0, 0]);
    expect_role("3n", [1, 0, 0, 1, 0]);
    expect_role("4s", [1, 1, 0, 0, 0]);
    expect_role("5s", [1, 0, 0, 0, 1]);
    expect_role("ch", [1, 0, 1, 0, 0]);

    // outs: 4s has 3 unseen copies and 8 unseen 4v/4n; 5v: seat 1 exposed a 5v and a 5n
    check(
        "4s",
        &row_of(&s, Action::Discard(c("4s"))),
        &[
            ("card_rank", 4),
            ("card_suit", 3),
            ("card_red", 0),
            ("chan_outs", 3),
            ("ca_outs", 8),
            ("ca_barred", 0),
            ("red_delta", 0),
            ("is_eat_chan", 0),
            ("is_decline", 0),
        ],
    );
    check(
        "5v",
        &row_of(&s, Action::Discard(c("5v"))),
        &[("chan_outs", 2), ("ca_outs", 2 + 3)],
    );
    check(
        "ch",
        &row_of(&s, Action::Discard(c("ch"))),
        &[
            ("card_rank", 10),
            ("card_suit", 0),
            ("card_red", 1),
            ("red_delta", -1),
            ("chan_outs", 2),
            ("ca_outs", 0),
            ("ca_barred", 1),
        ],
    );
}

#[test]
fn discard_after_shape_blocked_and_dead_cards() {
    let s = discard_position();
    let after = [
        "lone_after",
        "chan_after",
        "ca_after",
        "waiting_after",
        "u_outs_after",
        "blocked_after",
        "dead_lone_after",
    ];
    let expect = |x: &str, v: [i16; 7]| {
        let row = row_of(&s, Action::Discard(c(x)));
        let exp: Vec<(&str, i16)> = after.iter().copied().zip(v).collect();
        check(&format!("after discarding {x}"), &row, &exp);
    };
    // the lone 4s goes: only the ba đầu's 5s is left lone
    expect("4s", [1, 2, 2, 0, 0, 0, 0]);
    // the ba đầu's 5v goes: 5n 5s become a Cạ, 4s stays lone
    expect("5v", [1, 2, 2, 0, 0, 0, 0]);
    // breaking a Cạ: 3n becomes lone
    expect("3v", [3, 2, 1, 0, 0, 0, 0]);
    // breaking the Chắn 2v: the twin can never be thrown (D2) nor eat (E1, E5): dead
    expect("2v", [3, 1, 2, 0, 0, 1, 1]);
    // the same with chi chi (no Cạ for it)
    expect("ch", [3, 1, 2, 0, 0, 1, 1]);
}

#[test]
fn discard_feeds_the_next_seat_unless_it_is_barred() {
    let s = discard_position();
    let feeds = |x: &str| row_of(&s, Action::Discard(c(x)))[slot("feeds_next")];
    assert_eq!(feeds("4s"), 1);
    assert_eq!(feeds("2v"), 1);
    // seat 1 let 3v pass at its gate
    assert_eq!(feeds("3v"), 0);
    // seat 1 ate a Cạ of rank 5 (E6)
    assert_eq!(feeds("5s"), 0);
    // a seat that discarded 4s may not eat it (E1)
    let t = std4()
        .position()
        .hand(0, "2v 2v 3v 3n 4s 5v 5n 5s ch ch")
        .discarded(1, "4s")
        .at(Phase::MustDiscard(0));
    assert_eq!(row_of(&t, Action::Discard(c("4s")))[slot("feeds_next")], 0);
    // a return after an out-of-turn chíu goes to the gate's owner (seat 2 here)
    let r = std4()
        .position()
        .hand(0, "2v 4s 7n")
        .discarded(2, "4s")
        .at(Phase::MustReturn {
            seat: 0,
            gate: 2,
            resume: Resume::Turn,
        });
    assert_eq!(row_of(&r, Action::Discard(c("4s")))[slot("feeds_next")], 0);
    assert_eq!(row_of(&r, Action::Discard(c("7n")))[slot("feeds_next")], 1);
}

#[test]
fn discard_history_features() {
    // seat 0 discarded 4v earlier: throwing 4n makes DanhCa (no more Cạ eats, E3), and its Cạ
    // outs are already barred by E5
    let s = std4()
        .position()
        .hand(0, "4n 5v 6s 6s")
        .discarded(0, "4v")
        .at(Phase::MustDiscard(0));
    check(
        "4n",
        &row_of(&s, Action::Discard(c("4n"))),
        &[
            ("makes_danh_ca", 1),
            ("ca_barred", 1),
            ("dead_lone_after", 0),
        ],
    );
    check(
        "5v",
        &row_of(&s, Action::Discard(c("5v"))),
        &[("makes_danh_ca", 0), ("ca_barred", 0), ("lone_after", 1)],
    );
    check(
        "6s",
        &row_of(&s, Action::Discard(c("6s"))),
        &[
            ("makes_danh_ca", 0),
            ("card_in_chan", 1),
            ("blocked_after", 1),
            ("dead_lone_after", 1),
        ],
    );
}

#[test]
fn tom_leo_and_red() {
    let s = std4()
        .position()
        .hand(0, "3v 3s 7n 8s 9v ch")
        .meld(0, "9v", "9v", MeldSource::Eat)
        .at(Phase::MustDiscard(0));
    // red held: 8s, 9v and ch in hand, 9v 9v exposed
    for (x, partners, red) in [("ch", 2, 1), ("7n", 2, 0), ("3v", 2, 0), ("8s", 2, 1)] {
        check(
            x,
            &row_of(&s, Action::Discard(c(x))),
            &[
                ("group_partners", partners),
                ("card_red", red),
                ("red_delta", -red),
                ("red_held", 5),
            ],
        );
    }
    let t = std4()
        .position()
        .hand(0, "3v 4n 9v")
        .at(Phase::MustDiscard(0));
    check(
        "3v alone of its Tôm",
        &row_of(&t, Action::Discard(c("3v"))),
        &[("group_partners", 0)],
    );
    check(
        "4n in no group",
        &row_of(&t, Action::Discard(c("4n"))),
        &[("group_partners", 0)],
    );
}

// ---------------------------------------------------------------- takes and declines

/// Seat 0 holds `2v 2v 5v 7n 8s 9s 9s ch ch` (lone 5v 7n 8s) in its turn; seat 3 discarded
/// `live` to it.
fn turn_position(live: &str) -> ChanState {
    std4()
        .position()
        .hand(0, "2v 2v 5v 7n 8s 9s 9s ch ch")
        .stock("6s 6s")
        .live(live, 0, Origin::Discard, Via::Discard, Some(3))
        .at(Phase::Turn(0))
}

#[test]
fn eat_chan_and_its_decline() {
    let s = turn_position("7n");
    let (legal, _) = rows(&s);
    let eat = Action::Eat {
        hand: c("7n"),
        card: c("7n"),
    };
    assert_eq!(legal, [eat, Action::Draw]);
    check(
        "eat 7n",
        &row_of(&s, eat),
        &[
            ("is_eat_chan", 1),
            ("is_eat_ca", 0),
            ("is_discard", 0),
            ("card_rank", 7),
            ("card_suit", 2),
            ("card_lone", 1),
            ("chan_outs", 2),
            ("ca_outs", 8),
            // after the eat and the best discard (5v or 8s): one lone card, 1 + 3 Chắn
            ("lone_after", 1),
            ("chan_after", 4),
            ("ca_after", 0),
            ("waiting_after", 0),
            ("blocked_after", 0),
            ("dead_lone_after", 0),
            ("declines_take", 0),
            ("feeds_next", 0),
        ],
    );
    // drawing lets 7n die into Dec: the held 7n can neither be thrown (D1) nor eat (E2)
    check(
        "draw",
        &row_of(&s, Action::Draw),
        &[
            ("is_decline", 1),
            ("declines_take", 1),
            ("card_rank", 7),
            ("card_lone", 0),
            ("chan_outs", 0),
            ("lone_after", 3),
            ("chan_after", 3),
            ("blocked_after", 1),
            ("dead_lone_after", 1),
            // the situation
            ("lone_now", 3),
            ("hand_size", 9),
            ("stock", 2),
            ("red_held", 5),
            ("opp_pairs_max", 0),
            ("next_pairs", 0),
        ],
    );
}

#[test]
fn decline_without_a_legal_take_records_nothing() {
    // 6n pairs with nothing held: drawing declines no take
    let s = turn_position("6n");
    let (legal, _) = rows(&s);
    assert_eq!(legal, [Action::Draw]);
    check(
        "draw",
        &row_of(&s, Action::Draw),
        &[
            ("declines_take", 0),
            ("blocked_after", 0),
            ("dead_lone_after", 0),
            ("lone_after", 3),
        ],
    );
}

#[test]
fn eat_ca_and_pass_drawn() {
    let drawn = |seat1_declined: Option<&str>| {
        let mut p = std4()
            .position()
            .hand(0, "2v 2v 5v 7n 8s 9s 9s ch ch")
            .hand(1, "2n 3n 4n")
            .meld(1, "6v", "6n", MeldSource::Eat)
            .meld(2, "7s", "7s", MeldSource::Eat)
            .meld(2, "4s", "4s", MeldSource::Chiu)
            .stock("6s 6s");
        if let Some(x) = seat1_declined {
            p = p.declined(1, x);
        }
        p.live("5n", 0, Origin::Stock, Via::Draw, None)
            .at(Phase::Drawn(0))
    };
    let s = drawn(None);
    let eat = Action::Eat {
        hand: c("5v"),
        card: c("5n"),
    };
    let (legal, _) = rows(&s);
    assert_eq!(legal, [eat, Action::PassDrawn]);
    check(
        "eat 5n with 5v",
        &row_of(&s, eat),
        &[
            ("is_eat_ca", 1),
            ("card_rank", 5),
            ("card_suit", 2),
            ("card_lone", 1),
            ("chan_outs", 3),
            ("ca_outs", 3 + 4),
            ("lone_after", 1),
            ("chan_after", 3),
            ("ca_after", 1),
            ("blocked_after", 0),
            // seat 1 shows 1 pair, seat 2 a Chắn and a quad: 3
            ("opp_pairs_max", 3),
            ("next_pairs", 1),
        ],
    );
    check(
        "pass 5n",
        &row_of(&s, Action::PassDrawn),
        &[
            ("is_decline", 1),
            ("declines_take", 1),
            ("feeds_next", 1),
            ("lone_after", 3),
        ],
    );
    // seat 1 let a 5n pass before: it cannot take it now
    let t = drawn(Some("5n"));
    assert_eq!(row_of(&t, Action::PassDrawn)[slot("feeds_next")], 0);
}

#[test]
fn chiu_that_breaks_a_ca() {
    // 6s 6s 6s with 6v: greedy's lone count does not drop (6v becomes lone), but the quad gives
    // two Chắn
    let s = std4()
        .position()
        .hand(0, "2v 2v 4n 6v 6s 6s 6s")
        .stock("3s")
        .live("6s", 0, Origin::Discard, Via::Discard, Some(3))
        .at(Phase::Turn(0));
    let (legal, _) = rows(&s);
    assert_eq!(legal, [Action::Chiu(c("6s")), Action::Draw]);
    check(
        "chiu",
        &row_of(&s, Action::Chiu(c("6s"))),
        &[
            ("is_chiu", 1),
            ("card_rank", 6),
            ("card_in_ca", 1),
            ("chan_outs", 0),
            ("ca_outs", 3 + 4),
            ("lone_after", 1),
            ("chan_after", 3),
            ("ca_after", 0),
        ],
    );
    // declining a legal chíu puts 6s in Dec: the three 6s can never be thrown
    check(
        "draw",
        &row_of(&s, Action::Draw),
        &[
            ("declines_take", 1),
            ("lone_after", 1),
            ("chan_after", 2),
            ("ca_after", 1),
            ("blocked_after", 3),
            ("dead_lone_after", 0),
        ],
    );
}

// ---------------------------------------------------------------- ù

/// Vector C4 of §11.1: ù on 6n drawn by W is Chì + Bạch thủ (S 10); on another seat's draw it
/// would be Bạch thủ only (S 4).
const C4: &str = "2v 2v 3v 3n 4v 4n 4n 4s 5s 5s 6v 6v 6n 7s 7s 8n 8s 9v 9n";

#[test]
fn claim_u_and_its_decline() {
    let s = std4()
        .position()
        .hand(0, C4)
        .stock("2s 2s")
        .live("6n", 0, Origin::Stock, Via::Draw, None)
        .at(Phase::UWindow {
            seat: 0,
            resume: Resume::Drawn,
        });
    let (legal, _) = rows(&s);
    assert_eq!(legal, [Action::ClaimU(c("6n")), Action::Decline]);
    check(
        "u",
        &row_of(&s, Action::ClaimU(c("6n"))),
        &[
            ("is_u", 1),
            ("is_decline", 0),
            ("card_rank", 6),
            ("u_value_after", 10),
            ("chan_after", 6),
            ("ca_after", 4),
            ("lone_after", 0),
            ("u_outs_after", 0),
        ],
    );
    // declining keeps waiting on the two unseen 6n (a Cạ 6v/6s would leave 5 Chắn)
    check(
        "decline",
        &row_of(&s, Action::Decline),
        &[
            ("is_decline", 1),
            ("declines_take", 0),
            ("waiting_after", 1),
            ("u_outs_after", 2),
            ("u_value_after", 4),
            ("lone_after", 1),
            ("chan_after", 5),
            ("ca_after", 4),
        ],
    );
}

#[test]
fn waiting_discard_counts_outs_and_value() {
    // C4 plus 9s, before its discard, for the previous hand's winner (Ù thông)
    let s = std4()
        .position()
        .hand(0, &format!("{C4} 9s"))
        .setup(Setup {
            first: 0,
            prev_winner: Some(0),
        })
        .at(Phase::MustDiscard(0));
    // throwing 9s waits on the three unseen 6n with 5 Chắn: Bạch thủ 4 + Ù thông's dịch 1
    check(
        "discard 9s",
        &row_of(&s, Action::Discard(c("9s"))),
        &[
            ("waiting_after", 1),
            ("u_outs_after", 3),
            ("u_value_after", 5),
            ("lone_after", 1),
            ("chan_after", 5),
        ],
    );
    // throwing 6n leaves a ba đầu 9v 9n 9s with 5 Chắn: any of the 9 unseen 9v/9n/9s makes
    // the sixth Chắn, but the Cạ left in rank 9 rules Bạch thủ out: Ù thông only, S 3
    check(
        "discard 6n",
        &row_of(&s, Action::Discard(c("6n"))),
        &[
            ("waiting_after", 1),
            ("u_outs_after", 9),
            ("u_value_after", 3),
            ("lone_after", 1),
            ("ca_after", 4),
        ],
    );
}

#[test]
fn thien_u() {
    // vector C14: 20 dealt cards (7 Chắn, 3 Cạ), Thiên ù scores 3
    let s = std4()
        .position()
        .hand(
            0,
            "2v 2v 3v 3n 3s 3s 4v 4n 4n 4s 5s 5s 6v 6v 7s 7s 8v 8n 9n 9n",
        )
        .at(Phase::Opening(0));
    check(
        "thien u",
        &row_of(&s, Action::DeclareThienU),
        &[
            ("is_u", 1),
            ("card_rank", 0),
            ("u_value_after", 3),
            ("chan_after", 7),
            ("ca_after", 3),
            ("hand_size", 20),
        ],
    );
}

// ---------------------------------------------------------------- random games

/// Random games (4 seats, and some at 2, 3 and 5): at every decision the features of the
/// deciding seat are those of a determinization of its view, slots past the list are left
/// alone, flags are 0/1 and counts stay in range.
#[test]
fn features_read_no_hidden_card() {
    let flags: Vec<usize> = [
        "is_discard",
        "is_eat_chan",
        "is_eat_ca",
        "is_chiu",
        "is_decline",
        "is_u",
        "declines_take",
        "card_red",
        "card_lone",
        "card_in_chan",
        "card_in_ca",
        "card_in_badau",
        "ca_barred",
        "makes_danh_ca",
        "feeds_next",
        "waiting_after",
    ]
    .iter()
    .map(|n| slot(n))
    .collect();
    let n = Chan::FEATURES.len();
    let mut decisions = 0u64;
    let mut nonzero = vec![0u64; n];
    for (players, games) in [(4u8, 240u64), (2, 20), (3, 20), (5, 20)] {
        let game = Chan::standard(players).unwrap();
        for index in 0..games {
            let master = 0xFEA7 + u64::from(players);
            let mut state = game.deal(&mut stream_rng(master, index, DEAL_STREAM));
            let mut rng = stream_rng(master, index, agent_stream(0, 0));
            let mut legal = <ChanState as GameState>::Actions::default();
            let mut other = <ChanState as GameState>::Actions::default();
            while let Some(seat) = state.to_move() {
                state.legal_actions(&mut legal);
                let mut a = vec![[UNTOUCHED; MAX_FEATURES]; legal.len()];
                let view = state.view(seat);
                Chan::features(&view, &legal, &mut a);
                for k in 0..2 {
                    let d = view.determinize(&mut rng);
                    assert_eq!(d.to_move(), Some(seat));
                    d.legal_actions(&mut other);
                    assert_eq!(other.as_slice(), legal.as_slice());
                    let mut b = vec![[0; MAX_FEATURES]; legal.len()];
                    if k == 1 {
                        b.iter_mut().for_each(|r| r.fill(UNTOUCHED));
                    }
                    Chan::features(&d.view(seat), &other, &mut b);
                    for (i, (ra, rb)) in a.iter().zip(&b).enumerate() {
                        assert_eq!(
                            ra[..n],
                            rb[..n],
                            "players {players} game {index} seat {seat} action {}: features \
                             depend on hidden cards",
                            legal[i]
                        );
                    }
                }
                for (i, r) in a.iter().enumerate() {
                    assert!(r[n..].iter().all(|&v| v == UNTOUCHED), "slot past the list");
                    for &f in &flags {
                        assert!(
                            (0..=1).contains(&r[f]),
                            "{} = {}",
                            Chan::FEATURES[f].name,
                            r[f]
                        );
                    }
                    for (f, &v) in r[..n].iter().enumerate() {
                        let name = Chan::FEATURES[f].name;
                        let ok = match name {
                            "red_delta" => (-1..=1).contains(&v),
                            "card_rank" => v == 0 || (2..=10).contains(&v),
                            "card_suit" => (0..=3).contains(&v),
                            "u_value_after" => (0..=200).contains(&v),
                            "stock" => (0..=61).contains(&v),
                            _ => (0..=23).contains(&v),
                        };
                        assert!(ok, "{name} = {v} for {}", legal[i]);
                        nonzero[f] += u64::from(v != 0);
                    }
                    // exactly one action type
                    let types: i16 = ["is_discard", "is_eat_chan", "is_eat_ca", "is_chiu"]
                        .iter()
                        .chain(&["is_decline", "is_u"])
                        .map(|x| r[slot(x)])
                        .sum();
                    assert_eq!(types, 1, "{}", legal[i]);
                }
                decisions += 1;
                let pick = legal[uniform_index(legal.len(), &mut rng)];
                state.apply(pick);
            }
        }
    }
    eprintln!("{decisions} decisions");
    // every feature takes a non-zero value somewhere (a feature always 0 reads nothing)
    for (f, &k) in nonzero.iter().enumerate() {
        assert!(k > 0, "{} is always 0", Chan::FEATURES[f].name);
    }
}

/// Cost of the features per decision on random games, beside the cost of `greedy`'s choice
/// on the same decisions (not a test of speed: run with
/// `cargo test --release --test chan chan_features:: -- --ignored --nocapture`).
#[test]
#[ignore]
fn features_cost() {
    use bailab::agent::Agent;
    use bailab::games::chan::greedy::ChanGreedy;
    let game = Chan::standard(4).unwrap();
    let mut states: Vec<(ChanState, Seat)> = Vec::new();
    for index in 0..300 {
        let mut state = game.deal(&mut stream_rng(7, index, DEAL_STREAM));
        let mut rng = stream_rng(7, index, agent_stream(0, 0));
        let mut legal = <ChanState as GameState>::Actions::default();
        while let Some(seat) = state.to_move() {
            states.push((state, seat));
            state.legal_actions(&mut legal);
            state.apply(legal[uniform_index(legal.len(), &mut rng)]);
        }
    }
    let lists: Vec<_> = states
        .iter()
        .map(|(s, _)| {
            let mut legal = <ChanState as GameState>::Actions::default();
            s.legal_actions(&mut legal);
            legal
        })
        .collect();
    let mut rows = [[0i16; MAX_FEATURES]; bailab::games::chan::MAX_ACTIONS];
    let mut greedy = ChanGreedy::new(
        bailab::agent::greedy::TieBreak::Canonical,
        bailab::agent::greedy::Weights::defaults(bailab::games::chan::greedy::WEIGHTS),
    );
    let mut rng = stream_rng(1, 2, 3);
    let mut sum = 0i64;
    // each decision a few times in a row, as in a game where the state is in cache; the best
    // of a few repeats, since the machine may be shared
    let rounds = 10;
    let per_decision = (rounds * states.len()) as f64;
    let (mut features, mut act) = (f64::MAX, f64::MAX);
    for _ in 0..5 {
        let start = std::time::Instant::now();
        for ((s, seat), legal) in states.iter().zip(&lists) {
            for _ in 0..rounds {
                Chan::features(&s.view(*seat), legal, &mut rows[..legal.len()]);
                sum += i64::from(rows[0][0]);
            }
        }
        features = features.min(start.elapsed().as_nanos() as f64 / per_decision);
        let start = std::time::Instant::now();
        for ((s, seat), legal) in states.iter().zip(&lists) {
            for _ in 0..rounds {
                sum += greedy.act(&s.view(*seat), legal, &mut rng) as i64;
            }
        }
        act = act.min(start.elapsed().as_nanos() as f64 / per_decision);
    }
    std::hint::black_box(sum);
    eprintln!(
        "{} decisions: features {features:.0} ns per decision, greedy's act {act:.0} ns",
        states.len()
    );
}
