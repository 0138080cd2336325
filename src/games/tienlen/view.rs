//! What one seat may see, and its determinizations: own hand, hand sizes, the cards played,
//! the trick (top, owner, passes, chặt chain), places, the public phase; nothing else.

use super::card::{Card, DECK_SIZE};
use super::card_set::Cards;
use super::combo::{toi_trang, Combo};
use super::options::Options;
use super::state::TienLenState;
use super::types::{Actions, Chain, Phase, HAND_SIZE, MAX_PLAYERS};
use crate::game::{GameState, OwnedView, Seat, SeatView};
use crate::rng::{shuffle, GameRng};

/// Sampling attempts before a determinization keeps a sample in which some seat's dealt hand
/// would have been a tới trắng (such hands are a few percent of deals, so 64 tries all failing
/// has a negligible probability).
pub(crate) const DETERMINIZE_ATTEMPTS: usize = 64;
/// Sampling attempts before a determinization keeps a sample that shows this seat another public
/// phase than the state does (see [`TienLenView::keeps_phase`]; only possible under
/// `passed_player_may_chop_in_turn`, when a passed seat must hold a hàng chặt of the top, which
/// a few percent of samples give it).
pub(crate) const PHASE_ATTEMPTS: usize = 4096;

/// A seat's view of a Tiến Lên state. The state is private: only the accessors below read it.
#[derive(Copy, Clone)]
pub struct TienLenView<'a> {
    state: &'a TienLenState,
    seat: Seat,
}

impl<'a> TienLenView<'a> {
    pub(super) fn new(state: &'a TienLenState, seat: Seat) -> TienLenView<'a> {
        TienLenView { state, seat }
    }
    /// This seat's hand.
    pub(crate) fn own_hand(&self) -> Cards {
        self.state.hand(self.seat)
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        self.state.players()
    }
    /// The rule options.
    pub fn options(&self) -> &'a Options {
        self.state.options()
    }
    /// True in an initial game.
    pub fn initial(&self) -> bool {
        self.state.initial()
    }
    /// The game's leader.
    pub fn leader(&self) -> Seat {
        self.state.leader()
    }
    /// The card the next play must contain, if any (§2.5).
    pub fn required(&self) -> Option<Card> {
        self.state.required()
    }
    /// Number of cards any seat holds.
    pub fn hand_len(&self, seat: Seat) -> usize {
        self.state.hand_len(seat)
    }
    /// The cards a seat has played.
    pub fn played_by(&self, seat: Seat) -> Cards {
        self.state.played_by(seat)
    }
    /// Every card played so far.
    pub fn played(&self) -> Cards {
        self.state.played()
    }
    /// The top combination and its owner.
    pub fn top(&self) -> Option<(Combo, Seat)> {
        self.state.top()
    }
    /// Seats that passed in this trick (mask).
    pub fn passed(&self) -> u8 {
        self.state.passed()
    }
    /// The chặt chain of the current trick (public: it follows from the plays of the trick).
    pub fn chain(&self) -> Chain {
        self.state.chain()
    }
    /// Seats in the order they went out.
    pub fn finished(&self) -> &'a [Seat] {
        self.state.finished()
    }
    /// Cóng seats (mask).
    pub fn cong(&self) -> u8 {
        self.state.cong()
    }
    /// Seats that left play under `forbid_finish_on_two`.
    pub fn leavers(&self) -> &'a [Seat] {
        self.state.leavers()
    }
    /// The cards a seat has shown: a leaver's hand (he shows his lone 2 when he leaves play,
    /// §4.3 v2, so [`TienLenView::unseen`] counts it as seen); empty for any other seat.
    pub fn shown(&self, seat: Seat) -> Cards {
        if self.state.leavers().contains(&seat) {
            self.state.hand(seat)
        } else {
            Cards::EMPTY
        }
    }
    /// Places so far (0 = not placed).
    pub fn places(&self) -> &'a [u8] {
        self.state.places()
    }
    /// The public phase: this seat's own out-of-turn decision shows as `OotWindow(seat)`; another
    /// seat's window shows as what follows it if everyone declines.
    pub fn phase(&self) -> Phase {
        match self.state.phase() {
            Phase::OotWindow(q) if q == self.seat => Phase::OotWindow(q),
            _ => self.state.continuation(),
        }
    }
    /// The legal actions of this seat when it is to move (empty otherwise).
    pub fn legal_actions(&self, out: &mut Actions) {
        out.clear();
        if self.state.to_move() == Some(self.seat) {
            self.state.legal_actions(out);
        }
    }
    /// The cards this seat has not seen: not in its hand and not played. (A leaver's last card
    /// is treated as shown when he leaves.)
    pub fn unseen(&self) -> Cards {
        let s = self.state;
        let mut known = self.own_hand().union(s.played());
        for &l in s.leavers() {
            known = known.union(s.hand(l));
        }
        Cards::ALL.minus(known)
    }
    /// True when this seat sees the same public phase in the sample `d`. The phase that follows
    /// another seat's out-of-turn window is public, but under `passed_player_may_chop_in_turn`
    /// it depends on whether a seat that passed holds a hàng that chặt the top, so a sample
    /// must agree with it (otherwise the phase is a function of public facts only).
    fn keeps_phase(&self, d: &TienLenState) -> bool {
        TienLenView::new(d, self.seat).phase() == self.phase()
    }
}

impl SeatView for TienLenView<'_> {
    type State = TienLenState;

    fn seat(&self) -> Seat {
        self.seat
    }
    fn owned(&self) -> OwnedView<TienLenState> {
        OwnedView::new(*self.state, self.seat)
    }

    /// Resamples the other hands (and the set-aside cards when N < 4) uniformly from the unseen
    /// cards, keeping every hand size, rejecting samples where another seat's dealt hand would
    /// have been a tới trắng (up to `DETERMINIZE_ATTEMPTS` tries) or that show this seat
    /// another public phase (up to `PHASE_ATTEMPTS`). An initial game's required card stays
    /// with the leader (public: it decides who leads), and with N < 4 the unseen cards below it
    /// stay set aside.
    /// Other seats' đền history (hidden) is cleared. No allocation.
    fn determinize(&self, rng: &mut GameRng) -> TienLenState {
        let st = self.state;
        let n = st.players();
        let me = self.seat;
        let mut d = *st;
        let mut fixed = [false; MAX_PLAYERS];
        fixed[me as usize] = true;
        for &l in st.leavers() {
            fixed[l as usize] = true;
        }
        let mut pool_set = self.unseen();
        let mut pinned = [Cards::EMPTY; MAX_PLAYERS];
        let mut aside_pinned = Cards::EMPTY;
        if let Some(r) = st.required() {
            let leader = st.leader();
            if !fixed[leader as usize] && pool_set.contains(r) {
                pinned[leader as usize] = Cards::one(r);
                pool_set = pool_set.without(r);
            }
            aside_pinned = pool_set.inter(Cards((1u64 << r.key()) - 1));
            pool_set = pool_set.minus(aside_pinned);
        }
        let mut pool = [Card::default(); DECK_SIZE];
        let mut len = 0;
        for c in pool_set {
            pool[len] = c;
            len += 1;
        }
        let pool = &mut pool[..len];
        for attempt in 1..=PHASE_ATTEMPTS {
            shuffle(pool, rng);
            let mut next = 0;
            let mut ok = true;
            for s in 0..n {
                if fixed[s] {
                    continue;
                }
                let need = st.hand_len(s as Seat) - pinned[s].len() as usize;
                let mut h = pinned[s];
                for &c in &pool[next..next + need] {
                    h = h.with(c);
                }
                next += need;
                d.hands[s] = h;
                ok &= toi_trang(h.union(st.played_by(s as Seat)), st.initial(), st.options())
                    .is_empty();
            }
            d.set_aside = aside_pinned;
            for &c in &pool[next..] {
                d.set_aside = d.set_aside.with(c);
            }
            if (ok || attempt >= DETERMINIZE_ATTEMPTS) && self.keeps_phase(&d) {
                break;
            }
        }
        // a deck consistent with the sample (§2.3), so the state hides nothing it should not
        let mut dealt = [Cards::EMPTY; MAX_PLAYERS];
        for (s, h) in dealt.iter_mut().enumerate().take(n) {
            *h = d.hands[s].union(d.played_by[s]);
        }
        for k in 0..HAND_SIZE * n {
            let s = (st.dealer() as usize + k) % n;
            let c = dealt[s].lowest().unwrap_or_default();
            dealt[s] = dealt[s].without(c);
            d.deck[k] = c;
        }
        for (k, c) in (HAND_SIZE * n..).zip(d.set_aside) {
            d.deck[k] = c;
        }
        d.den_flags &= 1 << me;
        d
    }
}
