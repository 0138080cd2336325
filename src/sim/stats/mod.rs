//! Statistics: tallies and intervals, ratings and sequential tests.

pub(crate) mod interval;
pub mod ratings;
pub mod sprt;
pub mod sprt_error;
pub mod tally;
