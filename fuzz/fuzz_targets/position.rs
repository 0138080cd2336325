//! Position files (TOML, `bailab equity`): the first byte picks the game and variant. A position
//! that reads must have its seat to move, and a deal from it must keep the cards and the seat.
#![no_main]

use bailab::game::GameState;
use bailab::games::kind::GameKind;
use bailab_fuzz::{on_game, variant_of, Visit};
use libfuzzer_sys::fuzz_target;

struct Read<'a>(u8, &'a str);

impl Visit for Read<'_> {
    fn visit<G: GameKind>(self) {
        let variant = variant_of::<G>(self.0 / 3);
        if let Ok((_, pos)) = G::read_position(variant, self.1, "fuzz.toml") {
            assert_eq!(
                pos.state.to_move(),
                Some(pos.seat),
                "the position's seat is to move"
            );
            G::check_cards(&pos.state).unwrap_or_else(|e| panic!("a read position: {e}"));
            let dealt = pos.deal(&mut bailab::rng::stream_rng(0xF022, 0, 0));
            assert_eq!(dealt.to_move(), Some(pos.seat), "a deal moves the turn");
            G::check_cards(&dealt).unwrap_or_else(|e| panic!("a position dealt out: {e}"));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if let Some(text) = bailab_fuzz::text(rest) {
        on_game(pick, Read(pick, text));
    }
});
