pub mod deals;
pub mod played;
