//! Table-driven `(loose, best points)` and best-value points (loose cards allowed) for the two
//! Sisepai rule sets when no type has more than 8 copies (every 2-pack hand; nearly every 3- and
//! 4-pack one).
//!
//! Small tables, built once by the memoised recursions themselves: `rank4` (one non-King rank
//! in four colours: identical sets plus the 3-/4-colour sets, valued as `Pawns3/4` =
//! `Colours3/4`) and its best-value twin `rank4_max`, `kings4` (the best value of a dirtyking26
//! King count vector; Kings are never better left loose, so it serves both), and `colour` and
//! `colour_max` (one colour of a sisepai21 K/A/E or R/C/H block, by its three counts).
//!
//! - The **pawns** are one `rank4` entry in both rule sets.
//! - **sisepai21** has no set joining colours, so a K/A/E or R/C/H block is the sum of its four
//!   colours' `colour` entries.
//! - **dirtyking26**'s Colours3/4 sets and King groups join the colours: a block is the best over
//!   the numbers of chows per colour of the tables' values for what the chows leave, and each
//!   block's result is kept in a small per-thread cache.

use super::solve::{solve_lb, solve_max, Block, Counts, KAE_JOINED, KAE_SPLIT, PAWNS, RCH_SPLIT};
use crate::cache::{fib_hash, Cache};
use crate::games::tusac::card::{Rank, CARD_TYPES};
use crate::games::tusac::options::{KingIdenticalSets, PointTable};
use crate::games::tusac::sets::SetRules;
use std::sync::OnceLock;

/// Copies per type the tables cover.
const MAX: usize = 8;
const SIDE: usize = MAX + 1;
const SIZE3: usize = SIDE * SIDE * SIDE;
const SIZE4: usize = SIDE * SIDE * SIDE * SIDE;

struct Tables {
    /// sisepai21: one colour of a chow block (K/A/E, then R/C/H), by its three counts.
    colour: [[(u8, u8); SIZE3]; 2],
    colour_max: [[u8; SIZE3]; 2],
    rank4: [(u8, u8); SIZE4],
    kings4: [u8; SIZE4],
    rank4_max: [u8; SIZE4],
}

const SISEPAI: SetRules = SetRules {
    king_identical: KingIdenticalSets::None,
    cross_colour: false,
    king_groups: false,
    table: PointTable::Sisepai21,
    double_rank: None,
};

const DIRTY: SetRules = SetRules {
    king_identical: KingIdenticalSets::QuadOnly,
    cross_colour: true,
    king_groups: true,
    table: PointTable::DirtyKing26,
    double_rank: None,
};

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build)
}

/// The `N` counts of index `i` (base `SIDE`).
fn unindex<const N: usize>(mut i: usize) -> [u8; N] {
    let mut c = [0u8; N];
    for slot in c.iter_mut().rev() {
        *slot = (i % SIDE) as u8;
        i /= SIDE;
    }
    c
}

fn index<const N: usize>(c: [u8; N]) -> usize {
    c.iter().fold(0, |acc, &n| acc * SIDE + n as usize)
}

fn build() -> Tables {
    let mut t = Tables {
        colour: [[(0, 0); SIZE3]; 2],
        colour_max: [[0; SIZE3]; 2],
        rank4: [(0, 0); SIZE4],
        kings4: [0; SIZE4],
        rank4_max: [0; SIZE4],
    };
    for (b, block) in [KAE_SPLIT[0], RCH_SPLIT[0]].iter().enumerate() {
        for i in 0..SIZE3 {
            let three = spread(unindex::<3>(i), block);
            t.colour[b][i] = narrow(solve_lb(&three, block, &SISEPAI));
            t.colour_max[b][i] = solve_max(&three, block, &SISEPAI) as u8;
        }
    }
    for i in 0..SIZE4 {
        let four = unindex::<4>(i);
        t.rank4[i] = narrow(solve_lb(&spread(four, &PAWNS), &PAWNS, &SISEPAI));
        t.rank4_max[i] = solve_max(&spread(four, &PAWNS), &PAWNS, &SISEPAI) as u8;
        t.kings4[i] = narrow(solve_lb(&spread(four, &KAE_JOINED), &KAE_JOINED, &DIRTY)).1;
    }
    t
}

fn narrow((l, p): (u8, u16)) -> (u8, u8) {
    (l, p as u8)
}

/// A hand holding `counts` copies of the block's first types.
fn spread<const N: usize>(counts: [u8; N], block: &Block) -> Counts {
    let mut c = [0u8; CARD_TYPES];
    for (k, &n) in counts.iter().enumerate() {
        c[block.types[k] as usize] = n;
    }
    c
}

/// Which of the two table-covered rule sets `rules` is (`Some(true)` for dirtyking26's).
fn shape(rules: &SetRules) -> Option<bool> {
    let plain = SetRules {
        double_rank: None,
        ..*rules
    };
    if plain == SISEPAI && rules.double_rank.is_none() {
        Some(false)
    } else if plain == DIRTY && rules.double_rank != Some(Rank::King) {
        Some(true)
    } else {
        None
    }
}

/// `(loose, best points)` of the hand by the tables, or `None` when they do not apply.
pub(super) fn best(hand: &Counts, rules: &SetRules) -> Option<(u8, u32)> {
    solve(hand, rules, false)
}

/// The best-value points of the hand, loose cards allowed, by the tables, or `None` when they
/// do not apply.
pub(super) fn max_points(hand: &Counts, rules: &SetRules) -> Option<u32> {
    solve(hand, rules, true).map(|(_, p)| p)
}

/// The tables resolved for one rule set: the many hands one decision looks at are then solved
/// block by block without checking the rules again.
#[derive(Copy, Clone)]
pub(super) struct Tabled {
    t: &'static Tables,
    /// dirtyking26's rules (else sisepai21's).
    dirty: bool,
    double_rank: Option<Rank>,
}

impl Tabled {
    /// The tables for `rules`, or `None` when they do not cover them.
    pub(super) fn new(rules: &SetRules) -> Option<Tabled> {
        Some(Tabled {
            dirty: shape(rules)?,
            t: tables(),
            double_rank: rules.double_rank,
        })
    }

    /// [`best`] of the block with id `id` (see [`super::BLOCK_IDS`]), or `None` when the
    /// tables do not apply to it.
    pub(super) fn block_best(&self, hand: &Counts, id: usize) -> Option<(u8, u32)> {
        // The check reads the block's whole part (K/A/E, R/C/H or pawns, contiguous types): a
        // hand with more than 8 copies of a type elsewhere in the part takes the recursion,
        // which gives the same answer.
        let first = 12 * (id / 5);
        if over_max(&hand[first..(first + 12).min(CARD_TYPES)]) {
            return None;
        }
        let (l, p) = self.parts(hand, false).block(id)?;
        Some((l as u8, p))
    }

    fn parts<'a>(&self, hand: &'a Counts, max: bool) -> Parts<'a> {
        Parts {
            t: self.t,
            hand,
            double_rank: self.double_rank,
            dirty: self.dirty,
            max,
        }
    }
}

/// [`best`], or with `max` the best value alone: every part then reports 0 loose cards, so
/// the chow enumeration compares points only.
fn solve(hand: &Counts, rules: &SetRules, max: bool) -> Option<(u8, u32)> {
    if over_max(hand) {
        return None;
    }
    let parts = Tabled::new(rules)?.parts(hand, max);
    let (l, p) = (0..3).map(|i| parts.part(i)).fold((0, 0), add);
    Some((l as u8, p))
}

/// Whether some count of `counts` (a whole number of 4-type ranks, each count at most 16) is
/// above [`MAX`], four counts at a time: adding 0x77 to a byte sets its top bit exactly when
/// the byte is 9 or more, and never carries into the next byte.
fn over_max(counts: &[u8]) -> bool {
    const _: () = assert!(MAX == 8);
    counts.chunks_exact(4).any(|w| {
        let w = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        w.wrapping_add(0x7777_7777) & 0x8080_8080 != 0
    })
}

/// The two blocks of three ranks joined by one-colour chows: K/A/E and R/C/H.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Chows {
    Kae = 0,
    Rch = 1,
}

/// A hand being solved by the tables: the pawns, then each chow block (cached).
struct Parts<'a> {
    t: &'static Tables,
    hand: &'a Counts,
    double_rank: Option<Rank>,
    /// dirtyking26's rules (else sisepai21's).
    dirty: bool,
    max: bool,
}

thread_local! {
    /// A direct-mapped cache of chow-block results, by [`Parts::cache_key`], of the packed
    /// `(loose, points)`: the same K/A/E and R/C/H blocks recur over the many near-identical
    /// hands one decision looks at (greedy's prospects, claim windows). 2^11 entries.
    static BLOCKS: Cache<u32, { 1 << 11 }> = const { Cache::new(0) };
}

impl Parts<'_> {
    /// `(loose, points)` of part `i` (0: K/A/E, 1: R/C/H, 2: pawns).
    fn part(&self, i: usize) -> (u32, u32) {
        match i {
            0 | 1 if !self.dirty => self.by_colour(i),
            0 => self.cached(Chows::Kae),
            1 => self.cached(Chows::Rch),
            _ => self.pawns(),
        }
    }

    /// `(loose, points)` of the block with id `id`, or `None` when these rules do not split the
    /// hand into that block.
    fn block(&self, id: usize) -> Option<(u32, u32)> {
        Some(match (id, self.dirty) {
            (0..=3, false) => self.colour(0, id),
            (5..=8, false) => self.colour(1, id - 5),
            (4, true) => self.cached(Chows::Kae),
            (9, true) => self.cached(Chows::Rch),
            (10, _) => self.pawns(),
            _ => return None,
        })
    }

    /// The pawns: one rank in four colours.
    fn pawns(&self) -> (u32, u32) {
        self.solo(6, self.ranks(6))
    }

    /// sisepai21's chow block `b` (0: K/A/E, 1: R/C/H) as the sum of its colours.
    fn by_colour(&self, b: usize) -> (u32, u32) {
        (0..4).map(|c| self.colour(b, c)).fold((0, 0), add)
    }

    /// One colour `c` of sisepai21's chow block `b` (0: K/A/E, 1: R/C/H).
    fn colour(&self, b: usize, c: usize) -> (u32, u32) {
        let first = 12 * b + c;
        let count = |r: usize| usize::from(self.hand[first + r]);
        let i = (count(0) * SIDE + count(4)) * SIDE + count(8);
        let (l, p) = if self.max {
            (0, self.t.colour_max[b][i])
        } else {
            self.t.colour[b][i]
        };
        (l.into(), p.into())
    }

    /// The counts of rank `r` in its four colours.
    fn ranks(&self, r: usize) -> [u8; 4] {
        std::array::from_fn(|c| self.hand[4 * r + c])
    }

    /// `(loose, points)` of rank `r` held `four` times per colour, outside chows: the pawns, or
    /// any rank of dirtyking26.
    fn solo(&self, r: usize, four: [u8; 4]) -> (u32, u32) {
        self.solo_at(r, index(four))
    }

    /// [`Parts::solo`] of the counts with table index `i`.
    fn solo_at(&self, r: usize, i: usize) -> (u32, u32) {
        let (l, p) = if self.max {
            (0, self.t.rank4_max[i])
        } else {
            self.t.rank4[i]
        };
        let (l, p) = (u32::from(l), u32::from(p));
        let double = self.double_rank.is_some_and(|d| d as usize == r);
        (l, if double { 2 * p } else { p })
    }

    /// The cache key of a dirtyking26 block: its twelve counts (4 bits each), the block, the
    /// solve mode and the double rank.
    fn cache_key(&self, block: Chows) -> u64 {
        let first = 12 * block as usize;
        let bytes = &self.hand[first..first + 12];
        let low = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
        let high = u32::from_le_bytes(bytes[8..].try_into().expect("4 bytes"));
        let counts = u64::from(nibbles(low)) | u64::from(nibbles(u64::from(high))) << 32;
        let double = self.double_rank.map_or(7, |d| d as u64);
        counts | (block as u64) << 48 | u64::from(self.max) << 49 | double << 51
    }

    /// [`Parts::chow_block`] through the thread's block cache.
    fn cached(&self, block: Chows) -> (u32, u32) {
        let key = self.cache_key(block);
        let hash = fib_hash(key);
        if let Some(v) = BLOCKS.with(|c| c.get(hash, key, 0)) {
            return (v >> 16, v & 0xFFFF);
        }
        let (l, p) = self.chow_block(block);
        BLOCKS.with(|c| c.insert(hash, key, 0, l << 16 | p));
        (l, p)
    }

    /// The best `(loose, points)` of a dirtyking26 chow block over its numbers of chows per
    /// colour.
    fn chow_block(&self, block: Chows) -> (u32, u32) {
        let first = 12 * block as usize;
        let ranks = [
            self.ranks(first / 4),
            self.ranks(first / 4 + 1),
            self.ranks(first / 4 + 2),
        ];
        let top = std::array::from_fn(|c| ranks[0][c].min(ranks[1][c]).min(ranks[2][c]));
        let [i0, i1, i2] = ranks.map(index);
        match block {
            Chows::Kae => chows(top, 2, |im| {
                let kings = u32::from(self.t.kings4[i0 - im]);
                add(
                    add(self.solo_at(1, i1 - im), self.solo_at(2, i2 - im)),
                    (0, kings),
                )
            }),
            Chows::Rch => chows(top, 1, |im| {
                let rook = self.solo_at(3, i0 - im);
                add(
                    add(rook, self.solo_at(4, i1 - im)),
                    self.solo_at(5, i2 - im),
                )
            }),
        }
    }
}

/// The eight bytes of `x`, each below 16, packed into 32 bits (byte `i` to bits `4i..4i + 4`).
fn nibbles(x: u64) -> u32 {
    let x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    let x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    (x | x >> 16) as u32
}

fn add(a: (u32, u32), b: (u32, u32)) -> (u32, u32) {
    (a.0 + b.0, a.1 + b.1)
}

/// The best `(loose, points)` over the numbers of one-colour chows `m` (per colour, up to
/// `top`): `value(index(m))` plus `chow_points` per chow. Taking `m` chows from the counts of
/// a rank lowers their table index by `index(m)` (no digit goes below zero).
fn chows(top: [u8; 4], chow_points: u32, value: impl Fn(usize) -> (u32, u32)) -> (u32, u32) {
    const WEIGHT: [usize; 4] = [SIDE * SIDE * SIDE, SIDE * SIDE, SIDE, 1];
    let mut bestv = (u32::MAX, 0u32);
    let (mut m, mut im, mut made) = ([0u8; 4], 0usize, 0u32);
    loop {
        let (l, p) = value(im);
        let p = p + chow_points * made;
        if l < bestv.0 || (l == bestv.0 && p > bestv.1) {
            bestv = (l, p);
        }
        // Next m (odometer over 0..=top).
        let mut c = 0;
        while c < 4 && m[c] == top[c] {
            im -= usize::from(m[c]) * WEIGHT[c];
            made -= u32::from(m[c]);
            m[c] = 0;
            c += 1;
        }
        if c == 4 {
            return bestv;
        }
        m[c] += 1;
        im += WEIGHT[c];
        made += 1;
    }
}
