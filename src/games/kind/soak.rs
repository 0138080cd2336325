//! The soak capability: the checks `bailab soak` and the fuzz targets make after every step,
//! and the rule options they play beyond the variants' own.

use crate::game::Game;

/// What `bailab soak` and the fuzz targets check and play.
pub trait SoakChecks: Game {
    /// Checks that every card of the deal is in exactly one place of `state` (the soak and the
    /// fuzz targets call it after every step); the error says what is missing or doubled.
    /// Never allocates when the cards are all there.
    fn check_cards(state: &Self::State) -> Result<(), String>;
    /// Rule options beyond the variants' own that `bailab soak` and the fuzz targets play, each
    /// a JSON object of `[rules]` keys; a table plays those its variant and seat count accept,
    /// and a test checks that each is accepted somewhere. None by default.
    const RULE_SAMPLES: &'static [&'static str] = &[];
}

/// [`SoakChecks::check_cards`]'s verdict on `held` cards in play out of `dealt`.
pub fn cards_conserved(held: usize, dealt: usize) -> Result<(), String> {
    if held == dealt {
        Ok(())
    } else {
        Err(format!("{held} cards in play, but {dealt} were dealt"))
    }
}
