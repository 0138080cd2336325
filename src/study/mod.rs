//! Studies beyond "which agent wins": distributions, tuning, equity, plots.

pub mod deals;
pub mod equity;
pub mod played;
pub mod plot;
pub mod tune;
