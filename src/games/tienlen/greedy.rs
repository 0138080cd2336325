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

use super::combo::{classify, Combo};
use super::split::{combos, Split, Splitter};
use super::state::{Action, Phase, TienLenState};
use super::view::TienLenView;
use crate::agents::catalogue::AgentInfo;
use crate::agents::Agent;
use crate::game::{Seat, SeatView};
use crate::rng::GameRng;

/// The catalogue entry of Tiến Lên's `greedy`.
pub const GREEDY_INFO: AgentInfo = AgentInfo {
    name: "greedy",
    games: "tienlen",
    about: "plays by the hand's best split into combinations: leads its lowest combination that \
            is neither hàng nor 2s; responds with a chặt if it can, else the play that breaks the \
            split least, lowest first; keeps 2s and hàng for going out, for an opponent with \
            ≤ 3 cards, or for a chặt; always chops out of turn",
    params: &[],
};

/// An opponent with this many cards or fewer is about to go out: 2s and hàng come into play.
const ENDGAME_CARDS: usize = 3;

/// The greedy structure-keeping agent for Tiến Lên.
#[derive(Clone, Default)]
pub struct TienLenGreedy {
    splitter: Splitter,
    split: Split,
}

/// The index in `legal` of the action `a`, if present.
fn index_of(legal: &[Action], a: Action) -> Option<usize> {
    legal.iter().position(|&x| x == a)
}

/// True for a play worth keeping back: it holds a 2 or is hàng.
fn precious(c: &Combo) -> bool {
    c.is_hang() || c.cards.of_rank(super::card::RANK_TWO) != super::cards::Cards::EMPTY
}

impl TienLenGreedy {
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
    fn endgame(view: &TienLenView<'_>) -> bool {
        (0..view.players() as Seat).any(|s| {
            let n = view.hand_len(s);
            s != view.seat() && n > 0 && n <= ENDGAME_CARDS
        })
    }

    /// The response: see the module documentation.
    fn respond(&mut self, view: &TienLenView<'_>, legal: &[Action]) -> usize {
        let pass = index_of(legal, Action::Pass).unwrap_or(legal.len() - 1);
        let hand = view.own_hand();
        let base = i32::from(combos(self.splitter.cost(hand)));
        let endgame = Self::endgame(view);
        let top_is_target = view.top().is_some_and(|(t, _)| t.is_chat_target());
        let mut best: Option<((bool, i32, u8), usize)> = None;
        for (i, a) in legal.iter().enumerate() {
            let Action::Play(x) = *a else { continue };
            let Some(c) = classify(x) else { continue };
            let chat = top_is_target && c.is_hang();
            let left = i32::from(combos(self.splitter.cost(hand.minus(x))));
            let extra = left - (base - 1);
            if precious(&c) && !chat && !endgame && left > 1 {
                continue;
            }
            if extra >= 2 && !chat && !endgame {
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
            Phase::OotWindow(_) => legal
                .iter()
                .position(|a| matches!(a, Action::Chop(_)))
                .unwrap_or(0),
            Phase::Over => 0,
        }
    }
}
