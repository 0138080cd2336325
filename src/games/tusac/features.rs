//! Tứ Sắc's features of a candidate action, for rule lists (`rules:PATH`): computed from the
//! acting seat's view only (see [`crate::agent::features`]).
//!
//! A classic decision is a discard (`MustDiscard`, C7) or, in `TurnOption`, a meld of the active
//! card (C5) or its decline (`Draw` / `PassDrawn`, C6). 4sac adds the optional claim (a meld,
//! or `Pass`, a decline) and the exposed Pong upgrade (`Upgrade`, a meld of no private card
//! whose value is what the Kong adds to the Pong). The features come in families:
//! - the kind of action (`is_discard`, `is_meld`, `is_decline`), so a rule can target one;
//! - the situation, the same for every action of a decision (stock, own trash, the other
//!   seats' public Khap counts, card counts and discards);
//! - the discarded card: its outs and whether it is worst (§5, what `greedy` reads, and the
//!   penalty of §5.3), and what it may give the other seats (unseen copies, a forced Khui,
//!   the sets it could complete for them);
//! - the meld: its kind, size and value, and how safe the discard that must follow it can be;
//! - the private block once the action is done: trash, cards, value, pairs, and how many unseen
//!   cards would let it win or lower its trash.
//!
//! Type-specific features are 0 for actions of the other types. Everything is computed from the
//! view (own block, public sets, dead pile, stock size, counts, [`OnePackView::unseen`]) with table
//! lookups into fixed arrays: no heap allocation. The trash tables answer "what would this card
//! do to the block" per trash part (§3.2 item 5), so the work shared by a decision's actions is
//! done once: about 1 µs of CPU per decision on the positions of greedy games
//! (`time_features_per_decision` in `tests/tusac_features.rs`).

use super::card::{Card, Rank, CARD_TYPES};
use super::hand::Hand;
use super::rules::{cards_of, discards_for};
use super::sets::{pawns_without, value, Origin, SetKind, Zone};
use super::state::{Action, Phase, Source, MAX_ACTIONS};
use super::trash::{colour_entry_of, pawn_entry_of, trash, trash_and_value};
use super::worst::outs;
use super::OnePackView;
use crate::agent::features::{feature, FeatureInfo, FeatureRow};
use crate::game::SeatView;

/// Declares the row slots (enum `F`) and [`FEATURES`] from one list, so their orders agree.
macro_rules! features {
    ($($slot:ident $name:literal $about:literal;)*) => {
        /// A feature's slot in a row, in the order of [`FEATURES`].
        #[derive(Copy, Clone)]
        enum F {
            $($slot),*
        }
        /// The features, in row order.
        pub const FEATURES: &[FeatureInfo] = &[$(FeatureInfo { name: $name, about: $about }),*];
    };
}

features! {
    IsDiscard "is_discard"
        "1 for a discard (MustDiscard, C7), else 0";
    IsMeld "is_meld"
        "1 for a meld of the active card (TurnOption, C5), else 0";
    IsDecline "is_decline"
        "1 for declining the active card (draw on a discard or passed draw, pass on one's own \
         draw, C6), else 0";
    ActiveSource "active_source"
        "situation: where the active card came from: 0 none (a discard decision), 1 the previous \
         seat's discard, 2 this seat's own draw (declining passes it to the next seat), 3 a draw \
         the previous seat passed; 0..3";
    DrawsLeft "draws_left"
        "situation: draws left before the game is drawn (stock size minus the floor of 7, §4.7), \
         cards; 0..64";
    TrashNow "trash_now"
        "situation: this seat's trash before the action (§3.1), cards; 0..21";
    OppKhaps "opp_khaps"
        "situation: Khaps the other seats hold in all (public counts, §1.4), count; 0..18";
    OppMinHand "opp_min_hand"
        "situation: fewest private cards held by another seat, cards; 0..21";
    OppMaxDiscards "opp_max_discards"
        "situation: most discards made by another seat (each lowered its trash by one, C7), \
         count; 0..20";
    Doubled "doubled"
        "situation: 1 if this seat owns a Quan or Khui, so that its win would pay double \
         (m = 2, §6.1), else 0";
    Rank "rank"
        "discard: rank of the card, 1 A, 2 E, 3 R, 4 C, 5 H, 6 P (Kings are never discarded); \
         0 for other actions";
    Outs "outs"
        "discard: the card's outs (§5.1): unseen copies of its partner types, cards; 0..~40; \
         0 for other actions";
    OutsOverMin "outs_over_min"
        "discard: outs minus the least outs among the legal discards, cards; 0 for a worst card \
         and for other actions; 0..~40";
    IsWorst "is_worst"
        "discard: 1 if the card is worst (§5.1, least outs; greedy discards one), so it can never \
         draw the penalty of §5.3; 0 otherwise and for other actions";
    UnseenSame "unseen_same"
        "discard: unseen copies of the card (in other hands or the stock), cards; 0..3; 0 for \
         other actions";
    DeadSame "dead_same"
        "discard: copies of the card already in the dead pile, cards; 0..3; 0 for other actions";
    KhuiChance "khui_chance"
        "discard: rough chance that another seat holds a Khap of the card and must make a Khui \
         of it (C2): when its 3 other copies are all unseen, 100 × opp_khaps / number of types \
         with 3 or more unseen copies, else 0; percent, 0..100; 0 for other actions";
    FeedCombos "feed_combos"
        "discard, or pass of one's own draw: ways the other seats could set the card given away \
         from unseen cards: its unseen copies (pair) plus, for each chow or pawn set holding it, \
         the product of the unseen copies of the set's other cards (+1 for a lone King); count, \
         0..116; 0 for other actions";
    MeldKind "meld_kind"
        "meld: kind of the set made, 1 King, 2 Pair, 3 Triple, 4 Quad, 5 KingAdvisorElephant, \
         6 RookCannonHorse, 7 Pawns3, 8 Pawns4; 0 for other actions";
    MeldCards "meld_cards"
        "meld: private cards the meld exposes with the active card, cards; 0..3; 0 for other \
         actions";
    MeldValue "meld_value"
        "meld: classic value of the set made (§2.5: Pair 0, Pawns4 2, Khui 6, others 1), points; \
         0..6; 0 for other actions";
    FollowupCombos "followup_combos"
        "meld: the least feed_combos among the discards legal after the meld (one must follow \
         it, C7), count; 0..116; 0 for other actions";
    TrashAfter "trash_after"
        "trash of the private block after the action (a discard lowers it by one, a meld by \
         0..3, a decline keeps it), cards; 0..21";
    TrashDrop "trash_drop"
        "trash_now minus trash_after: 1 for a discard, 0..3 for a meld, 0 for a decline; cards";
    CardsAfter "cards_after"
        "private cards after the action, cards; 0..21";
    ValueAfter "value_after"
        "hand value after the action: public sets (with the meld's) plus the best partition of \
         the private block among its least-trash ones (§3.6, a Khap 3), points; 0..~40";
    PairsAfter "pairs_after"
        "types held exactly twice in the private block after the action (each a chance of an \
         out-of-turn triple, C3), count; 0..10";
    WinOuts "win_outs"
        "unseen cards that would let this seat win as the active card (C1) once the action is \
         done: the block after a discard; after a meld, the most over the discards that may \
         follow it; after a decline, the block as it is; cards; 0..~60";
    ImproveOuts "improve_outs"
        "unseen cards a legal meld of which would lower this seat's trash, for the block as in \
         win_outs (most over the follow-up discards of a meld); cards; 0..~80";
}

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
            let [a, b] = chow_others(c).map(n);
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

/// The other two cards of the chow of non-pawn `x`: K/A/E or R/C/H of its colour.
fn chow_others(x: Card) -> [Card; 2] {
    let group = if x.rank() <= Rank::Elephant {
        [Rank::King, Rank::Advisor, Rank::Elephant]
    } else {
        [Rank::Rook, Rank::Cannon, Rank::Horse]
    };
    let mut out = [x; 2];
    for (slot, r) in out
        .iter_mut()
        .zip(group.into_iter().filter(|&r| r != x.rank()))
    {
        *slot = Card::new(x.colour(), r);
    }
    out
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
        let others = chow_others(x);
        if others.iter().all(|&y| free(y)) {
            best = best.min(rest(&others));
        }
        if x.is_king() {
            best = best.min(0); // the lone King
        }
    }
    best
}

/// Writes the features of each legal action into `rows` (one row per action).
pub fn features(view: &OnePackView<'_>, legal: &[Action], rows: &mut [FeatureRow]) {
    debug_assert_eq!(legal.len(), rows.len());
    if legal.is_empty() {
        return;
    }
    let me = view.seat();
    let hand = view.own_hand();
    let (t, private_value) = trash_and_value(hand);
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
    let public = view.public_sets(me);
    let table = view.options().point_table;
    let public_value: u32 = public
        .iter()
        .map(|s| value(table, s.kind, s.zone, s.origin, false))
        .sum();
    let upgrade_value = value(table, SetKind::Quad, Zone::Public, Origin::Melded, false)
        .saturating_sub(value(
            table,
            SetKind::Triple,
            Zone::Public,
            Origin::Melded,
            false,
        ));

    // The situation, shared by every row.
    let mut base = [0i16; N];
    let (mut opp_khaps, mut opp_min_hand, mut opp_max_discards) = (0u32, usize::MAX, 0u32);
    for x in (0..view.players() as u8).filter(|&x| x != me) {
        opp_khaps += view.khaps(x);
        opp_min_hand = opp_min_hand.min(view.hand_len(x));
        opp_max_discards = opp_max_discards.max(view.discards(x));
    }
    let active = view.active();
    base[F::ActiveSource as usize] = match (view.phase(), active.map(|a| a.source)) {
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
    base[F::Doubled as usize] = i16::from(public.iter().any(|s| s.kind == SetKind::Quad));

    // The discards' outs (§5.1) and their least, for the worst set.
    let visible = view.visible();
    let mut discard_outs = [0u32; MAX_ACTIONS];
    let mut min_outs = u32::MAX;
    for (i, a) in legal.iter().enumerate() {
        if let (Action::Discard(c), Some(slot)) = (a, discard_outs.get_mut(i)) {
            *slot = outs(*c, hand, visible);
            min_outs = min_outs.min(*slot);
        }
    }

    for (i, (a, row)) in legal.iter().zip(rows.iter_mut()).enumerate() {
        let r = &mut row[..N];
        r.copy_from_slice(&base);
        let mut set = |f: F, v: u32| r[f as usize] = feature(v);
        let after = match *a {
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
                let (win, improve) = d.block_outs(after, 1 << part(c));
                set(F::WinOuts, win);
                set(F::ImproveOuts, improve);
                after
            }
            Action::Meld(m) => {
                let after = hand.without_all(m.used());
                set(F::IsMeld, 1);
                set(F::MeldKind, m.kind as u32 + 1);
                set(F::MeldCards, m.used().len() as u32);
                set(F::MeldValue, m.value_in(table));
                // the meld's private cards lie in the active card's part
                let changed = active.map_or(0x1F, |a| 1 << part(a.card));
                let (mut least, mut win, mut improve) = (u32::MAX, 0, 0);
                for c in cards_of(discards_for(view.options(), after)) {
                    least = least.min(d.combos(c));
                    let (w, i) = d.block_outs(after.without(c), changed | 1 << part(c));
                    win = win.max(w);
                    improve = improve.max(i);
                }
                set(F::FollowupCombos, if least == u32::MAX { 0 } else { least });
                set(F::WinOuts, win);
                set(F::ImproveOuts, improve);
                after
            }
            Action::Upgrade => {
                set(F::IsMeld, 1);
                set(F::MeldKind, SetKind::Quad as u32 + 1);
                set(F::MeldValue, upgrade_value);
                let (win, improve) = d.block_outs(hand, 0);
                set(F::WinOuts, win);
                set(F::ImproveOuts, improve);
                hand
            }
            Action::Draw | Action::PassDrawn | Action::Pass => {
                set(F::IsDecline, 1);
                if let (Action::PassDrawn, Some(drawn)) = (a, active) {
                    set(F::FeedCombos, d.combos(drawn.card));
                }
                let (win, improve) = d.block_outs(hand, 0);
                set(F::WinOuts, win);
                set(F::ImproveOuts, improve);
                hand
            }
        };
        let (ta, va) = if after == hand {
            (t, private_value)
        } else {
            trash_and_value(after)
        };
        let meld_value = match *a {
            Action::Meld(m) => m.value_in(table),
            Action::Upgrade => upgrade_value,
            _ => 0,
        };
        set(F::TrashAfter, u32::from(ta));
        set(F::TrashDrop, u32::from(t.saturating_sub(ta)));
        set(F::CardsAfter, after.len() as u32);
        set(F::ValueAfter, public_value + meld_value + u32::from(va));
        set(F::PairsAfter, pairs(after));
    }
}
