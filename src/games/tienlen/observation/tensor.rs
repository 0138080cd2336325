//! The view's tensor: one table of segments ([`TENSOR`]), each with its length for the table's
//! seat count and the function that writes it, over the card keys and the relative seats.

use super::shared::{kind_index, phase_index, put_cards, put_seat, seat_at, status_index};
use crate::game::Seat;
use crate::games::observe::Segment;
use crate::games::tienlen::card::DECK_SIZE;
use crate::games::tienlen::card_set::Cards;
use crate::games::tienlen::TienLenView;

// [`TENSOR`] has one `played_k` segment per seat of the largest table (§2.1).
const _: () = assert!(crate::games::tienlen::types::MAX_PLAYERS == 4);

/// How long a segment is for `n` players.
#[derive(Copy, Clone)]
enum Len {
    /// One entry per card identity (52).
    Cards,
    /// `k` entries per seat (`k · n`).
    PerSeat(usize),
    /// A fixed number of entries.
    Fixed(usize),
    /// 52 entries when the table has a seat `k` places after this one, else none.
    CardsOfSeat(usize),
}

impl Len {
    const fn of(self, n: usize) -> usize {
        match self {
            Len::Cards => DECK_SIZE,
            Len::PerSeat(k) => k * n,
            Len::Fixed(k) => k,
            Len::CardsOfSeat(k) if k < n => DECK_SIZE,
            Len::CardsOfSeat(_) => 0,
        }
    }
}

/// One segment of the view's tensor: its name, length, meaning and how to fill it (the slice
/// is zeroed first).
struct Spec {
    name: &'static str,
    len: Len,
    about: &'static str,
    fill: fn(&TienLenView<'_>, &mut [f32]),
}

/// Writes `f(seat)` at each seat's relative entry.
fn per_seat(view: &TienLenView<'_>, out: &mut [f32], f: impl Fn(Seat) -> f32) {
    for (k, x) in out.iter_mut().enumerate() {
        *x = f(seat_at(view, k));
    }
}

/// The cards the seat `K` places after this one has played.
fn played<const K: usize>(view: &TienLenView<'_>, out: &mut [f32]) {
    put_cards(out, view.played_by(seat_at(view, K)));
}
/// The view's tensor, segment by segment (the layout is this table with the empty per-seat
/// segments of smaller tables left out).
#[rustfmt::skip]
const TENSOR: &[Spec] = &[
    Spec { name: "own_hand", len: Len::Cards,
        about: "this seat's hand: 1 per card held, by card key (3s..2h); 0..1",
        fill: |v, o| put_cards(o, v.own_hand()) },
    Spec { name: "unseen", len: Len::Cards,
        about: "cards this seat has not seen (other hands and, with fewer than 4 players, the \
                cards set aside), by card key; 0..1",
        fill: |v, o| put_cards(o, v.unseen()) },
    Spec { name: "played_0", len: Len::CardsOfSeat(0),
        about: "cards this seat has played, by card key; 0..1",
        fill: played::<0> },
    Spec { name: "played_1", len: Len::CardsOfSeat(1),
        about: "cards played by the seat 1 place after this one, by card key; 0..1",
        fill: played::<1> },
    Spec { name: "played_2", len: Len::CardsOfSeat(2),
        about: "cards played by the seat 2 places after this one (3-4 players), by card key; 0..1",
        fill: played::<2> },
    Spec { name: "played_3", len: Len::CardsOfSeat(3),
        about: "cards played by the seat 3 places after this one (4 players), by card key; 0..1",
        fill: played::<3> },
    Spec { name: "top_cards", len: Len::Cards,
        about: "the combination to beat (all 0 when leading), by card key; 0..1",
        fill: |v, o| put_cards(o, v.top().map_or(Cards::EMPTY, |(b, _)| b.cards)) },
    Spec { name: "required", len: Len::Cards,
        about: "the card the game's first play must contain (§2.5; all 0 once played or in a \
                normal game), by card key; 0..1",
        fill: |v, o| put_cards(o, v.required().map_or(Cards::EMPTY, Cards::one)) },
    Spec { name: "hand_sizes", len: Len::PerSeat(1),
        about: "cards each seat holds, by relative seat (entry k: k places after this one); \
                cards, 0..13",
        fill: |v, o| per_seat(v, o, |s| v.hand_len(s) as f32) },
    Spec { name: "passed", len: Len::PerSeat(1),
        about: "1 when the seat passed in this trick, by relative seat; 0..1",
        fill: |v, o| per_seat(v, o, |s| f32::from(v.passed() >> s & 1)) },
    Spec { name: "status", len: Len::PerSeat(4),
        about: "each seat's standing as a one-hot of 4 (playing, finished, cong, left), seat k \
                at entries 4k..4k+4, by relative seat; 0..1",
        fill: |v, o| {
            for (k, one_hot) in o.chunks_mut(4).enumerate() {
                one_hot[status_index(v, seat_at(v, k))] = 1.0;
            }
        } },
    Spec { name: "places", len: Len::PerSeat(1),
        about: "each seat's place so far (0 = not placed, 1 = first), by relative seat; 0..players",
        fill: |v, o| per_seat(v, o, |s| f32::from(v.places()[s as usize])) },
    Spec { name: "phase", len: Len::Fixed(4),
        about: "the public phase, one-hot: lead, respond, oot_window (this seat's own \
                out-of-turn chance), over; 0..1",
        fill: |v, o| o[phase_index(v.phase()).0] = 1.0 },
    Spec { name: "to_move", len: Len::PerSeat(1),
        about: "the seat the public phase waits for, one-hot by relative seat (all 0 when the \
                game is over); 0..1",
        fill: |v, o| put_seat(v, o, phase_index(v.phase()).1) },
    Spec { name: "top_kind", len: Len::Fixed(18),
        about: "type of the combination to beat, one-hot: single, pair, triple, quad, \
                straight3..straight12, pair_sequence3..pair_sequence6 (all 0 when leading); 0..1",
        fill: |v, o| if let Some((b, _)) = v.top() { o[kind_index(b.kind)] = 1.0 } },
    Spec { name: "top_owner", len: Len::PerSeat(1),
        about: "owner of the combination to beat, one-hot by relative seat (all 0 when \
                leading); 0..1",
        fill: |v, o| put_seat(v, o, v.top().map(|(_, s)| s)) },
    Spec { name: "chain", len: Len::Fixed(3),
        about: "the trick's chặt chain (§7.4): its links (count, 0 without a chain, at most 13), \
                its value (half-cược, the sum of the chopped plays' values of §3.3, 0 up) and 1 \
                when the last victim emptied his hand with the chopped play (0..1)",
        fill: |v, o| {
            let c = v.chain();
            o[0] = f32::from(c.links);
            o[1] = c.total as f32;
            o[2] = f32::from(c.victim_emptied);
        } },
    Spec { name: "chain_victim", len: Len::PerSeat(1),
        about: "the chain's last victim, one-hot by relative seat (all 0 without a chain); 0..1",
        fill: |v, o| put_seat(v, o, (v.chain().links > 0).then(|| v.chain().victim)) },
    Spec { name: "initial", len: Len::Fixed(1),
        about: "1 in an initial game (§2.4), 0 in a normal game; 0..1",
        fill: |v, o| o[0] = f32::from(v.initial()) },
];
/// The tensor layout for `n` players.
pub(super) fn layout(n: usize) -> Vec<Segment> {
    TENSOR
        .iter()
        .map(|s| Segment {
            name: s.name,
            len: s.len.of(n),
            about: s.about,
        })
        .filter(|s| s.len > 0)
        .collect()
}

/// Fills `out` table by table; no allocation.
pub(super) fn tensor(view: &TienLenView<'_>, out: &mut [f32]) {
    let n = view.players();
    let mut at = 0;
    for spec in TENSOR {
        let len = spec.len.of(n);
        if len == 0 {
            continue;
        }
        let seg = &mut out[at..at + len];
        seg.fill(0.0);
        (spec.fill)(view, seg);
        at += len;
    }
    assert_eq!(at, out.len(), "the tensor's buffer has the layout's length");
}
