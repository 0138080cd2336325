//! Combinations and the beats relation (§3): `classify`, `beats` (N, C1–C4), chặt (§3.3),
//! thối (§7.3) and the tới trắng conditions (§5.1).

use super::card::{Card, RANK_TWO};
use super::card_set::{Cards, NIB_LOW};
use super::options::Options;
use super::toi_trang::{ToiTrang, ToiTrangSet};
use std::fmt;

/// The combination types of §3.1 (`Invalid` is `None` from [`classify`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ComboType {
    /// One card.
    Single,
    /// Two cards of one rank.
    Pair,
    /// Three cards of one rank.
    Triple,
    /// Four cards of one rank (tứ quý), 2s included.
    Quad,
    /// `n ≥ 3` consecutive ranks within 3..A, one card each (sảnh); `Straight(12)` is the sảnh rồng.
    Straight(u8),
    /// `k ≥ 3` consecutive pairs within 3..A (đôi thông).
    PairSequence(u8),
}

impl ComboType {
    /// Number of cards of a combination of this type.
    pub const fn cards(self) -> u32 {
        match self {
            ComboType::Single => 1,
            ComboType::Pair => 2,
            ComboType::Triple => 3,
            ComboType::Quad => 4,
            ComboType::Straight(n) => n as u32,
            ComboType::PairSequence(k) => 2 * k as u32,
        }
    }
}

impl fmt::Display for ComboType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ComboType::Straight(n) => write!(f, "Straight({n})"),
            ComboType::PairSequence(k) => write!(f, "PairSequence{k}"),
            t => write!(f, "{t:?}"),
        }
    }
}

/// A valid combination: its cards, type and `ckey` card (§3.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Combo {
    /// The cards.
    pub cards: Cards,
    /// The type.
    pub kind: ComboType,
    /// The highest card: `ckey(x) = key(top)`.
    pub top: Card,
}

impl Combo {
    /// `ckey(x)` (§3.1).
    pub(crate) const fn ckey(&self) -> u8 {
        self.top.key()
    }
    /// A Heo-combo: a Single, Pair or Triple of 2s (§3.1).
    pub(crate) const fn is_heo_combo(&self) -> bool {
        self.top.is_two()
            && matches!(
                self.kind,
                ComboType::Single | ComboType::Pair | ComboType::Triple
            )
    }
    /// Hàng: a Quad or a PairSequence (§3.1).
    pub(crate) const fn is_hang(&self) -> bool {
        matches!(self.kind, ComboType::Quad | ComboType::PairSequence(_))
    }
    /// A valid out-of-turn target: a Heo-combo or hàng (§4.3.4).
    pub(crate) const fn is_chat_target(&self) -> bool {
        self.is_heo_combo() || self.is_hang()
    }
}

impl fmt::Display for Combo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.kind, self.cards)
    }
}

/// The type of a set of cards (§3.1), or `None` for `Invalid`. No allocation.
///
/// # Examples
/// ```
/// use bailab::games::tienlen::{classify, ComboType};
/// let c = classify("3s 3c 4d 4h 5s 5c".parse().unwrap()).unwrap();
/// assert_eq!((c.kind, c.top.to_string().as_str()), (ComboType::PairSequence(3), "5c"));
/// assert!(classify("Qs Ks As 2h".parse().unwrap()).is_none());
/// ```
pub fn classify(cards: Cards) -> Option<Combo> {
    let top = cards.highest()?;
    let low = cards.lowest()?;
    let n = cards.len();
    let kind = if low.rank() == top.rank() {
        match n {
            1 => ComboType::Single,
            2 => ComboType::Pair,
            3 => ComboType::Triple,
            _ => ComboType::Quad,
        }
    } else {
        if top.is_two() {
            return None;
        }
        let span = u32::from(top.rank() - low.rank()) + 1;
        if span < 3 || cards.ranks_with_at_least_nib(1).count_ones() != span {
            return None;
        }
        if n == span {
            ComboType::Straight(span as u8)
        } else if n == 2 * span && cards.ranks_with_at_least_nib(2).count_ones() == span {
            ComboType::PairSequence(span as u8)
        } else {
            return None;
        }
    };
    Some(Combo { cards, kind, top })
}

/// `beats(a, b)` (§3.2): may `a` be put on top of `b`. Rule N plus C1–C4 with the options
/// `ps3_chops_pair_of_twos`, `quad_chops` and `ps5_powers`.
pub fn beats(a: &Combo, b: &Combo, o: &Options) -> bool {
    use ComboType::*;
    if a.kind == b.kind {
        return a.top > b.top; // N
    }
    let heo = b.is_heo_combo();
    match a.kind {
        // C1 (and T5)
        PairSequence(3) => {
            heo && (b.kind == Single || (b.kind == Pair && o.ps3_chops_pair_of_twos))
        }
        // C2 (v2: quad_chops changes only which 2s)
        Quad => {
            (heo && ((b.kind == Single && o.quad_chops.single())
                || (b.kind == Pair && o.quad_chops.pair())))
                || b.kind == PairSequence(3)
        }
        // C3
        PairSequence(4) => {
            (heo && matches!(b.kind, Single | Pair)) || matches!(b.kind, PairSequence(3) | Quad)
        }
        // C4
        PairSequence(k) if k >= 5 && o.ps5_powers => {
            heo || b.kind == Quad || matches!(b.kind, PairSequence(j) if j < k)
        }
        _ => false,
    }
}

/// True when playing `a` on `b` is a chặt (§3.3): `a` is hàng and `b` a Heo-combo or hàng;
/// with `same_type_hang_beat_is_chat = false` a same-type beat of hàng is not.
/// (Assumes `beats(a, b)`.)
pub fn is_chat(a: &Combo, b: &Combo, o: &Options) -> bool {
    a.is_hang()
        && b.is_chat_target()
        && !(a.kind == b.kind && b.is_hang() && !o.same_type_hang_beat_is_chat)
}

/// Value of one heo in half-cược: black 1, red 2 (§3.3).
const fn heo_value(c: Card) -> u32 {
    if c.is_red() {
        2
    } else {
        1
    }
}

/// Sum of the heo values of the 2s in `cards`, in half-cược.
pub fn heo_total(cards: Cards) -> u32 {
    cards.of_rank(RANK_TWO).iter().map(heo_value).sum()
}

/// Value of a pair sequence of `k` pairs in half-cược (§3.3, §7.3).
const fn pair_sequence_value(k: u8, o: &Options) -> u32 {
    match k {
        3 => 2,
        4 => 4,
        _ => o.ps5_value,
    }
}

/// Chặt value of the chopped combination `b`, in half-cược (§3.3): its 2s for a Heo-combo or a
/// Quad of 2s; PS3 2, Quad 3, PS4 4, PS5/6 `ps5_value`; 0 for anything else.
pub fn chat_value(b: &Combo, o: &Options) -> u32 {
    if b.top.is_two() {
        return heo_total(b.cards);
    }
    match b.kind {
        ComboType::Quad => 3,
        ComboType::PairSequence(k) => pair_sequence_value(k, o),
        _ => 0,
    }
}

/// `thoi(hand)` in half-cược (§7.3): the 2s (black 1, red 2) plus the maximum total value of
/// pairwise disjoint hàng formed from the non-2 cards (T9, T10).
///
/// # Examples
/// ```
/// use bailab::games::tienlen::{thoi, Options};
/// let o = Options::default_for(4);
/// assert_eq!(thoi("4s 4c 5s 5c 5d 5h 6d 6h 2c".parse().unwrap(), &o), 4); // 2 cược
/// ```
pub fn thoi(hand: Cards, o: &Options) -> u32 {
    let mut counts = [0u8; 12];
    for (r, c) in counts.iter_mut().enumerate() {
        *c = hand.rank_count(r as u8) as u8;
    }
    heo_total(hand) + best_hang(&mut counts, 0, o)
}

/// The best total of disjoint hàng among ranks `from..12`, each hàng named by its lowest rank.
fn best_hang(c: &mut [u8; 12], from: usize, o: &Options) -> u32 {
    let mut r = from;
    while r < 12 && c[r] < 2 {
        r += 1;
    }
    if r >= 12 {
        return 0;
    }
    // no further hàng starts at r
    let mut best = best_hang(c, r + 1, o);
    if c[r] == 4 {
        c[r] = 0;
        best = best.max(3 + best_hang(c, r, o));
        c[r] = 4;
    }
    let mut run = 0;
    while r + run < 12 && c[r + run] >= 2 {
        run += 1;
    }
    for len in 3..=run {
        for x in &mut c[r..r + len] {
            *x -= 2;
        }
        best = best.max(pair_sequence_value(len as u8, o) + best_hang(c, r, o));
        for x in &mut c[r..r + len] {
            *x += 2;
        }
    }
    best
}

/// True when `mask` (bit = rank) holds `len` consecutive ranks.
const fn has_run(mask: u16, len: u32) -> bool {
    let mut r = mask;
    let mut i = 1;
    while i < len {
        r &= r >> 1;
        i += 1;
    }
    r != 0
}

/// Every §5.1 condition `hand` meets, from both lists, regardless of options.
pub fn toi_trang_conditions(hand: Cards) -> ToiTrangSet {
    use ToiTrang::*;
    let mut s = ToiTrangSet::EMPTY;
    let three_s = Card::new(0, 0);
    let ge2 = hand.ranks_with_at_least(2);
    let mut add = |t: ToiTrang, yes: bool| {
        if yes {
            s = s.with(t);
        }
    };
    add(TuQuy3, hand.rank_count(0) == 4);
    add(
        BaDoiThongCo3Bich,
        hand.contains(three_s) && ge2 & 0b111 == 0b111,
    );
    add(SanhRong, hand.ranks_with_at_least(1) & 0xFFF == 0xFFF);
    add(
        SauDoi,
        hand.ranks_with_at_least_nib(2).count_ones() + hand.ranks_with_at_least_nib(4).count_ones()
            >= 6,
    );
    add(NamDoiThong, has_run(ge2 & 0xFFF, 5));
    add(BonSam, hand.ranks_with_at_least_nib(3).count_ones() >= 4);
    add(HaiTuQuy, hand.ranks_with_at_least_nib(4).count_ones() >= 2);
    add(TuQuyHeo, hand.rank_count(RANK_TWO) == 4);
    let black = (hand.0 & (NIB_LOW * 0b0011)).count_ones();
    let red = (hand.0 & (NIB_LOW * 0b1100)).count_ones();
    add(DongMau, black >= 12 || red >= 12);
    s
}

/// The tới trắng conditions that count for `hand` (§5.1): the initial list in an initial game
/// (plus the general one with `initial_game_also_general_list`), else the general list, each
/// restricted to `toi_trang_lists`.
pub fn toi_trang(hand: Cards, initial: bool, o: &Options) -> ToiTrangSet {
    let lists = if !initial {
        ToiTrangSet::GENERAL
    } else if o.initial_game_also_general_list {
        ToiTrangSet::ALL
    } else {
        ToiTrangSet::INITIAL
    };
    toi_trang_conditions(hand)
        .inter(lists)
        .inter(o.toi_trang_lists)
}
