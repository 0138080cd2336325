//! Integration tests, one test binary: Tứ Sắc (classic, 4sac, sisepai21, dirtyking26): rules, options, melds, views, features, greedy and packs play, records and analysis.
//! Each former `tests/<name>.rs` is a module here; what they share comes from `tests/common/`.
//! Run one file's tests with `cargo test --release --test tusac <name>::`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/observation_keys.rs"]
mod observation_keys;
// The counting allocator counts per thread, so one for the whole binary serves every module.
#[path = "../common/counting_alloc.rs"]
mod counting_alloc;
#[path = "../common/discard_calibration.rs"]
mod discard_calibration;
#[path = "../common/packs_position.rs"]
mod packs_position;
#[path = "../common/tusac_deck.rs"]
mod tusac_deck;
#[path = "../common/tusac_play.rs"]
mod tusac_play;

mod observation;
mod tusac_4sac;
mod tusac_features;
mod tusac_loose;
mod tusac_options;
mod tusac_packs;
mod tusac_packs_analyze;
mod tusac_packs_crosscheck;
mod tusac_packs_features;
mod tusac_packs_greedy;
mod tusac_packs_records;
mod tusac_packs_view;
mod tusac_properties;
mod tusac_scenarios;
mod tusac_trash;
mod tusac_view;
