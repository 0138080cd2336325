//! Studies beyond "which agent wins": distributions, tuning, equity, plots.

pub mod equity;
pub mod plot;
pub mod tune;
