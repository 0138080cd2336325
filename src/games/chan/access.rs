//! Read access to a Chắn state: the getters agents, views, features and records use. The
//! state machine itself is [`super::state`].

use super::card::Card;
use super::hand::Hand;
use super::options::Options;
use super::rules::SeatState;
use super::score::Score;
use super::state::ChanState;
use super::types::{Live, Phase, Setup, DECK_SIZE};
use crate::game::Seat;

impl ChanState {
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
}
