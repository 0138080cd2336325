//! What one seat may see (§1.5), and its determinizations (see [`super::determinize`]).

use super::determinize;
use super::state::OnePackState;
use crate::game::{GameState, OwnedView, Seat, SeatView};
use crate::games::tusac::actions::{Active, Phase};
use crate::games::tusac::card::CARD_TYPES;
use crate::games::tusac::hand::Hand;
use crate::games::tusac::sets::SetInstance;
use crate::rng::GameRng;

/// A seat's view of a Tứ Sắc state: its own private block and the public information of §1.5
/// (public blocks, dead pile, active card, stock size, card and Khap counts). The state is a
/// private field, so nothing else can be read through it.
#[derive(Copy, Clone)]
pub struct OnePackView<'a> {
    state: &'a OnePackState,
    seat: Seat,
}

impl<'a> OnePackView<'a> {
    /// A copy of the state, for the engine's [`SeatView::owned`] of every core.
    pub(crate) fn copy_state(&self) -> OnePackState {
        *self.state
    }
    pub(super) fn new(state: &'a OnePackState, seat: Seat) -> OnePackView<'a> {
        OnePackView { state, seat }
    }
    /// This seat's own private block.
    pub(crate) fn own_hand(&self) -> Hand {
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
    /// Number of Khaps a seat holds (public in classic, §1.4 step 4). Where the counts are not
    /// announced (4sac) another seat's count is hidden and reads 0.
    pub fn khaps(&self, seat: Seat) -> u32 {
        if seat == self.seat || self.state.khaps_announced() {
            self.state.khaps(seat)
        } else {
            0
        }
    }
    /// Number of discards a seat has made (public: every discard is shown face up).
    pub fn discards(&self, seat: Seat) -> u32 {
        self.state.discards(seat)
    }
    /// The cards a seat has discarded, taken later or not (public: every discard is shown
    /// face up).
    pub fn discarded(&self, seat: Seat) -> Hand {
        self.state.claim_history().discarded(seat)
    }
    /// Whether every seat's Khap count is public (classic, §1.4 step 4); otherwise
    /// [`Self::khaps`] reads 0 for the other seats.
    pub fn khaps_announced(&self) -> bool {
        self.state.khaps_announced()
    }
    /// The seat to decide now, or `None` when the game is over (public).
    pub fn to_move(&self) -> Option<Seat> {
        self.state.to_move()
    }
    /// The rule options.
    pub fn options(&self) -> &'a crate::games::tusac::options::Options {
        self.state.options()
    }
    /// Copies of each type this seat has not seen: not in its hand, not public, not dead and not
    /// the active card.
    pub fn unseen(&self) -> [u8; CARD_TYPES] {
        determinize::unseen(self.state, self.seat)
    }
}

/// Attempts before giving up on the random fill (a stuck fill is rare; see the tests).
const DETERMINIZE_ATTEMPTS: usize = 1000;

impl SeatView for OnePackView<'_> {
    type State = OnePackState;

    fn seat(&self) -> Seat {
        self.seat
    }
    fn owned(&self) -> OwnedView<OnePackState> {
        OwnedView::new(*self.state, self.seat)
    }

    fn determinize(&self, rng: &mut GameRng) -> OnePackState {
        for _ in 0..DETERMINIZE_ATTEMPTS {
            if let Some(s) = determinize::fresh(self.state, self.seat, rng) {
                return s;
            }
        }
        panic!("no consistent determinization found in {DETERMINIZE_ATTEMPTS} attempts");
    }
}

impl OnePackView<'_> {
    /// The legal actions of this seat when it is to move (empty otherwise).
    pub fn legal_actions(&self, out: &mut <OnePackState as GameState>::Actions) {
        out.clear();
        if self.state.to_move() == Some(self.seat) {
            self.state.legal_actions(out);
        }
    }
}
