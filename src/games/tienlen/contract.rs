//! How Tiến Lên meets the game contracts: [`TienLenState`] as a `GameState` whose seat view is
//! [`TienLenView`]. The rules themselves are the state machine's ([`super::state`]); this module only
//! joins the state and its view, which is why it sits above both.

use super::state::TienLenState;
use super::types::{Action, Actions, Event, Phase};
use super::view::TienLenView;
use crate::game::{GameState, Outcome, Seat};

impl GameState for TienLenState {
    type Action = Action;
    type Actions = Actions;
    type Event = Event;

    fn to_move(&self) -> Option<Seat> {
        match self.phase {
            Phase::Lead(s) | Phase::Respond(s) | Phase::OotWindow(s) => Some(s),
            Phase::Over => None,
        }
    }

    fn last_events(&self) -> &[Event] {
        self.events.as_slice()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// 4 half-cược (2 cược): a plain 4-player game pays ±1 cược to the extreme places and a
    /// thối or chặt adds about 1 more, so ±2 cược spans the typical game; cóng and tới trắng
    /// payments (≥ 2 cược per loser) clip at the ends of the reward range, as they should.
    fn payout_scale(&self) -> f64 {
        4.0
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

    type View<'a> = TienLenView<'a>;
    fn view(&self, seat: Seat) -> TienLenView<'_> {
        TienLenView::new(self, seat)
    }
}
