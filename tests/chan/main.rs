//! Integration tests, one test binary: Chắn: rules, options reference, properties, features and
//! observations (the counting allocator is for `observation`'s zero-allocation check).
//! Each former `tests/<name>.rs` is a module here; what they share comes from `tests/common/`.
//! Run one file's tests with `cargo test --release --test chan <name>::`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/counting_alloc.rs"]
mod counting_alloc;
#[path = "../common/observation_keys.rs"]
mod observation_keys;

mod chan_features;
mod chan_options_doc;
mod chan_properties;
mod chan_rules;
mod chan_view;
mod observation;
