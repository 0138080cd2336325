//! What `bailab deals` measures on a freshly dealt multi-pack game (sisepai21, dirtyking26): the
//! game's one list [`MEASURES`], with the one-pack-only measures (trash, Khaps, Quans, the
//! one-pack hand value and natural win) [`NOT_APPLICABLE`] and the multi-pack ones written:
//! loose cards, completeness, face-down quadruples and points per hand (§1.4 step 3, §3.3,
//! §2.5), the Kings dealt, the redeals (§1.4 step 1), the double rank (step 2) and the natural
//! win with its score (step 5, §4.7).

use super::loose::{best, win_score};
use super::state::PacksState;
use crate::game::{Seat, MAX_SEATS};
use crate::games::kind::{NOT_APPLICABLE, NOT_MEASURED};
use crate::games::tusac::card::{Card, Colour, Rank};
use crate::games::tusac::deals::{measure_index, shared_measure, MEASURES, ONE_PACK_MEASURES};

const KINGS: usize = measure_index("kings");
const COPIES_RK: usize = measure_index("copies_rK");
const LOOSE: usize = measure_index("loose");
const COMPLETE: usize = measure_index("complete");
const FACE_DOWN_QUADS: usize = measure_index("face_down_quads");
const POINTS: usize = measure_index("points");
const REDEALS: usize = measure_index("redeals");
const DOUBLE_RANK: usize = measure_index("double_rank");
const NATURAL_WIN: usize = measure_index("natural_win_points");
const NATURAL_WIN_SCORE: usize = measure_index("natural_win_score");

/// Writes the [`MEASURES`] of a freshly dealt multi-pack game (allocation-free). The hands are
/// read as dealt and set aside by §1.4 (a natural win ends the game but leaves them as they are).
pub fn measure(s: &PacksState, out: &mut [[i32; MAX_SEATS]]) {
    for (i, row) in out[..ONE_PACK_MEASURES].iter_mut().enumerate() {
        if !shared_measure(i) {
            *row = [NOT_APPLICABLE; MAX_SEATS];
        }
    }
    let rules = s.set_rules();
    let red_king = Card::new(Colour::Red, Rank::King);
    for seat in 0..s.players() as Seat {
        let hand = s.hand(seat);
        let (loose, points) = best(hand, rules);
        let row = seat as usize;
        out[KINGS][row] = hand[..4].iter().map(|&n| i32::from(n)).sum();
        out[COPIES_RK][row] = i32::from(hand[red_king.index()]);
        out[LOOSE][row] = i32::from(loose);
        out[COMPLETE][row] = i32::from(loose == 0);
        out[FACE_DOWN_QUADS][row] = (s.face_down_len(seat) / 4) as i32;
        out[POINTS][row] = (s.fixed_points(seat) + points) as i32;
    }
    out[REDEALS][0] = i32::from(s.redeals());
    out[DOUBLE_RANK][0] = match s.double_rank() {
        Some(r) => r as i32,
        None if s.options().double_rank => NOT_MEASURED,
        None => NOT_APPLICABLE,
    };
    let o = s.options();
    let first = o.first_player;
    let fixed = s.fixed_points(first);
    if o.natural_win_for_first {
        let score = win_score(s.hand(first), fixed, rules, o.win_test);
        out[NATURAL_WIN][0] = i32::from(score.is_some());
        out[NATURAL_WIN_SCORE][0] = score.map_or(NOT_MEASURED, |v| v as i32);
    } else {
        out[NATURAL_WIN] = [NOT_APPLICABLE; MAX_SEATS];
        out[NATURAL_WIN_SCORE] = [NOT_APPLICABLE; MAX_SEATS];
    }
    debug_assert_eq!(out.len(), MEASURES.len());
}
