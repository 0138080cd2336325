//! Legal-move generation (§4.2) without allocation: every combination of a hand, every
//! combination that beats a top, every out-of-turn chop. Generators call `emit(cards, type)`
//! once per distinct set of cards (suits matter), in the canonical order: by type (`Single`,
//! `Pair`, `Triple`, `Quad`, `Straight(n)` by `n`, `PairSequence(k)` by `k`), then by lowest
//! rank, then by the suits chosen (lower suit masks first, lower ranks varying slowest).

use super::card_set::Cards;
use super::combo::{Combo, ComboType};
use super::options::Options;

/// The most legal actions of one decision. Proof: a decision offers a subset of the valid
/// combinations of a 13-card hand plus one `Pass`/`Decline`; the number of combinations depends
/// only on the per-rank counts, and the exhaustive search over every count pattern
/// (`tests/tienlen/tienlen_rules.rs`, `capacity_is_the_exhaustive_maximum`) finds the maximum 486, for
/// counts 3-3-4-3 on four consecutive ranks (e.g. `9 T J Q`): 13 singles, 15 pairs, 7 triples,
/// 1 quad, 180 straights and 270 pair sequences.
pub const MAX_ACTIONS: usize = 487;

/// No lower bound on the top card: every combination of the type qualifies.
pub(crate) const ANY: i16 = -1;

/// Sub-masks of a rank's four suits with 2, 3 and 4 bits, ascending.
const PAIR_MASKS: [u8; 6] = [0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100];
const TRIPLE_MASKS: [u8; 4] = [0b0111, 0b1011, 0b1101, 0b1110];
const QUAD_MASKS: [u8; 1] = [0b1111];

/// Highest set bit of a non-zero 4-bit mask.
#[inline]
const fn high_bit(m: u8) -> i16 {
    7 - m.leading_zeros() as i16
}

/// Singles whose key is above `above`.
#[inline]
pub(crate) fn singles<F: FnMut(Cards, ComboType)>(hand: Cards, above: i16, emit: &mut F) {
    let mask = if above < 0 {
        hand.0
    } else if above >= 63 {
        0
    } else {
        hand.0 & !((2u64 << above) - 1)
    };
    for c in Cards(mask) {
        emit(Cards::one(c), ComboType::Single);
    }
}

/// Pairs, triples or quads (`k` = 2, 3, 4) whose top card is above `above`.
#[inline]
pub fn sets<F: FnMut(Cards, ComboType)>(hand: Cards, k: u32, above: i16, emit: &mut F) {
    let (masks, kind): (&[u8], ComboType) = match k {
        2 => (&PAIR_MASKS, ComboType::Pair),
        3 => (&TRIPLE_MASKS, ComboType::Triple),
        _ => (&QUAD_MASKS, ComboType::Quad),
    };
    let mut ranks = hand.ranks_with_at_least(k);
    while ranks != 0 {
        let r = ranks.trailing_zeros() as u8;
        ranks &= ranks - 1;
        let bits = hand.rank_bits(r);
        for &m in masks {
            if m & !bits == 0 && 4 * r as i16 + high_bit(m) > above {
                emit(Cards(u64::from(m) << (4 * r)), kind);
            }
        }
    }
}

/// Straights (`width` 1) or pair sequences (`width` 2) of `len` ranks whose top is above `above`.
/// Returns false when the hand holds no run of `len` ranks at all (so no longer one either).
#[inline]
pub(crate) fn sequences<F: FnMut(Cards, ComboType)>(
    hand: Cards,
    width: u32,
    len: u8,
    above: i16,
    emit: &mut F,
) -> bool {
    let avail = hand.ranks_with_at_least(width) & 0xFFF;
    let mut starts = avail;
    for i in 1..len {
        starts &= avail >> i;
    }
    let any = starts != 0;
    let kind = if width == 1 {
        ComboType::Straight(len)
    } else {
        ComboType::PairSequence(len)
    };
    while starts != 0 {
        let s = starts.trailing_zeros() as u8;
        starts &= starts - 1;
        let top = s + len - 1;
        if 4 * top as i16 + 3 <= above {
            continue;
        }
        product(hand, width, s, top, above, 0, kind, emit);
    }
    any
}

/// Every choice of one card (or pair) per rank `r..=top`, added to `acc`.
#[allow(clippy::too_many_arguments)]
fn product<F: FnMut(Cards, ComboType)>(
    hand: Cards,
    width: u32,
    r: u8,
    top: u8,
    above: i16,
    acc: u64,
    kind: ComboType,
    emit: &mut F,
) {
    let bits = hand.rank_bits(r);
    let shift = 4 * r;
    if width == 1 {
        let mut m = bits;
        while m != 0 {
            let b = m.trailing_zeros() as u8;
            m &= m - 1;
            let acc = acc | 1 << (shift + b);
            if r == top {
                if 4 * r as i16 + b as i16 > above {
                    emit(Cards(acc), kind);
                }
            } else {
                product(hand, width, r + 1, top, above, acc, kind, emit);
            }
        }
    } else {
        for &m in &PAIR_MASKS {
            if m & !bits != 0 {
                continue;
            }
            let acc = acc | u64::from(m) << shift;
            if r == top {
                if 4 * r as i16 + high_bit(m) > above {
                    emit(Cards(acc), kind);
                }
            } else {
                product(hand, width, r + 1, top, above, acc, kind, emit);
            }
        }
    }
}

/// Pair sequences of `from` or more pairs, every top.
#[inline]
fn pair_sequences_from<F: FnMut(Cards, ComboType)>(hand: Cards, from: u8, emit: &mut F) {
    for k in from..=12 {
        if !sequences(hand, 2, k, ANY, emit) {
            break;
        }
    }
}

/// Every valid combination ⊆ `hand` (a lead, §4.2), in canonical order.
pub fn combinations<F: FnMut(Cards, ComboType)>(hand: Cards, emit: &mut F) {
    singles(hand, ANY, emit);
    sets(hand, 2, ANY, emit);
    sets(hand, 3, ANY, emit);
    sets(hand, 4, ANY, emit);
    for n in 3..=12 {
        if !sequences(hand, 1, n, ANY, emit) {
            break;
        }
    }
    pair_sequences_from(hand, 3, emit);
}

/// Every `x ⊆ hand` with `beats(x, b)` (§3.2: N, C1–C4), in canonical order.
pub fn beating<F: FnMut(Cards, ComboType)>(hand: Cards, b: &Combo, o: &Options, emit: &mut F) {
    use ComboType::*;
    let above = b.ckey() as i16;
    let heo = b.is_heo_combo();
    match b.kind {
        Single => {
            singles(hand, above, emit);
            if heo {
                if o.quad_chops.single() {
                    sets(hand, 4, ANY, emit); // C2
                }
                sequences(hand, 2, 3, ANY, emit); // C1
                sequences(hand, 2, 4, ANY, emit); // C3
            }
        }
        Pair => {
            sets(hand, 2, above, emit);
            if heo {
                if o.quad_chops.pair() {
                    sets(hand, 4, ANY, emit); // C2
                }
                if o.ps3_chops_pair_of_twos {
                    sequences(hand, 2, 3, ANY, emit); // T5 option
                }
                sequences(hand, 2, 4, ANY, emit); // C3
            }
        }
        Triple => sets(hand, 3, above, emit),
        Quad => {
            sets(hand, 4, above, emit);
            sequences(hand, 2, 4, ANY, emit); // C3
        }
        Straight(n) => {
            sequences(hand, 1, n, above, emit);
        }
        PairSequence(3) => {
            sets(hand, 4, ANY, emit); // C2
            sequences(hand, 2, 3, above, emit);
            sequences(hand, 2, 4, ANY, emit); // C3
        }
        PairSequence(k) => {
            sequences(hand, 2, k, above, emit);
        }
    }
    // C4: a PS(k ≥ 5) beats every Heo-combo, any Quad and any shorter pair sequence; the
    // same-length ones were emitted above by rule N.
    if o.ps5_powers {
        let from = match b.kind {
            _ if heo => 5,
            Quad => 5,
            PairSequence(k) => (k + 1).max(5),
            _ => 7,
        };
        pair_sequences_from(hand, from, emit);
    }
}
