//! Partial-deal tables (`[deal]`, docs/deals-spec.md): the first byte picks the game and
//! variant, the second the seat count, the rest is the file. A table that checks must deal, with
//! the cards conserved.
#![no_main]

use bailab::deal_spec::{deal_with_spec, DealSpec};
use bailab::game::RuleMap;
use bailab::games::kind::GameKind;
use bailab_fuzz::{on_game, variant_of, Visit};
use libfuzzer_sys::fuzz_target;

struct Read<'a>(u8, u8, &'a str);

impl Visit for Read<'_> {
    fn visit<G: GameKind>(self) {
        let variant = variant_of::<G>(self.0 / 3);
        let (lo, hi) = G::INFO.seats_of(variant);
        let players = lo + usize::from(self.1) % (hi - lo + 1);
        let Ok(game) = G::build(variant, players, &RuleMap::new()) else {
            return;
        };
        let Ok(spec) = DealSpec::parse(self.2, "fuzz.toml") else {
            return;
        };
        if let Ok(plan) = spec.check(&game) {
            let dealt = deal_with_spec(&game, &plan, &mut bailab::rng::stream_rng(0xF022, 0, 0));
            G::check_cards(&dealt).unwrap_or_else(|e| panic!("a partial deal: {e}"));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [pick, seats, rest @ ..] = data else {
        return;
    };
    if let Some(text) = bailab_fuzz::text(rest) {
        on_game(*pick, Read(*pick, *seats, text));
    }
});
