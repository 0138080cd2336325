//! What one seat sees of a multi-pack game (§1.5) and the determinization ISMCTS samples: the
//! other seats' hands and face-down blocks and the stock resampled from the unseen cards. With
//! [`PacksView::determinize_inferred`] it also reads the windows each seat let pass: a hand
//! never gains a hidden card after the deal (every draw is shown), so a seat that let a type
//! pass while holding fewer than two copies still holds fewer.
//!
//! Two things a seat does not see: who an open claim window asks besides the turn player and
//! itself (holding two copies of the active card, three for the King Quad, is private, and the
//! S2.2 declarations are simultaneous and hidden), and whether the turn player has answered.
//! One thing it does: after a reshuffle (§4.7) the stock is the old dead pile, public, less the
//! cards drawn since; only its order is unknown.

use super::loose::{best, Counts};
use super::reopen::{reopen_window, waited_on};
use super::state::{HandFacts, PacksState, WindowKind, MAX_DECK};
use crate::game::{OwnedView, Seat, SeatView};
use crate::games::tusac::actions::{Active, Phase};
use crate::games::tusac::card::{Card, Rank, CARD_TYPES};
use crate::games::tusac::options::WinTest;
use crate::games::tusac::sets::SetInstance;
use crate::rng::{shuffle, GameRng};
use arrayvec::ArrayVec;
use rand::Rng;
use std::ops::Range;

/// The weight of a sampled hand is `exp(−w × loose)`: players keep tidy hands, and uniform
/// samples hold far more loose cards than greedy players do. `w` is calibrated per win test on
/// greedy play (4 × greedy, 400 deals, every legal discard of seat 0, 40 determinizations each)
/// so that the predicted chance that some other seat can win on a discard matches the true one:
/// sisepai21 (complete, over 9) 0.69% against 0.71% at `w` = 1 (0.01% unweighted, 3.4% at 2);
/// dirtyking26 (complete, over 20 and even) 0.83% against 0.83% at `w` = 1.4 (0.47% at 1, 1.07%
/// at 1.6). The test `determinizations_predict_how_often_an_opponent_can_win_on_a_discard`
/// (tests/tusac/tusac_packs_view.rs) repeats the measurement.
fn loose_weight(test: WinTest) -> f64 {
    match test {
        WinTest::CompleteOver20Even => 1.4,
        _ => 1.0,
    }
}

/// The weight against a sampled hand holding two copies of a type its seat let pass: its log
/// odds. Calibrated on greedy play (`determinizations_with_passes_predict_identical_claims`,
/// tests/tusac/tusac_packs_view.rs).
const PASS_WEIGHT: f64 = 2.5;
/// Metropolis steps per seat towards that weight.
const WEIGH_STEPS: usize = 40;
/// Resampling tries before a sample that breaks the "fewer than four dealt copies" inference
/// is accepted (it is still a legal state).
const TRIES: usize = 20;

/// One seat's view: its own hand and face-down block, and the public information of §1.5.
#[derive(Copy, Clone, Debug)]
pub struct PacksView<'a> {
    state: &'a PacksState,
    seat: Seat,
}

impl<'a> PacksView<'a> {
    /// A copy of the state, for the engine's [`SeatView::owned`] of every core.
    pub(crate) fn copy_state(&self) -> PacksState {
        *self.state
    }
    /// The view of `seat`.
    pub fn new(state: &'a PacksState, seat: Seat) -> PacksView<'a> {
        PacksView { state, seat }
    }
    /// The card types `seat` let pass in a window nobody took (bit `t`; S3, S4): public.
    pub fn passed(&self, seat: Seat) -> u32 {
        self.state.passed[seat as usize]
    }
    /// The seat's own hand.
    pub fn hand(&self) -> &Counts {
        self.state.hand(self.seat)
    }
    /// The seat's own face-down quadruples.
    pub fn face_down(&self) -> impl Iterator<Item = Card> + '_ {
        self.state.face_down(self.seat)
    }
    /// Cards in a seat's hand (public).
    pub fn hand_len(&self, seat: Seat) -> usize {
        self.state.hand_len(seat)
    }
    /// Cards in a seat's face-down block (public).
    pub fn face_down_len(&self, seat: Seat) -> usize {
        self.state.face_down_len(seat)
    }
    /// A seat's melded sets (public).
    pub fn melded(&self, seat: Seat) -> &[SetInstance] {
        self.state.melded(seat)
    }
    /// The dead pile (public).
    pub fn dead(&self) -> &Counts {
        self.state.dead()
    }
    /// The active card (public).
    pub fn active(&self) -> Option<Active> {
        self.state.active()
    }
    /// The phase as this seat sees it: an open claim window that does not ask this seat now
    /// shows as the `TurnOption` of its turn player (for a drawn King, its drawer), the one
    /// seat every window of §4.6 starts from; who else is asked, and whether the turn player
    /// has answered, is private (S2.2).
    pub fn phase(&self) -> Phase {
        let s = self.state;
        match (s.phase(), s.active()) {
            (Phase::Claim(x), Some(a)) if x != self.seat => {
                Phase::TurnOption(s.claim_order(a).next().expect("a claim order"))
            }
            (phase, _) => phase,
        }
    }
    /// Cards left in the stock (public).
    pub fn stock_len(&self) -> usize {
        self.state.stock_len()
    }
    /// The double rank (public).
    pub fn double_rank(&self) -> Option<Rank> {
        self.state.double_rank()
    }
    /// The cards a seat has discarded, taken later or not (public).
    pub fn discarded(&self, seat: Seat) -> &Counts {
        self.state.discarded(seat)
    }
    /// The cards known to be in the stock: its public part, or after a reshuffle the whole
    /// stock (the old dead pile less the cards drawn since; its order is not known).
    pub(crate) fn known_stock(&self) -> Counts {
        let s = self.state;
        let mut known = [0u8; CARD_TYPES];
        let cards = &s.stock[known_stock_start(s)..usize::from(s.end)];
        cards.iter().for_each(|c| known[c.index()] += 1);
        known
    }
    /// The seats this seat knows the open claim window asks, in claim order: the turn player of
    /// an S2 declaration window (always asked first), and this seat when the window asks it;
    /// empty when no window is open.
    pub fn asked(&self) -> ArrayVec<Seat, 2> {
        let w = &self.state.window;
        let seats = match w.kind {
            WindowKind::Closed => &[][..],
            _ => &w.seats[..usize::from(w.len)],
        };
        let mut out = ArrayVec::new();
        if w.kind == WindowKind::Declare {
            out.push(seats[0]);
        }
        if seats.contains(&self.seat) && !out.contains(&self.seat) {
            out.push(self.seat);
        }
        out
    }
    /// Dead-pile reshuffles still allowed (§4.7, public).
    pub(crate) fn reshuffles_left(&self) -> u8 {
        self.state.reshuffles_left()
    }
    /// The seat this seat sees deciding (of [`PacksView::phase`]), or `None` when the game is
    /// over.
    pub fn to_move(&self) -> Option<Seat> {
        match self.phase() {
            Phase::MustDiscard(x) | Phase::TurnOption(x) | Phase::Claim(x) => Some(x),
            Phase::Over => None,
        }
    }
    /// What the solver says of the seat's own hand (kept by the state).
    pub fn facts(&self) -> HandFacts {
        self.state.facts(self.seat)
    }
    /// The seat's own fixed points (face-down and melded sets).
    pub fn fixed_points(&self) -> u32 {
        self.state.fixed_points(self.seat)
    }
    /// The rule options.
    pub fn options(&self) -> &crate::games::tusac::options::Options {
        self.state.options()
    }

    /// The cards this seat has not seen (in the other seats' hands and face-down blocks or the
    /// hidden stock): every copy in play minus its own hand and face-down block, the melded
    /// sets, the dead pile, the active card and the cards known to be in the stock
    /// (`PacksView::known_stock`).
    pub fn unseen(&self) -> Counts {
        let s = self.state;
        let mut pool = deck_counts(s);
        let mut take = |c: Card, k: u8| pool[c.index()] -= k;
        for c in Card::all() {
            take(c, s.hand(self.seat)[c.index()] + s.dead()[c.index()]);
        }
        s.face_down(self.seat).for_each(|c| take(c, 4));
        for x in 0..s.opts.players {
            for set in s.melded(x) {
                set.cards().iter().for_each(|&c| take(c, 1));
            }
        }
        if let Some(a) = s.active {
            take(a.card, 1);
        }
        let known = self.known_stock();
        Card::all().for_each(|c| take(c, known[c.index()]));
        pool
    }
}

/// Counts of every card in play.
fn deck_counts(s: &PacksState) -> Counts {
    let mut pool = [0u8; CARD_TYPES];
    s.deck().iter().for_each(|c| pool[c.index()] += 1);
    pool
}

/// Lays `pool` out as a list of cards in canonical order; returns its length.
fn cards_of(pool: &Counts, out: &mut [Card; MAX_DECK]) -> usize {
    let mut k = 0;
    for c in Card::all() {
        for _ in 0..pool[c.index()] {
            out[k] = c;
            k += 1;
        }
    }
    k
}

/// Where the cards known to be in the stock begin: after a reshuffle, at the next draw (the
/// whole stock is the old dead pile); before, at the cards looked at for the double rank
/// (§1.4 step 2) not yet drawn, or once the draws reach them, at the next draw.
fn known_stock_start(s: &PacksState) -> usize {
    if s.reshuffled() {
        usize::from(s.next)
    } else {
        usize::from(s.public_from.max(s.next))
    }
}

impl SeatView for PacksView<'_> {
    type State = PacksState;
    fn seat(&self) -> Seat {
        self.seat
    }
    fn owned(&self) -> OwnedView<PacksState> {
        OwnedView::new(*self.state, self.seat)
    }

    /// Resamples the other seats' face-down blocks (non-King types with four unseen copies),
    /// hands (their sizes kept) and the hidden part of the stock from the unseen cards; after a
    /// reshuffle the stock keeps its cards (the old dead pile) in a new order. The open claim
    /// window is opened again on the sampled hands (`reopen_window`; a seat it waits on
    /// while this one does not decide holds the copies it needs, `waited_on`), and the
    /// reshuffle seed is redrawn. Tries to keep the inference that a hand held fewer than four copies of any
    /// non-King type outside its face-down block. Each sampled hand is then weighted towards
    /// tidy hands by a Metropolis chain (`loose_weight`).
    fn determinize(&self, rng: &mut GameRng) -> PacksState {
        self.sample(rng, false)
    }
}

impl PacksView<'_> {
    /// [`SeatView::determinize`] that also reads the passed windows: a sampled hand holding two
    /// or more copies of a type its seat let pass in a window nobody took (S3, S4) is weighted
    /// down by `exp(−PASS_WEIGHT)` per such type, since it would most likely have claimed.
    pub fn determinize_inferred(&self, rng: &mut GameRng) -> PacksState {
        self.sample(rng, true)
    }

    /// The determinization, with the passed windows read when `infer`.
    fn sample(&self, rng: &mut GameRng, infer: bool) -> PacksState {
        let s = self.state;
        let mut out = *s;
        let (waited, keep) = waited_on(s, self.seat, rng);
        let mut unseen = self.unseen();
        unseen[keep.0.index()] -= keep.1;
        let (next, known) = (usize::from(s.next), known_stock_start(s));
        let mut cards = [Card::default(); MAX_DECK];
        for _ in 0..TRIES {
            out = *s;
            let mut pool = unseen;
            let ok = (0..s.opts.players)
                .filter(|&x| x != self.seat)
                .all(|x| sample_face_down(&mut out, x, &mut pool, rng));
            if !ok {
                continue;
            }
            let len = cards_of(&pool, &mut cards);
            shuffle(&mut cards[..len], rng);
            let mut k = 0;
            let mut consistent = true;
            for x in (0..s.opts.players).filter(|&x| x != self.seat) {
                let copies = if Some(x) == waited { keep.1 } else { 0 };
                let n = s.hand_len(x) - usize::from(copies);
                let hand = &mut out.hands[x as usize];
                *hand = [0; CARD_TYPES];
                hand[keep.0.index()] = copies;
                cards[k..k + n].iter().for_each(|c| hand[c.index()] += 1);
                k += n;
                let fd = out.face_down[x as usize];
                consistent &= (4..CARD_TYPES).all(|t| hand[t] < 4 || fd >> t & 1 == 1);
            }
            out.stock[next..known].copy_from_slice(&cards[k..k + known - next]);
            if consistent {
                break;
            }
        }
        for x in (0..s.opts.players).filter(|&x| x != self.seat) {
            let kept = if Some(x) == waited { keep } else { (keep.0, 0) };
            let passed = if infer { s.passed[x as usize] } else { 0 };
            weigh(&mut out, (x, passed), kept, next..known, rng);
        }
        if s.reshuffled() {
            shuffle(&mut out.stock[next..usize::from(s.end)], rng);
        }
        let len = usize::from(s.deck_len);
        cards_of(&deck_counts(s), &mut cards);
        out.deck[..len].copy_from_slice(&cards[..len]);
        out.reshuffle_seed = rng.random();
        for x in (0..s.opts.players).filter(|&x| x != self.seat) {
            out.recount(x);
        }
        reopen_window(&mut out, s, self.seat, waited.is_some());
        out
    }
}

/// Runs a Metropolis chain on seat `x`'s sampled hand, swapping single cards with the hidden
/// stock, towards the weight `exp(−w × loose(hand))` of [`loose_weight`], times
/// `exp(−PASS_WEIGHT)` for each type of `passed` the hand holds twice or more. The `keep` copies
/// of the active card a window waits on ([`waited_on`]) stay in the hand, and no swap breaks the
/// "fewer than four copies outside the face-down block" inference.
fn weigh(
    out: &mut PacksState,
    (x, passed): (Seat, u32),
    keep: (Card, u8),
    hidden: Range<usize>,
    rng: &mut GameRng,
) {
    let moves = out.hand_len(x) - usize::from(keep.1);
    if moves == 0 || hidden.is_empty() {
        return;
    }
    let rules = out.rules;
    let weight = loose_weight(out.opts.win_test);
    // with no passes read the second term is +0.0, which leaves every energy as it was
    let energy = |hand: &Counts| {
        weight * f64::from(best(hand, &rules).0) + PASS_WEIGHT * held_twice(hand, passed)
    };
    let mut hand = out.hands[x as usize];
    let mut e = energy(&hand);
    for _ in 0..WEIGH_STEPS {
        let mut movable = hand;
        movable[keep.0.index()] -= keep.1;
        let a = nth_card(&movable, rng.random_range(0..moves));
        let k = rng.random_range(hidden.clone());
        let b = out.stock[k];
        let fd = out.face_down[x as usize] >> b.index() & 1 == 1;
        if a == b || (!b.is_king() && hand[b.index()] >= 3 && !fd) {
            continue;
        }
        let mut next = hand;
        next[a.index()] -= 1;
        next[b.index()] += 1;
        let ne = energy(&next);
        if ne <= e || rng.random::<f64>() < (e - ne).exp() {
            (hand, e) = (next, ne);
            out.stock[k] = a;
        }
    }
    out.hands[x as usize] = hand;
}

/// How many types of the mask `passed` the hand holds twice or more (visits set bits only, so
/// the plain determinization, with an empty mask, pays nothing).
fn held_twice(hand: &Counts, passed: u32) -> f64 {
    let (mut mask, mut held) = (passed, 0u32);
    while mask != 0 {
        let t = mask.trailing_zeros() as usize;
        held += u32::from(hand[t] >= 2);
        mask &= mask - 1;
    }
    f64::from(held)
}

/// The `i`-th card of `hand` in canonical order.
fn nth_card(hand: &Counts, mut i: usize) -> Card {
    for c in Card::all() {
        let n = usize::from(hand[c.index()]);
        if i < n {
            return c;
        }
        i -= n;
    }
    unreachable!("i is below the hand's size")
}

/// Draws a face-down block of the same size for seat `x` from `pool`; false when the pool
/// cannot supply one.
fn sample_face_down(out: &mut PacksState, x: Seat, pool: &mut Counts, rng: &mut GameRng) -> bool {
    let quads = out.face_down[x as usize].count_ones();
    out.face_down[x as usize] = 0;
    for _ in 0..quads {
        let free = |t: usize| pool[t] >= 4 && out.face_down[x as usize] >> t & 1 == 0;
        let choices = (4..CARD_TYPES).filter(|&t| free(t)).count();
        if choices == 0 {
            return false;
        }
        let pick = (4..CARD_TYPES)
            .filter(|&t| free(t))
            .nth(rng.random_range(0..choices))
            .expect("a free type");
        pool[pick] -= 4;
        out.face_down[x as usize] |= 1 << pick;
    }
    true
}
