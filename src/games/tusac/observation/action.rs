//! The vector of a candidate action, the same in every variant: its kind, the set kind a meld
//! makes, the cards it takes out of the hand and the active card it takes into a set.

use super::table::one_hot;
use crate::games::observe::Segment;
use crate::games::tusac::actions::{Action, Active};
use crate::games::tusac::card::{Card, CARD_TYPES};
use crate::games::tusac::sets::SetKind;

/// The action kinds in their one-hot order.
const KINDS: [&str; 6] = ["discard", "meld", "draw", "pass_drawn", "pass", "upgrade"];

/// The set kinds in their one-hot order (§2.1, as [`SetKind`] orders them).
const SET_KINDS: [SetKind; 12] = [
    SetKind::King,
    SetKind::Pair,
    SetKind::Triple,
    SetKind::Quad,
    SetKind::KingAdvisorElephant,
    SetKind::RookCannonHorse,
    SetKind::Pawns3,
    SetKind::Pawns4,
    SetKind::Colours3,
    SetKind::Colours4,
    SetKind::Kings4Colours,
    SetKind::Kings4Mixed,
];

/// The layout's segments: name, length, what each entry holds.
const LAYOUT: [Segment; 4] = [
    Segment {
        name: "kind",
        len: KINDS.len(),
        about: "one-hot of the action: discard, meld, draw, pass_drawn (pass on an own draw), pass (decline a claim), upgrade",
    },
    Segment {
        name: "set_kind",
        len: SET_KINDS.len(),
        about: "one-hot of the set a meld makes (an upgrade: Quad), in the order of §2.1: King Pair Triple Quad KingAdvisorElephant RookCannonHorse Pawns3 Pawns4 Colours3 Colours4 Kings4Colours Kings4Mixed; all 0 otherwise",
    },
    Segment {
        name: "from_hand",
        len: CARD_TYPES,
        about: "copies of each card identity the action takes out of the hand: the discarded card, or a meld's private cards (0-3)",
    },
    Segment {
        name: "taken",
        len: CARD_TYPES,
        about: "1 at the identity of the active card a meld or an upgrade takes into a set, 0 elsewhere",
    },
];

/// The layout of an action's vector.
pub(super) fn layout() -> Vec<Segment> {
    LAYOUT.to_vec()
}

/// The index of an action's kind in [`KINDS`].
const fn kind_index(a: &Action) -> usize {
    match a {
        Action::Discard(_) => 0,
        Action::Meld(_) => 1,
        Action::Draw => 2,
        Action::PassDrawn => 3,
        Action::Pass => 4,
        Action::Upgrade => 5,
    }
}

/// Writes `action`'s vector into `out` (the layout's length), the active card being `active`.
/// Allocates nothing.
pub(super) fn write(action: Action, active: Option<Active>, out: &mut [f32]) {
    out.fill(0.0);
    let [kind, set_kind, from_hand, taken] = split(out);
    one_hot(kind, Some(kind_index(&action)));
    let (set, used, takes): (Option<SetKind>, &[Card], bool) = match &action {
        Action::Discard(c) => (None, std::slice::from_ref(c), false),
        Action::Meld(m) => (Some(m.kind), m.used(), true),
        Action::Upgrade => (Some(SetKind::Quad), &[], true),
        Action::Draw | Action::PassDrawn | Action::Pass => (None, &[], false),
    };
    one_hot(
        set_kind,
        set.and_then(|k| SET_KINDS.iter().position(|&s| s == k)),
    );
    used.iter().for_each(|c| from_hand[c.index()] += 1.0);
    if let Some(a) = active.filter(|_| takes) {
        taken[a.card.index()] = 1.0;
    }
}

/// `out` cut into the layout's segments.
fn split(out: &mut [f32]) -> [&mut [f32]; 4] {
    let (kind, rest) = out.split_at_mut(LAYOUT[0].len);
    let (set_kind, rest) = rest.split_at_mut(LAYOUT[1].len);
    let (from_hand, taken) = rest.split_at_mut(LAYOUT[2].len);
    [kind, set_kind, from_hand, taken]
}
