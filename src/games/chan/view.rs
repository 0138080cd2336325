//! What one seat may see, and its determinizations for information-set search.
//!
//! A seat sees its own concealed cards and record, every exposed meld, every discard (`Dsc`),
//! every offer a seat let pass (`offers`), the dead cards, the live card with its metadata, the
//! stock size and each hand's size. It does not see other hands, the stock order, nor whether
//! another seat is asked in an ù or chíu window (those are silent at a real table: its
//! [`ChanView::phase`] shows such a window as the gate owner's coming phase), nor another
//! seat's `Dec` (which depends on whether a take was legal for its hidden hand).
//!
//! [`ChanView::determinize`] deals the unseen cards at random to the other hands (keeping their
//! sizes) and the stock, then keeps the sample only if it agrees with what the public history
//! rules out:
//! - with `auto_expose_thien_khai`, a seat that laid no Thiên khai quad of `X` at the deal was not
//!   dealt four `X` (its dealt hand is its concealed cards plus everything it has spent, all
//!   public);
//! - a seat that ate `t` as a Ca held no `t` then (E11, Chắn priority) and so holds none now
//!   (concealed cards only leave a hand).
//!
//! It retries up to `DETERMINIZE_ATTEMPTS` times and then keeps the last sample (the hard
//! facts — hand sizes, unseen counts, the seat's own cards and history — hold in every sample;
//! only the two soft filters above are then dropped). Another seat's `Dec` is rebuilt as its
//! `offers` of identities its sampled dealt hand could pair with (an approximation: the exact
//! set depends on its hand at each past decision), and its ù forfeit (private) is cleared. When
//! another seat is asked in a window in the truth, the sample's windows are opened again on the
//! sampled hands (from the seat after this one if it was asked and declined, else from the gate
//! owner), so the seat asked in a sample is one its sampled hand makes eligible. Nothing
//! allocates.

use super::card::{Card, COPIES, IDENTITIES};
use super::hand::Hand;
use super::options::Options;
use super::rules::{Meld, MeldSource, SeatState};
use super::state::ChanState;
use super::types::{Live, Phase, Resume, Setup, DECK_SIZE, HAND_SIZE};
use crate::game::{GameState, OwnedView, Seat, SeatView};
use crate::rng::{shuffle, GameRng};

/// Samples tried before the last one is kept regardless of the soft filters.
pub(crate) const DETERMINIZE_ATTEMPTS: usize = 64;

/// A seat's view of a Chắn state. The state is private, so nothing hidden can be read.
#[derive(Copy, Clone)]
pub struct ChanView<'a> {
    state: &'a ChanState,
    seat: Seat,
}

impl<'a> ChanView<'a> {
    pub(super) fn new(state: &'a ChanState, seat: Seat) -> ChanView<'a> {
        ChanView { state, seat }
    }
    /// This seat's own record (concealed cards, history).
    pub fn own(&self) -> &'a SeatState {
        self.state.seat(self.seat)
    }
    /// This seat's concealed cards.
    pub(crate) fn own_hand(&self) -> Hand {
        self.own().concealed
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        self.state.players()
    }
    /// The phase as this seat sees it: an ù or chíu window asked of another seat shows as the
    /// gate owner's coming `Turn` or `Drawn` (windows are silent, and whether a seat is asked
    /// depends on its hidden hand).
    pub fn phase(&self) -> Phase {
        seen_phase(self.state, self.seat)
    }
    /// The live card.
    pub fn live(&self) -> Option<Live> {
        self.state.live()
    }
    /// Any seat's exposed melds.
    pub fn melds(&self, seat: Seat) -> &'a [Meld] {
        self.state.seat(seat).melds.as_slice()
    }
    /// Any seat's discarded identities (`Dsc`, public).
    pub fn discards(&self, seat: Seat) -> u32 {
        self.state.seat(seat).dsc
    }
    /// The offers any seat let pass at its gate (public).
    pub fn offers(&self, seat: Seat) -> u32 {
        self.state.seat(seat).offers
    }
    /// Number of concealed cards of any seat.
    pub fn hand_len(&self, seat: Seat) -> usize {
        self.state.seat(seat).concealed.len()
    }
    /// Dead cards.
    pub fn dead(&self) -> Hand {
        self.state.dead()
    }
    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        self.state.stock_len()
    }
    /// The deal's setup: the first player and the previous winner (public).
    pub fn setup(&self) -> Setup {
        self.state.setup()
    }
    /// The options.
    pub fn options(&self) -> &'a Options {
        self.state.options()
    }
    /// Copies of each identity this seat has not seen (not in its hand, not exposed, not dead,
    /// not live).
    pub fn unseen(&self) -> [u8; IDENTITIES] {
        unseen(self.state, self.seat)
    }
    /// The legal actions of this seat when it is to move (empty otherwise).
    pub fn legal_actions(&self, out: &mut <ChanState as GameState>::Actions) {
        out.clear();
        if self.state.to_move() == Some(self.seat) {
            self.state.legal_actions(out);
        }
    }
}

/// The phase of `s` as `seat` sees it (see [`ChanView::phase`]).
fn seen_phase(s: &ChanState, seat: Seat) -> Phase {
    match s.phase() {
        Phase::UWindow { seat: q, resume } | Phase::ChiuWindow { seat: q, resume } if q != seat => {
            let gate = s.live().expect("a window has a live card").gate;
            match resume {
                Resume::Turn => Phase::Turn(gate),
                Resume::Drawn => Phase::Drawn(gate),
            }
        }
        phase => phase,
    }
}

/// Reopens, in a determinization `s`, the windows of the live card that the viewer `me` cannot
/// see into (another seat is asked in the truth): from the seat after `me` if `me` was asked in
/// this ù window (it knows it declined), else from the gate owner; the sampled hands decide who
/// is asked.
fn reopen_windows(s: &mut ChanState, me: Seat) {
    let resume = match s.phase {
        Phase::UWindow { seat, resume } | Phase::ChiuWindow { seat, resume } if seat != me => {
            resume
        }
        _ => return,
    };
    let n = s.opts.players;
    let gate = s.live().expect("a window has a live card").gate;
    let from = if s.asked >> me & 1 == 1 {
        (me + n - gate) % n + 1
    } else {
        0
    };
    s.asked &= 1 << me;
    s.ask_u(from, resume);
}

/// Copies of each identity `seat` has not seen.
pub fn unseen(s: &ChanState, seat: Seat) -> [u8; IDENTITIES] {
    let mut u = [COPIES; IDENTITIES];
    let mut seen = s.seat(seat).concealed.plus(s.dead());
    for x in 0..s.players() as Seat {
        seen = seen.plus(s.seat(x).exposed());
    }
    if let Some(l) = s.live() {
        seen.add(l.card);
    }
    for (i, x) in u.iter_mut().enumerate() {
        *x -= seen.counts()[i];
    }
    u
}

/// True when a sampled concealed hand of another seat agrees with its public history.
fn plausible(p: &SeatState, concealed: &Hand, o: &Options) -> bool {
    if concealed.present() & p.not_held != 0 {
        return false;
    }
    if o.auto_expose_thien_khai {
        let dealt = concealed.plus(p.spent);
        let exposed_tk = p
            .melds
            .as_slice()
            .iter()
            .filter(|m| m.source == MeldSource::ThienKhai)
            .fold(0u32, |acc, m| acc | m.taken.bit());
        for c in Card::all() {
            if dealt.count(c) == 4 && exposed_tk & c.bit() == 0 {
                return false;
            }
        }
    }
    true
}

/// `Dec` rebuilt for a sampled seat: its offers its dealt hand could pair with.
fn approximate_dec(p: &SeatState, dealt: &Hand) -> u32 {
    let mut dec = 0;
    for c in Card::all() {
        if p.offers & c.bit() == 0 {
            continue;
        }
        let pairs = match c.rank_index() {
            Some(r) => Card::of_rank(r).iter().any(|&x| dealt.count(x) > 0),
            None => dealt.count(c) > 0,
        };
        if pairs {
            dec |= c.bit();
        }
    }
    dec
}

impl SeatView for ChanView<'_> {
    type State = ChanState;

    fn seat(&self) -> Seat {
        self.seat
    }
    fn owned(&self) -> OwnedView<ChanState> {
        OwnedView::new(*self.state, self.seat)
    }

    fn determinize(&self, rng: &mut GameRng) -> ChanState {
        let truth = self.state;
        let me = self.seat;
        let n = truth.players();
        let u = unseen(truth, me);
        let mut pool = [Card::default(); DECK_SIZE];
        let mut len = 0;
        for (i, &k) in u.iter().enumerate() {
            for _ in 0..k {
                pool[len] = Card::from_index(i);
                len += 1;
            }
        }
        let mut s = *truth;
        for attempt in 0..DETERMINIZE_ATTEMPTS {
            shuffle(&mut pool[..len], rng);
            let mut k = 0;
            let mut ok = true;
            for x in (0..n).filter(|&x| x != me as usize) {
                let size = truth.seat(x as Seat).concealed.len();
                let hand = Hand::of(&pool[k..k + size]);
                k += size;
                ok &= plausible(truth.seat(x as Seat), &hand, truth.options());
                s.seats[x].concealed = hand;
            }
            if ok || attempt + 1 == DETERMINIZE_ATTEMPTS {
                let first = s.next_draw as usize;
                s.deck[first..].copy_from_slice(&pool[k..len]);
                break;
            }
        }
        for x in (0..n).filter(|&x| x != me as usize) {
            let p = &mut s.seats[x];
            p.dec = approximate_dec(p, &p.initial());
            p.forfeit = false;
        }
        reopen_windows(&mut s, me);
        rewrite_deal(&mut s);
        s
    }
}

/// Rewrites the dealt part of the deck (it held the true deal) from the dealt hands of the
/// determinized state, in §2.4's order: each seat's dealt cards in canonical order.
fn rewrite_deal(s: &mut ChanState) {
    let n = s.players();
    let f = s.setup().first as usize;
    let mut dealt: [Hand; super::types::MAX_PLAYERS] = [Hand::EMPTY; super::types::MAX_PLAYERS];
    for (x, d) in dealt.iter_mut().enumerate().take(n) {
        *d = s.seats[x].initial();
    }
    // the winner's ù card (if any) is not dealt; the deal is only rewritten mid-hand anyway
    let mut next = |x: usize| -> Card {
        // (a hand-built position may not hold a full deal: it is then padded, never read)
        let c = dealt[x].types().next().unwrap_or_default();
        if dealt[x].count(c) > 0 {
            dealt[x].remove(c);
        }
        c
    };
    for k in 0..HAND_SIZE * n {
        s.deck[k] = next((f + k) % n);
    }
    s.deck[HAND_SIZE * n] = next(f);
}
