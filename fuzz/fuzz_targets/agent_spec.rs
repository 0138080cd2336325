//! Agent specs (`greedy:tiebreak=random`): a spec that reads must write back to the same spec.
#![no_main]

use bailab::agent::spec::AgentSpec;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = bailab_fuzz::text(data) else {
        return;
    };
    if let Ok(spec) = AgentSpec::parse(text) {
        let written = spec.to_string();
        let again = AgentSpec::parse(&written)
            .unwrap_or_else(|e| panic!("'{text}' writes as '{written}', which does not read: {e}"));
        assert_eq!(again, spec, "'{text}' writes as '{written}'");
    }
});
