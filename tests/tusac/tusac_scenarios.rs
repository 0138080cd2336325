//! Integration tests that drive the classic Tứ Sắc engine through the worked scenarios of the
//! rules reference (`docs/games/tusac.md`) with constructed decks.
//!
//! Every deck is built by [`deck_for`] (`common/tusac_deck.rs`, shared with `tusac_features.rs`)
//! from explicit hands. "Only the relevant part of each private block is shown; assume the rest
//! is trash-free" (§4.8): the rest of each 20-card hand is made of pairs, lone Kings and chows,
//! chosen so that they share no trash part (one colour's K/A/E, one colour's R/C/H, the pawns,
//! §3.2 item 5) with the scenario cards and hold no pair, Khap or winning shape for any card that
//! becomes active. Each test asserts the per-seat trash it relies on, so a mistake in a
//! constructed hand fails loudly instead of testing something else.

use crate::tusac_deck;
use crate::tusac_play;
use bailab::games::tusac::actions::{Phase, Rule, Source};
use bailab::games::tusac::card::{parse_cards, CARD_TYPES};
use bailab::games::tusac::onepack::trash::is_waiting_pair_hand;
use bailab::games::tusac::onepack::worst::outs;
use bailab::games::tusac::sets::{Origin, SetInstance, Zone};
use bailab::games::tusac::{
    trash, Action, Card, Event, Hand, Meld, OnePack, OnePackState, SetKind,
};
use bailab::rng::stream_rng;
use bailab::{Game, GameState};
use rand::Rng;
use tusac_deck::{deal, deck_for};
use tusac_play::{act, legal};

// ------------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------------

fn c(s: &str) -> Card {
    s.parse().unwrap()
}

fn hand(s: &str) -> Hand {
    s.parse().unwrap()
}

fn meld(kind: SetKind, used: &str) -> Meld {
    Meld::new(kind, &parse_cards(used, 4).unwrap())
}

fn discard(s: &str) -> Action {
    Action::Discard(c(s))
}

fn meld_action(kind: SetKind, used: &str) -> Action {
    Action::Meld(meld(kind, used))
}

fn trashes(s: &OnePackState) -> Vec<u8> {
    (0..s.players() as u8)
        .map(|x| trash(s.private(x)))
        .collect()
}

fn quan(card: &str) -> SetInstance {
    SetInstance::new(SetKind::Quad, &[c(card); 4], Zone::Public, Origin::Dealt)
}

fn melded(cards: &str, kind: SetKind) -> SetInstance {
    SetInstance::new(
        kind,
        &parse_cards(cards, 4).unwrap(),
        Zone::Public,
        Origin::Melded,
    )
}

// ------------------------------------------------------------------------------------------------
// 1. The deck helper itself
// ------------------------------------------------------------------------------------------------

#[test]
fn deck_helper_deals_the_given_hands_four_players() {
    let hands = SCENARIO_5;
    let s = deal(&hands, 0, "wE");
    for (seat, h) in hands.iter().enumerate() {
        assert_eq!(s.private(seat as u8), hand(h), "seat {seat}");
        assert!(s.public_sets(seat as u8).is_empty());
    }
    assert_eq!(s.private(0).len(), 21);
    assert_eq!(s.private(3).len(), 20);
    assert_eq!(s.stock_len(), 31, "S0 = 112 - 4*20 - 1 (§1.3)");
    assert_eq!(
        s.deck()[81],
        c("wE"),
        "the first card drawn is deck[n*20+1]"
    );
    // the rest of the stock is the remaining pack in canonical order: rK is unused, and the
    // second stock card is the lowest type with a copy left
    assert_eq!(s.deck()[82], c("rK"));
    assert_eq!(s.deck()[80], c("wH"), "deck[80] is F's extra (21st) card");
    let mut total = [0u8; CARD_TYPES];
    for &card in s.deck() {
        total[card.index()] += 1;
    }
    assert_eq!(total, [4u8; CARD_TYPES], "the deck is one whole pack");
    assert_eq!(s.phase(), Phase::MustDiscard(0));
    assert!(s.last_events().is_empty());
}

#[test]
fn deck_helper_rotates_from_the_first_player() {
    // 3 players, F = seat 2: deck[k] goes to seat (2 + k) mod 3, seat 2 gets 21 cards.
    let hands = [
        "rK yK gK wK rA yA gA wA rE yE gE wE rR yR gR wR rC yC gC wC",
        "rK yK gK wK rA yA gA wA rE yE gE wE rR yR gR wR rH yH gH wH",
        "rC yC gC wC rH yH gH wH rP yP gP wP rP yP gP wP rK yK gK wK rA",
    ];
    let deck = deck_for(&hands, 2, "wP gH");
    assert_eq!(deck[0], c("rC"), "deck[0] goes to F = seat 2");
    assert_eq!(deck[1], c("rK"), "deck[1] goes to seat 0");
    assert_eq!(deck[60], c("rA"), "deck[60] is F's extra card");
    assert_eq!((deck[61], deck[62]), (c("wP"), c("gH")));
    let s = deal(&hands, 2, "wP gH");
    for (seat, h) in hands.iter().enumerate() {
        assert_eq!(s.private(seat as u8), hand(h), "seat {seat}");
        assert!(s.public_sets(seat as u8).is_empty());
    }
    assert_eq!(s.stock_len(), 51, "S0 for n = 3 (§1.3)");
    assert_eq!(s.phase(), Phase::MustDiscard(2));
}

#[test]
fn deck_helper_keeps_quads_and_reports_them_as_public() {
    let s = deal(&QUAN_HANDS, 0, "");
    assert_eq!(s.public_sets(2), [quan("gH")]);
    assert_eq!(s.private(2).len(), 16);
    assert_eq!(s.private(2), hand(&QUAN_HANDS[2][12..]));
}

#[test]
#[should_panic(expected = "used 5 times")]
fn deck_helper_rejects_a_fifth_copy() {
    let mut hands = SCENARIO_5;
    hands[3] = "rE wA yK yK yE yE rR rR rC rC rH rH rP rP yP yP gP gP wP gH";
    deck_for(&hands, 0, "");
}

#[test]
#[should_panic(expected = "used 5 times")]
fn deck_helper_rejects_a_fifth_copy_in_the_stock() {
    // seat 1 holds one wE: four more make five
    deck_for(&SCENARIO_5, 0, "wE wE wE wE");
}

// ------------------------------------------------------------------------------------------------
// 2. §4.8 worked scenarios (classic, n = 4)
// ------------------------------------------------------------------------------------------------

// Scenarios 1 and 2. Seat 0 holds the Khap gH gH gH; its filler is pairs of r/y/w R, C, H.
// Seat 1's trash is rA wE, seat 2's is rE yE: dead cards that no single active card completes.
const S12_SEAT0_WAITING: &str = "gH gH gH yA rK rR rR rC rC rH rH yR yR yC yC yH yH wR wR wC wC";
const S12_SEAT0_TRASH2: &str = "gH gH gH yA yE rR rR rC rC rH rH yR yR yC yC yH yH wR wR wC wC";
const S12_SEAT1: &str = "rA wE gK gK gA gA gE gE rR rR rC rC rH rH yP yP gP gP wP wP";
const S12_SEAT2: &str = "rE yE wK wK wA wA wE wE yR yR yC yC yH yH wR wR wC wC wH wH";
const S1_SEAT3: &str = "gR gC rK rK yK yK gK gK rA rA rE rE gA gA gE gE rP rP wH wH";
const S2_SEAT3: &str = "gR wE rK rK yK yK gK gK rA rA rE rE gA gA gE gE rP rP wH wH";

/// Seat 0 opens with `yA` (nobody can take it), seat 1 draws; the stock's top card is `gH`.
fn open_and_draw_gh(seat0: &str, seat3: &str) -> OnePackState {
    let mut s = deal(&[seat0, S12_SEAT1, S12_SEAT2, seat3], 0, "gH");
    assert_eq!(s.khaps(0), 1);
    act(&mut s, discard("yA"));
    assert_eq!(
        s.last_events(),
        [Event::Discard {
            seat: 0,
            card: c("yA"),
            worst: Some(true)
        }]
    );
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(legal(&s), [Action::Draw]);
    act(&mut s, Action::Draw);
    s
}

#[test]
fn scenario_1_win_beats_khui_and_is_taken_in_claim_order() {
    // Two versions of seat 0: one that could also win on gH (its Khui leaves trash 0; it comes
    // after seat 3 in the claim order 1, 2, 3, 0), and one that cannot (then only C1 before C2
    // keeps the Khui from happening).
    for (seat0, seat0_trash) in [(S12_SEAT0_WAITING, 1), (S12_SEAT0_TRASH2, 2)] {
        let s0 = deal(&[seat0, S12_SEAT1, S12_SEAT2, S1_SEAT3], 0, "gH");
        assert_eq!(trashes(&s0), [seat0_trash, 2, 2, 2]);
        let s = open_and_draw_gh(seat0, S1_SEAT3);
        let gh = c("gH");
        assert_eq!(
            s.last_events(),
            [
                Event::Draw {
                    seat: 1,
                    card: gh,
                    declined: Some(c("yA")),
                },
                Event::Meld {
                    seat: 3,
                    meld: meld(SetKind::RookCannonHorse, "gR gC"),
                    active: gh,
                    rule: Some(Rule::C1),
                },
                Event::End {
                    winner: Some(3),
                    rule: Rule::C1
                },
            ],
            "seat 0 version with trash {seat0_trash}"
        );
        assert_eq!(s.phase(), Phase::Over);
        assert_eq!(s.to_move(), None);
        assert!(legal(&s).is_empty());
        // the Khui never happened: seat 0 still holds its Khap and has no public set
        assert_eq!(s.khaps(0), 1);
        assert!(s.public_sets(0).is_empty());
        assert_eq!(
            s.public_sets(3),
            [melded("gR gC gH", SetKind::RookCannonHorse)]
        );
        // §6.1: hv(3) = chow 1 + Kings rK rK yK yK gK gK 6 + pairs 0 = 7, m = 1,
        // Wamt = 3 + 7 + 10 = 20. Seat 0's Khap: seats 1 and 2 pay it 3 each.
        let o = s.outcome().unwrap();
        assert_eq!((o.winner, o.reason, o.hand_value), (Some(3), "win", 7));
        assert_eq!(o.payouts(), [-20 + 6, -23, -23, 60]);
        assert_eq!(o.penalized, None, "the winning card was a draw");
    }
}

#[test]
fn scenario_2_khui_is_forced_and_turns_are_skipped() {
    let s0 = deal(&[S12_SEAT0_TRASH2, S12_SEAT1, S12_SEAT2, S2_SEAT3], 0, "gH");
    assert_eq!(trashes(&s0), [2, 2, 2, 2]);
    assert_eq!(legal(&s0), [discard("yA"), discard("yE")]);
    let mut s = open_and_draw_gh(S12_SEAT0_TRASH2, S2_SEAT3);
    let gh = c("gH");
    // nobody can win; seat 0 MUST make the Khui (C2), out of turn
    assert_eq!(
        s.last_events(),
        [
            Event::Draw {
                seat: 1,
                card: gh,
                declined: Some(c("yA")),
            },
            Event::Meld {
                seat: 0,
                meld: meld(SetKind::Quad, "gH gH gH"),
                active: gh,
                rule: Some(Rule::C2),
            },
        ]
    );
    assert_eq!(s.public_sets(0), [melded("gH gH gH gH", SetKind::Quad)]);
    assert_eq!(s.public_sets(0)[0].classic_name(), Some("Khui"));
    assert_eq!(s.khaps(0), 0);
    // seat 0 discards a trash card (C7): its only one
    assert_eq!(s.phase(), Phase::MustDiscard(0));
    assert_eq!(s.private(0).len(), 17);
    assert_eq!(legal(&s), [discard("yE")]);
    act(&mut s, discard("yE"));
    assert_eq!(
        s.last_events(),
        [Event::Discard {
            seat: 0,
            card: c("yE"),
            worst: Some(true)
        }]
    );
    // seat 1 now faces seat 0's discard: it lost its draw, seats 2 and 3 were skipped
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(s.to_move(), Some(1));
    let a = s.active().unwrap();
    assert_eq!((a.card, a.source, a.owner), (c("yE"), Source::Discard, 0));
    assert_eq!(legal(&s), [Action::Draw]);
    assert_eq!(s.turns(), 2, "two discards, both by seat 0");
    assert_eq!(s.stock_len(), 30, "one card drawn");
    assert_eq!(trashes(&s), [0, 2, 2, 2]);
}

// Scenarios 3 and 4. Seat 0's only trash card is yP; nobody else holds pawns except seat 3's pair
// (and seat 2's rP rP gP gP, which no single yP turns into a win).
const S34_SEAT0: &str = "yP yK yK yA yA gA gA gE gE yR yR yC yC yH yH wR wR wC wC wH wH";
const S34_SEAT1: &str = "rA wE gK gK gA gA gE gE gR gR gH gH rH rH wR wR wC wC wH wH";
const S34_SEAT2: &str = "rE yE gK gK wK wK wA wA wE wE gR gR gH gH rH rH rP rP gP gP";
const S3_SEAT3: &str = "rR gC yP yP rK rK yK yK wK wK yA yA wA wA yR yR yC yC yH yH";
const S4_SEAT3: &str = "rR rC yP yP rK rK yK yK wK wK yA yA wA wA yR yR yC yC yH yH";

#[test]
fn scenario_3_pair_priority_is_forced() {
    let mut s = deal(&[S34_SEAT0, S34_SEAT1, S34_SEAT2, S3_SEAT3], 0, "");
    assert_eq!(trashes(&s), [1, 2, 2, 2]);
    let b3 = s.private(3);
    // trash rule: the triple leaves rR gC, trash 2, not more than 2; rR gC are different colours
    assert_eq!(trash(b3.without_all(&[c("yP"), c("yP")])), 2);
    assert!(!is_waiting_pair_hand(b3));
    assert_eq!(legal(&s), [discard("yP")]);
    act(&mut s, discard("yP"));
    let yp = c("yP");
    assert_eq!(
        s.last_events(),
        [
            Event::Discard {
                seat: 0,
                card: yp,
                worst: Some(true)
            },
            Event::Meld {
                seat: 3,
                meld: meld(SetKind::Triple, "yP yP"),
                active: yp,
                rule: Some(Rule::C3),
            },
        ]
    );
    assert_eq!(s.public_sets(3), [melded("yP yP yP", SetKind::Triple)]);
    assert_eq!(s.public_sets(3)[0].classic_value(), 1);
    // seat 3 then discards rR or gC (both lower trash to 1)
    assert_eq!(s.phase(), Phase::MustDiscard(3));
    assert_eq!(legal(&s), [discard("rR"), discard("gC")]);
    act(&mut s, discard("rR"));
    assert_eq!(trash(s.private(3)), 1);
    // play continues with seat 0; seats 1 and 2 lost their turns
    assert_eq!(s.phase(), Phase::TurnOption(0));
    let a = s.active().unwrap();
    assert_eq!((a.card, a.source, a.owner), (c("rR"), Source::Discard, 3));
    assert_eq!(legal(&s), [Action::Draw]);
    assert_eq!(s.turns(), 2);
    assert_eq!(s.stock_len(), 31, "nobody has drawn");
}

#[test]
fn scenario_4_pair_priority_blocked_by_the_waiting_exception() {
    let mut s = deal(&[S34_SEAT0, S34_SEAT1, S34_SEAT2, S4_SEAT3], 0, "");
    assert_eq!(trashes(&s), [1, 2, 2, 2]);
    let b3 = s.private(3);
    // the trash rule alone would allow the triple; only the exception (rR rC waiting for rH)
    // stops it
    assert_eq!(trash(b3.without_all(&[c("yP"), c("yP")])), 2);
    assert!(is_waiting_pair_hand(b3));
    act(&mut s, discard("yP"));
    assert_eq!(
        s.last_events(),
        [Event::Discard {
            seat: 0,
            card: c("yP"),
            worst: Some(true)
        }]
    );
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(legal(&s), [Action::Draw]);
    assert!(s.public_sets(3).is_empty());
    assert_eq!(s.private(3).count(c("yP")), 2);
}

// Scenario 5. Seat 2: gH gH gR gC yA (trash 2) plus seven pairs and a lone rK.
// Seat 1 holds the fourth gH and wE as its trash; the stock's top card is wE.
const SCENARIO_5: [&str; 4] = [
    "gH rA yK gK gK gA gA gE gE yR yR yC yC yH yH wR wR wC wC wH wH",
    "gH wE rR rR rC rC rH rH yR yR yC yC yH yH rP rP yP yP gP gP",
    "gH gH gR gC yA rK wR wR wC wC wH wH gK gK gA gA gE gE wP wP",
    "rE wA yK yK yE yE rR rR rC rC rH rH rP rP yP yP gP gP wP wP",
];

#[test]
fn scenario_5_pair_priority_blocked_by_the_trash_rule() {
    let mut s = deal(&SCENARIO_5, 0, "wE");
    assert_eq!(trashes(&s), [2, 2, 2, 2]);
    let gh = c("gH");
    let b2 = s.private(2);
    assert_eq!(
        trash(b2.without_all(&[gh, gh])),
        3,
        "the triple leaves gR gC yA"
    );
    assert_eq!(
        trash(b2.without_all(&[c("gR"), c("gC")])),
        1,
        "the chow leaves gH gH yA"
    );
    assert!(!is_waiting_pair_hand(b2), "gH yA is not a wait");
    assert_eq!(legal(&s), [discard("rA"), discard("gH")]);

    // Seat 0 discards gH: seat 2 MUST NOT claim, and cannot win; seat 1 (T) plays normally.
    act(&mut s, discard("gH"));
    assert_eq!(s.last_events().len(), 1, "{:?}", s.last_events());
    assert!(matches!(
        s.last_events()[0],
        Event::Discard { seat: 0, card, .. } if card == gh
    ));
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(
        legal(&s),
        [meld_action(SetKind::Pair, "gH"), Action::Draw],
        "seat 1's own gH makes a Pair; it may also draw"
    );
    assert_eq!(s.private(2), b2);

    // Seat 1 draws wE, melds it as an ordinary Pair and discards gH: now seat 2 is T.
    act(&mut s, Action::Draw);
    assert_eq!(
        s.last_events(),
        [Event::Draw {
            seat: 1,
            card: c("wE"),
            declined: Some(gh),
        }]
    );
    assert_eq!(s.dead()[gh.index()], 1);
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(
        legal(&s),
        [meld_action(SetKind::Pair, "wE"), Action::PassDrawn]
    );
    act(&mut s, meld_action(SetKind::Pair, "wE"));
    assert_eq!(
        s.last_events(),
        [Event::Meld {
            seat: 1,
            meld: meld(SetKind::Pair, "wE"),
            active: c("wE"),
            rule: None
        }]
    );
    assert_eq!(legal(&s), [discard("gH")]);
    act(&mut s, discard("gH"));
    assert_eq!(s.last_events().len(), 1, "{:?}", s.last_events());

    // As T, seat 2 may make the chow as an ordinary meld (trash 2 -> 1); the triple is illegal.
    assert_eq!(s.phase(), Phase::TurnOption(2));
    assert_eq!(
        legal(&s),
        [
            meld_action(SetKind::Pair, "gH"),
            meld_action(SetKind::RookCannonHorse, "gR gC"),
            Action::Draw
        ]
    );
    assert!(!legal(&s).contains(&meld_action(SetKind::Triple, "gH gH")));
    act(&mut s, meld_action(SetKind::RookCannonHorse, "gR gC"));
    assert_eq!(
        s.last_events(),
        [Event::Meld {
            seat: 2,
            meld: meld(SetKind::RookCannonHorse, "gR gC"),
            active: gh,
            rule: None
        }]
    );
    assert_eq!(s.phase(), Phase::MustDiscard(2));
    assert_eq!(trash(s.private(2)), 1);
    assert_eq!(legal(&s), [discard("yA")]);
}

// Scenario 6. The stock's top card is wK, then rA. Seats 1 and 2 hold wA wE (plus a third trash
// card, so the KAE does not win); seat 3 holds the pair wK wK (C3 never applies to Kings).
const SCENARIO_6: [&str; 4] = [
    "gA gE rK rR rR rC rC rH rH yR yR yC yC yH yH wR wR wC wC wH wH",
    "wA wE rA gK rR rR rC rC rH rH yR yR yC yC yH yH rP rP yP yP",
    "wA wE yA rK wR wR wC wC wH wH gR gR gC gC gH gH gP gP wP wP",
    "wK wK rE yE gK gK gR gR gC gC gH gH rP rP yP yP gP gP wP wP",
];

/// Scenario 6 up to seat 1's draw of wK.
fn scenario_6_until_wk() -> OnePackState {
    let mut s = deal(&SCENARIO_6, 0, "wK rA");
    assert_eq!(trashes(&s), [2, 3, 3, 2]);
    act(&mut s, discard("gA"));
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(legal(&s), [Action::Draw]);
    act(&mut s, Action::Draw);
    s
}

#[test]
fn scenario_6_own_draw_passed_along() {
    let mut s = scenario_6_until_wk();
    let wk = c("wK");
    // nobody can win, nobody holds a Khap of wK, no pair priority on a King
    assert_eq!(
        s.last_events(),
        [Event::Draw {
            seat: 1,
            card: wk,
            declined: Some(c("gA")),
        }]
    );
    assert_eq!(s.phase(), Phase::TurnOption(1));
    let a = s.active().unwrap();
    assert_eq!((a.card, a.source, a.owner), (wk, Source::OwnDraw, 1));
    assert_eq!(
        legal(&s),
        [
            meld_action(SetKind::King, ""),
            meld_action(SetKind::KingAdvisorElephant, "wA wE"),
            Action::PassDrawn
        ]
    );
    // seat 1 declines: seat 2 gets the PassedDraw wK with the same options
    act(&mut s, Action::PassDrawn);
    assert_eq!(s.last_events(), [Event::PassDrawn { seat: 1, card: wk }]);
    assert_eq!(s.phase(), Phase::TurnOption(2));
    let a = s.active().unwrap();
    assert_eq!((a.card, a.source, a.owner), (wk, Source::PassedDraw, 1));
    assert_eq!(
        legal(&s),
        [
            meld_action(SetKind::King, ""),
            meld_action(SetKind::KingAdvisorElephant, "wA wE"),
            Action::Draw
        ]
    );
    assert_eq!(s.stock_len(), 30);
    // seat 2 declines too: wK goes to the dead pile and seat 2 draws
    act(&mut s, Action::Draw);
    assert_eq!(
        s.last_events(),
        [Event::Draw {
            seat: 2,
            card: c("rA"),
            declined: Some(wk),
        }]
    );
    assert_eq!(s.dead()[wk.index()], 1);
    assert_eq!(s.stock_len(), 29);
    assert_eq!(s.phase(), Phase::TurnOption(2));
    let a = s.active().unwrap();
    assert_eq!((a.card, a.source, a.owner), (c("rA"), Source::OwnDraw, 2));
    assert_eq!(legal(&s), [Action::PassDrawn]);
    assert_eq!(s.turns(), 1);
}

#[test]
fn scenario_6_taking_the_king_alone_then_discarding_trash() {
    let mut s = scenario_6_until_wk();
    act(&mut s, meld_action(SetKind::King, ""));
    assert_eq!(s.public_sets(1), [melded("wK", SetKind::King)]);
    assert_eq!(s.phase(), Phase::MustDiscard(1));
    assert_eq!(trash(s.private(1)), 3, "a lone King leaves trash unchanged");
    assert_eq!(legal(&s), [discard("rA"), discard("wA"), discard("wE")]);
}

// ------------------------------------------------------------------------------------------------
// 3. Natural win (§1.4 step 5)
// ------------------------------------------------------------------------------------------------

const NATURAL_WIN: [&str; 4] = [
    // [rK rA rE] [rK] [rR rR rR]Khap [yK yA yE] [yR yC yH] [gK] [gA gA] [wK] [rP yP gP wP]
    "rK rK rA rE yK yA yE gK wK rR rR rR yR yC yH rP yP gP wP gA gA",
    // a Quan of wC
    "wC wC wC wC wA wA wE wE gR gR wR wR rC rC rH rH gH gH wH wH",
    // a Khap of gE
    "gE gE gE yK yK gK gK wK wK rA rA rE rE yA yA yE yE gC gC rR",
    // nothing special
    "rK rK yK gK wK gA gA wA wA wE wE yR yR gR gR wR wR rC rC gC",
];

#[test]
fn natural_win_for_the_first_player() {
    let s = deal(&NATURAL_WIN, 0, "");
    assert_eq!(trash(hand(NATURAL_WIN[0])), 0);
    assert_eq!(
        s.last_events(),
        [
            Event::Quan {
                seat: 1,
                card: c("wC")
            },
            Event::End {
                winner: Some(0),
                rule: Rule::NaturalWin
            },
        ]
    );
    assert_eq!(s.phase(), Phase::Over);
    assert_eq!(s.to_move(), None);
    assert_eq!(s.khaps(2), 1);
    assert_eq!(s.khaps(3), 0);
    let o = s.outcome().unwrap();
    assert_eq!(o.reason, "natural_win");
    assert_eq!(o.winner, Some(0));
    assert_eq!(o.turns, 0);
    assert_eq!(o.penalized, None);
    // hv = [rK rA rE] 1 + [rK] 1 + Khap rR 3 + [yK yA yE] 1 + [yR yC yH] 1 + [gK] 1
    //    + [gA gA] 0 + [wK] 1 + Pawns4 2 = 11. No Quan/Khui: m = 1, Wamt = 3 + 11 + 10 = 24.
    let hv = 1 + 1 + 3 + 1 + 1 + 1 + 1 + 2;
    assert_eq!(o.hand_value, hv);
    let wamt = 3 + i64::from(hv) + 10;
    assert_eq!(wamt, 24);
    // Side payments: seat 1's Quan (q = 8) is paid by the winner and by seats 2 and 3; seat 2's
    // Khap (k = 3) by seats 1 and 3 only.
    let expected = [
        3 * wamt - 8,
        -wamt + 8 + 8 + 8 - 3,
        -wamt - 8 + 3 + 3,
        -wamt - 8 - 3,
    ];
    assert_eq!(expected, [64, -3, -26, -35]);
    assert_eq!(o.payouts(), expected);
    assert_eq!(o.payouts().iter().sum::<i64>(), 0);
}

#[test]
fn no_natural_win_when_the_dealt_hand_has_trash() {
    // the same hand with one gA replaced by wE has trash 2 (gA, wE): F must discard
    let mut hands = NATURAL_WIN;
    hands[0] = "rK rK rA rE yK yA yE gK wK rR rR rR yR yC yH rP yP gP wP gA wE";
    hands[3] = "rK rK yK gK wK gA gA wA wA gA wE yR yR gR gR wR wR rC rC gC";
    let s = deal(&hands, 0, "");
    assert_eq!(trash(s.private(0)), 2, "gA and wE");
    assert_eq!(s.phase(), Phase::MustDiscard(0));
    assert_eq!(s.outcome(), None);
    assert_eq!(legal(&s), [discard("gA"), discard("wE")]);
}

// ------------------------------------------------------------------------------------------------
// 4. Quan (§1.4 step 3)
// ------------------------------------------------------------------------------------------------

const QUAN_HANDS: [&str; 4] = [
    "rA yA gA wA rE yE gE wE rR yR gR wR rC yC gC wC rP yP gP wP yK",
    "rA yA gA wA rE yE gE wE rR yR gR wR rC yC gC wC rP yP gP wP",
    "gH gH gH gH rA yA gA wA rE yE gE wE rR yR gR wR rH yH wH yK",
    "rK rK rK rK rH yH wH rH yH wH rE yE gA wA yK yK gK gK wK wK",
];

#[test]
fn quan_is_exposed_by_the_deal() {
    let s = deal(&QUAN_HANDS, 0, "");
    assert_eq!(
        s.last_events(),
        [
            Event::Quan {
                seat: 2,
                card: c("gH")
            },
            Event::Quan {
                seat: 3,
                card: c("rK")
            },
        ]
    );
    assert_eq!(s.last_events()[0].forced_by(), Some(Rule::Quan));
    assert_eq!(s.public_sets(2), [quan("gH")]);
    assert_eq!(s.public_sets(3), [quan("rK")], "Kings make a Quan too");
    for (seat, card) in [(2, "gH"), (3, "rK")] {
        let q = s.public_sets(seat)[0];
        assert_eq!((q.zone, q.origin), (Zone::Public, Origin::Dealt));
        assert_eq!(q.classic_name(), Some("Quan"));
        assert_eq!(q.classic_value(), 8);
        assert_eq!(s.private(seat).len(), 16);
        assert_eq!(s.private(seat).count(c(card)), 0);
        assert_eq!(s.khaps(seat), 0, "a Quan is not a Khap");
        assert_eq!(s.visible()[c(card).index()], 4);
    }
    assert!(s.public_sets(0).is_empty() && s.public_sets(1).is_empty());
    assert_eq!(s.phase(), Phase::MustDiscard(0));
    assert_eq!(s.stock_len(), 31);
}

// ------------------------------------------------------------------------------------------------
// 5. The stock floor (§4.7)
// ------------------------------------------------------------------------------------------------

#[test]
fn stock_floor_draw_after_exactly_24_draws() {
    let game = OnePack::classic(4).unwrap();
    let mut floor_games = [0u32; 2];
    for i in 0..400u64 {
        // policy 0: uniform random; policy 1: always the last legal action (Draw / PassDrawn in
        // a turn option, so wins come only from forced claims)
        let policy = (i % 2) as usize;
        let mut s = game.deal(&mut stream_rng(2024, i, 0));
        let mut rng = stream_rng(2024, i, 1);
        let mut draws = 0usize;
        let mut steps = 0;
        while s.to_move().is_some() {
            let l = legal(&s);
            assert!(!l.is_empty());
            let a = match policy {
                0 => l[rng.random_range(0..l.len())],
                _ => *l.last().unwrap(),
            };
            s.apply(a);
            draws += s
                .last_events()
                .iter()
                .filter(|e| matches!(e, Event::Draw { .. }))
                .count();
            assert_eq!(s.stock_len(), 31 - draws, "game {i}");
            steps += 1;
            assert!(steps < 1000, "game {i} does not end");
        }
        let o = s.outcome().unwrap();
        assert!(draws <= 24, "game {i}: {draws} draws");
        if o.reason == "stock_floor" {
            floor_games[policy] += 1;
            assert_eq!(draws, 24, "game {i}");
            assert_eq!(s.stock_len(), 7, "game {i}");
            assert_eq!(o.winner, None);
            assert_eq!(o.payouts(), [0, 0, 0, 0]);
            assert_eq!(
                s.last_events().last(),
                Some(&Event::End {
                    winner: None,
                    rule: Rule::StockFloor
                })
            );
        } else {
            assert!(o.winner.is_some(), "game {i}: {}", o.reason);
            assert_eq!(o.payouts().iter().sum::<i64>(), 0);
        }
    }
    eprintln!("stock-floor games (random, last-action): {floor_games:?}");
    assert!(
        floor_games.iter().sum::<u32>() > 0,
        "no game reached the stock floor: {floor_games:?}"
    );
}

// ------------------------------------------------------------------------------------------------
// 6. Payouts of a win by a discard claim (§6.1 Examples C1/C2, §5.3)
// ------------------------------------------------------------------------------------------------

// Seat 1 (the winner) has a Quan of wR and waits on gC gH; seat 2 has a Quan of yC and trash
// rA wE; seat 3 has a Khap of rH and trash rE yE. Seat 0 discards gR.
const PAY_SEAT0_ONE_TRASH: &str = "gR rK rK rR rR rC rC wC wC wH wH gK gK gA gA gE gE wK wK wA wA";
const PAY_SEAT0_THREE_TRASH: &str =
    "gR gC yA rR rR rC rC wC wC wH wH gK gK gA gA gE gE wK wK wA wA";
const PAY_SEAT1: &str = "wR wR wR wR gC gH yK yK yA yA yE yE rP rP yP yP gP gP wP wP";
const PAY_SEAT2: &str = "yC yC yC yC rA wE yR yR yH yH gK gK gA gA gE gE rR rR rC rC";
const PAY_SEAT3: &str = "rH rH rH rE yE wK wK wA wA wE wE yR yR yH yH rP rP gR gC gH";

/// hv of seat 1's win: Quan 8 + [gR gC gH] 1 + Kings yK yK 2 + two Pawns4 4 = 15;
/// m = 2 (a Quan), so Wamt = 2·(3 + 15) + 10 = 46, as in Example C1.
const PAY_HV: u32 = 8 + 1 + 2 + 4;
const PAY_WAMT: i64 = 2 * (3 + PAY_HV as i64) + 10;

fn win_by_gr_discard(seat0: &str, worst: bool) -> OnePackState {
    let mut s = deal(&[seat0, PAY_SEAT1, PAY_SEAT2, PAY_SEAT3], 0, "");
    assert_eq!(
        s.last_events(),
        [
            Event::Quan {
                seat: 1,
                card: c("wR")
            },
            Event::Quan {
                seat: 2,
                card: c("yC")
            },
        ]
    );
    assert_eq!(trashes(&s)[1..], [2, 2, 2]);
    assert_eq!(s.khaps(3), 1);
    let gr = c("gR");
    act(&mut s, Action::Discard(gr));
    assert_eq!(
        s.last_events(),
        [
            Event::Discard {
                seat: 0,
                card: gr,
                worst: Some(worst)
            },
            Event::Meld {
                seat: 1,
                meld: meld(SetKind::RookCannonHorse, "gC gH"),
                active: gr,
                rule: Some(Rule::C1)
            },
            Event::End {
                winner: Some(1),
                rule: Rule::C1
            },
        ]
    );
    s
}

#[test]
fn payout_of_a_discard_claim_with_side_payments() {
    let s0 = deal(
        &[PAY_SEAT0_ONE_TRASH, PAY_SEAT1, PAY_SEAT2, PAY_SEAT3],
        0,
        "",
    );
    assert_eq!(trash(s0.private(0)), 1);
    assert_eq!(legal(&s0), [discard("gR")], "the only candidate is worst");
    let s = win_by_gr_discard(PAY_SEAT0_ONE_TRASH, true);
    let o = s.outcome().unwrap();
    assert_eq!(PAY_WAMT, 46);
    assert_eq!((o.winner, o.reason), (Some(1), "win"));
    assert_eq!(o.hand_value, PAY_HV);
    assert_eq!(o.penalized, None);
    // standard flow: seats 0, 2, 3 pay 46 each. Seat 2's Quan (8): paid by the winner and by
    // seats 0 and 3. Seat 3's Khap (3): paid by seats 0 and 2, not by the winner.
    let w = PAY_WAMT;
    let expected = [-w - 8 - 3, 3 * w - 8, -w + 8 + 8 + 8 - 3, -w - 8 + 3 + 3];
    assert_eq!(expected, [-57, 130, -25, -48]);
    assert_eq!(o.payouts(), expected);
    assert_eq!(o.payouts().iter().sum::<i64>(), 0);
    assert_eq!(
        s.public_sets(1),
        [quan("wR"), melded("gR gC gH", SetKind::RookCannonHorse)]
    );
}

#[test]
fn payout_penalty_when_the_winning_discard_was_not_worst() {
    let s0 = deal(
        &[PAY_SEAT0_THREE_TRASH, PAY_SEAT1, PAY_SEAT2, PAY_SEAT3],
        0,
        "",
    );
    let h0 = s0.private(0);
    assert_eq!(trash(h0), 3);
    assert_eq!(
        legal(&s0),
        [discard("yA"), discard("gR"), discard("gC")],
        "all three trash cards are legal discards"
    );
    // §5.1 outs with the two Quans visible: gR pairs with gR (3 unseen) and gH via gC (4);
    // gC likewise; yA only with yA (3). Worst = {yA}, so gR is legal but not worst.
    let v = s0.visible();
    assert_eq!(
        [
            outs(c("gR"), h0, v),
            outs(c("gC"), h0, v),
            outs(c("yA"), h0, v)
        ],
        [7, 7, 3]
    );
    let s = win_by_gr_discard(PAY_SEAT0_THREE_TRASH, false);
    let o = s.outcome().unwrap();
    assert_eq!(o.hand_value, PAY_HV);
    assert_eq!(o.penalized, Some(0));
    // seat 0 pays (n-1)·Wamt = 138; seats 2 and 3 pay the winner nothing; side payments as before
    let w = PAY_WAMT;
    let expected = [-3 * w - 8 - 3, 3 * w - 8, 8 + 8 + 8 - 3, -8 + 3 + 3];
    assert_eq!(expected, [-149, 130, 21, -2]);
    assert_eq!(o.payouts(), expected);
    assert_eq!(o.payouts().iter().sum::<i64>(), 0);
}

// ------------------------------------------------------------------------------------------------
// 7. C3 never binds the turn player and never applies to Kings
// ------------------------------------------------------------------------------------------------

// Scenario 3's hands with seats 1 and 3 swapped: now the holder of yP yP (trash rR gC, which
// passes the trash rule and is no wait) is the turn player.
const C3T_SEAT1: &str = S3_SEAT3;
const C3T_SEAT3: &str = S34_SEAT1;

#[test]
fn c3_does_not_bind_the_turn_player_on_a_discard() {
    let mut s = deal(&[S34_SEAT0, C3T_SEAT1, S34_SEAT2, C3T_SEAT3], 0, "");
    assert_eq!(trashes(&s), [1, 2, 2, 2]);
    let b1 = s.private(1);
    assert_eq!(trash(b1.without_all(&[c("yP"), c("yP")])), 2);
    assert!(
        !is_waiting_pair_hand(b1),
        "off turn, the triple would be forced"
    );
    act(&mut s, discard("yP"));
    assert_eq!(s.last_events().len(), 1, "{:?}", s.last_events());
    assert_eq!(s.phase(), Phase::TurnOption(1));
    // T may still make the triple as an ordinary meld (the Pair would raise trash)
    assert_eq!(
        legal(&s),
        [meld_action(SetKind::Triple, "yP yP"), Action::Draw]
    );
    act(&mut s, meld_action(SetKind::Triple, "yP yP"));
    assert_eq!(
        s.last_events(),
        [Event::Meld {
            seat: 1,
            meld: meld(SetKind::Triple, "yP yP"),
            active: c("yP"),
            rule: None
        }]
    );
    assert_eq!(s.phase(), Phase::MustDiscard(1));
    assert_eq!(legal(&s), [discard("rR"), discard("gC")]);
}

#[test]
fn c3_does_not_bind_the_drawer() {
    let seat0 = "rA yK yK yA yA gA gA gE gE yR yR yC yC yH yH wR wR wC wC wH wH";
    let mut s = deal(&[seat0, C3T_SEAT1, S34_SEAT2, C3T_SEAT3], 0, "yP");
    assert_eq!(trashes(&s), [1, 2, 2, 2]);
    act(&mut s, discard("rA"));
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(legal(&s), [Action::Draw]);
    act(&mut s, Action::Draw);
    assert_eq!(
        s.last_events(),
        [Event::Draw {
            seat: 1,
            card: c("yP"),
            declined: Some(c("rA")),
        }]
    );
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(
        legal(&s),
        [meld_action(SetKind::Triple, "yP yP"), Action::PassDrawn]
    );
    act(&mut s, meld_action(SetKind::Triple, "yP yP"));
    assert_eq!(
        s.last_events(),
        [Event::Meld {
            seat: 1,
            meld: meld(SetKind::Triple, "yP yP"),
            active: c("yP"),
            rule: None
        }]
    );
}

#[test]
fn c3_never_applies_to_kings() {
    // Seat 3 is off turn and holds wK wK; for any other card the triple would be forced (the
    // trash rule holds and rE yE is no wait), but wK is a King.
    let s = scenario_6_until_wk();
    let b3 = s.private(3);
    let wk = c("wK");
    assert_eq!(b3.count(wk), 2);
    assert_eq!(trash(b3.without_all(&[wk, wk])), trash(b3));
    assert!(!is_waiting_pair_hand(b3));
    assert_eq!(
        s.last_events(),
        [Event::Draw {
            seat: 1,
            card: wk,
            declined: Some(c("gA")),
        }]
    );
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert!(s.public_sets(3).is_empty());
    // and seat 3 is not offered the King later either: after two refusals it is dead
    let mut s = s;
    act(&mut s, Action::PassDrawn);
    act(&mut s, Action::Draw);
    assert!(s.public_sets(3).is_empty());
    assert_eq!(s.dead()[wk.index()], 1);
}
