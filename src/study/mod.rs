//! Studies beyond head-to-head runs (issue 13).

pub mod tune;
