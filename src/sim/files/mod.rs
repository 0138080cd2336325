//! Result files: atomic writes, the output guards of the commands, the per-game files of a run,
//! and the columns of every CSV format.

pub mod atomic;
pub mod csv;
pub(crate) mod game_files;
pub mod guard;
pub(crate) mod record_stream;
pub mod schema;
pub mod seal;
pub(crate) mod soak_csv;
