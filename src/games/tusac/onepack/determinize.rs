//! Determinization: full states consistent with one seat's view (§1.5), for information-set
//! search.
//!
//! The other seats' private blocks and the stock are resampled from the cards the seat has not
//! seen, then brought in line with each seat's public history by swapping cards with the stock:
//! - hard constraints (the rules): the Khap count, the trash its discards and melds imply
//!   ([`history_excess`]), and the forced claims (C1, C3) it did not make
//!   ([`ClaimHistory::forced_claims_missed`]);
//! - a likelihood: blocks from which its discards were likelier choices are preferred. A
//!   Metropolis chain weights a block by `Π (1/k)^DISCARD_TEMPER` over the seat's discards, `k`
//!   being the number of legal discards it had then (`ClaimHistory::discard_choices`). Real
//!   players keep tidy hands; without this weight sampled opponents hold far more trash than
//!   real ones and are seldom ready to win.
//!
//! The chain starts from a random fill and runs a fixed number of steps, so the weight is
//! tempered for that: see `DISCARD_TEMPER`.
//!
//! Where the Khap counts are not announced and any non-King card may be discarded (4sac), the
//! Khaps are neither dealt by count nor kept fixed, a block may hold up to 3 copies, and the
//! discards imply nothing about trash: the hard constraints are then the forced win (F1) and the
//! offers of F2 (a seat asked held a claim, a seat passed over did not;
//! [`ClaimHistory::forced_claims_missed`]), and the likelihood weights a block by its trash
//! alone, `exp(−trash)` (`TRASH_WEIGHT`): without it sampled 4sac opponents could win on a
//! discard a twenty-fifth as often as real ones.

use super::deck::DECK_SIZE;
use super::history::ClaimHistory;
use super::state::OnePackState;
use super::trash::trash;
use super::worst::COPIES;
use crate::game::Seat;
use crate::games::tusac::card::{Card, CARD_TYPES};
use crate::games::tusac::hand::Hand;
use crate::games::tusac::options::DiscardRule;
use crate::games::tusac::options::Options;
use crate::rng::{shuffle, GameRng};
use rand::Rng;

/// The temper of the discard likelihood. 1 is a seat choosing uniformly among its legal
/// discards; 2 is calibrated on greedy play (4 × greedy, 300 deals, every legal discard of seat 0,
/// 100 determinizations each): the predicted chance that some other seat can win on the card
/// matches the true one, 1.76% against 1.75% (temper 1 predicts 0.63%, no weight 0.14%). The
/// test `determinizations_predict_how_often_an_opponent_can_win_on_a_discard` (tests/tusac/tusac_view.rs)
/// makes the same measurement on 150 deals.
const DISCARD_TEMPER: f64 = 2.0;
/// Where the discards imply nothing (4sac), the energy of a block is this times its trash: tidy
/// blocks are likelier, as the discard weight makes them under C7. Calibrated the same way
/// (4 × greedy 4sac, 150 deals, 40 determinizations per decision): the predicted chance that
/// some other seat can win on a discard is 1.94% against a true 1.89% (0.7 predicts 0.85%, 1.3 predicts 3.4%, 2
/// predicts 7.5%, no weight 0.07%). The test
/// `determinizations_predict_how_often_an_opponent_can_win_on_a_discard_in_4sac` measures it.
const TRASH_WEIGHT: f64 = 1.0;
/// Swaps attempted per seat to reach a block consistent with the hard constraints.
const REPAIR_TRIES: usize = 300;
/// Metropolis steps per seat (the temper above is calibrated with this many).
const WEIGH_STEPS: usize = 40;

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

/// What one other seat's history says of a block: how inconsistent it is (0 when consistent)
/// and its discard likelihood's energy (lower is likelier).
struct SeatHistory<'a> {
    seat: Seat,
    spent: Hand,
    discards: u32,
    claims: &'a ClaimHistory,
    opts: &'a Options,
    /// C7 holds (`discard_rule = ReduceTrashByOne`): discards lowered trash and never split a Khap.
    c7: bool,
}

impl SeatHistory<'_> {
    fn of(truth: &OnePackState, seat: Seat) -> SeatHistory<'_> {
        SeatHistory {
            seat,
            spent: truth.spent(seat),
            discards: truth.discards(seat),
            claims: &truth.history,
            opts: truth.options(),
            c7: truth.options().discard_rule == DiscardRule::ReduceTrashByOne,
        }
    }

    /// [`history_excess`] under C7; otherwise only whether the dealt block is a block.
    fn discard_excess(&self, hand: Hand) -> u32 {
        if self.c7 {
            history_excess(hand, self.spent, self.discards)
        } else {
            hand.plus(self.spent).map_or(100, |_| 0)
        }
    }

    fn excess(&self, hand: Hand) -> u32 {
        self.discard_excess(hand) + self.claims.forced_claims_missed(self.seat, hand, self.opts)
    }

    /// `excess(hand) == 0`, stopping at the first inconsistency found.
    fn consistent(&self, hand: Hand) -> bool {
        self.discard_excess(hand) == 0
            && self
                .claims
                .missed_no_forced_claim(self.seat, hand, self.opts)
    }

    fn energy(&self, hand: Hand) -> f64 {
        if !self.c7 {
            return TRASH_WEIGHT * f64::from(trash(hand));
        }
        DISCARD_TEMPER * self.claims.discard_choices(self.seat, hand)
    }
}

/// A seat's block and the stock it swaps cards with. Where the Khap counts are public its Khaps
/// never move and no swap makes a new triple (a triple would be a Khap); otherwise any card
/// moves and a type may reach 3 copies.
struct SwapChain<'a> {
    hand: &'a mut Hand,
    stock: &'a mut [Card],
    movable: [Card; 21],
    n_movable: usize,
    /// Most copies of a type a swap may make.
    max_copies: u8,
}

impl<'a> SwapChain<'a> {
    fn new(hand: &'a mut Hand, stock: &'a mut [Card], khaps_fixed: bool) -> SwapChain<'a> {
        let mut movable = [Card::default(); 21];
        let mut n_movable = 0;
        let max_copies = if khaps_fixed { 2 } else { 3 };
        for c in hand.types().filter(|&c| hand.count(c) <= max_copies) {
            for _ in 0..hand.count(c) {
                movable[n_movable] = c;
                n_movable += 1;
            }
        }
        SwapChain {
            hand,
            stock,
            movable,
            n_movable,
            max_copies,
        }
    }

    /// A random swap: (index in `movable`, index in the stock, the block after it).
    fn propose(&self, rng: &mut GameRng) -> Option<(usize, usize, Hand)> {
        if self.n_movable == 0 || self.stock.is_empty() {
            return None;
        }
        let i = rng.random_range(0..self.n_movable);
        let k = rng.random_range(0..self.stock.len());
        let (out, into) = (self.movable[i], self.stock[k]);
        let mut next = self.hand.without(out);
        if into == out || next.count(into) >= self.max_copies {
            return None;
        }
        next.add(into);
        Some((i, k, next))
    }

    fn accept(&mut self, (i, k, next): (usize, usize, Hand)) {
        std::mem::swap(&mut self.movable[i], &mut self.stock[k]);
        *self.hand = next;
    }

    /// Swaps toward consistency, accepting swaps that do not increase the excess. True when
    /// the block ends consistent.
    fn repair(&mut self, h: &SeatHistory<'_>, rng: &mut GameRng) -> bool {
        let mut excess = h.excess(*self.hand);
        if excess != 0 && (self.n_movable == 0 || self.stock.is_empty()) {
            return false;
        }
        for _ in 0..REPAIR_TRIES {
            if excess == 0 {
                return true;
            }
            let Some(swap) = self.propose(rng) else {
                continue;
            };
            let e = h.excess(swap.2);
            if e <= excess {
                self.accept(swap);
                excess = e;
            }
        }
        excess == 0
    }

    /// `steps` Metropolis steps among consistent blocks, weighted by the discard likelihood.
    fn weigh(&mut self, h: &SeatHistory<'_>, steps: usize, rng: &mut GameRng) {
        let mut energy = h.energy(*self.hand);
        for _ in 0..steps {
            let Some(swap) = self.propose(rng) else {
                continue;
            };
            let e = h.energy(swap.2);
            if e > energy && rng.random::<f64>() >= (energy - e).exp() {
                continue;
            }
            if !h.consistent(swap.2) {
                continue;
            }
            self.accept(swap);
            energy = e;
        }
    }
}

/// The other seats of `seat`'s view.
fn others(truth: &OnePackState, seat: Seat) -> impl Iterator<Item = Seat> {
    (0..truth.players() as Seat).filter(move |&x| x != seat)
}

/// Copies of each type `seat` has not seen: not in its hand, not public, not dead and not the
/// active card.
pub fn unseen(truth: &OnePackState, seat: Seat) -> [u8; CARD_TYPES] {
    let own = truth.private(seat);
    let mut u = [COPIES; CARD_TYPES];
    for c in Card::all() {
        u[c.index()] -= own.count(c) + truth.visible()[c.index()];
    }
    if let Some(a) = truth.active() {
        u[a.card.index()] -= 1;
    }
    u
}

/// Deals each other seat its public number of Khaps from `unseen`: `None` if it cannot.
fn deal_khaps(
    truth: &OnePackState,
    seat: Seat,
    unseen: &mut [u8; CARD_TYPES],
    rng: &mut GameRng,
    s: &mut OnePackState,
) -> Option<()> {
    for x in others(truth, seat) {
        let mut hand = Hand::EMPTY;
        // a Khap was dealt whole and is still whole: none of its cards can be spent
        let spent = truth.spent(x);
        for _ in 0..truth.khaps(x) {
            let eligible = Card::all()
                .filter(|c| unseen[c.index()] >= 3 && hand.count(*c) == 0 && spent.count(*c) == 0);
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
    Some(())
}

/// One attempt at a fresh determinization: `None` if the random fill got stuck (the caller
/// retries).
pub fn fresh(truth: &OnePackState, seat: Seat, rng: &mut GameRng) -> Option<OnePackState> {
    let mut s = *truth;
    let mut unseen = unseen(truth, seat);
    let khaps_fixed = truth.khaps_announced();
    if khaps_fixed {
        deal_khaps(truth, seat, &mut unseen, rng, &mut s)?;
    } else {
        others(truth, seat).for_each(|x| s.private[x as usize] = Hand::EMPTY);
    }
    let max_copies = if khaps_fixed { 2 } else { 3 };
    let mut pool = [Card::default(); DECK_SIZE];
    let mut len = 0;
    for c in Card::all() {
        for _ in 0..unseen[c.index()] {
            pool[len] = c;
            len += 1;
        }
    }
    shuffle(&mut pool[..len], rng);
    // then the other cards, never making a further triple; what is left is the stock
    let mut taken = [false; DECK_SIZE];
    for x in others(truth, seat) {
        let target = truth.private(x).len();
        let hand = &mut s.private[x as usize];
        for (i, &c) in pool[..len].iter().enumerate() {
            if hand.len() == target {
                break;
            }
            if !taken[i] && hand.count(c) < max_copies {
                hand.add(c);
                taken[i] = true;
            }
        }
        if hand.len() != target {
            return None;
        }
    }
    let first = s.next_draw as usize;
    let mut k = first;
    for (i, &c) in pool[..len].iter().enumerate() {
        if !taken[i] {
            s.deck[k] = c;
            k += 1;
        }
    }
    debug_assert_eq!(k, DECK_SIZE);
    for x in others(truth, seat) {
        let h = SeatHistory::of(truth, x);
        let (private, deck) = (&mut s.private, &mut s.deck);
        let mut chain = SwapChain::new(&mut private[x as usize], &mut deck[first..], khaps_fixed);
        if chain.repair(&h, rng) {
            chain.weigh(&h, WEIGH_STEPS, rng);
        }
    }
    finish(&mut s, rng);
    Some(s)
}

/// Shuffles the stock, and scrubs the dealt part of the deck (it held the true deal) to the
/// cards not in the stock, in canonical order.
fn finish(s: &mut OnePackState, rng: &mut GameRng) {
    let first = s.next_draw as usize;
    shuffle(&mut s.deck[first..], rng);
    let mut rest = [COPIES; CARD_TYPES];
    s.deck[first..].iter().for_each(|c| rest[c.index()] -= 1);
    let mut k = 0;
    for c in Card::all() {
        for _ in 0..rest[c.index()] {
            s.deck[k] = c;
            k += 1;
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
