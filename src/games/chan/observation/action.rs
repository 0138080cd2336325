//! The action vector: one table of segments ([`ACTION`]), each with the function that writes
//! it, over the same identity order as the tensor (§1.1 canonical index).

use super::shared::{one_hot, rel, spec, Seen, Spec, Stage};
use crate::game::SeatView;
use crate::games::chan::card::{Card, IDENTITIES};
use crate::games::chan::types::Action;
use crate::games::chan::ChanView;

/// What every segment's writer reads: the view, its phase as the seat sees it, the action.
pub(super) struct Ctx<'a> {
    /// The view.
    pub view: ChanView<'a>,
    /// The phase as the seat sees it.
    pub seen: Seen,
    /// The action, legal in the view.
    pub action: Action,
}

/// A segment writer.
type Fill = fn(&Ctx<'_>, &mut [f32]);

/// The index of an action's kind in the `kind` one-hot.
fn kind_index(a: Action) -> usize {
    match a {
        Action::Discard(_) => 0,
        Action::Eat { hand, card } if hand == card => 1,
        Action::Eat { .. } => 2,
        Action::Chiu(_) => 3,
        Action::Draw => 4,
        Action::PassDrawn => 5,
        Action::EndHand => 6,
        Action::DeclareThienU => 7,
        Action::ClaimU(_) => 8,
        Action::Decline => 9,
    }
}

/// The copies of one identity that leave the seat's concealed hand.
fn hand_cards(c: &Ctx<'_>) -> Option<(Card, u8)> {
    match c.action {
        Action::Discard(x) => Some((x, 1)),
        Action::Eat { hand, .. } => Some((hand, 1)),
        Action::Chiu(t) => Some((t, 3)),
        // a chíu ù lays the three held copies down with the ù card (§7.1)
        Action::ClaimU(u) => (c.view.own_hand().count(u) == 3).then_some((u, 3)),
        _ => None,
    }
}

/// The table card the action takes, claims or lets go.
fn table_card(c: &Ctx<'_>) -> Option<Card> {
    match c.action {
        Action::Eat { card, .. } => Some(card),
        Action::Chiu(t) | Action::ClaimU(t) => Some(t),
        Action::Draw | Action::PassDrawn | Action::EndHand | Action::Decline => {
            c.view.live().map(|l| l.card)
        }
        Action::Discard(_) | Action::DeclareThienU => None,
    }
}

/// The gate (relative seat) where the card the action puts on the table lies.
fn target_gate(c: &Ctx<'_>) -> Option<usize> {
    let me = c.view.seat();
    let next = rel(&c.view, ((me as usize + 1) % c.view.players()) as u8);
    match c.action {
        Action::Discard(_) if c.seen.stage == Stage::MustReturn => {
            c.seen.return_gate.map(|g| rel(&c.view, g))
        }
        Action::Discard(_) | Action::PassDrawn => Some(next),
        Action::Draw => Some(0),
        _ => None,
    }
}

/// The action vector's segments, in order.
#[rustfmt::skip]
pub(super) const ACTION: &[Spec<Fill>] = &[
    spec("hand_cards", IDENTITIES, 0, "copies of each identity that leave this seat's concealed hand: 1 for a discard or an eat's hand card, 3 for a chíu (or a chíu ù), else 0",
        |c, o| if let Some((x, n)) = hand_cards(c) { o[x.index()] = f32::from(n) }),
    spec("table_card", IDENTITIES, 0, "1 at the live card the action takes (eat, chíu), claims (ù) or lets go (draw, pass_drawn, end_hand, decline); all 0 for a discard or Thiên ù",
        |c, o| one_hot(o, table_card(c).map(Card::index))),
    spec("kind", 10, 0, "one-hot of the kind: discard (a return too), eat_chan, eat_ca, chiu, draw, pass_drawn, end_hand, declare_thien_u, claim_u, decline",
        |c, o| one_hot(o, Some(kind_index(c.action)))),
    spec("target_gate", 0, 1, "entry k: 1 if the card the action puts on the table lies at the gate of the seat k places after this one (a discard or pass_drawn: the next seat; a return: the interrupted gate; a draw: this seat), else all 0",
        |c, o| one_hot(o, target_gate(c))),
];

/// Writes the vector of `action` (legal in `view`) into `out`. Allocates nothing.
pub(super) fn action_vector(view: &ChanView<'_>, action: Action, out: &mut [f32]) {
    let c = Ctx {
        view: *view,
        seen: Seen::of(view),
        action,
    };
    super::shared::write_all(ACTION, view.players(), out, |f, seg| f(&c, seg));
}
