//! Unit tests of the loose-card solver.

use super::partition::partition;
use super::solve::templates;
use super::*;
use crate::games::tusac::card::{parse_cards, Rank};
use crate::games::tusac::options::{Options, PointTable};

fn sisepai() -> SetRules {
    SetRules::new(&Options::sisepai21(4), None)
}

fn dirty(double: Option<Rank>) -> SetRules {
    SetRules::new(&Options::dirtyking26(4), double)
}

fn hand(s: &str) -> Counts {
    counts_of(&parse_cards(s, 16).unwrap())
}

/// The value of a fixed (face-down or melded) set, from `sets::value` and the doubling rule.
fn fixed(s: &str, zone: Zone, origin: Origin, rules: &SetRules) -> u32 {
    let cards = parse_cards(s, 16).unwrap();
    let kind = SetKind::of_with(&cards, rules).unwrap();
    points_of(kind, &cards, zone, origin, rules)
}

#[test]
fn section_3_5_rows_without_the_lock() {
    // §3.5 "no lock" counts: rows 7, 12 and 18 are 0, row 24 is 3.
    for rules in [sisepai(), dirty(None)] {
        assert_eq!(loose(&hand("yK yK yK yA yE"), &rules), 0, "row 7");
        assert_eq!(loose(&hand("rR rR rR rC rH"), &rules), 0, "row 12");
        assert_eq!(loose(&hand("rP rP rP yP gP"), &rules), 0, "row 18");
    }
    let row24 = "wK wK wK wA wE rR rR rC rH yP yP gP gP rP wP wP yC yC yH gE";
    assert_eq!(loose(&hand(row24), &sisepai()), 3, "row 24");
    // Rows whose count does not depend on the lock keep it.
    assert_eq!(loose(&hand("rR rR rC rC rH"), &sisepai()), 1, "row 9");
    assert_eq!(loose(&hand("wR wC gH"), &sisepai()), 3, "row 13");
    assert_eq!(loose(&hand("rA rE"), &sisepai()), 2, "row 2");
}

#[test]
fn king_sets_follow_section_2_1() {
    // sisepai21: no King pairs, triples or quads; lone Kings only.
    assert_eq!(best(&hand("rK rK"), &sisepai()), (0, 2));
    assert_eq!(best(&hand("rK rK rK rK"), &sisepai()), (0, 4));
    // dirtyking26: the King Quad is worth 12, the King groups 10 and 8.
    assert_eq!(best(&hand("rK rK rK rK"), &dirty(None)), (0, 12));
    assert_eq!(best(&hand("rK yK gK wK"), &dirty(None)), (0, 10));
    assert_eq!(best(&hand("rK rK yK gK"), &dirty(None)), (0, 8));
    assert_eq!(
        best(&hand("rK rK rK"), &dirty(None)),
        (0, 3),
        "no King triple"
    );
    // KAE is worth 2 in both variants.
    assert_eq!(best(&hand("gK gA gE"), &sisepai()), (0, 2));
    // §3.5 row 5 without the lock: the pairs keep every card.
    assert_eq!(best(&hand("gK gA gA gE gE"), &sisepai()), (0, 1));
}

#[test]
fn cross_colour_sets_only_in_dirtyking26() {
    assert_eq!(best(&hand("rH yH gH"), &sisepai()), (3, 0));
    assert_eq!(best(&hand("rH yH gH"), &dirty(None)), (0, 1));
    assert_eq!(best(&hand("rA yA gA wA"), &dirty(None)), (0, 4));
    assert_eq!(
        best(&hand("rA yA gA wA"), &dirty(Some(Rank::Advisor))),
        (0, 8)
    );
    assert_eq!(
        best(&hand("rK yK gK"), &dirty(None)),
        (0, 3),
        "no King Colours3"
    );
    // Same-colour pawns are identical sets, not Pawns3.
    assert_eq!(best(&hand("rP rP yP"), &sisepai()), (1, 0));
    assert_eq!(best(&hand("rP yP gP wP"), &sisepai()), (0, 4));
}

#[test]
fn five_to_eight_copies_of_one_type() {
    let s = sisepai();
    assert_eq!(best(&hand("rH rH rH rH rH"), &s), (0, 3), "triple + pair");
    assert_eq!(best(&hand("rH rH rH rH rH rH"), &s), (0, 8), "quad + pair");
    assert_eq!(
        best(&hand("rH rH rH rH rH rH rH"), &s),
        (0, 11),
        "quad + triple"
    );
    assert_eq!(
        best(&hand("rH rH rH rH rH rH rH rH"), &s),
        (0, 16),
        "two quads"
    );
    let eight_h = hand("rH rH rH rH rH rH rH rH");
    assert_eq!(best(&eight_h, &dirty(Some(Rank::Horse))), (0, 32));
    // 7 copies: 4+3 (11) or 3+2+2 (3).
    let seven = hand("rH rH rH rH rH rH rH");
    assert_eq!(complete_values(&seven, &s), 1 << 11 | 1 << 3);
    let mut sixteen = [0u8; CARD_TYPES];
    sixteen[Card::new(crate::games::tusac::Colour::Red, Rank::Pawn).index()] = 16;
    assert_eq!(best(&sixteen, &s), (0, 32));
}

#[test]
fn example_s1_section_6_3() {
    let r = sisepai();
    let hand_part = hand("wR wR wR rK rA rE rP yP gP gK");
    assert_eq!(best(&hand_part, &r), (0, 3 + 2 + 1 + 1));
    let fixed_points = fixed("gH gH gH gH", Zone::FaceDown, Origin::Dealt, &r)
        + fixed("rC rC rC", Zone::Public, Origin::Melded, &r)
        + fixed("yK", Zone::Public, Origin::Melded, &r)
        + fixed("yR yH yC", Zone::Public, Origin::Melded, &r);
    assert_eq!(fixed_points, 8 + 1 + 1 + 1);
    assert_eq!(
        win_score(&hand_part, fixed_points, &r, WinTest::CompleteOver9),
        Some(18)
    );
}

#[test]
fn example_d1_section_6_4() {
    let r = dirty(Some(Rank::Horse));
    let hand_part = hand("rK yK gK wK rR rR rR rP yP gP wP gA gA");
    let fixed_points = fixed("wH wH wH wH", Zone::FaceDown, Origin::Dealt, &r)
        + fixed("rH yH gH", Zone::Public, Origin::Melded, &r)
        + fixed("wC wC wC", Zone::Public, Origin::Melded, &r)
        + fixed("rK rA rE", Zone::Public, Origin::Melded, &r);
    assert_eq!(fixed_points, 16 + 2 + 1 + 2);
    assert_eq!(best(&hand_part, &r), (0, 10 + 3 + 4));
    let test = WinTest::CompleteOver20Even;
    assert_eq!(win_score(&hand_part, fixed_points, &r, test), Some(38));
    // "If the same hand had scored 37 the win would be refused": with one point less fixed,
    // every zero-loose total (37 with the Kings4Colours, 31 with four lone Kings) is odd.
    assert!(!passes(test, 37));
    assert_eq!(win_score(&hand_part, fixed_points - 1, &r, test), None);
}

#[test]
fn win_tests_of_section_4_7() {
    let r = sisepai();
    let h = hand("rK rA rA rA rE rE rE");
    assert_eq!(best(&h, &r), (0, 7));
    assert_eq!(
        win_score(&h, 2, &r, WinTest::CompleteOver9),
        None,
        "9 is not > 9"
    );
    assert_eq!(win_score(&h, 3, &r, WinTest::CompleteOver9), Some(10));
    let incomplete = hand("rK rA rA rA rE rE rE rR");
    assert_eq!(win_score(&incomplete, 30, &r, WinTest::CompleteOver9), None);
    // §3.6 last paragraph: the best total (7 + 20 = 27) is odd, but [rK rA rE] [rA rA]
    // [rE rE] is worth 2 and 22 is even and over 20: the hand wins with 22.
    let d = dirty(None);
    assert_eq!(complete_values(&h, &d), 1 << 7 | 1 << 2);
    let test = WinTest::CompleteOver20Even;
    assert_eq!(win_score(&h, 20, &d, test), Some(22));
    assert_eq!(win_score(&h, 14, &d, test), None, "21 and 16 both fail");
    assert_eq!(win_score(&h, 15, &d, test), Some(22));
    let (sets, rest) = partition(&h, &d, Some(2));
    assert_eq!(rest, [0; CARD_TYPES]);
    let kinds: Vec<SetKind> = sets.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [SetKind::KingAdvisorElephant, SetKind::Pair, SetKind::Pair]
    );
    let (sets, _) = partition(&h, &d, None);
    let total: u32 = sets.iter().map(|s| set_points(s, &d)).sum();
    assert_eq!(total, 7);
}

#[test]
fn set_kinds_under_variant_rules() {
    let k = |s: &str, r: &SetRules| SetKind::of_with(&parse_cards(s, 16).unwrap(), r);
    let (s, d) = (sisepai(), dirty(None));
    assert_eq!(k("rK rK", &s), None);
    assert_eq!(k("rK rK", &d), None);
    assert_eq!(k("rK rK rK rK", &s), None);
    assert_eq!(k("rK rK rK rK", &d), Some(SetKind::Quad));
    assert_eq!(k("rK yK gK wK", &d), Some(SetKind::Kings4Colours));
    assert_eq!(k("rK rK yK gK", &d), Some(SetKind::Kings4Mixed));
    assert_eq!(k("rK rK yK yK", &d), Some(SetKind::Kings4Mixed));
    assert_eq!(k("rK yK gK wK", &s), None);
    assert_eq!(k("rK yK gK", &d), None);
    assert_eq!(k("rH yH gH", &d), Some(SetKind::Colours3));
    assert_eq!(k("rH yH gH", &s), None);
    assert_eq!(k("rA yA gA wA", &d), Some(SetKind::Colours4));
    assert_eq!(k("rH rH yH", &d), None);
    assert_eq!(k("rP yP gP", &d), Some(SetKind::Pawns3));
    assert_eq!(k("rP rP yP", &s), None);
    assert_eq!(k("rK rA rE", &s), Some(SetKind::KingAdvisorElephant));
    assert_eq!(k("rK", &s), Some(SetKind::King));
    assert_eq!(k("rH rH", &s), Some(SetKind::Pair));
    assert_eq!(k("wR wC gH", &d), None);
    let quad = SetInstance::new(
        SetKind::Quad,
        &parse_cards("rK rK rK rK", 4).unwrap(),
        Zone::Public,
        Origin::Melded,
    );
    assert_eq!(set_points(&quad, &d), 12);
}

/// A template's points, made from its kind, its rank and whether it is a King Quad, are
/// those of its cards by `points_of` under every point table and double rank.
#[test]
fn template_points_equal_points_of_their_cards() {
    let tables = [
        PointTable::Classic,
        PointTable::FourSac,
        PointTable::Sisepai21,
        PointTable::DirtyKing26,
    ];
    let doubles = std::iter::once(None).chain(Card::all().map(|c| Some(c.rank())));
    for (table, double_rank) in doubles.flat_map(|d| tables.map(|t| (t, d))) {
        let rules = SetRules {
            table,
            double_rank,
            ..dirty(None)
        };
        for tp in templates().iter().flatten() {
            let of_cards = points_of(tp.kind, &tp.cards(), Zone::Private, Origin::Dealt, &rules);
            assert_eq!(tp.points(&rules), of_cards, "{tp:?} under {rules:?}");
        }
    }
}
