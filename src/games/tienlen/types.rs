//! The values Tiến Lên's state machine works with: its size bounds, the deal's setup, phases,
//! actions, the rules it cites, transfers and the events it reports (§4, §7).

use super::card_set::Cards;
use super::combo::ComboType;
use super::moves::MAX_ACTIONS;
use super::toi_trang::ToiTrang;
use crate::game::{Seat, MAX_SEATS};
use arrayvec::ArrayVec;
use std::fmt;

/// Most players (§2.1).
pub(crate) const MAX_PLAYERS: usize = 4;
const _: () = assert!(MAX_PLAYERS <= MAX_SEATS);
/// Cards dealt to each player (§2.3).
pub(crate) const HAND_SIZE: usize = 13;
/// Bound on the events of one step. The deal: `Deal`, `ToiTrang`, 3 × 2 payments... ≤ 9.
/// One action: the play or pass, a chain payment, `Finish`, 3 `Cong`, `Den`, the last place,
/// `TrickEnd`, 3 `Leave`, ≤ 12 stake transfers, 3 cóng payments, a thối, 3 leaver thối and
/// `End` — at most 35.
pub(crate) const MAX_EVENTS: usize = 40;
/// Bound on the transfers of one game: a chặt payment needs a hàng play (≥ 4 cards), so at most
/// 13; then ≤ 12 stakes, 3 cóng, 1 thối and 3 leaver thối (or 3 × 2 for a tới trắng).
pub(crate) const MAX_TRANSFERS: usize = 32;

/// The list of legal actions.
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

/// A decision (§4.2). `Display` gives the unique text records compare: `play 3s 4s 5s`,
/// `pass`, `chop 5s 5c 6d 6h 7s 7c 8d 8h`, `decline`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `Play(x)` in `Lead` or `Respond`.
    Play(Cards),
    /// `Pass` in `Respond`.
    Pass,
    /// `Chop(x)` out of turn in an `OotWindow`.
    Chop(Cards),
    /// `Decline` in an `OotWindow`.
    Decline,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play(c) => write!(f, "play {c}"),
            Action::Pass => f.write_str("pass"),
            Action::Chop(c) => write!(f, "chop {c}"),
            Action::Decline => f.write_str("decline"),
        }
    }
}

/// Whose decision it is (§4.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `Lead(P)`: no top; P plays any valid combination.
    Lead(Seat),
    /// `Respond(P)`: P beats the top or passes.
    Respond(Seat),
    /// `OotWindow(b)`: the polled seat chops out of turn or declines.
    OotWindow(Seat),
    /// `GameOver`.
    Over,
}

/// How a game of a match starts (§2.3–2.5): who dealt, whether it is an initial game, and the
/// leader of a normal game (the previous first finisher or đền player).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The dealer: `deck[k]` goes to seat `(dealer + k) mod N`.
    pub dealer: Seat,
    /// An initial game (§2.4): the holder of `3s` (or the lowest dealt card) leads with it.
    pub initial: bool,
    /// The leader of a normal game. `None` in a normal game falls back to the holder of the
    /// lowest dealt card, without the first-play constraint.
    pub leader: Option<Seat>,
}

impl Setup {
    /// The first game of a match: seat 0 deals, initial game (§2.3).
    pub const FIRST: Setup = Setup {
        dealer: 0,
        initial: true,
        leader: None,
    };
}

/// The rule that forced an engine move or payment, by its rule id (the rules reference's table
/// of rule ids in records).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// §5: a tới trắng, with the condition met.
    ToiTrang(ToiTrang),
    /// §4.3.3: a player emptied his hand.
    Finish,
    /// §4.4: the last active seat takes the next place.
    LastActive,
    /// §6.2: a seat that never played is frozen (cóng).
    Cong,
    /// §6.4: the đền player pays for all cóng seats.
    Den,
    /// §4.3.5: the trick ends; its owner leads.
    EndTrick,
    /// §4.3.5: the trick ends and its owner has finished; the next active seat leads.
    HuongSai,
    /// §4.3 v2 `forbid_finish_on_two`: a leader holding only a 2 leaves play.
    LeaveOnTwo,
    /// §7.4: the last chopped player pays the chain to the final top owner.
    Chat,
    /// §7.4: the last victim emptied his hand: the chain is void.
    VoidChain,
    /// §7.2: a base transfer by place.
    PlaceStake,
    /// §7.3: the last-placed player (place N, at a normal end) pays his thối.
    Thoi,
    /// §4.3 v2: a leaver pays thối on his 2s to the seat placed just before him.
    LeaveThoi,
    /// §7.5: a cóng seat pays the first finisher.
    CongPay,
    /// §7.6: a loser pays the tới trắng winner.
    ToiTrangPay,
    /// §4.2 `GameOver`.
    GameOver,
}

impl Rule {
    /// The rule id records write (`7.3-Thoi`), led by its section number.
    pub const fn id(self) -> &'static str {
        match self {
            Rule::ToiTrang(t) => t.id(),
            Rule::Finish => "4.3-Finish",
            Rule::LastActive => "4.4-LastActive",
            Rule::Cong => "6.2-Cong",
            Rule::Den => "6.4-Den",
            Rule::EndTrick => "4.3-EndTrick",
            Rule::HuongSai => "4.3-HuongSai",
            Rule::LeaveOnTwo => "4.3-ForbidFinishOnTwo",
            Rule::Chat => "7.4-Chat",
            Rule::VoidChain => "7.4-VoidChain",
            Rule::PlaceStake => "7.2-PlaceStake",
            Rule::Thoi => "7.3-Thoi",
            Rule::LeaveThoi => "4.3-LeaveThoi",
            Rule::CongPay => "7.5-Cong",
            Rule::ToiTrangPay => "7.6-ToiTrang",
            Rule::GameOver => "4.2-GameOver",
        }
    }
}

/// One payment between two players, in half-cược (§7.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transfer {
    /// Payer.
    pub from: Seat,
    /// Payee.
    pub to: Seat,
    /// Amount in half-cược.
    pub amount: u32,
    /// Why.
    pub rule: Rule,
}

impl Default for Transfer {
    fn default() -> Self {
        Transfer {
            from: 0,
            to: 0,
            amount: 0,
            rule: Rule::PlaceStake,
        }
    }
}

/// The chặt chain of the current trick (§4.1, §7.4), kept as what settlement needs: its total
/// value, its length and the last victim.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Chain {
    /// Number of chặt in the chain (0 = empty).
    pub links: u8,
    /// `val1 + … + valm` in half-cược.
    pub total: u32,
    /// The last victim `vm`.
    pub victim: Seat,
    /// `em`: the last victim emptied his hand with the chopped play.
    pub(crate) victim_emptied: bool,
}

/// Something that happened, in order. Forced events name their rule ([`Event::forced_by`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Event {
    /// Placeholder for fixed storage; never reported.
    #[default]
    None,
    /// The deal (§2.3).
    Deal {
        /// Dealer.
        dealer: Seat,
        /// Leader.
        leader: Seat,
        /// Initial game.
        initial: bool,
    },
    /// A play in turn.
    Play {
        /// Player.
        seat: Seat,
        /// Cards.
        cards: Cards,
        /// Their type.
        kind: ComboType,
    },
    /// A pass in turn.
    Pass {
        /// Passer.
        seat: Seat,
    },
    /// An out-of-turn chop.
    Chop {
        /// Chopper.
        seat: Seat,
        /// Cards.
        cards: Cards,
        /// Their type.
        kind: ComboType,
    },
    /// An out-of-turn chance declined.
    Decline {
        /// The polled seat.
        seat: Seat,
    },
    /// A tới trắng (forced, §5).
    ToiTrang {
        /// Winner.
        seat: Seat,
        /// The first condition met, in §5.1 order.
        condition: ToiTrang,
    },
    /// A seat took a place: by finishing, as the last active seat, as cóng or as a leaver.
    Place {
        /// Seat.
        seat: Seat,
        /// Its place (1-based).
        place: u8,
        /// `Finish`, `LastActive`, `Cong` or `LeaveOnTwo`.
        rule: Rule,
    },
    /// The đền player was found (§6.4).
    Den {
        /// The đền player.
        seat: Seat,
    },
    /// A trick ended; `leader` leads the next (`rule` is `EndTrick` or `HuongSai`).
    TrickEnd {
        /// The next leader.
        leader: Seat,
        /// The rule.
        rule: Rule,
    },
    /// A chặt chain was voided (§7.4).
    VoidChain {
        /// The last victim, who had emptied his hand.
        victim: Seat,
    },
    /// A payment.
    Pay(Transfer),
    /// The game is over.
    End {
        /// Winner (place 1).
        winner: Seat,
    },
}

impl Event {
    /// The rule that forced this event, if the engine applied it by a rule.
    pub fn forced_by(&self) -> Option<Rule> {
        match *self {
            Event::ToiTrang { condition, .. } => Some(Rule::ToiTrang(condition)),
            Event::Place { rule, .. } | Event::TrickEnd { rule, .. } => Some(rule),
            Event::Den { .. } => Some(Rule::Den),
            Event::VoidChain { .. } => Some(Rule::VoidChain),
            Event::Pay(t) => Some(t.rule),
            Event::End { .. } => Some(Rule::GameOver),
            _ => None,
        }
    }
}

/// Writes an amount in half-cược as cược (`1`, `1.5`).
pub(super) fn cuoc(half: u32) -> impl fmt::Display {
    struct C(u32);
    impl fmt::Display for C {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            if self.0.is_multiple_of(2) {
                write!(f, "{}", self.0 / 2)
            } else {
                write!(f, "{}.5", self.0 / 2)
            }
        }
    }
    C(half)
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::None => Ok(()),
            Event::Deal {
                dealer,
                leader,
                initial,
            } => write!(
                f,
                "seat {dealer} deals; seat {leader} leads ({} game)",
                if initial { "initial" } else { "normal" }
            ),
            Event::Play { seat, cards, kind } => write!(f, "seat {seat} plays {cards} ({kind})"),
            Event::Pass { seat } => write!(f, "seat {seat} passes"),
            Event::Chop { seat, cards, kind } => {
                write!(f, "seat {seat} chops out of turn with {cards} ({kind})")
            }
            Event::Decline { seat } => write!(f, "seat {seat} declines to chop"),
            Event::ToiTrang { seat, condition } => {
                write!(f, "seat {seat} wins at once: tới trắng {}", condition.id())
            }
            Event::Place { seat, place, rule } => {
                write!(f, "seat {seat} takes place {place} ({})", rule.id())
            }
            Event::Den { seat } => write!(f, "seat {seat} is the đền player ({})", Rule::Den.id()),
            Event::TrickEnd { leader, rule } => {
                write!(f, "the trick ends; seat {leader} leads ({})", rule.id())
            }
            Event::VoidChain { victim } => write!(
                f,
                "the chặt chain is void: seat {victim} went out with the chopped play ({})",
                Rule::VoidChain.id()
            ),
            Event::Pay(t) => write!(
                f,
                "seat {} pays seat {} {} cược ({})",
                t.from,
                t.to,
                cuoc(t.amount),
                t.rule.id()
            ),
            Event::End { winner } => write!(f, "game over; seat {winner} is first"),
        }
    }
}
