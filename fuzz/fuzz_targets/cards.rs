//! The card notation of every game: the first byte picks the game, the rest is a card list.
//! A list that reads must write back as it reads (card for card), and the game's deck and
//! partial-deal card readers must answer without panicking.
#![no_main]

use bailab::deal_spec::PartialDeals;
use bailab::games::{chan, tienlen, tusac};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Some(text) = bailab_fuzz::text(rest) else {
        return;
    };
    match pick % 3 {
        0 => {
            let copies = 1 + (pick / 3) % 8;
            if let Ok(cards) = tusac::card::parse_cards(text, copies) {
                let written = tusac::card::format_cards(cards.iter().copied());
                let again = tusac::card::parse_cards(&written, copies).expect("written cards read");
                assert_eq!(again, cards);
            }
            let _ = tusac::record::parse_deck(text);
            let _ = tusac::TuSac::spec_cards(text);
        }
        1 => {
            if let Ok(cards) = chan::parse_cards(text) {
                let written = chan::format_cards(cards.iter().copied());
                assert_eq!(
                    chan::parse_cards(&written).expect("written cards read"),
                    cards
                );
            }
            let _ = chan::Chan::spec_cards(text);
        }
        _ => {
            if let Ok(cards) = tienlen::parse_cards(text) {
                let written = tienlen::format_cards(cards.iter().copied());
                assert_eq!(
                    tienlen::parse_cards(&written).expect("written cards read"),
                    cards
                );
            }
            let _ = tienlen::TienLen::spec_cards(text);
        }
    }
});
