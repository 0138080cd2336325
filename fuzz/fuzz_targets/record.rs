//! Game records (JSON, `bailab check`): read and replayed through the engine without panicking;
//! a record that checks must write back to the same record. (Only one that checks: serde_json
//! reads a float back to the nearest few ulps, so a record with a float where a whole number
//! belongs, which `check` refuses, may change in a round trip.)
#![no_main]

use bailab::record::Record;
use bailab::sim::recorder::check;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(record) = serde_json::from_slice::<Record>(data) else {
        return;
    };
    if check(&record).is_err() {
        return;
    }
    let json = serde_json::to_string(&record).expect("a record is JSON");
    let back: Record = serde_json::from_str(&json).expect("a written record reads");
    assert_eq!(back, record);
});
