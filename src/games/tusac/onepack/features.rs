//! The one-pack core's features of a candidate action (the list is
//! [`FEATURES`]): computed from the acting seat's view
//! only, with table lookups into fixed arrays (see that module's documentation).

use super::greedy::upgrade_gain;
use super::rules::{cards_of, discards_for};
use super::state::MAX_ACTIONS;
use super::trash::{colour_entry_of, pawn_entry_of, trash, trash_and_value};
use super::view::OnePackView;
use super::worst::outs;
use crate::agent::features::{feature, FeatureRow};
use crate::game::SeatView;
use crate::games::tusac::actions::{Action, Phase, Source};
use crate::games::tusac::card::{Card, CARD_TYPES};
use crate::games::tusac::features::{F, FEATURES};
use crate::games::tusac::hand::Hand;
use crate::games::tusac::sets::{pawns_without, value, SetKind};

/// Number of Tứ Sắc features (the row slots written).
const N: usize = FEATURES.len();

/// Bits 0 of every 2-bit count of a [`Hand`] (28 types).
const LOW_BITS: u64 = 0x0055_5555_5555_5555;

/// Types held exactly twice.
fn pairs(h: Hand) -> u32 {
    let b = h.bits();
    ((b >> 1) & !b & LOW_BITS).count_ones()
}

/// What a decision shares across its actions: the seat's block, what it has not seen, and for
/// each type what it would do to the block as the active card ([`meld_delta`]).
struct Decision {
    unseen: [u8; CARD_TYPES],
    /// The types with an unseen copy, and how many there are.
    live: [Card; CARD_TYPES],
    n_live: usize,
    /// `meld_delta(block, x)` for each live type `x`, by card index.
    delta: [i8; CARD_TYPES],
}

impl Decision {
    /// Unseen copies of `x`.
    fn unseen(&self, x: Card) -> u32 {
        u32::from(self.unseen[x.index()])
    }

    /// Ways the other seats could set `c` from unseen cards (see `feed_combos`).
    fn combos(&self, c: Card) -> u32 {
        let n = |x: Card| self.unseen(x);
        let mut sum = n(c);
        if c.is_pawn() {
            let [a, b, d] = other_pawns(c).map(n);
            sum += a * b + a * d + b * d + a * b * d;
        } else {
            let [a, b] = c.chow_others().map(n);
            sum += a * b + u32::from(c.is_king());
        }
        sum
    }

    /// Unseen cards that would let block `h` win as the active card, and unseen cards a legal
    /// meld of which would lower its trash (§4.4 LegalMelds, CanWin), by [`meld_delta`].
    ///
    /// `h` is the decision's block less cards of the trash parts (§3.2 item 5) in `changed`
    /// (bit [`part`]); a set with `x` lies in `x`'s part, so the delta of a type of another
    /// part is the one computed for the whole block.
    fn block_outs(&self, h: Hand, changed: u8) -> (u32, u32) {
        let th = i16::from(trash(h));
        let (mut win, mut improve) = (0, 0);
        for &x in &self.live[..self.n_live] {
            let delta = if changed >> part(x) & 1 == 1 {
                meld_delta(h, x)
            } else {
                self.delta[x.index()]
            };
            let u = self.unseen(x);
            win += u * u32::from(th + i16::from(delta) == 0);
            improve += u * u32::from(delta < 0);
        }
        (win, improve)
    }
}

/// The pawns of the three colours other than `x`'s (`x` a pawn), canonical order.
fn other_pawns(x: Card) -> [Card; 3] {
    pawns_without(x.colour())
        .into_inner()
        .expect("three other colours")
}

/// The trash part of §3.2 item 5 that holds `x`'s sets: its colour (K/A/E/R/C/H) 0..3, or 4 for
/// the pawns.
fn part(x: Card) -> u8 {
    if x.is_pawn() {
        4
    } else {
        x.colour() as u8
    }
}

/// The trash of `h`'s part that holds `x`'s sets.
fn part_trash(h: Hand, x: Card) -> i8 {
    (if x.is_pawn() {
        pawn_entry_of(h).trash
    } else {
        colour_entry_of(h, x.colour()).trash
    }) as i8
}

/// What active card `x` does to the trash of block `h`: the change made by its best meld that
/// respects the Khap lock (§2.3), where for a type held at most once leaving `x` out (+1) also
/// counts. Negative iff a legal meld lowers trash (§4.4 (b)); a legal meld wins iff
/// `trash(h) + delta = 0`.
///
/// For a type held at most once this is the change made by adding `x` to the block: a meld
/// `{x} ⊎ U` whose rest has trash `t'` partitions `h + x` at trash `t'`, and an optimal
/// partition of `h + x` puts `x` either in a set, which is such a meld, or among the trash, at
/// `trash(h) + 1` (Khap cards stay locked in both). For a type held twice (adding one would read
/// as a Khap) or three times it tries the shapes of [`super::rules::meld_shapes`], written out.
/// Every set with `x` lies in `x`'s own part, so only that part is looked up.
fn meld_delta(h: Hand, x: Card) -> i8 {
    let before = part_trash(h, x);
    if h.count(x) <= 1 {
        let mut with = h;
        with.add(x);
        return part_trash(with, x) - before;
    }
    let rest = |used: &[Card]| part_trash(h.without_all(used), x) - before;
    let free = |c: Card| h.count(c) == 1 || h.count(c) == 2;
    let mut best = match h.count(x) {
        2 => rest(&[x]).min(rest(&[x, x])),
        _ => rest(&[x, x, x]),
    };
    if x.is_pawn() {
        let others = other_pawns(x);
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            if free(others[i]) && free(others[j]) {
                best = best.min(rest(&[others[i], others[j]]));
            }
        }
        if others.iter().all(|&y| free(y)) {
            best = best.min(rest(&others));
        }
    } else {
        let others = x.chow_others();
        if others.iter().all(|&y| free(y)) {
            best = best.min(rest(&others));
        }
        if x.is_king() {
            best = best.min(0); // the lone King
        }
    }
    best
}

impl Decision {
    /// The decision of the seat holding `hand` in `view`, and the number of types of which
    /// three copies are unseen (a Khap another seat could hold).
    fn new(view: &OnePackView<'_>, hand: Hand) -> (Decision, u32) {
        let unseen = view.unseen();
        let mut d = Decision {
            unseen,
            live: [Card::default(); CARD_TYPES],
            n_live: 0,
            delta: [0; CARD_TYPES],
        };
        let mut khap_types = 0u32;
        for x in Card::all() {
            if unseen[x.index()] > 0 {
                d.live[d.n_live] = x;
                d.n_live += 1;
                d.delta[x.index()] = meld_delta(hand, x);
            }
            khap_types += u32::from(unseen[x.index()] >= 3);
        }
        (d, khap_types)
    }

    /// After a meld leaving `after` (its cards in the `changed` parts): the fewest combos a
    /// follow-up discard feeds, and the most win and improve outs over those discards.
    fn followups(&self, view: &OnePackView<'_>, after: Hand, changed: u8) -> (u32, u32, u32) {
        let (mut least, mut win, mut improve) = (u32::MAX, 0, 0);
        for c in cards_of(discards_for(view.options(), after)) {
            least = least.min(self.combos(c));
            let (w, i) = self.block_outs(after.without(c), changed | 1 << part(c));
            win = win.max(w);
            improve = improve.max(i);
        }
        (if least == u32::MAX { 0 } else { least }, win, improve)
    }
}

/// The situation, shared by every row of a decision with trash `t`, the other seats' public
/// Khaps and the value of the seat's public block.
fn situation(view: &OnePackView<'_>, t: u8) -> ([i16; N], u32, u32) {
    let me = view.seat();
    let mut base = [0i16; N];
    let (mut opp_khaps, mut opp_min_hand, mut opp_max_discards) = (0u32, usize::MAX, 0u32);
    for x in (0..view.players() as u8).filter(|&x| x != me) {
        opp_khaps += view.khaps(x);
        opp_min_hand = opp_min_hand.min(view.hand_len(x));
        opp_max_discards = opp_max_discards.max(view.discards(x));
    }
    base[F::ActiveSource as usize] = match (view.phase(), view.active().map(|a| a.source)) {
        (Phase::TurnOption(_), Some(Source::Discard)) => 1,
        (Phase::TurnOption(_), Some(Source::OwnDraw)) => 2,
        (Phase::TurnOption(_), Some(Source::PassedDraw)) => 3,
        _ => 0,
    };
    let floor = usize::from(view.options().stock_floor);
    base[F::DrawsLeft as usize] = feature(view.stock_len().saturating_sub(floor));
    base[F::TrashNow as usize] = feature(t);
    base[F::OppKhaps as usize] = feature(opp_khaps);
    base[F::OppMinHand as usize] = feature(opp_min_hand);
    base[F::OppMaxDiscards as usize] = feature(opp_max_discards);
    let public = view.public_sets(me);
    base[F::Doubled as usize] = i16::from(public.iter().any(|s| s.kind == SetKind::Quad));
    let table = view.options().point_table;
    let public_value = (public.iter())
        .map(|s| value(table, s.kind, s.zone, s.origin, false))
        .sum();
    (base, opp_khaps, public_value)
}

/// The outs (§5.1) of each legal discard, by action index, and their least, for the worst set.
fn discard_outs(
    legal: &[Action],
    hand: Hand,
    visible: &[u8; CARD_TYPES],
) -> ([u32; MAX_ACTIONS], u32) {
    let mut discard_outs = [0u32; MAX_ACTIONS];
    let mut min_outs = u32::MAX;
    for (i, a) in legal.iter().enumerate() {
        if let (Action::Discard(c), Some(slot)) = (a, discard_outs.get_mut(i)) {
            *slot = outs(*c, hand, visible);
            min_outs = min_outs.min(*slot);
        }
    }
    (discard_outs, min_outs)
}

/// Writes the features of each legal action into `rows` (one row per action).
pub fn features(view: &OnePackView<'_>, legal: &[Action], rows: &mut [FeatureRow]) {
    debug_assert_eq!(legal.len(), rows.len());
    if legal.is_empty() {
        return;
    }
    let hand = view.own_hand();
    let (t, private_value) = trash_and_value(hand);
    let (d, khap_types) = Decision::new(view, hand);
    let table = view.options().point_table;
    let upgrade_value = upgrade_gain(table);
    let (base, opp_khaps, public_value) = situation(view, t);
    let active = view.active();
    let visible = view.visible();
    let (discard_outs, min_outs) = discard_outs(legal, hand, visible);
    for (i, (a, row)) in legal.iter().zip(rows.iter_mut()).enumerate() {
        let r = &mut row[..N];
        r.copy_from_slice(&base);
        let mut set = |f: F, v: u32| r[f as usize] = feature(v);
        let (after, meld_value, (win, improve)) = match *a {
            Action::Discard(c) => {
                let o = discard_outs
                    .get(i)
                    .copied()
                    .unwrap_or_else(|| outs(c, hand, visible));
                set(F::IsDiscard, 1);
                set(F::Rank, c.rank() as u32);
                set(F::Outs, o);
                set(F::OutsOverMin, o.saturating_sub(min_outs));
                set(F::IsWorst, u32::from(o <= min_outs));
                set(F::UnseenSame, d.unseen(c));
                set(F::DeadSame, u32::from(view.dead()[c.index()]));
                if d.unseen(c) == 3 && khap_types > 0 {
                    set(F::KhuiChance, (100 * opp_khaps / khap_types).min(100));
                }
                set(F::FeedCombos, d.combos(c));
                let after = hand.without(c);
                (after, 0, d.block_outs(after, 1 << part(c)))
            }
            Action::Meld(m) => {
                let after = hand.without_all(m.used());
                set(F::IsMeld, 1);
                set(F::MeldKind, m.kind as u32 + 1);
                set(F::MeldCards, m.used().len() as u32);
                let meld_value = m.value_in(table);
                set(F::MeldValue, meld_value);
                // the meld's private cards lie in the active card's part
                let changed = active.map_or(0x1F, |a| 1 << part(a.card));
                let (least, win, improve) = d.followups(view, after, changed);
                set(F::FollowupCombos, least);
                (after, meld_value, (win, improve))
            }
            Action::Upgrade => {
                set(F::IsMeld, 1);
                set(F::MeldKind, SetKind::Quad as u32 + 1);
                set(F::MeldValue, upgrade_value);
                (hand, upgrade_value, d.block_outs(hand, 0))
            }
            Action::Draw | Action::PassDrawn | Action::Pass => {
                set(F::IsDecline, 1);
                if let (Action::PassDrawn, Some(drawn)) = (a, active) {
                    set(F::FeedCombos, d.combos(drawn.card));
                }
                (hand, 0, d.block_outs(hand, 0))
            }
        };
        set(F::WinOuts, win);
        set(F::ImproveOuts, improve);
        let (ta, va) = if after == hand {
            (t, private_value)
        } else {
            trash_and_value(after)
        };
        set(F::TrashAfter, u32::from(ta));
        set(F::TrashDrop, u32::from(t.saturating_sub(ta)));
        set(F::CardsAfter, after.len() as u32);
        set(F::ValueAfter, public_value + meld_value + u32::from(va));
        set(F::PairsAfter, pairs(after));
    }
}
