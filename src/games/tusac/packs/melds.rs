//! The melds of §2.3 for sisepai21 and dirtyking26, the set precedence of §2.4 and the pair
//! points gate of §4.6 S5.

use super::loose::{max_points, points_of, Counts};
use crate::games::tusac::card::{Card, Rank, CARD_TYPES};
use crate::games::tusac::meld::{Meld, Melds, MAX_MELD_SHAPES};
use crate::games::tusac::sets::SetRules;
use crate::games::tusac::sets::{Origin, SetInstance, SetKind, Zone};
use arrayvec::ArrayVec;
use std::sync::OnceLock;

/// The public set a meld makes with the active card `active`.
pub(crate) fn melded_set(meld: Meld, active: Card) -> SetInstance {
    let mut cards: ArrayVec<Card, 4> = meld.used().iter().copied().collect();
    cards.push(active);
    SetInstance::new(meld.kind, &cards, Zone::Public, Origin::Melded)
}

/// The points of the public set a meld makes (§2.5, melded values, doubled): those of
/// `melded_set`, without putting its cards in order (the points do not depend on it).
pub fn meld_points(meld: Meld, active: Card, rules: &SetRules) -> u32 {
    let used = meld.used();
    let mut cards = [active; 4];
    cards[..used.len()].copy_from_slice(used);
    let cards = &cards[..=used.len()];
    points_of(meld.kind, cards, Zone::Public, Origin::Melded, rules)
}

/// Every meld shape `{active} ⊎ U` with `U` from `hand` for a non-King active card (§2.3,
/// Sisepai rows), in canonical action order: Pair, Triple, Quad, the chow, `Pawns3`/`Colours3`,
/// `Pawns4`/`Colours4`. The pair gate (S5) is not applied here.
pub fn meld_shapes(hand: &Counts, active: Card, cross_colour: bool, out: &mut Melds) {
    shapes_in(
        shape_set(hand, active, cross_colour),
        active,
        cross_colour,
        out,
    );
}

/// [`meld_shapes`] as a bit set: bit `i` when `hand` holds the cards of the `i`-th candidate
/// shape of `active` in canonical order (a Pair is always bit 0). [`shapes_in`] lists them.
pub(crate) fn shape_set(hand: &Counts, active: Card, cross_colour: bool) -> u8 {
    debug_assert!(!active.is_king(), "drawn Kings follow S1");
    let keys = &shape_keys()[usize::from(cross_colour)][active.index()];
    let n = hand[active.index()];
    let identical = u8::from(n >= 1) | u8::from(n >= 2) << 1 | u8::from(n >= 3) << 2;
    let mut present = 0u8;
    for (j, &t) in keys.partners.iter().enumerate() {
        present |= u8::from(hand[usize::from(t)] > 0) << j;
    }
    let mut others = 0u8;
    for (i, &need) in keys.needs.iter().enumerate() {
        others |= u8::from(need & !present == 0) << (i + 3);
    }
    identical | others
}

/// The most other types a shape draws from: two chow partners and three other colours.
const PARTNERS: usize = 5;

/// What decides the shapes of one card: its own count for the identical sets (shapes 0–2), and
/// for each later shape `3 + i` the `partners` it needs one copy of (bit `j` of `needs[i]` for
/// `partners[j]`; a shape that does not exist needs an impossible bit).
struct ShapeKeys {
    partners: [u8; PARTNERS],
    needs: [u8; PARTNERS],
}

/// The shape keys of every card type, without and with cross-colour sets (Kings: unused).
fn shape_keys() -> &'static [[ShapeKeys; CARD_TYPES]; 2] {
    static TABLE: OnceLock<[[ShapeKeys; CARD_TYPES]; 2]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let shapes = shape_table();
        std::array::from_fn(|cross| {
            std::array::from_fn(|t| ShapeKeys::new(Card::from_index(t), &shapes[cross][t]))
        })
    })
}

impl ShapeKeys {
    fn new(active: Card, shapes: &Shapes) -> ShapeKeys {
        // unused partner slots read the card itself; no shape needs them
        let mut keys = ShapeKeys {
            partners: [active.index() as u8; PARTNERS],
            needs: [1 << PARTNERS; PARTNERS],
        };
        let mut len = 0;
        for (i, shape) in shapes.iter().enumerate().skip(3) {
            keys.needs[i - 3] = 0;
            for &(t, _) in shape.needs.iter().filter(|(_, n)| *n > 0) {
                let j = match keys.partners[..len].iter().position(|&p| p == t) {
                    Some(j) => j,
                    None => {
                        keys.partners[len] = t;
                        len += 1;
                        len - 1
                    }
                };
                keys.needs[i - 3] |= 1 << j;
            }
        }
        keys
    }
}

/// The melds of the shape set `set` of `active` (see [`shape_set`]), in canonical order.
pub(crate) fn shapes_in(set: u8, active: Card, cross_colour: bool, out: &mut Melds) {
    out.clear();
    let table = &shape_table()[usize::from(cross_colour)][active.index()];
    let mut rest = set;
    while rest != 0 {
        out.push(table[rest.trailing_zeros() as usize].meld);
        rest &= rest - 1;
    }
}

/// A meld shape with the hand cards it needs: at least `n` copies of type `t` for each `(t, n)`
/// (`n` = 0 pads).
#[derive(Copy, Clone, Debug)]
struct Shape {
    meld: Meld,
    needs: [(u8, u8); 3],
}

impl Shape {
    fn new(meld: Meld) -> Shape {
        let mut needs = [(0, 0); 3];
        for (slot, c) in needs.iter_mut().zip(meld.used()) {
            *slot = (c.index() as u8, 1);
        }
        if matches!(meld.kind, SetKind::Pair | SetKind::Triple | SetKind::Quad) {
            needs = [(needs[0].0, meld.used().len() as u8), (0, 0), (0, 0)];
        }
        Shape { meld, needs }
    }
}

/// The candidate shapes of one active card.
type Shapes = ArrayVec<Shape, MAX_MELD_SHAPES>;

/// The candidate shapes of every card type, without and with cross-colour sets (Kings: none).
fn shape_table() -> &'static [[Shapes; CARD_TYPES]; 2] {
    static TABLE: OnceLock<[[Shapes; CARD_TYPES]; 2]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|cross| {
            std::array::from_fn(|t| {
                let c = Card::from_index(t);
                if c.is_king() {
                    Shapes::new()
                } else {
                    let melds = candidate_shapes(c, cross == 1);
                    melds.iter().map(|&m| Shape::new(m)).collect()
                }
            })
        })
    })
}

/// Every shape of §2.3 (Sisepai rows) a non-King active card could make, in canonical order.
fn candidate_shapes(active: Card, cross_colour: bool) -> Melds {
    let mut out = Melds::new();
    let same = [active; 3];
    for (k, kind) in [SetKind::Pair, SetKind::Triple, SetKind::Quad]
        .into_iter()
        .enumerate()
    {
        out.push(Meld::new(kind, &same[..=k]));
    }
    let (colour, rank) = (active.colour() as usize, active.rank());
    let of = |c: usize, r: Rank| Card::from_index(r as usize * 4 + c);
    let chows = [
        (
            SetKind::KingAdvisorElephant,
            [Rank::King, Rank::Advisor, Rank::Elephant],
        ),
        (
            SetKind::RookCannonHorse,
            [Rank::Rook, Rank::Cannon, Rank::Horse],
        ),
    ];
    for (kind, ranks) in chows {
        if ranks.contains(&rank) {
            let others: ArrayVec<Card, 2> = ranks
                .iter()
                .filter(|&&r| r != rank)
                .map(|&r| of(colour, r))
                .collect();
            out.push(Meld::new(kind, &others));
        }
    }
    let across = match rank {
        Rank::Pawn => Some((SetKind::Pawns3, SetKind::Pawns4)),
        _ if cross_colour => Some((SetKind::Colours3, SetKind::Colours4)),
        _ => None,
    };
    if let Some((three, four)) = across {
        let others: ArrayVec<Card, 3> = (0..4)
            .filter(|&c| c != colour)
            .map(|c| of(c, rank))
            .collect();
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            out.push(Meld::new(three, &[others[i], others[j]]));
        }
        out.push(Meld::new(four, &others));
    }
    out
}

/// The current points of a seat for the pair gate (§4.6 S5): its face-down and melded sets
/// (`fixed`) plus the best-value partition of its hand, loose cards allowed (the most points
/// of any partition, not the points of the fewest-loose one).
pub fn current_points(hand: &Counts, fixed: u32, rules: &SetRules) -> u32 {
    fixed + max_points(hand, rules)
}

/// The turn player's legal melds (§2.3, §4.6 S2, S5): every shape, a `Pair` only when the
/// seat's current points are above `pair_min` (no gate when `None`).
pub fn legal_melds(
    hand: &Counts,
    active: Card,
    fixed: u32,
    rules: &SetRules,
    pair_min: Option<u8>,
    out: &mut Melds,
) {
    let cross = rules.cross_colour;
    let current = || current_points(hand, fixed, rules);
    let set = gated_shape_set(hand, active, cross, pair_min, fixed, current);
    shapes_in(set, active, cross, out);
}

/// [`legal_melds`] as a shape set (see [`shape_set`]), with the seat's current points from
/// `current`, asked only when a `Pair` is among the shapes, a gate is set and `at_least`, a
/// lower bound of the current points, does not open it.
pub(crate) fn gated_shape_set(
    hand: &Counts,
    active: Card,
    cross_colour: bool,
    pair_min: Option<u8>,
    at_least: u32,
    current: impl FnOnce() -> u32,
) -> u8 {
    let set = shape_set(hand, active, cross_colour);
    match pair_min.map(u32::from) {
        Some(min) if set & 1 == 1 && at_least <= min && current() <= min => set & !1,
        _ => set,
    }
}

/// The identical sets an out-of-turn seat may claim (§4.6 S2): a `Triple` from 2 copies, a
/// `Quad` from 3.
pub fn identical_claims(hand: &Counts, active: Card, out: &mut Melds) {
    out.clear();
    let n = hand[active.index()];
    if n >= 2 {
        out.push(Meld::new(SetKind::Triple, &[active; 2]));
    }
    if n >= 3 {
        out.push(Meld::new(SetKind::Quad, &[active; 3]));
    }
}

/// The rank of a set kind in the precedence of §2.4 (higher wins a claim conflict). `Pawns4`
/// and `Colours4` tie.
pub(crate) const fn precedence(kind: SetKind, kings: bool) -> u8 {
    match kind {
        SetKind::Quad if kings => 10,
        SetKind::Quad => 9,
        SetKind::Pawns4 | SetKind::Colours4 => 8,
        SetKind::Triple => 7,
        SetKind::Colours3 => 6,
        SetKind::KingAdvisorElephant => 5,
        SetKind::RookCannonHorse => 4,
        SetKind::Pawns3 => 3,
        SetKind::King => 2,
        SetKind::Pair => 1,
        SetKind::Kings4Colours | SetKind::Kings4Mixed => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tusac::options::Options;
    use crate::games::tusac::packs::loose::set_points;

    /// Whether `hand` holds the cards a meld uses, by the meld's definition: `k` copies of the
    /// active card for an identical set, one of each (distinct) card otherwise.
    fn holds(hand: &Counts, m: &Meld) -> bool {
        let used = m.used();
        match m.kind {
            SetKind::Pair | SetKind::Triple | SetKind::Quad => {
                usize::from(hand[used[0].index()]) >= used.len()
            }
            _ => used.iter().all(|c| hand[c.index()] > 0),
        }
    }

    /// `meld_shapes` lists exactly the candidate shapes whose cards the hand `holds`, in order,
    /// for every non-King card, with and without cross-colour sets, on hands of 0 to 4 copies
    /// per type.
    #[test]
    fn meld_shapes_are_the_candidates_the_hand_holds() {
        let mut rng = crate::rng::stream_rng(3, 0, 0);
        let mut checked = 0;
        for _ in 0..2000 {
            let hand: Counts = std::array::from_fn(|_| rand::Rng::random_range(&mut rng, 0..=4));
            for active in Card::all().filter(|c| !c.is_king()) {
                for cross in [false, true] {
                    let mut out = Melds::new();
                    meld_shapes(&hand, active, cross, &mut out);
                    let mut want = candidate_shapes(active, cross);
                    want.retain(|m| holds(&hand, m));
                    assert_eq!(out, want, "{active:?} in {hand:?}");
                    checked += usize::from(!want.is_empty());
                }
            }
        }
        assert!(checked > 10_000, "{checked} non-empty cases");
    }

    /// `meld_points` gives the points of the set `melded_set` makes, for every meld shape of
    /// every non-King card and the King Quad, under both rule sets and every double rank.
    #[test]
    fn meld_points_are_those_of_the_melded_set() {
        let opts = [Options::sisepai21(4), Options::dirtyking26(4)];
        let doubles = std::iter::once(None).chain(Card::all().map(|c| Some(c.rank())));
        for (o, double) in doubles.flat_map(|d| opts.iter().map(move |o| (o, d))) {
            let rules = SetRules::new(o, double);
            for active in Card::all() {
                let melds = if active.is_king() {
                    let mut m = Melds::new();
                    m.push(Meld::new(SetKind::Quad, &[active; 3]));
                    m
                } else {
                    candidate_shapes(active, rules.cross_colour)
                };
                for m in melds {
                    let set = set_points(&melded_set(m, active), &rules);
                    assert_eq!(meld_points(m, active, &rules), set, "{m:?} on {active:?}");
                }
            }
        }
    }
}
