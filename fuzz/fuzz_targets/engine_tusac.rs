//! Drives Tứ Sắc games from fuzzer-chosen variants, seat counts, decks and legal actions, asserting
//! the contracts at every step ([`bailab_fuzz::drive`]).
#![no_main]

use bailab::games::tusac::TuSac;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| bailab_fuzz::drive::<TuSac>(data));
