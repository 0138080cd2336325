//! The observation of a view as JSON: the common keys (`game`, `variant`, `players`, `seat`,
//! `to_move`, `phase`, `hand`, `seats`), then the situation, then `unseen`. Cards are written in
//! the game's notation (`rK`), lists in canonical order with a card repeated per copy; no floats.
//! `docs/observations/tusac.md` documents every key.

use super::table::{phase_index, source_index, PHASES, SOURCES};
use crate::game::{Seat, SeatView};
use crate::games::observe::{write_json, Text};
use crate::games::tusac::actions::Active;
use crate::games::tusac::card::{Card, CARD_TYPES};
use crate::games::tusac::hand::Hand;
use crate::games::tusac::onepack::view::OnePackView;
use crate::games::tusac::packs::PacksView;
use crate::games::tusac::sets::{Origin, SetInstance};
use serde::{Serialize, Serializer};

/// The game's name in every observation.
const GAME: &str = "tusac";

/// The card strings of every identity, by card index (as `Card`'s `Display` writes them).
const NAMES: [&str; CARD_TYPES] = [
    "rK", "yK", "gK", "wK", "rA", "yA", "gA", "wA", "rE", "yE", "gE", "wE", "rR", "yR", "gR", "wR",
    "rC", "yC", "gC", "wC", "rH", "yH", "gH", "wH", "rP", "yP", "gP", "wP",
];

/// This seat's face-down block as a JSON list, a card per copy (4 of each).
struct FaceDown<'v, 'a>(&'v PacksView<'a>);

impl Serialize for FaceDown<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.face_down().flat_map(|c| [NAMES[c.index()]; 4]))
    }
}

/// Counts per card identity as a JSON list, canonical order, a card per copy.
struct CountList<'c>(&'c [u8; CARD_TYPES]);

impl Serialize for CountList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let copies = |i: usize| std::iter::repeat_n(NAMES[i], usize::from(self.0[i]));
        s.collect_seq((0..CARD_TYPES).flat_map(copies))
    }
}

/// A hand as a JSON list, canonical order.
struct HandList(Hand);

impl Serialize for HandList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.cards().map(|c| NAMES[c.index()]))
    }
}

/// A public set (fields in alphabetical order, as JSON writes them).
#[derive(Serialize)]
struct SetJson<'s> {
    cards: SetCards<'s>,
    kind: &'static str,
    origin: &'static str,
}

/// A set's cards as a JSON list, in the set's order.
struct SetCards<'s>(&'s [Card]);

impl Serialize for SetCards<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|c| NAMES[c.index()]))
    }
}

/// A seat's public sets.
struct Sets<'s>(&'s [SetInstance]);

impl Serialize for Sets<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(SetView))
    }
}

/// One public set, written as [`SetJson`].
struct SetView<'s>(&'s SetInstance);

impl Serialize for SetView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let x = self.0;
        let origin = match x.origin {
            Origin::Dealt => "dealt",
            Origin::Melded => "melded",
        };
        SetJson {
            cards: SetCards(x.cards()),
            kind: x.kind.name(),
            origin,
        }
        .serialize(s)
    }
}

/// The active card (fields in alphabetical order); `worst` only in the one-pack core.
#[derive(Serialize)]
struct ActiveJson {
    card: &'static str,
    owner: Seat,
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    worst: Option<bool>,
}

impl ActiveJson {
    /// The active card `a`, with its worst-card flag when `with_worst`.
    fn of(a: Active, with_worst: bool) -> Self {
        ActiveJson {
            card: NAMES[a.card.index()],
            owner: a.owner,
            source: SOURCES[source_index(a.source)],
            worst: with_worst.then_some(a.worst),
        }
    }
}

/// A one-pack seat's public record.
#[derive(Serialize)]
struct OnePackSeat<'s> {
    discarded: HandList,
    hand_size: usize,
    khaps: Option<u32>,
    seat: Seat,
    sets: Sets<'s>,
}

/// Every seat of a one-pack view.
struct OnePackSeats<'v, 'a>(&'v OnePackView<'a>);

impl Serialize for OnePackSeats<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        s.collect_seq((0..v.options().players).map(|x| OnePackSeat {
            discarded: HandList(v.discarded(x)),
            hand_size: v.hand_len(x),
            khaps: (x == v.seat() || v.khaps_announced()).then(|| v.khaps(x)),
            seat: x,
            sets: Sets(v.public_sets(x)),
        }))
    }
}

/// The observation of a one-pack view (fields in alphabetical order).
#[derive(Serialize)]
struct OnePackJson<'v, 'a> {
    active: Option<ActiveJson>,
    dead: CountList<'a>,
    game: &'static str,
    hand: HandList,
    phase: &'static str,
    players: u8,
    seat: Seat,
    seats: OnePackSeats<'v, 'a>,
    stock: usize,
    to_move: Option<Seat>,
    unseen: CountList<'v>,
    variant: &'v str,
}

/// Appends the observation of a one-pack view (classic, 4sac) to `out`.
pub(crate) fn write_one_pack(v: &OnePackView<'_>, out: &mut Vec<u8>) {
    let opts = v.options();
    let unseen = v.unseen();
    let obs = OnePackJson {
        active: v.active().map(|a| ActiveJson::of(a, true)),
        dead: CountList(v.dead()),
        game: GAME,
        hand: HandList(v.own_hand()),
        phase: PHASES[phase_index(v.phase())],
        players: opts.players,
        seat: v.seat(),
        seats: OnePackSeats(v),
        stock: v.stock_len(),
        to_move: v.to_move(),
        unseen: CountList(&unseen),
        variant: opts.variant,
    };
    write_json(out, &obs);
}

/// A multi-pack seat's public record.
#[derive(Serialize)]
struct PacksSeat<'s> {
    discarded: CountList<'s>,
    face_down_size: usize,
    hand_size: usize,
    seat: Seat,
    sets: Sets<'s>,
}

/// Every seat of a multi-pack view.
struct PacksSeats<'v, 'a>(&'v PacksView<'a>);

impl Serialize for PacksSeats<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        s.collect_seq((0..v.options().players).map(|x| PacksSeat {
            discarded: CountList(v.discarded(x)),
            face_down_size: v.face_down_len(x),
            hand_size: v.hand_len(x),
            seat: x,
            sets: Sets(v.melded(x)),
        }))
    }
}

/// The observation of a multi-pack view (fields in alphabetical order).
#[derive(Serialize)]
struct PacksJson<'v, 'a> {
    active: Option<ActiveJson>,
    asked: &'v [Seat],
    dead: CountList<'v>,
    double_rank: Option<Text<char>>,
    face_down: FaceDown<'v, 'a>,
    game: &'static str,
    hand: CountList<'v>,
    phase: &'static str,
    players: u8,
    reshuffles_left: u8,
    seat: Seat,
    seats: PacksSeats<'v, 'a>,
    stock: usize,
    stock_public: CountList<'v>,
    to_move: Option<Seat>,
    unseen: CountList<'v>,
    variant: &'v str,
}

/// Appends the observation of a multi-pack view (sisepai21, dirtyking26) to `out`.
pub(crate) fn write_packs(v: &PacksView<'_>, out: &mut Vec<u8>) {
    let opts = v.options();
    let (unseen, known, asked) = (v.unseen(), v.known_stock(), v.asked());
    let obs = PacksJson {
        active: v.active().map(|a| ActiveJson::of(a, false)),
        asked: &asked,
        dead: CountList(v.dead()),
        double_rank: v.double_rank().map(|r| Text(r.letter())),
        face_down: FaceDown(v),
        game: GAME,
        hand: CountList(v.hand()),
        phase: PHASES[phase_index(v.phase())],
        players: opts.players,
        reshuffles_left: v.reshuffles_left(),
        seat: v.seat(),
        seats: PacksSeats(v),
        stock: v.stock_len(),
        stock_public: CountList(&known),
        to_move: v.to_move(),
        unseen: CountList(&unseen),
        variant: opts.variant,
    };
    write_json(out, &obs);
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_the_card_notation() {
        use crate::games::tusac::card::Card;
        for c in Card::all() {
            assert_eq!(super::NAMES[c.index()], c.to_string());
        }
    }
}
