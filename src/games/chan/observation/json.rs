//! The observation as JSON (`docs/observations/chan.md`): the common keys, each seat's public
//! record, the table and this seat's private record. Cards are written in the game's notation
//! (`7n`, `ch`), lists in canonical order with one string per copy.

use super::shared::{resume_index, Seen, RESUME_NAMES, STAGE_NAMES};
use crate::game::{Seat, SeatView};
use crate::games::chan::card::{Card, IDENTITIES};
use crate::games::chan::rules::{Meld, MeldKind, MeldSource};
use crate::games::chan::types::{Live, Origin, Via};
use crate::games::chan::{ChanView, Hand};
use serde_json::{json, Map, Value};

/// Cards with repeats, canonical order.
fn cards(h: &Hand) -> Value {
    h.cards().map(|c| c.to_string()).collect()
}

/// A set of identities, canonical order.
fn set(mask: u32) -> Value {
    let present = (0..IDENTITIES).filter(|&i| mask >> i & 1 == 1);
    present.map(|i| Card::from_index(i).to_string()).collect()
}

/// A meld: kind, source, cards, and the card taken from the table (none for Thiên khai).
fn meld(m: &Meld) -> Value {
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
    json!({
        "kind": kind,
        "source": source,
        "cards": cards(&m.cards()),
        "taken": taken.map(|c| c.to_string()),
    })
}

/// The public record of `seat`.
fn seat_json(view: &ChanView<'_>, seat: Seat) -> Value {
    json!({
        "seat": seat,
        "hand_size": view.hand_len(seat),
        "melds": view.melds(seat).iter().map(meld).collect::<Vec<_>>(),
        "discards": set(view.discards(seat)),
        "passed": set(view.offers(seat)),
    })
}

/// The live card with its fields (§2.6).
fn live_json(l: &Live) -> Value {
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
    json!({
        "card": l.card.to_string(),
        "gate": l.gate,
        "origin": origin,
        "via": via,
        "releaser": l.releaser,
    })
}

/// The observation of `view` for game `game` and variant `variant`. The keys are inserted in
/// the documented order.
pub(super) fn observation(game: &str, variant: &str, view: &ChanView<'_>) -> Value {
    let seen = Seen::of(view);
    let n = view.players() as Seat;
    let setup = view.setup();
    let own = view.own();
    let unseen = Hand::from_counts(view.unseen());
    let mut m = Map::new();
    let mut put = |k: &str, v: Value| m.insert(k.to_string(), v);
    put("game", game.into());
    put("variant", variant.into());
    put("players", n.into());
    put("seat", view.seat().into());
    put("to_move", seen.to_move.into());
    put("phase", STAGE_NAMES[seen.stage as usize].into());
    put("hand", cards(&view.own_hand()));
    put("seats", (0..n).map(|s| seat_json(view, s)).collect());
    put("live", view.live().as_ref().map_or(Value::Null, live_json));
    put("stock_size", view.stock_len().into());
    put("dead", cards(&view.dead()));
    put("first_player", setup.first.into());
    put("prev_winner", setup.prev_winner.into());
    put(
        "resume",
        seen.resume.map(|r| RESUME_NAMES[resume_index(r)]).into(),
    );
    put("return_gate", seen.return_gate.into());
    put("declined", set(own.dec));
    put("u_forfeit", own.forfeit.into());
    put("unseen", cards(&unseen));
    Value::Object(m)
}
