//! What the observation, the tensor and the action vectors share: the one-hot names and indices
//! of combination types, phases, standings and actions, seats relative to the viewer, and the
//! writers of card and seat entries.

use crate::game::{Seat, SeatView};
use crate::games::tienlen::card_set::Cards;
use crate::games::tienlen::combo::ComboType;
use crate::games::tienlen::types::{Action, Phase};
use crate::games::tienlen::TienLenView;

/// The combination types as the one-hot and the JSON name them: single, pair, triple, quad,
/// straights of 3 to 12 cards (a straight lies within 3..A), pair sequences of 3 to 6 pairs (13
/// cards hold at most 6 pairs).
pub(super) const KIND_NAMES: [&str; 18] = [
    "single",
    "pair",
    "triple",
    "quad",
    "straight3",
    "straight4",
    "straight5",
    "straight6",
    "straight7",
    "straight8",
    "straight9",
    "straight10",
    "straight11",
    "straight12",
    "pair_sequence3",
    "pair_sequence4",
    "pair_sequence5",
    "pair_sequence6",
];

/// The public phases as the one-hot and the JSON name them (§4.2): `lead`, `respond`,
/// `oot_window` (only ever this seat's own out-of-turn decision) and `over`.
pub(super) const PHASE_NAMES: [&str; 4] = ["lead", "respond", "oot_window", "over"];

/// A seat's standing as the one-hot and the JSON name it: `playing` (holds cards and is in play;
/// at the end of a game the last active seat keeps it), `finished` (emptied its hand, §4.3.3),
/// `cong` (frozen, §6.2) or `left` (left play holding a lone 2, §4.3 v2).
pub(super) const STATUS_NAMES: [&str; 4] = ["playing", "finished", "cong", "left"];

/// The action types as the one-hot and the JSON name them (§4.2).
pub(super) const ACTION_NAMES: [&str; 4] = ["play", "pass", "chop", "decline"];

/// Index of a combination type in [`KIND_NAMES`].
pub(super) const fn kind_index(kind: ComboType) -> usize {
    match kind {
        ComboType::Single => 0,
        ComboType::Pair => 1,
        ComboType::Triple => 2,
        ComboType::Quad => 3,
        ComboType::Straight(n) => 4 + (n as usize - 3),
        ComboType::PairSequence(k) => 14 + (k as usize - 3),
    }
}

/// Index of a phase in [`PHASE_NAMES`] and the seat it waits for.
pub(super) const fn phase_index(phase: Phase) -> (usize, Option<Seat>) {
    match phase {
        Phase::Lead(s) => (0, Some(s)),
        Phase::Respond(s) => (1, Some(s)),
        Phase::OotWindow(s) => (2, Some(s)),
        Phase::Over => (3, None),
    }
}

/// Index of an action in [`ACTION_NAMES`] and the cards it moves.
pub(super) const fn action_index(action: Action) -> (usize, Cards) {
    match action {
        Action::Play(x) => (0, x),
        Action::Pass => (1, Cards::EMPTY),
        Action::Chop(x) => (2, x),
        Action::Decline => (3, Cards::EMPTY),
    }
}

/// Index of a seat's standing in [`STATUS_NAMES`].
pub(super) fn status_index(view: &TienLenView<'_>, seat: Seat) -> usize {
    if view.finished().contains(&seat) {
        1
    } else if view.cong() >> seat & 1 == 1 {
        2
    } else if view.leavers().contains(&seat) {
        3
    } else {
        0
    }
}

/// The seat `k` places after this one.
pub(super) fn seat_at(view: &TienLenView<'_>, k: usize) -> Seat {
    ((view.seat() as usize + k) % view.players()) as Seat
}

/// How many places after this one `seat` sits (0 for this seat).
pub(super) fn offset(view: &TienLenView<'_>, seat: Seat) -> usize {
    let n = view.players();
    (seat as usize + n - view.seat() as usize) % n
}

/// Sets entry `key` of each card of `cards` to 1.
pub(super) fn put_cards(out: &mut [f32], cards: Cards) {
    for c in cards {
        out[c.key() as usize] = 1.0;
    }
}

/// Sets the relative-seat entry of `seat`, if any, to 1.
pub(super) fn put_seat(view: &TienLenView<'_>, out: &mut [f32], seat: Option<Seat>) {
    if let Some(s) = seat {
        out[offset(view, s)] = 1.0;
    }
}
