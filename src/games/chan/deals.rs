//! What `bailab deals` measures on a dealt Chắn game (`docs/deals.md`): the dealt hands after
//! the thiên khai quads are laid down (§5.2 item 1), before the first player's opening.

use super::card::Card;
use super::decompose::{decompose, win_shape};
use super::state::ChanState;
use crate::game::{Seat, MAX_SEATS};
use crate::games::kind::{MeasureInfo, NOT_MEASURED};

/// The measures, in the order [`measure`] writes them.
pub const MEASURES: &[MeasureInfo] = &[
    MeasureInfo::hand("chan", 10, "TotalChan (§3.3): Chắn of the canonical decomposition (§3.2) of the concealed cards plus 2 per laid-down thiên khai quad (the first player holds 20 cards, the others 19)"),
    MeasureInfo::hand("ca", 10, "Cạ of the canonical decomposition (§3.2; a BaDau gives one)"),
    MeasureInfo::hand("lone", 20, "L(P) (§3.3): Lone cards of the decomposition not part of a BaDau"),
    MeasureInfo::hand("badau", 8, "B(P) (§3.3): BaDau of the decomposition"),
    MeasureInfo::hand("thien_khai", 5, "dealt four-of-a-kinds laid down at once (§5.2 item 1, thiên khai)"),
    MeasureInfo::hand("u_waits", 25, "card identities c that would complete a ù (WinShape(P, c), §3.4) for a 19-card hand, not counting whether a copy is left; not measured for the first player, who discards first"),
    MeasureInfo::hand("u_waiting", 1, "1 when a 19-card hand is waiting for ù at the deal (u_waits > 0); not measured for the first player"),
    MeasureInfo::deal("thien_u", 1, "1 when the first player may declare Thiên ù (§7.2: WinShape rules 1–2 on the 20 dealt cards)"),
];

/// Writes the [`MEASURES`] of a freshly dealt game (allocation-free).
pub fn measure(s: &ChanState, out: &mut [[i32; MAX_SEATS]]) {
    let first = s.setup().first;
    for seat in 0..s.players() as Seat {
        let p = s.seat(seat);
        let d = decompose(&p.concealed);
        let exposed = p.exposed_chan();
        let row = seat as usize;
        out[0][row] = i32::from(exposed + d.chan);
        out[1][row] = i32::from(d.ca);
        out[2][row] = d.l() as i32;
        out[3][row] = d.b() as i32;
        out[4][row] = p.melds.as_slice().len() as i32;
        let (waits, waiting) = if seat == first {
            (NOT_MEASURED, NOT_MEASURED)
        } else {
            let w = Card::all()
                .filter(|&c| win_shape(&p.concealed, exposed, Some(c)))
                .count() as i32;
            (w, i32::from(w > 0))
        };
        out[5][row] = waits;
        out[6][row] = waiting;
    }
    out[7][0] = i32::from(s.thien_u_legal(first));
}
