//! `greedy`, the greedy worst-card agent: discards a worst card (§5, OutsV1) and melds whenever a
//! meld does not raise trash, preferring the lowest trash left, then the highest hand value.

use super::{uniform_index, Agent};
use crate::games::tusac::rules::cards_of;
use crate::games::tusac::state::{Action, Phase, TuSacState};
use crate::games::tusac::trash::trash_and_value;
use crate::games::tusac::worst::worst_set;
use crate::games::tusac::TuSacView;
use crate::rng::GameRng;

/// How the greedy agent chooses among equally good actions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// The first in canonical order (§5.1 item 6).
    Canonical,
    /// Uniform among the tied actions.
    Random,
}

/// The greedy worst-card agent for Tứ Sắc.
#[derive(Copy, Clone, Debug)]
pub struct TuSacGreedy {
    /// The tie-break rule.
    pub tiebreak: TieBreak,
}

impl TuSacGreedy {
    /// Picks among the indices whose key is the smallest, by the tie-break rule.
    fn pick<K: Ord + Copy>(
        &self,
        keys: impl Iterator<Item = (usize, K)> + Clone,
        rng: &mut GameRng,
    ) -> Option<usize> {
        let best = keys.clone().map(|(_, k)| k).min()?;
        let tied = keys.filter(move |&(_, k)| k == best).map(|(i, _)| i);
        match self.tiebreak {
            TieBreak::Canonical => tied.clone().next(),
            TieBreak::Random => {
                let n = tied.clone().count();
                tied.clone().nth(uniform_index(n, rng))
            }
        }
    }
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
                self.pick(keys, rng)
            }
            _ => {
                let keys = legal.iter().enumerate().filter_map(|(i, a)| match a {
                    Action::Meld(m) => {
                        let (t, v) = trash_and_value(hand.without_all(m.used()));
                        Some((i, (t, std::cmp::Reverse(m.value() + u32::from(v)))))
                    }
                    _ => None,
                });
                self.pick(keys, rng)
            }
        };
        // No meld: decline (the draw or pass is always the last legal action of a turn option).
        choice.unwrap_or(legal.len() - 1)
    }
}
