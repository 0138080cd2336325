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
use super::types::{
    Action, Event, Live, Origin, Phase, Resume, Rule, Setup, Via, DECK_SIZE, HAND_SIZE,
    MAX_ACTIONS, MAX_EVENTS, MAX_PLAYERS,
};
use crate::fixed::CopyVec;
use crate::game::{Game, GameState, Outcome, Seat, MAX_SEATS};
use crate::games::kind::RuleError;
use crate::rng::{shuffle, GameRng};
use arrayvec::ArrayVec;

/// A Chắn game: the rule options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Chan {
    opts: Options,
}

impl Chan {
    /// A game with these options (2–5 players).
    pub fn new(opts: Options) -> Result<Chan, RuleError> {
        if !(2..=MAX_PLAYERS as u8).contains(&opts.players) {
            return Err(RuleError::Unsupported(format!(
                "{} players: Chắn seats 2 to 5",
                opts.players
            )));
        }
        Ok(Chan { opts })
    }
    /// The default options of §9 for `players` players.
    pub fn standard(players: u8) -> Result<Chan, RuleError> {
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
    /// The seats asked so far in the ù window of the live card (each seat knows only its own
    /// bit: the windows are silent, §4 "What each seat sees").
    pub(super) asked: u8,
    pub(super) outcome: Option<Outcome>,
    pub(super) score: Option<Score>,
    pub(super) turns: u32,
    pub(super) events: CopyVec<Event, MAX_EVENTS>,
}

impl ChanState {
    /// A state with no cards dealt: the start of a deal, or of a position built by hand.
    pub(super) fn empty(opts: Options, setup: Setup) -> ChanState {
        ChanState {
            opts,
            deck: [Card::default(); DECK_SIZE],
            next_draw: DECK_SIZE as u8,
            setup,
            seats: [SeatState::default(); MAX_PLAYERS],
            live: None,
            dead: Hand::EMPTY,
            phase: Phase::Opening(setup.first),
            asked: 0,
            outcome: None,
            score: None,
            turns: 0,
            events: CopyVec::default(),
        }
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
        self.asked = 0;
        self.ask_u(0, resume);
    }

    /// The ù window from the `from`-th seat after the gate owner (0 = the owner), then the
    /// chíu window and the gate owner's phase.
    pub(super) fn ask_u(&mut self, from: u8, resume: Resume) {
        let live = self.live_card();
        let n = self.opts.players;
        for k in from..n {
            let q = (live.gate + k) % n;
            if self.u_eligible(q, &live) {
                self.asked |= 1 << q;
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
    pub(crate) fn thien_u_legal(&self, f: Seat) -> bool {
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

impl ChanState {
    /// The legal actions of the phase, into `out` (cleared first): `GameState::legal_actions`.
    #[inline]
    pub(super) fn legal_into(&self, out: &mut ArrayVec<Action, MAX_ACTIONS>) {
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

    /// Plays `action` (legal in the phase), replacing the step's events: `GameState::apply`.
    #[inline]
    pub(super) fn apply_action(&mut self, action: Action) {
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
