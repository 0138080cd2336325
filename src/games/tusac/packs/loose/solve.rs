//! The memoised recursion of §3.4 that solves one block of a hand: take the lowest card type
//! present, either leave one copy loose or remove a set whose lowest type it is, and recurse.
//! Every set's shape comes from a table of templates by lowest type; results are kept in two
//! fixed-size, direct-mapped, per-thread caches (no heap, nothing grows during play).

use crate::cache::{fib_hash, Cache};
use crate::games::tusac::card::{Card, Rank, CARD_TYPES};
use crate::games::tusac::sets::{value, Origin, SetKind, SetRules, Zone};
use arrayvec::ArrayVec;
use std::sync::OnceLock;

/// A multi-pack private block: copies held per card type (canonical index), up to 16.
pub type Counts = [u8; CARD_TYPES];

// ---------------------------------------------------------------------------------------------
// Set templates: every set, by its lowest card type.

/// One set shape: its kind and its card types (with repeats), lowest first, with what the
/// recursion asks of it made once: the copies it needs per type and what its points depend on.
#[derive(Copy, Clone, Debug)]
pub(super) struct Template {
    pub(super) kind: SetKind,
    types: [u8; 4],
    len: u8,
    /// `(type, copies)` for each distinct type, then `(0, 0)` padding.
    needs: [(u8, u8); 4],
    /// The rank every card has, if one (the set is then doubled with that double rank, §2.5).
    rank: Option<Rank>,
    /// A Quad of Kings (valued apart, §2.5).
    king_quad: bool,
}

impl Template {
    fn new(kind: SetKind, types: &[u8]) -> Template {
        let mut arr = [0u8; 4];
        arr[..types.len()].copy_from_slice(types);
        let mut needs = [(0u8, 0u8); 4];
        let mut distinct = 0;
        for &t in types {
            match needs[..distinct].iter_mut().find(|(u, _)| *u == t) {
                Some((_, n)) => *n += 1,
                None => {
                    needs[distinct] = (t, 1);
                    distinct += 1;
                }
            }
        }
        let rank_of = |t: u8| Card::from_index(usize::from(t)).rank();
        let first = rank_of(types[0]);
        Template {
            kind,
            types: arr,
            len: types.len() as u8,
            needs,
            rank: types.iter().all(|&t| rank_of(t) == first).then_some(first),
            king_quad: kind == SetKind::Quad && first == Rank::King,
        }
    }

    pub(super) fn types(&self) -> &[u8] {
        &self.types[..self.len as usize]
    }

    pub(super) fn cards(&self) -> ArrayVec<Card, 4> {
        self.types()
            .iter()
            .map(|&t| Card::from_index(t as usize))
            .collect()
    }

    /// Whether `counts` holds this set.
    fn fits(&self, counts: &Counts) -> bool {
        self.needs.iter().all(|&(t, n)| counts[usize::from(t)] >= n)
    }

    pub(super) fn remove(&self, counts: &mut Counts) {
        for &t in self.types() {
            counts[t as usize] -= 1;
        }
    }

    /// The set's dealt points in the hand under `rules` (as [`points_of`](super::points_of)
    /// gives them).
    pub(super) fn points(&self, rules: &SetRules) -> u32 {
        let base = value(
            rules.table,
            self.kind,
            Zone::Private,
            Origin::Dealt,
            self.king_quad,
        );
        if self.rank.is_some() && rules.double_rank == self.rank {
            2 * base
        } else {
            base
        }
    }
}

/// Templates whose lowest type is `t`, for every set kind of every variant (filtered by
/// [`SetRules::allows`] when used).
type TemplateTable = [ArrayVec<Template, 32>; CARD_TYPES];

pub(super) fn templates() -> &'static TemplateTable {
    static TABLE: OnceLock<TemplateTable> = OnceLock::new();
    TABLE.get_or_init(build_templates)
}

fn build_templates() -> TemplateTable {
    let mut table: TemplateTable = std::array::from_fn(|_| ArrayVec::new());
    for (t, list) in table.iter_mut().enumerate() {
        let card = Card::from_index(t);
        let (rank, colour) = (card.rank() as u8, card.colour() as u8);
        let ty = |r: u8, c: u8| r * 4 + c;
        let mut push = |kind, types: &[u8]| list.push(Template::new(kind, types));
        let t8 = t as u8;
        if card.is_king() {
            push(SetKind::King, &[t8]);
        }
        push(SetKind::Pair, &[t8; 2]);
        push(SetKind::Triple, &[t8; 3]);
        push(SetKind::Quad, &[t8; 4]);
        match card.rank() {
            Rank::King => push(
                SetKind::KingAdvisorElephant,
                &[t8, ty(1, colour), ty(2, colour)],
            ),
            Rank::Rook => push(
                SetKind::RookCannonHorse,
                &[t8, ty(4, colour), ty(5, colour)],
            ),
            _ => {}
        }
        // Sets of one rank in several colours, lowest colour `colour`.
        let (three, four) = match card.rank() {
            Rank::King => (None, None),
            Rank::Pawn => (Some(SetKind::Pawns3), Some(SetKind::Pawns4)),
            _ => (Some(SetKind::Colours3), Some(SetKind::Colours4)),
        };
        if let Some(kind) = three {
            for a in colour + 1..4 {
                for b in a + 1..4 {
                    push(kind, &[t8, ty(rank, a), ty(rank, b)]);
                }
            }
        }
        if let (Some(kind), 0) = (four, colour) {
            push(kind, &[t8, ty(rank, 1), ty(rank, 2), ty(rank, 3)]);
        }
        if card.is_king() {
            // Four Kings with lowest colour `colour`: all different, or mixed (not all one type).
            for a in colour..4 {
                for b in a..4 {
                    for c in b..4 {
                        let q = [t8, a, b, c];
                        if q == [0, 1, 2, 3] {
                            push(SetKind::Kings4Colours, &q);
                        } else if q != [t8; 4] {
                            push(SetKind::Kings4Mixed, &q);
                        }
                    }
                }
            }
        }
    }
    table
}

// ---------------------------------------------------------------------------------------------
// Blocks.

/// A group of card types that no set crosses.
#[derive(Copy, Clone, Debug)]
pub(super) struct Block {
    id: u8,
    pub(super) types: [u8; 12],
    len: u8,
}

impl Block {
    const fn new(id: u8, types: &[u8]) -> Block {
        let mut arr = [0u8; 12];
        let mut i = 0;
        while i < types.len() {
            arr[i] = types[i];
            i += 1;
        }
        Block {
            id,
            types: arr,
            len: types.len() as u8,
        }
    }

    pub(super) fn types(&self) -> &[u8] {
        &self.types[..self.len as usize]
    }

    /// The block's counts packed 5 bits a type, or `None` when a count exceeds 31.
    fn key(&self, counts: &Counts) -> Option<u64> {
        let mut k = 0u64;
        for &t in self.types() {
            let n = counts[t as usize];
            if n > 31 {
                return None;
            }
            k = k << 5 | n as u64;
        }
        Some(k)
    }

    /// The lowest type of the block present in `counts`.
    pub(super) fn lowest(&self, counts: &Counts) -> Option<usize> {
        self.types()
            .iter()
            .map(|&t| t as usize)
            .find(|&t| counts[t] > 0)
    }

    /// The block's cards taken out of `counts`.
    pub(super) fn cards_in(&self, counts: &Counts) -> Counts {
        let mut c = [0u8; CARD_TYPES];
        for &t in self.types() {
            c[t as usize] = counts[t as usize];
        }
        c
    }
}

const fn colour_block(id: u8, first_rank: u8, c: u8) -> Block {
    let r = first_rank * 4 + c;
    Block::new(id, &[r, r + 4, r + 8])
}

pub(super) const KAE_SPLIT: [Block; 4] = [
    colour_block(0, 0, 0),
    colour_block(1, 0, 1),
    colour_block(2, 0, 2),
    colour_block(3, 0, 3),
];
pub(super) const KAE_JOINED: Block = Block::new(4, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
pub(super) const RCH_SPLIT: [Block; 4] = [
    colour_block(5, 3, 0),
    colour_block(6, 3, 1),
    colour_block(7, 3, 2),
    colour_block(8, 3, 3),
];
const RCH_JOINED: Block = Block::new(9, &[12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]);
pub(super) const PAWNS: Block = Block::new(10, &[24, 25, 26, 27]);

/// How the rules split K/A/E and R/C/H into blocks: bit 0 when K/A/E is one block, bit 1 when
/// R/C/H is (else one block per colour). Cross-colour sets join the colours of both, King
/// groups those of K/A/E.
pub(super) fn layout(rules: &SetRules) -> usize {
    usize::from(rules.cross_colour || rules.king_groups) | usize::from(rules.cross_colour) << 1
}

/// The blocks of a hand under these rules (the slow paths: recursion and partitions).
pub(super) fn blocks(rules: &SetRules) -> ArrayVec<Block, 9> {
    block_ids(rules)
        .iter()
        .map(|&id| BLOCKS_BY_ID[id])
        .collect()
}

/// The number of block ids. A block is a group of card types no set crosses, so the best
/// partition of a hand is the sum of its blocks' ([`block_best`](super::block_best)): 0–3 the
/// K/A/E of one colour, 4 all K/A/E, 5–8 the R/C/H of one colour, 9 all R/C/H, 10 the pawns. A
/// hand is split into the blocks of one colour unless cross-colour sets (and for K/A/E King
/// groups) join the colours: sisepai21 has 9 blocks, dirtyking26 3.
pub const BLOCK_IDS: usize = 11;

/// Every block, by id.
pub(super) static BLOCKS_BY_ID: [Block; BLOCK_IDS] = [
    KAE_SPLIT[0],
    KAE_SPLIT[1],
    KAE_SPLIT[2],
    KAE_SPLIT[3],
    KAE_JOINED,
    RCH_SPLIT[0],
    RCH_SPLIT[1],
    RCH_SPLIT[2],
    RCH_SPLIT[3],
    RCH_JOINED,
    PAWNS,
];

/// The ids of the blocks a hand is split into, by [`layout`].
pub(super) static IDS_BY_LAYOUT: [&[usize]; 4] = [
    &[0, 1, 2, 3, 5, 6, 7, 8, 10],
    &[4, 5, 6, 7, 8, 10],
    &[0, 1, 2, 3, 9, 10],
    &[4, 9, 10],
];

/// The ids of the blocks a hand is split into under `rules`.
pub fn block_ids(rules: &SetRules) -> &'static [usize] {
    IDS_BY_LAYOUT[layout(rules)]
}

/// The id of the block holding card type `t` under `rules` (see [`BLOCK_IDS`]).
pub fn block_of(rules: &SetRules, t: usize) -> usize {
    usize::from(BLOCK_OF[layout(rules)][t])
}

/// [`block_of`] by [`layout`] and card type.
pub(super) static BLOCK_OF: [[u8; CARD_TYPES]; 4] = {
    let mut table = [[0u8; CARD_TYPES]; 4];
    let mut layout = 0;
    while layout < 4 {
        let mut t = 0;
        while t < CARD_TYPES {
            let colour = (t % 4) as u8;
            table[layout][t] = match t / 12 {
                0 if layout & 1 != 0 => 4,
                0 => colour,
                1 if layout & 2 != 0 => 9,
                1 => 5 + colour,
                _ => 10,
            };
            t += 1;
        }
        layout += 1;
    }
    table
};

// ---------------------------------------------------------------------------------------------
// Caches.

thread_local! {
    /// `(loose, points)` of blocks, and (under [`MAX_TAG`]) their most points: 2^13 entries.
    static LB_CACHE: Cache<(u8, u16), { 1 << 13 }> = const { Cache::new((0, 0)) };
    /// The zero-loose values of blocks: 2^11 entries.
    static MASK_CACHE: Cache<u128, { 1 << 11 }> = const { Cache::new(0) };
}

/// The slot hash of a block's `key` under `tag`.
fn hash(key: u64, tag: u32) -> u64 {
    fib_hash(key ^ (tag as u64) << 40 ^ key >> 29)
}

/// The cache tag of a block under rules.
fn block_tag(rules: &SetRules, block: &Block) -> u32 {
    rules.tag() << 4 | block.id as u32
}

// ---------------------------------------------------------------------------------------------
// Per-block solving.

/// Whether `(l, p)` beats `(bl, bp)` by (loose, −points).
fn better(l: u8, p: u16, bl: u8, bp: u16) -> bool {
    l < bl || (l == bl && p > bp)
}

/// The templates of lowest type `t` allowed under `rules` and held in `counts`.
pub(super) fn candidates<'a>(
    t: usize,
    counts: &'a Counts,
    rules: &'a SetRules,
) -> impl Iterator<Item = &'static Template> + 'a {
    templates()[t]
        .iter()
        .filter(move |tp| rules.allows(tp.kind, t < 4) && tp.fits(counts))
}

/// `(loose, best points at that loose)` of the block's part of `counts`.
pub(super) fn solve_lb(counts: &Counts, block: &Block, rules: &SetRules) -> (u8, u16) {
    let Some(t) = block.lowest(counts) else {
        return (0, 0);
    };
    let tag = block_tag(rules, block);
    let key = block.key(counts);
    if let Some(k) = key {
        if let Some(lp) = LB_CACHE.with(|c| c.get(hash(k, tag), k, tag)) {
            return lp;
        }
    }
    let mut sub = *counts;
    sub[t] -= 1;
    let (l, p) = solve_lb(&sub, block, rules);
    let (mut bl, mut bp) = (l.saturating_add(1), p);
    for tp in candidates(t, counts, rules) {
        let mut sub = *counts;
        tp.remove(&mut sub);
        let (l, p) = solve_lb(&sub, block, rules);
        let p = p + tp.points(rules) as u16;
        if better(l, p, bl, bp) {
            (bl, bp) = (l, p);
        }
    }
    if let Some(k) = key {
        LB_CACHE.with(|c| c.insert(hash(k, tag), k, tag, (bl, bp)));
    }
    (bl, bp)
}

/// Marks the `solve_max` entries of the `(loose, points)` cache (block tags stay below 2^13).
const MAX_TAG: u32 = 1 << 20;

/// The most points of any partition of the block's part of `counts`, loose cards allowed.
/// Same recursion as [`solve_lb`], maximising points alone; cached in the same table under
/// the tag [`MAX_TAG`] (the loose field unused).
pub(super) fn solve_max(counts: &Counts, block: &Block, rules: &SetRules) -> u16 {
    let Some(t) = block.lowest(counts) else {
        return 0;
    };
    let tag = block_tag(rules, block) | MAX_TAG;
    let key = block.key(counts);
    if let Some(k) = key {
        if let Some((_, p)) = LB_CACHE.with(|c| c.get(hash(k, tag), k, tag)) {
            return p;
        }
    }
    let mut sub = *counts;
    sub[t] -= 1;
    let mut bp = solve_max(&sub, block, rules);
    for tp in candidates(t, counts, rules) {
        let mut sub = *counts;
        tp.remove(&mut sub);
        bp = bp.max(solve_max(&sub, block, rules) + tp.points(rules) as u16);
    }
    if let Some(k) = key {
        LB_CACHE.with(|c| c.insert(hash(k, tag), k, tag, (0, bp)));
    }
    bp
}

/// Bit v set when some zero-loose partition of the block's part of `counts` is worth v.
pub(super) fn solve_mask(counts: &Counts, block: &Block, rules: &SetRules) -> u128 {
    let Some(t) = block.lowest(counts) else {
        return 1;
    };
    let tag = block_tag(rules, block);
    let key = block.key(counts);
    if let Some(k) = key {
        if let Some(mask) = MASK_CACHE.with(|c| c.get(hash(k, tag), k, tag)) {
            return mask;
        }
    }
    let mut mask = 0u128;
    for tp in candidates(t, counts, rules) {
        let mut sub = *counts;
        tp.remove(&mut sub);
        mask |= shift(solve_mask(&sub, block, rules), tp.points(rules));
    }
    if let Some(k) = key {
        MASK_CACHE.with(|c| c.insert(hash(k, tag), k, tag, mask));
    }
    mask
}

/// `mask << by`, dropping values of 128 and more.
fn shift(mask: u128, by: u32) -> u128 {
    if by >= 128 {
        0
    } else {
        mask << by
    }
}

/// The sum-set of two value masks: bit a+b for every bit a of `x` and b of `y` (below 128).
pub fn sum_masks(x: u128, y: u128) -> u128 {
    let mut out = 0u128;
    let mut rest = x;
    while rest != 0 {
        out |= y << rest.trailing_zeros();
        rest &= rest - 1;
    }
    out
}
