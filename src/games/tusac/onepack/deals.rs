//! What `bailab deals` measures on a freshly dealt one-pack game (classic, 4sac): the game's one
//! list [`MEASURES`], with the one-pack measures written (trash, Khaps, Quans, completeness,
//! hand value, the Kings dealt, the natural win) and the multi-pack ones [`NOT_APPLICABLE`].

use super::state::OnePackState;
use super::trash::trash;
use crate::game::{Seat, MAX_SEATS};
use crate::games::kind::{NOT_APPLICABLE, NOT_MEASURED};
use crate::games::tusac::card::{Card, Colour, Rank};
use crate::games::tusac::deals::{MEASURES, ONE_PACK_MEASURES};
use crate::games::tusac::sets::{Origin, SetKind};

/// Writes the [`MEASURES`] of a freshly dealt one-pack game (allocation-free); the multi-pack
/// measures are [`NOT_APPLICABLE`].
pub fn measure(s: &OnePackState, out: &mut [[i32; MAX_SEATS]]) {
    out[ONE_PACK_MEASURES..MEASURES.len()].fill([NOT_APPLICABLE; MAX_SEATS]);
    let red_king = Card::new(Colour::Red, Rank::King);
    let first = s.options().first_player;
    for seat in 0..s.players() as Seat {
        let private = s.private(seat);
        let quans = s
            .public_sets(seat)
            .iter()
            .filter(|x| x.kind == SetKind::Quad && x.origin == Origin::Dealt)
            .count();
        let dealt = |c: Card| i32::from(private.count(c)) + 4 * i32::from(quans_of(s, seat, c));
        let kings: i32 = [Colour::Red, Colour::Yellow, Colour::Green, Colour::White]
            .into_iter()
            .map(|c| dealt(Card::new(c, Rank::King)))
            .sum();
        let t = trash(private);
        let row = seat as usize;
        out[0][row] = i32::from(t);
        out[1][row] = s.khaps(seat) as i32;
        out[2][row] = quans as i32;
        out[3][row] = i32::from(t == 0);
        out[4][row] = s.hand_value(seat) as i32;
        out[5][row] = kings;
        out[6][row] = dealt(red_king);
    }
    let natural = trash(s.private(first)) == 0;
    out[7][0] = i32::from(natural);
    out[8][0] = if natural {
        s.hand_value(first) as i32
    } else {
        NOT_MEASURED
    };
}

/// 1 when `seat` was dealt all four copies of `c` (a Quan of `c`), else 0.
fn quans_of(s: &OnePackState, seat: Seat, c: Card) -> u8 {
    u8::from(
        s.public_sets(seat)
            .iter()
            .any(|x| x.kind == SetKind::Quad && x.origin == Origin::Dealt && x.cards()[0] == c),
    )
}
