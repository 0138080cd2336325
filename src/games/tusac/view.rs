//! What one seat may see (§1.5), and determinization: a full state consistent with that view.

use super::card::{Card, CARD_TYPES};
use super::hand::Hand;
use super::sets::SetInstance;
use super::state::{Active, Phase, TuSacState, DECK_SIZE};
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
                // a Khap was dealt whole and is still whole: none of its cards can be spent
                let spent = self.state.spent(x);
                let eligible = Card::all().filter(|c| {
                    unseen[c.index()] >= 3 && hand.count(*c) == 0 && spent.count(*c) == 0
                });
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
    let Some(dealt) = hand.plus(spent) else {
        return IMPOSSIBLE;
    };
    // a dealt Khap is still whole in hand, or was melded whole: never split
    let split = dealt.triples().bits() & !hand.triples().bits() & hand.bits()
        | dealt.triples().bits() & !hand.triples().bits() & (hand.bits() >> 1);
    if split != 0 {
        return IMPOSSIBLE;
    }
    (u32::from(trash(hand)) + discards).saturating_sub(u32::from(trash(dealt)))
}

/// Swaps attempted per seat to bring a sampled block in line with its history.
const REPAIR_TRIES: usize = 300;

/// Moves a sampled private block toward consistency with its seat's history
/// ([`history_excess`]) by swapping its cards with stock cards, never touching its Khaps or
/// making a new triple. Accepts swaps that do not increase the excess, and stops at 0.
fn repair(hand: &mut Hand, stock: &mut [Card], spent: Hand, discards: u32, rng: &mut GameRng) {
    let mut excess = history_excess(*hand, spent, discards);
    if excess == 0 || stock.is_empty() {
        return;
    }
    // the cards that may move: everything but the Khaps
    let mut movable = [Card::default(); 21];
    let mut n = 0;
    for c in hand.types().filter(|&c| hand.count(c) < 3) {
        for _ in 0..hand.count(c) {
            movable[n] = c;
            n += 1;
        }
    }
    if n == 0 {
        return;
    }
    for _ in 0..REPAIR_TRIES {
        let (i, k) = (rng.random_range(0..n), rng.random_range(0..stock.len()));
        let (out, into) = (movable[i], stock[k]);
        let mut next = hand.without(out);
        if into == out || next.count(into) >= 2 {
            continue;
        }
        next.add(into);
        let e = history_excess(next, spent, discards);
        if e <= excess {
            *hand = next;
            movable[i] = into;
            stock[k] = out;
            excess = e;
            if excess == 0 {
                return;
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hand {
        s.parse().unwrap()
    }

    #[test]
    fn history_excess_follows_the_rules() {
        // a dealt Khap split between hand and spent is impossible; whole in hand or melded is fine
        assert_eq!(history_excess(h("gH"), h("gH gH"), 2), 100);
        assert_eq!(history_excess(h("gH gH"), h("gH"), 1), 100);
        assert_eq!(history_excess(h("gH gH gH rK"), h("rR"), 1), 0);
        assert_eq!(history_excess(h("rK"), h("gH gH gH"), 0), 0);
        // more than 4 copies in all is impossible
        assert_eq!(history_excess(h("gH gH"), h("gH gH"), 0), 100);
        // dealt rR rC wA (trash 3), two discards (rR, wA): rC (trash 1) is consistent
        assert_eq!(history_excess(h("rC"), h("rR wA"), 2), 0);
        // dealt rR rC rH yA (trash 1): discarding rH would have raised trash, so a block
        // rR rC yA (trash 3) after one discard is 3 too many
        assert_eq!(history_excess(h("rR rC yA"), h("rH"), 1), 3);
    }
}
