//! The observation as JSON (`docs/observations/chan.md`): the common keys, each seat's public
//! record, the table and this seat's private record. Cards are written in the game's notation
//! (`7n`, `ch`), lists in canonical order with one string per copy.

use super::shared::{resume_index, Seen, RESUME_NAMES, STAGE_NAMES};
use crate::game::{Seat, SeatView};
use crate::games::chan::card::{Card, IDENTITIES};
use crate::games::chan::rules::{Meld, MeldKind, MeldSource};
use crate::games::chan::types::{Live, Origin, Via};
use crate::games::chan::{ChanView, Hand};
use crate::games::observe::{write_json, Text};
use serde::{Serialize, Serializer};

/// Cards with repeats as a JSON list, canonical order.
struct CardList<'h>(&'h Hand);

impl Serialize for CardList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.cards().map(Text))
    }
}

/// A set of identities as a JSON list, canonical order.
struct SetList(u32);

impl Serialize for SetList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let present = (0..IDENTITIES).filter(|&i| self.0 >> i & 1 == 1);
        s.collect_seq(present.map(|i| Text(Card::from_index(i))))
    }
}

/// A meld (fields in alphabetical order, as JSON writes them).
#[derive(Serialize)]
struct MeldJson {
    cards: Hand,
    kind: &'static str,
    source: &'static str,
    taken: Option<Text<Card>>,
}

/// A hand is written as its cards, canonical order, a string per copy.
impl Serialize for Hand {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        CardList(self).serialize(s)
    }
}

impl MeldJson {
    /// Meld `m`: kind, source, cards, and the card taken from the table (none for Thiên khai).
    fn of(m: &Meld) -> Self {
        let kind = match m.kind {
            MeldKind::Chan => "chan",
            MeldKind::Ca => "ca",
            MeldKind::Quad => "quad",
        };
        let (source, taken) = match m.source {
            MeldSource::Eat => ("eat", Some(m.taken)),
            MeldSource::Chiu => ("chiu", Some(m.taken)),
            MeldSource::ThienKhai => ("thien_khai", None),
        };
        MeldJson {
            cards: m.cards(),
            kind,
            source,
            taken: taken.map(Text),
        }
    }
}

/// A seat's melds.
struct Melds<'m>(&'m [Meld]);

impl Serialize for Melds<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(MeldJson::of))
    }
}

/// The public record of a seat.
#[derive(Serialize)]
struct SeatJson<'m> {
    discards: SetList,
    hand_size: usize,
    melds: Melds<'m>,
    passed: SetList,
    seat: Seat,
}

/// Every seat's public record, in seat order.
struct Seats<'v, 'a>(&'v ChanView<'a>);

impl Serialize for Seats<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        s.collect_seq((0..v.players() as Seat).map(|seat| SeatJson {
            discards: SetList(v.discards(seat)),
            hand_size: v.hand_len(seat),
            melds: Melds(v.melds(seat)),
            passed: SetList(v.offers(seat)),
            seat,
        }))
    }
}

/// The live card (§2.6).
#[derive(Serialize)]
struct LiveJson {
    card: Text<Card>,
    gate: Seat,
    origin: &'static str,
    releaser: Option<Seat>,
    via: &'static str,
}

impl LiveJson {
    /// The live card `l` with its fields.
    fn of(l: &Live) -> Self {
        let origin = match l.origin {
            Origin::Stock => "stock",
            Origin::Discard => "discard",
            Origin::Return => "return",
        };
        let via = match l.via {
            Via::Discard => "discard",
            Via::Draw => "draw",
            Via::PassDrawn => "pass_drawn",
            Via::MustReturn => "must_return",
        };
        LiveJson {
            card: Text(l.card),
            gate: l.gate,
            origin,
            releaser: l.releaser,
            via,
        }
    }
}

/// The observation (fields in alphabetical order, as JSON writes them).
#[derive(Serialize)]
struct Observation<'v, 'a> {
    dead: Hand,
    declined: SetList,
    first_player: Seat,
    game: &'v str,
    hand: Hand,
    live: Option<LiveJson>,
    phase: &'static str,
    players: Seat,
    prev_winner: Option<Seat>,
    resume: Option<&'static str>,
    return_gate: Option<Seat>,
    seat: Seat,
    seats: Seats<'v, 'a>,
    stock_size: usize,
    to_move: Option<Seat>,
    u_forfeit: bool,
    unseen: Hand,
    variant: &'v str,
}

/// Appends the observation of `view` for game `game` and variant `variant` to `out`.
pub(super) fn write(game: &str, variant: &str, view: &ChanView<'_>, out: &mut Vec<u8>) {
    let seen = Seen::of(view);
    let setup = view.setup();
    let own = view.own();
    write_json(
        out,
        &Observation {
            dead: view.dead(),
            declined: SetList(own.dec),
            first_player: setup.first,
            game,
            hand: view.own_hand(),
            live: view.live().as_ref().map(LiveJson::of),
            phase: STAGE_NAMES[seen.stage as usize],
            players: view.players() as Seat,
            prev_winner: setup.prev_winner,
            resume: seen.resume.map(|r| RESUME_NAMES[resume_index(r)]),
            return_gate: seen.return_gate,
            seat: view.seat(),
            seats: Seats(view),
            stock_size: view.stock_len(),
            to_move: seen.to_move,
            u_forfeit: own.forfeit,
            unseen: Hand::from_counts(view.unseen()),
            variant,
        },
    );
}
