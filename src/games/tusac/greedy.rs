//! `greedy` for Tứ Sắc, the greedy worst-card agent: discards a worst card (§5, OutsV1) and melds
//! whenever a meld does not raise trash, preferring the lowest trash left, then the highest hand
//! value.

use super::rules::cards_of;
use super::state::{Action, Phase, TuSacState};
use super::trash::trash_and_value;
use super::worst::worst_set;
use super::TuSacView;
use crate::agents::catalogue::AgentInfo;
use crate::agents::greedy::{TieBreak, TIEBREAK_PARAM};
use crate::agents::Agent;
use crate::rng::GameRng;

/// The catalogue entry of Tứ Sắc's `greedy`.
pub const GREEDY_INFO: AgentInfo = AgentInfo {
    name: "greedy",
    games: "tusac",
    about: "greedy worst-card: discards a worst card (§5 OutsV1); melds when a meld is legal and \
            does not raise trash, preferring the lowest trash left, then the highest hand value",
    params: &[TIEBREAK_PARAM],
};

/// The greedy worst-card agent for Tứ Sắc.
#[derive(Copy, Clone, Debug)]
pub struct TuSacGreedy {
    /// The tie-break rule.
    pub tiebreak: TieBreak,
}

impl Agent<TuSacState> for TuSacGreedy {
    fn act(&mut self, view: &TuSacView<'_>, legal: &[Action], rng: &mut GameRng) -> usize {
        let hand = view.own_hand();
        let choice = match view.phase() {
            Phase::MustDiscard(_) => {
                let worst = worst_set(hand, view.visible());
                let keys = legal.iter().enumerate().filter_map(|(i, a)| match a {
                    Action::Discard(c) if cards_of(worst).any(|w| w == *c) => Some((i, ())),
                    _ => None,
                });
                self.tiebreak.pick(keys, rng)
            }
            _ => {
                let keys = legal.iter().enumerate().filter_map(|(i, a)| match a {
                    Action::Meld(m) => {
                        let (t, v) = trash_and_value(hand.without_all(m.used()));
                        Some((i, (t, std::cmp::Reverse(m.value() + u32::from(v)))))
                    }
                    _ => None,
                });
                self.tiebreak.pick(keys, rng)
            }
        };
        // No meld: decline (the draw or pass is always the last legal action of a turn option).
        choice.unwrap_or(legal.len() - 1)
    }
}
