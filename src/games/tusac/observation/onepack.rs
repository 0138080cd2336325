//! The tensor of a one-pack view (classic, 4sac): a table of rows, each a segment of the layout
//! with its writer (`docs/observations/tusac.md` lists them with their lengths).

use super::table::{self, Row as TableRow};
use crate::game::{Seat, SeatView};
use crate::games::observe::Segment;
use crate::games::tusac::card::CARD_TYPES;
use crate::games::tusac::onepack::trash::trash;
use crate::games::tusac::onepack::view::OnePackView;

/// A writer of a whole run.
type Once = fn(&OnePackView<'_>, &mut [f32]);
/// A writer of one seat's run.
type PerSeat = fn(&OnePackView<'_>, Seat, &mut [f32]);
/// A row of the one-pack table.
type Row = TableRow<Once, PerSeat>;

const C: usize = CARD_TYPES;

/// The rows, in layout order.
const ROWS: &[Row] = &[
    Row::once(
        "own_hand",
        C,
        "copies of each card identity in this seat's private block (0-3)",
        |v, o| table::hand(o, v.own_hand()),
    ),
    Row::once(
        "unseen",
        C,
        "copies of each card identity this seat has not seen: other private blocks and the stock (0-4)",
        |v, o| table::counts(o, &v.unseen()),
    ),
    Row::once(
        "dead",
        C,
        "copies of each card identity in the dead pile (0-4)",
        |v, o| table::counts(o, v.dead()),
    ),
    Row::once(
        "active_card",
        C,
        "1 at the active card's identity, 0 elsewhere (all 0 without an active card)",
        |v, o| table::active_card(o, v.active()),
    ),
    Row::seats(
        "public_sets",
        C,
        "per relative seat: copies of each card identity in its public sets (0-4)",
        |v, x, o| v.public_sets(x).iter().for_each(|s| table::cards(o, s.cards())),
    ),
    Row::seats(
        "discarded",
        C,
        "per relative seat: copies of each card identity it has discarded, taken later or not (0-3)",
        |v, x, o| table::hand(o, v.discarded(x)),
    ),
    Row::seats(
        "hand_size",
        1,
        "per relative seat: cards in its private block (0-21)",
        |v, x, o| o[0] = v.hand_len(x) as f32,
    ),
    Row::seats(
        "khaps",
        1,
        "per relative seat: its Khaps (private triples, 0-7); public in classic, in 4sac 0 for every other seat",
        |v, x, o| o[0] = v.khaps(x) as f32,
    ),
    Row::once(
        "active_source",
        3,
        "one-hot of the active card's source: discard, own_draw, passed_draw (all 0 without one)",
        |v, o| table::active_source(o, v.active()),
    ),
    Row::seats(
        "active_owner",
        1,
        "per relative seat: 1 when it owns the active card (its discarder or drawer), else 0",
        |v, x, o| o[0] = table::flag(v.active().is_some_and(|a| a.owner == x)),
    ),
    Row::once(
        "active_worst",
        1,
        "1 when the active card is flagged a worst card (§5; 1 for every draw), 0 otherwise or without one",
        |v, o| o[0] = table::flag(v.active().is_some_and(|a| a.worst)),
    ),
    Row::once(
        "phase",
        4,
        "one-hot of the phase: must_discard, turn_option, claim, over",
        |v, o| table::one_hot(o, Some(table::phase_index(v.phase()))),
    ),
    Row::seats(
        "to_move",
        1,
        "per relative seat: 1 when it is to decide now, else 0 (all 0 once the game is over)",
        |v, x, o| o[0] = table::flag(v.to_move() == Some(x)),
    ),
    Row::once(
        "stock",
        1,
        "cards left in the stock (0-71)",
        |v, o| o[0] = v.stock_len() as f32,
    ),
    Row::once(
        "own_trash",
        1,
        "the trash of this seat's private block (§3.1, 0-21)",
        |v, o| o[0] = f32::from(trash(v.own_hand())),
    ),
];

/// The layout of a one-pack table of `players`.
pub(super) fn layout(players: usize) -> Vec<Segment> {
    table::layout(ROWS, players)
}

/// Writes the view's tensor into `out` (the layout's length). Allocates nothing.
pub(super) fn tensor(v: &OnePackView<'_>, out: &mut [f32]) {
    let at = (v.seat(), v.players());
    table::write(ROWS, at, out, |f, o| f(v, o), |f, x, o| f(v, x, o));
}
