//! A player's record (§4) and the restriction predicates of §6: `EatLegal` (E1–E12),
//! `ChiuLegal` and `DiscardLegal` (D1–D5, Dstrict), `Waiting`, `DanhCa`. Each predicate reads
//! only the player's own cards and history, so the legality of a seat's actions is the same in
//! every determinization of its view.

use super::card::Card;
use super::decompose::decompose;
use super::hand::Hand;
use super::options::{ChanDiscardRule, Options};
use crate::fixed::CopyVec;
use std::fmt;

/// Meld kinds of §3.1.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum MeldKind {
    /// Two identical cards.
    #[default]
    Chan,
    /// Two cards of one rank and different suits.
    Ca,
    /// Four identical cards.
    Quad,
}

/// How an exposed meld was made (§4 `source`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum MeldSource {
    /// An `Eat` of a live card.
    #[default]
    Eat,
    /// A chíu (in turn, out of turn, or a chíu ù).
    Chiu,
    /// A dealt 4-of-a-kind laid down at once (§5.2.1).
    ThienKhai,
}

/// An exposed meld (§4): its kind, the hand card, the card taken from the table (for a
/// ThienKhai both are the quad's identity) and its source.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Meld {
    /// The kind.
    pub kind: MeldKind,
    /// The hand card (`h` of an eat).
    pub(crate) hand_card: Card,
    /// The card taken from the table.
    pub taken: Card,
    /// How it was made.
    pub source: MeldSource,
}

impl Meld {
    /// Number of cards.
    pub const fn len(&self) -> usize {
        match self.kind {
            MeldKind::Quad => 4,
            _ => 2,
        }
    }
    /// Never empty (clippy's `len` companion).
    pub const fn is_empty(&self) -> bool {
        false
    }
    /// Its cards as a hand.
    pub fn cards(&self) -> Hand {
        let mut h = Hand::EMPTY;
        match self.kind {
            MeldKind::Quad => h.add_n(self.taken, 4),
            _ => {
                h.add(self.hand_card);
                h.add(self.taken);
            }
        }
        h
    }
    /// Its Chắn count (§3.3: Chan 1, Quad 2, Ca 0).
    pub const fn chan(&self) -> u8 {
        match self.kind {
            MeldKind::Chan => 1,
            MeldKind::Quad => 2,
            MeldKind::Ca => 0,
        }
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match (self.kind, self.source) {
            (MeldKind::Chan, _) => "Chan",
            (MeldKind::Ca, _) => "Ca",
            (MeldKind::Quad, MeldSource::ThienKhai) => "Quad/ThienKhai",
            (MeldKind::Quad, _) => "Quad/Chiu",
        };
        write!(f, "[{kind} {}]", self.cards())
    }
}

/// Most exposed melds one player can hold: melds hold disjoint pairs of its at most 20 cards.
pub const MAX_MELDS: usize = 10;

/// A player's record of §4 (the table part lives in the state).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct SeatState {
    /// `concealed`: the cards in hand.
    pub concealed: Hand,
    /// Cards that left `concealed` (discards, returns, the hand cards of melds, ThienKhai quads):
    /// `initial = concealed + spent` (a ù card is never part of either).
    pub spent: Hand,
    /// The exposed melds, in order.
    pub melds: CopyVec<Meld, MAX_MELDS>,
    /// `Dsc(P)` as a set of identities (a set is all §6 reads of it).
    pub(crate) dsc: u32,
    /// `Dec(P)`.
    pub(crate) dec: u32,
    /// `Taken(P)`.
    pub taken: u32,
    /// Ranks of `EatenCa(P)`, a mask of rank indices.
    pub(crate) eaten_ca: u8,
    /// `chiu_count`.
    pub chiu_count: u8,
    /// Identities live at P's gate that P did not take (public: `Dec` is the part of it where a
    /// take was legal, which only P knows).
    pub offers: u32,
    /// Identities P is publicly known not to hold (it ate a Ca of that card: E11).
    pub(crate) not_held: u32,
    /// P declined an ù and `u_pass_forfeit` is on.
    pub forfeit: bool,
}

impl SeatState {
    /// `initial(P)`: the dealt hand.
    pub fn initial(&self) -> Hand {
        self.concealed.plus(self.spent)
    }
    /// `ExposedChan(P)` (§3.3).
    pub(crate) fn exposed_chan(&self) -> u8 {
        self.melds.as_slice().iter().map(|m| m.chan()).sum()
    }
    /// `TotalChan(P)` (§3.3).
    pub(crate) fn total_chan(&self) -> u8 {
        self.exposed_chan() + decompose(&self.concealed).chan
    }
    /// All exposed cards.
    pub fn exposed(&self) -> Hand {
        let mut h = Hand::EMPTY;
        for m in self.melds.as_slice() {
            h = h.plus(m.cards());
        }
        h
    }
    /// `DanhCa(P)` (§4): two discarded identities of one rank and different suits.
    pub(crate) fn danh_ca(&self) -> bool {
        ranks_with_two(self.dsc) != 0
    }
    /// `Waiting(P)` (§6.1): one lone card or one ba đầu left, and at least 5 Chắn.
    pub fn waiting(&self) -> bool {
        let d = decompose(&self.concealed);
        matches!((d.l(), d.b()), (1, 0) | (0, 1)) && self.exposed_chan() + d.chan >= 5
    }
}

/// A predicate or reason of §6.1 that refuses an action.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Pred {
    E1,
    E2,
    E3,
    E4,
    E5,
    E6,
    E7,
    E8,
    E9,
    E10,
    E11,
    E12,
    D1,
    D2,
    D3,
    D4,
    D5,
    Dstrict,
    /// Not an action of this phase (also: a malformed action, or after the end).
    Phase,
    /// `Draw` with an empty stock.
    StockEmpty,
    /// `EndHand` with a non-empty stock.
    StockNotEmpty,
    /// The hand card cannot pair with the live card.
    EatKind,
    /// The card is not in hand.
    NotInHand,
    /// Thiên ù does not hold (§7.2).
    ThienU,
    /// `ChiuLegal` fails (§6.2).
    ChiuLegal,
}

/// Every predicate, in the order explanations list them.
pub const PREDS: [Pred; 25] = [
    Pred::E1,
    Pred::E2,
    Pred::E3,
    Pred::E4,
    Pred::E5,
    Pred::E6,
    Pred::E7,
    Pred::E8,
    Pred::E9,
    Pred::E10,
    Pred::E11,
    Pred::E12,
    Pred::D1,
    Pred::D2,
    Pred::D3,
    Pred::D4,
    Pred::D5,
    Pred::Dstrict,
    Pred::Phase,
    Pred::StockEmpty,
    Pred::StockNotEmpty,
    Pred::EatKind,
    Pred::NotInHand,
    Pred::ThienU,
    Pred::ChiuLegal,
];

/// A set of failing predicates: empty means legal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct PredSet(u32);

impl PredSet {
    /// No failure.
    pub const EMPTY: PredSet = PredSet(0);
    /// Adds `p` when `fails`.
    #[inline]
    pub(crate) fn fail_if(&mut self, fails: bool, p: Pred) {
        self.0 |= u32::from(fails) << p as u32;
    }
    /// Adds every failure of `other`.
    #[inline]
    pub fn add(&mut self, other: PredSet) {
        self.0 |= other.0;
    }
    /// True when nothing fails.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The set of these predicates.
    pub fn of(preds: &[Pred]) -> PredSet {
        let mut s = PredSet::EMPTY;
        preds.iter().for_each(|&p| s.fail_if(true, p));
        s
    }
    /// The failing predicates in order.
    pub(crate) fn preds(self) -> impl Iterator<Item = Pred> {
        PREDS
            .into_iter()
            .filter(move |&p| self.0 >> p as u32 & 1 == 1)
    }
}

impl fmt::Display for PredSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.preds().map(|p| format!("{p:?}")).collect();
        write!(f, "{{{}}}", names.join(", "))
    }
}

/// `DiscardLegal(P, x)` of §6.3 as the set of failing predicates.
pub(crate) fn discard_failures(p: &SeatState, x: Card, o: &Options) -> PredSet {
    let mut f = PredSet::EMPTY;
    let n = p.concealed.count(x);
    if n == 0 {
        f.fail_if(true, Pred::NotInHand);
        return f;
    }
    f.fail_if(p.dec & x.bit() != 0, Pred::D1);
    f.fail_if(p.dsc & x.bit() != 0, Pred::D2);
    f.fail_if(p.taken & x.bit() != 0, Pred::D3);
    if p.eaten_ca != 0 {
        if let Some(r) = x.rank_index() {
            let others = (0b111u32 << (r * 3)) & !x.bit();
            f.fail_if(p.dsc & others != 0, Pred::D4);
            f.fail_if(p.eaten_ca >> r & 1 == 1, Pred::D5);
        }
    }
    f.fail_if(
        o.chan_discard_rule == ChanDiscardRule::Strict && n >= 2,
        Pred::Dstrict,
    );
    f
}

/// The concealed identities `x` with `DiscardLegal(P, x)` (§6.3), as a mask: the same
/// predicates as `discard_failures`, evaluated for every identity at once.
pub fn legal_discards(p: &SeatState, o: &Options) -> u32 {
    let mut refused = p.dec | p.dsc | p.taken; // D1, D2, D3
    if p.eaten_ca != 0 {
        // D4: another identity of x's rank was discarded
        let two = ranks_with_two(p.dsc);
        let one = ranks_with_one(p.dsc);
        refused |= (two * 0b111) | ((one * 0b111) & !p.dsc);
        // D5: a Ca of x's rank was eaten
        refused |= rank_bits_to_lanes(p.eaten_ca) * 0b111;
    }
    if o.chan_discard_rule == ChanDiscardRule::Strict {
        refused |= p.concealed.pairs();
    }
    p.concealed.present() & !refused
}

/// True when some concealed card satisfies `DiscardLegal` (the lookahead of E12 and §6.2).
pub(crate) fn any_discard_legal(p: &SeatState, o: &Options) -> bool {
    legal_discards(p, o) != 0
}

/// Bit `3r` of every rank `r`: one lane per rank in an identity mask.
const RANK_LANES: u32 = 0o11111111;

/// The rank lanes (bit `3r`) of the ranks where `set` holds at least two identities.
fn ranks_with_two(set: u32) -> u32 {
    let (v, n, s) = (
        set & RANK_LANES,
        set >> 1 & RANK_LANES,
        set >> 2 & RANK_LANES,
    );
    v & n | v & s | n & s
}

/// The rank lanes (bit `3r`) of the ranks where `set` holds exactly one identity.
fn ranks_with_one(set: u32) -> u32 {
    let (v, n, s) = (
        set & RANK_LANES,
        set >> 1 & RANK_LANES,
        set >> 2 & RANK_LANES,
    );
    (v ^ n ^ s) & !(v & n & s)
}

/// A mask of rank indices (bit `r`) as rank lanes (bit `3r`).
fn rank_bits_to_lanes(ranks: u8) -> u32 {
    (0..8).fold(0, |m, r| m | u32::from(ranks >> r & 1) << (3 * r))
}

/// The player's record after `Eat(h)` of `t` (§5.2.4), before its discard.
pub(crate) fn after_eat(p: &SeatState, h: Card, t: Card) -> SeatState {
    let mut q = *p;
    q.concealed.remove(h);
    q.spent.add(h);
    q.taken |= t.bit();
    if h != t {
        q.eaten_ca |= 1 << t.rank_index().expect("a Ca has a rank");
    }
    q
}

/// The player's record after a chíu of `t` (three copies leave the hand).
pub(crate) fn after_chiu(p: &SeatState, t: Card) -> SeatState {
    let mut q = *p;
    q.concealed.remove_n(t, 3);
    q.spent.add_n(t, 3);
    q.taken |= t.bit();
    q
}

/// `EatLegal(P, h, t)` of §6.1 as the set of failing predicates (E1–E12, or `NotInHand` /
/// `EatKind` when `h` cannot eat `t` at all).
pub(crate) fn eat_failures(p: &SeatState, h: Card, t: Card, o: &Options) -> PredSet {
    let mut f = eat_quick_failures(p, h, t);
    if f != PredSet::of(&[Pred::NotInHand]) && f != PredSet::of(&[Pred::EatKind]) {
        f.add(eat_costly_failures(p, h, t, o));
    }
    f
}

/// `EatLegal(P, h, t)` (§6.1): the costly predicates are read only when the others hold.
#[inline]
pub(crate) fn eat_legal(p: &SeatState, h: Card, t: Card, o: &Options) -> bool {
    eat_quick_failures(p, h, t).is_empty() && eat_costly_failures(p, h, t, o).is_empty()
}

/// The predicates of `EatLegal(P, h, t)` read from a few masks and counts: all but E9 and E12
/// (or only `NotInHand` / `EatKind` when `h` cannot eat `t` at all).
fn eat_quick_failures(p: &SeatState, h: Card, t: Card) -> PredSet {
    let mut f = PredSet::EMPTY;
    if p.concealed.count(h) == 0 {
        f.fail_if(true, Pred::NotInHand);
        return f;
    }
    let chan = h == t;
    if !chan && !h.same_rank(t) {
        f.fail_if(true, Pred::EatKind);
        return f;
    }
    let c = &p.concealed;
    f.fail_if(p.dsc & t.bit() != 0, Pred::E1);
    f.fail_if(p.dec & h.bit() != 0, Pred::E2);
    if let Some(r) = t.rank_index() {
        f.fail_if(p.eaten_ca >> r & 1 == 1, Pred::E6);
    }
    f.fail_if(c.count(t) == 3, Pred::E10);
    if !chan {
        let r = h.rank_index().expect("a Ca has a rank");
        let rank_bits = 0b111u32 << (r * 3);
        f.fail_if(p.danh_ca(), Pred::E3);
        f.fail_if(p.dec & rank_bits & !h.bit() != 0, Pred::E4);
        f.fail_if(p.dsc & rank_bits != 0, Pred::E5);
        f.fail_if(matches!(c.count(h), 2 | 4), Pred::E7);
        // E8: h is the only identity of its rank held an odd number of times
        f.fail_if(c.odd() & rank_bits != h.bit(), Pred::E8);
        f.fail_if(c.count(t) != 0, Pred::E11);
    }
    f
}

/// The predicates of `EatLegal(P, h, t)` that decompose the hand or look ahead: E9 (a Ca eat
/// while `Waiting`) and E12 (no legal discard after the eat). `h` must be able to eat `t`.
fn eat_costly_failures(p: &SeatState, h: Card, t: Card, o: &Options) -> PredSet {
    let mut f = PredSet::EMPTY;
    f.fail_if(h != t && p.waiting(), Pred::E9);
    f.fail_if(!any_discard_legal(&after_eat(p, h, t), o), Pred::E12);
    f
}

/// `ChiuLegal(P, t)` of §6.2; `lookahead` false drops the no-dead-end clause (as §7.1 reads it
/// for a chíu ù).
pub(crate) fn chiu_legal(p: &SeatState, t: Card, o: &Options, lookahead: bool) -> bool {
    p.concealed.count(t) == 3
        && t.rank_index().is_none_or(|r| p.eaten_ca >> r & 1 == 0)
        && (!lookahead || any_discard_legal(&after_chiu(p, t), o))
}

/// The hand cards `h` that could eat `t` by kind alone (§6.1 "Kind"): `t` itself, then the other
/// suits of its rank, in canonical order.
pub(crate) fn eat_candidates(t: Card) -> impl Iterator<Item = Card> {
    let same: [Option<Card>; 3] = match t.rank_index() {
        Some(r) => Card::of_rank(r).map(Some),
        None => [Some(t), None, None],
    };
    same.into_iter().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chan::card::IDENTITIES;

    /// `legal_discards` is the set of identities `discard_failures` accepts, on pseudo-random
    /// records under both Chắn discard rules.
    #[test]
    fn legal_discards_match_discard_failures() {
        let mut x = 0x853C_49E6_748F_EA9Bu64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for rule in [ChanDiscardRule::Strict, ChanDiscardRule::SecondCardOnly] {
            let o = Options {
                chan_discard_rule: rule,
                ..Options::default_for(4)
            };
            for _ in 0..20_000 {
                let mut counts = [0u8; IDENTITIES];
                counts.iter_mut().for_each(|c| *c = (next() % 5) as u8);
                let mut sparse = || (next() & next() & 0x1FF_FFFF) as u32;
                let (dec, dsc, taken) = (sparse(), sparse(), sparse());
                let p = SeatState {
                    concealed: Hand::from_counts(counts),
                    dec,
                    dsc,
                    taken,
                    eaten_ca: (next() & next() & 0xFF) as u8 * (next() % 2) as u8,
                    ..SeatState::default()
                };
                let expected = (0..IDENTITIES).fold(0u32, |m, i| {
                    let ok = discard_failures(&p, Card::from_index(i), &o).is_empty();
                    m | u32::from(ok) << i
                });
                assert_eq!(legal_discards(&p, &o), expected, "{p:?}");
            }
        }
    }
}
