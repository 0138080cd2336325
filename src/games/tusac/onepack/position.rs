//! Tứ Sắc position files (docs/equity.md): one seat's view of a classic game in progress, read
//! into a state from which the hidden blocks and the stock are dealt by the seat's
//! determinization ([`super::determinize`]).
//!
//! Hand sizes follow from the rules and are checked, not guessed: every seat holds 20 cards in
//! its private and public blocks together (dealt 20, `F` one more and one discard; a meld takes
//! one card and is followed by a discard), except the seat that must discard, which holds 21.
//! The stock is what is left of the 112 cards.

use super::deck::DECK_SIZE;
use super::determinize;
use super::history::ClaimHistory;
use super::rules::{can_win, legal_discards, pair_priority_binds};
use super::state::{OnePack, OnePackState, PublicBlock};
use crate::fixed::CopyVec;
use crate::game::RuleMap;
use crate::game::Seat;
use crate::games::kind::GameCore;
use crate::games::kind::GameError;
use crate::games::position::{
    parse_toml, seat_tables, Common, CopyCount, Keys, Position, PositionError,
};
use crate::games::tusac::actions::{Active, Phase, Source};
use crate::games::tusac::card::{parse_cards, Card, CARD_TYPES};
use crate::games::tusac::engine::{TuSac, TuSacState};
use crate::games::tusac::hand::Hand;
use crate::games::tusac::sets::{Origin, SetInstance, SetKind, Zone};
use crate::rng::stream_rng;

/// Cards a seat holds in its private and public blocks between its decisions.
const HELD: usize = 20;
/// Attempts at a first consistent filling of the hidden blocks before the position is refused.
const FILL_ATTEMPTS: usize = 2000;

/// What one seat's table `[seats.N]` gives.
#[derive(Default)]
struct SeatInfo {
    public: PublicBlock,
    public_cards: usize,
    khaps: Option<u32>,
    hand: Option<usize>,
    discards: Vec<Card>,
}

/// Reads a position file into the game (classic, the file's players) and the position.
pub fn read(
    variant: &str,
    text: &str,
    origin: &str,
) -> Result<(TuSac, Position<TuSacState>), GameError> {
    let doc = parse_toml(text, origin)?;
    let mut keys = Keys::new("", &doc);
    let info = <TuSac as GameCore>::INFO;
    let common = Common::read(&mut keys, info.name, 4, info.seats)?;
    let (n, me) = (common.players, common.seat);
    let game = one_pack(TuSac::build(variant, n, &RuleMap::new())?)?;
    let opts = *game.options();
    let mut seen = CopyCount::<CARD_TYPES>::new(4);

    let hand = cards(&mut keys, "hand", &mut seen)?.ok_or(PositionError::MissingHand {
        holds: "the seat's private block",
    })?;
    let own = hand_of(&hand)?;
    let dead = cards(&mut keys, "dead", &mut seen)?.unwrap_or_default();
    let phase = keys.str("phase")?.unwrap_or("discard");
    let active = read_active(&mut keys, phase, n, me, &mut seen)?;
    let stock_given = keys.uint("stock")?;
    let seat_keys = keys.table("seats")?;
    keys.finish()?;

    let mut seats: Vec<SeatInfo> = (0..n).map(|_| SeatInfo::default()).collect();
    for (seat, table) in seat_tables(seat_keys, n)? {
        seats[seat as usize] = read_seat(seat, me, table, &mut seen)?;
    }
    check_own_total(own, seats[me as usize].public_cards, active, me)?;
    check_decision(own, active, &opts, me)?;

    let mut s = blank_state(opts, active, me);
    for &c in &dead {
        s.dead[c.index()] += 1;
        s.visible[c.index()] += 1;
    }
    let mut hidden = 0;
    for (x, info) in seats.iter().enumerate() {
        s.public[x] = info.public;
        for set in info.public.as_slice() {
            set.cards().iter().for_each(|c| s.visible[c.index()] += 1);
        }
        if x == me as usize {
            s.private[x] = own;
            continue;
        }
        let size = hidden_size(x, info)?;
        hidden += size;
        s.private[x] = placeholder(size, info.khaps.unwrap_or(0));
    }
    let stock = stock_left(seen.total(), hidden, stock_given)?;
    s.next_draw = (DECK_SIZE as i64 - stock) as u8;
    check_discards(&s, &seats)?;
    for (x, info) in seats.iter().enumerate() {
        for &c in &info.discards {
            s.history.spend(x as Seat, c, true);
        }
    }
    if let Some(a) = active {
        if a.source == Source::Discard {
            s.history.spend(a.owner, a.card, true);
        }
        // the claim window on the active card reached the turn option: no forced claim took it
        s.history.window(a, true);
    }
    let state = first_filling(&s, me)?.into();
    Ok((game.into(), Position { seat: me, state }))
}

/// Checks that the seat's hand and public cards make what it holds at its decision: 20 with a
/// turn option, 21 when it must discard.
fn check_own_total(
    own: Hand,
    public_cards: usize,
    active: Option<Active>,
    me: Seat,
) -> Result<(), PositionError> {
    let to_hold = match active {
        None => HELD + 1,
        Some(_) => HELD,
    };
    let own_total = own.len() + public_cards;
    if own_total != to_hold {
        return Err(PositionError::Game(format!(
            "'hand' holds {} cards and seat {me} has {} public cards, {own_total} in all; a \
             seat {} holds {to_hold} (its 20 dealt cards{}), so the hand should hold {}",
            own.len(),
            public_cards,
            if active.is_none() {
                "that must discard"
            } else {
                "with a turn option"
            },
            if active.is_none() {
                " and the card it just took or its extra card as F"
            } else {
                ""
            },
            to_hold as i64 - public_cards as i64
        )));
    }
    Ok(())
}

/// The state of a position before its blocks are placed: the seat `me` to decide, on `active`
/// (a turn option) or without one (it must discard).
fn blank_state(
    opts: crate::games::tusac::options::Options,
    active: Option<Active>,
    me: Seat,
) -> OnePackState {
    OnePackState {
        opts,
        deck: OnePack::fresh_deck(),
        next_draw: 0,
        private: [Hand::EMPTY; super::deck::MAX_PLAYERS],
        public: [PublicBlock::default(); super::deck::MAX_PLAYERS],
        visible: [0; CARD_TYPES],
        dead: [0; CARD_TYPES],
        active,
        phase: match active {
            None => Phase::MustDiscard(me),
            Some(_) => Phase::TurnOption(me),
        },
        outcome: None,
        turns: 0,
        events: CopyVec::default(),
        history: ClaimHistory::default(),
    }
}

/// The cards left in the stock: the pack less the `seen` cards and the other seats' `hidden`
/// ones, checked against the file's `stock` when given.
fn stock_left(seen: usize, hidden: usize, stock_given: Option<u64>) -> Result<i64, PositionError> {
    let stock = DECK_SIZE as i64 - seen as i64 - hidden as i64;
    if stock < 0 {
        return Err(PositionError::Game(format!(
            "the counts do not add up: {} cards are seen and the other seats hold {hidden} \
             hidden cards, more than the {DECK_SIZE} of the pack",
            seen
        )));
    }
    if let Some(given) = stock_given {
        if given != stock as u64 {
            return Err(PositionError::Game(format!(
                "'stock' = {given}, but {stock} cards are left: {DECK_SIZE} − {} seen − {hidden} \
                 in the other seats' private blocks (each holds 20 minus its public cards)",
                seen
            )));
        }
    }
    Ok(stock)
}

/// The one-pack game of a position file; the multi-pack variants have no position files yet.
fn one_pack(game: TuSac) -> Result<OnePack, PositionError> {
    match game {
        TuSac::OnePack(g) => Ok(g),
        TuSac::MultiPack(g) => Err(PositionError::Game(format!(
            "position files (--view) are written for the one-pack variants (classic, 4sac); for              {} give a partial deal instead (--deal FILE, docs/deals-spec.md)",
            g.options().variant
        ))),
    }
}

/// Reads the card list at `key`, counting its copies.
fn cards(
    keys: &mut Keys<'_>,
    key: &'static str,
    seen: &mut CopyCount<CARD_TYPES>,
) -> Result<Option<Vec<Card>>, PositionError> {
    let name = keys.name(key);
    let Some(text) = keys.str(key)? else {
        return Ok(None);
    };
    let list = parse_cards(text, 4).map_err(|error| PositionError::Cards {
        key: name.to_string(),
        error,
    })?;
    for c in &list {
        seen.add(c.index(), &c.to_string(), &name)?;
    }
    Ok(Some(list))
}

/// A private block from its cards: at most 3 copies of a type (a fourth is a Quan).
fn hand_of(list: &[Card]) -> Result<Hand, PositionError> {
    let mut h = Hand::EMPTY;
    for &c in list {
        if h.count(c) == 3 {
            return Err(PositionError::Game(format!(
                "'hand': four {c} in a private block; a dealt quadruple is a Quan in the public \
                 block (list it under [seats.N] public and quans)"
            )));
        }
        h.add(c);
    }
    Ok(h)
}

/// Reads `active`, `source`, `owner` and `worst` for the phase.
fn read_active(
    keys: &mut Keys<'_>,
    phase: &str,
    n: usize,
    me: Seat,
    seen: &mut CopyCount<CARD_TYPES>,
) -> Result<Option<Active>, PositionError> {
    let card = cards(keys, "active", seen)?;
    let source = keys.str("source")?;
    let owner = keys.seat("owner", n)?;
    let worst = keys.bool("worst")?.unwrap_or(true);
    let prev = ((me as usize + n - 1) % n) as Seat;
    match phase {
        "discard" => match card {
            Some(_) => Err(PositionError::Game(
                "'active' is given, but in phase \"discard\" no card is active (use \
                            phase = \"option\" for a turn option on an active card)"
                    .into(),
            )),
            None => Ok(None),
        },
        "option" => {
            let card = match card.as_deref() {
                Some([c]) => *c,
                _ => {
                    return Err(PositionError::Game(
                        "phase \"option\" needs 'active' = one card (the card offered)".into(),
                    ))
                }
            };
            let source = match source.unwrap_or("discard") {
                "discard" => Source::Discard,
                "passed" => Source::PassedDraw,
                "draw" => Source::OwnDraw,
                other => {
                    return Err(PositionError::Game(format!(
                        "'source' = \"{other}\": write \"discard\", \"draw\" (the seat's own \
                         draw) or \"passed\" (drawn by the previous seat and passed on)"
                    )))
                }
            };
            let owner = owner.unwrap_or(if source == Source::OwnDraw { me } else { prev });
            let t = match source {
                Source::OwnDraw => owner,
                _ => (owner + 1) % n as Seat,
            };
            if t != me {
                return Err(PositionError::Game(format!(
                    "'owner' = {owner}: the card is offered first to seat {t}, so the turn \
                     option is seat {t}'s decision, not seat {me}'s"
                )));
            }
            Ok(Some(Active {
                card,
                source,
                owner,
                worst,
            }))
        }
        other => Err(PositionError::Phase {
            phase: other.to_string(),
            write: "\"discard\" (the seat must discard) or \"option\" (the seat's turn option \
                    on the active card)",
        }),
    }
}

/// Reads one seat's table: `public` sets, `quans`, and for other seats `khaps` and `hand`.
fn read_seat(
    seat: Seat,
    me: Seat,
    table: &toml::Table,
    seen: &mut CopyCount<CARD_TYPES>,
) -> Result<SeatInfo, PositionError> {
    let path = format!("seats.{seat}");
    let mut keys = Keys::new(&path, table);
    let mut info = SeatInfo::default();
    let sets = keys.strings("public")?;
    let quans_name = keys.name("quans");
    let quans = match keys.str("quans")? {
        Some(t) => parse_cards(t, 1).map_err(|error| PositionError::Cards {
            key: quans_name.to_string(),
            error,
        })?,
        None => Vec::new(),
    };
    let discards_name = keys.name("discards");
    if let Some(t) = keys.str("discards")? {
        info.discards = parse_cards(t, 4).map_err(|error| PositionError::Cards {
            key: discards_name.to_string(),
            error,
        })?;
    }
    info.khaps = keys.uint("khaps")?.map(|k| k as u32);
    info.hand = keys.uint("hand")?.map(|h| h as usize);
    keys.finish()?;
    if seat == me && (info.khaps.is_some() || info.hand.is_some()) {
        return Err(PositionError::Game(format!(
            "'{path}': seat {seat} is the view's own seat; its block is 'hand' (its Khaps and \
             size are read from it), so 'khaps' and 'hand' are for other seats"
        )));
    }
    let name = keys_name(&path, "public");
    for (i, text) in sets.iter().enumerate() {
        let list = parse_cards(text, 4).map_err(|error| PositionError::CardsAt {
            key: name.to_string(),
            item: "set",
            index: i + 1,
            error,
        })?;
        let kind = SetKind::of(&list).ok_or_else(|| {
            PositionError::Game(format!(
                "'{name}' set {} [{text}] is not a set (§2.1)",
                i + 1
            ))
        })?;
        for c in &list {
            seen.add(c.index(), &c.to_string(), &name)?;
        }
        let origin = match kind {
            SetKind::Quad if quans.contains(&list[0]) => Origin::Dealt,
            _ => Origin::Melded,
        };
        info.public
            .push(SetInstance::new(kind, &list, Zone::Public, origin));
        info.public_cards += list.len();
    }
    for q in &quans {
        let listed = info
            .public
            .as_slice()
            .iter()
            .any(|s| s.kind == SetKind::Quad && s.cards()[0] == *q);
        if !listed {
            return Err(PositionError::Game(format!(
                "'{quans_name}': {q} is not a quad of '{name}' (a Quan is listed as a public \
                 set of four, then named in quans)"
            )));
        }
    }
    Ok(info)
}

fn keys_name(path: &str, key: &str) -> String {
    format!("{path}.{key}")
}

/// The number of hidden cards of another seat: 20 minus its public cards, checked against its
/// `hand` and `khaps` if given.
fn hidden_size(x: usize, info: &SeatInfo) -> Result<usize, PositionError> {
    let size = HELD.checked_sub(info.public_cards).ok_or_else(|| {
        PositionError::Game(format!(
            "'seats.{x}.public' holds {} cards, more than the {HELD} a seat holds between its \
             decisions",
            info.public_cards
        ))
    })?;
    if let Some(h) = info.hand {
        if h != size {
            return Err(PositionError::Game(format!(
                "'seats.{x}.hand' = {h}, but seat {x} has {} public cards, so its private \
                 block holds {size} (20 between decisions)",
                info.public_cards
            )));
        }
    }
    let khaps = info.khaps.unwrap_or(0) as usize;
    if 3 * khaps > size {
        return Err(PositionError::Game(format!(
            "'seats.{x}.khaps' = {khaps}: {khaps} Khaps need {} cards, but seat {x}'s private \
             block holds {size}",
            3 * khaps
        )));
    }
    Ok(size)
}

/// Every discard listed under `[seats.N] discards` must still be seen: in the dead pile or a
/// public set (where it went), or the active card.
fn check_discards(s: &OnePackState, seats: &[SeatInfo]) -> Result<(), PositionError> {
    let mut listed = [0u8; CARD_TYPES];
    for (x, info) in seats.iter().enumerate() {
        for &c in &info.discards {
            listed[c.index()] += 1;
            if listed[c.index()] > s.visible[c.index()] {
                return Err(PositionError::Game(format!(
                    "'seats.{x}.discards': {c} is listed as discarded, but not as many {c} are \
                     in the dead pile or the public sets (a discard is dead or melded; list it \
                     there too; an active discard is its owner's last discard without being \
                     listed)"
                )));
            }
        }
    }
    Ok(())
}

/// A stand-in block of `size` cards with `khaps` triples, to be replaced by a real filling (only
/// its size and Khap count are read).
fn placeholder(size: usize, khaps: u32) -> Hand {
    let mut h = Hand::EMPTY;
    let mut types = Card::all();
    for _ in 0..khaps {
        let c = types.next().expect("at most 7 Khaps in 20 cards");
        (0..3).for_each(|_| h.add(c));
    }
    for c in types.take(size - 3 * khaps as usize) {
        h.add(c);
    }
    h
}

/// The seat's own decision must be a real one: in a turn option no forced claim (C1 win, C2
/// Khui, C3 pair) of its own takes the card first; a seat to discard has trash to discard.
fn check_decision(
    own: Hand,
    active: Option<Active>,
    opts: &crate::games::tusac::options::Options,
    me: Seat,
) -> Result<(), PositionError> {
    let Some(a) = active else {
        if legal_discards(own) == 0 {
            return Err(PositionError::Game(format!(
                "'hand' has no trash: seat {me}'s block is complete and the game would already \
                 be won, so there is no discard to choose"
            )));
        }
        return Ok(());
    };
    let c = a.card;
    let forced = if can_win(own, c) {
        Some("C1: it wins on it")
    } else if own.count(c) == 3 {
        Some("C2: it holds three and must make the Khui")
    } else if !opts.pair_priority_excludes_turn_player && pair_priority_binds(own, c, opts) {
        Some("C3: its pair binds it to take the triple")
    } else {
        None
    };
    match forced {
        Some(why) => Err(PositionError::Game(format!(
            "'active' = {c}: seat {me} would be forced to claim it ({why}), so there is no \
             turn option to decide"
        ))),
        None => Ok(()),
    }
}

/// A first consistent filling of the hidden blocks (Khap counts kept, no new triple), or an
/// error when none is found.
fn first_filling(s: &OnePackState, me: Seat) -> Result<OnePackState, PositionError> {
    let mut rng = stream_rng(0, 0, 0);
    for _ in 0..FILL_ATTEMPTS {
        if let Some(filled) = determinize::fresh(s, me, &mut rng) {
            return Ok(filled);
        }
    }
    Err(PositionError::Game(
        "the hidden blocks cannot be dealt from the unseen cards: the other seats' Khaps need \
         types with three unseen copies, and the rest of each block holds at most two of a type"
            .into(),
    ))
}
