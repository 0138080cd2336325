//! Result files: atomic writes, the output guards of the commands and the per-game files of a
//! run.

pub mod game_files;
pub mod guard;
pub mod output;
