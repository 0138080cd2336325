//! Rule lists of the `rules` agent (TOML): the first byte picks the game; a list that reads
//! must read again, to the same rules, from what `to_toml` writes.
#![no_main]

use bailab::agent::features::all_features;
use bailab::games::kind::GameKind;
use bailab::generic_agents::rules::list::RuleList;
use bailab_fuzz::{on_game, Visit};
use libfuzzer_sys::fuzz_target;

struct Read<'a>(&'a str);

impl Visit for Read<'_> {
    fn visit<G: GameKind>(self) {
        let name = G::INFO.name;
        if let Ok(list) = RuleList::parse(self.0, "fuzz.toml", name, all_features(G::FEATURES)) {
            let written = list.to_toml(&[], &[]);
            let again = RuleList::parse(&written, "written", name, all_features(G::FEATURES))
                .unwrap_or_else(|e| panic!("a list written as\n{written}\ndoes not read: {e}"));
            assert_eq!(
                again.to_toml(&[], &[]),
                written,
                "a written list reads differently"
            );
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
