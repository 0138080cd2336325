//! Chắn position files (docs/equity.md): one seat's view of a hand in progress (its concealed
//! cards, every seat's melds and discards, the dead cards, the live card at a gate), read into a
//! state from which the other hands and the stock are dealt by the seat's determinization
//! ([`super::view`]).
//!
//! Hand sizes follow from the rules: a seat's concealed and exposed cards together number 19
//! between its decisions (dealt 19, `F` one more and one discard; an eat or chíu takes one card
//! and is followed by a discard), and 20 for the seat that must discard. The stock is what is
//! left of the 100 cards.

use super::card::{parse_cards, Card, IDENTITIES};
use super::hand::Hand;
use super::rules::MeldSource;
use super::state::{Chan, ChanState};
use super::types::{Live, Origin, Phase, Resume, Setup, Via, DECK_SIZE};
use crate::game::RuleMap;
use crate::game::Seat;
use crate::games::kind::GameCore;
use crate::games::kind::GameError;
use crate::games::position::{
    parse_toml, seat_tables, Common, CopyCount, Keys, Position, PositionError,
};

/// Cards a seat holds, concealed and exposed, between its decisions.
const HELD: usize = 19;

/// One seat's melds, discards and declined offers, as read.
#[derive(Default)]
struct SeatInfo {
    melds: Vec<(Card, Card, MeldSource)>,
    exposed: usize,
    discards: Vec<Card>,
    declined: Vec<Card>,
    hand: Option<u64>,
}

/// Reads a position file into the game (the file's players) and the position.
pub fn read(
    variant: &str,
    text: &str,
    origin: &str,
) -> Result<(Chan, Position<ChanState>), GameError> {
    let doc = parse_toml(text, origin)?;
    let mut keys = Keys::new("", &doc);
    let info = <Chan as GameCore>::INFO;
    let common = Common::read(&mut keys, info.name, 4, info.seats)?;
    let (n, me) = (common.players, common.seat);
    let game = Chan::build(variant, n, &RuleMap::new())?;
    let mut seen = CopyCount::<IDENTITIES>::new(4);
    let hand = cards(&mut keys, "hand", &mut seen)?.ok_or(PositionError::MissingHand {
        holds: "the seat's concealed cards",
    })?;
    let dead = cards(&mut keys, "dead", &mut seen)?.unwrap_or_default();
    let live_card = cards(&mut keys, "live", &mut seen)?;
    let phase = keys.str("phase")?;
    let from = keys.str("from")?;
    let releaser = keys.seat("releaser", n)?;
    let gate = keys.seat("gate", n)?;
    let first = keys.seat("first", n)?.unwrap_or(0);
    let stock_given = keys.uint("stock")?;
    let seat_keys = keys.table("seats")?;
    keys.finish()?;

    let mut seats: Vec<SeatInfo> = (0..n).map(|_| SeatInfo::default()).collect();
    for (seat, table) in seat_tables(seat_keys, n)? {
        seats[seat as usize] = read_seat(seat, me, table, &mut seen)?;
    }
    let live_card = match live_card.as_deref() {
        None => None,
        Some([c]) => Some(*c),
        Some(_) => return Err(PositionError::Game("'live' must be one card".into()).into()),
    };
    let (phase, live) = decision(phase, from, live_card, releaser, gate, me, n)?;
    check_own_total(&hand, &seats, me, phase)?;
    check_discards(&seats, &seen, &hand)?;

    let mut s = lay_out(&game, first, &seats, live, phase);
    s.dead = Hand::of(&dead);
    deal_unseen(&mut s, &seats, me, &hand, &seen, stock_given)?;
    if let (Phase::UWindow { .. }, Some(l)) = (phase, live) {
        if !s.u_eligible(me, &l) {
            return Err(PositionError::Game(format!(
                "phase \"u\": seat {me} cannot ù on {} (§7.1), so the ù window does not ask it",
                l.card
            ))
            .into());
        }
    }
    Ok((game, Position { seat: me, state: s }))
}

/// Checks that the seat's concealed and exposed cards number what a seat holds at this decision.
fn check_own_total(
    hand: &[Card],
    seats: &[SeatInfo],
    me: Seat,
    phase: Phase,
) -> Result<(), PositionError> {
    let to_hold = HELD + usize::from(matches!(phase, Phase::MustDiscard(_)));
    let own_total = hand.len() + seats[me as usize].exposed;
    if own_total != to_hold {
        return Err(PositionError::Game(format!(
            "'hand' holds {} cards and seat {me} has {} exposed, {own_total} in all; a seat {} \
             holds {to_hold}, so the hand should hold {}",
            hand.len(),
            seats[me as usize].exposed,
            if to_hold == HELD {
                "deciding on a live card"
            } else {
                "that must discard"
            },
            to_hold as i64 - seats[me as usize].exposed as i64
        )));
    }
    Ok(())
}

/// The public part of the position: melds, discards, declined offers, the live card and phase.
fn lay_out(
    game: &Chan,
    first: Seat,
    seats: &[SeatInfo],
    live: Option<Live>,
    phase: Phase,
) -> ChanState {
    let mut b = game.position().setup(Setup {
        first,
        prev_winner: None,
    });
    for (x, info) in seats.iter().enumerate() {
        for &(h, t, source) in &info.melds {
            b = b.meld(x as Seat, &h.to_string(), &t.to_string(), source);
        }
        for &c in &info.discards {
            b = b.discarded(x as Seat, &c.to_string());
        }
        for &c in &info.declined {
            b = b.declined(x as Seat, &c.to_string());
        }
    }
    if let Some(l) = live {
        if let (Via::Discard, Some(r)) = (l.via, l.releaser) {
            // the live discard is its releaser's latest discard
            b = b.discarded(r, &l.card.to_string());
        }
        b = b.live(&l.card.to_string(), l.gate, l.origin, l.via, l.releaser);
    }
    b.at(phase)
}

/// Deals the cards nobody has seen: the other seats' hidden hands, then the stock (checked
/// against `stock` when given).
fn deal_unseen(
    s: &mut ChanState,
    seats: &[SeatInfo],
    me: Seat,
    hand: &[Card],
    seen: &CopyCount<IDENTITIES>,
    stock_given: Option<u64>,
) -> Result<(), PositionError> {
    let mut unseen = Vec::with_capacity(DECK_SIZE);
    for c in Card::all() {
        (seen.counts()[c.index()]..4).for_each(|_| unseen.push(c));
    }
    let mut next = unseen.into_iter();
    let mut hidden = 0;
    for (x, info) in seats.iter().enumerate() {
        if x == me as usize {
            s.seats[x].concealed = Hand::of(hand);
            continue;
        }
        let size = hidden_size(x, info)?;
        hidden += size;
        let cards: Vec<Card> = next.by_ref().take(size).collect();
        if cards.len() < size {
            return Err(too_many(seen, hidden));
        }
        s.seats[x].concealed = Hand::of(&cards);
    }
    let rest: Vec<Card> = next.collect();
    if let Some(given) = stock_given.filter(|&g| g != rest.len() as u64) {
        return Err(PositionError::Game(format!(
            "'stock' = {given}, but {} cards are left: {DECK_SIZE} − {} seen − {hidden} in the \
             other seats' hands (each holds 19 minus its exposed cards)",
            rest.len(),
            seen.total()
        )));
    }
    let start = DECK_SIZE - rest.len();
    s.deck[start..].copy_from_slice(&rest);
    s.next_draw = start as u8;
    Ok(())
}

fn too_many(seen: &CopyCount<IDENTITIES>, hidden: usize) -> PositionError {
    PositionError::Game(format!(
        "the counts do not add up: {} cards are seen and the other seats hold at least \
         {hidden} hidden cards, more than the {DECK_SIZE} of the deck",
        seen.total()
    ))
}

/// Reads the card list at `key`, counting its copies.
fn cards(
    keys: &mut Keys<'_>,
    key: &'static str,
    seen: &mut CopyCount<IDENTITIES>,
) -> Result<Option<Vec<Card>>, PositionError> {
    let name = keys.name(key);
    let Some(text) = keys.str(key)? else {
        return Ok(None);
    };
    let list = parse_cards(text).map_err(|error| PositionError::Cards {
        key: name.to_string(),
        error,
    })?;
    for c in &list {
        seen.add(c.index(), &c.to_string(), &name)?;
    }
    Ok(Some(list))
}

/// Reads a card list that is history, not a place of cards (not counted as seen).
fn history(keys: &mut Keys<'_>, key: &'static str) -> Result<Vec<Card>, PositionError> {
    let name = keys.name(key);
    match keys.str(key)? {
        Some(t) => parse_cards(t).map_err(|error| PositionError::Cards {
            key: name.to_string(),
            error,
        }),
        None => Ok(Vec::new()),
    }
}

/// Reads one seat's table: `melds`, `thien_khai`, `discards`, `declined` and (other seats) `hand`.
fn read_seat(
    seat: Seat,
    me: Seat,
    table: &toml::Table,
    seen: &mut CopyCount<IDENTITIES>,
) -> Result<SeatInfo, PositionError> {
    let path = format!("seats.{seat}");
    let mut keys = Keys::new(&path, table);
    let mut info = SeatInfo::default();
    let melds = keys.strings("melds")?;
    let name = keys.name("melds");
    let tk_name = keys.name("thien_khai");
    let thien_khai = history(&mut keys, "thien_khai")?;
    info.discards = history(&mut keys, "discards")?;
    info.declined = history(&mut keys, "declined")?;
    info.hand = keys.uint("hand")?;
    keys.finish()?;
    if seat == me && info.hand.is_some() {
        return Err(PositionError::Game(format!(
            "'{path}.hand': seat {seat} is the view's seat; its 'hand' gives its cards"
        )));
    }
    for (i, text) in melds.iter().enumerate() {
        let list = parse_cards(text).map_err(|error| PositionError::CardsAt {
            key: name.to_string(),
            item: "meld",
            index: i + 1,
            error,
        })?;
        let meld = meld_of(&list).ok_or_else(|| {
            PositionError::Game(format!(
                "'{name}' meld {} [{text}] is not a meld: a Chắn (two identical cards), a Cạ \
                 (the hand card, then the card eaten: same rank 2–9, different suits) or a \
                 chíu (four identical cards)",
                i + 1
            ))
        })?;
        for c in &list {
            seen.add(c.index(), &c.to_string(), &name)?;
        }
        info.exposed += list.len();
        info.melds.push(meld);
    }
    for &c in &thien_khai {
        for _ in 0..4 {
            seen.add(c.index(), &c.to_string(), &tk_name)?;
        }
        info.exposed += 4;
        info.melds.push((c, c, MeldSource::ThienKhai));
    }
    Ok(info)
}

/// A meld from its cards: `(hand card, card taken, source)`.
fn meld_of(list: &[Card]) -> Option<(Card, Card, MeldSource)> {
    match *list {
        [h, t] if h == t => Some((h, t, MeldSource::Eat)),
        [h, t] if h.same_rank(t) && !h.is_ch() && !t.is_ch() => Some((h, t, MeldSource::Eat)),
        [a, b, c, d] if a == b && b == c && c == d => Some((a, a, MeldSource::Chiu)),
        _ => None,
    }
}

/// Every discard listed must be on the table now: dead, in a meld, or live.
fn check_discards(
    seats: &[SeatInfo],
    seen: &CopyCount<IDENTITIES>,
    hand: &[Card],
) -> Result<(), PositionError> {
    let mut table = *seen.counts();
    hand.iter().for_each(|c| table[c.index()] -= 1);
    for (x, info) in seats.iter().enumerate() {
        for &c in &info.discards {
            if table[c.index()] == 0 {
                return Err(PositionError::Game(format!(
                    "'seats.{x}.discards': {c} is listed as discarded, but not as many {c} are \
                     dead, in a meld or live (a discard stays on the table: list it there too)"
                )));
            }
            table[c.index()] -= 1;
        }
    }
    Ok(())
}

/// Another seat's concealed cards: 19 minus its exposed cards, checked against its `hand`.
fn hidden_size(x: usize, info: &SeatInfo) -> Result<usize, PositionError> {
    let size = HELD.checked_sub(info.exposed).ok_or_else(|| {
        PositionError::Game(format!(
            "'seats.{x}.melds' expose {} cards, more than the {HELD} a seat holds",
            info.exposed
        ))
    })?;
    match info.hand {
        Some(h) if h != size as u64 => Err(PositionError::Game(format!(
            "'seats.{x}.hand' = {h}, but seat {x} has {} exposed cards, so it holds {size} \
             concealed (19 in all between its decisions)",
            info.exposed
        ))),
        _ => Ok(size),
    }
}

/// The phase and the live card: `discard` (no live card), `turn` (a card discarded or passed to
/// the seat's gate), `drawn` (the seat's own draw) or `u` (the ù window on a live card).
fn decision(
    phase: Option<&str>,
    from: Option<&str>,
    card: Option<Card>,
    releaser: Option<Seat>,
    gate: Option<Seat>,
    me: Seat,
    n: usize,
) -> Result<(Phase, Option<Live>), PositionError> {
    let phase = phase.unwrap_or(if card.is_some() { "turn" } else { "discard" });
    if phase == "discard" {
        return match card {
            None => Ok((Phase::MustDiscard(me), None)),
            Some(_) => Err(PositionError::Game(
                "'live' is given, but in phase \"discard\" no card is live".into(),
            )),
        };
    }
    let card = card.ok_or_else(|| {
        PositionError::Game(format!(
            "phase \"{phase}\" needs 'live': the card at the gate"
        ))
    })?;
    let gate = match phase {
        "u" => gate.unwrap_or(me),
        _ => match gate {
            Some(g) if g != me => {
                return Err(PositionError::Game(format!(
                    "'gate' = {g}: in phase \"{phase}\" the card lies at the deciding seat's \
                     own gate ({me}); the decision at gate {g} is seat {g}'s"
                )))
            }
            _ => me,
        },
    };
    let prev = ((gate as usize + n - 1) % n) as Seat;
    let default_from = if phase == "drawn" { "draw" } else { "discard" };
    let (origin, via, rel) = match from.unwrap_or(default_from) {
        "discard" => (Origin::Discard, Via::Discard, Some(prev)),
        "passed" => (Origin::Stock, Via::PassDrawn, Some(prev)),
        "draw" => (Origin::Stock, Via::Draw, None),
        other => {
            return Err(PositionError::Game(format!(
                "'from' = \"{other}\": write \"discard\", \"passed\" (a drawn card passed on) or \
                 \"draw\" (the gate owner's own draw)"
            )))
        }
    };
    if let (Some(r), Some(expected)) = (releaser, rel) {
        if r != expected {
            return Err(PositionError::Game(format!(
                "'releaser' = {r}: a card {} to gate {gate} comes from seat {expected}",
                if via == Via::Discard {
                    "discarded"
                } else {
                    "passed"
                }
            )));
        }
    }
    let live = Live {
        card,
        gate,
        origin,
        via,
        releaser: rel,
    };
    let phase = phase_of(phase, via, rel, me)?;
    Ok((phase, Some(live)))
}

/// The phase named `phase` for a live card come `via` from `rel` (checked against each other).
fn phase_of(phase: &str, via: Via, rel: Option<Seat>, me: Seat) -> Result<Phase, PositionError> {
    let resume = if via == Via::Draw {
        Resume::Drawn
    } else {
        Resume::Turn
    };
    match (phase, via) {
        ("turn", Via::Draw) => Err(PositionError::Game(
            "phase \"turn\" is on a discarded or passed card; the seat's own draw is \
                        phase \"drawn\""
                .into(),
        )),
        ("turn", _) => Ok(Phase::Turn(me)),
        ("drawn", Via::Draw) => Ok(Phase::Drawn(me)),
        ("drawn", _) => Err(PositionError::Game(
            "phase \"drawn\" is on the seat's own draw (from = \"draw\")".into(),
        )),
        ("u", _) if rel == Some(me) => Err(PositionError::Game(format!(
            "seat {me} released the live card; the ù window does not ask its releaser, so \
                 the decision is not seat {me}'s"
        ))),
        ("u", _) => Ok(Phase::UWindow { seat: me, resume }),
        (other, _) => Err(PositionError::Phase {
            phase: other.to_string(),
            write: "\"discard\", \"turn\", \"drawn\" or \"u\"",
        }),
    }
}
