//! Checkpoints (`checkpoint.json`, read by `bailab run --resume`): read and checked without
//! panicking. Byte 0 picks whether the rest is read as it is (its checksum must check) or sealed
//! by the target first, so that the counts behind the checksum are checked too. A checkpoint
//! that reads is used as a resumed run uses it (seat slots, deals done, merge, summary,
//! early-stopping test) without panicking.
#![no_main]

use bailab::sim::files::seal::Layout;
use bailab::sim::run::checkpoint::parse_checkpoint;
use bailab::sim::run::summary::summary_csv;
use bailab::sim::stats::sprt::SprtTest;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some(text) = bailab_fuzz::sealed_or_raw(data, Layout::Compact) else {
        return;
    };
    let Ok(ck) = parse_checkpoint(Path::new("fuzz/checkpoint.json"), &text) else {
        return;
    };
    let exp = &ck.experiment;
    let _ = exp.tally_slots(&ck.tally.agents);
    assert!(ck.deals.0 <= ck.next && ck.next <= ck.deals.1);
    let mut twice = ck.tally.clone();
    let _ = twice.merge(&ck.tally);
    let _ = summary_csv(exp, &ck.tally);
    if let Some(Ok(test)) = exp
        .sprt
        .as_ref()
        .map(|c| SprtTest::new(c, &ck.tally.agents, &ck.tally))
    {
        let _ = test.look(&ck.tally);
        let _ = test.outcome(&ck.sprt, ck.deals.1);
    }
});
