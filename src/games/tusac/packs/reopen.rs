//! An open claim window in a determinization (§4.6 S1, S2.2): who it asks besides the turn
//! player and the viewing seat is private, so a sample opens it again on the sampled hands.

use super::state::{PacksState, Window, WindowKind};
use crate::game::Seat;
use crate::games::tusac::card::Card;
use crate::rng::GameRng;
use rand::Rng;
use std::cmp::Ordering;

/// The copies of the active card a window asks a seat to hold: 2 for an S2 declaration, 3 for
/// the King Quad; `None` when no window is open.
fn need(s: &PacksState) -> Option<(Card, u8)> {
    let a = s.active?;
    match s.window.kind {
        WindowKind::Closed => None,
        WindowKind::Declare => Some((a.card, 2)),
        WindowKind::KingQuad => Some((a.card, 3)),
    }
}

/// Whether `me` is the seat the open window asks now.
fn deciding(s: &PacksState, me: Seat) -> bool {
    let w = &s.window;
    w.at < w.len && w.seats[usize::from(w.at)] == me
}

/// When `me` does not decide and the window it sees waits on a seat that must hold copies of
/// the active card (after its own answer as the turn player, or any King Quad window), one
/// seat it may be, drawn at random from the other seats of the claim order with room for the
/// copies, with the copies it holds (the truth's seat is not told: any of them could be); else
/// none, and no copies.
pub(super) fn waited_on(s: &PacksState, me: Seat, rng: &mut GameRng) -> (Option<Seat>, (Card, u8)) {
    let none = (None, (Card::default(), 0));
    let (Some(a), Some(keep)) = (s.active, need(s)) else {
        return none;
    };
    let turn = s.claim_order(a).next();
    let by_turn = s.window.kind == WindowKind::Declare && turn != Some(me);
    if deciding(s, me) || by_turn {
        return none;
    }
    let skip = usize::from(s.window.kind == WindowKind::Declare);
    let fits = |x: Seat| x != me && s.hand_len(x) >= usize::from(keep.1);
    let others = || s.claim_order(a).skip(skip).filter(|&x| fits(x));
    let pick = rng.random_range(0..others().count());
    (others().nth(pick), keep)
}

/// Opens the claim window of `truth` again in its determinization `out`, on the sampled hands:
/// it asks the turn player of a declaration window and every seat whose sampled hand holds the
/// copies the window asks for. When `me` decides, it is asked as in the truth, the seats before
/// it having answered unseen; else the asking starts over (after `me`'s own answer as the turn
/// player), without `me` when `waited` (a King Quad window it does not decide), so that the
/// sample shows `me` what its view shows. The turn player's legal melds are made afresh.
pub(super) fn reopen_window(out: &mut PacksState, truth: &PacksState, me: Seat, waited: bool) {
    let (w, Some((card, need))) = (truth.window, need(truth)) else {
        return;
    };
    let a = truth.active.expect("a window has an active card");
    let mine = w.seats[..usize::from(w.len)].iter().position(|&x| x == me);
    let mut again = Window {
        kind: w.kind,
        ..Window::default()
    };
    let mut mine_again = None;
    for (i, x) in truth.claim_order(a).enumerate() {
        let first = i == 0 && w.kind == WindowKind::Declare;
        let asked = if x == me {
            mine.is_some() && (first || !waited)
        } else {
            first || out.hands[x as usize][card.index()] >= need
        };
        if asked {
            if x == me {
                mine_again = Some(again.len);
                again.declared[usize::from(again.len)] = mine.and_then(|m| w.declared[m]);
            }
            again.seats[usize::from(again.len)] = x;
            again.len += 1;
        }
    }
    again.at = match (mine.map(|m| m.cmp(&usize::from(w.at))), mine_again) {
        (Some(Ordering::Equal), Some(m)) => m,
        (Some(Ordering::Less), Some(0)) => 1,
        _ => 0,
    };
    if w.kind == WindowKind::Declare {
        again.turn_shapes = out.turn_shapes(again.seats[0], card);
    }
    out.window = again;
    out.events.clear();
    out.ask();
}
