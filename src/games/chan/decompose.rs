//! The canonical decomposition of §3.2 into `Chan`, `Ca`, `Lone` cards and `BaDau`, and the
//! winning shape `WinShape` of §3.4. Ranks are independent, so the decomposition is a loop over
//! the eight ranks plus chi chi: no search and no allocation.

use super::card::Card;
use super::hand::Hand;

/// `decompose(cards)` of §3.2.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Decomposition {
    /// Number of `Chan` (a concealed 4-of-a-kind gives 2).
    pub chan: u8,
    /// Number of `Ca` (a `BaDau` gives one: its first two suits in v<n<s order).
    pub ca: u8,
    /// The identities of the `Ca` cards, as a mask (two bits per `Ca`).
    pub(crate) ca_cards: u32,
    /// The `Lone` cards (at most one per identity), as a mask; includes each `BaDau`'s card of
    /// the third suit.
    pub lone: u32,
    /// The ranks holding a `BaDau`, as a mask of rank indices (bit `rank − 2`).
    pub badau: u8,
}

impl Decomposition {
    /// Number of `Lone` cards, those of a `BaDau` included (the "Lone of 19" column of §11.1).
    pub const fn lone_count(&self) -> u32 {
        self.lone.count_ones()
    }
    /// `B(P)` of §3.3: number of `BaDau`.
    pub const fn b(&self) -> u32 {
        self.badau.count_ones()
    }
    /// `L(P)` of §3.3: `Lone` cards not part of a `BaDau`.
    pub const fn l(&self) -> u32 {
        self.lone_count() - self.b()
    }
    /// True when some `Ca` (of the decomposition) has rank-index `r`.
    pub(crate) const fn has_ca_of_rank(&self, r: usize) -> bool {
        self.ca_cards >> (r * 3) & 0b111 != 0
    }
    /// The `Lone` cards in canonical order.
    pub fn lone_cards(&self) -> impl Iterator<Item = Card> + '_ {
        Card::all().filter(move |c| self.lone & c.bit() != 0)
    }
}

/// `decompose(cards)` (§3.2).
///
/// # Examples
/// ```
/// use bailab::games::chan::decompose;
/// // vector C1 of §11.1: (5, 2), lone 2n 4s 5n 6s ch, one BaDau in rank 6
/// let d = decompose(&"2v 2v 2n 3v 3n 4s 5v 5v 5n 6v 6n 6s 7n 7n 8v 8v 9s 9s ch".parse().unwrap());
/// assert_eq!((d.chan, d.ca, d.lone_count(), d.b(), d.l()), (5, 2, 5, 1, 4));
/// ```
#[inline]
pub fn decompose(h: &Hand) -> Decomposition {
    // Inside a rank the decomposition depends only on which suits are held an odd number of
    // times; every other card pairs into a Chan. So the Chan count is (cards − odd cards) / 2,
    // and the rest is decided for all eight ranks at once, one bit lane per rank.
    let odd = h.odd();
    let lanes = OddLanes::of(odd);
    let rank_cards = |lanes: u32| lanes * 0b111;
    Decomposition {
        chan: chan_count(h, odd),
        ca: (lanes.two | lanes.three).count_ones() as u8,
        // a BaDau's Ca is its first two suits, its Lone the third
        ca_cards: (odd & rank_cards(lanes.two)) | (lanes.three * 0b011),
        lone: lone_mask(odd),
        badau: rank_lanes_to_bits(lanes.three),
    }
}

/// The ranks by how many of their suits a hand holds an odd number of times (one bit lane
/// `3r` per rank `r`).
struct OddLanes {
    one: u32,
    two: u32,
    three: u32,
}

impl OddLanes {
    #[inline]
    fn of(odd: u32) -> OddLanes {
        let (v, n, s) = (odd & SUIT_V, odd >> 1 & SUIT_V, odd >> 2 & SUIT_V);
        let three = v & n & s;
        OddLanes {
            one: (v ^ n ^ s) & !three,
            two: (v & n | v & s | n & s) & !three,
            three,
        }
    }
}

/// The `Lone` mask of a hand whose odd-count identities are `odd`: the odd card of a rank with
/// one, the third suit of a `BaDau`, an odd chi chi.
#[inline]
fn lone_mask(odd: u32) -> u32 {
    let lanes = OddLanes::of(odd);
    (odd & ((lanes.one * 0b111) | Card::CH.bit())) | (lanes.three << 2)
}

/// The `Chan` count of `h` (its odd-count identities `odd`): every card not left odd pairs.
#[inline]
fn chan_count(h: &Hand, odd: u32) -> u8 {
    ((h.len() as u32 - odd.count_ones()) / 2) as u8
}

/// Bit `3r` of every rank `r`: the `v` suit of each rank (the lane of that rank).
const SUIT_V: u32 = 0o11111111;

/// A mask with bits only at rank lanes `3r` as a mask of rank indices (bit `r`).
#[inline]
fn rank_lanes_to_bits(lanes: u32) -> u8 {
    (0..8).fold(0, |m, r| m | ((lanes >> (3 * r) & 1) as u8) << r)
}

/// `WinShape(P, c)` of §3.4 from P's concealed cards and `ExposedChan(P)`: with `c` (`None`
/// for Thiên ù, where rule 3 does not apply), every concealed card is paired, the Chắn total is
/// at least 6, and exactly 6 when `c = ch`.
pub fn win_shape(concealed: &Hand, exposed_chan: u8, c: Option<Card>) -> bool {
    if !pairs_up(concealed, c) {
        return false;
    }
    let h = match c {
        Some(c) => concealed.with(c),
        None => *concealed,
    };
    let t = exposed_chan + chan_count(&h, h.odd());
    t >= 6 && (c != Some(Card::CH) || t == 6)
}

/// Rule 1 of `WinShape` (§3.4): `concealed` plus `c` (if any) decomposes with no `Lone` card.
/// Adding `c` only flips the parity of `c`'s identity, so no hand is built.
pub(crate) fn pairs_up(concealed: &Hand, c: Option<Card>) -> bool {
    let flip = c.map_or(0, Card::bit);
    lone_mask(concealed.odd() ^ flip) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chan::card::IDENTITIES;

    /// The rank-by-rank reading of §3.2 that `decompose` computes bit-parallel.
    fn reference(h: &Hand) -> Decomposition {
        let c = h.counts();
        let mut d = Decomposition::default();
        for r in 0..8 {
            let b = r * 3;
            let (x, y, z) = (c[b], c[b + 1], c[b + 2]);
            d.chan += x / 2 + y / 2 + z / 2;
            let odd = u32::from(x & 1) | u32::from(y & 1) << 1 | u32::from(z & 1) << 2;
            match odd.count_ones() {
                0 => {}
                1 => d.lone |= odd << b,
                2 => {
                    d.ca += 1;
                    d.ca_cards |= odd << b;
                }
                _ => {
                    d.ca += 1;
                    d.ca_cards |= 0b011 << b;
                    d.lone |= 0b100 << b;
                    d.badau |= 1 << r;
                }
            }
        }
        let ch = c[IDENTITIES - 1];
        d.chan += ch / 2;
        if ch & 1 == 1 {
            d.lone |= Card::CH.bit();
        }
        d
    }

    /// `decompose` agrees with the rank-by-rank reading on every count pattern of one rank
    /// (with chi chi) and on pseudo-random hands.
    #[test]
    fn matches_rank_by_rank_reading() {
        for r in 0..8 {
            for code in 0..5 * 5 * 5 * 5 {
                let mut counts = [0u8; IDENTITIES];
                counts[3 * r] = (code % 5) as u8;
                counts[3 * r + 1] = (code / 5 % 5) as u8;
                counts[3 * r + 2] = (code / 25 % 5) as u8;
                counts[24] = (code / 125) as u8;
                let h = Hand::from_counts(counts);
                assert_eq!(decompose(&h), reference(&h), "{h}");
            }
        }
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..50_000 {
            let mut counts = [0u8; IDENTITIES];
            for c in counts.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *c = (x % 5) as u8;
            }
            let h = Hand::from_counts(counts);
            assert_eq!(decompose(&h), reference(&h), "{h}");
        }
    }
}
