//! The observation as JSON (`docs/observations/tienlen.md`): the common keys, each seat's public
//! record, the combination to beat, the chặt chain and this seat's hand. Cards are written in the
//! game's notation (`3s`, `Th`), lists in canonical order.

use super::shared::{kind_index, phase_index, status_index, KIND_NAMES, PHASE_NAMES, STATUS_NAMES};
use crate::game::{Game, Seat, SeatView};
use crate::games::observe::{write_json, Text};
use crate::games::tienlen::card::{Card, DECK_SIZE};
use crate::games::tienlen::card_set::Cards;
use crate::games::tienlen::types::HAND_SIZE;
use crate::games::tienlen::{TienLen, TienLenView};
use serde::{Serialize, Serializer};

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
    required: Option<Text<Card>>,
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

/// Writes the observation of `view` in `game` to `out`.
pub(super) fn write(game: &TienLen, view: &TienLenView<'_>, out: &mut Vec<u8>) {
    write_json(out, &Observation::of(game, view));
}
