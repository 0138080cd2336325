//! `greedy` for Tứ Sắc, the greedy worst-card agent: discards a worst card (§5, OutsV1) and melds
//! whenever a meld does not raise trash, preferring the lowest trash left, then the highest hand
//! value.
//!
//! Its weights ([`WEIGHTS`], tuned by `bailab tune`) turn both choices into a score over the
//! features of [`super::features`], lowest first:
//! - a discard scores `outs × outs_over_min + not_worst × [not worst] + feed × feed_combos +
//!   khui × khui_chance` plus the common terms;
//! - a meld scores `trash × trash_after − meld_value × meld_value` plus the common terms, then
//!   greedy's order (least trash, then most value) among equal scores; declining scores
//!   `decline + trash × trash_after + feed × feed_combos` plus the common terms;
//! - the common terms: `no_win × [win_outs = 0] − win_outs × win_outs − improve × improve_outs`.
//!
//! The defaults (`outs` 1, `decline` 100, the rest 0) are greedy's rule exactly, and with them
//! greedy skips the features altogether.
//!
//! Where any non-King card may be discarded (`discard_rule = AnyNonKing`, 4sac §4.5) greedy's
//! discard keeps the hand's completeness and value highest: the card whose removal leaves the
//! least trash, then the most private value (so a Pong is broken only when nothing else does
//! as well), then a worst card of §5 (fewest outs) among those, then the tie-break. Claims
//! and turn options are the rule above: it takes every offered Kong or Pong (rule (b) already
//! forbids one that raises trash), and it counts the exposed Pong upgrade (F3) as a meld that
//! leaves its trash as it is and adds the Kong's value over the Pong's.
//!
//! In the multi-pack variants (sisepai21, dirtyking26) the default weights play the multi-pack
//! rule of `packs/greedy.rs` (fewest loose cards, then most points, then the outs); any other
//! weights score every action by the formulas above over the multi-pack features
//! (`packs/features.rs`, where trash is the loose cards), a decline being any action marked
//! `is_decline`, ties going to the fewest loose cards, then the most points left.

use super::actions::{Action, Phase, MAX_ACTIONS};
use super::engine::{TuSacState, TuSacView};
use super::features::FEATURES;
use super::onepack::features::features;
use super::onepack::greedy::{upgrade_gain, OnePackGreedy};
use super::onepack::state::OnePackState;
use super::onepack::trash::trash_and_value;
use super::onepack::view::OnePackView;
use super::packs::features::features as packs_features;
use super::packs::greedy::{prospects_by_default, PacksGreedy};
use super::packs::view::PacksView;
use crate::agent::features::{FeatureRow, MAX_FEATURES};
use crate::agent::greedy::{feature_slot, milli, TieBreak, Weights, TIEBREAK_PARAM};
use crate::agent::spec::AgentSpec;
use crate::agent::Agent;
use crate::agent::{choice, AgentError, AgentInfo, ParamInfo};
use crate::rng::GameRng;
use std::cmp::Reverse;

crate::greedy_weights! {
    params: [TIEBREAK_PARAM, PROSPECTS_PARAM];
    Outs "outs" = 1.0 in 0.0..=3.0 step 0.01,
        "discard: cost per out above the least among the legal discards (outs_over_min); alone \
         it keeps §5's worst card";
    NotWorst "not_worst" = 0.0 in 0.0..=20.0 step 0.01,
        "discard: cost of a card that is not worst (the §5.3 penalty risk)";
    Feed "feed" = 0.0 in 0.0..=1.0 step 0.01,
        "discard or pass of one's draw: cost per way the other seats could set the card \
         (feed_combos)";
    Khui "khui" = 0.0 in 0.0..=0.2 step 0.001,
        "discard: cost per percent of khui_chance (another seat forced into a Khui)";
    NoWin "no_win" = 0.0 in 0.0..=20.0 step 0.01,
        "every action: cost of leaving no unseen card this seat could win on (win_outs = 0)";
    WinOuts "win_outs" = 0.0 in 0.0..=2.0 step 0.01,
        "every action: reward per unseen card this seat could win on afterwards (win_outs)";
    Improve "improve" = 0.0 in 0.0..=1.0 step 0.01,
        "every action: reward per unseen card a meld of which would lower trash (improve_outs)";
    Trash "trash" = 0.0 in 0.0..=5.0 step 0.01,
        "meld or decline: cost per card of trash left (trash_after)";
    MeldValue "meld_value" = 0.0 in 0.0..=10.0 step 0.01,
        "meld: reward per point of the set's classic value (§2.5)";
    Decline "decline" = 100.0 in -20.0..=100.0 step 0.01,
        "decline: its cost when a meld is legal (100: greedy's rule, always meld)";
}

/// The `prospects` parameter: whether the multi-pack rule tells equally good discards apart
/// by their prospects.
pub(crate) const PROSPECTS_PARAM: ParamInfo = ParamInfo {
    name: "prospects",
    default: "auto",
    about: "sisepai21/dirtyking26: among discards leaving equally few loose cards and points, \
            prefer the most outs (on) or go straight to the tie-break (off); auto: on in \
            sisepai21, off in dirtyking26, where the outs add no strength and cost half the \
            time (docs/tusac-variants.md); the one-pack rule has no prospects",
};

/// The catalogue entry of Tứ Sắc's `greedy`.
pub(crate) const GREEDY_INFO: AgentInfo = AgentInfo {
    name: "greedy",
    games: "tusac",
    about: "greedy worst-card: discards a worst card (§5 OutsV1); melds when a meld is legal and \
            does not raise trash, preferring the lowest trash left, then the highest hand value. \
            In sisepai21/dirtyking26: fewest loose cards, then most points, then (by default \
            in sisepai21 only) outs (docs/tusac-variants.md). Its weights (defaults: that \
            rule) score the actions by their features instead (docs/tune.md)",
    params: GREEDY_PARAMS,
};

/// Feature slots the weights read.
mod slot {
    use super::{feature_slot, FEATURES};
    pub(crate) const OUTS_OVER_MIN: usize = feature_slot(FEATURES, "outs_over_min");
    pub(crate) const FEED: usize = feature_slot(FEATURES, "feed_combos");
    pub(crate) const KHUI: usize = feature_slot(FEATURES, "khui_chance");
    pub(crate) const WIN_OUTS: usize = feature_slot(FEATURES, "win_outs");
    pub(crate) const IMPROVE: usize = feature_slot(FEATURES, "improve_outs");
    pub(crate) const TRASH_AFTER: usize = feature_slot(FEATURES, "trash_after");
    pub(crate) const MELD_VALUE: usize = feature_slot(FEATURES, "meld_value");
    pub(crate) const VALUE_AFTER: usize = feature_slot(FEATURES, "value_after");
    pub(crate) const IS_DECLINE: usize = feature_slot(FEATURES, "is_decline");
}

/// The greedy worst-card agent for Tứ Sắc.
#[derive(Clone, Debug)]
pub struct TuSacGreedy {
    /// The tie-break rule.
    pub tiebreak: TieBreak,
    /// The weights ([`WEIGHTS`]).
    weights: Weights,
    /// Whether `weights` are the defaults (greedy then plays its original rule).
    default_weights: bool,
    /// Score by the weights even when they are the defaults (the rule's other path, for tests).
    pub always_score: bool,
    /// The multi-pack rule's prospects tie-break (`PROSPECTS_PARAM`): forced on or off, or
    /// `None` for the variant's default ([`prospects_by_default`]).
    pub prospects: Option<bool>,
    rows: [FeatureRow; MAX_ACTIONS],
}

impl TuSacGreedy {
    /// Greedy with these weights.
    pub fn new(tiebreak: TieBreak, weights: Weights) -> TuSacGreedy {
        TuSacGreedy {
            tiebreak,
            default_weights: weights.is_default(WEIGHTS),
            weights,
            always_score: false,
            prospects: None,
            rows: [[0; MAX_FEATURES]; MAX_ACTIONS],
        }
    }

    /// Whether greedy scores its actions by the weights (else it plays its original rule).
    fn scores(&self) -> bool {
        self.always_score || !self.default_weights
    }

    /// Greedy from its spec (`greedy:tiebreak=random,outs=1.5`, `greedy:PATH`).
    pub fn from_spec(spec: &AgentSpec) -> Result<TuSacGreedy, AgentError> {
        let prospects = choice(
            spec,
            "prospects",
            PROSPECTS_PARAM.default,
            &[("auto", None), ("on", Some(true)), ("off", Some(false))],
        )?;
        Ok(TuSacGreedy {
            prospects,
            ..TuSacGreedy::new(
                TieBreak::from_spec(spec)?,
                Weights::from_spec(spec, WEIGHTS, "tusac")?,
            )
        })
    }

    /// The weighted score of the common terms of action row `r`.
    fn common(&self, r: &FeatureRow) -> f64 {
        let w = |s: W| self.weights.get(s as usize);
        let f = |i: usize| f64::from(r[i]);
        w(W::NoWin) * f64::from(u8::from(r[slot::WIN_OUTS] <= 0))
            - w(W::WinOuts) * f(slot::WIN_OUTS)
            - w(W::Improve) * f(slot::IMPROVE)
    }

    /// The choice by the weights (see the module documentation).
    fn scored(
        &mut self,
        view: &OnePackView<'_>,
        legal: &[Action],
        rng: &mut GameRng,
    ) -> Option<usize> {
        let rows = &mut self.rows[..legal.len()];
        for row in rows.iter_mut() {
            *row = [0; MAX_FEATURES];
        }
        features(view, legal, rows);
        let w = |s: W| self.weights.get(s as usize);
        let rows = &self.rows[..legal.len()];
        let f = |i: usize, s: usize| f64::from(rows[i][s]);
        let hand = view.own_hand();
        let last = legal.len() - 1;
        match view.phase() {
            Phase::MustDiscard(_) => {
                let keys = legal
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| matches!(a, Action::Discard(_)))
                    .map(|(i, _)| {
                        let over = f(i, slot::OUTS_OVER_MIN);
                        let score = w(W::Outs) * over
                            + w(W::NotWorst) * f64::from(u8::from(over > 0.0))
                            + w(W::Feed) * f(i, slot::FEED)
                            + w(W::Khui) * f(i, slot::KHUI)
                            + self.common(&rows[i]);
                        (i, milli(score))
                    });
                self.tiebreak.pick(keys, rng)
            }
            _ => {
                let keys = legal.iter().enumerate().filter_map(|(i, a)| {
                    let trash = w(W::Trash) * f(i, slot::TRASH_AFTER) + self.common(&rows[i]);
                    match a {
                        Action::Meld(m) => {
                            let (t, v) = trash_and_value(hand.without_all(m.used()));
                            let score = trash - w(W::MeldValue) * f(i, slot::MELD_VALUE);
                            let mv = m.value_in(view.options().point_table);
                            Some((i, (milli(score), t, Reverse(mv + u32::from(v)))))
                        }
                        Action::Upgrade => {
                            let (t, v) = trash_and_value(hand);
                            let score = trash - w(W::MeldValue) * f(i, slot::MELD_VALUE);
                            let mv = upgrade_gain(view.options().point_table);
                            Some((i, (milli(score), t, Reverse(mv + u32::from(v)))))
                        }
                        _ if i == last => {
                            let score = trash + w(W::Decline) + w(W::Feed) * f(i, slot::FEED);
                            let t = rows[i][slot::TRASH_AFTER].max(0) as u8;
                            let v = rows[i][slot::VALUE_AFTER].max(0) as u32;
                            Some((i, (milli(score), t, Reverse(v))))
                        }
                        _ => None,
                    }
                });
                self.tiebreak.pick(keys, rng)
            }
        }
    }
}

impl Agent<OnePackState> for TuSacGreedy {
    fn act(&mut self, view: &OnePackView<'_>, legal: &[Action], rng: &mut GameRng) -> usize {
        let choice = if self.scores() {
            self.scored(view, legal, rng)
        } else {
            OnePackGreedy {
                tiebreak: self.tiebreak,
            }
            .choose(view, legal, rng)
        };
        // No meld: decline (the draw or pass is always the last legal action of a turn option).
        choice.unwrap_or(legal.len() - 1)
    }
}

impl Agent<TuSacState> for TuSacGreedy {
    fn act(&mut self, view: &TuSacView<'_>, legal: &[Action], rng: &mut GameRng) -> usize {
        match view {
            TuSacView::OnePack(v) => Agent::<OnePackState>::act(self, v, legal, rng),
            TuSacView::MultiPack(v) if self.scores() => self.scored_multi_pack(v, legal, rng),
            TuSacView::MultiPack(v) => PacksGreedy {
                tiebreak: self.tiebreak,
                prospects: self
                    .prospects
                    .unwrap_or_else(|| prospects_by_default(v.options())),
            }
            .choose(v, legal, rng),
        }
    }
}

impl TuSacGreedy {
    /// The choice by the weights in a multi-pack game: the one-pack formulas over the multi-pack
    /// features (`packs/features.rs`: trash is loose cards), a decline being any action whose
    /// `is_decline` is set; ties go to the least loose, then the most points left.
    fn scored_multi_pack(
        &mut self,
        view: &PacksView<'_>,
        legal: &[Action],
        rng: &mut GameRng,
    ) -> usize {
        let rows = &mut self.rows[..legal.len()];
        for row in rows.iter_mut() {
            *row = [0; MAX_FEATURES];
        }
        packs_features(view, legal, rows);
        let w = |s: W| self.weights.get(s as usize);
        let rows = &self.rows[..legal.len()];
        let f = |i: usize, s: usize| f64::from(rows[i][s]);
        let after = |i: usize| {
            (
                rows[i][slot::TRASH_AFTER],
                Reverse(rows[i][slot::VALUE_AFTER]),
            )
        };
        let keys = (0..legal.len()).map(|i| {
            let score = if matches!(legal[i], Action::Discard(_)) {
                w(W::Outs) * f(i, slot::OUTS_OVER_MIN)
                    + w(W::NotWorst) * f64::from(u8::from(f(i, slot::OUTS_OVER_MIN) > 0.0))
                    + w(W::Feed) * f(i, slot::FEED)
            } else if rows[i][slot::IS_DECLINE] > 0 {
                w(W::Trash) * f(i, slot::TRASH_AFTER)
                    + w(W::Decline)
                    + w(W::Feed) * f(i, slot::FEED)
            } else {
                w(W::Trash) * f(i, slot::TRASH_AFTER) - w(W::MeldValue) * f(i, slot::MELD_VALUE)
            };
            (i, (milli(score + self.common(&rows[i])), after(i)))
        });
        self.tiebreak.pick(keys, rng).unwrap_or(legal.len() - 1)
    }
}
