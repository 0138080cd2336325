//! Read access to a Tiến Lên state: the getters agents, views, features and records use. The
//! state machine itself is [`super::state`].

use super::card::{Card, DECK_SIZE};
use super::card_set::Cards;
use super::combo::Combo;
use super::options::Options;
use super::state::TienLenState;
use super::toi_trang::ToiTrang;
use super::types::{Chain, Phase, Setup, Transfer};
use crate::game::Seat;

impl TienLenState {
    /// The rule options in force.
    pub fn options(&self) -> &Options {
        &self.opts
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        self.opts.players as usize
    }
    /// The deck the game was dealt from (§2.3).
    pub fn deck(&self) -> &[Card; DECK_SIZE] {
        &self.deck
    }
    /// How the game was set up.
    pub fn setup(&self) -> Setup {
        self.setup
    }
    /// The dealer.
    pub fn dealer(&self) -> Seat {
        self.setup.dealer
    }
    /// The game's leader (§2.5).
    pub fn leader(&self) -> Seat {
        self.leader
    }
    /// True in an initial game (§2.4).
    pub fn initial(&self) -> bool {
        self.setup.initial
    }
    /// The card the next play must contain (the game's first play of an initial game).
    pub fn required(&self) -> Option<Card> {
        self.required
    }
    /// A seat's hand (hidden information: agents see it only through their own view).
    pub fn hand(&self, seat: Seat) -> Cards {
        self.hands[seat as usize]
    }
    /// Number of cards a seat holds (public).
    pub fn hand_len(&self, seat: Seat) -> usize {
        self.hands[seat as usize].len() as usize
    }
    /// The cards a seat has played (public).
    pub fn played_by(&self, seat: Seat) -> Cards {
        self.played_by[seat as usize]
    }
    /// Every card played so far (public).
    pub fn played(&self) -> Cards {
        self.played_by.iter().fold(Cards::EMPTY, |a, &b| a.union(b))
    }
    /// The cards set aside at the deal (N < 4; hidden).
    pub fn set_aside(&self) -> Cards {
        self.set_aside
    }
    /// The top combination and its owner.
    pub fn top(&self) -> Option<(Combo, Seat)> {
        self.top
    }
    /// Seats that passed in this trick (a seat mask).
    pub fn passed(&self) -> u8 {
        self.passed
    }
    /// Seats in the order they emptied their hands.
    pub fn finished(&self) -> &[Seat] {
        self.finished.as_slice()
    }
    /// Cóng seats (a seat mask, §6.2).
    pub fn cong(&self) -> u8 {
        self.cong
    }
    /// Seats that left play under `forbid_finish_on_two`, in order.
    pub fn leavers(&self) -> &[Seat] {
        self.leavers.as_slice()
    }
    /// Each seat's place so far (0 = not yet placed).
    pub fn places(&self) -> &[u8] {
        &self.places[..self.players()]
    }
    /// The chặt chain of the current trick.
    pub fn chain(&self) -> Chain {
        self.chain
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Every payment made so far (chặt during play; the rest at the end).
    pub fn transfers(&self) -> &[Transfer] {
        self.transfers.as_slice()
    }
    /// The đền player, once found.
    pub fn den_player(&self) -> Option<Seat> {
        self.den_player
    }
    /// The tới trắng winner and condition, if the game ended so.
    pub fn toi_trang(&self) -> Option<(Seat, ToiTrang)> {
        self.toi_trang
    }
    /// Plays made so far (in turn and out of turn).
    pub fn turns(&self) -> u32 {
        self.turns
    }
}
