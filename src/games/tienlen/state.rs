//! The state machine of §4: deal (§2.3), tới trắng (§5), Lead / Respond / OotWindow, passing,
//! the end of a trick and hưởng sái, finishing, cóng and đền (§6), the chặt chain (§7.4) and the
//! payments of §7, all in half-cược.

use super::card::{Card, DECK_SIZE};
use super::card_set::Cards;
use super::combo::{chat_value, classify, heo_total, is_chat, thoi, toi_trang, Combo, ComboType};
use super::moves::{beating, combinations};
use super::options::Options;
use super::toi_trang::ToiTrang;
use super::types::{
    Action, Actions, Chain, Event, Phase, Rule, Setup, Transfer, HAND_SIZE, MAX_EVENTS,
    MAX_PLAYERS, MAX_TRANSFERS,
};
use crate::fixed::CopyVec;
use crate::game::{Game, GameState, Outcome, Seat, MAX_SEATS};
use crate::games::kind::RuleError;
use crate::rng::{shuffle, GameRng};
use arrayvec::ArrayVec;

/// A Tiến Lên game: the rule options (§8).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TienLen {
    opts: Options,
}

impl TienLen {
    /// A game with these options. Errors when an option is outside what the engine supports.
    pub fn new(opts: Options) -> Result<TienLen, RuleError> {
        opts.validate()?;
        Ok(TienLen { opts })
    }
    /// The default rules for `players` players (2–4).
    pub fn standard(players: u8) -> Result<TienLen, RuleError> {
        TienLen::new(Options::default_for(players))
    }
    /// The rule options.
    pub fn options(&self) -> &Options {
        &self.opts
    }
    /// The 52 cards in ascending key.
    pub fn fresh_deck() -> [Card; DECK_SIZE] {
        std::array::from_fn(|k| Card::from_key(k as u8))
    }
    /// Deals `deck` by §2.3 and runs the tới trắng check of §5.
    pub fn deal_deck(&self, deck: &[Card; DECK_SIZE], setup: Setup) -> TienLenState {
        TienLenState::deal(self.opts, deck, setup)
    }
    /// How the next game of the match of `previous` starts (§2.3–2.5, §6.4, T18): the next
    /// dealer; an initial game after a tới trắng (or when `previous` is unfinished); otherwise the
    /// đền player or the first finisher leads.
    pub fn next_setup(&self, previous: &TienLenState) -> Setup {
        let dealer = previous.next(previous.setup.dealer);
        match previous.outcome {
            Some(o) if previous.toi_trang.is_none() => Setup {
                dealer,
                initial: false,
                leader: previous.den_player.or(o.winner),
            },
            _ => Setup {
                dealer,
                initial: true,
                leader: None,
            },
        }
    }
}

impl Game for TienLen {
    type State = TienLenState;
    fn name(&self) -> &'static str {
        "tienlen"
    }
    fn variant(&self) -> &'static str {
        "south"
    }
    fn seats(&self) -> usize {
        self.opts.players as usize
    }
    fn deal(&self, rng: &mut GameRng) -> TienLenState {
        let mut deck = TienLen::fresh_deck();
        shuffle(&mut deck, rng);
        self.deal_deck(&deck, Setup::FIRST)
    }
    fn deal_next(&self, previous: &TienLenState, rng: &mut GameRng) -> TienLenState {
        let mut deck = TienLen::fresh_deck();
        shuffle(&mut deck, rng);
        self.deal_deck(&deck, self.next_setup(previous))
    }
}

/// A Tiến Lên game in progress: a plain `Copy` value.
#[derive(Copy, Clone, Debug)]
pub struct TienLenState {
    pub(super) opts: Options,
    pub(super) deck: [Card; DECK_SIZE],
    pub(super) setup: Setup,
    pub(super) leader: Seat,
    /// The card the game's first play must contain, until that play (§2.5).
    pub(super) required: Option<Card>,
    pub(super) hands: [Cards; MAX_PLAYERS],
    pub(super) played_by: [Cards; MAX_PLAYERS],
    pub(super) set_aside: Cards,
    pub(super) places: [u8; MAX_PLAYERS],
    next_top_place: u8,
    next_bottom_place: u8,
    pub(super) finished: CopyVec<Seat, MAX_PLAYERS>,
    /// Cóng seats (§6.2), a seat mask.
    pub(super) cong: u8,
    /// Seats that left play under `forbid_finish_on_two`, in order.
    pub(super) leavers: CopyVec<Seat, MAX_PLAYERS>,
    pub(super) top: Option<(Combo, Seat)>,
    pub(super) passed: u8,
    /// Passed seats that passed again on this top (`passed_player_may_chop_in_turn`).
    pub(super) dropped: u8,
    pub(super) chain: Chain,
    pub(super) phase: Phase,
    /// The `from` of the `Advance` whose window is being polled.
    window_from: Seat,
    /// Seats that passed in turn while holding a legal play (§4.1, for đền). Only seats that
    /// have not played yet can be cóng, so the flag is computed only for them.
    pub(super) den_flags: u8,
    pub(super) den_player: Option<Seat>,
    pub(super) toi_trang: Option<(Seat, ToiTrang)>,
    pub(super) turns: u32,
    pub(super) events: CopyVec<Event, MAX_EVENTS>,
    pub(super) transfers: CopyVec<Transfer, MAX_TRANSFERS>,
    pub(super) outcome: Option<Outcome>,
}

#[inline]
const fn bit(s: Seat) -> u8 {
    1 << s
}

impl TienLenState {
    fn deal(opts: Options, deck: &[Card; DECK_SIZE], setup: Setup) -> TienLenState {
        let n = opts.players as usize;
        let mut hands = [Cards::EMPTY; MAX_PLAYERS];
        for (k, &c) in deck[..HAND_SIZE * n].iter().enumerate() {
            let s = (setup.dealer as usize + k) % n;
            hands[s] = hands[s].with(c);
        }
        let set_aside: Cards = deck[HAND_SIZE * n..].iter().copied().collect();
        let dealt = Cards::ALL.minus(set_aside);
        let lowest = dealt.lowest().unwrap_or_default();
        let holder = |c: Card| (0..n as Seat).find(|&s| hands[s as usize].contains(c));
        let (leader, required) = match (setup.initial, setup.leader) {
            (false, Some(l)) => (l % n as Seat, None),
            (false, None) => (holder(lowest).unwrap_or(0), None),
            // §2.5: the holder of 3s, or of the lowest dealt card when 3s was set aside.
            (true, _) => (holder(lowest).unwrap_or(0), Some(lowest)),
        };
        let mut s = TienLenState {
            opts,
            deck: *deck,
            setup,
            leader,
            required,
            hands,
            played_by: [Cards::EMPTY; MAX_PLAYERS],
            set_aside,
            places: [0; MAX_PLAYERS],
            next_top_place: 1,
            next_bottom_place: n as u8,
            finished: CopyVec::default(),
            cong: 0,
            leavers: CopyVec::default(),
            top: None,
            passed: 0,
            dropped: 0,
            chain: Chain::default(),
            phase: Phase::Lead(leader),
            window_from: leader,
            den_flags: 0,
            den_player: None,
            toi_trang: None,
            turns: 0,
            events: CopyVec::default(),
            transfers: CopyVec::default(),
            outcome: None,
        };
        s.events.push(Event::Deal {
            dealer: setup.dealer,
            leader,
            initial: setup.initial,
        });
        // §5.2: the qualifying seat nearest to the leader, the leader first.
        for d in 0..n as Seat {
            let seat = (leader + d) % n as Seat;
            if let Some(c) = toi_trang(s.hands[seat as usize], setup.initial, &opts).first() {
                s.toi_trang_win(seat, c);
                break;
            }
        }
        s
    }

    /// Seats still in play: holding cards, not cóng, not left (a seat mask, §4.1).
    pub fn active(&self) -> u8 {
        let m = (0..MAX_PLAYERS).fold(0u8, |m, s| m | (u8::from(!self.hands[s].is_empty()) << s));
        m & !self.cong & !self.leaver_mask()
    }
    fn leaver_mask(&self) -> u8 {
        self.leavers.as_slice().iter().fold(0, |m, &s| m | bit(s))
    }
    /// The next seat in play order (§2.2).
    pub fn next(&self, seat: Seat) -> Seat {
        (seat + 1) % self.opts.players
    }
    fn seat_at_place(&self, place: u8) -> Option<Seat> {
        (0..self.opts.players).find(|&s| self.places[s as usize] == place)
    }

    // ----- legal actions -----

    /// Writes every legal play of `seat` deciding in `phase` into `emit` (no Pass/Decline).
    fn plays<F: FnMut(Cards)>(&self, seat: Seat, phase: Phase, emit: &mut F) {
        let hand = self.hands[seat as usize];
        let o = &self.opts;
        let forbid = o.forbid_finish_on_two;
        let required = self.required;
        let mut out = |x: Cards, _: ComboType| {
            // §4.3 forbid_finish_on_two: a play emptying the hand may not contain a 2.
            if forbid && x == hand && x.rank_count(12) > 0 {
                return;
            }
            if let Some(r) = required {
                if !x.contains(r) {
                    return;
                }
            }
            emit(x);
        };
        match phase {
            Phase::Lead(_) if !forbid && required.is_none() => {
                combinations(hand, &mut |x, _| emit(x))
            }
            Phase::Lead(_) => combinations(hand, &mut out),
            Phase::Respond(_) => {
                let Some((b, _)) = self.top else { return };
                if self.passed & bit(seat) != 0 {
                    // v2 passed_player_may_chop_in_turn: only hàng that chặt.
                    beating(hand, &b, o, &mut |x, kind| {
                        if matches!(kind, ComboType::Quad | ComboType::PairSequence(_))
                            && is_chat(&combo_of(x, kind), &b, o)
                        {
                            out(x, kind);
                        }
                    });
                } else if !forbid {
                    beating(hand, &b, o, &mut |x, _| emit(x));
                } else {
                    beating(hand, &b, o, &mut out);
                }
            }
            Phase::OotWindow(_) => {
                let Some((b, _)) = self.top else { return };
                let min = o.oot_chop_min_pairs.unwrap_or(u8::MAX);
                beating(hand, &b, o, &mut |x, kind| {
                    if matches!(kind, ComboType::PairSequence(k) if k >= min) {
                        out(x, kind);
                    }
                });
            }
            Phase::Over => {}
        }
    }

    /// True when `seat`, deciding in `phase`, would have at least one legal play.
    fn has_play_in(&self, seat: Seat, phase: Phase) -> bool {
        let mut any = false;
        self.plays(seat, phase, &mut |_| any = true);
        any
    }

    /// True when `q` holds an out-of-turn chop of the top (§4.3.4).
    fn can_chop_out_of_turn(&self, q: Seat) -> bool {
        let Some(min) = self.opts.oot_chop_min_pairs else {
            return false;
        };
        // quick test: a run of `min` ranks within 3..A held twice (nibble flags)
        let f = self.hands[q as usize].ranks_with_at_least_nib(2) & 0xFFFF_FFFF_FFFF;
        let mut r = f;
        for i in 1..min as u32 {
            r &= f >> (4 * i);
        }
        if r == 0 {
            return false;
        }
        self.has_play_in(q, Phase::OotWindow(q))
    }

    fn is_legal(&self, action: Action) -> bool {
        let mut list = Actions::new();
        self.legal_actions(&mut list);
        list.contains(&action)
    }

    // ----- the flow of §4.3 -----

    fn pay(&mut self, from: Seat, to: Seat, amount: u32, rule: Rule) {
        if amount == 0 || from == to {
            return;
        }
        let t = Transfer {
            from,
            to,
            amount,
            rule,
        };
        self.transfers.push(t);
        self.events.push(Event::Pay(t));
    }

    /// AfterPlay(X, x) (§4.3.3), for plays in turn and out-of-turn chops.
    fn after_play(&mut self, x_seat: Seat, cards: Cards, out_of_turn: bool) {
        let Some(combo) = classify(cards) else {
            panic!("{cards} is not a combination");
        };
        self.events.push(if out_of_turn {
            Event::Chop {
                seat: x_seat,
                cards,
                kind: combo.kind,
            }
        } else {
            Event::Play {
                seat: x_seat,
                cards,
                kind: combo.kind,
            }
        });
        // 1. the chain grows on a chặt
        if let Some((b, owner)) = self.top {
            if is_chat(&combo, &b, &self.opts) {
                let c = &mut self.chain;
                c.links += 1;
                c.total += chat_value(&b, &self.opts);
                c.victim = owner;
                c.victim_emptied = self.hands[owner as usize].is_empty();
            }
        }
        // 2.
        let xi = x_seat as usize;
        self.hands[xi] = self.hands[xi].minus(cards);
        self.played_by[xi] = self.played_by[xi].union(cards);
        self.top = Some((combo, x_seat));
        self.passed &= !bit(x_seat);
        self.dropped = 0;
        self.required = None;
        self.turns += 1;
        // 3.
        if self.hands[xi].is_empty() {
            self.finish(x_seat);
            if self.active().count_ones() <= 1 {
                self.settle_chain();
                self.end_game();
                return;
            }
        }
        // 4.
        self.advance(x_seat);
    }

    /// `x` empties his hand: he takes the next place; the first finisher triggers the cóng check.
    fn finish(&mut self, x: Seat) {
        self.finished.push(x);
        self.take_top_place(x, Rule::Finish);
        if self.finished.len() > 1 {
            return;
        }
        // §6.2 cóng check, seats in play order from next(W)
        let n = self.opts.players;
        let mut cong = ArrayVec::<Seat, MAX_PLAYERS>::new();
        let active = self.active();
        for i in 1..n {
            let s = (x + i) % n;
            if active & bit(s) != 0 && self.played_by[s as usize].is_empty() {
                cong.push(s);
            }
        }
        if cong.is_empty() {
            return;
        }
        let first = self.next_bottom_place + 1 - cong.len() as u8;
        for (i, &c) in cong.iter().enumerate() {
            self.cong |= bit(c);
            self.places[c as usize] = first + i as u8;
            self.events.push(Event::Place {
                seat: c,
                place: first + i as u8,
                rule: Rule::Cong,
            });
        }
        self.next_bottom_place -= cong.len() as u8;
        // §6.4 đền: all others cóng
        if cong.len() == n as usize - 1 && self.opts.cong_den_enabled {
            if let Some(&d) = cong.iter().find(|&&c| self.den_flags & bit(c) != 0) {
                self.den_player = Some(d);
                self.events.push(Event::Den { seat: d });
            }
        }
    }

    fn take_top_place(&mut self, s: Seat, rule: Rule) {
        let place = self.next_top_place;
        self.next_top_place += 1;
        self.places[s as usize] = place;
        self.events.push(Event::Place {
            seat: s,
            place,
            rule,
        });
    }

    /// Advance(from) (§4.3.4): the out-of-turn window, then the next responder or EndTrick.
    fn advance(&mut self, from: Seat) {
        if let Some((_, owner)) = self.top {
            if self.open_window(from, self.next(owner)) {
                return;
            }
        }
        self.go_to_responder(from);
    }

    /// Polls seats from `start` up to (excluding) the top's owner; true if one is asked.
    fn open_window(&mut self, from: Seat, start: Seat) -> bool {
        let Some((b, owner)) = self.top else {
            return false;
        };
        if self.opts.oot_chop_min_pairs.is_none() || !b.is_chat_target() {
            return false;
        }
        let active = self.active();
        let mut q = start;
        while q != owner {
            if active & bit(q) != 0 && self.can_chop_out_of_turn(q) {
                self.phase = Phase::OotWindow(q);
                self.window_from = from;
                return true;
            }
            q = self.next(q);
        }
        false
    }

    /// Advance step 2: `turn` = the first contender after `from`, or EndTrick.
    fn go_to_responder(&mut self, from: Seat) {
        if self.top.is_none() {
            return self.enter_lead(from);
        }
        match self.next_responder(from) {
            Some(s) => self.phase = Phase::Respond(s),
            None => self.end_trick(),
        }
    }

    /// The first contender after `from` in play order (§4.3.4 step 2), if any.
    pub(super) fn next_responder(&self, from: Seat) -> Option<Seat> {
        let (_, owner) = self.top?;
        let active = self.active();
        let mut contenders = active & !self.passed & !bit(owner);
        if self.opts.passed_player_may_chop_in_turn {
            // v2: a passed seat holding a hàng chặt of the top is still a contender.
            let mut extra = active & self.passed & !self.dropped & !bit(owner);
            while extra != 0 {
                let s = extra.trailing_zeros() as Seat;
                extra &= extra - 1;
                if self.has_play_in(s, Phase::Respond(s)) {
                    contenders |= bit(s);
                }
            }
        }
        let n = self.opts.players;
        (1..=n)
            .map(|i| (from + i) % n)
            .find(|&s| contenders & bit(s) != 0)
    }

    /// The leader after the current trick (§4.3.5): its owner, or by hưởng sái the first active
    /// seat after him.
    pub(super) fn trick_leader(&self) -> (Seat, Rule) {
        let Some((_, owner)) = self.top else {
            return (self.leader, Rule::EndTrick);
        };
        let active = self.active();
        if active & bit(owner) != 0 || active == 0 {
            return (owner, Rule::EndTrick);
        }
        let mut leader = self.next(owner);
        while active & bit(leader) == 0 {
            leader = self.next(leader);
        }
        (leader, Rule::HuongSai)
    }

    /// What follows the current out-of-turn window if every polled seat declines: the public
    /// phase (a view must not tell whether anyone is being polled).
    pub(super) fn continuation(&self) -> Phase {
        match self.phase {
            Phase::OotWindow(_) => match self.next_responder(self.window_from) {
                Some(s) => Phase::Respond(s),
                None => Phase::Lead(self.trick_leader().0),
            },
            p => p,
        }
    }

    /// Settles the chain (§7.4): the last victim pays the final top's owner, unless void.
    fn settle_chain(&mut self) {
        let c = self.chain;
        self.chain = Chain::default();
        if c.links == 0 {
            return;
        }
        let Some((_, owner)) = self.top else { return };
        if c.victim_emptied {
            self.events.push(Event::VoidChain { victim: c.victim });
        } else {
            self.pay(c.victim, owner, c.total, Rule::Chat);
        }
    }

    /// EndTrick (§4.3.5), with hưởng sái.
    fn end_trick(&mut self) {
        self.settle_chain();
        let (leader, rule) = self.trick_leader();
        self.top = None;
        self.passed = 0;
        self.dropped = 0;
        self.events.push(Event::TrickEnd { leader, rule });
        self.enter_lead(leader);
    }

    /// Lead(P), after the v2 leave rule of `forbid_finish_on_two`: a leader with no legal lead
    /// (only a single 2 left, since any smaller part of a larger hand is a legal lead) leaves
    /// play, takes the last free place, and the lead passes on.
    fn enter_lead(&mut self, mut p: Seat) {
        loop {
            let hand = self.hands[p as usize];
            let stuck = self.opts.forbid_finish_on_two
                && self.required.is_none()
                && hand.len() == 1
                && hand.rank_count(12) == 1;
            if !stuck {
                self.phase = Phase::Lead(p);
                return;
            }
            self.leavers.push(p);
            let place = self.next_bottom_place;
            self.next_bottom_place -= 1;
            self.places[p as usize] = place;
            self.events.push(Event::Place {
                seat: p,
                place,
                rule: Rule::LeaveOnTwo,
            });
            let active = self.active();
            if active.count_ones() <= 1 {
                self.end_game();
                return;
            }
            p = self.next(p);
            while active & bit(p) == 0 {
                p = self.next(p);
            }
        }
    }

    fn toi_trang_win(&mut self, w: Seat, condition: ToiTrang) {
        self.toi_trang = Some((w, condition));
        self.events.push(Event::ToiTrang { seat: w, condition });
        self.places[w as usize] = 1;
        for s in 0..self.opts.players {
            if s != w {
                let mut amount = self.opts.toi_trang_pay;
                if self.opts.toi_trang_dem_heo {
                    amount += thoi(self.hands[s as usize], &self.opts);
                }
                self.pay(s, w, amount, Rule::ToiTrangPay);
            }
        }
        self.close(w, "toi_trang");
    }

    /// GameOver (§6.1, §7): the last place, then the payments of §7.2, §7.5, §7.3 and the
    /// leavers' thối.
    fn end_game(&mut self) {
        let o = self.opts;
        let active = self.active();
        let last = (active != 0).then(|| active.trailing_zeros() as Seat);
        if let Some(l) = last {
            self.take_top_place(l, Rule::LastActive);
        }
        // §7.2, except transfers paid by a cóng seat (§7.5)
        for st in o.stakes() {
            if let (Some(a), Some(b)) = (self.seat_at_place(st.payer), self.seat_at_place(st.payee))
            {
                if self.cong & bit(a) == 0 {
                    self.pay(a, b, st.amount, Rule::PlaceStake);
                }
            }
        }
        let w = self.finished.as_slice().first().copied();
        if self.cong != 0 {
            // §7.5, seats in play order from next(W)
            if let Some(w) = w {
                let n = o.players;
                let mut total = 0;
                for i in 1..n {
                    let c = (w + i) % n;
                    if self.cong & bit(c) != 0 {
                        let amount = o.cong_pay + thoi(self.hands[c as usize], &o);
                        match self.den_player {
                            Some(_) => total += amount,
                            None => self.pay(c, w, amount, Rule::CongPay),
                        }
                    }
                }
                if let Some(d) = self.den_player {
                    self.pay(d, w, total, Rule::Den);
                }
            }
        } else if let Some(l) = last.filter(|&l| self.places[l as usize] == o.players) {
            // §7.3 at a normal end: the last-placed player pays the seat placed just before him.
            // When a leaver (§4.3 v2) took the last place, the last active seat is not last and
            // pays no thối; the leaver pays his own below.
            if let Some(to) = self.seat_at_place(o.players - 1) {
                self.pay(l, to, thoi(self.hands[l as usize], &o), Rule::Thoi);
            }
        }
        // §4.3 v2: each leaver pays thối on his 2s to the seat placed just before him.
        for i in 0..self.leavers.len() {
            let l = self.leavers.as_slice()[i];
            if let Some(to) = self.seat_at_place(self.places[l as usize].wrapping_sub(1)) {
                self.pay(l, to, heo_total(self.hands[l as usize]), Rule::LeaveThoi);
            }
        }
        let winner = self.seat_at_place(1).unwrap_or(0);
        self.close(winner, if self.cong != 0 { "cong" } else { "finish" });
    }

    fn close(&mut self, winner: Seat, reason: &'static str) {
        let mut payouts = [0i64; MAX_SEATS];
        for t in self.transfers.as_slice() {
            payouts[t.from as usize] -= i64::from(t.amount);
            payouts[t.to as usize] += i64::from(t.amount);
        }
        let mut places = [0u8; MAX_SEATS];
        places[..MAX_PLAYERS].copy_from_slice(&self.places);
        self.outcome = Some(Outcome {
            seats: self.opts.players,
            winner: Some(winner),
            reason,
            payouts,
            hand_value: 0,
            turns: self.turns,
            penalized: self.den_player,
            places,
        });
        self.top = None;
        self.phase = Phase::Over;
        self.events.push(Event::End { winner });
    }
}

/// The combination of cards known to be of type `kind`.
fn combo_of(cards: Cards, kind: ComboType) -> Combo {
    Combo {
        cards,
        kind,
        top: cards.highest().unwrap_or_default(),
    }
}

impl TienLenState {
    /// Canonical order: plays (or chops) in the order of [`super::moves`], then `Pass` or
    /// `Decline` last.
    #[inline]
    pub(super) fn legal_into(&self, out: &mut Actions) {
        out.clear();
        match self.phase {
            Phase::Lead(p) => self.plays(p, self.phase, &mut |x| out.push(Action::Play(x))),
            Phase::Respond(p) => {
                self.plays(p, self.phase, &mut |x| out.push(Action::Play(x)));
                out.push(Action::Pass);
            }
            Phase::OotWindow(q) => {
                self.plays(q, self.phase, &mut |x| out.push(Action::Chop(x)));
                out.push(Action::Decline);
            }
            Phase::Over => {}
        }
    }

    /// Plays `action` (legal in the phase), replacing the step's events: `GameState::apply`.
    #[inline]
    pub(super) fn apply_action(&mut self, action: Action) {
        debug_assert!(
            self.is_legal(action),
            "illegal action {action} in {:?}",
            self.phase
        );
        self.events.clear();
        match (self.phase, action) {
            (Phase::Lead(p) | Phase::Respond(p), Action::Play(x)) => self.after_play(p, x, false),
            (Phase::Respond(p), Action::Pass) => {
                // §4.1 history for đền: did the passer have a legal play? Only read for seats
                // that never played (§6.4 walks cóng seats), so it is computed only for them.
                if self.opts.cong_den_enabled
                    && self.played_by[p as usize].is_empty()
                    && self.den_flags & bit(p) == 0
                    && self.has_play_in(p, self.phase)
                {
                    self.den_flags |= bit(p);
                }
                if self.passed & bit(p) != 0 {
                    self.dropped |= bit(p);
                }
                self.passed |= bit(p);
                self.events.push(Event::Pass { seat: p });
                self.advance(p);
            }
            (Phase::OotWindow(q), Action::Chop(x)) => self.after_play(q, x, true),
            (Phase::OotWindow(q), Action::Decline) => {
                self.events.push(Event::Decline { seat: q });
                let from = self.window_from;
                if !self.open_window(from, self.next(q)) {
                    self.go_to_responder(from);
                }
            }
            (phase, action) => panic!("{action} is not an action of {phase:?}"),
        }
    }
}
