//! What one seat may see (§1.5), and determinization: a full state consistent with that view.

use super::card::{Card, CARD_TYPES};
use super::hand::Hand;
use super::sets::SetInstance;
use super::state::{Active, Phase, TuSacState, DECK_SIZE, MAX_PLAYERS};
use super::trash::trash;
use super::worst::COPIES;
use crate::game::{GameState, Seat, SeatView};
use crate::rng::{shuffle, GameRng};
use rand::Rng;

/// A seat's view of a Tứ Sắc state: its own private block and the public information of §1.5
/// (public blocks, dead pile, active card, stock size, card and Khap counts). The state is a
/// private field, so nothing else can be read through it.
#[derive(Copy, Clone)]
pub struct TuSacView<'a> {
    state: &'a TuSacState,
    seat: Seat,
}

impl<'a> TuSacView<'a> {
    pub(super) fn new(state: &'a TuSacState, seat: Seat) -> TuSacView<'a> {
        TuSacView { state, seat }
    }
    /// This seat's own private block.
    pub fn own_hand(&self) -> Hand {
        self.state.private(self.seat)
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        self.state.players()
    }
    /// The phase (whose decision it is).
    pub fn phase(&self) -> Phase {
        self.state.phase()
    }
    /// The active card.
    pub fn active(&self) -> Option<Active> {
        self.state.active()
    }
    /// Any seat's public sets.
    pub fn public_sets(&self, seat: Seat) -> &'a [SetInstance] {
        self.state.public_sets(seat)
    }
    /// Counts of each type in the dead pile.
    pub fn dead(&self) -> &'a [u8; CARD_TYPES] {
        self.state.dead()
    }
    /// Counts of each type in every public block and the dead pile.
    pub fn visible(&self) -> &'a [u8; CARD_TYPES] {
        self.state.visible()
    }
    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        self.state.stock_len()
    }
    /// Number of cards in a seat's private block.
    pub fn hand_len(&self, seat: Seat) -> usize {
        self.state.private(seat).len()
    }
    /// Number of Khaps a seat holds (public, §1.4 step 4).
    pub fn khaps(&self, seat: Seat) -> u32 {
        self.state.khaps(seat)
    }
    /// The rule options.
    pub fn options(&self) -> &'a super::rules::Options {
        self.state.options()
    }
    /// Copies of each type this seat has not seen: not in its hand, not public, not dead and not
    /// the active card.
    pub fn unseen(&self) -> [u8; CARD_TYPES] {
        let own = self.own_hand();
        let mut u = [COPIES; CARD_TYPES];
        for c in Card::all() {
            u[c.index()] -= own.count(c) + self.visible()[c.index()];
        }
        if let Some(a) = self.active() {
            u[a.card.index()] -= 1;
        }
        u
    }

    /// One attempt at resampling: `None` if the random fill got stuck (the caller retries).
    fn try_determinize(&self, rng: &mut GameRng) -> Option<TuSacState> {
        let mut s = *self.state;
        let mut unseen = self.unseen();
        let others = (0..s.players() as Seat).filter(|&x| x != self.seat);
        // Khaps first: each other seat holds exactly its public number of triples.
        for x in others.clone() {
            let mut hand = Hand::EMPTY;
            for _ in 0..self.khaps(x) {
                let eligible =
                    Card::all().filter(|c| unseen[c.index()] >= 3 && hand.count(*c) == 0);
                let n = eligible.clone().count();
                if n == 0 {
                    return None;
                }
                let c = eligible
                    .clone()
                    .nth(rng.random_range(0..n))
                    .expect("in range");
                unseen[c.index()] -= 3;
                (0..3).for_each(|_| hand.add(c));
            }
            s.private[x as usize] = hand;
        }
        let mut pool = [Card::default(); DECK_SIZE];
        let mut len = 0;
        for c in Card::all() {
            for _ in 0..unseen[c.index()] {
                pool[len] = c;
                len += 1;
            }
        }
        shuffle(&mut pool[..len], rng);
        // Then the other cards, never making a further triple.
        let mut taken = [false; DECK_SIZE];
        for x in others {
            let target = self.hand_len(x);
            let hand = &mut s.private[x as usize];
            for (i, &c) in pool[..len].iter().enumerate() {
                if hand.len() == target {
                    break;
                }
                if !taken[i] && hand.count(c) < 2 {
                    hand.add(c);
                    taken[i] = true;
                }
            }
            if hand.len() != target {
                return None;
            }
        }
        let mut stock = [Card::default(); DECK_SIZE];
        let mut n_stock = 0;
        for (i, &c) in pool[..len].iter().enumerate() {
            if !taken[i] {
                stock[n_stock] = c;
                n_stock += 1;
            }
        }
        debug_assert_eq!(n_stock, s.stock_len());
        for x in (0..s.players() as Seat).filter(|&x| x != self.seat) {
            let (spent, discards) = (self.state.spent(x), self.state.discards(x));
            repair(
                &mut s.private[x as usize],
                &mut stock[..n_stock],
                spent,
                discards,
                rng,
            );
        }
        shuffle(&mut stock[..n_stock], rng);
        // The stock keeps its place in the deck; the dealt part is scrubbed to canonical order
        // (it held the true deal), built from the cards that are not in the new stock.
        let first = s.next_draw as usize;
        s.deck[first..].copy_from_slice(&stock[..n_stock]);
        let mut rest = [COPIES; CARD_TYPES];
        stock[..n_stock].iter().for_each(|c| rest[c.index()] -= 1);
        let mut k = 0;
        for c in Card::all() {
            for _ in 0..rest[c.index()] {
                s.deck[k] = c;
                k += 1;
            }
        }
        Some(s)
    }
}

/// How far a sampled private block `hand` is from what its seat's public history implies.
///
/// The block it was dealt is `hand ⊎ spent` (its discards and meld cards are public). Each of
/// its `discards` lowered trash by exactly one and no meld raised it (C7, LegalMelds (b)), so
/// `trash(hand) ≤ trash(hand ⊎ spent) − discards`; and a Khap of the deal is either still whole
/// or was melded whole (C2). Returns the excess trash (0 when consistent), or a large number
/// when the dealt block is impossible.
pub fn history_excess(hand: Hand, spent: Hand, discards: u32) -> u32 {
    const IMPOSSIBLE: u32 = 100;
    let mut dealt = hand;
    for c in spent.types() {
        let (h, sp) = (hand.count(c), spent.count(c));
        if h + sp > 3 || (h + sp == 3 && h != 0 && h != 3) {
            return IMPOSSIBLE;
        }
        (0..sp).for_each(|_| dealt.add(c));
    }
    (u32::from(trash(hand)) + discards).saturating_sub(u32::from(trash(dealt)))
}

/// Swaps attempted per seat to bring a sampled block in line with its history.
const REPAIR_TRIES: usize = 300;

/// Moves a sampled private block toward consistency with its seat's history
/// ([`history_excess`]) by swapping its cards with stock cards, never changing its Khaps or
/// making a new triple. Accepts swaps that do not increase the excess (a random walk on the
/// consistent blocks once the excess reaches 0 is not needed: it stops there).
fn repair(hand: &mut Hand, stock: &mut [Card], spent: Hand, discards: u32, rng: &mut GameRng) {
    let mut excess = history_excess(*hand, spent, discards);
    let mut tries = 0;
    while excess > 0 && tries < REPAIR_TRIES && !stock.is_empty() {
        tries += 1;
        let movable = hand.types().filter(|&c| hand.count(c) < 3);
        let n = movable
            .clone()
            .map(|c| usize::from(hand.count(c)))
            .sum::<usize>();
        if n == 0 {
            return;
        }
        let mut k = rng.random_range(0..n);
        let out = movable
            .flat_map(|c| std::iter::repeat_n(c, usize::from(hand.count(c))))
            .nth(k)
            .expect("k < n");
        k = rng.random_range(0..stock.len());
        let into = stock[k];
        let mut next = hand.without(out);
        if into == out || next.count(into) >= 2 {
            continue;
        }
        next.add(into);
        let e = history_excess(next, spent, discards);
        if e <= excess {
            *hand = next;
            stock[k] = out;
            excess = e;
        }
    }
}

/// Attempts before giving up on the random fill (a stuck fill is rare; see the tests).
const DETERMINIZE_ATTEMPTS: usize = 1000;

impl SeatView for TuSacView<'_> {
    type State = TuSacState;

    fn seat(&self) -> Seat {
        self.seat
    }

    fn determinize(&self, rng: &mut GameRng) -> TuSacState {
        for _ in 0..DETERMINIZE_ATTEMPTS {
            if let Some(s) = self.try_determinize(rng) {
                return s;
            }
        }
        panic!("no consistent determinization found in {DETERMINIZE_ATTEMPTS} attempts");
    }
}

impl TuSacView<'_> {
    /// The legal actions of this seat when it is to move (empty otherwise).
    pub fn legal_actions(&self, out: &mut <TuSacState as GameState>::Actions) {
        out.clear();
        if self.state.to_move() == Some(self.seat) {
            self.state.legal_actions(out);
        }
    }
}

const _: () = assert!(MAX_PLAYERS <= 8);
