//! What `bailab deals` measures on a dealt Tứ Sắc game (`docs/deals.md`): the state right after
//! the deal and the steps of §1.4 (Quans laid down, Khaps counted, the natural-win test).

use super::card::{Card, Colour, Rank};
use super::sets::{Origin, SetKind};
use super::state::TuSacState;
use super::trash::trash;
use crate::game::{Seat, MAX_SEATS};
use crate::games::{MeasureInfo, NOT_MEASURED};

/// The measures, in the order [`measure`] writes them.
pub const MEASURES: &[MeasureInfo] = &[
    MeasureInfo::hand("trash", 21, "trash count (§3.1) of the private block after the deal and §1.4 (the first player holds 21 cards, the others 20; Quans already laid down)"),
    MeasureInfo::hand("khaps", 7, "Khaps (§2.2, §1.4 step 4): card types held exactly three times in the private block"),
    MeasureInfo::hand("quans", 5, "Quans (§2.2, §1.4 step 3): card types dealt four times, laid down at once"),
    MeasureInfo::hand("zero_trash", 1, "1 when the private block has trash 0 (§4.7 win test): for the first player a natural win, for the others a hand already complete before any draw"),
    MeasureInfo::hand("hand_value", 63, "hv of §6.1 on the dealt cards: Quans (8 each) plus the best-valued optimal partition of the private block (§3.6; for a hand with trash it is the value of its sets, the trash cards counting 0)"),
    MeasureInfo::hand("kings", 16, "Kings dealt to the hand (16 in the pack: hypergeometric)"),
    MeasureInfo::hand("copies_rK", 4, "copies of the red King rK dealt to the hand (4 in the pack: hypergeometric)"),
    MeasureInfo::deal("natural_win", 1, "1 when the first player's 21 dealt cards pass the win test (§1.4 step 5, §4.7: trash 0), so the game ends at the deal"),
    MeasureInfo::deal("natural_win_value", 63, "hv (§6.1) of the first player's hand, counted only in deals with a natural win"),
];

/// Writes the [`MEASURES`] of a freshly dealt game (allocation-free).
pub fn measure(s: &TuSacState, out: &mut [[i32; MAX_SEATS]]) {
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
fn quans_of(s: &TuSacState, seat: Seat, c: Card) -> u8 {
    u8::from(
        s.public_sets(seat)
            .iter()
            .any(|x| x.kind == SetKind::Quad && x.origin == Origin::Dealt && x.cards()[0] == c),
    )
}
