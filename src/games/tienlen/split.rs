//! A hand's structure: its best split into combinations (§3.1), used by the analyser and by
//! `greedy`.
//!
//! The best split covers every card with valid combinations and minimises, in order, the number
//! of combinations (the plays needed to go out) and the number of single cards among them. Only
//! rank counts matter to that cost, so the search runs on the hand's per-rank counts: the lowest
//! rank held must open one combination (a single, pair, triple or quad of it, or a straight or
//! pair sequence starting at it), and the rest is split the same way. Costs are cached by rank
//! counts in a fixed table owned by the caller, so a split is a handful of lookups once warm.
//! Cards are then assigned lowest suit first.

use super::card_set::Cards;
use super::combo::{classify, Combo};
use crate::cache::{fib_hash, Cache};
use arrayvec::ArrayVec;

/// The highest rank index a sequence may reach (A; no 2 in straights or pair sequences, §3.1).
const RANK_ACE: u32 = 11;

/// Cost of a split: `16 · combinations + singles` (lexicographic, both below 16).
pub(crate) type Cost = u8;

/// The combinations of a split: at most one per card.
pub(crate) type Split = ArrayVec<Combo, 52>;

/// Entries of the cost cache (a power of two).
const CACHE: usize = 1 << 12;

/// The split solver with its cost cache (allocated once, kept across hands: a cost depends only
/// on rank counts).
#[derive(Clone)]
pub struct Splitter {
    cache: Box<Cache<Cost, CACHE>>,
}

impl Default for Splitter {
    fn default() -> Self {
        Splitter {
            cache: Box::new(Cache::new(0)),
        }
    }
}

/// Composition slots of a split [`Summary`]: the bit shift of each combination type's 4-bit
/// count.
pub(super) const C_SINGLE: u32 = 0;
/// The slot of pairs.
pub(super) const C_PAIR: u32 = 4;
/// The slot of triples.
pub(super) const C_TRIPLE: u32 = 8;
/// The slot of quads.
pub(super) const C_QUAD: u32 = 12;
/// The slot of straights.
pub(super) const C_STRAIGHT: u32 = 16;
/// The slot of pair sequences.
pub(super) const C_PAIR_SEQUENCE: u32 = 20;

/// A best split in one word: its [`Cost`] in bits 0..8, then one 4-bit count per combination
/// type from bit 8 (`C_*` slots). A search that only needs the cost leaves the counts at 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Summary(pub(super) u32);

impl Summary {
    /// `16 · combinations + singles`.
    pub(super) const fn cost(self) -> u32 {
        self.0 & 0xFF
    }
    /// Combinations (plays to go out).
    pub(super) const fn plays(self) -> u32 {
        self.cost() / 16
    }
    /// Combinations of the type in slot `slot`.
    pub(super) const fn count(self, slot: u32) -> u32 {
        self.0 >> (8 + slot) & 0xF
    }
}

/// One way to open a split at its lowest rank: the per-rank counts it takes (nibbles, like
/// [`Cards::nibble_counts`]) and its composition slot.
#[derive(Copy, Clone, Debug)]
pub(super) struct Opening {
    /// Per-rank counts removed.
    pub(super) take: u64,
    /// The combination type's `C_*` slot.
    pub(super) slot: u32,
}

impl Opening {
    /// What the opening adds to a summary: one combination (a single counts twice in the cost)
    /// and one of its type.
    const fn adds(self) -> u32 {
        16 + (self.slot == C_SINGLE) as u32 + (1 << (8 + self.slot))
    }
}

/// The openings at the lowest rank of `counts` (nibble-packed rank counts), into `out`: sets by
/// size, then straights, then pair sequences, shortest first.
fn openings(counts: u64, out: &mut ArrayVec<Opening, 24>) {
    out.clear();
    let r = counts.trailing_zeros() / 4;
    let at = |i: u32| counts >> (4 * i) & 0xF;
    for k in 1..=at(r) {
        out.push(Opening {
            take: k << (4 * r),
            slot: 4 * (k as u32 - 1),
        });
    }
    if r > RANK_ACE {
        return;
    }
    for (per_rank, slot) in [(1u64, C_STRAIGHT), (2, C_PAIR_SEQUENCE)] {
        let mut take = 0u64;
        let mut len = 0;
        let mut i = r;
        while i <= RANK_ACE && at(i) >= per_rank {
            take |= per_rank << (4 * i);
            len += 1;
            if len >= 3 {
                out.push(Opening { take, slot });
            }
            i += 1;
        }
    }
}

/// The best split of non-empty rank `counts` and its first best opening (the one a split takes
/// first), given `rest`: the best split of what an opening leaves (the caller's cache, or a
/// recursion into this search).
#[inline]
pub(super) fn best_opening(
    counts: u64,
    mut rest: impl FnMut(u64) -> Summary,
) -> (Summary, Opening) {
    let mut list = ArrayVec::new();
    openings(counts, &mut list);
    let mut best = u32::MAX;
    let mut first = list[0];
    for &o in &list {
        let v = rest(counts - o.take).0 + o.adds();
        if v & 0xFF < best & 0xFF {
            best = v;
            first = o;
        }
    }
    (Summary(best), first)
}

impl Splitter {
    /// The cost of the best split of cards with these nibble-packed rank counts.
    pub(crate) fn cost_of_counts(&mut self, counts: u64) -> Cost {
        if counts == 0 {
            return 0;
        }
        let hash = fib_hash(counts);
        if let Some(cost) = self.cache.get(hash, counts, 0) {
            return cost;
        }
        let (best, _) = best_opening(counts, |rest| Summary(self.cost_of_counts(rest).into()));
        let best = best.cost() as Cost;
        self.cache.insert(hash, counts, 0, best);
        best
    }

    /// The cost of the best split of `hand`.
    pub fn cost(&mut self, hand: Cards) -> Cost {
        self.cost_of_counts(hand.nibble_counts())
    }

    /// One best split of `hand`, combinations in ascending order of their lowest card; within a
    /// rank, lower suits go to the earlier combinations.
    pub fn split(&mut self, hand: Cards, out: &mut Split) {
        out.clear();
        let mut left = hand;
        while !left.is_empty() {
            let counts = left.nibble_counts();
            let (_, o) = best_opening(counts, |rest| Summary(self.cost_of_counts(rest).into()));
            let cards = lowest_suits(left, o.take);
            out.push(classify(cards).expect("openings are valid combinations"));
            left = left.minus(cards);
        }
    }
}

/// The cards of `hand` taking `take` (nibble counts) per rank, lowest suits first.
pub(super) fn lowest_suits(hand: Cards, take: u64) -> Cards {
    let mut out = 0u64;
    let mut t = take;
    while t != 0 {
        let r = t.trailing_zeros() / 4;
        let mut k = t >> (4 * r) & 0xF;
        t &= !(0xF << (4 * r));
        let mut bits = hand.0 >> (4 * r) & 0xF;
        while k > 0 && bits != 0 {
            let b = bits & bits.wrapping_neg();
            out |= b << (4 * r);
            bits &= bits - 1;
            k -= 1;
        }
    }
    Cards(out)
}

/// Number of combinations of a cost.
pub const fn combos(cost: Cost) -> u8 {
    cost / 16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tienlen::{Card, ComboType};

    fn split(text: &str) -> Vec<String> {
        let mut s = Splitter::default();
        let mut out = Split::new();
        s.split(text.parse().unwrap(), &mut out);
        out.iter().map(|c| c.cards.to_string()).collect()
    }

    #[test]
    fn splits_minimise_combinations_then_singles() {
        assert_eq!(split("3s 4h 5d 6c 7s"), ["3s 4h 5d 6c 7s"]);
        assert_eq!(split("3s 3c 4d 4h 5s 5c"), ["3s 3c 4d 4h 5s 5c"]);
        // 3-7 and a lone 5 would be two combinations with a single: two straights are better
        assert_eq!(split("3s 4s 5s 5c 6s 7s"), ["3s 4s 5s", "5c 6s 7s"]);
        assert_eq!(split("9s 9c 9d 9h 2h"), ["9s 9c 9d 9h", "2h"]);
        assert_eq!(split("2s 2c Ah"), ["Ah", "2s 2c"]);
        // no 2 in a straight
        assert_eq!(split("Qs Ks As 2h"), ["Qs Ks As", "2h"]);
    }

    #[test]
    fn the_split_covers_the_hand_with_valid_combinations() {
        use crate::rng::{shuffle, stream_rng};
        let mut s = Splitter::default();
        let mut out = Split::new();
        for i in 0..2000 {
            let mut deck: Vec<u8> = (0..52).collect();
            shuffle(&mut deck, &mut stream_rng(4, i, 0));
            let hand: Cards = deck[..13].iter().map(|&k| Card::from_key(k)).collect();
            s.split(hand, &mut out);
            let union = out.iter().fold(Cards::EMPTY, |u, c| u.union(c.cards));
            assert_eq!(union, hand);
            assert_eq!(out.iter().map(|c| c.cards.len()).sum::<u32>(), 13);
            let singles = out.iter().filter(|c| c.kind == ComboType::Single).count();
            assert_eq!(s.cost(hand), (16 * out.len() + singles) as u8);
        }
    }

    /// The best cost by brute force: every combination holding the lowest card, classified
    /// by `classify`, then the rest (independent of the rank-count search).
    fn brute(hand: Cards) -> u8 {
        let Some(low) = hand.lowest() else { return 0 };
        let rest: Vec<Card> = hand.without(low).iter().collect();
        let mut best = u8::MAX;
        for mask in 0u32..1 << rest.len() {
            let mut x = Cards::one(low);
            for (i, &c) in rest.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    x = x.with(c);
                }
            }
            if let Some(c) = classify(x) {
                let single = u8::from(c.kind == ComboType::Single);
                best = best.min(16 + single + brute(hand.minus(x)));
            }
        }
        best
    }

    #[test]
    fn the_rank_count_search_equals_brute_force() {
        use crate::rng::{shuffle, stream_rng};
        let mut s = Splitter::default();
        for i in 0..600 {
            let mut deck: Vec<u8> = (0..52).collect();
            shuffle(&mut deck, &mut stream_rng(5, i, 0));
            // dense hands: cards from a few ranks, so that sequences and sets compete
            let ranks = 3 + (i % 5) as u8;
            let pool: Vec<u8> = deck
                .into_iter()
                .filter(|k| k / 4 < ranks || k / 4 == 12)
                .collect();
            let n = 6 + (i % 5) as usize;
            let hand: Cards = pool[..n.min(pool.len())]
                .iter()
                .map(|&k| Card::from_key(k))
                .collect();
            assert_eq!(s.cost(hand), brute(hand), "hand {hand}");
        }
    }
}
