//! The multi-pack core (sisepai21, dirtyking26) at the points where the public Python engine of
//! the Sisepai guide's author (Mythcell/sisepai, `game.py` and `sisepai.py`) and the spec part
//! ways (`docs/tusac-sisepai-crosscheck.md`). Each test pins the spec's rule, names the section
//! and says what the Python engine does instead, so the engine is never "fixed" towards it.
//! The first test is a bug of ours the cross-check found (§4.6 S5, current points).

use bailab::game::GameState;
use bailab::games::tusac::actions::{Action, Phase, Rule};
use bailab::games::tusac::card::{Rank, CARD_TYPES};
use bailab::games::tusac::options::Options;
use bailab::games::tusac::packs::loose::{best, counts_of, loose, max_points, points_of, Counts};
use bailab::games::tusac::packs::melds::current_points;
use bailab::games::tusac::sets::SetRules;
use bailab::games::tusac::sets::{Origin, Zone};
use bailab::games::tusac::{Card, SetKind};
use bailab::rng::{shuffle, stream_rng};
use std::collections::HashMap;

use crate::packs_position;
use packs_position::{act, card, cards, count, legal, meld, position};

const S21: fn(u8) -> Options = Options::sisepai21;

// ---------------------------------------------------------------- a bug of ours

#[test]
fn s5_current_points_are_the_best_value_partition_loose_cards_allowed() {
    // §4.6 S5: "current points are the face-down and melded set values, plus the best-value
    // partition of the hand (loose cards allowed)". `yR yR yR yC yH rC` is worth 3 as
    // [yR yR yR] with three loose cards; the fewest-loose partition [yR yC yH] [yR yR] | rC is
    // worth only 1. With gH×4 face down (8) the seat has 11 > 9 points, not 9.
    // (Mythcell/sisepai agrees: its greedy hand score takes the triple first, 3 points.)
    let rules = SetRules::new(&S21(3), None);
    let hand = counts_of(&cards("yR yR yR yC yH rC"));
    assert_eq!(
        best(&hand, &rules),
        (1, 1),
        "fewest loose cards, then points"
    );
    assert_eq!(current_points(&hand, 8, &rules), 11);
    let hands = [
        "yA yE wR wC gP wP rC wA wE gR gA",
        "gH gH gH gH yR yR yR yC yH rC",
        "yA yE gP wP wA wE gR gC rA rE",
    ];
    let mut s = position(S21(3), &hands, "wP");
    act(&mut s, 0, Action::Discard(card("rC")));
    // the Pair does not win (8 + [yR yC yH] [yR yR] = 9), but it is offered: 11 > 9
    assert_eq!(s.phase(), Phase::TurnOption(1));
    assert_eq!(legal(&s), vec![meld(SetKind::Pair, "rC"), Action::Draw]);
    // the dirtyking26 gate (> 20) with the same hand: 8 + 3 is not enough
    let rules = SetRules::new(&Options::dirtyking26(3), None);
    assert_eq!(current_points(&hand, 8, &rules), 11);
    assert_eq!(current_points(&hand, 18, &rules), 21);
}

/// The most points of any partition of `c`, loose cards allowed, by enumeration: the lowest
/// card is left loose or grouped with 0–3 held cards into any group `SetKind::of_with` knows.
fn brute_max(c: &Counts, rules: &SetRules, memo: &mut HashMap<Counts, u32>) -> u32 {
    let Some(t) = (0..CARD_TYPES).find(|&t| c[t] > 0) else {
        return 0;
    };
    if let Some(&v) = memo.get(c) {
        return v;
    }
    let mut rest = *c;
    rest[t] -= 1;
    let mut out = brute_max(&rest, rules, memo);
    let mut group = vec![Card::from_index(t)];
    groups_max(&mut rest, t, &mut group, rules, memo, &mut out);
    memo.insert(*c, out);
    out
}

fn groups_max(
    rest: &mut Counts,
    from: usize,
    group: &mut Vec<Card>,
    rules: &SetRules,
    memo: &mut HashMap<Counts, u32>,
    out: &mut u32,
) {
    if let Some(kind) = SetKind::of_with(group, rules) {
        let pts = points_of(kind, group, Zone::Private, Origin::Dealt, rules);
        *out = (*out).max(pts + brute_max(rest, rules, memo));
    }
    if group.len() == 4 {
        return;
    }
    for u in from..CARD_TYPES {
        if rest[u] > 0 {
            rest[u] -= 1;
            group.push(Card::from_index(u));
            groups_max(rest, u, group, rules, memo, out);
            group.pop();
            rest[u] += 1;
        }
    }
}

#[test]
fn max_points_equals_a_brute_force_on_random_hands() {
    let variants = [
        (Options::sisepai21(4), None, 21),
        (Options::dirtyking26(4), None, 26),
        (Options::dirtyking26(4), Some(Rank::Horse), 26),
        (Options::dirtyking26(4), Some(Rank::Pawn), 26),
    ];
    let mut deck: Vec<Card> = (0..2).flat_map(|_| Card::all()).collect();
    for (i, (opts, double, size)) in variants.into_iter().enumerate() {
        let rules = SetRules::new(&opts, double);
        let mut memo = HashMap::new();
        let mut rng = stream_rng(14, i as u64, 0);
        let mut above_best = 0;
        for _ in 0..150 {
            shuffle(&mut deck, &mut rng);
            let hand = counts_of(&deck[..size]);
            let want = brute_max(&hand, &rules, &mut memo);
            assert_eq!(max_points(&hand, &rules), want, "{:?}", &deck[..size]);
            assert!(want >= best(&hand, &rules).1);
            above_best += usize::from(want > best(&hand, &rules).1);
        }
        assert!(
            above_best > 0,
            "some hands score more with loose cards left"
        );
    }
}

// ---------------------------------------------------------------- spec kept, Python differs

#[test]
fn loose_cards_are_counted_by_the_optimal_partition_section_3_3() {
    // §3.3: `loose` is the minimum over partitions. Python's `evaluate_hand` is greedy
    // (Pawns4 first) and leaves `rP` loose in `rP rP yP gP wP`; the optimal partition is
    // [rP rP] [yP gP wP]. Seat 1 wins with the chow: 8 (gH×4) + 1 + 1 = 10 > 9.
    let rules = SetRules::new(&S21(2), None);
    assert_eq!(loose(&counts_of(&cards("rP rP yP gP wP")), &rules), 0);
    let hands = [
        "yA yE wR wC gA wA wE gR gC yC yH rH",
        "gH gH gH gH rP rP yP gP wP rR rC",
    ];
    let mut s = position(S21(2), &hands, "wP");
    act(&mut s, 0, Action::Discard(card("rH")));
    let o = s.outcome().expect("seat 1 wins with [rR rC rH]");
    assert_eq!((o.winner, o.hand_value), (Some(1), 10));
    assert_eq!(o.payouts(), &[-10, 10]);
}

#[test]
fn two_players_may_claim_out_of_turn_section_4_6_s2() {
    // §4.6 S2 holds for every table size. Python turns out-of-turn melds off below 3 players
    // (`enable_oot`); here seat 0 claims a Triple on seat 1's own draw.
    let hands = ["yA yE yR wC rC rC", "gA gE wR gR yH"];
    let mut s = position(S21(2), &hands, "rC wP");
    act(&mut s, 0, Action::Discard(card("wC")));
    act(&mut s, 1, Action::Draw); // draws rC
    act(&mut s, 1, Action::PassDrawn);
    assert_eq!(s.phase(), Phase::Claim(0));
    act(&mut s, 0, meld(SetKind::Triple, "rC rC"));
    assert_eq!(s.melded(0)[0].kind, SetKind::Triple);
    assert_eq!(s.phase(), Phase::MustDiscard(0));
}

#[test]
fn the_discarder_never_claims_its_own_discard_section_4_3() {
    // §4.3: for a discard by D the order stops before D. Python's `check_oot` starts its
    // search at the discarder, which could re-meld its own discard as a Triple.
    let hands = ["rC rC rC yA yE gP", "gA gE wR wH yH", "rC rC wA wE gR"];
    let mut s = position(S21(3), &hands, "wP");
    act(&mut s, 0, Action::Discard(card("rC")));
    assert_eq!(s.phase(), Phase::TurnOption(1));
    act(&mut s, 1, Action::Draw);
    assert_eq!(
        s.phase(),
        Phase::Claim(2),
        "seat 2 holds two; seat 0 is not asked"
    );
    act(&mut s, 2, Action::Pass);
    assert_eq!(s.dead()[card("rC").index()], 1);
    assert_eq!(count(&s, 0, "rC"), 2);
    assert_eq!(s.phase(), Phase::TurnOption(1), "seat 1 plays its own draw");
}

#[test]
fn the_turn_players_pawns4_beats_a_later_triple_section_2_4() {
    // §2.4: Pawns4 > Triple, and T competes with the out-of-turn claims (S2.2). Python checks
    // the 4-colour Chut of the discarder, not of T, so seat 2's Triple would take the card.
    let hands = ["yA yE yR yC gA rP", "yP gP wP wA wE", "rP rP wR wC gE"];
    let mut s = position(S21(3), &hands, "wH");
    act(&mut s, 0, Action::Discard(card("rP")));
    act(&mut s, 1, meld(SetKind::Pawns4, "yP gP wP"));
    act(&mut s, 2, meld(SetKind::Triple, "rP rP"));
    assert_eq!(s.melded(1)[0].kind, SetKind::Pawns4);
    assert!(s.melded(2).is_empty());
    assert_eq!(s.phase(), Phase::MustDiscard(1));
}

#[test]
fn a_winning_triple_beats_a_higher_quad_section_4_6_s2_1() {
    // §4.6 S2.1: wins come first. Python's `check_oot` gives the card to the first Quad
    // claimant before it looks at Triples, whether or not the Triple wins.
    // Seat 3: gH×4 face down (8) + the Triple (1) + [rK rA rE] (2) = 11 > 9.
    let hands = [
        "yA yE yR yC gP rC wA wE wR wC",
        "yR yH gA gE wH yC yP wP gC",
        "rC rC rC gE wR gR yA yE wH",
        "gH gH gH gH rC rC rK rA rE",
    ];
    let mut s = position(S21(4), &hands, "wP");
    act(&mut s, 0, Action::Discard(card("rC")));
    let o = s.outcome().expect("seat 3 wins at once");
    assert_eq!((o.winner, o.hand_value), (Some(3), 11));
    assert!(s.melded(2).is_empty(), "seat 2 is never asked for its Quad");
    assert!(s.last_events().iter().any(|e| matches!(
        e,
        bailab::games::tusac::actions::Event::End {
            winner: Some(3),
            rule: Rule::S2
        }
    )));
}

#[test]
fn an_out_of_turn_claimants_discard_opens_a_claim_window_section_4_3() {
    // §4.3: every discard opens a claim window. Python runs no out-of-turn check on the
    // discard that follows an out-of-turn meld, so seat 1 would never be offered the gH.
    let hands = [
        "yA yE yR yC gP rC",
        "gH gH wA wE wR",
        "rC rC gH yA wC",
        "gA gE wH yH yP",
    ];
    let mut s = position(S21(4), &hands, "wP wP");
    act(&mut s, 0, Action::Discard(card("rC")));
    act(&mut s, 1, Action::Draw);
    act(&mut s, 2, meld(SetKind::Triple, "rC rC"));
    act(&mut s, 2, Action::Discard(card("gH")));
    assert_eq!(
        s.phase(),
        Phase::TurnOption(3),
        "T = next(2); seat 1 was skipped"
    );
    act(&mut s, 3, Action::Draw);
    assert_eq!(s.phase(), Phase::Claim(1));
    assert_eq!(
        legal(&s),
        vec![meld(SetKind::Triple, "gH gH"), Action::Pass]
    );
}

#[test]
fn only_identical_quads_go_face_down_exactly_four_cards_section_1_4_step_3() {
    // §1.4 step 3: non-King quadruples go face down, exactly 4 cards however many copies.
    // Python also puts a dealt 4-colour Chut face down when the hand holds no other pawn, and
    // puts two quads face down from 8 copies.
    let hands = [
        "gH gH gH gH gH gH gH gH yA wC",
        "rP yP gP wP yA yE gR gC wH",
    ];
    let s = position(S21(2), &hands, "wP");
    assert_eq!(s.face_down_len(0), 4);
    assert_eq!(count(&s, 0, "gH"), 4, "the other four stay in hand");
    assert_eq!(s.face_down_len(1), 0, "a dealt Pawns4 stays in hand");
    assert_eq!(count(&s, 1, "rP"), 1);
    assert_eq!(s.outcome(), None);
}
