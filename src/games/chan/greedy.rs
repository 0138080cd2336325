//! `greedy` for Chắn: a one-step lone-card minimiser.
//!
//! - ù: always claims (an ù or Thiên ù ends the hand in its favour);
//! - at its gate (`Turn`, `Drawn`): eats when a legal eat lowers its lone count (the `Lone` cards
//!   of §3.2, a ba đầu's included), a `Chan` eat before a `Ca` eat; otherwise chíus when that
//!   lowers the lone count; otherwise declines (draws, passes or ends the hand);
//! - out-of-turn chíu window: chíus when that lowers the lone count, else declines;
//! - discards and returns: the legal card that leaves the fewest lone cards, and among those the
//!   one with the fewest unseen partners (copies of it plus, for a numbered card, the unseen
//!   cards of its rank in other suits: the "outs" idea of Tứ Sắc's worst card), first in
//!   canonical order (or at random with `tiebreak=random`) among equals.
//!
//! It reads only its view and allocates nothing.

use super::card::{Card, IDENTITIES};
use super::decompose::decompose;
use super::hand::Hand;
use super::state::{Action, ChanState};
use super::view::ChanView;
use crate::agents::catalogue::AgentInfo;
use crate::agents::greedy::{TieBreak, TIEBREAK_PARAM};
use crate::agents::Agent;
use crate::rng::GameRng;

/// The catalogue entry of Chắn's `greedy`.
pub const GREEDY_INFO: AgentInfo = AgentInfo {
    name: "greedy",
    games: "chan",
    about: "lone-card minimiser: always claims ù; eats when an eat lowers its lone count (Chan \
            before Ca), else chíus when that lowers it, else declines; discards the legal card \
            leaving the fewest lone cards, then the one with the fewest unseen partners (outs)",
    params: &[TIEBREAK_PARAM],
};

/// The greedy agent for Chắn.
#[derive(Copy, Clone, Debug)]
pub struct ChanGreedy {
    /// The tie-break rule among equal discards.
    pub tiebreak: TieBreak,
}

/// Number of `Lone` cards of a hand (§3.2, a ba đầu's third card included).
pub fn lone_count(h: &Hand) -> u32 {
    decompose(h).lone_count()
}

/// Unseen partners of `c`: its unseen copies, plus unseen cards of its rank in other suits.
pub fn partners(c: Card, unseen: &[u8; IDENTITIES]) -> u32 {
    match c.rank_index() {
        Some(r) => Card::of_rank(r)
            .iter()
            .map(|x| u32::from(unseen[x.index()]))
            .sum(),
        None => u32::from(unseen[c.index()]),
    }
}

impl Agent<ChanState> for ChanGreedy {
    fn act(&mut self, view: &ChanView<'_>, legal: &[Action], rng: &mut GameRng) -> usize {
        let hand = view.own_hand();
        let lone = lone_count(&hand);
        // ù first
        if let Some(i) = legal
            .iter()
            .position(|a| matches!(a, Action::ClaimU(_) | Action::DeclareThienU))
        {
            return i;
        }
        if let Some(i) = legal.iter().position(|a| matches!(a, Action::Discard(_))) {
            let unseen = view.unseen();
            let keys = legal
                .iter()
                .enumerate()
                .skip(i)
                .filter_map(|(k, a)| match *a {
                    Action::Discard(c) => {
                        Some((k, (lone_count(&hand.without(c)), partners(c, &unseen))))
                    }
                    _ => None,
                });
            return self.tiebreak.pick(keys, rng).expect("a discard");
        }
        let eat = |chan: bool| {
            legal.iter().position(|a| match *a {
                Action::Eat { hand: h, card } => {
                    (h == card) == chan && lone_count(&hand.without(h)) < lone
                }
                _ => false,
            })
        };
        if let Some(i) = eat(true).or_else(|| eat(false)) {
            return i;
        }
        if let Some(i) = legal.iter().position(|a| match *a {
            Action::Chiu(t) if hand.count(t) == 3 => {
                let mut after = hand;
                after.remove_n(t, 3);
                lone_count(&after) < lone
            }
            _ => false,
        }) {
            return i;
        }
        // decline: Draw / PassDrawn / EndHand / Decline are always the last legal action
        legal.len() - 1
    }
}
