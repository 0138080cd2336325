//! Greedy weight files (TOML): the first byte picks the game, the rest is the file; every weight
//! read must lie in its range.
#![no_main]

use bailab::agent::greedy::parse_weights;
use bailab::games::kind::GameKind;
use bailab_fuzz::{on_game, Visit};
use libfuzzer_sys::fuzz_target;

struct Read<'a>(&'a str);

impl Visit for Read<'_> {
    fn visit<G: GameKind>(self) {
        let table = G::GREEDY_WEIGHTS;
        if let Ok(weights) = parse_weights(self.0, "fuzz.toml", table, G::INFO.name) {
            for (name, v) in weights {
                let w = table
                    .iter()
                    .find(|w| w.name == name)
                    .expect("a known weight");
                assert!(
                    v.is_finite() && v >= w.range.0 && v <= w.range.1,
                    "{name} = {v}"
                );
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if let Some(text) = bailab_fuzz::text(rest) {
        on_game(pick, Read(text));
    }
});
