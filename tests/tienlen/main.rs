//! Integration tests, one test binary: Tiến Lên: rules, options reference, properties, features and its command line.
//! Each former `tests/<name>.rs` is a module here; what they share comes from `tests/common/`.
//! Run one file's tests with `cargo test --release --test tienlen <name>::`.

#[path = "../common/mod.rs"]
mod common;
// The counting allocator counts per thread, so one for the whole binary serves every module.
#[path = "../common/counting_alloc.rs"]
mod counting_alloc;

mod observation;
mod tienlen_cli;
mod tienlen_features;
mod tienlen_options_doc;
mod tienlen_properties;
mod tienlen_rules;
