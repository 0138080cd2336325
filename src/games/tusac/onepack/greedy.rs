//! Greedy's one-pack rule (`greedy` with its default weights, see [`crate::games::tusac::greedy`]):
//! discards a worst card (§5, OutsV1) and melds whenever a meld does not raise trash, preferring
//! the lowest trash left, then the highest hand value. Where any non-King card may be discarded
//! (4sac §4.5) the discard leaving the least trash, then the most private value, then a worst
//! card.

use super::rules::cards_of;
use super::trash::trash_and_value;
use super::view::OnePackView;
use super::worst::worst_set;
use crate::agent::greedy::TieBreak;
use crate::games::tusac::actions::{Action, Phase};
use crate::games::tusac::options::{DiscardRule, PointTable};
use crate::games::tusac::sets::{value, Origin, SetKind, Zone};
use crate::rng::GameRng;
use std::cmp::Reverse;

/// Greedy's rule in the one-pack variants (classic, 4sac).
#[derive(Copy, Clone, Debug)]
pub(crate) struct OnePackGreedy {
    /// The tie-break rule among equally good actions.
    pub tiebreak: TieBreak,
}

impl OnePackGreedy {
    /// The index in `legal` of greedy's action, `None` for a turn option without a meld
    /// (the caller then declines).
    pub(crate) fn choose(
        &self,
        view: &OnePackView<'_>,
        legal: &[Action],
        rng: &mut GameRng,
    ) -> Option<usize> {
        let hand = view.own_hand();
        match view.phase() {
            Phase::MustDiscard(_) if view.options().discard_rule == DiscardRule::AnyNonKing => {
                let worst = worst_set(hand, view.visible());
                let keys = legal.iter().enumerate().filter_map(|(i, a)| match a {
                    Action::Discard(c) => {
                        let (t, v) = trash_and_value(hand.without(*c));
                        let not_worst = worst >> c.index() & 1 == 0;
                        Some((i, (t, Reverse(v), not_worst)))
                    }
                    _ => None,
                });
                self.tiebreak.pick(keys, rng)
            }
            Phase::MustDiscard(_) => {
                let worst = worst_set(hand, view.visible());
                let keys = legal.iter().enumerate().filter_map(|(i, a)| match a {
                    Action::Discard(c) if cards_of(worst).any(|w| w == *c) => Some((i, ())),
                    _ => None,
                });
                self.tiebreak.pick(keys, rng)
            }
            _ => {
                let table = view.options().point_table;
                let keys = legal.iter().enumerate().filter_map(|(i, a)| match a {
                    Action::Meld(m) => {
                        let (t, v) = trash_and_value(hand.without_all(m.used()));
                        Some((i, (t, Reverse(m.value_in(table) + u32::from(v)))))
                    }
                    Action::Upgrade => {
                        let (t, v) = trash_and_value(hand);
                        Some((i, (t, Reverse(upgrade_gain(table) + u32::from(v)))))
                    }
                    _ => None,
                });
                self.tiebreak.pick(keys, rng)
            }
        }
    }
}

/// What the exposed Pong upgrade (F3) adds: a melded Kong's value over a public Pong's (§2.5).
pub(crate) fn upgrade_gain(table: PointTable) -> u32 {
    let kong = value(table, SetKind::Quad, Zone::Public, Origin::Melded, false);
    kong.saturating_sub(value(
        table,
        SetKind::Triple,
        Zone::Public,
        Origin::Melded,
        false,
    ))
}
