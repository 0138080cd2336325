//! Integration tests of the loose-card solver of sisepai21 and dirtyking26
//! (`src/games/tusac/packs/loose/`) against the rules reference, `docs/games/tusac.md` §2, §3.3,
//! §3.6 and §4.7.
//!
//! The reference is a brute force that enumerates every partition of the whole hand directly:
//! take the lowest card present, either leave it loose or group it with 0–3 other held cards
//! into any group that `SetKind::of_with` recognises, and recurse (memoised on the whole count
//! vector). It uses neither the block decomposition nor the solver's set templates. The solver
//! must equal it (loose count, best points, the set of zero-loose totals) on random hands from
//! 2-, 3- and 4-pack deals of both variants, with and without a double rank, and on hands
//! concentrated on few card types (5–16 copies of a type).
//! The table paths of `best` and `max_points` must equal their memoised recursions.

use bailab::games::tusac::card::{Card, Rank, CARD_TYPES, RANKS};
use bailab::games::tusac::options::{Options, WinTest};
use bailab::games::tusac::packs::loose::partition::partition;
use bailab::games::tusac::packs::loose::{
    best, block_best, block_ids, block_of, complete_values, counts_of, loose, points_of,
    set_points, win_score, Counts,
};
use bailab::games::tusac::sets::SetRules;
use bailab::games::tusac::sets::{Origin, SetKind, Zone};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

use crate::counting_alloc;
use counting_alloc::allocations;

/// (loose, best points at that loose, zero-loose totals) of a hand, by enumeration.
type Solved = (u8, u32, u128);

struct Brute<'a> {
    rules: &'a SetRules,
    memo: HashMap<Counts, Solved>,
}

impl Brute<'_> {
    fn solve(&mut self, c: &Counts) -> Solved {
        let Some(t) = (0..CARD_TYPES).find(|&t| c[t] > 0) else {
            return (0, 0, 1);
        };
        if let Some(&s) = self.memo.get(c) {
            return s;
        }
        let mut sub = *c;
        sub[t] -= 1;
        let (l, p, _) = self.solve(&sub);
        let mut out: Solved = (l + 1, p, 0);
        let mut rest = *c;
        rest[t] -= 1;
        let mut group = vec![Card::from_index(t)];
        self.groups(&mut rest, t, &mut group, &mut out);
        self.memo.insert(*c, out);
        out
    }

    /// Extends `group` (lowest card first) with held cards of type ≥ `from`, trying every group.
    fn groups(&mut self, rest: &mut Counts, from: usize, group: &mut Vec<Card>, out: &mut Solved) {
        if let Some(kind) = SetKind::of_with(group, self.rules) {
            let pts = points_of(kind, group, Zone::Private, Origin::Dealt, self.rules);
            let (l, p, m) = self.solve(rest);
            let p = p + pts;
            if l < out.0 || (l == out.0 && p > out.1) {
                (out.0, out.1) = (l, p);
            }
            out.2 |= m << pts;
        }
        if group.len() == 4 {
            return;
        }
        for u in from..CARD_TYPES {
            if rest[u] > 0 {
                rest[u] -= 1;
                group.push(Card::from_index(u));
                self.groups(rest, u, group, out);
                group.pop();
                rest[u] += 1;
            }
        }
    }
}

fn brute(hand: &Counts, rules: &SetRules) -> Solved {
    Brute {
        rules,
        memo: HashMap::new(),
    }
    .solve(hand)
}

fn check(hand: &Counts, rules: &SetRules, what: &str) {
    let (l, p, m) = brute(hand, rules);
    let cards: Vec<String> = (0..CARD_TYPES)
        .flat_map(|t| std::iter::repeat_n(Card::from_index(t).to_string(), hand[t] as usize))
        .collect();
    let ctx = format!("{what}: {} under {rules:?}", cards.join(" "));
    assert_eq!(best(hand, rules), (l, p), "best, {ctx}");
    assert_eq!(loose(hand, rules), l, "loose, {ctx}");
    assert_eq!(complete_values(hand, rules), m, "complete values, {ctx}");
    check_partition(hand, rules, None, (l, p), &ctx);
    let mut rest = m;
    while rest != 0 {
        let v = rest.trailing_zeros();
        check_partition(hand, rules, Some(v), (0, v), &ctx);
        rest &= rest - 1;
    }
}

/// `partition` returns recognised sets and loose cards that make up the hand, with the
/// expected loose count and points.
fn check_partition(
    hand: &Counts,
    rules: &SetRules,
    target: Option<u32>,
    want: (u8, u32),
    ctx: &str,
) {
    let (sets, rest) = partition(hand, rules, target);
    let mut total = rest;
    for s in &sets {
        assert_eq!(SetKind::of_with(s.cards(), rules), Some(s.kind), "{ctx}");
        for c in s.cards() {
            total[c.index()] += 1;
        }
    }
    assert_eq!(&total, hand, "cards conserved, {ctx}");
    let pts: u32 = sets.iter().map(|s| set_points(s, rules)).sum();
    let l: u32 = rest.iter().map(|&n| n as u32).sum();
    assert_eq!((l as u8, pts), want, "partition {target:?}, {ctx}");
}

/// The sets of a hand's best partition (its loose cards taken out): a complete hand whose
/// totals the brute force then checks on its own.
fn complete_part(cards: &[Card], rules: &SetRules) -> Counts {
    let mut hand = counts_of(cards);
    let (_, loose_cards) = partition(&hand, rules, None);
    for t in 0..CARD_TYPES {
        hand[t] -= loose_cards[t];
    }
    hand
}

fn variants(rng: &mut impl Rng) -> [(SetRules, usize); 3] {
    let double = RANKS[rng.random_range(1..RANKS.len())];
    [
        (SetRules::new(&Options::sisepai21(4), None), 20),
        (SetRules::new(&Options::dirtyking26(4), None), 26),
        (SetRules::new(&Options::dirtyking26(4), Some(double)), 26),
    ]
}

type TestRng = rand_pcg::Pcg64Mcg;

/// Shuffles a deck of `packs` packs `rounds` times per rule set of [`variants`] and calls `f`
/// with the rng, the shuffled deck, the rules and their hand size.
fn for_each_deal(
    rng: &mut TestRng,
    packs: u8,
    rounds: usize,
    mut f: impl FnMut(&mut TestRng, &[Card], &SetRules, usize),
) {
    let mut deck: Vec<Card> = (0..packs).flat_map(|_| Card::all()).collect();
    for _ in 0..rounds {
        for (rules, size) in variants(rng) {
            deck.shuffle(rng);
            f(rng, &deck, &rules, size);
        }
    }
}

#[test]
fn solver_equals_brute_force_on_random_deals() {
    let mut rng = TestRng::seed_from_u64(14);
    for packs in [2u8, 3, 4] {
        for_each_deal(&mut rng, packs, 150, |_, deck, rules, size| {
            // Whole hands, and their 13-card halves (complete far more often).
            check(&counts_of(&deck[..size]), rules, &format!("{packs} packs"));
            check(
                &counts_of(&deck[..13]),
                rules,
                &format!("{packs} packs, 13"),
            );
        });
    }
}

#[test]
fn solver_equals_brute_force_with_many_copies() {
    // 4 packs of a few types only: 5 to 16 copies of a type.
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(2026);
    let blocks: [&[usize]; 4] = [
        &[0, 1, 4, 5, 8, 9],
        &[12, 16, 20, 13, 17],
        &[24, 25, 26, 27],
        &[2, 6, 10, 26, 27],
    ];
    for _ in 0..100 {
        for types in blocks {
            let mut deck: Vec<Card> = types
                .iter()
                .flat_map(|&t| std::iter::repeat_n(Card::from_index(t), 16))
                .collect();
            for (rules, _) in variants(&mut rng) {
                deck.shuffle(&mut rng);
                let size = rng.random_range(4..=18);
                check(&counts_of(&deck[..size]), &rules, "many copies");
            }
        }
    }
}

#[test]
fn win_score_is_the_largest_total_meeting_the_test() {
    // §3.6, §4.7: over random complete-ish hands, win_score equals the largest brute-force
    // zero-loose total plus the fixed points that passes the variant's test.
    let mut rng = TestRng::seed_from_u64(7);
    let mut wins = 0;
    for_each_deal(&mut rng, 2, 400, |rng, deck, rules, size| {
        let hand = complete_part(&deck[..size], rules);
        let (_, _, mask) = brute(&hand, rules);
        let test = match rules.table {
            bailab::games::tusac::options::PointTable::Sisepai21 => WinTest::CompleteOver9,
            _ => WinTest::CompleteOver20Even,
        };
        let fixed = rng.random_range(0..25);
        let want = (0..128u32)
            .rev()
            .filter(|&v| mask >> v & 1 == 1)
            .map(|v| v + fixed)
            .find(|&t| match test {
                WinTest::CompleteOver9 => t > 9,
                _ => t > 20 && t % 2 == 0,
            });
        wins += want.is_some() as u32;
        assert_eq!(win_score(&hand, fixed, rules, test), want);
    });
    assert!(wins > 20, "the test saw too few wins ({wins})");
}

#[test]
fn king_quad_value_and_no_king_pairs() {
    // §2.1, §2.5: hand-written cases through the public API.
    let s = SetRules::new(&Options::sisepai21(4), None);
    let d = SetRules::new(&Options::dirtyking26(4), Some(Rank::Pawn));
    let h = |cards: &str| counts_of(&bailab::games::tusac::card::parse_cards(cards, 16).unwrap());
    assert_eq!(
        best(&h("gK gK gK gK gA gE"), &s),
        (0, 5),
        "3 lone Kings + KAE"
    );
    assert_eq!(
        best(&h("gK gK gK gK gA gE"), &d),
        (0, 5),
        "loose first: no Quad"
    );
    assert_eq!(
        best(&h("gK gK gK gK gA gA gE gE"), &d),
        (0, 12),
        "the King Quad"
    );
    assert_eq!(
        best(&h("gK gK gK gK gA gA gE gE"), &s),
        (0, 6),
        "no King Quad: two KAEs and two lone Kings"
    );
    assert_eq!(
        best(&h("rP yP gP wP rP yP gP"), &d),
        (0, 10),
        "§3.5 row 20, doubled"
    );
    assert_eq!(
        best(&h("rP rP yP yP gP gP wP wP"), &s),
        (0, 8),
        "§3.5 row 21 (§3.6)"
    );
}

#[test]
fn the_solver_does_not_allocate_from_a_fresh_thread() {
    // Hands are dealt first; then every solver entry point runs on a thread that has never
    // called it (empty caches, templates maybe unbuilt) and the allocator must see nothing.
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
    let mut deck: Vec<Card> = (0..4).flat_map(|_| Card::all()).collect();
    let rules = variants(&mut rng);
    let hands: Vec<Counts> = (0..200)
        .map(|_| {
            deck.shuffle(&mut rng);
            counts_of(&deck[..26])
        })
        .collect();
    std::thread::spawn(move || {
        let before = allocations();
        let mut sink = 0u64;
        for h in &hands {
            for (r, _) in &rules {
                sink += loose(h, r) as u64 + best(h, r).1 as u64;
                sink += complete_values(h, r).count_ones() as u64;
                sink += win_score(h, 12, r, WinTest::CompleteOver20Even).unwrap_or(0) as u64;
                sink += partition(h, r, None).0.len() as u64;
            }
        }
        std::hint::black_box(sink);
        assert_eq!(allocations() - before, 0);
    })
    .join()
    .unwrap();
}

/// `cargo test --release --test tusac tusac_loose::bench -- --ignored --nocapture`: ns per call of
/// `loose` and `win_score` on dealt hands (figures for the report, not a pass/fail test).
#[test]
#[ignore]
fn bench_solver() {
    use bailab::games::tusac::packs::loose::bench_loose;
    for (name, opts, test, size) in [
        (
            "sisepai21",
            Options::sisepai21(4),
            WinTest::CompleteOver9,
            20,
        ),
        (
            "dirtyking26",
            Options::dirtyking26(4),
            WinTest::CompleteOver20Even,
            26,
        ),
    ] {
        let rules = SetRules::new(&opts, None);
        for packs in [2u8, 4] {
            for hands in [1_000usize, 100_000] {
                let (l, w) = bench_loose(&rules, test, packs, size, hands, 1);
                println!(
                    "{name} {packs} packs, {hands} hands: loose {l:.0} ns, win_score {w:.0} ns"
                );
            }
        }
    }
}

#[test]
fn table_path_equals_the_recursion() {
    // `best` takes a table path for the two presets' rules when no type has more than 8
    // copies; it must equal the memoised recursion on many dealt hands of 2 to 4 packs.
    use bailab::games::tusac::packs::loose::best_by_recursion;
    let mut rng = TestRng::seed_from_u64(99);
    for packs in [2u8, 3, 4] {
        for_each_deal(&mut rng, packs, 3000, |rng, deck, rules, size| {
            let n = rng.random_range(1..=size);
            let hand = counts_of(&deck[..n]);
            assert_eq!(best(&hand, rules), best_by_recursion(&hand, rules));
        });
    }
}

#[test]
fn max_points_table_path_equals_the_recursion() {
    // `max_points` (S5's best-value points, loose cards allowed) takes the same table path for
    // the two presets' rules when no type has more than 8 copies, and falls back to the
    // recursion above that: both must equal `max_points_by_recursion` on dealt hands of 2 to 4
    // packs and on hands of few types with up to 16 copies of a type.
    use bailab::games::tusac::packs::loose::{max_points, max_points_by_recursion};
    let mut rng = TestRng::seed_from_u64(2114);
    let mut above_eight = 0;
    let mut check = |hand: &Counts, rules: &SetRules| {
        above_eight += usize::from(hand.iter().any(|&n| n > 8));
        assert_eq!(
            max_points(hand, rules),
            max_points_by_recursion(hand, rules),
            "{hand:?} under {rules:?}"
        );
    };
    for packs in [2u8, 3, 4] {
        for_each_deal(&mut rng, packs, 3000, |rng, deck, rules, size| {
            let n = rng.random_range(1..=size);
            check(&counts_of(&deck[..n]), rules);
        });
    }
    let blocks: [&[usize]; 6] = [
        &[0, 1, 4, 5, 8, 9],
        &[12, 16, 20, 13, 17],
        &[24, 25, 26, 27],
        &[2, 6, 10, 26, 27],
        &[0, 4, 8],
        &[13, 17, 21],
    ];
    for _ in 0..200 {
        for types in blocks {
            let mut deck: Vec<Card> = types
                .iter()
                .flat_map(|&t| std::iter::repeat_n(Card::from_index(t), 16))
                .collect();
            for (rules, size) in variants(&mut rng) {
                deck.shuffle(&mut rng);
                let n = rng.random_range(size / 2..=size);
                check(&counts_of(&deck[..n]), &rules);
            }
        }
    }
    assert!(above_eight > 100, "the fallback ran {above_eight} times");
}

/// No set crosses the blocks of a hand (K/A/E and R/C/H, per colour unless cross-colour sets
/// or King groups join the colours, and the pawns): the best partition of a hand is the sum of
/// its blocks' (`block_best`, which greedy re-solves alone when one block changes), and a
/// block's answer ignores the cards of the others. Dealt hands of 2 to 4 packs, and hands of
/// few types with more than 8 copies (the recursion's path).
#[test]
fn the_blocks_of_a_hand_add_up_to_its_best_partition() {
    let mut rng = TestRng::seed_from_u64(303);
    let check = |hand: &Counts, rules: &SetRules| {
        let ids = block_ids(rules);
        assert!((0..CARD_TYPES).all(|t| ids.contains(&block_of(rules, t))));
        let blocks: Vec<(u8, u32)> = ids.iter().map(|&b| block_best(hand, rules, b)).collect();
        let sum = blocks.iter().fold((0, 0), |(l, q), &(a, b)| (l + a, q + b));
        assert_eq!(sum, best(hand, rules), "{hand:?} under {rules:?}");
        for (&b, &block) in ids.iter().zip(&blocks) {
            let mut alone = [0u8; CARD_TYPES];
            (0..CARD_TYPES)
                .filter(|&t| block_of(rules, t) == b)
                .for_each(|t| alone[t] = hand[t]);
            assert_eq!(block_best(&alone, rules, b), block, "block {b} of {hand:?}");
        }
    };
    for packs in [2u8, 3, 4] {
        for_each_deal(&mut rng, packs, 500, |rng, deck, rules, size| {
            let n = rng.random_range(1..=size);
            check(&counts_of(&deck[..n]), rules);
            // King groups without cross-colour sets (an option set one by one): K/A/E joined,
            // R/C/H per colour.
            let mixed = SetRules {
                cross_colour: false,
                ..*rules
            };
            check(&counts_of(&deck[..n]), &mixed);
        });
    }
    for types in [&[0usize, 1, 4, 5, 8][..], &[12, 16, 20, 13], &[24, 25, 26]] {
        let mut deck: Vec<Card> = types
            .iter()
            .flat_map(|&t| std::iter::repeat_n(Card::from_index(t), 16))
            .collect();
        for _ in 0..100 {
            for (rules, size) in variants(&mut rng) {
                deck.shuffle(&mut rng);
                check(&counts_of(&deck[..size]), &rules);
            }
        }
    }
}

/// The bound that lets a claim window and greedy skip hopeless win searches: taking one card out
/// of a hand lowers its loose count by at most one (a partition of `H − c` plus `c` loose is one
/// of `H`), so a meld of at most three hand cards cannot complete a hand with more than 3 loose.
#[test]
fn removing_a_card_lowers_loose_by_at_most_one() {
    let mut rng = TestRng::seed_from_u64(31);
    let mut checked = 0;
    for_each_deal(&mut rng, 2, 300, |_, deck, rules, size| {
        let hand = counts_of(&deck[..size]);
        let l = loose(&hand, rules);
        for c in Card::all().filter(|c| hand[c.index()] > 0) {
            let mut less = hand;
            less[c.index()] -= 1;
            assert!(loose(&less, rules) + 1 >= l, "{c} out of {hand:?}");
            checked += 1;
        }
    });
    assert!(checked > 10_000, "{checked}");
}
