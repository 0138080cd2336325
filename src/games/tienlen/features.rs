//! Tiến Lên's features of a candidate action, for rule lists (`rules:PATH`): computed from the
//! acting seat's view only (see [`crate::agent::features`]).
//!
//! `greedy` plays by the hand's best split ([`super::split`]): it leads its lowest combination,
//! answers with the play that costs the split least and keeps 2s and hàng until an opponent is
//! down to 3 cards. What it does not see, and these features show, is the table: who is about to
//! go out and with how many cards, whether a play can still be beaten by the cards not seen,
//! whether the rest of the hand then goes out by force, what a chặt would collect, what the
//! hand would pay as thối, and who risks cóng.
//!
//! Cost: the per-decision values (the best split of the hand, its hàng value, what the unseen
//! cards could form) are computed once; each action then costs a classification, one lookup of
//! the best split of the hand after it in a per-thread memo keyed by rank counts (the search of
//! [`super::split`], its summaries with each split's composition and first combination kept
//! here), and, only for plays touching a hàng of the hand or leaving at most 4
//! combinations, a thối or a rebuilt split of the cards left. Measured in 4-player greedy games
//! (one core): about 0.6 µs per decision on average, 1.2 µs for a lead (10 actions on
//! average), 0.5 µs for an answer (3 actions), against 0.33 µs for the whole greedy game step.
//! No heap allocation: the memo is a fixed-size, const-initialised thread-local table.

use super::card::RANK_TWO;
use super::card_set::Cards;
use super::combo::{chat_value, classify, heo_total, is_chat, thoi, Combo, ComboType};
use super::options::Options;
use super::split::{
    best_opening, lowest_suits, Summary, C_PAIR, C_PAIR_SEQUENCE, C_QUAD, C_SINGLE, C_STRAIGHT,
    C_TRIPLE,
};
use super::types::Action;
use super::TienLenView;
use crate::agent::features::{feature, FeatureInfo, FeatureRow};
use crate::game::{Seat, SeatView};
use std::cell::RefCell;

/// Declares the features once: the row slots ([`F`]) and [`FEATURES`] in the same order.
macro_rules! features {
    ($($slot:ident $name:literal $about:literal,)*) => {
        /// Row slots, in the order of [`FEATURES`].
        #[derive(Copy, Clone)]
        #[repr(usize)]
        enum F {
            $($slot,)*
        }
        /// The features, in row order.
        pub const FEATURES: &[FeatureInfo] = &[$(FeatureInfo { name: $name, about: $about },)*];
    };
}

features! {
    IsPass "is_pass"
        "1 for Pass (in turn) or Decline (out of turn), 0 for a play; 0..1",
    IsLead "is_lead"
        "1 when this seat leads a new trick (no top: any combination may be played), 0 when it \
         answers a top, in turn or out of turn; the same for every action of a decision; 0..1",
    Combo "combo"
        "type of the play: 0 pass/decline, 1 single, 2 pair, 3 triple, 4 straight (sảnh), \
         5 pair sequence (đôi thông), 6 quad (tứ quý); 0..6",
    Size "size" "cards played; 0..12 (0 for a pass)",
    TopRank "top_rank"
        "rank of the play's highest card: 0 = 3, 1 = 4, … 11 = A, 12 = 2; -1 for a pass",
    PlaysTwos "plays_twos" "2s (heo) in the play; 0..4",
    IsChop "is_chop"
        "1 when the play is a chặt: hàng on a 2 or on hàng (§3.3), in turn or out of turn; 0..1",
    ChopValue "chop_value"
        "what the chặt collects if it stands to the trick's end: the chopped top's value plus \
         the chain so far, in half-cược (2 = 1 cược); 0 when not a chặt, or when the top's owner \
         went out with it (void chain, §7.4); 0..~40",
    CardsAfter "cards_after" "cards left in hand after the action; 0..13",
    GoesOut "goes_out" "1 when the play empties the hand; 0..1",
    PlaysBefore "plays_before"
        "combinations in the best split of the hand now (plays needed to go out); the same for \
         every action of a decision; 1..13",
    PlaysAfter "plays_after"
        "combinations in the best split of the hand after the action (plays_before for a \
         pass); 0..13",
    ExtraPlays "extra_plays"
        "plays_after - (plays_before - 1): combinations the play costs beyond the one it plays \
         (0: it plays a combination of a best split); 0 for a pass; 0..12",
    BreaksHang "breaks_hang"
        "1 when the hand's hàng value (quads and pair sequences of cards 3..A, counted as thối \
         counts them) drops by more than the play's own hàng value: the play breaks a hàng \
         it does not play whole; 0..1",
    BreaksStraight "breaks_straight"
        "1 when the best split after the play holds fewer straights than the best split now, \
         not counting the play itself; 0..1",
    BreaksTriple "breaks_triple"
        "1 when the best split after the play holds fewer triples than now, not counting the \
         play itself; 0..1",
    BreaksPair "breaks_pair"
        "1 when the best split after the play holds fewer pairs than now, not counting the play \
         itself; 0..1",
    TwosAfter "twos_after" "2s left in hand after the action; 0..4",
    ThoiAfter "thoi_after"
        "thối of the hand after the action (its 2s plus its best hàng, what it pays if it is \
         left last, §7.3), in half-cược; 0..~20",
    LowestOfKind "lowest_of_kind"
        "1 when no legal play of the same type and size has a lower top card; 0 for a pass; \
         0..1",
    HighestOfKind "highest_of_kind"
        "1 when no legal play of the same type and size has a higher top card; 0 for a pass; \
         0..1",
    Unbeatable "unbeatable"
        "1 when no combination of unseen cards (the others' hands and the cards set aside) \
         that fits in one opponent's hand (at most as many cards as an active opponent holds) \
         beats the play, chặt included; 0 for a pass; 0..1",
    UnseenHigher "unseen_higher"
        "unseen cards above the play's highest card (by rank, then suit); 0 for a pass; 0..51",
    SureOutAfter "sure_out_after"
        "1 when after the action at most one combination of the best split of the hand could \
         be beaten (as in unbeatable), so the hand goes out by force once it leads; 1 when the \
         play goes out; evaluated when at most 4 combinations are left, else 0; 0..1",
    BeyondMinOpp "beyond_min_opp"
        "1 when the play has more cards than the opponent with the fewest cards holds: he \
         cannot answer it with its own type (only a quad on a pair sequence could still go \
         out on it); 0 for a pass; 0..1",
    OppMinCards "opp_min_cards" "fewest cards an active opponent holds; 1..13",
    NextCards "next_cards"
        "cards held by the next active opponent in play order (who answers this seat's play \
         first unless he passed); 1..13",
    OppsLeft "opps_left" "active opponents (holding cards, not cóng, not left); 1..3",
    InTrick "in_trick"
        "active opponents who have not passed in this trick (every one when leading); 0..3",
    TableRank "table_rank"
        "rank of the highest card of the top on the table (0 = 3 … 12 = 2); -1 when leading",
    TopOwnerCards "top_owner_cards"
        "cards held by the owner of the top; 0 when leading or when he went out with it; 0..13",
    UnseenTwos "unseen_twos" "2s not seen (not in hand, not played); 0..4",
    BombThreat "bomb_threat"
        "1 when the unseen cards could hold hàng in one opponent's hand (a quad, or three \
         consecutive pairs within 3..A, within the most cards an active opponent holds); 0..1",
    NotPlayedYet "not_played_yet"
        "1 while this seat has played no card this game (it is cóng if an opponent goes out \
         first, §6.2); 0..1",
    UnplayedOpps "unplayed_opps"
        "active opponents who have played no card yet (cóng if this seat goes out first); 0..3",
}

/// The composition slot of a combination type.
const fn slot(kind: ComboType) -> u32 {
    match kind {
        ComboType::Single => C_SINGLE,
        ComboType::Pair => C_PAIR,
        ComboType::Triple => C_TRIPLE,
        ComboType::Quad => C_QUAD,
        ComboType::Straight(_) => C_STRAIGHT,
        ComboType::PairSequence(_) => C_PAIR_SEQUENCE,
    }
}

/// Entries of the summary memo (a power of two).
const MEMO: usize = 1 << 12;

/// Best-split summaries by nibble-packed rank counts (key 0 = empty slot: the empty hand is
/// never stored), with the first best opening of each, so that a split is rebuilt with one
/// lookup per combination.
struct Memo {
    keys: [u64; MEMO],
    vals: [u32; MEMO],
    /// The first best opening: its `take`, its composition slot in bits 56..64.
    firsts: [u64; MEMO],
}

thread_local! {
    /// One memo per thread, warm across decisions and games; const-initialised, no allocation.
    static MEMO_TABLE: RefCell<Memo> = const {
        RefCell::new(Memo {
            keys: [0; MEMO],
            vals: [0; MEMO],
            firsts: [0; MEMO],
        })
    };
}

impl Memo {
    /// The best split of cards with these rank counts, summarised.
    fn summary(&mut self, counts: u64) -> Summary {
        self.entry(counts).0
    }

    /// The summary and the first best opening (as in [`Memo::firsts`]) of these rank counts.
    fn entry(&mut self, counts: u64) -> (Summary, u64) {
        if counts == 0 {
            return (Summary(0), 0);
        }
        let slot = (counts.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize & (MEMO - 1);
        if self.keys[slot] == counts {
            return (Summary(self.vals[slot]), self.firsts[slot]);
        }
        let (best, o) = best_opening(counts, |rest| self.summary(rest));
        let best = best.0;
        let first = o.take | u64::from(o.slot) << 56;
        self.keys[slot] = counts;
        self.vals[slot] = best;
        self.firsts[slot] = first;
        (Summary(best), first)
    }

    /// Calls `each` with the combinations of the best split of `hand` (the splitter's: first
    /// best opening, lowest suits first) until it returns false.
    fn split(&mut self, hand: Cards, mut each: impl FnMut(&Combo) -> bool) {
        let mut left = hand;
        while !left.is_empty() {
            let (_, first) = self.entry(left.nibble_counts());
            let take = first & ((1 << 56) - 1);
            let cards = lowest_suits(left, take);
            left = left.minus(cards);
            let top = cards.highest().unwrap_or_default();
            let kind = match (first >> 56) as u32 {
                C_SINGLE => ComboType::Single,
                C_PAIR => ComboType::Pair,
                C_TRIPLE => ComboType::Triple,
                C_QUAD => ComboType::Quad,
                C_STRAIGHT => ComboType::Straight(cards.len() as u8),
                _ => ComboType::PairSequence(cards.len() as u8 / 2),
            };
            if !each(&Combo { cards, kind, top }) {
                return;
            }
        }
    }
}

/// The hàng value of `cards` as thối counts it (quads and pair sequences of ranks 3..A), in
/// half-cược.
fn hang_value(cards: Cards, o: &Options) -> u32 {
    thoi(cards, o) - heo_total(cards)
}

/// The cards of the ranks of `hand` that belong to some hàng: quads and runs of three or more
/// pairs within 3..A. A play touching none of them leaves the hàng value as it is.
fn hang_ranks(hand: Cards) -> Cards {
    let pairs = hand.ranks_with_at_least_nib(2) & SEQUENCE_RANKS;
    let quads = hand.ranks_with_at_least_nib(4) & SEQUENCE_RANKS;
    let starts = pairs & pairs >> 4 & pairs >> 8;
    // nibble flags times 0xF: the four cards of each flagged rank
    Cards((quads | starts | starts << 4 | starts << 8) * 0xF)
}

/// Nibble flags (bit `4·ri`) of the ranks 3..A: the ranks sequences may use.
const SEQUENCE_RANKS: u64 = 0x1111_1111_1111;

/// What the unseen cards could form in one opponent's hand (at most `cap` cards): the ranks
/// held at least 1, 2, 3 and 4 times as nibble flags, read by [`Threats::best`] and
/// [`Threats::best_run`].
struct Threats {
    unseen: Cards,
    cap: u32,
    /// `at_least[k - 1]`: nibble flags of the ranks with at least `k` unseen cards.
    at_least: [u64; 4],
    /// A quad could be formed.
    quad: bool,
    /// `pair_sequence[k]`: a pair sequence of `k` pairs could be formed (k = 3..=7).
    pair_sequence: [bool; 8],
}

impl Threats {
    fn new(unseen: Cards, cap: u32) -> Threats {
        let mut t = Threats {
            unseen,
            cap,
            at_least: [1, 2, 3, 4].map(|k| unseen.ranks_with_at_least_nib(k)),
            quad: false,
            pair_sequence: [false; 8],
        };
        t.quad = t.best(4) >= 0;
        for k in 3..8 {
            t.pair_sequence[k] = t.best_run(2, k as u32) >= 0;
        }
        t
    }

    /// The top key of the highest rank among these nibble flags, −1 for none.
    fn top_of(&self, flags: u64) -> i16 {
        if flags == 0 {
            return -1;
        }
        let r = (63 - flags.leading_zeros()) / 4;
        let bits = self.unseen.rank_bits(r as u8);
        (4 * r + 7 - bits.leading_zeros()) as i16
    }

    /// The top key of the strongest set of `k` cards of one rank (`k` = 1..4), −1 for none.
    fn best(&self, k: u32) -> i16 {
        if k > self.cap {
            return -1;
        }
        self.top_of(self.at_least[k as usize - 1])
    }

    /// The top key of the strongest sequence of `len` ranks with `width` cards each (1:
    /// straight, 2: pair sequence), −1 for none.
    fn best_run(&self, width: u32, len: u32) -> i16 {
        if width * len > self.cap {
            return -1;
        }
        let m = self.at_least[width as usize - 1] & SEQUENCE_RANKS;
        let mut ends = m;
        for i in 1..len {
            ends &= m << (4 * i);
        }
        self.top_of(ends)
    }

    /// True when some combination of these could beat `x` (§3.2: N, C1–C4 with the options).
    fn can_beat(&self, x: &Combo, o: &Options) -> bool {
        use ComboType::*;
        let k = i16::from(x.ckey());
        let ps = |len: u32| self.pair_sequence[len as usize];
        let ps5 = o.ps5_powers && ps(5);
        let quad = || self.quad;
        let heo = x.is_heo_combo();
        match x.kind {
            // a pair sequence of 4 or more pairs holds one of 3
            Single => self.best(1) > k || (heo && ((o.quad_chops.single() && quad()) || ps(3))),
            Pair => {
                self.best(2) > k
                    || (heo
                        && ((o.quad_chops.pair() && quad())
                            || (o.ps3_chops_pair_of_twos && ps(3))
                            || ps(4)
                            || ps5))
            }
            Triple => self.best(3) > k || (heo && ps5),
            Quad => self.best(4) > k || ps(4) || ps5,
            Straight(n) => self.best_run(1, u32::from(n)) > k,
            PairSequence(3) => self.best_run(2, 3) > k || quad() || ps(4) || ps5,
            PairSequence(n) => {
                let n = u32::from(n);
                self.best_run(2, n) > k || (o.ps5_powers && ps((n + 1).max(5)))
            }
        }
    }

    /// True when the unseen cards could hold hàng in one hand.
    fn bomb(&self) -> bool {
        self.quad || self.pair_sequence[3]
    }
}

/// The code of the `combo` feature.
const fn combo_code(kind: ComboType) -> i16 {
    match kind {
        ComboType::Single => 1,
        ComboType::Pair => 2,
        ComboType::Triple => 3,
        ComboType::Straight(_) => 4,
        ComboType::PairSequence(_) => 5,
        ComboType::Quad => 6,
    }
}

/// Buckets of (type, size) for `lowest_of_kind` / `highest_of_kind`: `code · 13 + size`.
const BUCKETS: usize = 7 * 13;

/// Most combinations of a split after a play for which `sure_out_after` is evaluated.
const SURE_OUT_PLAYS: u32 = 4;

/// Writes the features of each legal action into `rows` (one row per action).
pub fn features(view: &TienLenView<'_>, legal: &[Action], rows: &mut [FeatureRow]) {
    MEMO_TABLE.with(|m| fill(&mut m.borrow_mut(), view, legal, rows));
}

/// The features of each legal action, with the split memo at hand.
///
/// Long: the hot path of greedy; one pass sharing the per-decision values across actions.
fn fill(memo: &mut Memo, view: &TienLenView<'_>, legal: &[Action], rows: &mut [FeatureRow]) {
    let o = view.options();
    let me = view.seat();
    let hand = view.own_hand();
    let n = view.players() as Seat;

    // ----- the table -----
    let leavers = view.leavers().iter().fold(0u8, |m, &s| m | 1 << s);
    let out_of_play = view.cong() | leavers;
    let active = |s: Seat| view.hand_len(s) > 0 && out_of_play >> s & 1 == 0;
    let (mut opps, mut min_cards, mut max_cards, mut in_trick, mut unplayed) = (0, 13, 0, 0, 0);
    let mut next_cards = 0;
    for d in 1..n {
        let s = (me + d) % n;
        if !active(s) {
            continue;
        }
        let cards = view.hand_len(s);
        if opps == 0 {
            next_cards = cards;
        }
        opps += 1;
        min_cards = min_cards.min(cards);
        max_cards = max_cards.max(cards);
        in_trick += i16::from(view.passed() >> s & 1 == 0);
        unplayed += i16::from(view.played_by(s).is_empty());
    }
    if opps == 0 {
        min_cards = 0;
    }
    let top = view.top();
    let unseen = view.unseen();
    let threats = Threats::new(unseen, max_cards as u32);

    // ----- the hand -----
    let before = memo.summary(hand.nibble_counts());
    let hang_mask = hang_ranks(hand);
    let hang_before = if hang_mask.is_empty() {
        0
    } else {
        hang_value(hand, o)
    };
    let chain = view.chain();

    let mut base: FeatureRow = [0; crate::agent::features::MAX_FEATURES];
    let mut put = |f: F, v: i16| base[f as usize] = v;
    put(F::IsLead, i16::from(top.is_none()));
    put(F::PlaysBefore, feature(before.plays()));
    put(F::OppMinCards, feature(min_cards));
    put(F::NextCards, feature(next_cards));
    put(F::OppsLeft, opps);
    put(F::InTrick, in_trick);
    put(
        F::TableRank,
        top.map_or(-1, |(b, _)| i16::from(b.top.rank())),
    );
    put(
        F::TopOwnerCards,
        top.map_or(0, |(_, s)| feature(view.hand_len(s))),
    );
    put(F::UnseenTwos, feature(unseen.rank_count(RANK_TWO)));
    put(F::BombThreat, i16::from(threats.bomb()));
    put(F::NotPlayedYet, i16::from(view.played_by(me).is_empty()));
    put(F::UnplayedOpps, unplayed);

    // `sure_out_after` of a hand: all its best split's combinations but one are unbeatable.
    let sure_out = |memo: &mut Memo, cards: Cards, plays: u32| -> i16 {
        if plays <= 1 {
            return 1;
        }
        if plays > SURE_OUT_PLAYS {
            return 0;
        }
        let mut beatable = 0;
        memo.split(cards, |c| {
            beatable += u32::from(threats.can_beat(c, o));
            beatable <= 1
        });
        i16::from(beatable <= 1)
    };

    let count = FEATURES.len();
    let mut lowest = [u8::MAX; BUCKETS];
    let mut highest = [0u8; BUCKETS];
    for (a, row) in legal.iter().zip(rows.iter_mut()) {
        row[..count].copy_from_slice(&base[..count]);
        let x = match *a {
            Action::Play(x) | Action::Chop(x) => x,
            Action::Pass | Action::Decline => Cards::EMPTY,
        };
        let mut set = |f: F, v: i16| row[f as usize] = v;
        let Some(c) = classify(x) else {
            // a pass: the hand stays as it is
            set(F::IsPass, 1);
            set(F::TopRank, -1);
            set(F::CardsAfter, feature(hand.len()));
            set(F::PlaysAfter, feature(before.plays()));
            set(F::TwosAfter, feature(hand.rank_count(RANK_TWO)));
            set(F::ThoiAfter, feature(hang_before + heo_total(hand)));
            set(F::SureOutAfter, sure_out(memo, hand, before.plays()));
            continue;
        };
        let after = hand.minus(x);
        let now = memo.summary(after.nibble_counts());
        let code = combo_code(c.kind);
        let size = x.len();
        set(F::Combo, code);
        set(F::Size, feature(size));
        set(F::TopRank, i16::from(c.top.rank()));
        set(F::PlaysTwos, feature(x.rank_count(RANK_TWO)));
        if let Some((b, owner)) = top {
            if is_chat(&c, &b, o) {
                set(F::IsChop, 1);
                if view.hand_len(owner) > 0 {
                    set(F::ChopValue, feature(chain.total + chat_value(&b, o)));
                }
            }
        }
        set(F::CardsAfter, feature(after.len()));
        set(F::GoesOut, i16::from(after.is_empty()));
        set(F::PlaysAfter, feature(now.plays()));
        set(F::ExtraPlays, feature(now.plays() + 1 - before.plays()));
        let hang_after = if x.inter(hang_mask).is_empty() {
            hang_before
        } else {
            hang_value(after, o)
        };
        let own_hang = if c.is_hang() && !c.top.is_two() {
            chat_value(&c, o)
        } else {
            0
        };
        set(
            F::BreaksHang,
            i16::from(hang_after + own_hang < hang_before),
        );
        let breaks = |slot_of: u32| {
            let played = u32::from(slot(c.kind) == slot_of);
            i16::from(now.count(slot_of) + played < before.count(slot_of))
        };
        set(F::BreaksStraight, breaks(C_STRAIGHT));
        set(F::BreaksTriple, breaks(C_TRIPLE));
        set(F::BreaksPair, breaks(C_PAIR));
        set(F::TwosAfter, feature(after.rank_count(RANK_TWO)));
        set(F::ThoiAfter, feature(hang_after + heo_total(after)));
        set(F::Unbeatable, i16::from(!threats.can_beat(&c, o)));
        set(
            F::UnseenHigher,
            feature((unseen.0 >> (c.ckey() + 1)).count_ones()),
        );
        set(F::SureOutAfter, sure_out(memo, after, now.plays()));
        set(F::BeyondMinOpp, i16::from(size as usize > min_cards));
        // the play's bucket and top, kept in its two slots until every play has been seen
        let b = code as usize * 13 + size as usize;
        lowest[b] = lowest[b].min(c.ckey());
        highest[b] = highest[b].max(c.ckey());
        set(F::LowestOfKind, b as i16);
        set(F::HighestOfKind, i16::from(c.ckey()));
    }
    for row in rows.iter_mut().take(legal.len()) {
        let b = row[F::LowestOfKind as usize] as usize;
        if b != 0 {
            let key = row[F::HighestOfKind as usize] as u8;
            row[F::LowestOfKind as usize] = i16::from(key == lowest[b]);
            row[F::HighestOfKind as usize] = i16::from(key == highest[b]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tienlen::card::Card;
    use crate::games::tienlen::split::{combos, Split, Splitter};
    use crate::rng::{shuffle, stream_rng};

    /// The memo's summary is the splitter's best split: same cost, same composition.
    #[test]
    fn summaries_match_the_splitter() {
        let mut splitter = Splitter::default();
        let mut split = Split::new();
        let mut memo = Memo {
            keys: [0; MEMO],
            vals: [0; MEMO],
            firsts: [0; MEMO],
        };
        for i in 0..3000 {
            let mut deck: Vec<u8> = (0..52).collect();
            shuffle(&mut deck, &mut stream_rng(41, i, 0));
            // dense hands from few ranks too, so that sequences and sets compete
            let ranks = [13u8, 5, 7][i as usize % 3];
            let pool: Vec<u8> = deck
                .into_iter()
                .filter(|k| k / 4 < ranks || k / 4 == 12)
                .collect();
            let len = 1 + (i as usize % 13);
            let hand: Cards = pool[..len.min(pool.len())]
                .iter()
                .map(|&k| Card::from_key(k))
                .collect();
            splitter.split(hand, &mut split);
            let s = memo.summary(hand.nibble_counts());
            assert_eq!(s.cost(), u32::from(splitter.cost(hand)), "{hand}");
            assert_eq!(s.plays(), u32::from(combos(splitter.cost(hand))));
            let mut want = 0u32;
            for c in &split {
                want += 1 << slot(c.kind);
            }
            assert_eq!(s.0 >> 8, want, "composition of {hand}");
            let mut mine = Vec::new();
            memo.split(hand, |c| {
                mine.push(*c);
                true
            });
            assert_eq!(mine.as_slice(), split.as_slice(), "split of {hand}");
        }
    }

    /// `Threats::can_beat` against brute force: every combination of the unseen cards that fits
    /// the size cap, under the default options and under the other values of the beat options.
    #[test]
    fn threats_match_brute_force() {
        use crate::games::tienlen::combo::beats;
        use crate::games::tienlen::moves::combinations;
        use crate::games::tienlen::QuadChops;
        let mut options = vec![Options::default_for(4)];
        for (i, q) in [QuadChops::PairOnly, QuadChops::SingleOnly]
            .into_iter()
            .enumerate()
        {
            let mut o = Options::default_for(4);
            o.quad_chops = q;
            o.ps3_chops_pair_of_twos = i == 0;
            o.ps5_powers = i == 1;
            options.push(o);
        }
        let mut checked = [0u32; 2];
        for i in 0..4000u64 {
            let mut deck: Vec<u8> = (0..52).collect();
            shuffle(&mut deck, &mut stream_rng(43, i, 0));
            // dense sets from few ranks (2s included), so that hàng and sequences occur
            let ranks = [13u8, 6, 8][i as usize % 3];
            let lo = (i / 3 % u64::from(14 - ranks)) as u8;
            let pool: Vec<Card> = deck
                .into_iter()
                .filter(|k| (lo..lo + ranks).contains(&(k / 4)) || k / 4 == 12)
                .map(Card::from_key)
                .collect();
            let split = 6 + (i as usize % 11);
            let unseen: Cards = pool[..split].iter().copied().collect();
            let mine: Cards = pool[split..(split + 13).min(pool.len())]
                .iter()
                .copied()
                .collect();
            let cap = [13u32, 4, 7, 2][i as usize % 4];
            let o = &options[i as usize % options.len()];
            let t = Threats::new(unseen, cap);
            combinations(mine, &mut |x, _| {
                let x = classify(x).unwrap();
                let mut want = false;
                combinations(unseen, &mut |b, _| {
                    want |= b.len() <= cap && beats(&classify(b).unwrap(), &x, o);
                });
                assert_eq!(t.can_beat(&x, o), want, "{x} against {unseen}, cap {cap}");
                checked[usize::from(want)] += 1;
            });
        }
        assert!(checked.iter().all(|&n| n > 10_000), "{checked:?}");
    }

    #[test]
    fn hang_ranks_cover_every_hang() {
        let h: Cards = "3s 3c 4s 4c 5d 5h 7s 7c 7d 7h 9s 9c Ts Tc 2s 2c"
            .parse()
            .unwrap();
        let ranks = [0, 1, 2, 4].map(Cards::rank);
        assert_eq!(
            hang_ranks(h),
            ranks.into_iter().fold(Cards::EMPTY, Cards::union)
        );
    }
}
