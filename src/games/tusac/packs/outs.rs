//! What one block of a hand offers each card of its types, for greedy's prospects: whether a
//! meld of the card lowers the block's loose count, and which points the block is left able to
//! score when a meld leaves it complete. No set crosses blocks, so both depend on the block's
//! counts alone (with the rules and whether Pairs count), and each answer is kept in a
//! per-thread cache: a hand changes a card or two per turn, so most of its blocks recur from
//! one decision to the next.

use super::loose::{complete_total, sum_masks, BlockSolver, Counts};
use super::melds::{meld_points, meld_shapes};
use crate::cache::{fib_hash, Cache};
use crate::games::tusac::card::Card;
use crate::games::tusac::meld::Melds;
use crate::games::tusac::options::WinTest;
use crate::games::tusac::sets::SetKind;
use std::thread::LocalKey;

/// The most types a block has (a K/A/E or R/C/H block of every colour).
const MAX_TYPES: usize = 12;

/// What a block offers the cards of its types (by place among
/// [`BlockSolver::block_types`]); Kings, which follow S1, have nothing here.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BlockOuts {
    /// Bit `place`: some meld of that card lowers the block's loose count.
    pub improve: u16,
    /// Per place: the points of the block's complete partitions after every meld of that card
    /// that leaves the block complete, each raised by the meld's own points (bit `v` for `v`
    /// points); 0 when no meld does. Filled only when asked for (see [`block_outs`]).
    pub wins: [u128; MAX_TYPES],
}

impl BlockOuts {
    /// Whether the card at `place` wins with the meld leaving the block complete, for a hand
    /// whose other blocks are complete: their best points `others_top`, and all their points
    /// as a bit set from `others_mask` (asked only when the best total fails), `fixed` points
    /// made, under `test`.
    pub(super) fn wins(
        &self,
        place: usize,
        others_top: u32,
        others_mask: impl FnOnce() -> u128,
        fixed: u32,
        test: WinTest,
    ) -> bool {
        let own = self.wins[place];
        if own == 0 {
            return false;
        }
        let points = others_top + (127 - own.leading_zeros());
        complete_total(points, fixed, test, || sum_masks(own, others_mask())).is_some()
    }
}

/// A question to [`block_outs`].
#[derive(Copy, Clone, Debug)]
pub(crate) struct Ask {
    /// The block's id.
    pub block: usize,
    /// The loose cards of the block's best partition.
    pub loose: u8,
    /// Whether Pairs count (the S5 pair gate is open).
    pub pairs: bool,
    /// Whether the wins are wanted (else they stay 0).
    pub wins: bool,
}

/// What the block of `hand` named by `ask` offers the cards of its types, kept in the thread's
/// caches.
pub(crate) fn block_outs(solver: &BlockSolver, hand: &Counts, ask: Ask) -> BlockOuts {
    if ask.loose == 0 && !ask.wins {
        // no meld lowers a loose count of 0
        return BlockOuts::default();
    }
    let solve = || solve_outs(solver, hand, ask);
    let Some(key) = block_key(hand, solver.block_types(ask.block), ask.block, ask.pairs) else {
        return solve();
    };
    let tag = solver.rules_tag();
    if ask.wins {
        cached(&WINS, key, tag, solve)
    } else {
        let improve = cached(&IMPROVES, key, tag, || solve().improve);
        BlockOuts {
            improve,
            ..BlockOuts::default()
        }
    }
}

/// [`block_outs`] solved afresh. A meld of `u` with cards `U` leaves at least as many loose
/// cards as the block holding `u` as well: a partition of what the meld leaves, with the meld's
/// set, is a partition of that block. And every set holding a non-King card is a meld shape of
/// it, so with Pairs counting the best meld leaves exactly that many. One solve per type then
/// settles the improve bit, and the melds are looked at one by one only when the block with
/// `u` is complete (for the wins) or when Pairs do not count.
fn solve_outs(solver: &BlockSolver, hand: &Counts, ask: Ask) -> BlockOuts {
    let Ask {
        block: b,
        loose: block_loose,
        pairs,
        wins,
    } = ask;
    let rules = solver.rules();
    let mut out = BlockOuts::default();
    let mut melds = Melds::new();
    for (place, &t) in solver.block_types(b).iter().enumerate() {
        let u = Card::from_index(usize::from(t));
        if u.is_king() {
            continue;
        }
        let mut with = *hand;
        with[u.index()] += 1;
        let (least, _) = solver.block_best(&with, b);
        let may_improve = least < block_loose;
        let may_win = wins && least == 0;
        if may_improve && pairs {
            out.improve |= 1 << place;
        }
        // without Pairs, the best meld may leave more than `least`
        let improve_unsettled = may_improve && !pairs;
        if !may_win && !improve_unsettled {
            continue;
        }
        meld_shapes(hand, u, rules.cross_colour, &mut melds);
        for m in melds.iter().filter(|m| pairs || m.kind != SetKind::Pair) {
            let mut after = *hand;
            m.used().iter().for_each(|c| after[c.index()] -= 1);
            let (loose, _) = solver.block_best(&after, b);
            if loose < block_loose {
                out.improve |= 1 << place;
            }
            if may_win && loose == 0 {
                let shift = meld_points(*m, u, rules);
                let mask = solver.block_mask(&after, b);
                debug_assert!(mask.leading_zeros() >= shift, "points above 127");
                out.wins[place] |= mask << shift;
            }
        }
    }
    out
}

/// The cache key of block `b` of `hand` (its card `types`), with Pairs counting or not: the
/// block's counts (4 bits each, so `None` when one is above 15), the block and `pairs`.
fn block_key(hand: &Counts, types: &[u8], b: usize, pairs: bool) -> Option<u64> {
    let mut counts = 0u64;
    for (i, &t) in types.iter().enumerate() {
        let n = hand[usize::from(t)];
        if n > 15 {
            return None;
        }
        counts |= u64::from(n) << (4 * i);
    }
    Some(counts | (b as u64) << 48 | u64::from(pairs) << 52)
}

/// The outs of an empty cache entry.
const NO_OUTS: BlockOuts = BlockOuts {
    improve: 0,
    wins: [0; MAX_TYPES],
};

thread_local! {
    /// The improve bits of blocks (2^11 entries, 32 KiB per thread).
    static IMPROVES: Cache<u16, { 1 << 11 }> = const { Cache::new(0) };
    /// The whole outs of blocks that could win (2^10 entries, 208 KiB per thread).
    static WINS: Cache<BlockOuts, { 1 << 10 }> = const { Cache::new(NO_OUTS) };
}

/// The answer of `key` under rules tagged `tag`, from `cache` or from `answer`.
fn cached<T: Copy, const N: usize>(
    cache: &'static LocalKey<Cache<T, N>>,
    key: u64,
    tag: u32,
    answer: impl FnOnce() -> T,
) -> T {
    let hash = fib_hash(key);
    if let Some(value) = cache.with(|c| c.get(hash, key, tag)) {
        return value;
    }
    let value = answer();
    cache.with(|c| c.insert(hash, key, tag, value));
    value
}
