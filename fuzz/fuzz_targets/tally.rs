//! Tallies (`tally.json` of a run, a shard or a tournament table, read by `bailab merge` and
//! `bailab tournament --resume`): read and checked without panicking. Byte 0 picks whether the
//! rest is read as it is or sealed by the target first (a shard's tally must carry its
//! checksum). A tally that reads merges with itself and writes its summary without panicking.
#![no_main]

use bailab::sim::files::seal::Layout;
use bailab::sim::run::checkpoint::parse_tally_file;
use bailab::sim::run::summary::summary_csv;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some(text) = bailab_fuzz::sealed_or_raw(data, Layout::Pretty) else {
        return;
    };
    let Ok(t) = parse_tally_file(Path::new("fuzz/tally.json"), &text) else {
        return;
    };
    let _ = t.experiment.tally_slots(&t.tally.agents);
    let mut twice = t.tally.clone();
    let _ = twice.merge(&t.tally);
    let _ = summary_csv(&t.experiment, &t.tally);
});
