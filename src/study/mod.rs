//! Studies beyond "which agent wins": distributions, tuning, equity, plots, the HTML report page.

pub mod deals;
pub mod equity;
pub mod page;
pub mod played;
pub mod plot;
pub mod tune;
