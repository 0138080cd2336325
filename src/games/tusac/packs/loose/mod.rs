//! The loose-card solver of sisepai21 and dirtyking26 (§3.3, §3.4 last paragraph, §3.6, §4.7).
//!
//! A hand is a count vector ([`Counts`], up to 16 copies of a type). Sets never cross the
//! blocks K/A/E, R/C/H and pawns (without cross-colour sets and King groups, each colour's K/A/E
//! and R/C/H are blocks of their own), so each block is solved alone and the results combined:
//! loose counts and best points add, attainable totals combine as a sum-set of bitmasks.
//!
//! A block is solved (in `solve`) by the memoised recursion of §3.4: take the lowest card type
//! present, either leave one copy loose or remove a set whose lowest type it is, and recurse.
//! Results are kept in two fixed-size, direct-mapped, per-thread caches (no heap, nothing grows
//! during play): one for `(loose, best points)`, one for the bitmask of zero-loose values.

use crate::games::tusac::card::{Card, CARD_TYPES};
use crate::games::tusac::options::WinTest;
use crate::games::tusac::sets::{value, Origin, SetInstance, SetKind, SetRules, Zone};

mod fast;
pub mod partition;
mod solve;

pub use solve::{block_ids, block_of, sum_masks, Counts, BLOCK_IDS};
use solve::{
    blocks, layout, solve_lb, solve_mask, solve_max, BLOCKS_BY_ID, BLOCK_OF, IDS_BY_LAYOUT,
};

/// The points of one set of `kind` made of `cards` under these rules, in `zone` with `origin`:
/// the table value, doubled when every card has the double rank (§2.5).
pub fn points_of(
    kind: SetKind,
    cards: &[Card],
    zone: Zone,
    origin: Origin,
    rules: &SetRules,
) -> u32 {
    let king_quad = kind == SetKind::Quad && cards.first().is_some_and(|c| c.is_king());
    let base = value(rules.table, kind, zone, origin, king_quad);
    let doubled = rules
        .double_rank
        .is_some_and(|r| !cards.is_empty() && cards.iter().all(|c| c.rank() == r));
    if doubled {
        2 * base
    } else {
        base
    }
}

/// The points of one set under these rules (table value, doubled when every card has the
/// double rank, §2.5).
pub fn set_points(set: &SetInstance, rules: &SetRules) -> u32 {
    points_of(set.kind, set.cards(), set.zone, set.origin, rules)
}

/// The count vector of a list of cards.
pub fn counts_of(cards: &[Card]) -> Counts {
    let mut c = [0u8; CARD_TYPES];
    for card in cards {
        c[card.index()] += 1;
    }
    c
}

// ---------------------------------------------------------------------------------------------
// The public solver.

/// `loose(B)` of §3.3: the fewest cards left out of sets over all partitions of the hand.
pub fn loose(hand: &Counts, rules: &SetRules) -> u8 {
    best(hand, rules).0
}

/// The best partition by (loose, −points) (§3.4 last paragraph, §3.6): its loose count and its
/// points (dealt values, doubling applied). Not the S5 "current points": see [`max_points`].
pub fn best(hand: &Counts, rules: &SetRules) -> (u8, u32) {
    match fast::best(hand, rules) {
        Some(r) => r,
        None => best_by_recursion(hand, rules),
    }
}

/// The points of the best-value partition of the hand, loose cards allowed (§4.6 S5 "current
/// points", dealt values, doubling applied): the most points over all partitions, whatever
/// they leave loose. At least the points of [`best`].
pub fn max_points(hand: &Counts, rules: &SetRules) -> u32 {
    match fast::max_points(hand, rules) {
        Some(p) => p,
        None => max_points_by_recursion(hand, rules),
    }
}

/// [`best`] of one block of the hand, by id (its cards outside the block ignored): `best` is
/// the sum over [`block_ids`], and a hand changed in one block needs only that block solved
/// again.
pub fn block_best(hand: &Counts, rules: &SetRules, id: usize) -> (u8, u32) {
    BlockSolver::new(rules).block_best(hand, id)
}

/// [`block_of`], [`block_ids`] and [`block_best`] for one rule set, with the rules read once:
/// for the thousands of near-identical hands one greedy decision solves block by block.
#[derive(Copy, Clone)]
pub(crate) struct BlockSolver {
    rules: SetRules,
    layout: usize,
    tabled: Option<fast::Tabled>,
}

impl BlockSolver {
    /// The block solver of `rules`.
    pub(crate) fn new(rules: &SetRules) -> BlockSolver {
        BlockSolver {
            rules: *rules,
            layout: layout(rules),
            tabled: fast::Tabled::new(rules),
        }
    }

    /// The rules it solves under.
    pub(crate) fn rules(&self) -> &SetRules {
        &self.rules
    }

    /// A small number identifying its rules (10 bits), for callers' caches.
    pub(crate) fn rules_tag(&self) -> u32 {
        self.rules.tag()
    }

    /// [`block_ids`] of its rules.
    pub(crate) fn block_ids(&self) -> &'static [usize] {
        IDS_BY_LAYOUT[self.layout]
    }

    /// [`block_of`] of its rules.
    pub(crate) fn block_of(&self, t: usize) -> usize {
        usize::from(BLOCK_OF[self.layout][t])
    }

    /// The card types of the block with id `id`.
    pub(crate) fn block_types(&self, id: usize) -> &'static [u8] {
        BLOCKS_BY_ID[id].types()
    }

    /// [`block_best`] of its rules.
    pub(crate) fn block_best(&self, hand: &Counts, id: usize) -> (u8, u32) {
        if let Some(r) = self.tabled.and_then(|f| f.block_best(hand, id)) {
            return r;
        }
        let (l, p) = solve_lb(hand, &BLOCKS_BY_ID[id], &self.rules);
        (l, u32::from(p))
    }

    /// The points of every partition of the block with id `id` of `hand` that leaves no card
    /// loose, as a bit set (bit `v` for `v` points; 0 when there is none).
    pub(crate) fn block_mask(&self, hand: &Counts, id: usize) -> u128 {
        solve_mask(hand, &BLOCKS_BY_ID[id], &self.rules)
    }
}

/// [`max_points`] by the memoised recursion alone (every rule set, any count).
pub fn max_points_by_recursion(hand: &Counts, rules: &SetRules) -> u32 {
    blocks(rules)
        .iter()
        .map(|b| u32::from(solve_max(hand, b, rules)))
        .sum()
}

/// [`best`] by the memoised recursion alone (every rule set, any count).
pub fn best_by_recursion(hand: &Counts, rules: &SetRules) -> (u8, u32) {
    let (mut l, mut p) = (0u8, 0u32);
    for block in blocks(rules) {
        let (bl, bp) = solve_lb(hand, &block, rules);
        l = l.saturating_add(bl);
        p += bp as u32;
    }
    (l, p)
}

/// Bit v is set when some zero-loose partition of the hand is worth exactly v points (dealt
/// values, doubling applied); 0 when the hand is not complete. (dirtyking26's win test needs
/// the attainable totals, not only the largest, §3.6, §4.7.) Totals of 128 or more are dropped
/// (a hand of 26 cards is worth at most 104).
pub fn complete_values(hand: &Counts, rules: &SetRules) -> u128 {
    let mut acc = 1u128;
    for block in blocks(rules) {
        let m = solve_mask(hand, &block, rules);
        if m == 0 {
            return 0;
        }
        acc = sum_masks(m, acc);
    }
    acc
}

/// Whether `total` points pass the points part of the win test (§4.7).
pub(crate) const fn passes(test: WinTest, total: u32) -> bool {
    match test {
        WinTest::TrashZero => true,
        WinTest::CompleteOver9 => total > 9,
        WinTest::CompleteOver20Even => total > 20 && total.is_multiple_of(2),
    }
}

/// The win test of §4.7 for a hand plus fixed points (face-down and melded sets): the score
/// paid (§3.6: the largest total meeting the test) or None. `TrashZero` is read here as
/// "complete, any total" (the loose-card form of the one-pack test, without the Khap lock).
pub fn win_score(hand: &Counts, fixed_points: u32, rules: &SetRules, test: WinTest) -> Option<u32> {
    let (loose, points) = best(hand, rules);
    if loose != 0 {
        return None;
    }
    complete_win_score(hand, points, fixed_points, rules, test)
}

/// [`win_score`] of a hand known to be complete (no loose card) whose best partition is worth
/// `points`: that is the largest total of its zero-loose partitions, so the others are looked
/// at only when it fails the test (dirtyking26's "over 20 and even").
pub(crate) fn complete_win_score(
    hand: &Counts,
    points: u32,
    fixed_points: u32,
    rules: &SetRules,
    test: WinTest,
) -> Option<u32> {
    complete_total(points, fixed_points, test, || complete_values(hand, rules))
}

/// The score paid for a complete hand with `fixed_points` made, whose zero-loose partitions
/// are worth at most `points` and exactly the bits of `values()` (§3.6: the largest total
/// meeting the test), or None. `values` is asked only when the best total fails and a lower
/// one could pass (dirtyking26's "over 20 and even").
pub(crate) fn complete_total(
    points: u32,
    fixed_points: u32,
    test: WinTest,
    values: impl FnOnce() -> u128,
) -> Option<u32> {
    let top = fixed_points + points;
    if passes(test, top) {
        return Some(top);
    }
    // every other total is below `top`: look for one only if some lower total could pass
    if !(fixed_points..top).any(|v| passes(test, v)) {
        return None;
    }
    let mut mask = values();
    while mask != 0 {
        let v = 127 - mask.leading_zeros();
        if passes(test, v + fixed_points) {
            return Some(v + fixed_points);
        }
        mask &= !(1u128 << v);
    }
    None
}

/// The set kind of exactly these cards under `rules`, if they form one (§2.1 with the variant's
/// restrictions): see [`SetKind::of_with`].
pub fn kind_of(cards: &[Card], rules: &SetRules) -> Option<SetKind> {
    SetKind::of_with(cards, rules)
}

/// Nanoseconds per call of [`loose`] and of [`win_score`] on `hands` hands of `hand_size`
/// cards from random `packs`-pack deals under `rules`, after one warm-up pass (caches warm, as
/// in play). A measurement for reports; seeded, so the hands are the same on every run.
pub fn bench_loose(
    rules: &SetRules,
    test: WinTest,
    packs: u8,
    hand_size: usize,
    hands: usize,
    seed: u64,
) -> (f64, f64) {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let mut deck: Vec<Card> = (0..packs).flat_map(|_| Card::all()).collect();
    let list: Vec<Counts> = (0..hands)
        .map(|_| {
            deck.shuffle(&mut rng);
            counts_of(&deck[..hand_size.min(deck.len())])
        })
        .collect();
    let mut sink = 0u64;
    for h in &list {
        sink += loose(h, rules) as u64;
    }
    let start = std::time::Instant::now();
    for h in &list {
        sink += loose(h, rules) as u64;
    }
    let loose_ns = start.elapsed().as_nanos() as f64 / hands.max(1) as f64;
    let start = std::time::Instant::now();
    for h in &list {
        sink += win_score(h, 0, rules, test).unwrap_or(0) as u64;
    }
    let win_ns = start.elapsed().as_nanos() as f64 / hands.max(1) as f64;
    std::hint::black_box(sink);
    (loose_ns, win_ns)
}

#[cfg(test)]
mod tests;
