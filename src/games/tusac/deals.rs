//! What `bailab deals` measures on a dealt Tứ Sắc game (`docs/deals.md`): the state right after
//! the deal and the steps of §1.4 (Quans laid down, Khaps counted, the natural-win test). One
//! list for both cores: the one-pack measures, then the multi-pack ones; each core writes its
//! own ([`super::onepack::deals`], [`super::packs::deals`]) and marks the other's
//! [`NOT_APPLICABLE`](crate::games::kind::NOT_APPLICABLE) (the Kings dealt are taken in both).

use crate::games::kind::MeasureInfo;
use crate::text::const_eq;

/// The measures, in the order the cores write them.
pub const MEASURES: &[MeasureInfo] = &[
    MeasureInfo::hand("trash", 21, "trash count (§3.1) of the private block after the deal and §1.4 (the first player holds 21 cards, the others 20; Quans already laid down)"),
    MeasureInfo::hand("khaps", 7, "Khaps (§2.2, §1.4 step 4): card types held exactly three times in the private block"),
    MeasureInfo::hand("quans", 5, "Quans (§2.2, §1.4 step 3): card types dealt four times, laid down at once"),
    MeasureInfo::hand("zero_trash", 1, "1 when the private block has trash 0 (§4.7 win test): for the first player a natural win, for the others a hand already complete before any draw"),
    MeasureInfo::hand("hand_value", 63, "hv of §6.1 on the dealt cards: Quans (8 each) plus the best-valued optimal partition of the private block (§3.6; for a hand with trash it is the value of its sets, the trash cards counting 0)"),
    MeasureInfo::hand("kings", 27, "Kings dealt to the hand (16 in the pack: hypergeometric)"),
    MeasureInfo::hand("copies_rK", 16, "copies of the red King rK dealt to the hand (4 in the pack: hypergeometric)"),
    MeasureInfo::deal("natural_win", 1, "1 when the first player's 21 dealt cards pass the win test (§1.4 step 5, §4.7: trash 0), so the game ends at the deal"),
    MeasureInfo::deal("natural_win_value", 63, "hv (§6.1) of the first player's hand, counted only in deals with a natural win"),
    // The multi-pack measures (sisepai21, dirtyking26; `packs::deals`), not taken in one-pack deals.
    MeasureInfo::hand("loose", 27, "loose cards (§3.3) of the hand after the deal and §1.4 (face-down quadruples set aside; the first player holds one card more)"),
    MeasureInfo::hand("complete", 1, "1 when the hand has no loose card (§3.3): for the first player a natural win if its points pass the test of §4.7, for the others a hand complete before any draw"),
    MeasureInfo::hand("face_down_quads", 6, "quadruples of non-King cards placed face down at the deal (§1.4 step 3)"),
    MeasureInfo::hand("points", 108, "points after the deal: face-down quadruples plus the best-value partition of the hand, loose cards allowed (§2.5 dealt values, doubled on the double rank; the current points of §4.6 S5)"),
    MeasureInfo::deal("redeals", u16::MAX, "deals redone by the redeal check (§1.4 step 1) before this one"),
    MeasureInfo::deal("double_rank", 6, "the double rank (§1.4 step 2, dirtyking26 only): 1 A, 2 E, 3 R, 4 C, 5 H, 6 P"),
    MeasureInfo::deal("natural_win_points", 1, "1 when the first player's dealt hand passes the points win test (§1.4 step 5, §4.7), so the game ends at the deal"),
    MeasureInfo::deal("natural_win_score", 108, "the score of a natural win (§4.7, each loser pays it times the multiplier, §6.3–6.4), counted only in deals with one"),
];

/// The position of measure `name` in [`MEASURES`] (panics at compile time if there is none).
pub const fn measure_index(name: &str) -> usize {
    let mut i = 0;
    while i < MEASURES.len() {
        if const_eq(MEASURES[i].name, name) {
            return i;
        }
        i += 1;
    }
    panic!("no such measure")
}

/// The one-pack measures (classic, 4sac): [`MEASURES`] before `loose`.
pub const ONE_PACK_MEASURES: usize = measure_index("loose");

/// Whether measure `i` is taken in both cores (Kings dealt).
pub(crate) const fn shared_measure(i: usize) -> bool {
    i == measure_index("kings") || i == measure_index("copies_rK")
}
