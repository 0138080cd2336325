//! How Chắn meets the game contracts: [`ChanState`] as a `GameState` whose seat view is
//! [`ChanView`]. The rules themselves are the state machine's ([`super::state`]); this module only
//! joins the state and its view, which is why it sits above both.

use super::state::ChanState;
use super::types::{Action, Event, Phase, MAX_ACTIONS};
use super::view::ChanView;
use crate::game::{GameState, Outcome, Seat};
use arrayvec::ArrayVec;

impl GameState for ChanState {
    type Action = Action;
    type Actions = ArrayVec<Action, MAX_ACTIONS>;
    type Event = Event;

    fn to_move(&self) -> Option<Seat> {
        match self.phase {
            Phase::Opening(p)
            | Phase::Turn(p)
            | Phase::Drawn(p)
            | Phase::MustDiscard(p)
            | Phase::UWindow { seat: p, .. }
            | Phase::ChiuWindow { seat: p, .. }
            | Phase::MustReturn { seat: p, .. } => Some(p),
            Phase::Ended => None,
        }
    }

    fn last_events(&self) -> &[Event] {
        self.events.as_slice()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// `10 · (N − 1) · stake`: most wins score `S` from 2 (Xuông) to about 10 (one big factor,
    /// or Chì + Bạch thủ with its gà), so the winner's `(N − 1)·S·stake` mostly stays within
    /// this and the losers' `−S·stake` well within; rare big hands (Thập thành, S = 40) clip.
    fn payout_scale(&self) -> f64 {
        10.0 * (self.opts.players as f64 - 1.0) * f64::from(self.opts.stake)
    }
    fn seats(&self) -> usize {
        self.opts.players as usize
    }

    fn legal_actions(&self, out: &mut Self::Actions) {
        self.legal_into(out);
    }

    fn apply(&mut self, action: Action) {
        self.apply_action(action);
    }

    type View<'a> = ChanView<'a>;
    fn view(&self, seat: Seat) -> ChanView<'_> {
        ChanView::new(self, seat)
    }
}
