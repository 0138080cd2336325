//! Playing games: the seeded game loop shared by `play`, `replay`, the runner and the tests.

pub mod deal;
pub mod files;
pub mod invariants;
pub mod luck;
pub mod play;
pub mod recorder;
pub mod run;
pub mod soak;
pub mod stats;
pub mod tournament;

pub use deal::seeds::{agent_rngs, agent_stream, seeded_deal};
pub use deal::turns::{play_from, play_game, play_out, Step};
