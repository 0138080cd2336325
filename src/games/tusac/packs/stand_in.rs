//! A small brute-force stand-in for the loose-card solver (`super::super::loose`, helper
//! "loose"), with the same names and signatures. It will be replaced by `loose.rs` at the merge.
//!
//! Every function enumerates partitions by plain recursion: take the lowest card type still
//! present; either leave one copy loose, or remove a set that contains it (§3.4, last paragraph).
//! The hand is first split into independent groups of card types (no set crosses two groups), so
//! that the recursion stays small. No memo, no heap.

use crate::games::tusac::card::{Card, Rank, CARD_TYPES};
use crate::games::tusac::options::{KingIdenticalSets, Options, PointTable, WinTest};
use crate::games::tusac::sets::{value, Origin, SetInstance, SetKind, Zone};
use arrayvec::ArrayVec;

/// Copies held per card type, up to 16.
pub type Counts = [u8; CARD_TYPES];

/// Which sets a hand may be partitioned into, and how they score (§2.1, §2.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SetRules {
    /// Identical sets of Kings (§2.1).
    pub king_identical: KingIdenticalSets,
    /// `Colours3`/`Colours4` are sets (dirtyking26).
    pub cross_colour: bool,
    /// `Kings4Colours`/`Kings4Mixed` are sets (dirtyking26).
    pub king_groups: bool,
    /// The point table.
    pub table: PointTable,
    /// The double rank (dirtyking26): sets all of this rank score twice.
    pub double_rank: Option<Rank>,
}

impl SetRules {
    /// The set rules of `opts`, with the game's double rank.
    pub fn new(opts: &Options, double_rank: Option<Rank>) -> SetRules {
        SetRules {
            king_identical: opts.king_identical_sets,
            cross_colour: opts.cross_colour_sets,
            king_groups: opts.dealt_only_king_groups,
            table: opts.point_table,
            double_rank,
        }
    }
}

/// The table value of a set, doubled when all its cards have the double rank (§2.5).
pub fn set_points(set: &SetInstance, rules: &SetRules) -> u32 {
    let cards = set.cards();
    let king_quad = set.kind == SetKind::Quad && cards[0].is_king();
    let v = value(rules.table, set.kind, set.zone, set.origin, king_quad);
    let doubled = rules.table == PointTable::DirtyKing26
        && rules
            .double_rank
            .is_some_and(|r| cards.iter().all(|c| c.rank() == r));
    if doubled {
        2 * v
    } else {
        v
    }
}

/// A hand set: its kind and cards.
type HandSet = (SetKind, ArrayVec<Card, 4>);

fn hand_set(kind: SetKind, cards: &[Card]) -> HandSet {
    (kind, cards.iter().copied().collect())
}

fn points(set: &HandSet, rules: &SetRules) -> u32 {
    set_points(
        &SetInstance::new(set.0, &set.1, Zone::Private, Origin::Dealt),
        rules,
    )
}

/// Every hand set that contains a copy of `card` and fits in `hand` (§2.1 with these rules).
fn sets_with(hand: &Counts, card: Card, rules: &SetRules, out: &mut ArrayVec<HandSet, 32>) {
    out.clear();
    let mut push = |kind: SetKind, cards: &[Card]| {
        let mut need = [0u8; CARD_TYPES];
        for c in cards {
            need[c.index()] += 1;
        }
        if cards.iter().all(|c| need[c.index()] <= hand[c.index()]) {
            out.push(hand_set(kind, cards));
        }
    };
    let (colour, rank) = (card.colour() as usize, card.rank());
    let of = |col: usize, r: Rank| Card::from_index(r as usize * 4 + col);
    if card.is_king() {
        push(SetKind::King, &[card]);
    }
    let identical: &[SetKind] = match (card.is_king(), rules.king_identical) {
        (false, _) | (true, KingIdenticalSets::All) => {
            &[SetKind::Pair, SetKind::Triple, SetKind::Quad]
        }
        (true, KingIdenticalSets::QuadOnly) => &[SetKind::Quad],
        (true, KingIdenticalSets::None) => &[],
    };
    for &kind in identical {
        let len = kind as usize + 1; // Pair 2, Triple 3, Quad 4
        push(kind, &[card; 4][..len]);
    }
    let chows = [
        (
            SetKind::KingAdvisorElephant,
            [Rank::King, Rank::Advisor, Rank::Elephant],
        ),
        (
            SetKind::RookCannonHorse,
            [Rank::Rook, Rank::Cannon, Rank::Horse],
        ),
    ];
    for (kind, ranks) in chows {
        if ranks.contains(&rank) {
            push(kind, &ranks.map(|r| of(colour, r)));
        }
    }
    let across = match rank {
        Rank::Pawn => Some((SetKind::Pawns3, SetKind::Pawns4)),
        Rank::King => None,
        _ if rules.cross_colour => Some((SetKind::Colours3, SetKind::Colours4)),
        _ => None,
    };
    if let Some((three, four)) = across {
        for missing in 0..4 {
            if missing != colour {
                let cards: ArrayVec<Card, 3> = (0..4)
                    .filter(|&c| c != missing)
                    .map(|c| of(c, rank))
                    .collect();
                push(three, &cards);
            }
        }
        push(four, &[0, 1, 2, 3].map(|c| of(c, rank)));
    }
    if rules.king_groups && card.is_king() {
        for a in 0..4 {
            for b in a..4 {
                for c in b..4 {
                    let mut cards = [
                        card,
                        of(a, Rank::King),
                        of(b, Rank::King),
                        of(c, Rank::King),
                    ];
                    cards.sort();
                    let distinct = cards.windows(2).all(|w| w[0] != w[1]);
                    let same = cards.windows(2).all(|w| w[0] == w[1]);
                    if distinct {
                        push(SetKind::Kings4Colours, &cards);
                    } else if !same {
                        push(SetKind::Kings4Mixed, &cards);
                    }
                }
            }
        }
    }
}

/// The lowest card type held, if any.
fn lowest(hand: &Counts) -> Option<Card> {
    hand.iter().position(|&n| n > 0).map(Card::from_index)
}

fn remove(hand: &mut Counts, set: &HandSet) {
    for c in &set.1 {
        hand[c.index()] -= 1;
    }
}

fn restore(hand: &mut Counts, set: &HandSet) {
    for c in &set.1 {
        hand[c.index()] += 1;
    }
}

/// The groups of card types no set crosses: per colour K/A/E and R/C/H and all pawns; with
/// cross-colour sets or King groups, all K/A/E, all R/C/H and all pawns.
fn groups(rules: &SetRules) -> ArrayVec<u32, 9> {
    let mask = |ranks: &[Rank], colours: &[usize]| {
        let mut m = 0u32;
        for &r in ranks {
            for &c in colours {
                m |= 1 << (r as usize * 4 + c);
            }
        }
        m
    };
    let kae = [Rank::King, Rank::Advisor, Rank::Elephant];
    let rch = [Rank::Rook, Rank::Cannon, Rank::Horse];
    let all = [0, 1, 2, 3];
    let mut out = ArrayVec::new();
    if rules.cross_colour || rules.king_groups {
        out.push(mask(&kae, &all));
        out.push(mask(&rch, &all));
    } else {
        for c in all {
            out.push(mask(&kae, &[c]));
            out.push(mask(&rch, &[c]));
        }
    }
    out.push(mask(&[Rank::Pawn], &all));
    out
}

fn restricted(hand: &Counts, mask: u32) -> Counts {
    std::array::from_fn(|i| if mask >> i & 1 == 1 { hand[i] } else { 0 })
}

/// `(loose, points)` of the best partition: fewest loose cards, then most points.
fn best_rec(hand: &mut Counts, rules: &SetRules) -> (u8, u32) {
    let Some(card) = lowest(hand) else {
        return (0, 0);
    };
    hand[card.index()] -= 1;
    let (l, p) = best_rec(hand, rules);
    hand[card.index()] += 1;
    let mut best = (l + 1, p);
    let mut sets = ArrayVec::new();
    sets_with(hand, card, rules, &mut sets);
    for set in &sets {
        remove(hand, set);
        let (l, p) = best_rec(hand, rules);
        restore(hand, set);
        let p = p + points(set, rules);
        if l < best.0 || (l == best.0 && p > best.1) {
            best = (l, p);
        }
    }
    best
}

/// Bit `v` set when some zero-loose partition is worth `v` (values up to 127).
fn values_rec(hand: &mut Counts, rules: &SetRules) -> u128 {
    let Some(card) = lowest(hand) else {
        return 1;
    };
    let mut sets = ArrayVec::new();
    sets_with(hand, card, rules, &mut sets);
    let mut out = 0u128;
    for set in &sets {
        remove(hand, set);
        let rest = values_rec(hand, rules);
        restore(hand, set);
        out |= rest.checked_shl(points(set, rules)).unwrap_or(0);
    }
    out
}

/// The sums `a + b` of a value of `a` and a value of `b` (bit sets, capped at 127).
fn add_values(a: u128, b: u128) -> u128 {
    (0..128)
        .filter(|&v| b >> v & 1 == 1)
        .fold(0, |acc, v| acc | a << v)
}

/// The fewest loose cards of any partition of `hand` (§3.3).
pub fn loose(hand: &Counts, rules: &SetRules) -> u8 {
    best(hand, rules).0
}

/// `(loose, points)` of the best partition by value among those with the fewest loose cards
/// (§3.6, §4.6 S5).
pub fn best(hand: &Counts, rules: &SetRules) -> (u8, u32) {
    groups(rules).iter().fold((0, 0), |(l, p), &m| {
        let (gl, gp) = best_rec(&mut restricted(hand, m), rules);
        (l + gl, p + gp)
    })
}

/// The totals of every zero-loose partition of `hand`, as a bit set (0: the hand is not
/// complete).
pub fn complete_values(hand: &Counts, rules: &SetRules) -> u128 {
    groups(rules).iter().fold(1, |acc, &m| {
        if acc == 0 {
            return 0;
        }
        add_values(acc, values_rec(&mut restricted(hand, m), rules))
    })
}

/// The score a hand wins with, with `fixed_points` from face-down and melded sets (§4.7): `None`
/// when the hand is not complete or no partition meets the test; else the largest total that
/// meets it (§3.6).
pub fn win_score(hand: &Counts, fixed_points: u32, rules: &SetRules, test: WinTest) -> Option<u32> {
    let values = complete_values(hand, rules);
    (0..128u32)
        .rev()
        .filter(|&v| values >> v & 1 == 1)
        .map(|v| v + fixed_points)
        .find(|&t| match test {
            WinTest::TrashZero => true,
            WinTest::CompleteOver9 => t > 9,
            WinTest::CompleteOver20Even => t > 20 && t % 2 == 0,
        })
}

/// A partition of `hand` into hand sets and the loose cards left: the best by value when
/// `target` is `None`, else a zero-loose partition worth exactly `target` (an empty partition
/// with every card loose when there is none).
pub fn partition(
    hand: &Counts,
    rules: &SetRules,
    target: Option<u32>,
) -> (ArrayVec<SetInstance, 26>, Counts) {
    let mut h = *hand;
    let mut sets = ArrayVec::new();
    let mut left = [0u8; CARD_TYPES];
    let mut goal = target;
    if let Some(t) = target {
        if complete_values(hand, rules) >> t & 1 == 0 {
            return (sets, *hand);
        }
    }
    while let Some(card) = lowest(&h) {
        let mut options = ArrayVec::new();
        sets_with(&h, card, rules, &mut options);
        let want = best(&h, rules);
        let chosen = options.iter().find(|set| {
            let p = points(set, rules);
            remove(&mut h, set);
            let ok = match goal {
                Some(t) => t >= p && complete_values(&h, rules) >> (t - p) & 1 == 1,
                None => {
                    let (l, q) = best(&h, rules);
                    (l, q + p) == want
                }
            };
            restore(&mut h, set);
            ok
        });
        match chosen {
            Some(set) => {
                remove(&mut h, set);
                goal = goal.map(|t| t - points(set, rules));
                sets.push(SetInstance::new(
                    set.0,
                    &set.1,
                    Zone::Private,
                    Origin::Dealt,
                ));
            }
            None => {
                h[card.index()] -= 1;
                left[card.index()] += 1;
            }
        }
    }
    (sets, left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tusac::card::parse_cards;

    fn counts(s: &str) -> Counts {
        let mut h = [0u8; CARD_TYPES];
        parse_cards(s, 16)
            .unwrap()
            .iter()
            .for_each(|c| h[c.index()] += 1);
        h
    }

    fn s21() -> SetRules {
        SetRules::new(&Options::sisepai21(4), None)
    }

    fn d26(double: Option<Rank>) -> SetRules {
        SetRules::new(&Options::dirtyking26(4), double)
    }

    #[test]
    fn no_khap_lock_and_no_king_identical_sets_in_sisepai21_section_3_3() {
        // §3.5 rows 7, 12, 18 without the lock: 0 loose
        assert_eq!(loose(&counts("yK yK yK yA yE"), &s21()), 0);
        assert_eq!(loose(&counts("rR rR rR rC rH"), &s21()), 0);
        assert_eq!(loose(&counts("rP rP rP yP gP"), &s21()), 0);
        // rows 9, 13: the same as with the lock
        assert_eq!(loose(&counts("rR rR rC rC rH"), &s21()), 1);
        assert_eq!(loose(&counts("wR wC gH"), &s21()), 3);
        // a King pair is no set: two lone Kings (2 points)
        assert_eq!(best(&counts("rK rK"), &s21()), (0, 2));
        // best value: row 21 is worth 2 × 4 as two Pawns4 (sisepai21 Pawns4 = 4)
        assert_eq!(best(&counts("rP rP yP yP gP gP wP wP"), &s21()), (0, 8));
        // a dealt Triple 3, a KAE 2
        assert_eq!(best(&counts("wR wR wR rK rA rE"), &s21()), (0, 5));
    }

    #[test]
    fn dirtyking26_sets_and_doubling_section_2_5() {
        let r = d26(Some(Rank::Horse));
        assert_eq!(best(&counts("rH yH gH"), &r), (0, 2), "Colours3 1, doubled");
        assert_eq!(best(&counts("rA yA gA wA"), &r), (0, 4), "Colours4 4");
        assert_eq!(
            best(&counts("rK yK gK wK"), &r),
            (0, 10),
            "Kings4Colours 10"
        );
        assert_eq!(best(&counts("rK rK yK gK"), &r), (0, 8), "Kings4Mixed 8");
        assert_eq!(best(&counts("rK rK rK rK"), &r), (0, 12), "a King Quad 12");
        assert_eq!(best(&counts("rK rK"), &r), (0, 2), "no King pairs");
        assert_eq!(
            best(&counts("gH gH gH"), &r),
            (0, 6),
            "a dealt Triple 3, doubled"
        );
        let values = complete_values(&counts("rK yK gK wK"), &r);
        assert_eq!(values, 1 << 10 | 1 << 4, "Kings4Colours or four lone Kings");
        assert_eq!(complete_values(&counts("rK rA"), &r), 0, "not complete");
    }

    #[test]
    fn partitions_reach_their_values() {
        let r = d26(None);
        let hand = counts("rK yK gK wK rR rR rR gA gA");
        let (sets, left) = partition(&hand, &r, None);
        assert_eq!(left, [0; CARD_TYPES]);
        let total: u32 = sets.iter().map(|s| set_points(s, &r)).sum();
        assert_eq!(total, best(&hand, &r).1);
        let (sets, _) = partition(&hand, &r, Some(7));
        let total: u32 = sets.iter().map(|s| set_points(s, &r)).sum();
        assert_eq!(total, 7, "four lone Kings and the Triple");
        let (sets, left) = partition(&counts("rR rC"), &r, None);
        assert!(sets.is_empty());
        assert_eq!(left, counts("rR rC"));
    }
}
