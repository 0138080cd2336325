//! The values Chắn's state machine works with: its size bounds, the deal's setup, phases,
//! the live card, actions, the rules it cites and the events it reports (§5).

use super::card::Card;
use super::score::Score;
use crate::game::{Seat, MAX_SEATS};
use std::fmt;

/// Cards in the deck (§1.1).
pub const DECK_SIZE: usize = 100;
/// Most players (§2.1, option `players`).
pub(crate) const MAX_PLAYERS: usize = 5;
const _: () = assert!(MAX_PLAYERS <= MAX_SEATS);
/// Cards dealt to each player; the first player gets one more (§2.4).
pub(crate) const HAND_SIZE: usize = 19;
/// Bound on the legal actions of one decision. `Opening`: at most 20 distinct concealed
/// identities plus `DeclareThienU` (and a hand of 20 distinct cards has no Thiên ù), so ≤ 21;
/// `MustDiscard`/`MustReturn`: ≤ 19 distinct concealed identities (20 cards with at least one
/// pair exposed); `Turn`/`Drawn`: ≤ 3 eats (the live card's identity and the two other suits of
/// its rank) + `Chiu` + `Draw`/`EndHand`/`PassDrawn` = 5; windows: 2. The test
/// `action_capacity_is_enough` checks the bound is reached only by `Opening`.
pub const MAX_ACTIONS: usize = 21;
/// Bound on the events of one step: the deal exposes at most 5 + 4·4 = 21 Thiên khai quads
/// (5 players); an action reports itself, a draw and the end (≤ 3).
pub(crate) const MAX_EVENTS: usize = 24;

/// Where a card on the table came from (§2.6 `origin`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// Drawn from the stock (kept when passed on).
    Stock,
    /// Discarded.
    Discard,
    /// Returned after an out-of-turn chíu.
    Return,
}

/// The step that put a card at its current gate (§2.6 v2 `via`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Via {
    /// A discard by the previous seat.
    Discard,
    /// The gate owner's own draw.
    Draw,
    /// The previous seat passed its drawn card.
    PassDrawn,
    /// A return after an out-of-turn chíu.
    MustReturn,
}

/// The live card at a gate (§2.5–2.6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Live {
    /// The card.
    pub card: Card,
    /// The gate it lies at: `G(gate)`.
    pub gate: Seat,
    /// Its origin.
    pub origin: Origin,
    /// The step that put it here.
    pub via: Via,
    /// The player who put it here (none for the gate owner's own draw).
    pub(crate) releaser: Option<Seat>,
}

/// The phase the gate owner was about to enter when a card appeared (`resume` of §5.2.7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Resume {
    /// `Turn(O, o)`.
    Turn,
    /// `Drawn(O, d)`.
    Drawn,
}

/// The phases of §5.1 (the live card is `ChanState::live`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `Opening`: the first player declares Thiên ù or discards.
    Opening(Seat),
    /// `UWindow(c, g)`: `seat` is asked whether to ù.
    UWindow {
        /// The seat asked.
        seat: Seat,
        /// What the gate owner does next.
        resume: Resume,
    },
    /// `ChiuWindow(c, g)`: `seat` may chíu out of turn.
    ChiuWindow {
        /// The seat asked.
        seat: Seat,
        /// What the gate owner does next.
        resume: Resume,
    },
    /// `Turn(P, o)`.
    Turn(Seat),
    /// `Drawn(P, d)`.
    Drawn(Seat),
    /// `MustDiscard(P)`.
    MustDiscard(Seat),
    /// `MustReturn(Q, g, resume)`.
    MustReturn {
        /// The seat that chíu'd.
        seat: Seat,
        /// The gate the chíu'd card lay at.
        gate: Seat,
        /// What the gate owner does next.
        resume: Resume,
    },
    /// `Ended`.
    Ended,
}

/// A decision (§5.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `Discard(x)` (also the return of `MustReturn`).
    Discard(Card),
    /// `Eat(h)`: hand card `hand` takes the live card `card`.
    Eat {
        /// The hand card `h`.
        hand: Card,
        /// The live card.
        card: Card,
    },
    /// `Chiu` of the live card.
    Chiu(Card),
    /// `Draw`.
    Draw,
    /// `PassDrawn`.
    PassDrawn,
    /// `EndHand` (stock empty).
    EndHand,
    /// `DeclareThienU`.
    DeclareThienU,
    /// `ClaimU` on the live card.
    ClaimU(Card),
    /// `Decline` in a window.
    Decline,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::Eat { hand, card } => write!(f, "eat {card} with {hand}"),
            Action::Chiu(c) => write!(f, "chiu {c}"),
            Action::Draw => f.write_str("draw"),
            Action::PassDrawn => f.write_str("pass"),
            Action::EndHand => f.write_str("end"),
            Action::DeclareThienU => f.write_str("thien_u"),
            Action::ClaimU(c) => write!(f, "u {c}"),
            Action::Decline => f.write_str("decline"),
        }
    }
}

/// The rule by which the engine applied a move, by its spec identifier.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// §5.2.1: a dealt 4-of-a-kind is laid down (`auto_expose_thien_khai`).
    ThienKhai,
    /// §7.1/§8: the hand ends with an ù and is scored.
    U,
    /// §7.2/§8: the hand ends with Thiên ù and is scored.
    ThienU,
    /// §5.2.8 / A14: `EndHand` on an empty stock, a drawn hand.
    StockEmpty,
}

impl Rule {
    /// The spec's identifier.
    pub const fn id(self) -> &'static str {
        match self {
            Rule::ThienKhai => "5.2.1-ThienKhai",
            Rule::U => "7.1-U",
            Rule::ThienU => "7.2-ThienU",
            Rule::StockEmpty => "5.2.8-StockEmpty",
        }
    }
}

/// Something that happened in a step, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Event {
    /// Placeholder for fixed storage; never reported.
    #[default]
    None,
    /// A dealt 4-of-a-kind laid down (forced, §5.2.1).
    ThienKhai {
        /// Holder.
        seat: Seat,
        /// The identity.
        card: Card,
    },
    /// A discard to `G(gate)`; `ret` for a return after a chíu.
    Discard {
        /// Discarder.
        seat: Seat,
        /// The card.
        card: Card,
        /// The gate it goes to.
        gate: Seat,
        /// A return of `MustReturn`.
        ret: bool,
    },
    /// An eat.
    Eat {
        /// Eater.
        seat: Seat,
        /// The hand card.
        hand: Card,
        /// The live card.
        card: Card,
    },
    /// A chíu.
    Chiu {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
        /// Out of turn (then a return follows).
        out_of_turn: bool,
    },
    /// `seat` let `declined` die and drew `card`.
    Draw {
        /// Drawer.
        seat: Seat,
        /// Drawn card (face up at its gate).
        card: Card,
        /// The offer it did not take (now dead).
        declined: Card,
    },
    /// `seat` passed its drawn card on.
    PassDrawn {
        /// Who.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// `seat` declined a window on `card`.
    Decline {
        /// Who.
        seat: Seat,
        /// The live card.
        card: Card,
        /// The ù window (else the chíu window).
        u: bool,
    },
    /// `seat` claimed ù on `card`.
    ClaimU {
        /// Who.
        seat: Seat,
        /// The ù card.
        card: Card,
    },
    /// The first player declared Thiên ù.
    DeclareThienU {
        /// Who.
        seat: Seat,
    },
    /// `seat` ended the hand on an empty stock, letting `declined` die.
    EndHand {
        /// Who.
        seat: Seat,
        /// The offer.
        declined: Card,
    },
    /// The hand ended (forced): a scored win or a drawn hand.
    End {
        /// The winner, if any.
        winner: Option<Seat>,
        /// The rule.
        rule: Rule,
        /// The winner's score (default for a drawn hand).
        score: Score,
    },
}

impl Event {
    /// The rule that forced this event, if the engine applied it by a rule.
    pub fn forced_by(&self) -> Option<Rule> {
        match *self {
            Event::ThienKhai { .. } => Some(Rule::ThienKhai),
            Event::End { rule, .. } => Some(rule),
            _ => None,
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::None => Ok(()),
            Event::ThienKhai { seat, card } => write!(
                f,
                "seat {seat} lays down [{card} {card} {card} {card}] (forced {}: a dealt 4-of-a-kind)",
                Rule::ThienKhai.id()
            ),
            Event::Discard {
                seat,
                card,
                gate,
                ret,
            } => {
                let what = if ret { "returns" } else { "discards" };
                write!(f, "seat {seat} {what} {card} to gate {gate}")
            }
            Event::Eat { seat, hand, card } => {
                let kind = if hand == card { "Chan" } else { "Ca" };
                write!(f, "seat {seat} eats {card} with {hand} ({kind})")
            }
            Event::Chiu {
                seat,
                card,
                out_of_turn,
            } => write!(
                f,
                "seat {seat} chius {card}{}",
                if out_of_turn { " out of turn" } else { "" }
            ),
            Event::Draw {
                seat,
                card,
                declined,
            } => write!(f, "seat {seat} lets {declined} die and draws {card}"),
            Event::PassDrawn { seat, card } => write!(f, "seat {seat} passes {card} on"),
            Event::Decline { seat, card, u } => write!(
                f,
                "seat {seat} declines {} on {card}",
                if u { "u" } else { "chiu" }
            ),
            Event::ClaimU { seat, card } => write!(f, "seat {seat} claims u on {card}"),
            Event::DeclareThienU { seat } => write!(f, "seat {seat} declares thien u"),
            Event::EndHand { seat, declined } => {
                write!(f, "seat {seat} lets {declined} die; the stock is empty")
            }
            Event::End {
                winner: Some(w),
                rule,
                score,
            } => write!(f, "seat {w} wins ({}): {score}", rule.id()),
            Event::End { rule, .. } => write!(f, "the hand is drawn ({})", rule.id()),
        }
    }
}

/// The facts of a deal beyond the deck: the first player `F` and the previous winner (§2.3,
/// §4 `prev_winner`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Setup {
    /// `F`, the first player (cái).
    pub first: Seat,
    /// The winner of the immediately preceding hand, if any.
    pub prev_winner: Option<Seat>,
}
