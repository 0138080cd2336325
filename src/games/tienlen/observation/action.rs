//! The action vector: one table of segments ([`ACTION`]), each with the function that writes it,
//! over the same card keys as the tensor.

use super::shared::{action_index, kind_index, put_cards, ACTION_NAMES, KIND_NAMES};
use crate::games::observe::Segment;
use crate::games::tienlen::card::DECK_SIZE;
use crate::games::tienlen::combo::{classify, is_chat};
use crate::games::tienlen::types::Action;
use crate::games::tienlen::TienLenView;

/// One segment of an action's vector (the slice is zeroed first).
struct ActionSpec {
    name: &'static str,
    len: usize,
    about: &'static str,
    fill: fn(&TienLenView<'_>, Action, &mut [f32]),
}
/// An action's vector, segment by segment.
#[rustfmt::skip]
const ACTION: &[ActionSpec] = &[
    ActionSpec { name: "cards", len: DECK_SIZE,
        about: "the cards the action plays or chops (all 0 for pass and decline), by card key \
                (3s..2h); 0..1",
        fill: |_, a, o| put_cards(o, action_index(a).1) },
    ActionSpec { name: "kind", len: KIND_NAMES.len(),
        about: "type of the combination played, one-hot: single, pair, triple, quad, \
                straight3..straight12, pair_sequence3..pair_sequence6 (all 0 for pass and \
                decline); 0..1",
        fill: |_, a, o| if let Some(c) = classify(action_index(a).1) { o[kind_index(c.kind)] = 1.0 } },
    ActionSpec { name: "action", len: ACTION_NAMES.len(),
        about: "the action, one-hot: play (in turn), pass, chop (out of turn), decline; 0..1",
        fill: |_, a, o| o[action_index(a).0] = 1.0 },
    ActionSpec { name: "chat", len: 1,
        about: "1 when the play is a chặt of the combination to beat (§3.3: it adds a link to \
                the chain), else 0; 0..1",
        fill: |v, a, o| o[0] = f32::from(chops_top(v, a)) },
];

/// True when `action` plays hàng on a top it chặt (§3.3).
fn chops_top(view: &TienLenView<'_>, action: Action) -> bool {
    match (classify(action_index(action).1), view.top()) {
        (Some(a), Some((b, _))) => is_chat(&a, &b, view.options()),
        _ => false,
    }
}
/// The action vector's layout.
pub(super) fn layout() -> Vec<Segment> {
    ACTION
        .iter()
        .map(|s| Segment {
            name: s.name,
            len: s.len,
            about: s.about,
        })
        .collect()
}

/// Fills `out` table by table; no allocation.
pub(super) fn action_vector(view: &TienLenView<'_>, action: Action, out: &mut [f32]) {
    let mut at = 0;
    for spec in ACTION {
        let seg = &mut out[at..at + spec.len];
        seg.fill(0.0);
        (spec.fill)(view, action, seg);
        at += spec.len;
    }
    assert_eq!(
        at,
        out.len(),
        "the action vector's buffer has the layout's length"
    );
}
