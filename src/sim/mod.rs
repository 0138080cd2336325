//! Playing games: the seeded game loop shared by `play`, `replay`, the runner and the tests.

pub mod checkpoint;
pub mod deal;
pub mod experiment;
pub mod game_files;
pub mod games_csv;
pub mod guard;
pub mod invariants;
pub mod output;
pub mod play;
pub mod ratings;
pub mod recorder;
pub mod report;
pub mod runner;
pub mod soak;
pub mod sprt;
pub mod stats;
pub mod tournament;
pub mod tournament_run;

pub use deal::seeds::{agent_rngs, agent_stream};
pub use deal::turns::{play_from, play_game, play_out, Step};
