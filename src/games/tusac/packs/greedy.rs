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
//!   Without prospects ([`PacksGreedy::prospects`] false) this step is skipped and the discards
//!   with the best key go straight to the tie-break. That is greedy's default in dirtyking26
//!   ([`prospects_by_default`]): there the step adds no strength, against the rule or against
//!   random, and takes more than half of greedy's time (docs/tusac-variants.md).
//!   `greedy:prospects=on|off` forces either in any variant.
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

use super::loose::{
    best, complete_win_score, sum_masks, win_score, BlockSolver, Counts, BLOCK_IDS,
};
use super::melds::meld_points;
use super::outs::{block_outs, Ask};
use super::state::{PacksState, MAX_ACTIONS};
use super::view::PacksView;
use crate::agent::greedy::TieBreak;
use crate::agent::Agent;
use crate::games::tusac::actions::{Action, Phase};
use crate::games::tusac::card::{Card, CARD_TYPES};
use crate::games::tusac::meld::Meld;
use crate::games::tusac::options::{KingIdenticalSets, Options, WinTest};
use crate::games::tusac::sets::SetKind;
use crate::games::tusac::sets::SetRules;
use crate::rng::GameRng;
use arrayvec::ArrayVec;
use std::cmp::Reverse;

/// The greedy agent of the multi-pack variants (see the module documentation).
#[derive(Copy, Clone, Debug)]
pub struct PacksGreedy {
    /// The tie-break rule among equally good actions.
    pub tiebreak: TieBreak,
    /// Whether discards with the best key are told apart by their prospects (the rule); else
    /// they go straight to the tie-break.
    pub prospects: bool,
}

/// The variants whose greedy plays without prospects unless told otherwise: the step was
/// measured to add no strength there (docs/tusac-variants.md).
const NO_PROSPECTS_BY_DEFAULT: &[&str] = &["dirtyking26"];

/// Whether greedy's discard uses its prospects step by default under these rules: on, except in
/// `NO_PROSPECTS_BY_DEFAULT` (by the preset the rules start from, `Options::variant`).
pub fn prospects_by_default(options: &Options) -> bool {
    !NO_PROSPECTS_BY_DEFAULT.contains(&options.variant)
}

/// The solver's key of a hand, smallest best: fewest loose cards, then most points (the hand's
/// best partition plus the seat's fixed and melded points).
pub(crate) type HandKey = (u8, Reverse<u32>);

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
        if !self.prospects {
            return self.tiebreak.pick(tied.map(|&(i, k, _, _)| (i, k)), rng);
        }
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
                let p = prospects_of(view, &left, &blocks, &cards);
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
/// decision's hand keeps after a discard: the unseen counts, and the hand and its blocks.
pub struct UnseenCards {
    solver: BlockSolver,
    unseen: Counts,
    /// The hand of the decision, and its blocks.
    hand: Counts,
    hand_blocks: BlockKeys,
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
        }
    }

    /// The blocks of `left`, solving again only those in which it differs from the decision's
    /// hand.
    fn blocks_of(&self, left: &Counts) -> BlockKeys {
        let mut changed = 0u16;
        for (t, (a, b)) in left.iter().zip(&self.hand).enumerate() {
            if a != b {
                changed |= 1 << self.solver.block_of(t);
            }
        }
        let mut out = self.hand_blocks;
        for b in (0..BLOCK_IDS).filter(|b| changed & 1 << b != 0) {
            out.0[b] = self.solver.block_best(left, b);
        }
        out
    }
}

/// The prospects of the hand `left` this seat would keep (see the module documentation);
/// `cards` was made for `left` or for a hand holding it.
pub fn prospects(view: &PacksView<'_>, left: &Counts, cards: &UnseenCards) -> Prospects {
    prospects_of(view, left, &cards.blocks_of(left), cards)
}

/// [`prospects`] of `left` with its `blocks` solved. Each block adds the outs of its own
/// types ([`block_outs`]): a meld of `u` can win only when every loose card of the hand, three
/// at most, lies in `u`'s block, so the win outs are looked for in that block alone.
fn prospects_of(
    view: &PacksView<'_>,
    left: &Counts,
    blocks: &BlockKeys,
    cards: &UnseenCards,
) -> Prospects {
    let opts = view.options();
    let fixed = view.fixed_points();
    let solver = &cards.solver;
    let (loose, points) = blocks.total();
    let pair_open = opts
        .pair_meld_min_points
        .is_none_or(|min| fixed + points > u32::from(min));
    let mut p = Prospects::default();
    for &block in solver.block_ids() {
        let (block_loose, block_points) = blocks.0[block];
        let can_win = loose <= 3 && loose == block_loose;
        let ask = Ask {
            block,
            loose: block_loose,
            pairs: pair_open,
            wins: can_win,
        };
        let outs = block_outs(solver, left, ask);
        let others_mask = || others_mask(solver, left, block);
        for (place, &t) in solver.block_types(block).iter().enumerate() {
            let copies = u16::from(cards.unseen[usize::from(t)]);
            if copies == 0 {
                continue;
            }
            let u = Card::from_index(usize::from(t));
            let win = can_win
                && if u.is_king() {
                    // a drawn King leaves the hand as it is (lone King) or takes 3 copies
                    king_wins(
                        left,
                        (loose, points),
                        u,
                        fixed,
                        solver.rules(),
                        opts.win_test,
                    )
                } else {
                    let others_top = points - block_points;
                    outs.wins(place, others_top, others_mask, fixed, opts.win_test)
                };
            p.win_outs += copies * u16::from(win);
            p.improve_outs += copies * u16::from(outs.improve >> place & 1 != 0);
        }
    }
    p
}

/// The points of `hand`'s blocks other than `block`, every one complete, as a bit set.
fn others_mask(solver: &BlockSolver, hand: &Counts, block: usize) -> u128 {
    solver
        .block_ids()
        .iter()
        .filter(|&&b| b != block)
        .fold(1, |acc, &b| sum_masks(acc, solver.block_mask(hand, b)))
}

/// Whether drawing the King `king` would win with `hand`, whose best partition leaves `loose`
/// cards loose and is worth `points` (S1: a lone melded King, or in dirtyking26 the King Quad
/// from three copies in hand).
fn king_wins(
    hand: &Counts,
    (loose, points): (u8, u32),
    king: Card,
    fixed: u32,
    rules: &SetRules,
    test: WinTest,
) -> bool {
    // the lone King leaves the hand as it is
    let lone = Meld::new(SetKind::King, &[]);
    let fixed_lone = fixed + meld_points(lone, king, rules);
    if loose == 0 && complete_win_score(hand, points, fixed_lone, rules, test).is_some() {
        return true;
    }
    let quad = Meld::new(SetKind::Quad, &[king; 3]);
    let quads = rules.king_identical == KingIdenticalSets::QuadOnly && hand[king.index()] >= 3;
    quads && {
        let after = without(hand, quad.used());
        win_score(&after, fixed + meld_points(quad, king, rules), rules, test).is_some()
    }
}

impl Agent<PacksState> for PacksGreedy {
    fn act(&mut self, view: &PacksView<'_>, legal: &[Action], rng: &mut GameRng) -> usize {
        self.choose(view, legal, rng)
    }
}
