//! Experiment files (TOML): read and checked (game, variant, seats, rules, deal, agents, SPRT)
//! without panicking. Inputs naming device files are skipped (agent files are opened by path).
#![no_main]

use bailab::sim::run::experiment::Experiment;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = bailab_fuzz::text(data) else {
        return;
    };
    if bailab_fuzz::names_special_file(text) {
        return;
    }
    let _ = Experiment::parse(text, "fuzz.toml");
});
