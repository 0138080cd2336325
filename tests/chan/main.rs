//! Integration tests, one test binary: Chắn: rules, options reference, properties and features.
//! Each former `tests/<name>.rs` is a module here; what they share comes from `tests/common/`.
//! Run one file's tests with `cargo test --release --test chan <name>::`.

#[path = "../common/mod.rs"]
mod common;

mod chan_features;
mod chan_options_doc;
mod chan_properties;
mod chan_rules;
