//! The multi-pack core (sisepai21, dirtyking26): the worked examples S1 and D1 of §6.3–6.4, each
//! rule of §4.6 S1–S7 as a hand-built scenario, the post-deal steps of §1.4, the reshuffle of
//! §4.7, and property tests over random and ISMCTS play for 2–8 players (the hand facts the state keeps
//! included, after every step and in determinizations).

use bailab::agent::Agent;
use bailab::game::GameId;
use bailab::game::{Game, GameState, Outcome, Seat, SeatView};
use bailab::games::tusac::actions::{Action, Event, Phase, Rule, Source};
use bailab::games::tusac::card::{Rank, CARD_TYPES};
use bailab::games::tusac::meld::Melds;
use bailab::games::tusac::options::{Options, WinTest};
use bailab::games::tusac::packs::loose::{set_points, win_score};
use bailab::games::tusac::packs::melds::legal_melds;
use bailab::games::tusac::packs::state::HandFacts;
use bailab::games::tusac::packs::{MultiPack, PacksState};
use bailab::games::tusac::sets::SetRules;
use bailab::games::tusac::sets::{Origin, SetInstance, Zone};
use bailab::games::tusac::{Card, Meld, SetKind};
use bailab::generic_agents::ismcts::{Ismcts, IsmctsParams};
use bailab::generic_agents::RandomAgent;
use bailab::rng::{stream_rng, DEAL_STREAM};
use bailab::sim::play_game;

use crate::packs_position;
use packs_position::{act, card, cards, count, deck_for, legal, meld, position_at as position};

fn events(s: &PacksState) -> Vec<Event> {
    s.last_events().to_vec()
}

const S21: fn(u8) -> Options = Options::sisepai21;
const D26: fn(u8) -> Options = Options::dirtyking26;

// ---------------------------------------------------------------- §6.3 S1 and §6.4 D1

/// The sisepai21 filler hands: pairs of A/E/R/C without Kings, and two loose cards.
const FILL21: &str = "rA rA yA yA gA gA rE rE yE yE gE gE rR rR gR gR wC wC wH rH";

#[test]
fn example_s1_section_6_3_pays_18_by_each_loser() {
    let winner = "gH gH gH gH rC rC wR wR wR rK rA rE rP yP gP gK yR yH wA wE";
    let f0 = format!("{FILL21} rC");
    let mut s = position(
        S21(4),
        &[&f0, FILL21, winner, FILL21],
        0,
        "gP gP gP yK gP gP yC rP",
    );
    assert_eq!(
        s.face_down_len(2),
        4,
        "[gH gH gH gH] goes face down (§1.4 step 3)"
    );
    act(&mut s, 0, Action::Discard(card("rC")));
    act(&mut s, 1, Action::Draw); // T declares nothing
    act(&mut s, 2, meld(SetKind::Triple, "rC rC")); // claimed out of turn (1)
    act(&mut s, 2, Action::Discard(card("wA")));
    act(&mut s, 3, Action::Draw);
    act(&mut s, 3, Action::PassDrawn);
    act(&mut s, 0, Action::Draw);
    act(&mut s, 0, Action::PassDrawn);
    act(&mut s, 1, Action::Draw);
    act(&mut s, 1, Action::PassDrawn);
    act(&mut s, 2, Action::Draw); // draws yK: the forced lone King (S1)
    assert!(events(&s).contains(&Event::Meld {
        seat: 2,
        meld: Meld::new(SetKind::King, &[]),
        active: card("yK"),
        rule: Some(Rule::S1)
    }));
    act(&mut s, 2, Action::Discard(card("wE")));
    act(&mut s, 3, Action::Draw);
    act(&mut s, 3, Action::PassDrawn);
    act(&mut s, 0, Action::Draw);
    act(&mut s, 0, Action::PassDrawn);
    act(&mut s, 1, Action::Draw); // draws yC
    act(&mut s, 1, Action::PassDrawn); // S4: seat 1 discards it; seat 2 must win (S2.1)
    let o = s.outcome().expect("seat 2 wins");
    assert_eq!(o.winner, Some(2));
    assert_eq!(o.hand_value, 18, "WP = 8 + 1 + 1 + 1 + 3 + 2 + 1 + 1");
    assert_eq!(o.payouts(), &[-18, -18, 54, -18]);
    let won = events(&s)
        .into_iter()
        .find(|e| matches!(e, Event::Meld { seat: 2, .. }))
        .unwrap();
    assert_eq!(
        won,
        Event::Meld {
            seat: 2,
            meld: Meld::new(SetKind::RookCannonHorse, &cards("yR yH")),
            active: card("yC"),
            rule: Some(Rule::S2)
        }
    );
    assert_eq!(s.melded(2).len(), 3);
}

/// The dirtyking26 filler hands: four pairs of Colours3 in A, E, C, R, and a loose `gP`.
const FILL26: &str = "rA rA yA yA wA wA yE yE gE gE wE wE rC rC yC yC gC gC wR wR gR gR yR yR gP";
const D1_WINNER: &str =
    "wH wH wH wH rK rK yK gK wK rR rR rR rP yP gP wP gA gA rH yH wC wC rA yH gH";

fn d1_game() -> PacksState {
    let f0 = format!("{FILL26} gH");
    position(
        D26(4),
        &[&f0, D1_WINNER, FILL26, FILL26],
        0,
        "wC rH rH rE yH wK",
    )
}

#[test]
fn example_d1_section_6_4_pays_38_by_each_loser() {
    let mut s = d1_game();
    assert_eq!(
        s.double_rank(),
        Some(Rank::Horse),
        "wK at the bottom is skipped"
    );
    assert_eq!(s.face_down_len(1), 4);
    act(&mut s, 0, Action::Discard(card("gH")));
    act(&mut s, 1, meld(SetKind::Colours3, "rH yH")); // melded 1, doubled to 2
    act(&mut s, 1, Action::Discard(card("yH")));
    act(&mut s, 2, Action::Draw); // draws wC
    act(&mut s, 2, Action::PassDrawn); // T first: declares nothing
    assert_eq!(s.phase(), Phase::Claim(1));
    act(&mut s, 1, meld(SetKind::Triple, "wC wC"));
    act(&mut s, 1, Action::Discard(card("gH")));
    act(&mut s, 2, Action::Draw);
    act(&mut s, 2, Action::PassDrawn);
    act(&mut s, 3, Action::Draw);
    act(&mut s, 3, Action::PassDrawn);
    act(&mut s, 0, Action::Draw); // draws rE
    act(&mut s, 0, Action::PassDrawn); // seat 1 wins with [rK rA rE]
    let o = s.outcome().expect("seat 1 wins");
    assert_eq!(o.winner, Some(1));
    assert_eq!(o.hand_value, 38, "16+10+3+4+0+2+1+2");
    assert_eq!(o.payouts(), &[-38, 114, -38, -38]);
}

#[test]
fn example_d1_scoring_37_is_refused_section_6_4() {
    // D1's hand at the win, with fixed sets worth one point less: 37 (or 31 with lone Kings)
    // is odd, so no partition meets the test.
    let mut hand = [0u8; CARD_TYPES];
    for c in cards("rK yK gK wK rR rR rR rP yP gP wP gA gA") {
        hand[c.index()] += 1;
    }
    let rules = SetRules::new(&D26(4), Some(Rank::Horse));
    assert_eq!(
        win_score(&hand, 21, &rules, WinTest::CompleteOver20Even),
        Some(38)
    );
    assert_eq!(
        win_score(&hand, 20, &rules, WinTest::CompleteOver20Even),
        None
    );
    // with 4 lone Kings the same cards are worth 11 + 21 = 32, also even: the largest counts
    assert_eq!(
        win_score(&hand, 15, &rules, WinTest::CompleteOver20Even),
        Some(32)
    );
}

// ---------------------------------------------------------------- §1.4 post-deal steps

#[test]
fn redeal_check_reads_lacks_both_section_1_4_step_1() {
    let game = MultiPack::sisepai21(2).unwrap();
    let live = "rK rA yA gA wA rE yE gE wE rR yR gR wR rC yC gC wC rH yH gH";
    let triple = "rA rA rA yA gA wA rE yE gE wE rR yR gR wR rC yC gC wC rH yH";
    let dead = "rA rA yA gA wA rE yE gE wE rR yR gR wR rC yC gC wC rH yH gH";
    let full = |hands: &[&str]| {
        let mut deck = deck_for(hands, 0, "");
        let mut left = [8u8; CARD_TYPES];
        deck.iter().for_each(|c| left[c.index()] -= 1);
        for c in Card::all() {
            deck.extend(std::iter::repeat_n(c, left[c.index()].into()));
        }
        deck
    };
    let k = format!("{live} gH");
    assert!(
        game.deck_is_live(&full(&[&k, triple])),
        "a King or a triple"
    );
    let d = format!("{live} gH");
    assert!(!game.deck_is_live(&full(&[&d, dead])), "neither");
    let err = game
        .deal_deck(&full(&[&d, dead]), 0)
        .unwrap_err()
        .to_string();
    assert!(err.contains("redeal"), "{err}");
    assert!(game.deal_deck(&full(&[&k, triple]), 0).is_ok());
    // dealing from the RNG redeals until every seat passes, and counts the redeals
    let game = MultiPack::sisepai21(8).unwrap();
    let mut redeals = 0;
    for index in 0..40 {
        let s = game.deal(&mut stream_rng(1, index, DEAL_STREAM));
        assert!(game.deck_is_live(s.deck()));
        redeals += u32::from(s.redeals());
        if s.redeals() > 0 {
            let e = s.last_events()[0];
            assert_eq!(e, Event::Redealt { times: s.redeals() });
        }
    }
    assert!(redeals > 0, "eight hands often fail the check");
}

#[test]
fn double_rank_skips_kings_at_the_bottom_section_1_4_step_2() {
    let hands = ["rK rA rE rR rC rH", "yK yA yE yR yC"];
    let s = position(D26(2), &hands, 0, "gP gR wK yK rK");
    assert_eq!(
        s.double_rank(),
        Some(Rank::Rook),
        "three Kings skipped, then gR"
    );
    assert!(s
        .last_events()
        .contains(&Event::DoubleRank { card: card("gR") }));
    let s = position(D26(2), &hands, 0, "gP gR wC");
    assert_eq!(s.double_rank(), Some(Rank::Cannon));
    let s = position(S21(2), &hands, 0, "gP gR wC");
    assert_eq!(s.double_rank(), None, "sisepai21 has no double rank");
}

#[test]
fn face_down_takes_exactly_four_copies_section_1_4_step_3() {
    let hands = [
        "gH gH gH gH gH rK rK rK rK rA rE",
        "yH yH yH yH yA yE yC yC yC yR",
    ];
    let s = position(D26(2), &hands, 0, "gP");
    assert_eq!(s.face_down(0).collect::<Vec<_>>(), vec![card("gH")]);
    assert_eq!(count(&s, 0, "gH"), 1, "the fifth copy stays in hand");
    assert_eq!(count(&s, 0, "rK"), 4, "Kings never go face down");
    assert_eq!(s.face_down(1).collect::<Vec<_>>(), vec![card("yH")]);
    assert_eq!(s.face_down_len(1), 4);
    let face_down = s
        .last_events()
        .iter()
        .filter(|e| matches!(e, Event::FaceDown { .. }));
    assert_eq!(face_down.count(), 2);
    // opponents see the block's size only
    let v = s.view(1);
    assert_eq!(v.face_down_len(0), 4);
    let mut rng = stream_rng(1, 2, 3);
    let d = v.determinize(&mut rng);
    assert_eq!(d.face_down_len(0), 4);
    assert_eq!(
        d.face_down(1).collect::<Vec<_>>(),
        vec![card("yH")],
        "own block kept"
    );
}

#[test]
fn first_player_wins_a_complete_dealt_hand_section_1_4_step_5() {
    // F: face-down gH×4 (8) + [rK rA rE] (2) = 10 > 9, complete
    let hands = ["gH gH gH gH rK rA rE", "yK yA yR yC yH yP"];
    let s = position(S21(2), &hands, 0, "gP");
    let o = s.outcome().expect("a natural win");
    assert_eq!(
        (o.winner, o.reason, o.hand_value),
        (Some(0), "natural_win", 10)
    );
    assert_eq!(o.payouts(), &[10, -10]);
    // 9 points is not enough
    let hands = ["gH gH gH gH rR rC rH", "yK yA yR yC yH yP"];
    let s = position(S21(2), &hands, 0, "gP");
    assert_eq!(s.outcome(), None);
    assert_eq!(s.phase(), Phase::MustDiscard(0));
}

// ---------------------------------------------------------------- §4.6 S1–S7

#[test]
fn s1_a_drawn_king_is_a_forced_lone_meld_never_a_kae() {
    let hands = ["rA rE yR yC gH wP", "yA yE gR gC wH"];
    let mut s = position(S21(2), &hands, 0, "gP rK");
    act(&mut s, 0, Action::Discard(card("wP")));
    act(&mut s, 1, Action::Draw); // draws gP
    act(&mut s, 1, Action::PassDrawn);
    act(&mut s, 0, Action::Draw); // draws rK: it cannot go with rA rE (S1)
    assert_eq!(
        events(&s)[1],
        Event::Meld {
            seat: 0,
            meld: Meld::new(SetKind::King, &[]),
            active: card("rK"),
            rule: Some(Rule::S1)
        }
    );
    assert_eq!(s.melded(0)[0].kind, SetKind::King);
    assert_eq!(s.phase(), Phase::MustDiscard(0));
    assert!(!legal(&s).contains(&Action::Discard(card("rK"))));
}

#[test]
fn s1_win_calls_go_in_claim_order_from_the_drawer() {
    // seat 2 holds gH×4 face down (8) and [rR rC rH] (1): 9, waiting; the drawn King makes 10.
    let hands = [
        "yA yE yR yC gP wP wA wE",
        "rA rE gR gC wH wA wE",
        "gH gH gH gH rR rC rH",
    ];
    let mut s = position(S21(3), &hands, 0, "yK gP");
    act(&mut s, 0, Action::Discard(card("wP")));
    act(&mut s, 1, Action::Draw); // draws yK: seat 1 cannot win, seat 2 can (S1.1)
    let o = s.outcome().expect("seat 2 calls the King");
    assert_eq!((o.winner, o.hand_value), (Some(2), 10));
    assert_eq!(o.payouts(), &[-10, -10, 20]);
    assert!(events(&s).contains(&Event::End {
        winner: Some(2),
        rule: Rule::S1
    }));
}

#[test]
fn s1_dirtyking26_offers_the_king_quad_in_claim_order() {
    let hands = [
        "yA yE yR yC gP wP rH",
        "rA rE gR gC wH rP",
        "rK rK rK gC wC yP",
    ];
    let play = |take: bool| {
        let mut s = position(D26(3), &hands, 0, "rK gP wR");
        act(&mut s, 0, Action::Discard(card("rH")));
        act(&mut s, 1, Action::Draw); // draws rK; seat 2 holds three
        assert_eq!(s.phase(), Phase::Claim(2));
        assert_eq!(
            legal(&s),
            vec![meld(SetKind::Quad, "rK rK rK"), Action::Pass]
        );
        let answer = if take {
            meld(SetKind::Quad, "rK rK rK")
        } else {
            Action::Pass
        };
        act(&mut s, 2, answer);
        s
    };
    let s = play(true);
    assert_eq!(s.melded(2)[0].kind, SetKind::Quad);
    assert_eq!(s.fixed_points(2), 12, "a Quad of Kings is 12 (§2.5)");
    assert_eq!(s.phase(), Phase::MustDiscard(2), "seat 1's turn is skipped");
    let s = play(false);
    assert_eq!(s.melded(1)[0].kind, SetKind::King, "the drawer's lone King");
    assert_eq!(s.phase(), Phase::MustDiscard(1));
}

/// Four seats; seat 0 discards `rC` (T = 1).
fn s2_game(h1: &str, h2: &str, h3: &str) -> PacksState {
    position(S21(4), &["yA yE yR yC gP rC", h1, h2, h3], 0, "wP wP wP")
}

#[test]
fn s2_the_highest_declared_set_wins_section_2_4() {
    // T declares a chow, seat 2 a Triple: the Triple wins, seat 1 and seat 3 are skipped
    let mut s = s2_game("rR rH gA gE wH", "rC rC yA gE wR", "gR gC wH wA wE");
    act(&mut s, 0, Action::Discard(card("rC")));
    assert_eq!(s.phase(), Phase::TurnOption(1));
    act(&mut s, 1, meld(SetKind::RookCannonHorse, "rR rH"));
    assert!(events(&s).is_empty(), "a declaration is not shown");
    assert_eq!(s.phase(), Phase::Claim(2));
    assert_eq!(
        legal(&s),
        vec![meld(SetKind::Triple, "rC rC"), Action::Pass]
    );
    act(&mut s, 2, meld(SetKind::Triple, "rC rC"));
    assert_eq!(s.melded(2)[0].kind, SetKind::Triple);
    assert!(s.melded(1).is_empty());
    assert_eq!(s.phase(), Phase::MustDiscard(2));
    // T's Quad beats the Triple
    let mut s = s2_game("rC rC rC gE wH", "rC rC yA gE wR", "gR gC wH wA wE");
    act(&mut s, 0, Action::Discard(card("rC")));
    act(&mut s, 1, meld(SetKind::Quad, "rC rC rC"));
    act(&mut s, 2, meld(SetKind::Triple, "rC rC"));
    assert_eq!(s.melded(1)[0].kind, SetKind::Quad);
    assert_eq!(s.phase(), Phase::MustDiscard(1));
}

#[test]
fn s2_ties_go_to_the_earlier_seat_and_declarations_are_simultaneous() {
    let mut s = s2_game("rR rH gA gE wH", "rC rC yA gE wR", "rC rC wH wA wE");
    act(&mut s, 0, Action::Discard(card("rC")));
    act(&mut s, 1, meld(SetKind::RookCannonHorse, "rR rH"));
    act(&mut s, 2, meld(SetKind::Triple, "rC rC"));
    // seat 3 is asked without seeing seat 1's or seat 2's declaration
    assert_eq!(s.phase(), Phase::Claim(3));
    assert!(s.pending(2).is_some());
    let mut rng = stream_rng(4, 4, 4);
    let d = s.view(3).determinize(&mut rng);
    assert_eq!((d.pending(1), d.pending(2)), (None, None));
    assert_eq!(d.phase(), Phase::Claim(3));
    act(&mut s, 3, meld(SetKind::Triple, "rC rC"));
    assert_eq!(s.melded(2).len(), 1, "seat 2 comes before seat 3");
    assert!(s.melded(3).is_empty());
    // a later seat's higher set beats an earlier seat's lower one
    let mut s = s2_game("rR rH gA gE wH", "rC rC yA gE wR", "rC rC rC wA wE");
    act(&mut s, 0, Action::Discard(card("rC")));
    act(&mut s, 1, Action::Draw);
    act(&mut s, 2, meld(SetKind::Triple, "rC rC"));
    act(&mut s, 3, meld(SetKind::Quad, "rC rC rC"));
    assert_eq!(s.melded(3)[0].kind, SetKind::Quad);
}

#[test]
fn s2_a_winning_claim_is_forced_before_any_declaration() {
    // seat 3: gH×4 face down (8) + the Triple (1) + [rK rA rE] (2) = 11 > 9; seat 2 could
    // claim the same Triple earlier in the order, but a win comes first (S2.1)
    let hands = [
        "yA yE yR yC gP rC wA wE wR wC",
        "rR rH gA gE wH yH yP wP gC",
        "rC rC gE wR gR gC yA yE wH",
        "gH gH gH gH rC rC rK rA rE",
    ];
    let mut s = position(S21(4), &hands, 0, "wP");
    act(&mut s, 0, Action::Discard(card("rC")));
    let o = s.outcome().expect("seat 3 wins at once");
    assert_eq!((o.winner, o.hand_value), (Some(3), 11));
    assert_eq!(o.payouts(), &[-11, -11, -11, 33]);
    assert_eq!(
        events(&s)[1],
        Event::Meld {
            seat: 3,
            meld: Meld::new(SetKind::Triple, &cards("rC rC")),
            active: card("rC"),
            rule: Some(Rule::S2)
        }
    );
}

#[test]
fn s3_a_discard_nobody_takes_goes_dead_and_t_draws() {
    let mut s = s2_game("rR rH gA gE wH", "rC rC yA gE wR", "gR gC wH wA wE");
    act(&mut s, 0, Action::Discard(card("rC")));
    act(&mut s, 1, Action::Draw);
    act(&mut s, 2, Action::Pass);
    assert_eq!(s.dead()[card("rC").index()], 1);
    assert_eq!(
        events(&s),
        vec![Event::Draw {
            seat: 1,
            card: card("wP"),
            declined: Some(card("rC"))
        }]
    );
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(s.active().unwrap().source, Source::OwnDraw);
}

#[test]
fn s4_a_declined_draw_is_discarded_by_its_drawer_and_next_t_plays() {
    let mut s = s2_game("rR rH gA gE wH", "rC rC yA gE wR", "gR gC wH wA wE");
    act(&mut s, 0, Action::Discard(card("rC")));
    act(&mut s, 1, Action::Draw);
    act(&mut s, 2, Action::Pass);
    act(&mut s, 1, Action::PassDrawn); // declines wP
    let a = s.active().unwrap();
    assert_eq!(
        (a.card, a.source, a.owner),
        (card("wP"), Source::Discard, 1)
    );
    assert_eq!(
        events(&s),
        vec![Event::DeclinedDraw {
            seat: 1,
            card: card("wP")
        }]
    );
    assert_eq!(s.phase(), Phase::TurnOption(2), "a new window, next(T) = 2");
    assert_eq!(s.turns(), 2);
}

#[test]
fn s5_a_pair_meld_needs_more_than_9_points() {
    // seat 1 holds one rC: 0 points without sets, a Pair is not offered
    let mut s = s2_game("rC rH gA gE wH", "yC yC yA gE wR", "gR gC wH wA wE");
    act(&mut s, 0, Action::Discard(card("rC")));
    assert_eq!(legal(&s), vec![Action::Draw]);
    // with gH×4 face down (8) and [rK rA rE] (2): 10 > 9, the Pair is offered
    let hands = [
        "yA yE yR yC gP wP rC wA wE gR",
        "gH gH gH gH rK rA rE rC wH",
        "yR yC yH wA wE yP gA gE gC",
    ];
    let mut s = position(S21(3), &hands, 0, "wP");
    act(&mut s, 0, Action::Discard(card("rC")));
    assert_eq!(legal(&s), vec![meld(SetKind::Pair, "rC"), Action::Draw]);
    // exactly 9 (gH×4 and a lone King) is not more than 9
    let hands = [
        "yA yE yR yC gP wP rC wA wE gR",
        "gH gH gH gH rK rC wH yA yE",
        "yR yC yH wA wE yP gA gE gC",
    ];
    let mut s = position(S21(3), &hands, 0, "wP");
    act(&mut s, 0, Action::Discard(card("rC")));
    assert_eq!(legal(&s), vec![Action::Draw]);
}

#[test]
fn s5_a_dirtyking26_pair_meld_needs_more_than_20_points() {
    // seat 1: gH×4 face down (8, or 16 when H doubles) + Kings4Colours (10), a loose wR
    let hands = [
        "yA yE yR yC gP wP rC wA wE gR gC",
        "gH gH gH gH rK yK gK wK rC wR",
        "yR yC yH wA wE yP gA gE gC rA",
    ];
    let mut s = position(D26(3), &hands, 0, "wP yR");
    act(&mut s, 0, Action::Discard(card("rC")));
    assert_eq!(legal(&s), vec![Action::Draw], "18 is not more than 20");
    let mut s = position(D26(3), &hands, 0, "wP yH");
    assert_eq!(s.double_rank(), Some(Rank::Horse));
    act(&mut s, 0, Action::Discard(card("rC")));
    assert_eq!(
        legal(&s),
        vec![meld(SetKind::Pair, "rC"), Action::Draw],
        "26 > 20"
    );
}

#[test]
fn the_first_agent_plays_both_variants_to_the_end() {
    for variant in [S21 as fn(u8) -> Options, D26] {
        for players in [2u8, 4, 8] {
            let game = MultiPack::new(variant(players)).unwrap();
            let mut agents: Vec<Box<dyn Agent<PacksState>>> =
                vec![Box::new(bailab::generic_agents::FirstAgent)];
            for deal in 0..5 {
                let id = GameId {
                    master: 2,
                    deal,
                    rotation: 0,
                };
                let o = play_game(&game, id, &mut agents, &[0; 8], |(s, _)| {
                    assert_eq!(s.total_cards(), s.deck().len());
                });
                assert_eq!(o.payouts().iter().sum::<i64>(), 0);
            }
        }
    }
}

#[test]
fn s6_any_non_king_discard_and_a_hand_of_kings_makes_none() {
    // seat 0 may break its [rR rC rH] but never discard a King
    let s = position(S21(2), &["rK rR rC rH yA yE", "gK gA gE wP wP"], 0, "gP");
    let discards = ["yA", "yE", "rR", "rC", "rH"].map(|c| Action::Discard(card(c)));
    assert_eq!(legal(&s), discards);
    // seat 1 melds [rC rC rC] and holds only Kings: no discard, seat 2 draws
    let mut s = position(
        S21(3),
        &["yA yE yR yC gP rC", "rK yK gK rC rC", "gA gE wR wC wH"],
        0,
        "wP",
    );
    act(&mut s, 0, Action::Discard(card("rC")));
    act(&mut s, 1, meld(SetKind::Triple, "rC rC"));
    assert_eq!(
        events(&s)[1..],
        [
            Event::NoDiscard { seat: 1 },
            Event::Draw {
                seat: 2,
                card: card("wP"),
                declined: None
            }
        ]
    );
    assert_eq!(s.phase(), Phase::TurnOption(2));
}

#[test]
fn s7_melds_are_optional() {
    let mut s = s2_game("rR rH gA gE wH", "yC yC yA gE wR", "gR gC wH wA wE");
    act(&mut s, 0, Action::Discard(card("rC")));
    assert_eq!(
        legal(&s),
        vec![meld(SetKind::RookCannonHorse, "rR rH"), Action::Draw]
    );
}

// ---------------------------------------------------------------- §4.7 reshuffle

#[test]
fn the_dead_pile_is_reshuffled_once_then_the_game_is_drawn() {
    let hands = ["yA yE yR gC", "rA rE gR"];
    let play = |seed: u64| {
        let opts = Options {
            hand_size: 3,
            ..S21(2)
        };
        let game = MultiPack::new(opts).unwrap();
        let mut s = game
            .deal_position(&deck_for(&hands, 0, "wP wH wC"), seed)
            .unwrap();
        let mut seq = Vec::new();
        act(&mut s, 0, Action::Discard(card("gC")));
        while let Some(seat) = s.to_move() {
            let a = *legal(&s).last().unwrap(); // always decline: draw or pass
            act(&mut s, seat, a);
            seq.extend(events(&s));
        }
        (seq, s)
    };
    let (seq, s) = play(7);
    let reshuffles: Vec<_> = seq
        .iter()
        .filter(|e| matches!(e, Event::Reshuffle { .. }))
        .collect();
    assert_eq!(
        reshuffles,
        vec![&Event::Reshuffle { cards: 4 }],
        "once, the 4 dead cards"
    );
    assert_eq!(s.outcome().unwrap().reason, "stock_floor");
    assert_eq!(s.outcome().unwrap().payouts(), &[0, 0]);
    assert_eq!(play(7).0, seq, "the seed replays the reshuffle");
    let draws = |seq: &[Event]| -> Vec<Card> {
        seq.iter()
            .filter_map(|e| match e {
                Event::Draw { card, .. } => Some(*card),
                _ => None,
            })
            .collect()
    };
    assert!(
        (0..20).any(|k| draws(&play(k).0) != draws(&seq)),
        "seeds matter"
    );
}

// ---------------------------------------------------------------- properties

fn checked_random_game(game: &MultiPack, index: u64) -> (Vec<Action>, Outcome) {
    let mut s = game.deal(&mut stream_rng(21, index, DEAL_STREAM));
    let mut rng = stream_rng(21, index, 1);
    let mut seq = Vec::new();
    let mut actions = Default::default();
    let total = s.deck().len();
    let mut no_discard = [0usize; 8];
    assert_eq!(s.total_cards(), total);
    while s.to_move().is_some() {
        assert!(seq.len() < 5000, "game {index} ends");
        s.legal_actions(&mut actions);
        let list: &[Action] = actions.as_slice();
        assert!(!list.is_empty());
        assert_turn_melds_fresh(&s, list);
        let a = list[bailab::agent::uniform_index(list.len(), &mut rng)];
        if let Action::Discard(c) = a {
            assert!(!c.is_king(), "Kings are never discarded (S6)");
        }
        s.apply(a);
        seq.push(a);
        assert_eq!(s.total_cards(), total, "cards conserved, game {index}");
        assert_facts_fresh(&s, &format!("game {index} after {a}"));
        if index.is_multiple_of(8) {
            if let Some(x) = s.to_move() {
                let d = s.view(x).determinize(&mut rng);
                assert_facts_fresh(&d, &format!("a determinization of game {index}"));
            }
        }
        for e in s.last_events() {
            if let Event::NoDiscard { seat } = e {
                no_discard[*seat as usize] += 1;
            }
        }
        for x in 0..game.seats() as Seat {
            // a seat holds its dealt cards plus one, and one more per meld it made without a
            // discard (S6)
            let held = s.hand_len(x) + s.face_down_len(x);
            let melded: usize = s.melded(x).iter().map(|m| m.cards().len()).sum();
            let most = usize::from(game.options().hand_size) + 1 + no_discard[x as usize];
            assert!(held + melded <= most, "seat {x} holds {}", held + melded);
        }
    }
    let o = s.outcome().unwrap();
    assert_eq!(o.payouts().iter().sum::<i64>(), 0, "zero-sum, game {index}");
    assert_eq!(o.winner.is_some(), o.reason != "stock_floor");
    if let Some(w) = o.winner {
        assert!(o.payouts()[w as usize] > 0);
    }
    (seq, o)
}

/// A turn option offers the turn player's legal melds (S2, S5 pair gate) solved afresh, then
/// the decline (the window made them once, when it opened).
fn assert_turn_melds_fresh(s: &PacksState, list: &[Action]) {
    let Phase::TurnOption(t) = s.phase() else {
        return;
    };
    let active = s.active().expect("an active card").card;
    let mut melds = Melds::new();
    let gate = s.options().pair_meld_min_points;
    legal_melds(
        s.hand(t),
        active,
        s.fixed_points(t),
        s.set_rules(),
        gate,
        &mut melds,
    );
    let offered: Vec<Meld> = list
        .iter()
        .filter_map(|a| match a {
            Action::Meld(m) => Some(*m),
            _ => None,
        })
        .collect();
    assert_eq!(offered, melds.to_vec(), "seat {t}'s melds on {active}");
    assert!(matches!(
        list.last(),
        Some(Action::Draw | Action::PassDrawn)
    ));
}

/// Every seat's hand facts and fixed points, kept by the state, equal a fresh solve of its hand
/// and a fresh sum over its face-down and melded sets.
fn assert_facts_fresh(s: &PacksState, when: &str) {
    let rules = s.set_rules();
    for x in 0..s.players() as Seat {
        let fresh = HandFacts::of(s.hand(x), rules);
        assert_eq!(s.facts(x), fresh, "seat {x}'s facts, {when}");
        let quad = |c| SetInstance::new(SetKind::Quad, &[c; 4], Zone::FaceDown, Origin::Dealt);
        let face_down: u32 = s.face_down(x).map(|c| set_points(&quad(c), rules)).sum();
        let melded: u32 = s.melded(x).iter().map(|m| set_points(m, rules)).sum();
        assert_eq!(
            s.fixed_points(x),
            face_down + melded,
            "seat {x}'s points, {when}"
        );
    }
}

fn random_games(variant: fn(u8) -> Options, games: u64) -> (u64, u64) {
    let (mut won, mut drawn) = (0, 0);
    for players in [2u8, 3, 4, 6, 8] {
        let game = MultiPack::new(variant(players)).unwrap();
        for index in 0..games {
            let (_, o) = checked_random_game(&game, index);
            won += u64::from(o.winner.is_some());
            drawn += u64::from(o.winner.is_none());
        }
    }
    (won, drawn)
}

#[test]
fn random_sisepai21_games_keep_every_invariant() {
    let (won, _) = random_games(S21, 300);
    assert!(won > 1000);
}

#[test]
fn random_dirtyking26_games_keep_every_invariant() {
    let (won, drawn) = random_games(D26, 40);
    assert!(won > 100 && drawn > 0, "{won} won, {drawn} drawn");
}

#[test]
fn replaying_a_seed_gives_the_same_game() {
    for game in [MultiPack::sisepai21(4), MultiPack::dirtyking26(3)] {
        let game = game.unwrap();
        for index in 0..10 {
            assert_eq!(
                checked_random_game(&game, index),
                checked_random_game(&game, index)
            );
        }
        assert_ne!(
            checked_random_game(&game, 0).0,
            checked_random_game(&game, 1).0
        );
    }
}

#[test]
fn ismcts_plays_both_variants_through_the_generic_loop() {
    for (game, players) in [(S21 as fn(u8) -> Options, 4u8), (D26, 3)] {
        let game = MultiPack::new(game(players)).unwrap();
        let params = IsmctsParams {
            iterations: 8,
            ..IsmctsParams::default()
        };
        let mut agents: Vec<Box<dyn Agent<PacksState>>> = vec![
            Box::new(Ismcts::new(params, Box::new(RandomAgent))),
            Box::new(RandomAgent),
        ];
        let mut seat_agent = vec![1; players as usize];
        seat_agent[0] = 0;
        for deal in 0..2 {
            let id = GameId {
                master: 9,
                deal,
                rotation: 0,
            };
            let mut decisions = 0;
            let o = play_game(&game, id, &mut agents, &seat_agent, |(s, d)| {
                decisions += usize::from(d.is_some());
                assert_eq!(s.total_cards(), s.deck().len());
            });
            assert_eq!(o.payouts().iter().sum::<i64>(), 0);
            assert!(decisions > 0);
        }
    }
}

#[test]
fn options_the_core_cannot_run_are_errors() {
    assert!(MultiPack::new(Options::classic(4)).is_err());
    assert!(MultiPack::sisepai21(9).is_err());
    assert!(MultiPack::sisepai21(1).is_err());
    assert!(MultiPack::new(Options {
        stock_floor: 0,
        payout: bailab::games::tusac::options::Payout::KongDeduction,
        ..S21(4)
    })
    .is_err());
    for n in 2..=8 {
        assert!(MultiPack::dirtyking26(n).is_ok());
    }
    assert_eq!(MultiPack::sisepai21(8).unwrap().options().decks, 4);
}

/// A determinization keeps everything the seat sees (§1.5) and resamples the rest consistently.
fn check_determinization(s: &PacksState, seat: Seat, rng: &mut bailab::rng::GameRng) -> PacksState {
    let d = s.view(seat).determinize(rng);
    assert_eq!(d.total_cards(), s.total_cards());
    assert_eq!(d.hand(seat), s.hand(seat));
    assert!(d.face_down(seat).eq(s.face_down(seat)));
    assert_eq!(legal(&d), legal(s), "the seat's choices do not change");
    assert_eq!(
        (d.phase(), d.active(), d.stock_len()),
        (s.phase(), s.active(), s.stock_len())
    );
    assert_eq!((d.dead(), d.double_rank()), (s.dead(), s.double_rank()));
    let mut sorted = s.deck().to_vec();
    sorted.sort();
    assert_eq!(d.deck(), &sorted[..], "the deck order is not shown");
    for x in 0..s.players() as Seat {
        assert_eq!(d.hand_len(x), s.hand_len(x));
        assert_eq!(d.face_down_len(x), s.face_down_len(x));
        assert_eq!(d.melded(x), s.melded(x));
        assert!(d.face_down(x).all(|c| !c.is_king()));
        if x != seat {
            assert_eq!(d.pending(x), None, "other declarations are hidden");
        }
    }
    if let (Phase::Claim(x), Some(a)) = (s.phase(), s.active()) {
        assert!(
            d.hand(x)[a.card.index()] >= 2,
            "an asked seat holds two copies"
        );
    }
    d
}

#[test]
fn determinizations_are_consistent_with_the_view() {
    for (variant, players) in [(S21 as fn(u8) -> Options, 4u8), (D26, 3), (S21, 8)] {
        let game = MultiPack::new(variant(players)).unwrap();
        for index in 0..20 {
            let mut s = game.deal(&mut stream_rng(31, index, DEAL_STREAM));
            let mut rng = stream_rng(31, index, 1);
            let mut actions = Default::default();
            while let Some(seat) = s.to_move() {
                let mut d = check_determinization(&s, seat, &mut rng);
                if s.turns().is_multiple_of(7) {
                    // a determinized game plays on to its end
                    while d.to_move().is_some() {
                        d.legal_actions(&mut actions);
                        let list: &[Action] = actions.as_slice();
                        d.apply(list[bailab::agent::uniform_index(list.len(), &mut rng)]);
                    }
                    assert_eq!(d.total_cards(), s.total_cards());
                }
                s.legal_actions(&mut actions);
                let list: &[Action] = actions.as_slice();
                s.apply(list[bailab::agent::uniform_index(list.len(), &mut rng)]);
            }
        }
    }
}
