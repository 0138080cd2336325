//! What `bailab deals` measures on a dealt Tiến Lên game (`docs/deals.md`): the 13 dealt cards
//! of each seat, before any play.

use super::card::RANK_TWO;
use super::card_set::Cards;
use super::combo::{toi_trang, toi_trang_conditions};
use super::split::{combos, Splitter};
use super::state::TienLenState;
use super::toi_trang::ToiTrang;
use crate::game::{Seat, MAX_SEATS};
use crate::games::kind::MeasureInfo;
use std::cell::RefCell;

/// The measures, in the order [`measure`] writes them: first one per tới trắng condition of
/// §5.1 in [`ToiTrang::ALL`] order.
pub const MEASURES: &[MeasureInfo] = &[
    MeasureInfo::hand("toi_trang_TuQuy3", 1, "the hand meets TuQuy3 (§5.1, initial-game list): all four 3s"),
    MeasureInfo::hand("toi_trang_BaDoiThongCo3Bich", 1, "the hand meets BaDoiThongCo3Bich (§5.1, initial-game list): 3s, another 3, two 4s, two 5s"),
    MeasureInfo::hand("toi_trang_SanhRong", 1, "the hand meets SanhRong (§5.1, normal-game list): every rank 3..A"),
    MeasureInfo::hand("toi_trang_SauDoi", 1, "the hand meets SauDoi (§5.1, normal-game list): six pairs, a four-of-a-kind counting two"),
    MeasureInfo::hand("toi_trang_NamDoiThong", 1, "the hand meets NamDoiThong (§5.1, normal-game list): five consecutive ranks in 3..A held twice"),
    MeasureInfo::hand("toi_trang_BonSam", 1, "the hand meets BonSam (§5.1, normal-game list): four ranks held three times"),
    MeasureInfo::hand("toi_trang_HaiTuQuy", 1, "the hand meets HaiTuQuy (§5.1, normal-game list): two ranks held four times"),
    MeasureInfo::hand("toi_trang_TuQuyHeo", 1, "the hand meets TuQuyHeo (§5.1, normal-game list): all four 2s"),
    MeasureInfo::hand("toi_trang_DongMau", 1, "the hand meets DongMau (§5.1, normal-game list): at least 12 cards of one colour"),
    MeasureInfo::hand("toi_trang_initial", 1, "the hand wins at once in an initial game (§5.1 initial list, with the game's options)"),
    MeasureInfo::hand("toi_trang_normal", 1, "the hand wins at once in a normal game (§5.1 normal list, with the game's options)"),
    MeasureInfo::deal("toi_trang_deal_initial", 1, "some seat wins at once if the deal is an initial game (§5.1, §5.2)"),
    MeasureInfo::deal("toi_trang_deal_normal", 1, "some seat wins at once if the deal is a normal game (§5.1, §5.2)"),
    MeasureInfo::hand("twos", 4, "2s (heo) in the hand (4 in the pack: hypergeometric)"),
    MeasureInfo::hand("tu_quy", 3, "tứ quý (Quad, §3.1): ranks held four times, 2s included"),
    MeasureInfo::hand("doi_thong_longest", 6, "the longest run of consecutive ranks within 3..A each held at least twice (a PairSequence of that many pairs, §3.1; 0 without a pair below 2)"),
    MeasureInfo::hand("doi_thong3", 1, "the hand holds a 3 đôi thông (PairSequence3, §3.1): a run of at least 3 pairs"),
    MeasureInfo::hand("doi_thong4", 1, "the hand holds a 4+ đôi thông (PairSequence4 or longer, §3.1, the out-of-turn chop): a run of at least 4 pairs"),
    MeasureInfo::hand("plays_to_go_out", 13, "combinations in the hand's best split (fewest plays to go out, then fewest singles; the engine's splitter)"),
];

thread_local! {
    /// One split solver per thread: its cache is allocated once, not per deal.
    static SPLITTER: RefCell<Splitter> = RefCell::new(Splitter::default());
}

/// Writes the [`MEASURES`] of a freshly dealt game (allocation-free once the thread's splitter
/// exists).
pub fn measure(s: &TienLenState, out: &mut [[i32; MAX_SEATS]]) {
    let o = s.options();
    let n = ToiTrang::ALL.len();
    let (mut any_initial, mut any_normal) = (false, false);
    for seat in 0..s.players() as Seat {
        let h = s.hand(seat);
        let row = seat as usize;
        let met = toi_trang_conditions(h);
        for (i, t) in ToiTrang::ALL.into_iter().enumerate() {
            out[i][row] = i32::from(met.contains(t));
        }
        let initial = !toi_trang(h, true, o).is_empty();
        let normal = !toi_trang(h, false, o).is_empty();
        any_initial |= initial;
        any_normal |= normal;
        out[n][row] = i32::from(initial);
        out[n + 1][row] = i32::from(normal);
        let longest = longest_pair_run(h);
        out[n + 4][row] = h.rank_count(RANK_TWO) as i32;
        out[n + 5][row] = h.ranks_with_at_least(4).count_ones() as i32;
        out[n + 6][row] = longest as i32;
        out[n + 7][row] = i32::from(longest >= 3);
        out[n + 8][row] = i32::from(longest >= 4);
        out[n + 9][row] = SPLITTER.with(|sp| i32::from(combos(sp.borrow_mut().cost(h))));
    }
    out[n + 2][0] = i32::from(any_initial);
    out[n + 3][0] = i32::from(any_normal);
}

/// The longest run of consecutive ranks within 3..A (no 2 in a pair sequence, §3.1) that the
/// hand holds at least twice each.
fn longest_pair_run(h: Cards) -> u32 {
    let mut run = h.ranks_with_at_least(2) & 0xFFF;
    let mut len = 0;
    while run != 0 {
        run &= run >> 1;
        len += 1;
    }
    len
}
