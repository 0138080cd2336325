//! Tiến Lên's encodings of a seat's view for programs outside the engine
//! (`docs/observations/tienlen.md`): the observation as JSON ([`json`]), the view's tensor
//! ([`tensor`]) and one vector per candidate action ([`action`]). Each reads the view's accessors
//! only, so it is a function of what the seat may see.
//!
//! Card identity order, in every card segment: the card key of §1.5, `key = 4·rank + suit`, so
//! entry 0 is `3s`, 1 `3c`, 2 `3d`, 3 `3h`, 4 `4s` … 51 `2h`. Seat segments are in relative
//! order: entry (or segment) `k` is the seat `k` places after this one in play order, `k = 0`
//! being this seat, so the tensor reads the same from every seat.
//!
//! The tensor and the action vectors are written from the tables [`tensor::TENSOR`] and
//! [`action::ACTION`] (name, length, meaning, filler), which also give the layouts, so layout and
//! contents cannot drift apart; writing them allocates nothing.

mod action;
mod json;
mod shared;
mod tensor;

use super::TienLen;
use crate::game::Game;
use crate::games::observe::{ActionOf, Observe, Segment, ViewOf};

impl Observe for TienLen {
    fn write_observation(&self, view: &ViewOf<'_, Self>, out: &mut Vec<u8>) {
        json::write(self, view, out)
    }
    fn tensor_layout(&self) -> Vec<Segment> {
        tensor::layout(self.seats())
    }
    fn tensor(&self, view: &ViewOf<'_, Self>, out: &mut [f32]) {
        tensor::tensor(view, out)
    }
    fn action_layout(&self) -> Vec<Segment> {
        action::layout()
    }
    fn action_vector(&self, view: &ViewOf<'_, Self>, action: ActionOf<Self>, out: &mut [f32]) {
        action::action_vector(view, action, out)
    }
}
