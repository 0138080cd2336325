//! What a seat's view looks like to a program outside the engine: the observation as JSON (the
//! Python package's `view.observation()` and the agent protocol send it), a fixed-size tensor of
//! the view and a fixed-size vector per candidate action, each with a named layout
//! (`docs/observations.md`).
//!
//! Every encoding reads the seat's view only, so it reveals nothing the seat may not see: a view
//! and the same seat's view of any of its determinizations encode alike (tested for every game).

use crate::game::{Game, GameState};
use serde::{Serialize, Serializer};
use std::fmt::Display;

/// The view type of game `G`'s state.
pub(crate) type ViewOf<'a, G> = <<G as Game>::State as GameState>::View<'a>;
/// The action type of game `G`'s state.
pub(crate) type ActionOf<G> = <<G as Game>::State as GameState>::Action;

/// One named run of entries of a fixed-size vector (a view's tensor or an action's vector).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The name (`own_hand`, `discards_by_seat`): lowercase, digits and `_`.
    pub name: &'static str,
    /// How many entries it holds.
    pub len: usize,
    /// What each entry holds, with its unit and range.
    pub about: &'static str,
}

/// The total length of a layout.
pub fn layout_len(layout: &[Segment]) -> usize {
    layout.iter().map(|s| s.len).sum()
}

/// A game's encodings of a view and of actions, for programs outside the engine.
pub trait Observe: Game {
    /// The view as a JSON object: the seat, the phase, its own hidden cards, every seat's public
    /// cards and counts, and the game's situation (documented per game). Parsed from the text
    /// [`Observe::write_observation`] writes, the one encoding of each game.
    fn observation(&self, view: &ViewOf<'_, Self>) -> serde_json::Value {
        let mut text = Vec::new();
        self.write_observation(view, &mut text);
        serde_json::from_slice(&text).expect("an observation is JSON")
    }
    /// Appends the JSON text of [`Observe::observation`] to `out`, keys in alphabetical order
    /// (as `serde_json::Value` writes them), without building a tree: the agent protocol's
    /// `decide` message is written this way.
    fn write_observation(&self, view: &ViewOf<'_, Self>, out: &mut Vec<u8>);
    /// The layout of [`Observe::tensor`] for this game's variant and players.
    fn tensor_layout(&self) -> Vec<Segment>;
    /// Writes the view into `out` (`out.len()` is the layout's length), every entry set.
    fn tensor(&self, view: &ViewOf<'_, Self>, out: &mut [f32]);
    /// The layout of [`Observe::action_vector`] for this game's variant and players.
    fn action_layout(&self) -> Vec<Segment>;
    /// Writes what `action` (legal in `view`) does into `out` (the layout's length): the cards
    /// it moves and its kind, every entry set.
    fn action_vector(&self, view: &ViewOf<'_, Self>, action: ActionOf<Self>, out: &mut [f32]);
}

/// Appends `value` as JSON text to `out` (fields in declaration order).
pub(crate) fn write_json(out: &mut Vec<u8>, value: &impl Serialize) {
    serde_json::to_writer(out, value).expect("JSON writes into a Vec");
}

/// A value written as a JSON string through its `Display` (a card in its notation), without
/// allocating a `String`.
#[derive(Copy, Clone)]
pub(crate) struct Text<T>(pub T);

impl<T: Display> Serialize for Text<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// A JSON array written from the iterator the closure returns, without collecting it.
pub(crate) struct Seq<F>(pub F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: IntoIterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((self.0)())
    }
}
