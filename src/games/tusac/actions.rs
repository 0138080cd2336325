//! The vocabulary both rule cores share: the decisions ([`Action`]), whose decision it is
//! ([`Phase`]), the face-up card ([`Active`], [`Source`]), what happened ([`Event`]) and the rule
//! that forced an engine move ([`Rule`]), with the legal-action list ([`ActionList`]).

use super::card::Card;
use super::meld::Meld;
use crate::game::Seat;
use arrayvec::ArrayVec;
use std::fmt;

/// The capacity of [`ActionList`]: the larger of the two cores' bounds on the legal actions of
/// one decision (one-pack 21, multi-pack 24); each core checks its own bound against it.
pub const MAX_ACTIONS: usize = 24;

/// The legal-action list of both rule cores.
pub type ActionList = ArrayVec<Action, MAX_ACTIONS>;

/// Where the active card came from (§0.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Discarded by its owner.
    Discard,
    /// Just drawn by its owner, the turn player.
    OwnDraw,
    /// Drawn by its owner, who declined it; offered to the next seat.
    PassedDraw,
}

/// The single face-up card players may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Active {
    /// The card.
    pub card: Card,
    /// Its source.
    pub source: Source,
    /// The discarder or drawer.
    pub owner: Seat,
    /// For a discard: whether it was a worst card (§5); true otherwise.
    pub worst: bool,
}

/// Whose decision it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `MustDiscard(X)`.
    MustDiscard(Seat),
    /// `TurnOption(T, A)`.
    TurnOption(Seat),
    /// A seat is offered an optional out-of-turn claim on the active card (4sac F2, Sisepai
    /// S1/S2): it answers with `Meld` or `Pass`.
    Claim(Seat),
    /// The game is over.
    Over,
}

/// A decision (§4.2). Claims are forced in classic, so the engine makes them (see [`Event`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// `Discard(card)` in `MustDiscard`.
    Discard(Card),
    /// `Meld(set_spec)` in `TurnOption`: the active card plus these private cards.
    Meld(Meld),
    /// `Draw` in `TurnOption` on a discard or passed draw.
    Draw,
    /// `PassDrawn` in `TurnOption` on the seat's own draw.
    PassDrawn,
    /// Declines an optional claim (4sac F2, Sisepai S1/S2) in `Claim`.
    Pass,
    /// Adds the seat's own draw to its exposed `Triple` of that card (4sac F3).
    Upgrade,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::Meld(m) => write!(f, "meld {m}"),
            Action::Draw => f.write_str("draw"),
            Action::PassDrawn => f.write_str("pass"),
            Action::Pass => f.write_str("decline"),
            Action::Upgrade => f.write_str("upgrade"),
        }
    }
}

/// The rule that forced an engine move, by its spec identifier.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// §1.4 step 3: a dealt quadruple is exposed as a Quan.
    Quan,
    /// §1.4 step 5: `F`'s dealt hand is complete.
    NaturalWin,
    /// C1 winning priority.
    C1,
    /// C2 Khap priority (Khui).
    C2,
    /// C3 pair priority.
    C3,
    /// §4.7: a draw is needed and the stock is at its floor.
    StockFloor,
    /// §1.4 step 1: some seat holds neither a non-King triple nor a King; the deal is redone.
    Redeal,
    /// §1.4 step 2: the double rank is read from the bottom of the stock, Kings skipped.
    DoubleRank,
    /// §1.4 step 3: a dealt non-King quadruple goes to the face-down block.
    FaceDown,
    /// §4.6 S1: a drawn King (win calls, then the drawer's lone meld).
    S1,
    /// §4.6 S2: a win in the claim window is forced.
    S2,
    /// §4.6 S4: the drawer declined its draw and discards it.
    S4,
    /// §4.6 S6: a hand of Kings only makes no discard.
    S6,
    /// §4.7: the stock is empty and the dead pile is shuffled into a new stock.
    Reshuffle,
    /// §1.4 step 3 (4sac): a dealt quadruple is exposed as a dealt Kong.
    DealtKong,
}

impl Rule {
    /// The spec's identifier.
    pub const fn id(self) -> &'static str {
        match self {
            Rule::Quan => "1.4-Quan",
            Rule::NaturalWin => "1.4-NaturalWin",
            Rule::C1 => "C1",
            Rule::C2 => "C2",
            Rule::C3 => "C3",
            Rule::StockFloor => "4.7-StockFloor",
            Rule::Redeal => "1.4-Redeal",
            Rule::DoubleRank => "1.4-DoubleRank",
            Rule::FaceDown => "1.4-FaceDown",
            Rule::S1 => "S1",
            Rule::S2 => "S2",
            Rule::S4 => "S4",
            Rule::S6 => "S6",
            Rule::Reshuffle => "4.7-Reshuffle",
            Rule::DealtKong => "1.4-Kong",
        }
    }
    const fn why(self) -> &'static str {
        match self {
            Rule::Quan => "a dealt quadruple is exposed",
            Rule::NaturalWin => "the first player's dealt hand already passes the win test",
            Rule::C1 => "winning priority",
            Rule::C2 => "Khap priority, the Khui is forced",
            Rule::C3 => "pair priority, the triple is forced",
            Rule::StockFloor => "a draw is needed and the stock is at its floor",
            Rule::Redeal => "a seat held neither a non-King triple nor a King",
            Rule::DoubleRank => "the bottom non-King card of the stock names the double rank",
            Rule::FaceDown => "a dealt quadruple is set aside face down",
            Rule::S1 => "a drawn King: win calls, then the drawer's lone King",
            Rule::S2 => "a winning meld is forced",
            Rule::S4 => "a declined draw is discarded by its drawer",
            Rule::S6 => "a hand of Kings only cannot discard",
            Rule::Reshuffle => "the stock is empty: the dead pile becomes the stock",
            Rule::DealtKong => "a dealt quadruple is exposed",
        }
    }
}

/// Something that happened in a step, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Event {
    /// Placeholder for fixed storage; never reported.
    #[default]
    None,
    /// A Quan exposed after the deal (forced, §1.4).
    Quan {
        /// Holder.
        seat: Seat,
        /// The card type.
        card: Card,
    },
    /// A discard, with its worst-card judgement (§5).
    Discard {
        /// Discarder.
        seat: Seat,
        /// The card.
        card: Card,
        /// Whether it was a worst card; `None` where §5 does not apply (the multi-pack core).
        worst: Option<bool>,
    },
    /// The active card taken into a public set; `rule` is set when the engine forced it.
    Meld {
        /// Melder.
        seat: Seat,
        /// The set made.
        meld: Meld,
        /// The active card taken.
        active: Card,
        /// The forcing rule, if forced.
        rule: Option<Rule>,
    },
    /// `seat` declined the active card (if any), which went to the dead pile, and drew `card`.
    Draw {
        /// Drawer.
        seat: Seat,
        /// The drawn card (face up).
        card: Card,
        /// The declined card sent to the dead pile.
        declined: Option<Card>,
    },
    /// The drawer declined its own draw; the next seat is offered it.
    PassDrawn {
        /// Drawer.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The game ended: a winner, or a drawn game.
    End {
        /// Winner, if any.
        winner: Option<Seat>,
        /// The rule that ended it.
        rule: Rule,
    },
    /// The deal was redone this many times before this one (§1.4 step 1, forced).
    Redealt {
        /// Number of deals discarded.
        times: u16,
    },
    /// The double rank, read from this card near the bottom of the stock (§1.4 step 2).
    DoubleRank {
        /// The card looked at (public; it stays in the stock).
        card: Card,
    },
    /// Four identical dealt cards went to a seat's face-down block (§1.4 step 3); opponents
    /// see only that it happened, not the card.
    FaceDown {
        /// Holder.
        seat: Seat,
    },
    /// The dead pile was shuffled into a new stock of this many cards (§4.7).
    Reshuffle {
        /// Cards in the new stock.
        cards: u16,
    },
    /// `seat` holds only Kings and makes no discard (§4.6 S6).
    NoDiscard {
        /// The seat.
        seat: Seat,
    },
    /// The drawer declined its own draw and discards it (§4.6 S4).
    DeclinedDraw {
        /// Drawer.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A dealt Kong exposed after the deal (forced, §1.4 step 3, 4sac).
    DealtKong {
        /// Holder.
        seat: Seat,
        /// The card type.
        card: Card,
    },
    /// A seat is offered an optional claim on the active card (F2): public, it holds a Pong or a
    /// pair of that card.
    Offer {
        /// The seat asked.
        seat: Seat,
        /// The claim it may make.
        meld: Meld,
        /// The active card.
        active: Card,
    },
    /// The drawer added its own draw to its exposed Pong, making a Kong (F3); `rule` is set when
    /// the engine forced it as a win.
    Upgrade {
        /// The drawer.
        seat: Seat,
        /// The card added.
        card: Card,
        /// The forcing rule, if forced.
        rule: Option<Rule>,
    },
}

impl Event {
    /// The rule that forced this event, if the engine applied it by a rule.
    pub fn forced_by(&self) -> Option<Rule> {
        match *self {
            Event::Quan { .. } => Some(Rule::Quan),
            Event::DealtKong { .. } => Some(Rule::DealtKong),
            Event::Meld { rule, .. } | Event::Upgrade { rule, .. } => rule,
            Event::End { rule, .. } => Some(rule),
            Event::Redealt { .. } => Some(Rule::Redeal),
            Event::DoubleRank { .. } => Some(Rule::DoubleRank),
            Event::FaceDown { .. } => Some(Rule::FaceDown),
            Event::Reshuffle { .. } => Some(Rule::Reshuffle),
            Event::NoDiscard { .. } => Some(Rule::S6),
            Event::DeclinedDraw { .. } => Some(Rule::S4),
            _ => None,
        }
    }
}

/// Writes ` (forced ID: why)` for the rule that forced a move, if any.
fn forced(f: &mut fmt::Formatter<'_>, rule: Option<Rule>) -> fmt::Result {
    match rule {
        Some(r) => write!(f, " (forced {}: {})", r.id(), r.why()),
        None => Ok(()),
    }
}

impl Event {
    /// Writes an event of the deal and its steps (§1.3–1.4) or of the stock: Quans, dealt
    /// Kongs, redeals, the double rank, face-down quadruples, reshuffles.
    fn fmt_deal(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::Quan { seat, card } => {
                write!(f, "seat {seat} exposes Quan [{card} {card} {card} {card}]")?;
                forced(f, Some(Rule::Quan))
            }
            Event::DealtKong { seat, card } => {
                write!(
                    f,
                    "seat {seat} exposes dealt Kong [{card} {card} {card} {card}]"
                )?;
                forced(f, Some(Rule::DealtKong))
            }
            Event::Redealt { times } => write!(f, "the deal was redone {times} times"),
            Event::DoubleRank { card } => {
                write!(
                    f,
                    "the double rank is {} (from {card})",
                    &card.to_string()[1..]
                )
            }
            Event::FaceDown { seat } => write!(f, "seat {seat} sets four cards face down"),
            Event::Reshuffle { cards } => {
                write!(
                    f,
                    "the dead pile is shuffled into a new stock of {cards} cards"
                )
            }
            _ => Ok(()),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::None => Ok(()),
            Event::Quan { .. }
            | Event::DealtKong { .. }
            | Event::Redealt { .. }
            | Event::DoubleRank { .. }
            | Event::FaceDown { .. }
            | Event::Reshuffle { .. } => self.fmt_deal(f),
            Event::Discard { seat, card, worst } => {
                write!(
                    f,
                    "seat {seat} discards {card}{}",
                    match worst {
                        Some(true) => " (worst)",
                        Some(false) => " (not worst)",
                        None => "",
                    }
                )
            }
            Event::Meld {
                seat,
                meld,
                active,
                rule,
            } => {
                write!(f, "seat {seat} takes {active}: {meld}")?;
                forced(f, rule)
            }
            Event::Draw {
                seat,
                card,
                declined: Some(d),
            } => {
                write!(
                    f,
                    "seat {seat} declines {d} (to the dead pile) and draws {card}"
                )
            }
            Event::Draw {
                seat,
                card,
                declined: None,
            } => write!(f, "seat {seat} draws {card}"),
            Event::PassDrawn { seat, card } => {
                write!(f, "seat {seat} passes its draw {card} to the next seat")
            }
            Event::End {
                winner: Some(w),
                rule,
            } => write!(f, "seat {w} wins ({}: {})", rule.id(), rule.why()),
            Event::End { winner: None, rule } => {
                write!(f, "the game is drawn ({}: {})", rule.id(), rule.why())
            }
            Event::NoDiscard { seat } => write!(f, "seat {seat} holds only Kings: no discard"),
            Event::DeclinedDraw { seat, card } => {
                write!(f, "seat {seat} declines its draw {card} and discards it")
            }
            Event::Offer { seat, meld, active } => {
                write!(f, "seat {seat} is offered {active}: {meld} (optional, F2)")
            }
            Event::Upgrade { seat, card, rule } => {
                write!(
                    f,
                    "seat {seat} adds {card} to its exposed Triple: a Kong (F3)"
                )?;
                forced(f, rule)
            }
        }
    }
}
