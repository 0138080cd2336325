//! Running experiments: reading them, the runner and its pace, checkpoints and shards, and what a
//! run writes and prints.

pub mod checkpoint;
mod chunk;
pub(crate) mod console;
pub mod experiment;
pub mod experiment_error;
pub mod games_csv;
pub mod integrity;
pub mod merge;
pub(crate) mod pace;
pub mod report;
pub mod runner;
pub mod summary;
pub mod threads;
