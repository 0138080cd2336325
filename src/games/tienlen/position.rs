//! Tiến Lên position files (docs/equity.md): one seat's view of a game in progress (its hand,
//! every seat's played cards, the trick on the table), read into a state from which the other
//! hands are dealt by the seat's determinization ([`super::view`]).
//!
//! Hand sizes follow from the rules: every seat was dealt 13 cards and has played the cards
//! listed for it (the top of the trick counts for its owner), so it holds the rest.

use super::card::{parse_cards, Card, DECK_SIZE};
use super::card_set::Cards;
use super::combo::{classify, Combo};
use super::state::{TienLen, TienLenState};
use super::types::{Chain, Phase, Setup, HAND_SIZE, MAX_PLAYERS};
use crate::fixed::CopyVec;
use crate::game::RuleMap;
use crate::game::Seat;
use crate::games::kind::GameCore;
use crate::games::kind::GameError;
use crate::games::position::{
    parse_toml, seat_tables, Common, CopyCount, Keys, Position, PositionError,
};

/// Reads a position file into the game (the variant, the file's players) and the position.
pub fn read(
    variant: &str,
    text: &str,
    origin: &str,
) -> Result<(TienLen, Position<TienLenState>), GameError> {
    let doc = parse_toml(text, origin)?;
    let mut keys = Keys::new("", &doc);
    let info = <TienLen as GameCore>::INFO;
    let common = Common::read(&mut keys, info.name, 4, info.seats)?;
    let (n, me) = (common.players, common.seat);
    let game = TienLen::build(variant, n, &RuleMap::new())?;
    let mut seen = (Cards::EMPTY, CopyCount::<DECK_SIZE>::new(1));
    let hand = cards(&mut keys, "hand", &mut seen)?.ok_or(PositionError::MissingHand {
        holds: "the seat's cards",
    })?;
    let top = cards(&mut keys, "top", &mut seen)?;
    let owner = keys.seat("top_owner", n)?;
    let passed = keys.seats("passed", n)?;
    let phase = keys.str("phase")?;
    let seat_keys = keys.table("seats")?;
    keys.finish()?;

    let mut played = [Cards::EMPTY; MAX_PLAYERS];
    let mut sizes = [None; MAX_PLAYERS];
    for (seat, table) in seat_tables(seat_keys, n)? {
        let mut k = Keys::new(&format!("seats.{seat}"), table);
        played[seat as usize] = cards(&mut k, "played", &mut seen)?.unwrap_or(Cards::EMPTY);
        sizes[seat as usize] = k.uint("cards")?;
        k.finish()?;
    }
    let top = top_of(top, owner, &mut played)?;
    let phase = decision(phase, top, &passed, me, &game)?;
    let mut hands = [Cards::EMPTY; MAX_PLAYERS];
    let mut unseen = Cards::ALL.minus(seen.0).iter();
    for x in 0..n {
        let size = hand_size(x, played[x], sizes[x], x == me as usize, hand)?;
        hands[x] = if x == me as usize {
            hand
        } else {
            (0..size).fold(Cards::EMPTY, |h, _| {
                h.with(unseen.next().expect("52 cards"))
            })
        };
    }
    let set_aside: Cards = unseen.collect();
    let mut s = game.deal_deck(
        &TienLen::fresh_deck(),
        Setup {
            dealer: 0,
            initial: false,
            leader: Some(me),
        },
    );
    s.hands = hands;
    s.played_by = played;
    s.set_aside = set_aside;
    s.top = top;
    s.passed = passed.iter().fold(0, |m, &p| m | 1 << p);
    s.dropped = 0;
    s.chain = Chain::default();
    s.phase = phase;
    s.leader = me;
    s.required = None;
    s.places = [0; MAX_PLAYERS];
    s.finished = CopyVec::default();
    s.cong = 0;
    s.leavers = CopyVec::default();
    s.den_flags = 0;
    s.den_player = None;
    s.toi_trang = None;
    s.turns = played.iter().map(|p| p.len()).sum();
    s.events = CopyVec::default();
    s.transfers = CopyVec::default();
    s.outcome = None;
    Ok((game, Position { seat: me, state: s }))
}

/// The top combination and its owner (both or neither given); the top counts among its owner's
/// played cards.
fn top_of(
    top: Option<Cards>,
    owner: Option<Seat>,
    played: &mut [Cards; MAX_PLAYERS],
) -> Result<Option<(Combo, Seat)>, PositionError> {
    match (top, owner) {
        (Some(t), Some(o)) => {
            let combo = classify(t).ok_or_else(|| {
                PositionError::Game(format!(
                    "'top' = {t} is not a combination (§3): a single, pair, triple, quad, \
                         sequence or pair sequence"
                ))
            })?;
            played[o as usize] = played[o as usize].union(t);
            Ok(Some((combo, o)))
        }
        (Some(_), None) => Err(PositionError::Game(
            "'top' needs 'top_owner': the seat that played it".into(),
        )),
        (None, Some(_)) => Err(PositionError::Game(
            "'top_owner' is given without 'top'".into(),
        )),
        (None, None) => Ok(None),
    }
}

/// Reads the card list at `key`; a card seen before (a one-copy deck) is an error naming where.
fn cards(
    keys: &mut Keys<'_>,
    key: &'static str,
    seen: &mut (Cards, CopyCount<DECK_SIZE>),
) -> Result<Option<Cards>, PositionError> {
    let name = keys.name(key);
    let Some(text) = keys.str(key)? else {
        return Ok(None);
    };
    let list: Vec<Card> = parse_cards(text).map_err(|error| PositionError::Cards {
        key: name.to_string(),
        error,
    })?;
    for c in &list {
        seen.1.add(usize::from(c.key()), &c.to_string(), &name)?;
        seen.0 = seen.0.with(*c);
    }
    Ok(Some(Cards::of(&list)))
}

/// The phase of the seat's decision: `lead` (no top) or `respond` (beat the top or pass).
fn decision(
    phase: Option<&str>,
    top: Option<(super::combo::Combo, Seat)>,
    passed: &[Seat],
    me: Seat,
    game: &TienLen,
) -> Result<Phase, PositionError> {
    let phase = phase.unwrap_or(if top.is_some() { "respond" } else { "lead" });
    match (phase, top) {
        ("lead", None) => Ok(Phase::Lead(me)),
        ("lead", Some(_)) => Err(PositionError::Game(
            "phase \"lead\" with a 'top': a lead starts a new trick (leave out 'top', or use \
             phase = \"respond\")"
                .into(),
        )),
        ("respond", None) => Err(PositionError::Game(
            "phase \"respond\" needs 'top' and 'top_owner'".into(),
        )),
        ("respond", Some((_, owner))) if owner == me => Err(PositionError::Game(format!(
            "'top_owner' = {me}: seat {me} owns the top, so the others answer it; the \
             decision is not seat {me}'s"
        ))),
        ("respond", Some(_))
            if passed.contains(&me) && !game.options().passed_player_may_chop_in_turn =>
        {
            Err(PositionError::Game(format!(
                "'passed' holds seat {me}: a seat that passed is not asked again on this trick, \
                 so the decision is not seat {me}'s"
            )))
        }
        ("respond", Some(_)) => Ok(Phase::Respond(me)),
        (other, _) => Err(PositionError::Phase {
            phase: other.to_string(),
            write: "\"lead\" or \"respond\"",
        }),
    }
}

/// The number of cards seat `x` holds: 13 minus what it played, checked against its `cards` (or
/// the seat's own `hand`).
fn hand_size(
    x: usize,
    played: Cards,
    given: Option<u64>,
    own: bool,
    hand: Cards,
) -> Result<usize, PositionError> {
    let size = HAND_SIZE as i64 - played.len() as i64;
    if size < 0 {
        return Err(PositionError::Game(format!(
            "'seats.{x}.played' lists {} cards, more than the 13 dealt",
            played.len()
        )));
    }
    if own {
        if given.is_some() {
            return Err(PositionError::Game(format!(
                "'seats.{x}.cards': seat {x} is the view's seat; its 'hand' gives its cards"
            )));
        }
        if hand.len() as i64 != size {
            return Err(PositionError::Game(format!(
                "'hand' holds {} cards, but seat {x} has played {} of its 13, so it holds {size}",
                hand.len(),
                played.len()
            )));
        }
    } else if let Some(g) = given.filter(|&g| g as i64 != size) {
        return Err(PositionError::Game(format!(
            "'seats.{x}.cards' = {g}, but seat {x} has played {} of its 13 cards, so it \
             holds {size}",
            played.len()
        )));
    }
    if size == 0 {
        return Err(PositionError::Game(format!(
            "seat {x} has played all 13 of its cards: positions with a seat that has gone out \
             are not supported"
        )));
    }
    Ok(size as usize)
}
