//! Tứ Sắc's encodings of a seat's view for programs outside the engine
//! (`docs/observations/tusac.md`): the observation as JSON ([`json`]), the view's tensor as a
//! table of named segments per rule core ([`onepack`], [`packs`], on [`table`]) and the vector
//! of a candidate action ([`action`]). Each reads the view's public accessors only, so a view
//! and the same seat's view of any determinization encode alike.

mod action;
mod json;
mod onepack;
mod packs;
mod table;

use crate::game::Game;
use crate::games::observe::{ActionOf, Observe, Segment, ViewOf};
use crate::games::tusac::engine::{TuSac, TuSacView};

impl Observe for TuSac {
    fn write_observation(&self, view: &ViewOf<'_, Self>, out: &mut Vec<u8>) {
        match view {
            TuSacView::OnePack(v) => json::write_one_pack(v, out),
            TuSacView::MultiPack(v) => json::write_packs(v, out),
        }
    }
    fn tensor_layout(&self) -> Vec<Segment> {
        match self {
            TuSac::OnePack(_) => onepack::layout(self.seats()),
            TuSac::MultiPack(_) => packs::layout(self.seats()),
        }
    }
    fn tensor(&self, view: &ViewOf<'_, Self>, out: &mut [f32]) {
        match view {
            TuSacView::OnePack(v) => onepack::tensor(v, out),
            TuSacView::MultiPack(v) => packs::tensor(v, out),
        }
    }
    fn action_layout(&self) -> Vec<Segment> {
        action::layout()
    }
    fn action_vector(&self, view: &ViewOf<'_, Self>, action: ActionOf<Self>, out: &mut [f32]) {
        let active = match view {
            TuSacView::OnePack(v) => v.active(),
            TuSacView::MultiPack(v) => v.active(),
        };
        action::write(action, active, out);
    }
}
