//! Running experiments: reading them, the runner, its checkpoints and shards, and what a run
//! writes and reports.

pub mod checkpoint;
pub mod experiment;
pub mod games_csv;
pub mod report;
pub mod runner;
