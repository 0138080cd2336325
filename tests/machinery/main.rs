//! Integration tests, one test binary: The machinery shared by every game: the command line, runner, experiments, deals, records, outputs, plots, studies, golden playthroughs and the repository standing alone.
//! Each former `tests/<name>.rs` is a module here; what they share comes from `tests/common/`.
//! Run one file's tests with `cargo test --release --test machinery <name>::`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/observation_keys.rs"]
mod observation_keys;
// The counting allocator counts per thread, so one for the whole binary serves every module.
#[path = "../common/counting_alloc.rs"]
mod counting_alloc;

mod agent_keys;
mod alloc_run;
mod cli;
mod csv_columns;
mod damaged_state;
mod deal_loop;
mod deals;
mod equity;
mod exec;
mod exec_compiled;
mod exec_hostile;
mod exec_views;
mod experiment_paths;
mod golden_playthroughs;
mod host;
mod hostile_inputs;
mod ismcts;
mod k8s;
mod large_inputs;
mod layers;
mod luck;
mod luck_runs;
mod module_map;
mod net_agent;
mod output_guards;
mod partial_deals;
mod plot;
mod random_sim;
mod records;
mod report_page;
mod rules_agent;
mod rules_reference;
mod runner;
mod serve;
mod sigterm;
mod small_faults;
mod soak;
mod specs;
mod sprt;
mod standalone;
mod tournament;
mod train;
mod trust;
mod tune;
