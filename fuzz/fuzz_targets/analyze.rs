//! The lines of `bailab analyze -` (each line a hand, or with `--play -` a play): the first byte
//! picks the game and variant and whether the lines are hands or plays; every line is analysed
//! as the command does, without panicking.
#![no_main]

use bailab::games::kind::AnalyzeOptions;
use bailab::games::kind::GameKind;
use bailab_fuzz::{on_game, variant_of, Visit};
use libfuzzer_sys::fuzz_target;

struct Lines<'a>(u8, &'a str);

impl Visit for Lines<'_> {
    fn visit<G: GameKind>(self) {
        let mut opts = AnalyzeOptions {
            variant: variant_of::<G>(self.0 / 6).to_string(),
            ..AnalyzeOptions::default()
        };
        let plays = (self.0 / 3) % 2 == 1;
        let mut lines = self
            .1
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l));
        let hand = if plays {
            lines.next().unwrap_or("")
        } else {
            ""
        };
        for line in lines.filter(|l| !l.trim().is_empty()) {
            if plays {
                opts.play = Some(line.to_string());
                let _ = G::analyze(hand, &opts);
            } else {
                let _ = G::analyze(line, &opts);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if let Some(text) = bailab_fuzz::text(rest) {
        on_game(pick, Lines(pick, text));
    }
});
