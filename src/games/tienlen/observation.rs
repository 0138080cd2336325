//! Tiến Lên's encodings of a seat's view for programs outside the engine
//! (`docs/observations/tienlen.md`): the observation as JSON, the view's tensor and one vector per
//! candidate action. Each reads the view's accessors only, so it is a function of what the seat
//! may see.
//!
//! Card identity order, in every card segment: the card key of §1.5, `key = 4·rank + suit`, so
//! entry 0 is `3s`, 1 `3c`, 2 `3d`, 3 `3h`, 4 `4s` … 51 `2h`. Seat segments are in relative
//! order: entry (or segment) `k` is the seat `k` places after this one in play order, `k = 0`
//! being this seat, so the tensor reads the same from every seat.
//!
//! The tensor and the action vectors are written from the tables [`TENSOR`] and [`ACTION`]
//! (name, length, meaning, filler), which also give the layouts, so layout and contents cannot
//! drift apart; writing them allocates nothing.

use super::card::DECK_SIZE;
use super::cards::Cards;
use super::combo::{classify, is_chat, ComboType};
use super::types::{Action, Phase, HAND_SIZE};
use super::{TienLen, TienLenView};
use crate::game::{Game, Seat, SeatView};
use crate::games::observe::{write_json, ActionOf, Observe, Segment, Text, ViewOf};
use serde::{Serialize, Serializer};

// [`TENSOR`] has one `played_k` segment per seat of the largest table (§2.1).
const _: () = assert!(super::types::MAX_PLAYERS == 4);

/// The combination types as the one-hot and the JSON name them: single, pair, triple, quad,
/// straights of 3 to 12 cards (a straight lies within 3..A), pair sequences of 3 to 6 pairs (13
/// cards hold at most 6 pairs).
const KIND_NAMES: [&str; 18] = [
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
const PHASE_NAMES: [&str; 4] = ["lead", "respond", "oot_window", "over"];

/// A seat's standing as the one-hot and the JSON name it: `playing` (holds cards and is in play;
/// at the end of a game the last active seat keeps it), `finished` (emptied its hand, §4.3.3),
/// `cong` (frozen, §6.2) or `left` (left play holding a lone 2, §4.3 v2).
const STATUS_NAMES: [&str; 4] = ["playing", "finished", "cong", "left"];

/// The action types as the one-hot and the JSON name them (§4.2).
const ACTION_NAMES: [&str; 4] = ["play", "pass", "chop", "decline"];

/// Index of a combination type in [`KIND_NAMES`].
const fn kind_index(kind: ComboType) -> usize {
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
const fn phase_index(phase: Phase) -> (usize, Option<Seat>) {
    match phase {
        Phase::Lead(s) => (0, Some(s)),
        Phase::Respond(s) => (1, Some(s)),
        Phase::OotWindow(s) => (2, Some(s)),
        Phase::Over => (3, None),
    }
}

/// Index of an action in [`ACTION_NAMES`] and the cards it moves.
const fn action_index(action: Action) -> (usize, Cards) {
    match action {
        Action::Play(x) => (0, x),
        Action::Pass => (1, Cards::EMPTY),
        Action::Chop(x) => (2, x),
        Action::Decline => (3, Cards::EMPTY),
    }
}

/// Index of a seat's standing in [`STATUS_NAMES`].
fn status_index(view: &TienLenView<'_>, seat: Seat) -> usize {
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
fn seat_at(view: &TienLenView<'_>, k: usize) -> Seat {
    ((view.seat() as usize + k) % view.players()) as Seat
}

/// How many places after this one `seat` sits (0 for this seat).
fn offset(view: &TienLenView<'_>, seat: Seat) -> usize {
    let n = view.players();
    (seat as usize + n - view.seat() as usize) % n
}

// ----- the JSON observation -----

/// A card set as a JSON list of card strings, canonical order.
#[derive(Copy, Clone)]
struct CardList(Cards);

impl Serialize for CardList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(Text))
    }
}

/// What is public about one seat (fields in alphabetical order, as JSON writes them).
#[derive(Serialize)]
struct SeatJson {
    hand_size: usize,
    passed: bool,
    place: Option<u8>,
    played: CardList,
    seat: Seat,
    shown: CardList,
    status: &'static str,
}

impl SeatJson {
    /// Seat `s` of `view`.
    fn of(view: &TienLenView<'_>, s: Seat) -> Self {
        let place = view.places()[s as usize];
        SeatJson {
            hand_size: view.hand_len(s),
            passed: view.passed() >> s & 1 == 1,
            place: (place > 0).then_some(place),
            played: CardList(view.played_by(s)),
            seat: s,
            shown: CardList(view.shown(s)),
            status: STATUS_NAMES[status_index(view, s)],
        }
    }
}

/// Every seat's public record, in seat order.
struct Seats<'v, 'a>(&'v TienLenView<'a>);

impl Serialize for Seats<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        s.collect_seq((0..v.players() as Seat).map(|x| SeatJson::of(v, x)))
    }
}

/// The combination to beat and its owner.
#[derive(Serialize)]
struct TopJson {
    cards: CardList,
    kind: &'static str,
    seat: Seat,
}

/// The chặt chain (§7.4).
#[derive(Serialize)]
struct ChainJson {
    links: u8,
    value: u32,
    victim: Seat,
    victim_emptied: bool,
}

/// The observation (fields in alphabetical order, as JSON writes them).
#[derive(Serialize)]
struct Observation<'v, 'a> {
    chain: Option<ChainJson>,
    finished: &'a [Seat],
    game: &'v str,
    hand: CardList,
    initial: bool,
    leader: Seat,
    phase: &'static str,
    players: usize,
    required: Option<Text<super::card::Card>>,
    seat: Seat,
    seats: Seats<'v, 'a>,
    set_aside: usize,
    to_move: Option<Seat>,
    top: Option<TopJson>,
    unseen: CardList,
    variant: &'v str,
}

impl<'v, 'a> Observation<'v, 'a> {
    /// The observation of `view`.
    fn of(game: &'v TienLen, view: &'v TienLenView<'a>) -> Self {
        let n = view.players();
        let (phase, to_move) = phase_index(view.phase());
        let c = view.chain();
        Observation {
            chain: (c.links > 0).then_some(ChainJson {
                links: c.links,
                value: c.total,
                victim: c.victim,
                victim_emptied: c.victim_emptied,
            }),
            finished: view.finished(),
            game: game.name(),
            hand: CardList(view.own_hand()),
            initial: view.initial(),
            leader: view.leader(),
            phase: PHASE_NAMES[phase],
            players: n,
            required: view.required().map(Text),
            seat: view.seat(),
            seats: Seats(view),
            set_aside: DECK_SIZE - HAND_SIZE * n,
            to_move,
            top: view.top().map(|(b, owner)| TopJson {
                cards: CardList(b.cards),
                kind: KIND_NAMES[kind_index(b.kind)],
                seat: owner,
            }),
            unseen: CardList(view.unseen()),
            variant: game.variant(),
        }
    }
}

// ----- fixed-size vectors -----

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

/// One segment of an action's vector (the slice is zeroed first).
struct ActionSpec {
    name: &'static str,
    len: usize,
    about: &'static str,
    fill: fn(&TienLenView<'_>, Action, &mut [f32]),
}

/// Sets entry `key` of each card of `cards` to 1.
fn put_cards(out: &mut [f32], cards: Cards) {
    for c in cards {
        out[c.key() as usize] = 1.0;
    }
}

/// Sets the relative-seat entry of `seat`, if any, to 1.
fn put_seat(view: &TienLenView<'_>, out: &mut [f32], seat: Option<Seat>) {
    if let Some(s) = seat {
        out[offset(view, s)] = 1.0;
    }
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

/// An action's vector, segment by segment.
#[rustfmt::skip]
const ACTION: &[ActionSpec] = &[
    ActionSpec { name: "cards", len: DECK_SIZE,
        about: "the cards the action plays or chops (all 0 for pass and decline), by card key \
                (3s..2h); 0..1",
        fill: |_, a, o| put_cards(o, action_index(a).1) },
    ActionSpec { name: "kind", len: KIND_NAMES.len(),
        about: "type of the combination played, one-hot: single, pair, triple, quad, \
                straight3..straight12, pair_sequence3..pair_sequence6 (all 0 for pass and \
                decline); 0..1",
        fill: |_, a, o| if let Some(c) = classify(action_index(a).1) { o[kind_index(c.kind)] = 1.0 } },
    ActionSpec { name: "action", len: ACTION_NAMES.len(),
        about: "the action, one-hot: play (in turn), pass, chop (out of turn), decline; 0..1",
        fill: |_, a, o| o[action_index(a).0] = 1.0 },
    ActionSpec { name: "chat", len: 1,
        about: "1 when the play is a chặt of the combination to beat (§3.3: it adds a link to \
                the chain), else 0; 0..1",
        fill: |v, a, o| o[0] = f32::from(chops_top(v, a)) },
];

/// True when `action` plays hàng on a top it chặt (§3.3).
fn chops_top(view: &TienLenView<'_>, action: Action) -> bool {
    match (classify(action_index(action).1), view.top()) {
        (Some(a), Some((b, _))) => is_chat(&a, &b, view.options()),
        _ => false,
    }
}

/// The tensor layout for `n` players.
fn tensor_layout(n: usize) -> Vec<Segment> {
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

impl Observe for TienLen {
    fn write_observation(&self, view: &ViewOf<'_, Self>, out: &mut Vec<u8>) {
        write_json(out, &Observation::of(self, view));
    }

    fn tensor_layout(&self) -> Vec<Segment> {
        tensor_layout(self.seats())
    }

    /// Fills `out` table by table; no allocation.
    fn tensor(&self, view: &ViewOf<'_, Self>, out: &mut [f32]) {
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

    fn action_layout(&self) -> Vec<Segment> {
        ACTION
            .iter()
            .map(|s| Segment {
                name: s.name,
                len: s.len,
                about: s.about,
            })
            .collect()
    }

    /// Fills `out` table by table; no allocation.
    fn action_vector(&self, view: &ViewOf<'_, Self>, action: ActionOf<Self>, out: &mut [f32]) {
        let mut at = 0;
        for spec in ACTION {
            let seg = &mut out[at..at + spec.len];
            seg.fill(0.0);
            (spec.fill)(view, action, seg);
            at += spec.len;
        }
        assert_eq!(
            at,
            out.len(),
            "the action vector's buffer has the layout's length"
        );
    }
}
