//! The rule-learner's features (`rules:PATH`) of a multi-pack decision (sisepai21, dirtyking26):
//! the slots of the game's one list [`FEATURES`] filled with their multi-pack analogue, from the
//! acting seat's [`PacksView`] only (own hand and face-down block, public sets, dead pile, stock
//! size, [`PacksView::unseen`]).
//!
//! A decision is a discard (`MustDiscard`, §4.6 S6), a meld of the active card or its decline
//! (`TurnOption`, S2/S7: `Draw` on a discard, `PassDrawn` on one's own draw), or an optional
//! claim (`Claim`: an identical `Triple`/`Quad`, S2, or dirtyking26's King `Quad`, S1, or
//! `Pass`). "Loose" is §3.3's `loose` of the hand, "points" the best-value partition of §3.6
//! with loose cards allowed (the current points of the pair gate, S5). Where the one-pack
//! feature has no analogue the slot is 0. Feature by feature (range in [`RANGES`]):
//!
//! | feature | multi-pack meaning |
//! |---|---|
//! | `is_discard`, `is_meld`, `is_decline` | as in the one-pack core; a decline is `Draw`, `PassDrawn` or `Pass` |
//! | `active_source` | in `TurnOption`: 1 a discard (a declined draw of S4 included), 2 one's own draw; 0 otherwise (3, a passed draw, never occurs) |
//! | `draws_left` | stock size minus the variant's floor (`stock_floor`, 0 in the presets); the one reshuffle of §4.7 may add the dead pile later |
//! | `trash_now` | loose cards of the hand before the action (§3.3) |
//! | `opp_khaps` | face-down quadruples of the other seats (public counts, §1.4 step 3) |
//! | `opp_min_hand` | fewest hand cards held by another seat |
//! | `opp_max_discards` | most hand cards discarded by another seat (dealt cards minus hand, face-down and the hand cards of its melds; a declined draw is not counted) |
//! | `doubled` | 0: no payout doubling in §6.3–6.4 |
//! | `rank` | discard: the card's rank, 1 A … 6 P |
//! | `outs` | discard: unseen copies of the non-King types `x` that would set the card if kept: some set `{c} ⊎ {x} ⊎ Y` of the variant with `Y` (≤ 2 cards) from the hand after the discard (§5.1 without the Khap lock and the penalty) |
//! | `outs_over_min`, `is_worst` | discard: as in the one-pack core over these outs (no penalty attaches) |
//! | `unseen_same`, `dead_same` | discard: unseen / dead copies of the card |
//! | `khui_chance` | 0: no forced Khui |
//! | `feed_combos` | discard or `PassDrawn`: the one-pack count, plus (dirtyking26) the `Colours3/4` combinations of the rank, as `Pawns3/4` |
//! | `meld_kind` | meld: set kind + 1 (1 King … 8 Pawns4, 9 Colours3, 10 Colours4) |
//! | `meld_cards` | meld: hand cards the meld takes, 0..3 |
//! | `meld_value` | meld: points of the melded set (§2.5 melded values, doubled on the double rank) |
//! | `followup_combos` | meld: least `feed_combos` among the discards that may follow it (0 when the hand keeps only Kings, S6) |
//! | `trash_after`, `trash_drop` | loose cards after the action, and `trash_now` minus it (0 when it grows) |
//! | `cards_after` | hand cards after the action |
//! | `value_after` | points after the action: face-down and melded sets (with the meld's) plus the best partition of the hand, loose cards allowed (S5's current points) |
//! | `pairs_after` | non-King types held exactly twice after the action (each an out-of-turn `Triple` claim, S2) |
//! | `win_outs` | unseen cards `x` with which this seat, as turn player, would win (§4.7) once the action is done: a non-King by some legal meld (S5 gate included), a King by the lone King or (dirtyking26) the King `Quad` (S1); after a meld, the most over the discards that may follow it |
//! | `improve_outs` | unseen non-King cards `x` some legal meld of which (S5 gate included) leaves fewer loose cards, for the hand as in `win_outs` |
//!
//! The work shared by a decision's actions (unseen counts, the seat's points) is done once; the
//! solver calls go through [`loose::best`]'s tables and caches: no heap allocation.

use super::loose::{self, best, win_score, Counts};
use super::melds::{legal_melds, meld_points};
use super::state::MAX_ACTIONS;
use super::view::PacksView;
use crate::agent::features::{feature, FeatureRow};
use crate::agent::greedy::feature_slot;
use crate::game::{Seat, SeatView};
use crate::games::tusac::actions::{Action, Phase, Source};
use crate::games::tusac::card::{Card, CARD_TYPES, COLOURS};
use crate::games::tusac::features::FEATURES;
use crate::games::tusac::meld::{Meld, Melds};
use crate::games::tusac::options::{KingIdenticalSets, WinTest};
use crate::games::tusac::sets::SetKind;
use crate::games::tusac::sets::SetRules;

/// The slot of feature `name` in [`FEATURES`].
const fn slot(name: &str) -> usize {
    feature_slot(FEATURES, name)
}

const IS_DISCARD: usize = slot("is_discard");
const IS_MELD: usize = slot("is_meld");
const IS_DECLINE: usize = slot("is_decline");
const ACTIVE_SOURCE: usize = slot("active_source");
const DRAWS_LEFT: usize = slot("draws_left");
const TRASH_NOW: usize = slot("trash_now");
const OPP_KHAPS: usize = slot("opp_khaps");
const OPP_MIN_HAND: usize = slot("opp_min_hand");
const OPP_MAX_DISCARDS: usize = slot("opp_max_discards");
const RANK: usize = slot("rank");
const OUTS: usize = slot("outs");
const OUTS_OVER_MIN: usize = slot("outs_over_min");
const IS_WORST: usize = slot("is_worst");
const UNSEEN_SAME: usize = slot("unseen_same");
const DEAD_SAME: usize = slot("dead_same");
const FEED_COMBOS: usize = slot("feed_combos");
const MELD_KIND: usize = slot("meld_kind");
const MELD_CARDS: usize = slot("meld_cards");
const MELD_VALUE: usize = slot("meld_value");
const FOLLOWUP_COMBOS: usize = slot("followup_combos");
const TRASH_AFTER: usize = slot("trash_after");
const TRASH_DROP: usize = slot("trash_drop");
const CARDS_AFTER: usize = slot("cards_after");
const VALUE_AFTER: usize = slot("value_after");
const PAIRS_AFTER: usize = slot("pairs_after");
const WIN_OUTS: usize = slot("win_outs");
const IMPROVE_OUTS: usize = slot("improve_outs");

/// Every feature's range in the multi-pack core, `(name, least, most)`, for any options the
/// core accepts (up to 4 packs, 8 seats, 27 cards in a hand); `doubled` and `khui_chance` are
/// always 0.
pub const RANGES: &[(&str, i16, i16)] = &[
    ("is_discard", 0, 1),
    ("is_meld", 0, 1),
    ("is_decline", 0, 1),
    ("active_source", 0, 2),
    ("draws_left", 0, 448),
    ("trash_now", 0, 27),
    ("opp_khaps", 0, 42),
    ("opp_min_hand", 0, 27),
    ("opp_max_discards", 0, 27),
    ("doubled", 0, 0),
    ("rank", 0, 6),
    ("outs", 0, 95),
    ("outs_over_min", 0, 95),
    ("is_worst", 0, 1),
    ("unseen_same", 0, 15),
    ("dead_same", 0, 15),
    ("khui_chance", 0, 0),
    ("feed_combos", 0, 5136),
    ("meld_kind", 0, 10),
    ("meld_cards", 0, 3),
    ("meld_value", 0, 12),
    ("followup_combos", 0, 5136),
    ("trash_after", 0, 27),
    ("trash_drop", 0, 3),
    ("cards_after", 0, 27),
    ("value_after", 0, 300),
    ("pairs_after", 0, 13),
    ("win_outs", 0, 448),
    ("improve_outs", 0, 448),
];

/// What a decision shares across its actions: the seat's rules and what it has not seen.
struct Decision {
    rules: SetRules,
    unseen: Counts,
    pair_min: Option<u8>,
    win_test: WinTest,
    king_quads: bool,
}

/// `h` less one copy of each card of `used`.
fn without(h: &Counts, used: &[Card]) -> Counts {
    let mut out = *h;
    used.iter().for_each(|c| out[c.index()] -= 1);
    out
}

/// Non-King types held exactly twice.
fn pairs(h: &Counts) -> u32 {
    h[4..].iter().filter(|&&n| n == 2).count() as u32
}

/// Hand cards.
fn cards(h: &Counts) -> u32 {
    h.iter().map(|&n| u32::from(n)).sum()
}

/// The non-King cards of `h` (the legal discards, S6).
fn discards(h: &Counts) -> impl Iterator<Item = Card> + '_ {
    (4..CARD_TYPES).filter(|&t| h[t] > 0).map(Card::from_index)
}

/// The cards of `x`'s rank in the three other colours.
fn across(x: Card) -> [Card; 3] {
    let mut out = [x; 3];
    let others = COLOURS.into_iter().filter(|&c| c != x.colour());
    for (slot, c) in out.iter_mut().zip(others) {
        *slot = Card::new(c, x.rank());
    }
    out
}

impl Decision {
    /// The decision of the seat whose `view` this is.
    fn new(view: &PacksView<'_>) -> Decision {
        let o = view.options();
        Decision {
            rules: SetRules::new(o, view.double_rank()),
            unseen: view.unseen(),
            pair_min: o.pair_meld_min_points,
            win_test: o.win_test,
            king_quads: o.king_identical_sets == KingIdenticalSets::QuadOnly,
        }
    }

    /// The outs of each legal discard of `hand`, by action index, and their least.
    fn discard_outs(&self, legal: &[Action], hand: &Counts) -> ([u32; MAX_ACTIONS], u32) {
        let mut discard_outs = [0u32; MAX_ACTIONS];
        let mut min_outs = u32::MAX;
        for (a, slot) in legal.iter().zip(discard_outs.iter_mut()) {
            if let Action::Discard(c) = *a {
                *slot = self.outs(c, &without(hand, &[c]));
                min_outs = min_outs.min(*slot);
            }
        }
        (discard_outs, min_outs)
    }

    /// After a meld leaving `after` with `fixed_after` points made: the fewest combos a
    /// follow-up discard feeds (0 without one), and the most win and improve outs over those
    /// discards (of `after` itself without one).
    fn followups(&self, after: &Counts, fixed_after: u32) -> (u32, u32, u32) {
        let (mut least, mut win, mut improve) = (None::<u32>, 0, 0);
        for c in discards(after) {
            least = Some(least.map_or(self.combos(c), |l| l.min(self.combos(c))));
            let (w, i) = self.block_outs(&without(after, &[c]), fixed_after);
            win = win.max(w);
            improve = improve.max(i);
        }
        if least.is_none() {
            (win, improve) = self.block_outs(after, fixed_after);
        }
        (least.unwrap_or(0), win, improve)
    }

    /// Unseen copies of `x`.
    fn unseen(&self, x: Card) -> u32 {
        u32::from(self.unseen[x.index()])
    }

    /// Whether `x`'s rank forms the across-colour sets (`Pawns3/4`, or `Colours3/4`).
    fn crosses(&self, x: Card) -> bool {
        x.is_pawn() || (self.rules.cross_colour && !x.is_king())
    }

    /// Ways the other seats could set `c` from unseen cards (`feed_combos`).
    fn combos(&self, c: Card) -> u32 {
        let n = |x: Card| self.unseen(x);
        let mut sum = n(c);
        if !c.is_pawn() {
            let [a, b] = c.chow_others().map(n);
            sum += a * b;
        }
        if self.crosses(c) {
            let [a, b, d] = across(c).map(n);
            sum += a * b + a * d + b * d + a * b * d;
        }
        sum
    }

    /// The outs of discarding `c` (`outs`): unseen copies of the non-King types `x` such that
    /// some set `{c} ⊎ {x} ⊎ Y` has `Y` (≤ 2 cards) in `after`, the hand after the discard.
    fn outs(&self, c: Card, after: &Counts) -> u32 {
        let held = |x: Card| after[x.index()] > 0;
        let mut total = self.unseen(c); // Pair, Triple, Quad
        if !c.is_pawn() {
            let [a, b] = c.chow_others();
            for (x, y) in [(a, b), (b, a)] {
                if !x.is_king() && held(y) {
                    total += self.unseen(x);
                }
            }
        }
        if self.crosses(c) {
            let others = across(c);
            for x in others {
                // a third card of a colour other than c's and x's completes a 3-colour set
                let third = others.iter().any(|&y| y.colour() != x.colour() && held(y));
                if third {
                    total += self.unseen(x);
                }
            }
        }
        total
    }

    /// Whether hand `h` with fixed points `fixed` wins (§4.7) by some legal meld of active `x`.
    fn wins_with(&self, h: &Counts, fixed: u32, x: Card) -> bool {
        let wins = |m: Meld| {
            let rest = without(h, m.used());
            let total = fixed + meld_points(m, x, &self.rules);
            win_score(&rest, total, &self.rules, self.win_test).is_some()
        };
        if x.is_king() {
            let quad = self.king_quads && h[x.index()] >= 3;
            return wins(Meld::new(SetKind::King, &[]))
                || (quad && wins(Meld::new(SetKind::Quad, &[x; 3])));
        }
        let mut melds = Melds::new();
        legal_melds(h, x, fixed, &self.rules, self.pair_min, &mut melds);
        melds.iter().any(|&m| wins(m))
    }

    /// Whether some legal meld of active non-King `x` leaves `h` fewer than `loose` loose cards.
    fn improves_with(&self, h: &Counts, fixed: u32, x: Card, loose: u8) -> bool {
        let mut melds = Melds::new();
        legal_melds(h, x, fixed, &self.rules, self.pair_min, &mut melds);
        melds
            .iter()
            .any(|m| loose::loose(&without(h, m.used()), &self.rules) < loose)
    }

    /// `(win_outs, improve_outs)` of hand `h` with fixed points `fixed`.
    ///
    /// A non-King `x` joins a set of some best partition of `h + x` iff `loose(h + x) <
    /// loose(h) + 1`, and every set holding a non-King is a meld shape: so `loose(h + x) = 0` is
    /// needed for a win and `loose(h + x) < loose(h)` means some meld shape lowers the loose
    /// count; the melds are tried only then (the pair gate and the points test may still
    /// refuse them).
    fn block_outs(&self, h: &Counts, fixed: u32) -> (u32, u32) {
        let (lh, points) = best(h, &self.rules);
        let gated = self
            .pair_min
            .is_some_and(|m| fixed + points <= u32::from(m));
        let (mut win, mut improve) = (0, 0);
        for t in (0..CARD_TYPES).filter(|&t| self.unseen[t] > 0) {
            let x = Card::from_index(t);
            let u = self.unseen(x);
            if x.is_king() {
                if lh == 0 && self.wins_with(h, fixed, x) {
                    win += u;
                }
                continue;
            }
            let mut hx = *h;
            hx[t] += 1;
            let lx = loose::loose(&hx, &self.rules);
            if lx == 0 && self.wins_with(h, fixed, x) {
                win += u;
            }
            let pair_only = gated && h[t] > 0;
            if lx < lh && (!pair_only || self.improves_with(h, fixed, x, lh)) {
                improve += u;
            }
        }
        (win, improve)
    }
}

/// Hand cards another seat has discarded: dealt cards minus its hand, face-down block and the
/// hand cards of its melded sets.
fn discarded(view: &PacksView<'_>, x: Seat) -> usize {
    let o = view.options();
    let dealt = usize::from(o.hand_size) + usize::from(x == o.first_player);
    let melded: usize = view.melded(x).iter().map(|s| s.cards().len() - 1).sum();
    dealt.saturating_sub(view.hand_len(x) + view.face_down_len(x) + melded)
}

/// The features of the situation, the same for every action of the decision.
fn situation(view: &PacksView<'_>, loose_now: u8) -> FeatureRow {
    let mut base: FeatureRow = [0; crate::agent::features::MAX_FEATURES];
    let me = view.seat();
    let (mut quads, mut min_hand, mut max_discards) = (0usize, usize::MAX, 0usize);
    for x in (0..view.options().players).filter(|&x| x != me) {
        quads += view.face_down_len(x) / 4;
        min_hand = min_hand.min(view.hand_len(x));
        max_discards = max_discards.max(discarded(view, x));
    }
    base[ACTIVE_SOURCE] = match (view.phase(), view.active().map(|a| a.source)) {
        (Phase::TurnOption(_), Some(Source::Discard)) => 1,
        (Phase::TurnOption(_), Some(Source::OwnDraw)) => 2,
        (Phase::TurnOption(_), Some(Source::PassedDraw)) => 3,
        _ => 0,
    };
    let floor = usize::from(view.options().stock_floor);
    base[DRAWS_LEFT] = feature(view.stock_len().saturating_sub(floor));
    base[TRASH_NOW] = feature(loose_now);
    base[OPP_KHAPS] = feature(quads);
    base[OPP_MIN_HAND] = feature(if min_hand == usize::MAX { 0 } else { min_hand });
    base[OPP_MAX_DISCARDS] = feature(max_discards);
    base
}

/// Writes the features of each legal action of a multi-pack decision into `rows` (one row per
/// action, in the slots of [`FEATURES`]; see the module doc for each one's meaning).
pub fn features(view: &PacksView<'_>, legal: &[Action], rows: &mut [FeatureRow]) {
    debug_assert_eq!(legal.len(), rows.len());
    if legal.is_empty() {
        return;
    }
    let d = Decision::new(view);
    let hand = *view.hand();
    let fixed = view.fixed_points();
    let (loose_now, points_now) = best(&hand, &d.rules);
    let base = situation(view, loose_now);

    let (discard_outs, min_outs) = d.discard_outs(legal, &hand);
    let active = view.active().map(|a| a.card);

    for (i, (a, row)) in legal.iter().zip(rows.iter_mut()).enumerate() {
        let n = FEATURES.len();
        row[..n].copy_from_slice(&base[..n]);
        let mut set = |slot: usize, v: u32| row[slot] = feature(v);
        let (after, fixed_after) = match *a {
            Action::Discard(c) => {
                let after = without(&hand, &[c]);
                let o = discard_outs
                    .get(i)
                    .copied()
                    .unwrap_or_else(|| d.outs(c, &after));
                set(IS_DISCARD, 1);
                set(RANK, c.rank() as u32);
                set(OUTS, o);
                set(OUTS_OVER_MIN, o.saturating_sub(min_outs));
                set(IS_WORST, u32::from(o <= min_outs));
                set(UNSEEN_SAME, d.unseen(c));
                set(DEAD_SAME, u32::from(view.dead()[c.index()]));
                set(FEED_COMBOS, d.combos(c));
                let (win, improve) = d.block_outs(&after, fixed);
                set(WIN_OUTS, win);
                set(IMPROVE_OUTS, improve);
                (after, fixed)
            }
            Action::Meld(m) => {
                let card = active.expect("a meld has an active card");
                let after = without(&hand, m.used());
                let points = meld_points(m, card, &d.rules);
                let fixed_after = fixed + points;
                set(IS_MELD, 1);
                set(MELD_KIND, m.kind as u32 + 1);
                set(MELD_CARDS, m.used().len() as u32);
                set(MELD_VALUE, points);
                let (least, win, improve) = d.followups(&after, fixed_after);
                set(FOLLOWUP_COMBOS, least);
                set(WIN_OUTS, win);
                set(IMPROVE_OUTS, improve);
                (after, fixed_after)
            }
            // the 4sac upgrade is never offered here (§4.6); its row keeps the situation only
            Action::Upgrade => (hand, fixed),
            Action::Draw | Action::PassDrawn | Action::Pass => {
                set(IS_DECLINE, 1);
                if let (Action::PassDrawn, Some(card)) = (a, active) {
                    set(FEED_COMBOS, d.combos(card));
                }
                let (win, improve) = d.block_outs(&hand, fixed);
                set(WIN_OUTS, win);
                set(IMPROVE_OUTS, improve);
                (hand, fixed)
            }
        };
        let (loose_after, points_after) = if after == hand {
            (loose_now, points_now)
        } else {
            best(&after, &d.rules)
        };
        set(TRASH_AFTER, u32::from(loose_after));
        set(TRASH_DROP, u32::from(loose_now.saturating_sub(loose_after)));
        set(CARDS_AFTER, cards(&after));
        set(VALUE_AFTER, fixed_after + points_after);
        set(PAIRS_AFTER, pairs(&after));
    }
}
