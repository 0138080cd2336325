//! The machinery both cores' tensors share: a tensor as a table of rows, each a named segment
//! with its writer, and the small writers the rows use (card counts, one-hots, relative seats).
//!
//! Card identities are the canonical card indices of §0.1 ([`Card::index`]: `rank × 4 +
//! colour`, so `rK yK gK wK rA … wP`); a seat's runs come in relative order, run `k` being the
//! seat `k` places after the view's seat.

use crate::game::Seat;
use crate::games::observe::Segment;
use crate::games::tusac::actions::{Active, Phase, Source};
use crate::games::tusac::card::{Card, CARD_TYPES};
use crate::games::tusac::hand::Hand;

/// How a row's entries are written: `O` writes the whole run from the view, `S` one seat's run.
#[derive(Copy, Clone)]
pub(crate) enum Fill<O, S> {
    /// One run of this length.
    Once(usize, O),
    /// One run of this length per seat, in relative order.
    PerSeat(usize, S),
}

/// One segment of a tensor: its name, what each entry holds, and its writer.
#[derive(Copy, Clone)]
pub(super) struct Row<O, S> {
    /// The segment's name.
    pub name: &'static str,
    /// What each entry holds, with its unit and range.
    pub about: &'static str,
    /// How it is written.
    pub fill: Fill<O, S>,
}

impl<O, S> Row<O, S> {
    /// A segment of `len` entries written once.
    pub(super) const fn once(name: &'static str, len: usize, about: &'static str, f: O) -> Self {
        Row {
            name,
            about,
            fill: Fill::Once(len, f),
        }
    }
    /// A segment of `len` entries per seat.
    pub(super) const fn seats(name: &'static str, len: usize, about: &'static str, f: S) -> Self {
        Row {
            name,
            about,
            fill: Fill::PerSeat(len, f),
        }
    }
    /// The segment's length at a table of `players`.
    pub(super) const fn len(&self, players: usize) -> usize {
        match self.fill {
            Fill::Once(n, _) => n,
            Fill::PerSeat(n, _) => n * players,
        }
    }
}

/// The layout of a table of rows at a table of `players`.
pub(super) fn layout<O, S>(rows: &[Row<O, S>], players: usize) -> Vec<Segment> {
    rows.iter()
        .map(|r| Segment {
            name: r.name,
            len: r.len(players),
            about: r.about,
        })
        .collect()
}

/// Zeroes `out`, then writes every row in order: `once(f, run)` for a whole run, `per(f, x,
/// run)` for seat `x`'s run (seats in relative order from `seat`). Allocates nothing.
pub(super) fn write<O: Copy, S: Copy>(
    rows: &[Row<O, S>],
    (seat, players): (Seat, usize),
    out: &mut [f32],
    once: impl Fn(O, &mut [f32]),
    per: impl Fn(S, Seat, &mut [f32]),
) {
    out.fill(0.0);
    let mut at = 0;
    for row in rows {
        let len = row.len(players);
        let run = &mut out[at..at + len];
        match row.fill {
            Fill::Once(_, f) => once(f, run),
            Fill::PerSeat(n, f) => {
                for (k, chunk) in run.chunks_mut(n).enumerate() {
                    per(f, absolute(seat, k, players), chunk);
                }
            }
        }
        at += len;
    }
    debug_assert_eq!(at, out.len(), "the tensor is the layout's length");
}

/// The seat `k` places after `seat`.
pub(super) fn absolute(seat: Seat, k: usize, players: usize) -> Seat {
    ((usize::from(seat) + k) % players) as Seat
}

/// Writes counts per card identity.
pub(super) fn counts(out: &mut [f32], counts: &[u8; CARD_TYPES]) {
    for (o, &n) in out.iter_mut().zip(counts) {
        *o = f32::from(n);
    }
}

/// Writes a hand's counts per card identity.
pub(super) fn hand(out: &mut [f32], hand: Hand) {
    for c in Card::all() {
        out[c.index()] = f32::from(hand.count(c));
    }
}

/// Adds one per card of `cards` to its identity's entry.
pub(super) fn cards(out: &mut [f32], cards: &[Card]) {
    cards.iter().for_each(|c| out[c.index()] += 1.0);
}

/// Sets entry `i` to 1, if any.
pub(crate) fn one_hot(out: &mut [f32], i: Option<usize>) {
    if let Some(i) = i {
        out[i] = 1.0;
    }
}

/// The phases in their one-hot order, with their JSON names.
pub(super) const PHASES: [&str; 4] = ["must_discard", "turn_option", "claim", "over"];

/// The index of a phase in [`PHASES`].
pub(crate) const fn phase_index(p: Phase) -> usize {
    match p {
        Phase::MustDiscard(_) => 0,
        Phase::TurnOption(_) => 1,
        Phase::Claim(_) => 2,
        Phase::Over => 3,
    }
}

/// The active card's sources in their one-hot order, with their JSON names.
pub(crate) const SOURCES: [&str; 3] = ["discard", "own_draw", "passed_draw"];

/// The index of a source in [`SOURCES`].
pub(crate) const fn source_index(s: Source) -> usize {
    match s {
        Source::Discard => 0,
        Source::OwnDraw => 1,
        Source::PassedDraw => 2,
    }
}

/// Writes the active card's identity as a one-hot (all 0 without an active card).
pub(crate) fn active_card(out: &mut [f32], a: Option<Active>) {
    one_hot(out, a.map(|a| a.card.index()));
}

/// Writes the active card's source as a one-hot (all 0 without an active card).
pub(crate) fn active_source(out: &mut [f32], a: Option<Active>) {
    one_hot(out, a.map(|a| source_index(a.source)));
}

/// 1 for true, 0 for false.
pub(super) fn flag(b: bool) -> f32 {
    f32::from(u8::from(b))
}
