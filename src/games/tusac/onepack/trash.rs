//! The trash solver of §3 for `classic` (and `4sac`): precomputed tables, O(1) per block.
//!
//! §3.2 item 5: trash splits into independent parts, one per colour for K/A/E/R/C/H and one
//! for the pawns. Each part is a table indexed by its packed counts (see [`Hand`]'s layout):
//! a 4096-entry table for the 6 non-pawn ranks of one colour and a 256-entry table for the four
//! pawn colours. A count of 3 is a locked Khap (§3.1): it contributes no free card and 3 points.
//! Each entry also keeps the choice that gives the minimum trash and, among those, the largest
//! value (§3.6), so an optimal partition is decoded from the tables too.

use crate::games::tusac::card::{Card, Colour, Rank, COLOURS};
use crate::games::tusac::hand::Hand;
use crate::games::tusac::sets::{pawn, Origin, SetInstance, SetKind, Zone};
use arrayvec::ArrayVec;

/// One colour's K/A/E/R/C/H part: trash, the R/C/H share of it, the best value, and the choice.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct ColourEntry {
    /// Trash of this part (§3.4 `t_AE + t_RCH`).
    pub trash: u8,
    /// The `t_RCH` share (used by the waiting-pair exception of C3).
    pub(crate) rch_trash: u8,
    /// Largest classic value among the optimal partitions, Khaps included.
    pub value: u8,
    /// Number of `KingAdvisorElephant` chows in the chosen partition.
    pub(crate) kae: u8,
    /// Number of `RookCannonHorse` chows in the chosen partition.
    pub rch: u8,
    /// Ranks (bit `r` for rank index `r`, K..H) whose removal lowers this part's trash by
    /// exactly one and that are not in a Khap: the legal discards of C7 within this colour.
    pub(crate) discard_ranks: u8,
}

/// The pawn part: trash, best value and the chosen `Pawns4`/`Pawns3` counts.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct PawnEntry {
    /// Trash of the pawns (§3.4 `t_P`).
    pub trash: u8,
    /// Largest classic value among the optimal partitions, Khaps included.
    pub value: u8,
    /// Number of `Pawns4`.
    pub(crate) pawns4: u8,
    /// Number of `Pawns3` missing colour `j`, for each `j`.
    pub pawns3: [u8; 4],
    /// Colours (bit `c`) whose pawn is a legal discard of C7 (lowers trash by one, not a Khap).
    pub(crate) discard_colours: u8,
}

/// Leftover cost of a free count: 2 is a pair, 1 is a trash card (§3.4 `f`).
const fn f(count: u8) -> u8 {
    count % 2
}

const fn free_and_locked(count: u8) -> (u8, u8) {
    if count == 3 {
        (0, 3)
    } else {
        (count, 0)
    }
}

const fn min3(a: u8, b: u8, c: u8) -> u8 {
    let m = if a < b { a } else { b };
    if m < c {
        m
    } else {
        c
    }
}

const fn colour_entry(key: usize) -> ColourEntry {
    let mut free = [0u8; 6];
    let mut value = 0u8;
    let mut r = 0;
    while r < 6 {
        let (fr, locked) = free_and_locked(((key >> (2 * r)) & 3) as u8);
        free[r] = fr;
        value += locked;
        r += 1;
    }
    let [k, a, e, rook, cannon, horse] = free;
    // Kings: every free King is worth 1, lone or in a chow (§2.5), and is never trash.
    value += k;
    let (mut best_ae, mut kae) = (u8::MAX, 0);
    let mut m = 0;
    while m <= min3(k, a, e) {
        let t = f(a - m) + f(e - m);
        if t <= best_ae {
            best_ae = t;
            kae = m;
        }
        m += 1;
    }
    let (mut best_rch, mut rch) = (u8::MAX, 0);
    let mut m = 0;
    while m <= min3(rook, cannon, horse) {
        let t = f(rook - m) + f(cannon - m) + f(horse - m);
        // ties keep the larger m: each chow is worth 1, pairs 0
        if t <= best_rch {
            best_rch = t;
            rch = m;
        }
        m += 1;
    }
    ColourEntry {
        trash: best_ae + best_rch,
        rch_trash: best_rch,
        value: value + rch,
        kae,
        rch,
        discard_ranks: 0,
    }
}

/// Fills `discard_ranks` from the trash of the neighbouring keys (§3.2: a discard of a card not
/// in a Khap must lower trash by exactly one, C7).
const fn with_colour_discards(mut t: [ColourEntry; 4096]) -> [ColourEntry; 4096] {
    let mut key = 0;
    while key < 4096 {
        let mut r = 0;
        while r < 6 {
            let count = (key >> (2 * r)) & 3;
            if count == 1 || count == 2 {
                let lower = key - (1 << (2 * r));
                if t[lower].trash + 1 == t[key].trash {
                    t[key].discard_ranks |= 1 << r;
                }
            }
            r += 1;
        }
        key += 1;
    }
    t
}

const fn build_colour_table() -> [ColourEntry; 4096] {
    let empty = ColourEntry {
        trash: 0,
        rch_trash: 0,
        value: 0,
        kae: 0,
        rch: 0,
        discard_ranks: 0,
    };
    let mut t = [empty; 4096];
    let mut key = 0;
    while key < 4096 {
        t[key] = colour_entry(key);
        key += 1;
    }
    with_colour_discards(t)
}

const fn pawn_entry(key: usize) -> PawnEntry {
    let mut free = [0u8; 4];
    let mut locked_value = 0u8;
    let mut c = 0;
    while c < 4 {
        let (fr, locked) = free_and_locked(((key >> (2 * c)) & 3) as u8);
        free[c] = fr;
        locked_value += locked;
        c += 1;
    }
    let mut best = PawnEntry {
        trash: u8::MAX,
        value: 0,
        pawns4: 0,
        pawns3: [0; 4],
        discard_colours: 0,
    };
    // choice index: q4 + 3*(s0 + 3*(s1 + 3*(s2 + 3*s3))), each 0..=2
    let mut choice = 0;
    while choice < 243 {
        let q4 = (choice % 3) as u8;
        let s = [
            ((choice / 3) % 3) as u8,
            ((choice / 9) % 3) as u8,
            ((choice / 27) % 3) as u8,
            ((choice / 81) % 3) as u8,
        ];
        let mut ok = true;
        let mut trash = 0;
        let mut c = 0;
        while c < 4 {
            // a Pawns3 missing colour j uses every colour but j
            let used = q4 + s[0] + s[1] + s[2] + s[3] - s[c];
            if used > free[c] {
                ok = false;
            } else {
                trash += f(free[c] - used);
            }
            c += 1;
        }
        let value = locked_value + 2 * q4 + s[0] + s[1] + s[2] + s[3];
        if ok && (trash < best.trash || (trash == best.trash && value > best.value)) {
            best = PawnEntry {
                trash,
                value,
                pawns4: q4,
                pawns3: s,
                discard_colours: 0,
            };
        }
        choice += 1;
    }
    best
}

const fn build_pawn_table() -> [PawnEntry; 256] {
    let mut t = [pawn_entry(0); 256];
    let mut key = 0;
    while key < 256 {
        t[key] = pawn_entry(key);
        key += 1;
    }
    let mut key = 0;
    while key < 256 {
        let mut c = 0;
        while c < 4 {
            let count = (key >> (2 * c)) & 3;
            if (count == 1 || count == 2) && t[key - (1 << (2 * c))].trash + 1 == t[key].trash {
                t[key].discard_colours |= 1 << c;
            }
            c += 1;
        }
        key += 1;
    }
    t
}

/// `DISCARD_BITS[colour][ranks]`: the canonical-index bit set of the cards of `colour` whose
/// ranks (K..H) are set in `ranks`.
const fn build_discard_bits() -> [[u32; 64]; 4] {
    let mut t = [[0u32; 64]; 4];
    let mut colour = 0;
    while colour < 4 {
        let mut ranks = 0;
        while ranks < 64 {
            let mut r = 0;
            while r < 6 {
                if ranks >> r & 1 == 1 {
                    t[colour][ranks] |= 1 << (r * 4 + colour);
                }
                r += 1;
            }
            ranks += 1;
        }
        colour += 1;
    }
    t
}

/// `PAWN_BITS[colours]`: the canonical-index bit set of the pawns whose colours are set.
const fn build_pawn_bits() -> [u32; 16] {
    let mut t = [0u32; 16];
    let mut colours = 0;
    while colours < 16 {
        let mut c = 0;
        while c < 4 {
            if colours >> c & 1 == 1 {
                t[colours] |= 1 << (24 + c);
            }
            c += 1;
        }
        colours += 1;
    }
    t
}

static DISCARD_BITS: [[u32; 64]; 4] = build_discard_bits();
static PAWN_BITS: [u32; 16] = build_pawn_bits();

/// The legal discards of C7 as a bit set over canonical card indices: cards not in a Khap whose
/// removal lowers trash by exactly one. Five table lookups: removing a card changes only its
/// own part of the trash (§3.2 item 5).
#[inline]
pub(crate) fn discard_set(hand: Hand) -> u32 {
    let b = hand.bits();
    let mut set = PAWN_BITS[PAWN_TABLE[pawn_key(b)].discard_colours as usize];
    for (c, bits) in DISCARD_BITS.iter().enumerate() {
        set |= bits[COLOUR_TABLE[colour_key(b, c)].discard_ranks as usize];
    }
    set
}

static COLOUR_TABLE: [ColourEntry; 4096] = build_colour_table();
static PAWN_TABLE: [PawnEntry; 256] = build_pawn_table();

#[inline]
fn colour_key(bits: u64, colour: usize) -> usize {
    ((bits >> (14 * colour)) & 0xFFF) as usize
}

#[inline]
fn pawn_key(bits: u64) -> usize {
    (((bits >> 12) & 0x3) | ((bits >> 24) & 0xC) | ((bits >> 36) & 0x30) | ((bits >> 48) & 0xC0))
        as usize
}

/// The colour part of `hand` for `colour`.
#[inline]
pub(crate) fn colour_entry_of(hand: Hand, colour: Colour) -> &'static ColourEntry {
    &COLOUR_TABLE[colour_key(hand.bits(), colour as usize)]
}

/// The pawn part of `hand`.
#[inline]
pub(crate) fn pawn_entry_of(hand: Hand) -> &'static PawnEntry {
    &PAWN_TABLE[pawn_key(hand.bits())]
}

/// The trash count of a private block (§3.1): five table lookups.
///
/// # Examples
/// ```
/// use bailab::games::tusac::{trash, Hand};
/// assert_eq!(trash("rR rR rC rC rH".parse::<Hand>().unwrap()), 1);
/// assert_eq!(trash("yK yK yK yA yE".parse::<Hand>().unwrap()), 2); // a Khap is locked
/// ```
#[inline]
pub fn trash(hand: Hand) -> u8 {
    let b = hand.bits();
    PAWN_TABLE[pawn_key(b)].trash
        + COLOUR_TABLE[colour_key(b, 0)].trash
        + COLOUR_TABLE[colour_key(b, 1)].trash
        + COLOUR_TABLE[colour_key(b, 2)].trash
        + COLOUR_TABLE[colour_key(b, 3)].trash
}

/// Trash and the best value among optimal partitions (§3.6 when trash is 0), Khaps counted 3.
#[inline]
pub fn trash_and_value(hand: Hand) -> (u8, u8) {
    let b = hand.bits();
    let p = &PAWN_TABLE[pawn_key(b)];
    let (mut t, mut v) = (p.trash, p.value);
    for c in 0..4 {
        let e = &COLOUR_TABLE[colour_key(b, c)];
        t += e.trash;
        v += e.value;
    }
    (t, v)
}

/// The waiting-pair exception of §4.4 C3: trash is exactly 2 and some optimal partition leaves
/// two pawns of different colours or two same-colour cards of different ranks in {R, C, H}.
///
/// Leftovers are at most one copy of a type (§3.4 `f`), and every optimal partition reaches the
/// minimum of each part, so this holds iff the pawn part or one colour's R/C/H part owns both.
pub fn is_waiting_pair_hand(hand: Hand) -> bool {
    trash(hand) == 2
        && (pawn_entry_of(hand).trash == 2
            || COLOURS
                .iter()
                .any(|&c| colour_entry_of(hand, c).rch_trash == 2))
}

/// An optimal partition of a private block: its sets (Khaps, then chows, Kings, pairs) and the
/// trash cards left over. Among optimal partitions it has the largest value (§3.6).
#[derive(Clone, Debug, Default)]
pub struct Partition {
    /// The sets, all in the private zone with origin `Dealt`.
    pub sets: ArrayVec<SetInstance, 21>,
    /// The leftover cards `R` (§3.1), canonical order.
    pub trash: ArrayVec<Card, 21>,
}

impl Partition {
    /// Sum of the classic values of the sets.
    pub fn value(&self) -> u32 {
        self.sets.iter().map(|s| s.classic_value()).sum()
    }
}

/// Decodes the table choices into explicit sets (not on the hot path).
pub fn optimal_partition(hand: Hand) -> Partition {
    let mut part = Partition::default();
    let mut rest = hand;
    let mut push = |kind: SetKind, cards: &[Card], rest: &mut Hand| {
        *rest = rest.without_all(cards);
        part.sets
            .push(SetInstance::new(kind, cards, Zone::Private, Origin::Dealt));
    };
    for c in Card::all().filter(|&c| hand.count(c) == 3) {
        push(SetKind::Triple, &[c, c, c], &mut rest);
    }
    for colour in COLOURS {
        let e = colour_entry_of(hand, colour);
        let card = |r: Rank| Card::new(colour, r);
        for _ in 0..e.kae {
            push(
                SetKind::KingAdvisorElephant,
                &[card(Rank::King), card(Rank::Advisor), card(Rank::Elephant)],
                &mut rest,
            );
        }
        for _ in 0..e.rch {
            push(
                SetKind::RookCannonHorse,
                &[card(Rank::Rook), card(Rank::Cannon), card(Rank::Horse)],
                &mut rest,
            );
        }
    }
    let p = pawn_entry_of(hand);
    for _ in 0..p.pawns4 {
        push(SetKind::Pawns4, &COLOURS.map(pawn), &mut rest);
    }
    for missing in COLOURS {
        for _ in 0..p.pawns3[missing as usize] {
            let cards: ArrayVec<Card, 3> = crate::games::tusac::sets::pawns_without(missing);
            push(SetKind::Pawns3, &cards, &mut rest);
        }
    }
    for c in Card::all() {
        match (c.is_king(), rest.count(c)) {
            (true, n) => (0..n).for_each(|_| push(SetKind::King, &[c], &mut rest)),
            (false, 2) => push(SetKind::Pair, &[c, c], &mut rest),
            (false, 1) => {
                part.trash.push(c);
                rest.remove(c);
            }
            _ => {}
        }
    }
    debug_assert!(rest.is_empty());
    part
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hand {
        s.parse().unwrap()
    }

    #[test]
    fn partition_agrees_with_the_count() {
        for s in [
            "rK yK gA gE",
            "gK gA gE gA",
            "rP yP gP wP rP yP gP",
            "wK wK wK wA wE rR rR rC rH yP yP gP gP rP wP wP yC yC yH gE",
        ] {
            let p = optimal_partition(h(s));
            assert_eq!(p.trash.len(), trash(h(s)) as usize, "{s}");
            assert_eq!(p.value(), trash_and_value(h(s)).1 as u32, "{s}");
        }
    }

    #[test]
    fn row_21_is_worth_4_as_two_pawns4() {
        let hand = h("rP rP yP yP gP gP wP wP");
        assert_eq!(trash_and_value(hand), (0, 4));
    }

    #[test]
    fn waiting_pair_exception_cases_of_4_8() {
        // scenario 4: rR rC is a same-colour R/C/H wait
        assert!(is_waiting_pair_hand(h("rR rC yP yP")));
        // scenario 3: rR gC are different colours
        assert!(!is_waiting_pair_hand(h("rR gC yP yP")));
        // two pawns of different colours
        assert!(is_waiting_pair_hand(h("rP gP yR yR")));
        // an A–E pair waiting for its King is not protected
        assert!(!is_waiting_pair_hand(h("rA rE yP yP")));
    }
}
