//! The worst card of §5 (rule `OutsV1`): the legal discard with the fewest unseen partners.

use super::rules::{cards_of, legal_discards};
use crate::games::tusac::card::{Card, Rank, CARD_TYPES, COLOURS};
use crate::games::tusac::hand::Hand;
use crate::games::tusac::sets::pawn;

/// Copies of each type in one pack (classic).
pub(crate) const COPIES: u8 = 4;

/// The partner types `X(c)` of candidate `c` (§5.1 item 2) as a bit set over canonical indices.
/// `rest` is `H' = H − c`; Khap cards of `rest` are not free to complete a set.
pub fn partners(c: Card, rest: Hand) -> u32 {
    let free = |x: Card| rest.count(x) > 0 && rest.count(x) < 3;
    let mut set = 1u32 << c.index(); // Pair (or Triple with a free copy): x = c
    let colour = c.colour();
    for ranks in [
        [Rank::King, Rank::Advisor, Rank::Elephant],
        [Rank::Rook, Rank::Cannon, Rank::Horse],
    ] {
        if !ranks.contains(&c.rank()) {
            continue;
        }
        let others = ranks
            .iter()
            .filter(|&&r| r != c.rank())
            .map(|&r| Card::new(colour, r));
        let [a, b]: [Card; 2] = others
            .collect::<arrayvec::ArrayVec<Card, 2>>()
            .into_inner()
            .unwrap();
        if free(b) {
            set |= 1 << a.index();
        }
        if free(a) {
            set |= 1 << b.index();
        }
    }
    if c.is_pawn() {
        for x in COLOURS.into_iter().filter(|&x| x != colour) {
            let third = COLOURS
                .into_iter()
                .any(|y| y != colour && y != x && free(pawn(y)));
            if third {
                set |= 1 << pawn(x).index();
            }
        }
    }
    set
}

/// Copies of each type that the discarder cannot see (§5.1 item 3): `visible` counts the
/// cards in every public block and the dead pile.
pub fn unseen(x: Card, hand: Hand, visible: &[u8; CARD_TYPES]) -> u32 {
    u32::from(COPIES.saturating_sub(hand.count(x) + visible[x.index()]))
}

/// `outs(c)` of §5.1 item 4.
pub fn outs(c: Card, hand: Hand, visible: &[u8; CARD_TYPES]) -> u32 {
    cards_of(partners(c, hand.without(c)))
        .map(|x| unseen(x, hand, visible))
        .sum()
}

/// `Worst(H)` of §5.1 item 5: the legal discards with the smallest outs, as a bit set.
pub fn worst_set(hand: Hand, visible: &[u8; CARD_TYPES]) -> u32 {
    let mut best = u32::MAX;
    let mut set = 0u32;
    for c in cards_of(legal_discards(hand)) {
        let o = outs(c, hand, visible);
        if o < best {
            best = o;
            set = 0;
        }
        if o == best {
            set |= 1 << c.index();
        }
    }
    set
}

/// The default bot's choice among the worst cards: the first in canonical order (§5.1 item 6).
#[cfg(test)]
pub(crate) fn first_worst(hand: Hand, visible: &[u8; CARD_TYPES]) -> Option<Card> {
    cards_of(worst_set(hand, visible)).next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tusac::card::parse_cards;

    fn visible(s: &str) -> [u8; CARD_TYPES] {
        let mut v = [0u8; CARD_TYPES];
        for c in parse_cards(s, 4).unwrap() {
            v[c.index()] += 1;
        }
        v
    }
    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn example_w1() {
        let h: Hand = "rR rC gH yP wA wA gK gA gE yR yC yH".parse().unwrap();
        let v = visible("rH rH rC gH gH gH yP");
        let o: Vec<u32> = ["rR", "rC", "gH", "yP"]
            .iter()
            .map(|s| outs(c(s), h, &v))
            .collect();
        assert_eq!(o, [5, 4, 0, 2]);
        assert_eq!(cards_of(worst_set(h, &v)).collect::<Vec<_>>(), [c("gH")]);
    }

    #[test]
    fn example_w2() {
        let h: Hand = "rR rC rP gP wE wE yK".parse().unwrap();
        let v = visible("rH rH rR yP yP wP rP");
        let o: Vec<u32> = ["rR", "rC", "rP", "gP"]
            .iter()
            .map(|s| outs(c(s), h, &v))
            .collect();
        assert_eq!(o, [4, 5, 7, 8]);
        assert_eq!(cards_of(worst_set(h, &v)).collect::<Vec<_>>(), [c("rR")]);
    }

    #[test]
    fn example_w3_tie() {
        let h: Hand = "rR gC yP wP".parse().unwrap();
        let v = [0u8; CARD_TYPES];
        let o: Vec<u32> = ["rR", "gC", "yP", "wP"]
            .iter()
            .map(|s| outs(c(s), h, &v))
            .collect();
        assert_eq!(o, [3, 3, 11, 11]);
        assert_eq!(
            cards_of(worst_set(h, &v)).collect::<Vec<_>>(),
            [c("rR"), c("gC")]
        );
        assert_eq!(first_worst(h, &v), Some(c("rR")));
    }
}
