//! Chắn's encodings of a seat's view (`docs/observations/chan.md`): the observation as JSON
//! ([`json`]), the view tensor ([`tensor`]) and the action vectors ([`action`]), each read from
//! the view's public accessors only. An ù or chíu window asked of another seat is silent at the
//! table (§4), so every encoding shows it as the gate owner's coming turn ([`shared::Seen`]).

mod action;
mod json;
mod shared;
mod tensor;

use super::Chan;
use crate::game::Game;
use crate::games::observe::{ActionOf, Observe, Segment, ViewOf};

impl Observe for Chan {
    fn write_observation(&self, view: &ViewOf<'_, Self>, out: &mut Vec<u8>) {
        json::write(self.name(), self.variant(), view, out)
    }
    fn tensor_layout(&self) -> Vec<Segment> {
        shared::layout(tensor::TENSOR, self.seats())
    }
    fn tensor(&self, view: &ViewOf<'_, Self>, out: &mut [f32]) {
        tensor::tensor(view, out)
    }
    fn action_layout(&self) -> Vec<Segment> {
        shared::layout(action::ACTION, self.seats())
    }
    fn action_vector(&self, view: &ViewOf<'_, Self>, action: ActionOf<Self>, out: &mut [f32]) {
        action::action_vector(view, action, out)
    }
}
