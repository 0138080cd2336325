//! `greedy` for Tiến Lên: plays by the hand's structure (its best split, [`super::split`]) and
//! keeps 2s and hàng for the end or for a chặt.
//!
//! - **Lead:** the lowest combination of the best split (by `ckey`) that is neither hàng nor made
//!   of 2s; only 2s and hàng left: the lowest of those. The game's first play takes the split's
//!   combination that holds the required card.
//! - **Respond:** among the plays that beat the top, a chặt first (hàng on heo or hàng: it is
//!   paid for); otherwise the play that breaks the structure least (the fewest combinations left
//!   beyond the one played), then the lowest `ckey`. Plays holding a 2 or hàng are kept back
//!   unless the play leaves at most one combination (going out) or an opponent has 3 cards or
//!   fewer (the end). It passes when nothing is allowed or every allowed play would cost two or
//!   more extra combinations outside the end.
//! - **Out of turn:** always chops (a chặt is paid for).
//!
//! The numbers in these rules are its weights ([`WEIGHTS`], tuned by `bailab tune`): `endgame`
//! (3 cards), `max_extra` (2 extra combinations), `keep_left` (a precious play goes out when it
//! leaves at most 1 combination), `chat` (1: a chặt first) and `chop` (1: chop out of turn).
//! The defaults are the rule above.

use super::combo::{classify, Combo};
use super::split::{combos, Split, Splitter};
use super::state::TienLenState;
use super::types::{Action, Phase};
use super::view::TienLenView;
use crate::agent::greedy::Weights;
use crate::agent::spec::AgentSpec;
use crate::agent::Agent;
use crate::agent::{AgentError, AgentInfo};
use crate::game::{Seat, SeatView};
use crate::rng::GameRng;

/// The catalogue entry of Tiến Lên's `greedy`.
pub(crate) const GREEDY_INFO: AgentInfo = AgentInfo {
    name: "greedy",
    games: "tienlen",
    about: "plays by the hand's best split into combinations: leads its lowest combination that \
            is neither hàng nor 2s; responds with a chặt if it can, else the play that breaks the \
            split least, lowest first; keeps 2s and hàng for going out, for an opponent with \
            ≤ 3 cards, or for a chặt; always chops out of turn",
    params: GREEDY_PARAMS,
};

crate::greedy_weights! {
    params: [];
    Endgame "endgame" = 3.0 in 0.0..=12.0 step 1.0,
        "an opponent with this many cards or fewer is about to go out: 2s and hàng come into play";
    MaxExtra "max_extra" = 2.0 in 1.0..=6.0 step 1.0,
        "outside the end, a response costing this many extra combinations or more is passed";
    KeepLeft "keep_left" = 1.0 in 0.0..=6.0 step 1.0,
        "a play holding a 2 or hàng is kept back (outside the end and chặt) unless it leaves at \
         most this many combinations";
    Chat "chat" = 1.0 in 0.0..=1.0 step 1.0,
        "1: a chặt is the first choice among responses (and exempt from the limits); 0: a play \
         like any other";
    Chop "chop" = 1.0 in 0.0..=1.0 step 1.0,
        "1: always chop out of turn; 0: never";
}

/// The greedy structure-keeping agent for Tiến Lên.
#[derive(Clone)]
pub(crate) struct TienLenGreedy {
    splitter: Splitter,
    split: Split,
    /// The weights ([`WEIGHTS`]).
    pub weights: Weights,
}

impl Default for TienLenGreedy {
    fn default() -> TienLenGreedy {
        TienLenGreedy::new(Weights::defaults(WEIGHTS))
    }
}

/// The index in `legal` of the action `a`, if present.
fn index_of(legal: &[Action], a: Action) -> Option<usize> {
    legal.iter().position(|&x| x == a)
}

/// True for a play worth keeping back: it holds a 2 or is hàng.
fn precious(c: &Combo) -> bool {
    c.is_hang() || c.cards.of_rank(super::card::RANK_TWO) != super::card_set::Cards::EMPTY
}

impl TienLenGreedy {
    /// Greedy with these weights.
    pub(crate) fn new(weights: Weights) -> TienLenGreedy {
        TienLenGreedy {
            splitter: Splitter::default(),
            split: Split::default(),
            weights,
        }
    }

    /// Greedy from its spec (`greedy:endgame=4`, `greedy:PATH`).
    pub(crate) fn from_spec(spec: &AgentSpec) -> Result<TienLenGreedy, AgentError> {
        Ok(TienLenGreedy::new(Weights::from_spec(
            spec, WEIGHTS, "tienlen",
        )?))
    }

    /// Weight `s`.
    fn w(&self, s: W) -> f64 {
        self.weights.get(s as usize)
    }

    /// The lead: see the module documentation.
    fn lead(&mut self, view: &TienLenView<'_>, legal: &[Action]) -> usize {
        let hand = view.own_hand();
        self.splitter.split(hand, &mut self.split);
        let required = view.required().filter(|&c| hand.contains(c));
        let pick = match required {
            Some(c) => self.split.iter().find(|x| x.cards.contains(c)),
            None => self
                .split
                .iter()
                .filter(|x| !precious(x))
                .min_by_key(|x| x.ckey())
                .or_else(|| self.split.iter().min_by_key(|x| x.ckey())),
        };
        pick.and_then(|x| index_of(legal, Action::Play(x.cards)))
            .unwrap_or(0)
    }

    /// Whether an opponent still in play holds few enough cards to go out soon.
    fn endgame(&self, view: &TienLenView<'_>) -> bool {
        let cards = self.w(W::Endgame);
        (0..view.players() as Seat).any(|s| {
            let n = view.hand_len(s);
            s != view.seat() && n > 0 && n as f64 <= cards
        })
    }

    /// The response: see the module documentation.
    fn respond(&mut self, view: &TienLenView<'_>, legal: &[Action]) -> usize {
        let pass = index_of(legal, Action::Pass).unwrap_or(legal.len() - 1);
        let hand = view.own_hand();
        let base = i32::from(combos(self.splitter.cost(hand)));
        let endgame = self.endgame(view);
        let (max_extra, keep_left) = (self.w(W::MaxExtra), self.w(W::KeepLeft));
        let top_is_target =
            self.w(W::Chat) > 0.0 && view.top().is_some_and(|(t, _)| t.is_chat_target());
        let mut best: Option<((bool, i32, u8), usize)> = None;
        for (i, a) in legal.iter().enumerate() {
            let Action::Play(x) = *a else { continue };
            let Some(c) = classify(x) else { continue };
            let chat = top_is_target && c.is_hang();
            let left = i32::from(combos(self.splitter.cost(hand.minus(x))));
            let extra = left - (base - 1);
            if precious(&c) && !chat && !endgame && f64::from(left) > keep_left {
                continue;
            }
            if f64::from(extra) >= max_extra && !chat && !endgame {
                continue;
            }
            let key = (!chat, extra, c.ckey());
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, i));
            }
        }
        best.map_or(pass, |(_, i)| i)
    }
}

impl Agent<TienLenState> for TienLenGreedy {
    fn act(&mut self, view: &TienLenView<'_>, legal: &[Action], _rng: &mut GameRng) -> usize {
        if legal.len() == 1 {
            return 0;
        }
        match view.phase() {
            Phase::Lead(_) => self.lead(view, legal),
            Phase::Respond(_) => self.respond(view, legal),
            Phase::OotWindow(_) if self.w(W::Chop) > 0.0 => legal
                .iter()
                .position(|a| matches!(a, Action::Chop(_)))
                .unwrap_or(0),
            Phase::OotWindow(_) => legal
                .iter()
                .position(|a| !matches!(a, Action::Chop(_)))
                .unwrap_or(0),
            Phase::Over => 0,
        }
    }
}
