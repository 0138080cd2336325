//! The one-pack state machine of §4: deal and post-deal steps (§1.3–1.4), the claim window with
//! its priorities C1–C3, the turn option C5/C6, the discard rule C7 and the end conditions §4.7
//! (classic), and what 4sac changes through its options (§4.5): optional Kong/Pong claims asked
//! seat by seat (F2, [`Phase::Claim`]), the exposed Pong upgrade (F3), the passed draw (F5), the
//! drawn King, any non-King discard, and the Kong-deduction payout (§6.2).

use super::card::{Card, CARD_TYPES};
use super::hand::Hand;
use super::history::ClaimHistory;
use super::options::{ClaimRule, Core, DealtQuad, Payout};
use super::rules::{
    best_winning_meld_with, can_win_with, cards_of, discards_for, legal_melds_for, optional_claim,
    pair_priority_binds, Meld, Melds, Options, Taker,
};
use super::score::{classic_payouts, kong_payouts, Holdings, Win};
use super::sets::{value, Origin, SetInstance, SetKind, Zone};
use super::trash::{trash, trash_and_value};
use super::worst::worst_set;
use crate::fixed::CopyVec;
use crate::game::{Game, GameState, Outcome, Seat, MAX_SEATS};
use crate::rng::{shuffle, GameRng};
use arrayvec::ArrayVec;
use std::fmt;

/// Cards in one pack.
pub const DECK_SIZE: usize = 112;
/// Most players a one-pack variant seats.
pub const MAX_PLAYERS: usize = 4;
const _: () = assert!(
    MAX_PLAYERS <= MAX_SEATS,
    "the game loop keeps MAX_SEATS agent RNGs"
);
/// Bound on a player's public sets: with `q` Quans and `d` discards from 21 private cards,
/// `4q + d ≤ 21` and every meld is followed by a discard or ends the game, so sets ≤ `q + d + 1 ≤ 22`.
pub const MAX_PUBLIC_SETS: usize = 22;
/// Bound on the legal actions of one decision: discards are distinct non-King types of at most
/// 21 cards; a turn option offers at most [`super::rules::MAX_MELD_SHAPES`] melds plus a draw.
pub const MAX_ACTIONS: usize = 21;

/// The legal-action list of both rule cores (the larger of their bounds: this core's
/// [`MAX_ACTIONS`] and the multi-pack core's).
pub type ActionList = ArrayVec<Action, LIST_CAPACITY>;

/// The capacity of [`ActionList`].
pub const LIST_CAPACITY: usize = if MAX_ACTIONS > super::packs::state::MAX_ACTIONS {
    MAX_ACTIONS
} else {
    super::packs::state::MAX_ACTIONS
};
/// Bound on the events of one step: the deal reports at most 5 Quans per seat and a natural
/// win; an action reports itself, a draw, a claim and the end.
pub const MAX_EVENTS: usize = 4 * 5 + 1;

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

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::None => Ok(()),
            Event::Quan { seat, card } => {
                write!(
                    f,
                    "seat {seat} exposes Quan [{card} {card} {card} {card}] (forced {}: {})",
                    Rule::Quan.id(),
                    Rule::Quan.why()
                )
            }
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
                match rule {
                    Some(r) => write!(f, " (forced {}: {})", r.id(), r.why()),
                    None => Ok(()),
                }
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
            Event::NoDiscard { seat } => write!(f, "seat {seat} holds only Kings: no discard"),
            Event::DeclinedDraw { seat, card } => {
                write!(f, "seat {seat} declines its draw {card} and discards it")
            }
            Event::DealtKong { seat, card } => write!(
                f,
                "seat {seat} exposes dealt Kong [{card} {card} {card} {card}] (forced {}: {})",
                Rule::DealtKong.id(),
                Rule::DealtKong.why()
            ),
            Event::Offer { seat, meld, active } => {
                write!(f, "seat {seat} is offered {active}: {meld} (optional, F2)")
            }
            Event::Upgrade { seat, card, rule } => {
                write!(
                    f,
                    "seat {seat} adds {card} to its exposed Triple: a Kong (F3)"
                )?;
                match rule {
                    Some(r) => write!(f, " (forced {}: {})", r.id(), r.why()),
                    None => Ok(()),
                }
            }
        }
    }
}

/// A player's public block (§0.2).
pub type PublicBlock = CopyVec<SetInstance, MAX_PUBLIC_SETS>;

impl Default for SetInstance {
    fn default() -> Self {
        SetInstance::new(SetKind::King, &[], Zone::Public, Origin::Dealt)
    }
}

/// A Tứ Sắc game: the variant's rule options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OnePack {
    opts: Options,
}

impl OnePack {
    /// A game with these options. Errors when an option is outside what the engine supports.
    pub fn new(opts: Options) -> Result<OnePack, String> {
        opts.validate()?;
        if opts.core() != Core::OnePack {
            return Err(format!(
                "{}: the one-pack core runs only options with the Khap lock (khap_lock = true)",
                opts.variant
            ));
        }
        Ok(OnePack { opts })
    }

    /// The classic variant for `players` players (2–4).
    pub fn classic(players: u8) -> Result<OnePack, String> {
        OnePack::new(Options::classic(players))
    }

    /// The rule options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The cards of one pack in canonical order.
    pub fn fresh_deck() -> [Card; DECK_SIZE] {
        std::array::from_fn(|i| Card::from_index(i / 4))
    }

    /// Deals from a shuffled deck by the convention of §1.3 item 4, then runs §1.4.
    pub fn deal_deck(&self, deck: &[Card; DECK_SIZE]) -> OnePackState {
        let o = self.opts;
        let (n, f, hs) = (
            o.players as usize,
            o.first_player as usize,
            o.hand_size as usize,
        );
        let mut counts = [[0u8; CARD_TYPES]; MAX_PLAYERS];
        for (k, c) in deck[..n * hs].iter().enumerate() {
            counts[(f + k) % n][c.index()] += 1;
        }
        counts[f][deck[n * hs].index()] += 1;
        let mut s = OnePackState {
            opts: o,
            deck: *deck,
            next_draw: (n * hs + 1) as u8,
            private: [Hand::EMPTY; MAX_PLAYERS],
            public: [PublicBlock::default(); MAX_PLAYERS],
            visible: [0; CARD_TYPES],
            dead: [0; CARD_TYPES],
            active: None,
            phase: Phase::MustDiscard(f as Seat),
            outcome: None,
            turns: 0,
            events: CopyVec::default(),
            history: ClaimHistory::default(),
        };
        for (seat, seat_counts) in counts.iter_mut().enumerate().take(n) {
            for c in Card::all() {
                if seat_counts[c.index()] == 4 {
                    seat_counts[c.index()] = 0;
                    s.public[seat].push(SetInstance::new(
                        SetKind::Quad,
                        &[c; 4],
                        Zone::Public,
                        Origin::Dealt,
                    ));
                    s.visible[c.index()] += 4;
                    let seat = seat as Seat;
                    s.events.push(match o.dealt_quad {
                        DealtQuad::ExposeKong => Event::DealtKong { seat, card: c },
                        _ => Event::Quan { seat, card: c },
                    });
                }
            }
            s.private[seat] = Hand::from_counts(seat_counts);
        }
        if o.natural_win_for_first && trash(s.private[f]) == 0 {
            s.finish_win(f as Seat, None, Rule::NaturalWin);
        }
        s
    }
}

impl Game for OnePack {
    type State = OnePackState;
    fn name(&self) -> &'static str {
        "tusac"
    }
    fn variant(&self) -> &'static str {
        self.opts.variant
    }
    fn seats(&self) -> usize {
        self.opts.players as usize
    }
    fn deal(&self, rng: &mut GameRng) -> OnePackState {
        let mut deck = OnePack::fresh_deck();
        shuffle(&mut deck, rng);
        self.deal_deck(&deck)
    }
}

/// A Tứ Sắc game in progress. A plain `Copy` value.
#[derive(Copy, Clone, Debug)]
pub struct OnePackState {
    pub(super) opts: Options,
    pub(super) deck: [Card; DECK_SIZE],
    pub(super) next_draw: u8,
    pub(super) private: [Hand; MAX_PLAYERS],
    pub(super) public: [PublicBlock; MAX_PLAYERS],
    pub(super) visible: [u8; CARD_TYPES],
    pub(super) dead: [u8; CARD_TYPES],
    pub(super) active: Option<Active>,
    pub(super) phase: Phase,
    pub(super) outcome: Option<Outcome>,
    pub(super) turns: u32,
    pub(super) events: CopyVec<Event, MAX_EVENTS>,
    pub(super) history: ClaimHistory,
}

impl OnePackState {
    /// The rule options in force.
    pub fn options(&self) -> &Options {
        &self.opts
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        self.opts.players as usize
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The active card, if any.
    pub fn active(&self) -> Option<Active> {
        self.active
    }
    /// A seat's private block (hidden information: agents get it only for their own seat).
    pub fn private(&self, seat: Seat) -> Hand {
        self.private[seat as usize]
    }
    /// A seat's public sets.
    pub fn public_sets(&self, seat: Seat) -> &[SetInstance] {
        self.public[seat as usize].as_slice()
    }
    /// Counts of each type in the dead pile.
    pub fn dead(&self) -> &[u8; CARD_TYPES] {
        &self.dead
    }
    /// Counts of each type in every public block and the dead pile.
    pub fn visible(&self) -> &[u8; CARD_TYPES] {
        &self.visible
    }
    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        DECK_SIZE - self.next_draw as usize
    }
    /// The shuffled deck the game was dealt from (§1.3 item 4).
    pub fn deck(&self) -> &[Card; DECK_SIZE] {
        &self.deck
    }
    /// Whether the Khap counts are public (§1.4 step 4, classic only): with the classic names of
    /// dealt sets (`dealt_quad = ExposeQuan`, Quan and Khap announced after the deal).
    pub fn khaps_announced(&self) -> bool {
        self.opts.dealt_quad == DealtQuad::ExposeQuan
    }
    /// Number of Khaps (4sac: Pongs in hand) a seat holds: public when
    /// [`Self::khaps_announced`], hidden information otherwise.
    pub fn khaps(&self, seat: Seat) -> u32 {
        let h = self.private[seat as usize];
        h.types().filter(|&c| h.count(c) == 3).count() as u32
    }
    /// What the claim windows so far have shown (for determinization).
    pub fn claim_history(&self) -> &ClaimHistory {
        &self.history
    }

    /// The cards a seat's private block has lost since the deal: its discards and the private
    /// cards of its melds (all public).
    pub fn spent(&self, seat: Seat) -> Hand {
        self.history.spent(seat)
    }
    /// Number of discards a seat has made (public).
    pub fn discards(&self, seat: Seat) -> u32 {
        self.history.discards(seat)
    }
    /// Number of discards made so far.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub(super) fn next(&self, seat: Seat) -> Seat {
        (seat + 1) % self.opts.players
    }

    /// The claim order of §4.3 for the current active card: its turn player first.
    fn claim_order(&self, a: Active) -> ArrayVec<Seat, MAX_PLAYERS> {
        let n = self.opts.players;
        let (t, len) = match a.source {
            Source::Discard => (self.next(a.owner), n - 1),
            _ => (a.owner, n),
        };
        (0..len).map(|i| (t + i) % n).collect()
    }

    /// Runs `ClaimWindow(A)`: the forced win (C1/F1), the forced Khui and pair claims of classic
    /// (C2, C3) when their options say forced, then the optional claims of F2 seat by seat.
    fn claim_window(&mut self) {
        let a = self.active.expect("a claim window needs an active card");
        let order = self.claim_order(a);
        if let Some(&x) = order.iter().find(|&&x| self.wins_on(x, a)) {
            return self.take_win(x, a);
        }
        if self.opts.khui_rule == ClaimRule::Forced {
            if let Some(&x) = order
                .iter()
                .find(|&&x| self.private[x as usize].count(a.card) == 3)
            {
                self.history.window(a, false);
                let meld = Meld::new(SetKind::Quad, &[a.card; 3]);
                return self.take_active(x, meld, Some(Rule::C2));
            }
        }
        if self.opts.pair_claim_rule == ClaimRule::Forced {
            let skip = usize::from(self.opts.pair_priority_excludes_turn_player);
            if let Some(&x) = order[skip..]
                .iter()
                .find(|&&x| pair_priority_binds(self.private[x as usize], a.card, &self.opts))
            {
                self.history.window(a, false);
                let meld = Meld::new(SetKind::Triple, &[a.card; 2]);
                return self.take_active(x, meld, Some(Rule::C3));
            }
        }
        self.history.window(a, true);
        if self.may_upgrade(a.owner, a) {
            self.history.upgrade_open();
        }
        self.offer_from(a, 1);
    }

    /// F2: asks the first seat of the claim order from position `from` (never `T`, position 0)
    /// that has an optional claim ([`optional_claim`]); when none is left, `TurnOption(T)`. The
    /// history records which seats were looked at and which were asked.
    fn offer_from(&mut self, a: Active, from: usize) {
        let order = self.claim_order(a);
        for &x in order.iter().skip(from) {
            self.history.scanned(x);
            if let Some(meld) = optional_claim(&self.opts, self.private[x as usize], a.card) {
                self.history.asked(x);
                self.events.push(Event::Offer {
                    seat: x,
                    meld,
                    active: a.card,
                });
                self.phase = Phase::Claim(x);
                return;
            }
        }
        self.phase = Phase::TurnOption(order[0]);
    }

    /// The value of a seat's public sets under the point table (§2.5).
    fn public_value(&self, seat: Seat) -> u32 {
        let table = self.opts.point_table;
        self.public_sets(seat)
            .iter()
            .map(|s| value(table, s.kind, s.zone, s.origin, false))
            .sum()
    }

    /// Whether `seat` may upgrade its exposed Pong with the active card (F3): its own draw, the
    /// option on, and an exposed `Triple` of that card.
    fn may_upgrade(&self, seat: Seat, a: Active) -> bool {
        self.opts.exposed_triple_upgrade
            && a.source == Source::OwnDraw
            && a.owner == seat
            && self.exposed_triple(seat, a.card).is_some()
    }

    /// The index of `seat`'s exposed `Triple` of `card`, if any.
    fn exposed_triple(&self, seat: Seat, card: Card) -> Option<usize> {
        self.public_sets(seat)
            .iter()
            .position(|s| s.kind == SetKind::Triple && s.cards()[0] == card)
    }

    /// `CanWin(X, A)` (C1/F1): a winning meld, or (F3) the upgrade on a block at trash 0.
    fn wins_on(&self, x: Seat, a: Active) -> bool {
        let block = self.private[x as usize];
        can_win_with(&self.opts, block, a.card) || self.may_upgrade(x, a) && trash(block) == 0
    }

    /// Takes the forced win of `x` (C1/F1) with the best winning meld of §3.6, the upgrade
    /// counting as a meld worth a Kong in place of the Pong.
    fn take_win(&mut self, x: Seat, a: Active) {
        let b = &self.public[x as usize];
        let quan_or_khui = b.as_slice().iter().any(|s| s.kind == SetKind::Quad);
        let block = self.private[x as usize];
        let public = self.public_value(x);
        let meld = best_winning_meld_with(&self.opts, block, a.card, public, quan_or_khui);
        let upgrade = (self.may_upgrade(x, a) && trash(block) == 0).then(|| {
            let t = self.opts.point_table;
            let kong = value(t, SetKind::Quad, Zone::Public, Origin::Melded, false);
            let pong = value(t, SetKind::Triple, Zone::Public, Origin::Melded, false);
            public + kong - pong + u32::from(trash_and_value(block).1)
        });
        match (meld, upgrade) {
            (Some((_, hv)), Some(u)) if u > hv => self.upgrade(x, Some(Rule::C1)),
            (None, Some(_)) => self.upgrade(x, Some(Rule::C1)),
            (Some((m, _)), _) => self.take_active(x, m, Some(Rule::C1)),
            (None, None) => unreachable!("wins_on implies a winning meld or upgrade"),
        }
    }

    /// F3: adds the active card (the seat's own draw) to its exposed `Triple`, which becomes a
    /// melded `Quad`; then `AfterMeld`.
    fn upgrade(&mut self, x: Seat, rule: Option<Rule>) {
        let a = self.active.take().expect("an upgrade needs an active card");
        let i = self.exposed_triple(x, a.card).expect("an exposed Pong");
        let xi = x as usize;
        let old = self.public[xi];
        self.public[xi].clear();
        for (j, &set) in old.as_slice().iter().enumerate() {
            self.public[xi].push(if j == i {
                SetInstance::new(SetKind::Quad, &[a.card; 4], Zone::Public, Origin::Melded)
            } else {
                set
            });
        }
        self.visible[a.card.index()] += 1;
        self.events.push(Event::Upgrade {
            seat: x,
            card: a.card,
            rule,
        });
        self.after_meld(x, a);
    }

    /// Moves the active card and the meld's private cards into a new public set, then `AfterMeld`.
    fn take_active(&mut self, x: Seat, meld: Meld, rule: Option<Rule>) {
        let a = self.active.take().expect("a meld needs an active card");
        let xi = x as usize;
        self.private[xi] = self.private[xi].without_all(meld.used());
        for &c in meld.used() {
            self.history.spend(x, c, false);
        }
        let mut cards: ArrayVec<Card, 4> = meld.used().iter().copied().collect();
        cards.push(a.card);
        for c in &cards {
            self.visible[c.index()] += 1;
        }
        self.public[xi].push(SetInstance::new(
            meld.kind,
            &cards,
            Zone::Public,
            Origin::Melded,
        ));
        self.events.push(Event::Meld {
            seat: x,
            meld,
            active: a.card,
            rule,
        });
        self.after_meld(x, a);
    }

    /// `AfterMeld(X)`: the win test of §4.7, else `MustDiscard(X)`.
    fn after_meld(&mut self, x: Seat, a: Active) {
        if trash(self.private[x as usize]) == 0 {
            let penalized =
                (self.opts.worst_card_penalty && a.source == Source::Discard && !a.worst)
                    .then_some(a.owner);
            self.finish_win(x, penalized, Rule::C1);
        } else {
            self.phase = Phase::MustDiscard(x);
        }
    }

    /// `DrawStep(T)` (§4.3, §4.7).
    fn draw_step(&mut self, t: Seat, declined: Option<Card>) {
        if self.stock_len() <= self.opts.stock_floor as usize {
            self.finish_drawn();
            return;
        }
        let card = self.deck[self.next_draw as usize];
        self.next_draw += 1;
        self.active = Some(Active {
            card,
            source: Source::OwnDraw,
            owner: t,
            worst: true,
        });
        self.events.push(Event::Draw {
            seat: t,
            card,
            declined,
        });
        self.claim_window();
    }

    /// The hand value of a seat (`hv` of §6.1, `WP` of §6.2): its public sets under the point
    /// table plus the best private partition.
    pub fn hand_value(&self, seat: Seat) -> u32 {
        self.public_value(seat) + u32::from(trash_and_value(self.private(seat)).1)
    }

    fn holdings(&self, seat: Seat) -> Holdings {
        let sets = self.public_sets(seat);
        let quads = |origin| {
            sets.iter()
                .filter(|s| s.kind == SetKind::Quad && s.origin == origin)
                .count() as u32
        };
        Holdings {
            quans: quads(Origin::Dealt),
            khuis: quads(Origin::Melded),
            khaps: self.khaps(seat),
        }
    }

    fn finish_win(&mut self, winner: Seat, penalized: Option<Seat>, rule: Rule) {
        let n = self.players();
        let holdings: ArrayVec<Holdings, MAX_PLAYERS> =
            (0..n as Seat).map(|s| self.holdings(s)).collect();
        let w = holdings[winner as usize];
        let win = Win {
            winner,
            hand_value: self.hand_value(winner),
            doubled: w.quans + w.khuis > 0,
            penalized,
        };
        let payouts = match self.opts.payout {
            Payout::KongDeduction => kong_payouts(&self.opts, &win, &holdings),
            _ => classic_payouts(&self.opts, &win, &holdings),
        };
        self.end(Some(winner), rule, payouts, win.hand_value, penalized);
    }

    fn finish_drawn(&mut self) {
        self.end(None, Rule::StockFloor, [0; MAX_SEATS], 0, None);
    }

    fn end(
        &mut self,
        winner: Option<Seat>,
        rule: Rule,
        payouts: [i64; MAX_SEATS],
        hv: u32,
        pen: Option<Seat>,
    ) {
        let reason = match rule {
            Rule::NaturalWin => "natural_win",
            Rule::StockFloor => "stock_floor",
            _ => "win",
        };
        self.outcome = Some(Outcome {
            seats: self.opts.players,
            winner,
            reason,
            payouts,
            hand_value: hv,
            turns: self.turns,
            penalized: pen,
            places: [0; MAX_SEATS],
        });
        self.phase = Phase::Over;
        self.events.push(Event::End { winner, rule });
    }

    fn is_legal(&self, action: Action) -> bool {
        let mut list = ArrayVec::new();
        self.legal_actions(&mut list);
        list.contains(&action)
    }
}

impl GameState for OnePackState {
    type Action = Action;
    type Actions = ActionList;
    type Event = Event;

    fn to_move(&self) -> Option<Seat> {
        match self.phase {
            Phase::MustDiscard(x) | Phase::TurnOption(x) | Phase::Claim(x) => Some(x),
            Phase::Over => None,
        }
    }

    fn legal_actions(&self, out: &mut Self::Actions) {
        out.clear();
        match self.phase {
            Phase::MustDiscard(x) => {
                let set = discards_for(&self.opts, self.private(x));
                out.extend(cards_of(set).map(Action::Discard));
            }
            Phase::TurnOption(t) => {
                let a = self.active.expect("a turn option has an active card");
                let taker = match a.source {
                    Source::OwnDraw => Taker::Drawer,
                    Source::PassedDraw => Taker::Passed,
                    Source::Discard => Taker::Turn,
                };
                let mut melds = Melds::new();
                legal_melds_for(&self.opts, self.private(t), a.card, taker, &mut melds);
                out.extend(melds.iter().map(|&m| Action::Meld(m)));
                if self.may_upgrade(t, a) {
                    out.push(Action::Upgrade);
                }
                out.push(if a.source == Source::OwnDraw {
                    Action::PassDrawn
                } else {
                    Action::Draw
                });
            }
            Phase::Claim(x) => {
                let a = self.active.expect("a claim has an active card");
                let meld = optional_claim(&self.opts, self.private(x), a.card)
                    .expect("a seat is asked only when it has a claim");
                out.push(Action::Meld(meld));
                out.push(Action::Pass);
            }
            Phase::Over => {}
        }
    }

    fn apply(&mut self, action: Action) {
        debug_assert!(
            self.is_legal(action),
            "illegal action {action} in {:?}",
            self.phase
        );
        self.events.clear();
        match (self.phase, action) {
            (Phase::MustDiscard(x), Action::Discard(card)) => {
                let hand = self.private(x);
                let worst = worst_set(hand, &self.visible) >> card.index() & 1 == 1;
                self.private[x as usize].remove(card);
                self.history.spend(x, card, true);
                self.turns += 1;
                self.active = Some(Active {
                    card,
                    source: Source::Discard,
                    owner: x,
                    worst,
                });
                self.events.push(Event::Discard {
                    seat: x,
                    card,
                    worst: Some(worst),
                });
                self.claim_window();
            }
            (Phase::TurnOption(t) | Phase::Claim(t), Action::Meld(meld)) => {
                self.take_active(t, meld, None)
            }
            (Phase::TurnOption(t), Action::Upgrade) => self.upgrade(t, None),
            (Phase::Claim(x), Action::Pass) => {
                let a = self.active.expect("active card");
                let at = self.claim_order(a).iter().position(|&s| s == x);
                self.offer_from(a, at.expect("the asked seat is in the claim order") + 1);
            }
            (Phase::TurnOption(t), Action::Draw) => {
                let a = self.active.take().expect("active card");
                self.dead[a.card.index()] += 1;
                self.visible[a.card.index()] += 1;
                self.draw_step(t, Some(a.card));
            }
            (Phase::TurnOption(t), Action::PassDrawn) => {
                let a = self.active.as_mut().expect("active card");
                a.source = Source::PassedDraw;
                let card = a.card;
                self.events.push(Event::PassDrawn { seat: t, card });
                self.phase = Phase::TurnOption(self.next(t));
            }
            (phase, action) => panic!("{action} is not an action of {phase:?}"),
        }
    }

    fn last_events(&self) -> &[Event] {
        self.events.as_slice()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// 100: a typical classic win pays 40–60 per loser and rarely more than 100 in all.
    fn payout_scale(&self) -> f64 {
        100.0
    }

    type View<'a> = super::view::OnePackView<'a>;
    fn view(&self, seat: Seat) -> super::view::OnePackView<'_> {
        super::view::OnePackView::new(self, seat)
    }
}
