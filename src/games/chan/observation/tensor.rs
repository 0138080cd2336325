//! The view tensor: one table of segments ([`TENSOR`]), each with the function that writes it.
//! Cards are counted over the 25 identities in canonical index order (§1.1: `2v 2n 2s 3v … 9s
//! ch`); per-seat segments hold one block per seat in relative order (block `k` is the seat `k`
//! places after the viewer), so the tensor is the same function of every seat's view.

use super::shared::{abs, one_hot, put_counts, put_mask, rel, resume_index, spec, Seen, Spec};
use crate::game::Seat;
use crate::games::chan::card::IDENTITIES;
use crate::games::chan::rules::{MeldKind, MeldSource};
use crate::games::chan::types::{Origin, Via};
use crate::games::chan::{ChanView, Hand};

/// What every segment's writer reads: the view and what is computed once per tensor.
pub(super) struct Ctx<'a> {
    /// The view.
    pub view: ChanView<'a>,
    /// The phase as the seat sees it.
    pub seen: Seen,
}

/// A segment writer.
type Fill = fn(&Ctx<'_>, &mut [f32]);

/// Writes one block of `width` entries per seat, in relative seat order.
fn per_seat(c: &Ctx<'_>, out: &mut [f32], f: impl Fn(Seat, &mut [f32])) {
    let width = out.len() / c.view.players();
    for (k, block) in out.chunks_exact_mut(width).enumerate() {
        f(abs(&c.view, k), block);
    }
}

/// The one-hot of a seat in relative order.
fn seat_hot(c: &Ctx<'_>, out: &mut [f32], seat: Option<Seat>) {
    one_hot(out, seat.map(|s| rel(&c.view, s)));
}

/// The ranks (bit `rank − 2`) of the Cạ melds a seat ate.
fn ca_ranks(c: &Ctx<'_>, seat: Seat) -> u8 {
    let melds = c.view.melds(seat).iter();
    let ca = melds.filter(|m| m.kind == MeldKind::Ca);
    ca.fold(0, |acc, m| acc | m.taken.rank_index().map_or(0, |r| 1 << r))
}

/// The identities a seat took from the table (`Taken`: eats and chíus).
fn taken(c: &Ctx<'_>, seat: Seat) -> u32 {
    let melds = c.view.melds(seat).iter();
    let from_table = melds.filter(|m| m.source != MeldSource::ThienKhai);
    from_table.fold(0, |acc, m| acc | m.taken.bit())
}

/// The one-hot index of an origin.
fn origin_index(o: Origin) -> usize {
    match o {
        Origin::Stock => 0,
        Origin::Discard => 1,
        Origin::Return => 2,
    }
}

/// The one-hot index of a `via`.
fn via_index(v: Via) -> usize {
    match v {
        Via::Discard => 0,
        Via::Draw => 1,
        Via::PassDrawn => 2,
        Via::MustReturn => 3,
    }
}

const I: usize = IDENTITIES;

/// The view tensor's segments, in order.
#[rustfmt::skip]
pub(super) const TENSOR: &[Spec<Fill>] = &[
    spec("own_hand", I, 0, "copies of each identity in this seat's concealed hand, 0..4",
        |c, o| put_counts(o, c.view.own_hand().counts())),
    spec("unseen", I, 0, "copies of each identity this seat has not seen (the other hands and the stock), 0..4",
        |c, o| put_counts(o, &c.view.unseen())),
    spec("own_declined", I, 0, "1 if the identity is in this seat's Dec (let go at its gate while a take was legal: no discard D1, no eat E2), else 0",
        |c, o| put_mask(o, c.view.own().dec)),
    spec("own_u_forfeit", 1, 0, "1 if this seat declined an ù under u_pass_forfeit (it may not ù again), else 0",
        |c, o| o[0] = f32::from(u8::from(c.view.own().forfeit))),
    spec("hand_sizes", 0, 1, "entry k: concealed cards of the seat k places after this one, 0..20",
        |c, o| per_seat(c, o, |s, b| b[0] = c.view.hand_len(s) as f32)),
    spec("exposed_by_seat", 0, I, "block k: copies of each identity in the melds of the seat k places after this one, 0..4",
        |c, o| per_seat(c, o, |s, b| {
            let mut h = Hand::EMPTY;
            c.view.melds(s).iter().for_each(|m| h = h.plus(m.cards()));
            put_counts(b, h.counts())
        })),
    spec("taken_by_seat", 0, I, "block k: 1 if that seat took the identity from the table (an eat or a chíu: Taken), else 0",
        |c, o| per_seat(c, o, |s, b| put_mask(b, taken(c, s)))),
    spec("ca_ranks_by_seat", 0, 8, "block k: entry r is 1 if that seat ate a Cạ of rank r + 2 (EatenCa), else 0",
        |c, o| per_seat(c, o, |s, b| {
            let ranks = ca_ranks(c, s);
            b.iter_mut().enumerate().for_each(|(r, x)| *x = f32::from(ranks >> r & 1));
        })),
    spec("discards_by_seat", 0, I, "block k: 1 if that seat discarded or returned the identity (Dsc), else 0",
        |c, o| per_seat(c, o, |s, b| put_mask(b, c.view.discards(s)))),
    spec("passed_by_seat", 0, I, "block k: 1 if the identity lay live at that seat's gate and the seat let it go (draw, pass, end), else 0",
        |c, o| per_seat(c, o, |s, b| put_mask(b, c.view.offers(s)))),
    spec("dead", I, 0, "copies of each identity dead (let go by its gate's owner), 0..4",
        |c, o| put_counts(o, c.view.dead().counts())),
    spec("live_card", I, 0, "1 at the live card's identity, all 0 when no card is live",
        |c, o| one_hot(o, c.view.live().map(|l| l.card.index()))),
    spec("live_gate", 0, 1, "entry k: 1 if the live card lies at the gate of the seat k places after this one",
        |c, o| seat_hot(c, o, c.view.live().map(|l| l.gate))),
    spec("live_releaser", 0, 1, "entry k: 1 if the seat k places after this one put the live card there (all 0 for the owner's own draw or no live card)",
        |c, o| seat_hot(c, o, c.view.live().and_then(|l| l.releaser))),
    spec("live_origin", 3, 0, "one-hot of the live card's origin: stock, discard, return (all 0 without one)",
        |c, o| one_hot(o, c.view.live().map(|l| origin_index(l.origin)))),
    spec("live_via", 4, 0, "one-hot of the step that put the live card at its gate: discard, draw, pass_drawn, must_return (all 0 without one)",
        |c, o| one_hot(o, c.view.live().map(|l| via_index(l.via)))),
    spec("phase", 8, 0, "one-hot of the phase as this seat sees it: opening, u_window, chiu_window, turn, drawn, must_discard, must_return, ended",
        |c, o| one_hot(o, Some(c.seen.stage as usize))),
    spec("to_move", 0, 1, "entry k: 1 if the seat k places after this one decides, as this seat sees it (all 0 once the hand is over)",
        |c, o| seat_hot(c, o, c.seen.to_move)),
    spec("resume", 2, 0, "one-hot of what the gate owner does next in this seat's ù/chíu window or a must_return: turn, drawn (else all 0)",
        |c, o| one_hot(o, c.seen.resume.map(resume_index))),
    spec("return_gate", 0, 1, "entry k: 1 if the card of a must_return goes back to the gate of the seat k places after this one",
        |c, o| seat_hot(c, o, c.seen.return_gate)),
    spec("first_player", 0, 1, "entry k: 1 if the seat k places after this one is the first player F (cái)",
        |c, o| seat_hot(c, o, Some(c.view.setup().first))),
    spec("prev_winner", 0, 1, "entry k: 1 if the seat k places after this one won the previous hand (all 0 if none)",
        |c, o| seat_hot(c, o, c.view.setup().prev_winner)),
    spec("stock_size", 1, 0, "cards left in the stock, 0..61",
        |c, o| o[0] = c.view.stock_len() as f32),
];

/// Writes the tensor of `view` into `out` (the layout's length). Allocates nothing.
pub(super) fn tensor(view: &ChanView<'_>, out: &mut [f32]) {
    let c = Ctx {
        view: *view,
        seen: Seen::of(view),
    };
    super::shared::write_all(TENSOR, view.players(), out, |f, seg| f(&c, seg));
}
