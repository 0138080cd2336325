//! The tensor of a multi-pack view (sisepai21, dirtyking26): a table of rows, each a segment of
//! the layout with its writer (`docs/observations/tusac.md` lists them with their lengths).
//! Copies per card identity go up to `4 × decks` (8, 12 or 16).

use super::table::{self, Row as TableRow};
use crate::game::{Seat, SeatView};
use crate::games::observe::Segment;
use crate::games::tusac::card::CARD_TYPES;
use crate::games::tusac::packs::PacksView;

/// A writer of a whole run.
type Once = fn(&PacksView<'_>, &mut [f32]);
/// A writer of one seat's run.
type PerSeat = fn(&PacksView<'_>, Seat, &mut [f32]);
/// A row of the multi-pack table.
type Row = TableRow<Once, PerSeat>;

const C: usize = CARD_TYPES;

/// The rows, in layout order.
const ROWS: &[Row] = &[
    Row::once(
        "own_hand",
        C,
        "copies of each card identity in this seat's hand (0 to 4 x decks)",
        |v, o| table::counts(o, v.hand()),
    ),
    Row::once(
        "own_face_down",
        C,
        "copies of each card identity in this seat's face-down block (0 or 4)",
        |v, o| v.face_down().for_each(|c| o[c.index()] = 4.0),
    ),
    Row::once(
        "unseen",
        C,
        "copies of each card identity this seat has not seen: other hands and face-down blocks, the stock's unknown cards (0 to 4 x decks)",
        |v, o| table::counts(o, &v.unseen()),
    ),
    Row::once(
        "dead",
        C,
        "copies of each card identity in the dead pile (0 to 4 x decks)",
        |v, o| table::counts(o, v.dead()),
    ),
    Row::once(
        "stock_public",
        C,
        "copies of each card identity known to be in the stock: the cards looked at for the double rank not yet drawn, or after a reshuffle the whole stock (0 to 4 x decks)",
        |v, o| table::counts(o, &v.known_stock()),
    ),
    Row::once(
        "active_card",
        C,
        "1 at the active card's identity, 0 elsewhere (all 0 without an active card)",
        |v, o| table::active_card(o, v.active()),
    ),
    Row::seats(
        "melded",
        C,
        "per relative seat: copies of each card identity in its melded sets (0 to 4 x decks)",
        |v, x, o| v.melded(x).iter().for_each(|s| table::cards(o, s.cards())),
    ),
    Row::seats(
        "discarded",
        C,
        "per relative seat: copies of each card identity it has discarded, taken later or not (0 to 4 x decks)",
        |v, x, o| table::counts(o, v.discarded(x)),
    ),
    Row::seats(
        "hand_size",
        1,
        "per relative seat: cards in its hand (0-26)",
        |v, x, o| o[0] = v.hand_len(x) as f32,
    ),
    Row::seats(
        "face_down_size",
        1,
        "per relative seat: cards in its face-down block (a multiple of 4, 0-24)",
        |v, x, o| o[0] = v.face_down_len(x) as f32,
    ),
    Row::seats(
        "asked",
        1,
        "per relative seat: 1 when this seat knows the open claim window asks it (the turn player of a declaration window, and this seat when asked), else 0",
        |v, x, o| o[0] = table::flag(v.asked().contains(&x)),
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
        "cards left in the stock, its public part included (0-287)",
        |v, o| o[0] = v.stock_len() as f32,
    ),
    Row::once(
        "reshuffles_left",
        1,
        "dead-pile reshuffles still allowed (§4.7, 0-1)",
        |v, o| o[0] = f32::from(v.reshuffles_left()),
    ),
    Row::once(
        "double_rank",
        7,
        "one-hot of the double rank, K A E R C H P (all 0 without one: sisepai21)",
        |v, o| table::one_hot(o, v.double_rank().map(|r| r as usize)),
    ),
    Row::once(
        "own_loose",
        1,
        "loose cards of this seat's hand in its best partition (§3.3, 0-26)",
        |v, o| o[0] = f32::from(v.facts().loose),
    ),
    Row::once(
        "own_hand_points",
        1,
        "points of that partition's hand sets (§2.5, dealt values, doubling applied; 0 or more)",
        |v, o| o[0] = v.facts().points as f32,
    ),
    Row::once(
        "own_fixed_points",
        1,
        "points of this seat's face-down and melded sets (§2.5, doubling applied; 0 or more)",
        |v, o| o[0] = v.fixed_points() as f32,
    ),
];

/// The layout of a multi-pack table of `players`.
pub(super) fn layout(players: usize) -> Vec<Segment> {
    table::layout(ROWS, players)
}

/// Writes the view's tensor into `out` (the layout's length). Allocates nothing.
pub(super) fn tensor(v: &PacksView<'_>, out: &mut [f32]) {
    let at = (v.seat(), usize::from(v.options().players));
    table::write(ROWS, at, out, |f, o| f(v, o), |f, x, o| f(v, x, o));
}
