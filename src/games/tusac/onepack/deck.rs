//! The one-pack core's deck and table: the cards in one pack and the most seats it deals to.

use crate::game::MAX_SEATS;

/// Cards in one pack.
pub const DECK_SIZE: usize = 112;
/// Most players a one-pack variant seats.
pub(crate) const MAX_PLAYERS: usize = 4;
const _: () = assert!(
    MAX_PLAYERS <= MAX_SEATS,
    "the game loop keeps MAX_SEATS agent RNGs"
);
