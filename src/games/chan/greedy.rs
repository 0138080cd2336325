//! `greedy` for Chắn: a one-step lone-card minimiser.
//!
//! - ù: always claims (an ù or Thiên ù ends the hand in its favour);
//! - at its gate (`Turn`, `Drawn`): eats when a legal eat lowers its lone count (the `Lone` cards
//!   of §3.2, a ba đầu's included), a `Chan` eat before a `Ca` eat; otherwise chíus when that
//!   lowers the lone count; otherwise declines (draws, passes or ends the hand);
//! - out-of-turn chíu window: chíus when that lowers the lone count, else declines;
//! - discards and returns: the legal card that leaves the fewest lone cards, and among those the
//!   one with the fewest unseen partners (copies of it plus, for a numbered card, the unseen
//!   cards of its rank in other suits: the "outs" idea of Tứ Sắc's worst card), first in
//!   canonical order (or at random with `tiebreak=random`) among equals.
//!
//! It reads only its view and allocates nothing.
//!
//! Its weights ([`WEIGHTS`], tuned by `bailab tune`): `eat_gain` and `chiu_gain` (how much an
//! eat or chíu must lower the lone count, 1), `ca_eat` (1: Ca eats allowed) and `outs` (a
//! discard scores `lone left + outs × unseen partners`, then fewest partners; 0 is the rule
//! above), and `chan` and `ca` (with either non-zero, every decision's actions score
//! `−[the rule's choice] − chan × chan_after − ca × ca_after`, lowest first: the rule's choice
//! unless another action keeps enough more Chắn or Cạ). The defaults are the rule above.

use super::card::{Card, IDENTITIES};
use super::decompose::decompose;
use super::features::{features, FEATURES};
use super::hand::Hand;
use super::state::ChanState;
use super::types::Action;
use super::types::MAX_ACTIONS;
use super::view::ChanView;
use crate::agent::features::{FeatureRow, MAX_FEATURES};
use crate::agent::greedy::{feature_slot, milli, TieBreak, Weights, TIEBREAK_PARAM};
use crate::agent::spec::AgentSpec;
use crate::agent::Agent;
use crate::agent::{AgentError, AgentInfo};
use crate::rng::GameRng;

/// The catalogue entry of Chắn's `greedy`.
pub(crate) const GREEDY_INFO: AgentInfo = AgentInfo {
    name: "greedy",
    games: "chan",
    about: "lone-card minimiser: always claims ù; eats when an eat lowers its lone count (Chan \
            before Ca), else chíus when that lowers it, else declines; discards the legal card \
            leaving the fewest lone cards, then the one with the fewest unseen partners (outs)",
    params: GREEDY_PARAMS,
};

crate::greedy_weights! {
    params: [TIEBREAK_PARAM];
    EatGain "eat_gain" = 1.0 in 1.0..=3.0 step 1.0,
        "an eat is taken when it lowers the lone count by at least this";
    CaEat "ca_eat" = 1.0 in 0.0..=1.0 step 1.0,
        "1: Ca eats are taken (after Chan eats); 0: only Chan eats";
    ChiuGain "chiu_gain" = 1.0 in 1.0..=3.0 step 1.0,
        "a chíu is made when it lowers the lone count by at least this";
    Outs "outs" = 0.0 in 0.0..=2.0 step 0.01,
        "discard: score = lone cards left + this × unseen partners, lowest first (then fewest \
         partners)";
    Chan "chan" = 0.0 in 0.0..=3.0 step 0.01,
        "every decision: reward per Chắn after the action (chan_after), against a bonus of 1 for \
         the rule's own choice (0: the rule alone)";
    Ca "ca" = 0.0 in -2.0..=2.0 step 0.01,
        "every decision: reward per Cạ after the action (ca_after), as `chan`";
}

/// Feature slots the weights read.
const CHAN_AFTER: usize = feature_slot(FEATURES, "chan_after");
/// Feature slots the weights read.
const CA_AFTER: usize = feature_slot(FEATURES, "ca_after");

/// The greedy agent for Chắn.
#[derive(Clone, Debug)]
pub struct ChanGreedy {
    /// The tie-break rule among equal discards.
    pub tiebreak: TieBreak,
    /// The weights ([`WEIGHTS`]).
    pub weights: Weights,
    rows: [FeatureRow; MAX_ACTIONS],
}

impl ChanGreedy {
    /// Greedy with these weights.
    pub fn new(tiebreak: TieBreak, weights: Weights) -> ChanGreedy {
        ChanGreedy {
            tiebreak,
            weights,
            rows: [[0; MAX_FEATURES]; MAX_ACTIONS],
        }
    }

    /// Greedy from its spec (`greedy:tiebreak=random,outs=0.5`, `greedy:PATH`).
    pub fn from_spec(spec: &AgentSpec) -> Result<ChanGreedy, AgentError> {
        Ok(ChanGreedy::new(
            TieBreak::from_spec(spec)?,
            Weights::from_spec(spec, WEIGHTS, "chan")?,
        ))
    }

    /// With `chan` or `ca` weights: the action scoring least by
    /// `−[the rule's choice] − chan × chan_after − ca × ca_after` (an ù claim is always kept).
    fn rescore(
        &mut self,
        view: &ChanView<'_>,
        legal: &[Action],
        rule: usize,
        rng: &mut GameRng,
    ) -> usize {
        let (chan, ca) = (self.w(W::Chan), self.w(W::Ca));
        if (chan == 0.0 && ca == 0.0)
            || legal.len() == 1
            || matches!(legal[rule], Action::ClaimU(_) | Action::DeclareThienU)
        {
            return rule;
        }
        let rows = &mut self.rows[..legal.len()];
        for row in rows.iter_mut() {
            *row = [0; MAX_FEATURES];
        }
        features(view, legal, rows);
        let rows = &self.rows[..legal.len()];
        let keys = (0..legal.len()).map(|i| {
            let bonus = f64::from(u8::from(i == rule));
            let score =
                -bonus - chan * f64::from(rows[i][CHAN_AFTER]) - ca * f64::from(rows[i][CA_AFTER]);
            (i, milli(score))
        });
        self.tiebreak.pick(keys, rng).unwrap_or(rule)
    }

    /// Weight `s`.
    fn w(&self, s: W) -> f64 {
        self.weights.get(s as usize)
    }

    /// Whether going from `lone` to `after` lone cards gains at least weight `gain`.
    fn gains(&self, lone: u32, after: u32, gain: W) -> bool {
        f64::from(lone) - f64::from(after) >= self.w(gain)
    }
}

/// Number of `Lone` cards of a hand (§3.2, a ba đầu's third card included).
#[inline]
pub fn lone_count(h: &Hand) -> u32 {
    decompose(h).lone_count()
}

/// Unseen partners of `c`: its unseen copies, plus unseen cards of its rank in other suits.
pub fn partners(c: Card, unseen: &[u8; IDENTITIES]) -> u32 {
    match c.rank_index() {
        Some(r) => Card::of_rank(r)
            .iter()
            .map(|x| u32::from(unseen[x.index()]))
            .sum(),
        None => u32::from(unseen[c.index()]),
    }
}

impl Agent<ChanState> for ChanGreedy {
    fn act(&mut self, view: &ChanView<'_>, legal: &[Action], rng: &mut GameRng) -> usize {
        let rule = self.rule(view, legal, rng);
        self.rescore(view, legal, rule, rng)
    }
}

impl ChanGreedy {
    /// The rule of the module documentation (with the weights `eat_gain`, `ca_eat`, `chiu_gain`
    /// and `outs`).
    fn rule(&self, view: &ChanView<'_>, legal: &[Action], rng: &mut GameRng) -> usize {
        let hand = view.own_hand();
        let lone = lone_count(&hand);
        // ù first
        if let Some(i) = legal
            .iter()
            .position(|a| matches!(a, Action::ClaimU(_) | Action::DeclareThienU))
        {
            return i;
        }
        if let Some(i) = legal.iter().position(|a| matches!(a, Action::Discard(_))) {
            let unseen = view.unseen();
            let outs = self.w(W::Outs);
            let keys = legal
                .iter()
                .enumerate()
                .skip(i)
                .filter_map(|(k, a)| match *a {
                    Action::Discard(c) => {
                        let (l, p) = (lone_count(&hand.without(c)), partners(c, &unseen));
                        Some((k, (milli(f64::from(l) + outs * f64::from(p)), p)))
                    }
                    _ => None,
                });
            return self.tiebreak.pick(keys, rng).expect("a discard");
        }
        let eat = |chan: bool| {
            legal.iter().position(|a| match *a {
                Action::Eat { hand: h, card } => {
                    (h == card) == chan
                        && self.gains(lone, lone_count(&hand.without(h)), W::EatGain)
                }
                _ => false,
            })
        };
        let ca = || eat(false).filter(|_| self.w(W::CaEat) > 0.0);
        if let Some(i) = eat(true).or_else(ca) {
            return i;
        }
        if let Some(i) = legal.iter().position(|a| match *a {
            Action::Chiu(t) if hand.count(t) == 3 => {
                let mut after = hand;
                after.remove_n(t, 3);
                self.gains(lone, lone_count(&after), W::ChiuGain)
            }
            _ => false,
        }) {
            return i;
        }
        // decline: Draw / PassDrawn / EndHand / Decline are always the last legal action
        legal.len() - 1
    }
}
