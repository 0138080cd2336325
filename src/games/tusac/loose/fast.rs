//! Table-driven `(loose, best points)` and best-value points (loose cards allowed) for the two
//! Sisepai rule sets when no type has more than 8 copies (every 2-pack hand; nearly every 3- and
//! 4-pack one).
//!
//! Small tables, built once by the memoised recursions themselves: `ident` (n identical
//! non-King cards), `rank4` (one non-King rank in four colours: identical sets plus the
//! 3-/4-colour sets, valued as `Pawns3/4` = `Colours3/4`), their best-value twins `ident_max`
//! and `rank4_max`, and `kings4` (the best value of a dirtyking26 King count vector; Kings are
//! never better left loose, so it serves both). A K/A/E or R/C/H block is then the best over the
//! numbers of chows per colour of the tables' values for what the chows leave.

use super::{solve_lb, solve_max, Block, Counts, SetRules, KAE_JOINED, PAWNS, RCH_SPLIT};
use crate::games::tusac::card::{Rank, CARD_TYPES};
use crate::games::tusac::options::{KingIdenticalSets, PointTable};
use std::sync::OnceLock;

/// Copies per type the tables cover.
const MAX: usize = 8;
const SIDE: usize = MAX + 1;
const SIZE4: usize = SIDE * SIDE * SIDE * SIDE;

struct Tables {
    ident: [(u8, u8); SIDE],
    rank4: [(u8, u8); SIZE4],
    kings4: [u8; SIZE4],
    ident_max: [u8; SIDE],
    rank4_max: [u8; SIZE4],
}

const SISEPAI: SetRules = SetRules {
    king_identical: KingIdenticalSets::None,
    cross_colour: false,
    king_groups: false,
    table: PointTable::Sisepai21,
    double_rank: None,
};

const DIRTY: SetRules = SetRules {
    king_identical: KingIdenticalSets::QuadOnly,
    cross_colour: true,
    king_groups: true,
    table: PointTable::DirtyKing26,
    double_rank: None,
};

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build)
}

/// The four counts of index `i` (base `SIDE`).
fn unindex(mut i: usize) -> [u8; 4] {
    let mut c = [0u8; 4];
    for slot in c.iter_mut().rev() {
        *slot = (i % SIDE) as u8;
        i /= SIDE;
    }
    c
}

fn index(c: [u8; 4]) -> usize {
    c.iter().fold(0, |acc, &n| acc * SIDE + n as usize)
}

fn build() -> Tables {
    let mut t = Tables {
        ident: [(0, 0); SIDE],
        rank4: [(0, 0); SIZE4],
        kings4: [0; SIZE4],
        ident_max: [0; SIDE],
        rank4_max: [0; SIZE4],
    };
    let rook = RCH_SPLIT[0];
    for (n, slot) in t.ident.iter_mut().enumerate() {
        let mut c = [0u8; CARD_TYPES];
        c[rook.types[0] as usize] = n as u8;
        let (l, p) = solve_lb(&c, &rook, &SISEPAI);
        *slot = (l, p as u8);
        t.ident_max[n] = solve_max(&c, &rook, &SISEPAI) as u8;
    }
    for i in 0..SIZE4 {
        let four = unindex(i);
        t.rank4[i] = narrow(solve_lb(&spread(four, &PAWNS), &PAWNS, &SISEPAI));
        t.rank4_max[i] = solve_max(&spread(four, &PAWNS), &PAWNS, &SISEPAI) as u8;
        t.kings4[i] = narrow(solve_lb(&spread(four, &KAE_JOINED), &KAE_JOINED, &DIRTY)).1;
    }
    t
}

fn narrow((l, p): (u8, u16)) -> (u8, u8) {
    (l, p as u8)
}

/// A hand holding `four` copies of the block's first four types.
fn spread(four: [u8; 4], block: &Block) -> Counts {
    let mut c = [0u8; CARD_TYPES];
    for (k, &n) in four.iter().enumerate() {
        c[block.types[k] as usize] = n;
    }
    c
}

/// Which of the two table-covered rule sets `rules` is (`Some(true)` for dirtyking26's).
fn shape(rules: &SetRules) -> Option<bool> {
    let plain = SetRules {
        double_rank: None,
        ..*rules
    };
    if plain == SISEPAI && rules.double_rank.is_none() {
        Some(false)
    } else if plain == DIRTY && rules.double_rank != Some(Rank::King) {
        Some(true)
    } else {
        None
    }
}

/// `(loose, best points)` of the hand by the tables, or `None` when they do not apply.
pub(super) fn best(hand: &Counts, rules: &SetRules) -> Option<(u8, u32)> {
    solve(hand, rules, false)
}

/// The best-value points of the hand, loose cards allowed, by the tables, or `None` when they
/// do not apply.
pub(super) fn max_points(hand: &Counts, rules: &SetRules) -> Option<u32> {
    solve(hand, rules, true).map(|(_, p)| p)
}

/// [`best`], or with `max` the best value alone: every part then reports 0 loose cards, so
/// the chow enumeration compares points only.
fn solve(hand: &Counts, rules: &SetRules, max: bool) -> Option<(u8, u32)> {
    let dirty = shape(rules)?;
    if hand.iter().any(|&n| n as usize > MAX) {
        return None;
    }
    let t = tables();
    let ranks = |r: usize| -> [u8; 4] {
        [
            hand[4 * r],
            hand[4 * r + 1],
            hand[4 * r + 2],
            hand[4 * r + 3],
        ]
    };
    let solo = |r: usize, four: [u8; 4]| -> (u32, u32) {
        let (l, p) = if max && (dirty || r == 6) {
            (0, t.rank4_max[index(four)] as u32)
        } else if max {
            (
                0,
                four.iter().map(|&n| t.ident_max[n as usize] as u32).sum(),
            )
        } else if dirty || r == 6 {
            let (l, p) = t.rank4[index(four)];
            (l as u32, p as u32)
        } else {
            four.iter().fold((0, 0), |(l, p), &n| {
                let (a, b) = t.ident[n as usize];
                (l + a as u32, p + b as u32)
            })
        };
        let double = rules.double_rank.is_some_and(|d| d as usize == r);
        (l, if double { 2 * p } else { p })
    };
    let kings = ranks(0);
    let kae = chows(
        [ranks(1), ranks(2)],
        kings,
        2,
        |m: [u8; 4], rest: [[u8; 4]; 2]| {
            let k = sub(kings, m);
            let kp = if dirty {
                t.kings4[index(k)] as u32
            } else {
                k.iter().map(|&n| n as u32).sum()
            };
            add(add(solo(1, rest[0]), solo(2, rest[1])), (0, kp))
        },
    );
    let r = ranks(3);
    let rch = chows(
        [ranks(4), ranks(5)],
        r,
        1,
        |m: [u8; 4], rest: [[u8; 4]; 2]| {
            add(add(solo(3, sub(r, m)), solo(4, rest[0])), solo(5, rest[1]))
        },
    );
    let pawns = solo(6, ranks(6));
    let (l, p) = add(add(kae, rch), pawns);
    Some((l as u8, p))
}

fn add(a: (u32, u32), b: (u32, u32)) -> (u32, u32) {
    (a.0 + b.0, a.1 + b.1)
}

fn sub(a: [u8; 4], b: [u8; 4]) -> [u8; 4] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]]
}

/// The best `(loose, points)` over the numbers of one-colour chows `m` (per colour, up to what
/// `first` and both `others` hold): `value(m, others − m)` plus `chow_points` per chow. Without
/// cross-colour sets the colours are independent, but enumerating them jointly gives the same
/// best because the value then adds over colours.
fn chows(
    others: [[u8; 4]; 2],
    first: [u8; 4],
    chow_points: u32,
    value: impl Fn([u8; 4], [[u8; 4]; 2]) -> (u32, u32),
) -> (u32, u32) {
    let top: [u8; 4] = std::array::from_fn(|c| first[c].min(others[0][c]).min(others[1][c]));
    let mut bestv = (u32::MAX, 0u32);
    let mut m = [0u8; 4];
    loop {
        let rest = [sub(others[0], m), sub(others[1], m)];
        let (l, p) = value(m, rest);
        let p = p + chow_points * m.iter().map(|&n| n as u32).sum::<u32>();
        if l < bestv.0 || (l == bestv.0 && p > bestv.1) {
            bestv = (l, p);
        }
        // Next m (odometer over 0..=top).
        let mut c = 0;
        while c < 4 && m[c] == top[c] {
            m[c] = 0;
            c += 1;
        }
        if c == 4 {
            return bestv;
        }
        m[c] += 1;
    }
}
