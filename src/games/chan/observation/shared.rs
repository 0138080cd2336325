//! What the observation, the tensor and the action vectors share: the phase as one seat sees it
//! (the engine view's: an ù or chíu window asked of another seat is silent, §4 "What each seat
//! sees"), seats relative to the viewer, the segment tables and the writers of counts, masks
//! and one-hots.

use crate::game::{Seat, SeatView};
use crate::games::chan::card::IDENTITIES;
use crate::games::chan::types::{Phase, Resume};
use crate::games::chan::ChanView;
use crate::games::observe::Segment;

/// The phases as a seat may see them, in one-hot order; [`STAGE_NAMES`] are their JSON names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// `Opening`: the first player declares Thiên ù or discards.
    Opening,
    /// `UWindow` asked of this seat.
    UWindow,
    /// `ChiuWindow` asked of this seat.
    ChiuWindow,
    /// `Turn` of the gate owner.
    Turn,
    /// `Drawn` of the gate owner.
    Drawn,
    /// `MustDiscard` after a take.
    MustDiscard,
    /// `MustReturn` after an out-of-turn chíu.
    MustReturn,
    /// `Ended`.
    Ended,
}

/// The JSON name of each [`Stage`], in its one-hot order.
pub(super) const STAGE_NAMES: [&str; 8] = [
    "opening",
    "u_window",
    "chiu_window",
    "turn",
    "drawn",
    "must_discard",
    "must_return",
    "ended",
];

/// The JSON name of each [`Resume`], in its one-hot order.
pub(super) const RESUME_NAMES: [&str; 2] = ["turn", "drawn"];

/// The phase as the viewing seat sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Seen {
    /// The stage.
    pub(crate) stage: Stage,
    /// The seat this seat sees deciding (`None` once the hand is over).
    pub to_move: Option<Seat>,
    /// What the gate owner does next, in this seat's window or in a `MustReturn`.
    pub resume: Option<Resume>,
    /// The gate the card of a `MustReturn` goes back to.
    pub(crate) return_gate: Option<Seat>,
}

impl Seen {
    /// The phase of `view` as its seat sees it ([`ChanView::phase`]: a window asked of another
    /// seat already shows as the gate owner's coming `Turn` or `Drawn`).
    pub(super) fn of(view: &ChanView<'_>) -> Seen {
        let me = view.seat();
        let at = |stage, seat| Seen {
            stage,
            to_move: Some(seat),
            resume: None,
            return_gate: None,
        };
        let window = |stage, resume| Seen {
            resume: Some(resume),
            ..at(stage, me)
        };
        match view.phase() {
            Phase::Opening(p) => at(Stage::Opening, p),
            Phase::UWindow { resume, .. } => window(Stage::UWindow, resume),
            Phase::ChiuWindow { resume, .. } => window(Stage::ChiuWindow, resume),
            Phase::Turn(p) => at(Stage::Turn, p),
            Phase::Drawn(p) => at(Stage::Drawn, p),
            Phase::MustDiscard(p) => at(Stage::MustDiscard, p),
            Phase::MustReturn { seat, gate, resume } => Seen {
                resume: Some(resume),
                return_gate: Some(gate),
                ..at(Stage::MustReturn, seat)
            },
            Phase::Ended => Seen {
                to_move: None,
                ..at(Stage::Ended, me)
            },
        }
    }
}

/// The one-hot index of a [`Resume`].
pub(super) fn resume_index(r: Resume) -> usize {
    match r {
        Resume::Turn => 0,
        Resume::Drawn => 1,
    }
}

/// `seat` as the number of places after the viewing seat (0 = the viewer).
pub(super) fn rel(view: &ChanView<'_>, seat: Seat) -> usize {
    let n = view.players();
    (seat as usize + n - view.seat() as usize) % n
}

/// The seat `k` places after the viewing seat.
pub(super) fn abs(view: &ChanView<'_>, k: usize) -> Seat {
    ((view.seat() as usize + k) % view.players()) as Seat
}

/// One segment of a layout: `fixed + per_seat · players` entries, written by `fill` into a
/// zeroed slice of exactly that length.
pub(super) struct Spec<F> {
    /// The segment's name.
    pub name: &'static str,
    /// Entries independent of the table size.
    pub fixed: usize,
    /// Entries per seat (blocks in relative seat order).
    pub(crate) per_seat: usize,
    /// What each entry holds (`Segment::about`).
    pub about: &'static str,
    /// Writes the segment.
    pub fill: F,
}

impl<F> Spec<F> {
    /// Its length at `players` seats.
    pub(super) fn len(&self, players: usize) -> usize {
        self.fixed + self.per_seat * players
    }
    /// Its [`Segment`] at `players` seats.
    pub(super) fn segment(&self, players: usize) -> Segment {
        Segment {
            name: self.name,
            len: self.len(players),
            about: self.about,
        }
    }
}

/// A table row: the segment `name` of `fixed + per_seat · players` entries, written by `fill`.
pub(super) const fn spec<F>(
    name: &'static str,
    fixed: usize,
    per_seat: usize,
    about: &'static str,
    fill: F,
) -> Spec<F> {
    Spec {
        name,
        fixed,
        per_seat,
        about,
        fill,
    }
}

/// The layout of a table of specs at `players` seats.
pub(super) fn layout<F>(specs: &[Spec<F>], players: usize) -> Vec<Segment> {
    specs.iter().map(|s| s.segment(players)).collect()
}

/// Runs every spec of `specs` over its slice of `out` (zeroed first). Panics when `out` is not
/// the layout's length.
pub(super) fn write_all<F>(
    specs: &[Spec<F>],
    players: usize,
    out: &mut [f32],
    mut fill: impl FnMut(&F, &mut [f32]),
) {
    let mut at = 0;
    for s in specs {
        let seg = &mut out[at..at + s.len(players)];
        seg.fill(0.0);
        fill(&s.fill, seg);
        at += seg.len();
    }
    assert_eq!(at, out.len(), "the output has the layout's length");
}

/// Writes counts per identity.
pub(super) fn put_counts(out: &mut [f32], counts: &[u8; IDENTITIES]) {
    for (o, &c) in out.iter_mut().zip(counts) {
        *o = f32::from(c);
    }
}

/// Writes a set of identities as 0/1.
pub(super) fn put_mask(out: &mut [f32], mask: u32) {
    for (i, o) in out.iter_mut().enumerate().take(IDENTITIES) {
        *o = (mask >> i & 1) as f32;
    }
}

/// Sets entry `i` to 1, if any.
pub(super) fn one_hot(out: &mut [f32], i: Option<usize>) {
    if let Some(i) = i {
        out[i] = 1.0;
    }
}
