//! The state machine of §5: the deal with its gates (§2) and Thiên khai exposure (§5.2.1),
//! `Opening`, the out-of-turn ù and chíu windows run by **Appear** (§5.2.3, priority §5.3),
//! `Turn`, `Drawn`, `MustDiscard`, `MustReturn`, the stock-exhausted draw (A14), Thiên ù (§7.2)
//! and the payouts of §8.4.

use super::card::Card;
use super::decompose::{decompose, pairs_up, win_shape};
use super::hand::Hand;
use super::options::{FirstAfterDraw, Options};
use super::rules::{
    after_chiu, after_eat, chiu_legal, discard_failures, eat_candidates, eat_failures, eat_legal,
    legal_discards, Meld, MeldKind, MeldSource, Pred, PredSet, SeatState,
};
use super::score::{score, Score, WinFacts};
use crate::fixed::CopyVec;
use crate::game::{Game, GameState, Outcome, Seat, MAX_SEATS};
use crate::rng::{shuffle, GameRng};
use arrayvec::ArrayVec;
use std::fmt;

/// Cards in the deck (§1.1).
pub const DECK_SIZE: usize = 100;
/// Most players (§2.1, option `players`).
pub const MAX_PLAYERS: usize = 5;
const _: () = assert!(MAX_PLAYERS <= MAX_SEATS);
/// Cards dealt to each player; the first player gets one more (§2.4).
pub const HAND_SIZE: usize = 19;
/// Bound on the legal actions of one decision. `Opening`: at most 20 distinct concealed
/// identities plus `DeclareThienU` (and a hand of 20 distinct cards has no Thiên ù), so ≤ 21;
/// `MustDiscard`/`MustReturn`: ≤ 19 distinct concealed identities (20 cards with at least one
/// pair exposed); `Turn`/`Drawn`: ≤ 3 eats (the live card's identity and the two other suits of
/// its rank) + `Chiu` + `Draw`/`EndHand`/`PassDrawn` = 5; windows: 2. The test
/// `action_capacity_is_enough` checks the bound is reached only by `Opening`.
pub const MAX_ACTIONS: usize = 21;
/// Bound on the events of one step: the deal exposes at most 5 + 4·4 = 21 Thiên khai quads
/// (5 players); an action reports itself, a draw and the end (≤ 3).
pub const MAX_EVENTS: usize = 24;

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
    pub releaser: Option<Seat>,
}

/// The phase the gate owner was about to enter when a card appeared (`resume` of §5.2.7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Resume {
    /// `Turn(O, o)`.
    Turn,
    /// `Drawn(O, d)`.
    Drawn,
}

/// The phases of §5.1 (the live card is [`ChanState::live`]).
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

/// A Chắn game: the rule options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Chan {
    opts: Options,
}

impl Chan {
    /// A game with these options (2–5 players).
    pub fn new(opts: Options) -> Result<Chan, String> {
        if !(2..=MAX_PLAYERS as u8).contains(&opts.players) {
            return Err(format!("{} players: Chắn seats 2 to 5", opts.players));
        }
        Ok(Chan { opts })
    }
    /// The default options of §9 for `players` players.
    pub fn standard(players: u8) -> Result<Chan, String> {
        Chan::new(Options::default_for(players))
    }
    /// The options.
    pub fn options(&self) -> &Options {
        &self.opts
    }
    /// The 100 cards in canonical order.
    pub fn fresh_deck() -> [Card; DECK_SIZE] {
        std::array::from_fn(|i| Card::from_index(i / 4))
    }

    /// Deals `deck` by §2.4 (`deck[k]` to seat `(F + k) mod N` for `k < 19N`, `deck[19N]` to
    /// `F`, the rest is the stock, top first), then lays down dealt quads (§5.2.1).
    pub fn deal_deck(&self, deck: &[Card; DECK_SIZE], setup: Setup) -> ChanState {
        let n = self.opts.players as usize;
        let f = setup.first as usize;
        let mut s = ChanState::empty(self.opts, setup);
        s.deck = *deck;
        for (k, &c) in deck[..HAND_SIZE * n].iter().enumerate() {
            s.seats[(f + k) % n].concealed.add(c);
        }
        s.seats[f].concealed.add(deck[HAND_SIZE * n]);
        s.next_draw = (HAND_SIZE * n + 1) as u8;
        if self.opts.auto_expose_thien_khai {
            for seat in 0..n {
                for c in Card::all() {
                    let p = &mut s.seats[seat];
                    if p.concealed.count(c) == 4 {
                        p.concealed.remove_n(c, 4);
                        p.spent.add_n(c, 4);
                        p.melds.push(Meld {
                            kind: MeldKind::Quad,
                            hand_card: c,
                            taken: c,
                            source: MeldSource::ThienKhai,
                        });
                        s.events.push(Event::ThienKhai {
                            seat: seat as Seat,
                            card: c,
                        });
                    }
                }
            }
        }
        s
    }

    /// The setup of the hand after `previous` (§2.3, §5.2.8): the winner is first; after a drawn
    /// hand `first_player_after_draw` decides.
    pub fn next_setup(&self, previous: &ChanState) -> Setup {
        let winner = previous.outcome().and_then(|o| o.winner);
        let first = winner.unwrap_or(match self.opts.first_player_after_draw {
            FirstAfterDraw::Same => previous.setup.first,
            FirstAfterDraw::Next => (previous.setup.first + 1) % self.opts.players,
        });
        Setup {
            first,
            prev_winner: winner,
        }
    }

    /// An empty position to build by hand (tests, examples): see [`Position`].
    pub fn position(&self) -> Position {
        Position {
            s: ChanState::empty(self.opts, Setup::default()),
        }
    }
}

impl Game for Chan {
    type State = ChanState;
    fn name(&self) -> &'static str {
        "chan"
    }
    fn variant(&self) -> &'static str {
        "standard"
    }
    fn seats(&self) -> usize {
        self.opts.players as usize
    }
    fn deal(&self, rng: &mut GameRng) -> ChanState {
        let mut deck = Chan::fresh_deck();
        shuffle(&mut deck, rng);
        self.deal_deck(&deck, Setup::default())
    }
    fn deal_next(&self, previous: &ChanState, rng: &mut GameRng) -> ChanState {
        let mut deck = Chan::fresh_deck();
        shuffle(&mut deck, rng);
        self.deal_deck(&deck, self.next_setup(previous))
    }
}

/// A Chắn hand in progress (§4): a plain `Copy` value.
#[derive(Copy, Clone, Debug)]
pub struct ChanState {
    pub(super) opts: Options,
    pub(super) deck: [Card; DECK_SIZE],
    pub(super) next_draw: u8,
    pub(super) setup: Setup,
    pub(super) seats: [SeatState; MAX_PLAYERS],
    pub(super) live: Option<Live>,
    pub(super) dead: Hand,
    pub(super) phase: Phase,
    pub(super) outcome: Option<Outcome>,
    pub(super) score: Option<Score>,
    pub(super) turns: u32,
    pub(super) events: CopyVec<Event, MAX_EVENTS>,
}

impl ChanState {
    fn empty(opts: Options, setup: Setup) -> ChanState {
        ChanState {
            opts,
            deck: [Card::default(); DECK_SIZE],
            next_draw: DECK_SIZE as u8,
            setup,
            seats: [SeatState::default(); MAX_PLAYERS],
            live: None,
            dead: Hand::EMPTY,
            phase: Phase::Opening(setup.first),
            outcome: None,
            score: None,
            turns: 0,
            events: CopyVec::default(),
        }
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.opts
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        self.opts.players as usize
    }
    /// The deal's setup (first player, previous winner).
    pub fn setup(&self) -> Setup {
        self.setup
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The live card, if any.
    pub fn live(&self) -> Option<Live> {
        self.live
    }
    /// A seat's record (hidden information: agents see only their own through the view).
    pub fn seat(&self, seat: Seat) -> &SeatState {
        &self.seats[seat as usize]
    }
    /// Dead cards (§2.5).
    pub fn dead(&self) -> Hand {
        self.dead
    }
    /// The shuffled deck the hand was dealt from (§2.4 order).
    pub fn deck(&self) -> &[Card; DECK_SIZE] {
        &self.deck
    }
    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        DECK_SIZE - self.next_draw as usize
    }
    /// The stock, top first.
    pub fn stock(&self) -> &[Card] {
        &self.deck[self.next_draw as usize..]
    }
    /// Discards made so far (returns included).
    pub fn turns(&self) -> u32 {
        self.turns
    }
    /// The winner's score, once the hand is won.
    pub fn score(&self) -> Option<Score> {
        self.score
    }

    fn next(&self, seat: Seat) -> Seat {
        (seat + 1) % self.opts.players
    }

    fn live_card(&self) -> Live {
        self.live.expect("this phase has a live card")
    }

    /// `UEligible(Q, c)` of §7.1 for the live card.
    pub fn u_eligible(&self, q: Seat, live: &Live) -> bool {
        let p = &self.seats[q as usize];
        !p.forfeit
            && Some(q) != live.releaser
            // rule 1 of WinShape first: it rejects almost every seat without summing the melds
            && pairs_up(&p.concealed, Some(live.card))
            && win_shape(&p.concealed, p.exposed_chan(), Some(live.card))
            && (live.origin == Origin::Stock || chiu_legal(p, live.card, &self.opts, false))
    }

    /// True when some `Eat` or `Chiu` of `t` is legal for `p` (§4 v2: only then is a decline
    /// recorded in `Dec`).
    fn take_legal(&self, p: Seat, t: Card) -> bool {
        let s = &self.seats[p as usize];
        eat_candidates(t).any(|h| eat_legal(s, h, t, &self.opts))
            || chiu_legal(s, t, &self.opts, true)
    }

    /// **Appear**(c, g) (§5.2.3), from step a: the ù window, asked from the gate owner.
    fn appear(&mut self, resume: Resume) {
        self.ask_u(0, resume);
    }

    /// The ù window from the `from`-th seat after the gate owner (0 = the owner).
    fn ask_u(&mut self, from: u8, resume: Resume) {
        let live = self.live_card();
        let n = self.opts.players;
        for k in from..n {
            let q = (live.gate + k) % n;
            if self.u_eligible(q, &live) {
                self.phase = Phase::UWindow { seat: q, resume };
                return;
            }
        }
        self.ask_chiu(resume);
    }

    /// Step b of **Appear**: the out-of-turn chíu window.
    fn ask_chiu(&mut self, resume: Resume) {
        let live = self.live_card();
        for q in 0..self.opts.players {
            if q != live.gate
                && Some(q) != live.releaser
                && chiu_legal(&self.seats[q as usize], live.card, &self.opts, true)
            {
                self.phase = Phase::ChiuWindow { seat: q, resume };
                return;
            }
        }
        self.enter(resume);
    }

    /// Step c of **Appear**: back to the gate owner's phase.
    fn enter(&mut self, resume: Resume) {
        let o = self.live_card().gate;
        self.phase = match resume {
            Resume::Turn => Phase::Turn(o),
            Resume::Drawn => Phase::Drawn(o),
        };
    }

    fn put_live(&mut self, live: Live, resume: Resume) {
        self.live = Some(live);
        self.appear(resume);
    }

    fn discard(&mut self, p: Seat, x: Card) {
        let s = &mut self.seats[p as usize];
        s.concealed.remove(x);
        s.spent.add(x);
        s.dsc |= x.bit();
        self.turns += 1;
        let gate = self.next(p);
        self.events.push(Event::Discard {
            seat: p,
            card: x,
            gate,
            ret: false,
        });
        self.put_live(
            Live {
                card: x,
                gate,
                origin: Origin::Discard,
                via: Via::Discard,
                releaser: Some(p),
            },
            Resume::Turn,
        );
    }

    fn give_back(&mut self, q: Seat, gate: Seat, resume: Resume, x: Card) {
        let s = &mut self.seats[q as usize];
        s.concealed.remove(x);
        s.spent.add(x);
        s.dsc |= x.bit();
        self.turns += 1;
        self.events.push(Event::Discard {
            seat: q,
            card: x,
            gate,
            ret: true,
        });
        self.put_live(
            Live {
                card: x,
                gate,
                origin: Origin::Return,
                via: Via::MustReturn,
                releaser: Some(q),
            },
            resume,
        );
    }

    fn eat(&mut self, p: Seat, h: Card) {
        let t = self.live.take().expect("a live card").card;
        let s = &mut self.seats[p as usize];
        *s = after_eat(s, h, t);
        s.melds.push(Meld {
            kind: if h == t { MeldKind::Chan } else { MeldKind::Ca },
            hand_card: h,
            taken: t,
            source: MeldSource::Eat,
        });
        if h != t {
            s.not_held |= t.bit();
        }
        self.events.push(Event::Eat {
            seat: p,
            hand: h,
            card: t,
        });
        self.phase = Phase::MustDiscard(p);
    }

    fn chiu(&mut self, q: Seat, out_of_turn: bool) -> Seat {
        let live = self.live.take().expect("a live card");
        let t = live.card;
        let s = &mut self.seats[q as usize];
        *s = after_chiu(s, t);
        s.melds.push(Meld {
            kind: MeldKind::Quad,
            hand_card: t,
            taken: t,
            source: MeldSource::Chiu,
        });
        s.chiu_count += 1;
        self.events.push(Event::Chiu {
            seat: q,
            card: t,
            out_of_turn,
        });
        live.gate
    }

    /// The owner of `G(p)` does not take the live card: `Dec` (if a take was legal), `offers`.
    fn decline_offer(&mut self, p: Seat) -> Card {
        let o = self.live_card().card;
        if self.take_legal(p, o) {
            self.seats[p as usize].dec |= o.bit();
        }
        self.seats[p as usize].offers |= o.bit();
        o
    }

    fn draw(&mut self, p: Seat) {
        let o = self.decline_offer(p);
        self.dead.add(o);
        let d = self.deck[self.next_draw as usize];
        self.next_draw += 1;
        self.events.push(Event::Draw {
            seat: p,
            card: d,
            declined: o,
        });
        self.put_live(
            Live {
                card: d,
                gate: p,
                origin: Origin::Stock,
                via: Via::Draw,
                releaser: None,
            },
            Resume::Drawn,
        );
    }

    fn pass(&mut self, p: Seat) {
        let d = self.decline_offer(p);
        let mut live = self.live_card();
        live.gate = self.next(p);
        live.via = Via::PassDrawn;
        live.releaser = Some(p);
        self.events.push(Event::PassDrawn { seat: p, card: d });
        self.put_live(live, Resume::Turn);
    }

    /// `ClaimU` by `q` on the live card (§7.1): a chíu ù lays the `Quad` down.
    fn claim_u(&mut self, q: Seat) {
        let live = self.live_card();
        let c = live.card;
        let p = self.seats[q as usize];
        let h = p.concealed.with(c);
        let d = decompose(&h);
        let exposed = p.exposed();
        let u_chi = live.gate == q
            && match (live.origin, live.via) {
                (Origin::Stock, Via::Draw) => true,
                (Origin::Stock, Via::PassDrawn) => self.opts.chi_includes_passed_draw,
                (Origin::Return, Via::MustReturn) => true,
                _ => false,
            };
        let facts = WinFacts {
            fh: exposed.plus(h),
            initial: p.initial(),
            t: p.exposed_chan() + d.chan,
            c: Some(c),
            c_single: exposed.plus(p.concealed).count(c) % 2 == 1,
            ca_of_c_rank: c.rank_index().is_some_and(|r| {
                d.has_ca_of_rank(r)
                    || p.melds
                        .as_slice()
                        .iter()
                        .any(|m| m.kind == MeldKind::Ca && m.taken.rank_index() == Some(r))
            }),
            u_thong: self.setup.prev_winner == Some(q),
            u_chi,
        };
        self.events.push(Event::ClaimU { seat: q, card: c });
        if p.concealed.count(c) == 3 {
            self.chiu(q, q != live.gate);
        } else {
            // the winner shows the ù card with its hand (§7.3)
            self.live = None;
            self.seats[q as usize].concealed.add(c);
        }
        let sc = score(&facts, false, &self.opts);
        self.finish_win(q, sc, Rule::U);
    }

    fn thien_u(&mut self, f: Seat) {
        let p = self.seats[f as usize];
        let facts = WinFacts {
            fh: p.exposed().plus(p.concealed),
            initial: p.initial(),
            t: p.total_chan(),
            c: None,
            c_single: false,
            ca_of_c_rank: false,
            u_thong: self.setup.prev_winner == Some(f),
            u_chi: false,
        };
        self.events.push(Event::DeclareThienU { seat: f });
        let sc = score(&facts, true, &self.opts);
        self.finish_win(f, sc, Rule::ThienU);
    }

    /// §8.4: every other player pays `S × stake`.
    fn finish_win(&mut self, w: Seat, sc: Score, rule: Rule) {
        let n = self.players();
        let each = i64::from(sc.s) * i64::from(self.opts.stake);
        let mut payouts = [0i64; MAX_SEATS];
        for (x, p) in payouts.iter_mut().enumerate().take(n) {
            *p = if x == w as usize {
                each * (n as i64 - 1)
            } else {
                -each
            };
        }
        self.score = Some(sc);
        self.end(Some(w), rule, payouts, sc);
    }

    fn end(&mut self, winner: Option<Seat>, rule: Rule, payouts: [i64; MAX_SEATS], sc: Score) {
        self.outcome = Some(Outcome {
            seats: self.opts.players,
            winner,
            reason: match rule {
                Rule::ThienU => "thien_u",
                Rule::StockEmpty => "stock_empty",
                _ => "u",
            },
            payouts,
            hand_value: sc.points,
            turns: self.turns,
            penalized: None,
            places: [0; MAX_SEATS],
        });
        self.phase = Phase::Ended;
        self.events.push(Event::End {
            winner,
            rule,
            score: sc,
        });
    }

    fn push_discards(&self, p: Seat, out: &mut ArrayVec<Action, MAX_ACTIONS>) {
        let s = &self.seats[p as usize];
        let mut legal = legal_discards(s, &self.opts);
        if legal == 0 {
            // §5.1 fallback: every concealed card becomes legal
            legal = s.concealed.present();
        }
        out.extend(cards_of(legal).map(Action::Discard));
    }

    fn push_takes(&self, p: Seat, out: &mut ArrayVec<Action, MAX_ACTIONS>) {
        let s = &self.seats[p as usize];
        let t = self.live_card().card;
        for h in eat_candidates(t) {
            if eat_legal(s, h, t, &self.opts) {
                out.push(Action::Eat { hand: h, card: t });
            }
        }
        if chiu_legal(s, t, &self.opts, true) {
            out.push(Action::Chiu(t));
        }
    }

    /// True when `F` may declare Thiên ù (§7.2: `WinShape` rules 1–2 on the 20 dealt cards).
    pub fn thien_u_legal(&self, f: Seat) -> bool {
        let p = &self.seats[f as usize];
        win_shape(&p.concealed, p.exposed_chan(), None)
    }

    /// Why `action` is not legal now: the failing predicates of §6 and the non-predicate
    /// reasons of §6.1 (`Phase`, `StockEmpty`, ...); empty when it is legal.
    pub fn explain(&self, action: Action) -> PredSet {
        let mut f = PredSet::EMPTY;
        let o = &self.opts;
        let phase_only = |ok: bool| {
            let mut f = PredSet::EMPTY;
            f.fail_if(!ok, Pred::Phase);
            f
        };
        match (self.phase, action) {
            (Phase::Opening(p), Action::DeclareThienU) => {
                f.fail_if(!self.thien_u_legal(p), Pred::ThienU)
            }
            (
                Phase::Opening(p) | Phase::MustDiscard(p) | Phase::MustReturn { seat: p, .. },
                Action::Discard(x),
            ) => {
                f = discard_failures(&self.seats[p as usize], x, o);
                if !f.is_empty() && f != PredSet::of(&[Pred::NotInHand]) {
                    // the §5.1 fallback makes every concealed card legal when none is
                    let mut list = ArrayVec::new();
                    self.push_discards(p, &mut list);
                    if list.contains(&action) {
                        f = PredSet::EMPTY;
                    }
                }
            }
            (Phase::Turn(p) | Phase::Drawn(p), Action::Eat { hand, card }) => {
                if card != self.live_card().card {
                    return phase_only(false);
                }
                f = eat_failures(&self.seats[p as usize], hand, card, o);
            }
            (Phase::Turn(p) | Phase::Drawn(p), Action::Chiu(t)) => {
                let ok =
                    t == self.live_card().card && chiu_legal(&self.seats[p as usize], t, o, true);
                f.fail_if(!ok, Pred::ChiuLegal);
            }
            (Phase::Turn(_), Action::Draw) => f.fail_if(self.stock_len() == 0, Pred::StockEmpty),
            (Phase::Turn(_), Action::EndHand) => {
                f.fail_if(self.stock_len() != 0, Pred::StockNotEmpty)
            }
            (Phase::Drawn(_), Action::PassDrawn) => {}
            (Phase::UWindow { .. }, Action::ClaimU(c))
            | (Phase::ChiuWindow { .. }, Action::Chiu(c)) => {
                return phase_only(c == self.live_card().card)
            }
            (Phase::UWindow { .. } | Phase::ChiuWindow { .. }, Action::Decline) => {}
            _ => return phase_only(false),
        }
        f
    }
}

impl GameState for ChanState {
    type Action = Action;
    type Actions = ArrayVec<Action, MAX_ACTIONS>;
    type Event = Event;

    fn to_move(&self) -> Option<Seat> {
        match self.phase {
            Phase::Opening(p)
            | Phase::Turn(p)
            | Phase::Drawn(p)
            | Phase::MustDiscard(p)
            | Phase::UWindow { seat: p, .. }
            | Phase::ChiuWindow { seat: p, .. }
            | Phase::MustReturn { seat: p, .. } => Some(p),
            Phase::Ended => None,
        }
    }

    fn legal_actions(&self, out: &mut Self::Actions) {
        out.clear();
        match self.phase {
            Phase::Opening(f) => {
                if self.thien_u_legal(f) {
                    out.push(Action::DeclareThienU);
                }
                self.push_discards(f, out);
            }
            Phase::MustDiscard(p) | Phase::MustReturn { seat: p, .. } => self.push_discards(p, out),
            Phase::UWindow { .. } => {
                out.push(Action::ClaimU(self.live_card().card));
                out.push(Action::Decline);
            }
            Phase::ChiuWindow { .. } => {
                out.push(Action::Chiu(self.live_card().card));
                out.push(Action::Decline);
            }
            Phase::Turn(p) => {
                self.push_takes(p, out);
                out.push(if self.stock_len() > 0 {
                    Action::Draw
                } else {
                    Action::EndHand
                });
            }
            Phase::Drawn(p) => {
                self.push_takes(p, out);
                out.push(Action::PassDrawn);
            }
            Phase::Ended => {}
        }
    }

    fn apply(&mut self, action: Action) {
        debug_assert!(
            self.explain(action).is_empty(),
            "illegal {action} in {:?}: {}",
            self.phase,
            self.explain(action)
        );
        self.events.clear();
        match (self.phase, action) {
            (Phase::Opening(f), Action::DeclareThienU) => self.thien_u(f),
            (Phase::Opening(p) | Phase::MustDiscard(p), Action::Discard(x)) => self.discard(p, x),
            (Phase::MustReturn { seat, gate, resume }, Action::Discard(x)) => {
                self.give_back(seat, gate, resume, x)
            }
            (Phase::UWindow { seat, .. }, Action::ClaimU(_)) => self.claim_u(seat),
            (Phase::UWindow { seat, resume }, Action::Decline) => {
                let live = self.live_card();
                if self.opts.u_pass_forfeit {
                    self.seats[seat as usize].forfeit = true;
                }
                self.events.push(Event::Decline {
                    seat,
                    card: live.card,
                    u: true,
                });
                let n = self.opts.players;
                self.ask_u((seat + n - live.gate) % n + 1, resume);
            }
            (Phase::ChiuWindow { seat, resume }, Action::Chiu(_)) => {
                let gate = self.chiu(seat, true);
                self.phase = Phase::MustReturn { seat, gate, resume };
            }
            (Phase::ChiuWindow { seat, resume }, Action::Decline) => {
                let card = self.live_card().card;
                self.events.push(Event::Decline {
                    seat,
                    card,
                    u: false,
                });
                self.enter(resume);
            }
            (Phase::Turn(p) | Phase::Drawn(p), Action::Eat { hand, .. }) => self.eat(p, hand),
            (Phase::Turn(p) | Phase::Drawn(p), Action::Chiu(_)) => {
                self.chiu(p, false);
                self.phase = Phase::MustDiscard(p);
            }
            (Phase::Turn(p), Action::Draw) => self.draw(p),
            (Phase::Turn(p), Action::EndHand) => {
                let o = self.decline_offer(p);
                self.live = None;
                self.dead.add(o);
                self.events.push(Event::EndHand {
                    seat: p,
                    declined: o,
                });
                self.end(None, Rule::StockEmpty, [0; MAX_SEATS], Score::default());
            }
            (Phase::Drawn(p), Action::PassDrawn) => self.pass(p),
            (phase, action) => panic!("{action} is not an action of {phase:?}"),
        }
    }

    fn last_events(&self) -> &[Event] {
        self.events.as_slice()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// `10 · (N − 1) · stake`: most wins score `S` from 2 (Xuông) to about 10 (one big factor,
    /// or Chì + Bạch thủ with its gà), so the winner's `(N − 1)·S·stake` mostly stays within
    /// this and the losers' `−S·stake` well within; rare big hands (Thập thành, S = 40) clip.
    fn payout_scale(&self) -> f64 {
        10.0 * (self.opts.players as f64 - 1.0) * f64::from(self.opts.stake)
    }

    type View<'a> = super::view::ChanView<'a>;
    fn view(&self, seat: Seat) -> super::view::ChanView<'_> {
        super::view::ChanView::new(self, seat)
    }
}

/// A position built by hand, for tests and examples: hands, melds and history per seat, the
/// stock, the live card and the phase. Nothing is checked: it is the caller's position.
#[derive(Copy, Clone, Debug)]
pub struct Position {
    s: ChanState,
}

fn cards(text: &str) -> Hand {
    text.parse()
        .unwrap_or_else(|e| panic!("position: bad cards '{text}': {e}"))
}

fn card(text: &str) -> Card {
    text.parse()
        .unwrap_or_else(|e| panic!("position: bad card '{text}': {e}"))
}

impl Position {
    /// Sets `seat`'s concealed cards.
    pub fn hand(mut self, seat: Seat, text: &str) -> Position {
        self.s.seats[seat as usize].concealed = cards(text);
        self
    }
    /// Adds cards `seat` was dealt and no longer holds (they count in `initial` only).
    pub fn spent(mut self, seat: Seat, text: &str) -> Position {
        let p = &mut self.s.seats[seat as usize];
        p.spent = p.spent.plus(cards(text));
        self
    }
    /// Adds an exposed meld made by `source`, with its hand cards counted as dealt, and the
    /// history it implies (`Taken`, `EatenCa`, `chiu_count`).
    pub fn meld(
        mut self,
        seat: Seat,
        hand_card: &str,
        taken: &str,
        source: MeldSource,
    ) -> Position {
        let (h, t) = (card(hand_card), card(taken));
        let p = &mut self.s.seats[seat as usize];
        let kind = match source {
            MeldSource::Eat if h == t => MeldKind::Chan,
            MeldSource::Eat => MeldKind::Ca,
            _ => MeldKind::Quad,
        };
        match source {
            MeldSource::Eat => {
                p.spent.add(h);
                p.taken |= t.bit();
                if kind == MeldKind::Ca {
                    p.eaten_ca |= 1 << t.rank_index().expect("a Ca has a rank");
                }
            }
            MeldSource::Chiu => {
                p.spent.add_n(t, 3);
                p.taken |= t.bit();
                p.chiu_count += 1;
            }
            MeldSource::ThienKhai => p.spent.add_n(t, 4),
        }
        p.melds.push(Meld {
            kind,
            hand_card: h,
            taken: t,
            source,
        });
        self
    }
    /// Records that `seat` discarded `card` earlier (`Dsc`; the card counts as dealt).
    pub fn discarded(mut self, seat: Seat, text: &str) -> Position {
        let p = &mut self.s.seats[seat as usize];
        for c in cards(text).cards() {
            p.dsc |= c.bit();
            p.spent.add(c);
        }
        self
    }
    /// Records that `seat` declined `card` at its gate when a take was legal (`Dec`).
    pub fn declined(mut self, seat: Seat, text: &str) -> Position {
        let p = &mut self.s.seats[seat as usize];
        for c in cards(text).cards() {
            p.dec |= c.bit();
            p.offers |= c.bit();
        }
        self
    }
    /// Sets the first player and the previous winner.
    pub fn setup(mut self, setup: Setup) -> Position {
        self.s.setup = setup;
        self
    }
    /// Sets the stock, top first (the rest of the deck is left unspecified).
    pub fn stock(mut self, text: &str) -> Position {
        let list = super::card::parse_cards(text).expect("position: bad stock");
        let start = DECK_SIZE - list.len();
        self.s.deck[start..].copy_from_slice(&list);
        self.s.next_draw = start as u8;
        self
    }
    /// Places `card` live at `G(gate)`.
    pub fn live(
        mut self,
        card_text: &str,
        gate: Seat,
        origin: Origin,
        via: Via,
        releaser: Option<Seat>,
    ) -> Position {
        self.s.live = Some(Live {
            card: card(card_text),
            gate,
            origin,
            via,
            releaser,
        });
        self
    }
    /// The state, in `phase`.
    pub fn at(mut self, phase: Phase) -> ChanState {
        self.s.phase = phase;
        self.s
    }
}

/// The identities of `mask`, in canonical order.
fn cards_of(mut mask: u32) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        let i = mask.trailing_zeros() as usize;
        (mask != 0).then(|| {
            mask &= mask - 1;
            Card::from_index(i)
        })
    })
}

// Identity sets are `u32` masks (`Dsc`, `Dec`, `Taken`, ...).
const _: () = assert!(super::card::IDENTITIES <= 32);
