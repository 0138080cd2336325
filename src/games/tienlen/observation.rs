//! STUB: replaced by the game's observation, tensor and action vector.

use super::TienLen;
use crate::games::observe::{ActionOf, Observe, Segment, ViewOf};

impl Observe for TienLen {
    fn observation(&self, _view: &ViewOf<'_, Self>) -> serde_json::Value {
        todo!()
    }
    fn tensor_layout(&self) -> Vec<Segment> {
        todo!()
    }
    fn tensor(&self, _view: &ViewOf<'_, Self>, _out: &mut [f32]) {
        todo!()
    }
    fn action_layout(&self) -> Vec<Segment> {
        todo!()
    }
    fn action_vector(&self, _view: &ViewOf<'_, Self>, _action: ActionOf<Self>, _out: &mut [f32]) {
        todo!()
    }
}
