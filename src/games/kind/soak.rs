//! The soak capability: the checks `bailab soak` and the fuzz targets make after every step,
//! and the rule options they play beyond the variants' own.

use crate::game::Game;

/// What `bailab soak` and the fuzz targets check and play.
pub trait SoakChecks: Game {
    /// Checks that every card of the deal is in exactly one place of `state` (the soak and the
    /// fuzz targets call it after every step); the error says what is missing or doubled.
    /// Never allocates when the cards are all there.
    fn check_cards(state: &Self::State) -> Result<(), CardsError>;
    /// Rule options beyond the variants' own that `bailab soak` and the fuzz targets play, each
    /// a JSON object of `[rules]` keys; a table plays those its variant and seat count accept,
    /// and a test checks that each is accepted somewhere. None by default.
    const RULE_SAMPLES: &'static [&'static str] = &[];
}

/// What [`SoakChecks::check_cards`] finds wrong with the cards of a game state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CardsError {
    /// Cards of the deck in no place of the state.
    #[error("cards missing from play: {cards}")]
    Missing {
        /// The missing cards, as the game writes them.
        cards: String,
    },
    /// More or fewer cards in play than were dealt.
    #[error("{held} cards in play, but {dealt} were dealt")]
    NotConserved {
        /// The cards found in the state.
        held: usize,
        /// The cards dealt.
        dealt: usize,
    },
}

/// [`SoakChecks::check_cards`]'s verdict on `held` cards in play out of `dealt`.
pub fn cards_conserved(held: usize, dealt: usize) -> Result<(), CardsError> {
    if held == dealt {
        Ok(())
    } else {
        Err(CardsError::NotConserved { held, dealt })
    }
}
