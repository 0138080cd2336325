//! `greedy` for the multi-pack variants (sisepai21, dirtyking26): a one-ply rule over the
//! loose-card solver. These variants have no trash and no worst card (§3.3, §4.6), so both
//! choices read the solver's key of a hand, **fewest loose cards, then most points**
//! ([`loose::best`](super::loose::best), §3.4 last paragraph), counting the points of the
//! seat's face-down and melded sets with it.
//!
//! - **Discard** (`MustDiscard`, S6; a loose card or a card taken out of a hand set): the
//!   non-King card whose removal leaves the best key; among equals, the one leaving the best
//!   **prospects**, then the tie-break. The prospects of the hand `H` left are two counts over the
//!   cards this seat has not seen (every copy in play minus its own hand and face-down block, every
//!   melded set, the dead pile and the active card), each unseen copy counted once:
//!   1. *win outs*: unseen copies `u` that would win at once: some meld of `u` open to the turn
//!      player (§2.3, the S5 pair gate applied; greedy reads the gate with the points of `H`'s
//!      best partition, at most the current points S5 names, so it may close a gate the engine
//!      would open) leaves a hand passing the win test of §4.7 with the meld's points added,
//!      or, for a King, the lone King (or dirtyking26's King Quad, S1) does. In dirtyking26
//!      this is what keeps a complete total *over 20 and even* reachable: a hand whose every
//!      completion is odd has no win outs;
//!   2. *improve outs*: unseen copies `u` some such meld of which leaves fewer loose cards than
//!      `H` has.
//!
//!   More win outs first, then more improve outs. This is §5's "fewest outs" turned around: among
//!   the cards the hand can spare equally well, drop the one that keeps the most ways forward.
//! - **Melds, claims and declarations** (`TurnOption` and `Claim`: S2 turn melds and identical
//!   Triple/Quad claims, the S1 King Quad of dirtyking26): each meld is scored by the hand it
//!   leaves: a win first (the engine already makes every winning meld itself, S1.1 and S2.1, so
//!   this only matters if one is ever offered), then the key of the hand left, with the meld's
//!   points (melded values, §2.5) added to its points. Declining (`Draw`, `PassDrawn`, `Pass`)
//!   keeps the hand's own key. Greedy takes the best meld when it does not leave the hand worse
//!   than declining (ties go to the meld), and declines otherwise.
//! - **Everything else is the engine's**: a drawn King is melded or called by the engine (S1),
//!   declining one's own draw discards that card (S4), a discard nobody takes makes `T` draw
//!   (S3), and a hand of Kings makes no discard (S6). So the legal forms greedy meets are
//!   `Discard`, `Meld`, `Draw`, `PassDrawn` and `Pass`; the decline is always the last.
//!
//! The rule is a pure function of the seat's view, the legal list and the rng (the rng only
//! breaks ties with `tiebreak=random`); it allocates nothing.

use super::loose::{best, complete_win_score, win_score, BlockSolver, Counts, SetRules, BLOCK_IDS};
use super::melds::{meld_points, meld_shapes};
use super::state::{PacksState, MAX_ACTIONS};
use super::view::PacksView;
use crate::agents::greedy::TieBreak;
use crate::agents::Agent;
use crate::games::tusac::card::{Card, CARD_TYPES};
use crate::games::tusac::options::KingIdenticalSets;
use crate::games::tusac::rules::{Meld, Melds};
use crate::games::tusac::sets::SetKind;
use crate::games::tusac::state::{Action, Phase};
use crate::rng::GameRng;
use arrayvec::ArrayVec;
use std::cell::Cell;
use std::cmp::Reverse;

/// The greedy agent of the multi-pack variants (see the module documentation).
#[derive(Copy, Clone, Debug)]
pub struct PacksGreedy {
    /// The tie-break rule among equally good actions.
    pub tiebreak: TieBreak,
}

/// The solver's key of a hand, smallest best: fewest loose cards, then most points (the hand's
/// best partition plus the seat's fixed and melded points).
pub type HandKey = (u8, Reverse<u32>);

/// What a hand left after a discard can still become (see the module documentation).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Prospects {
    /// Unseen copies that would win at once.
    pub win_outs: u16,
    /// Unseen copies a meld of which would lower the loose count.
    pub improve_outs: u16,
}

/// The key of a meld or a decline, smallest best: not a win, the hand key, a decline.
type ClaimKey = (bool, HandKey, bool);

impl PacksGreedy {
    /// The index in `legal` of greedy's action (see the module documentation).
    pub fn choose(&self, view: &PacksView<'_>, legal: &[Action], rng: &mut GameRng) -> usize {
        let choice = match view.phase() {
            Phase::MustDiscard(_) => self.discard(view, legal, rng),
            _ => self.meld_or_decline(view, legal, rng),
        };
        // A decision always has a discard, or a decline as its last action.
        choice.unwrap_or(legal.len() - 1)
    }

    /// The discard leaving the best hand key, then the best prospects, then the tie-break.
    fn discard(&self, view: &PacksView<'_>, legal: &[Action], rng: &mut GameRng) -> Option<usize> {
        let rules = set_rules(view);
        let hand = view.hand();
        let solver = BlockSolver::new(&rules);
        let blocks = BlockKeys::of(hand, &solver);
        let total = blocks.total();
        // each discard changes one block: its key is the hand's with that block solved again
        let keys: ArrayVec<(usize, HandKey, Card, (u8, u32)), MAX_ACTIONS> = legal
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Action::Discard(c) => {
                    let b = solver.block_of(c.index());
                    let (bl, bp) = solver.block_best(&without(hand, &[*c]), b);
                    let (loose, points) =
                        (total.0 - blocks.0[b].0 + bl, total.1 - blocks.0[b].1 + bp);
                    Some((i, hand_key(loose, points), *c, (bl, bp)))
                }
                _ => None,
            })
            .collect();
        let top = keys.iter().map(|&(_, k, _, _)| k).min()?;
        let mut tied = keys.iter().filter(|&&(_, k, _, _)| k == top);
        if tied.clone().count() == 1 {
            return tied.next().map(|&(i, _, _, _)| i);
        }
        let cards = UnseenCards::with_blocks(hand, blocks, &unseen(view), solver);
        let outs: ArrayVec<(usize, Reverse<Prospects>), MAX_ACTIONS> = tied
            .map(|&(i, _, c, block)| {
                let left = without(hand, &[c]);
                let b = solver.block_of(c.index());
                let mut blocks = blocks;
                blocks.0[b] = block;
                let p = prospects_of(view, &left, &blocks, 1 << b, &cards);
                (i, Reverse(p))
            })
            .collect();
        self.tiebreak.pick(outs.iter().copied(), rng)
    }

    /// The meld leaving the best key when it is no worse than declining, else the decline.
    fn meld_or_decline(
        &self,
        view: &PacksView<'_>,
        legal: &[Action],
        rng: &mut GameRng,
    ) -> Option<usize> {
        let rules = set_rules(view);
        let hand = view.hand();
        let fixed = view.fixed_points();
        let active = view.active()?.card;
        let test = view.options().win_test;
        let keys = legal.iter().enumerate().map(|(i, a)| {
            let key: ClaimKey = match a {
                Action::Meld(m) => {
                    let left = without(hand, m.used());
                    let fixed = fixed + meld_points(*m, active, &rules);
                    let (loose, points) = best(&left, &rules);
                    let win = loose == 0
                        && complete_win_score(&left, points, fixed, &rules, test).is_some();
                    (!win, hand_key(loose, fixed + points), false)
                }
                _ => {
                    let facts = view.facts();
                    (true, hand_key(facts.loose, fixed + facts.points), true)
                }
            };
            (i, key)
        });
        self.tiebreak.pick(keys, rng)
    }
}

/// The set rules in force for this view (with the game's double rank).
fn set_rules(view: &PacksView<'_>) -> SetRules {
    SetRules::new(view.options(), view.double_rank())
}

/// The key of a hand with `loose` loose cards worth `points` in all (fixed points included).
fn hand_key(loose: u8, points: u32) -> HandKey {
    (loose, Reverse(points))
}

/// A hand's best partition block by block ([`block_best`], by block id; blocks the rules do
/// not use stay `(0, 0)`): its `(loose, points)` are the sums.
#[derive(Copy, Clone, Debug)]
struct BlockKeys([(u8, u32); BLOCK_IDS]);

impl BlockKeys {
    /// The blocks of `hand`.
    fn of(hand: &Counts, solver: &BlockSolver) -> BlockKeys {
        let mut keys = [(0, 0); BLOCK_IDS];
        for &b in solver.block_ids() {
            keys[b] = solver.block_best(hand, b);
        }
        BlockKeys(keys)
    }

    /// `(loose, points)` of the whole hand.
    fn total(&self) -> (u8, u32) {
        self.0
            .iter()
            .fold((0, 0), |(l, p), &(bl, bp)| (l + bl, p + bp))
    }
}

/// `hand` less one copy of each card of `cards`.
fn without(hand: &Counts, cards: &[Card]) -> Counts {
    let mut left = *hand;
    for c in cards {
        left[c.index()] -= 1;
    }
    left
}

/// The cards `view`'s seat has not seen: every copy in play minus its own hand and face-down
/// block, the melded sets of every seat, the dead pile and the active card. (The public bottom
/// of the stock read for the double rank is not in the view; it counts as unseen.)
pub fn unseen(view: &PacksView<'_>) -> Counts {
    let opts = view.options();
    let mut pool = [opts.copies(); CARD_TYPES];
    let mut take = |c: Card, k: u8| {
        let n = &mut pool[c.index()];
        *n = n.saturating_sub(k);
    };
    for c in Card::all() {
        take(c, view.hand()[c.index()] + view.dead()[c.index()]);
    }
    view.face_down().for_each(|c| take(c, 4));
    for seat in 0..opts.players {
        for set in view.melded(seat) {
            set.cards().iter().for_each(|&c| take(c, 1));
        }
    }
    if let Some(a) = view.active() {
        take(a.card, 1);
    }
    pool
}

/// What one discard decision knows of the cards this seat has not seen, for every hand the
/// decision's hand keeps after a discard: the unseen counts, the hand and its blocks, and per
/// block the unseen copies that would improve the hand (filled on first use).
pub struct UnseenCards {
    solver: BlockSolver,
    unseen: Counts,
    /// The hand of the decision, and its blocks.
    hand: Counts,
    hand_blocks: BlockKeys,
    /// Per block and without/with Pairs, the unseen non-King copies of the block's types that
    /// improve the hand ([`UnseenCards::improves_hand`]), filled on first use.
    block_improves: [[Cell<Option<u16>>; 2]; BLOCK_IDS],
}

impl UnseenCards {
    /// The unseen counts `unseen` for the decision's `hand`.
    pub fn new(hand: &Counts, unseen: &Counts, rules: &SetRules) -> UnseenCards {
        let solver = BlockSolver::new(rules);
        UnseenCards::with_blocks(hand, BlockKeys::of(hand, &solver), unseen, solver)
    }

    /// [`UnseenCards::new`] with the hand's blocks already solved.
    fn with_blocks(
        hand: &Counts,
        hand_blocks: BlockKeys,
        unseen: &Counts,
        solver: BlockSolver,
    ) -> UnseenCards {
        UnseenCards {
            solver,
            unseen: *unseen,
            hand: *hand,
            hand_blocks,
            block_improves: std::array::from_fn(|_| [Cell::new(None), Cell::new(None)]),
        }
    }

    /// The shapes of the unseen type `u` that `left` (the hand, or less some cards) holds.
    fn shapes_left(&self, u: Card, left: &Counts, out: &mut Melds) {
        meld_shapes(left, u, self.solver.rules().cross_colour, out);
    }

    /// The blocks of the hand (bit `b` for block id `b`) in which `left` differs from the
    /// decision's hand.
    fn changed_blocks(&self, left: &Counts) -> u16 {
        let mut changed = 0;
        for (t, (a, b)) in left.iter().zip(&self.hand).enumerate() {
            if a != b {
                changed |= 1 << self.solver.block_of(t);
            }
        }
        changed
    }

    /// The blocks of `left`, a hand that differs from the decision's hand in the `changed`
    /// blocks alone.
    fn blocks_of(&self, left: &Counts, changed: u16) -> BlockKeys {
        let mut out = self.hand_blocks;
        for b in (0..BLOCK_IDS).filter(|b| changed & 1 << b != 0) {
            out.0[b] = self.solver.block_best(left, b);
        }
        out
    }

    /// Whether a shape of `u` (Pairs only with `pairs`) lowers the loose count of the
    /// decision's hand. No set crosses blocks, so for a hand `left` that differs from it only
    /// outside `u`'s block, the same shapes lower `left`'s loose count: the loose count of each
    /// block adds up, and only `u`'s block changes.
    fn improves_hand(&self, u: Card, pairs: bool, key: Option<u64>) -> bool {
        let b = self.solver.block_of(u.index());
        let block_loose = self.hand_blocks.0[b].0;
        improves(&self.solver, &self.hand, block_loose, u, pairs, key)
    }

    /// The unseen non-King copies of block `b`'s types for which [`UnseenCards::improves_hand`]
    /// holds: the improve outs of that block for any hand differing from the decision's hand
    /// only outside it.
    fn block_improve_outs(&self, b: usize, pairs: bool) -> u16 {
        let memo = &self.block_improves[b][usize::from(pairs)];
        if let Some(n) = memo.get() {
            return n;
        }
        let types = self.solver.block_types(b);
        let block = improve_key(&self.hand, types, b, pairs);
        let n = types
            .iter()
            .enumerate()
            .map(|(place, &t)| (place as u64, Card::from_index(usize::from(t))))
            .filter(|(_, u)| !u.is_king() && self.unseen[u.index()] > 0)
            .filter(|&(place, u)| self.improves_hand(u, pairs, block.map(|k| k | place << 48)))
            .map(|(_, u)| u16::from(self.unseen[u.index()]))
            .sum();
        memo.set(Some(n));
        n
    }
}

/// Whether a shape of `u` (Pairs only with `pairs`) lowers the loose count of `hand`, whose
/// block of `u` holds `block_loose` loose cards. The answer depends on that block alone, so it
/// is kept in the thread's improve cache under `key` ([`improve_key`]).
fn improves(
    solver: &BlockSolver,
    hand: &Counts,
    block_loose: u8,
    u: Card,
    pairs: bool,
    key: Option<u64>,
) -> bool {
    let by_shapes = || {
        let b = solver.block_of(u.index());
        let mut melds = Melds::new();
        meld_shapes(hand, u, solver.rules().cross_colour, &mut melds);
        melds
            .iter()
            .filter(|m| pairs || m.kind != SetKind::Pair)
            .any(|m| solver.block_best(&without(hand, m.used()), b).0 < block_loose)
    };
    match key {
        Some(key) => cached_improve(key, solver.rules_tag(), by_shapes),
        None => by_shapes(),
    }
}

/// The improve cache holds 2^12 entries (64 KiB per thread).
const IMPROVE_BITS: u32 = 12;

thread_local! {
    /// A direct-mapped cache of [`UnseenCards::improves_hand`]: a packed [`improve_key`], then
    /// the rules' tag shifted left by 2, bit 1 for a filled entry and bit 0 the answer. A hand
    /// changes a card or two per turn, so most of its blocks, and their answers, recur from one
    /// decision to the next.
    static IMPROVES: [Cell<(u64, u32)>; 1 << IMPROVE_BITS] =
        const { [const { Cell::new((0, 0)) }; 1 << IMPROVE_BITS] };
}

/// The improve cache's key of block `b` of `hand` (its card `types`), with Pairs counting or
/// not: the block's counts (4 bits each, so `None` when one is above 15), the block and
/// `pairs`. A card's key adds its place among `types`, shifted left by 48.
fn improve_key(hand: &Counts, types: &[u8], b: usize, pairs: bool) -> Option<u64> {
    let mut counts = 0u64;
    for (i, &t) in types.iter().enumerate() {
        let n = hand[usize::from(t)];
        if n > 15 {
            return None;
        }
        counts |= u64::from(n) << (4 * i);
    }
    Some(counts | (b as u64) << 52 | u64::from(pairs) << 56)
}

/// The answer of `key` under rules tagged `tag`, from the cache or from `answer`.
fn cached_improve(key: u64, tag: u32, answer: impl FnOnce() -> bool) -> bool {
    let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - IMPROVE_BITS)) as usize;
    let (k, v) = IMPROVES.with(|c| c[slot].get());
    if k == key && v >> 2 == tag && v & 2 != 0 {
        return v & 1 != 0;
    }
    let yes = answer();
    IMPROVES.with(|c| c[slot].set((key, tag << 2 | 2 | u32::from(yes))));
    yes
}

/// The prospects of the hand `left` this seat would keep (see the module documentation);
/// `cards` was made for `left` or for a hand holding it.
pub fn prospects(view: &PacksView<'_>, left: &Counts, cards: &UnseenCards) -> Prospects {
    let changed = cards.changed_blocks(left);
    let blocks = cards.blocks_of(left, changed);
    prospects_of(view, left, &blocks, changed, cards)
}

/// [`prospects`] of `left` with its `blocks` solved, given the blocks in which it differs from
/// the decision's hand (bit `b` for block id `b`).
fn prospects_of(
    view: &PacksView<'_>,
    left: &Counts,
    blocks: &BlockKeys,
    changed: u16,
    cards: &UnseenCards,
) -> Prospects {
    let opts = view.options();
    let fixed = view.fixed_points();
    let solver = &cards.solver;
    let rules = solver.rules();
    let (loose, points) = blocks.total();
    let pair_open = opts
        .pair_meld_min_points
        .is_none_or(|min| fixed + points > u32::from(min));
    let mut p = Prospects::default();
    let mut melds = Melds::new();
    let unseen = &cards.unseen;
    for &block in solver.block_ids() {
        // see `outs_of`: a meld of `u` can win only when the hand holds at most 3 loose cards,
        // all in `u`'s block; else only the improve outs count, and in a block the discard
        // left as it was they are the decision's hand's
        let can_win = loose <= 3 && loose == blocks.0[block].0;
        if !can_win && changed & 1 << block == 0 {
            p.improve_outs += cards.block_improve_outs(block, pair_open);
            continue;
        }
        let types = solver.block_types(block);
        let key = improve_key(left, types, block, pair_open);
        for (place, &t) in types.iter().enumerate() {
            let u = Card::from_index(usize::from(t));
            if unseen[u.index()] == 0 {
                continue;
            }
            let (win, improve) = if u.is_king() {
                // a drawn King leaves the hand as it is (lone King) or takes 3 copies (King Quad)
                (can_win && king_wins(left, u, fixed, rules, view), false)
            } else if !can_win {
                let key = key.map(|k| k | (place as u64) << 48);
                let block_loose = blocks.0[block].0;
                (
                    false,
                    improves(solver, left, block_loose, u, pair_open, key),
                )
            } else {
                cards.shapes_left(u, left, &mut melds);
                if !pair_open {
                    melds.retain(|m| m.kind != SetKind::Pair);
                }
                outs_of(left, blocks, u, &melds, fixed, solver, view)
            };
            let copies = u16::from(unseen[u.index()]);
            p.win_outs += copies * u16::from(win);
            p.improve_outs += copies * u16::from(improve);
        }
    }
    p
}

/// Whether one of `melds` of the card `u` wins with the hand `left` (its `blocks`, `fixed`
/// points made), and whether one lowers its loose count. Asked only of a hand that could win
/// on `u` (see `prospects_of`): every loose card of `left` lies in `u`'s block.
fn outs_of(
    left: &Counts,
    blocks: &BlockKeys,
    u: Card,
    melds: &[Meld],
    fixed: u32,
    solver: &BlockSolver,
    view: &PacksView<'_>,
) -> (bool, bool) {
    let rules = solver.rules();
    let b = solver.block_of(u.index());
    debug_assert_eq!(
        blocks.total().0,
        blocks.0[b].0,
        "a hand that could win on {u}"
    );
    let (loose, points) = blocks.total();
    let (mut win, mut improve) = (false, false);
    for m in melds {
        let after = without(left, m.used());
        let (block_loose, block_points) = solver.block_best(&after, b);
        improve |= block_loose < loose;
        if block_loose == 0 && !win {
            let fixed = fixed + meld_points(*m, u, rules);
            let points = points - blocks.0[b].1 + block_points;
            let test = view.options().win_test;
            win = complete_win_score(&after, points, fixed, rules, test).is_some();
        }
        if improve && win {
            break;
        }
    }
    (win, improve)
}

/// Whether drawing the King `king` would win with `hand` (S1: a lone melded King, or in
/// dirtyking26 the King Quad from three copies in hand).
fn king_wins(
    hand: &Counts,
    king: Card,
    fixed: u32,
    rules: &SetRules,
    view: &PacksView<'_>,
) -> bool {
    let test = view.options().win_test;
    let lone = Meld::new(SetKind::King, &[]);
    let quad = Meld::new(SetKind::Quad, &[king; 3]);
    let quads = rules.king_identical == KingIdenticalSets::QuadOnly && hand[king.index()] >= 3;
    let wins = |m: Meld| {
        let after = without(hand, m.used());
        win_score(&after, fixed + meld_points(m, king, rules), rules, test).is_some()
    };
    wins(lone) || (quads && wins(quad))
}

impl Agent<PacksState> for PacksGreedy {
    fn act(&mut self, view: &PacksView<'_>, legal: &[Action], rng: &mut GameRng) -> usize {
        self.choose(view, legal, rng)
    }
}
