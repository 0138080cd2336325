//! The one-pack game loop of [`OnePackState`]: its legal actions and how an action is applied,
//! through the steps of the state machine in [`super`].

use super::*;
use crate::games::tusac::onepack::view::OnePackView;

impl GameState for OnePackState {
    type Action = Action;
    type Actions = ActionList;
    type Event = Event;

    fn to_move(&self) -> Option<Seat> {
        match self.phase {
            Phase::MustDiscard(x) | Phase::TurnOption(x) | Phase::Claim(x) => Some(x),
            Phase::Over => None,
        }
    }

    fn legal_actions(&self, out: &mut Self::Actions) {
        out.clear();
        match self.phase {
            Phase::MustDiscard(x) => {
                let set = discards_for(&self.opts, self.private(x));
                out.extend(cards_of(set).map(Action::Discard));
            }
            Phase::TurnOption(t) => {
                let a = self.active.expect("a turn option has an active card");
                let taker = match a.source {
                    Source::OwnDraw => Taker::Drawer,
                    Source::PassedDraw => Taker::Passed,
                    Source::Discard => Taker::Turn,
                };
                let mut melds = Melds::new();
                legal_melds_for(&self.opts, self.private(t), a.card, taker, &mut melds);
                out.extend(melds.iter().map(|&m| Action::Meld(m)));
                if self.may_upgrade(t, a) {
                    out.push(Action::Upgrade);
                }
                out.push(if a.source == Source::OwnDraw {
                    Action::PassDrawn
                } else {
                    Action::Draw
                });
            }
            Phase::Claim(x) => {
                let a = self.active.expect("a claim has an active card");
                let meld = optional_claim(&self.opts, self.private(x), a.card)
                    .expect("a seat is asked only when it has a claim");
                out.push(Action::Meld(meld));
                out.push(Action::Pass);
            }
            Phase::Over => {}
        }
    }

    fn apply(&mut self, action: Action) {
        debug_assert!(
            self.is_legal(action),
            "illegal action {action} in {:?}",
            self.phase
        );
        self.events.clear();
        match (self.phase, action) {
            (Phase::MustDiscard(x), Action::Discard(card)) => {
                let hand = self.private(x);
                let worst = worst_set(hand, &self.visible) >> card.index() & 1 == 1;
                self.private[x as usize].remove(card);
                self.history.spend(x, card, true);
                self.turns += 1;
                self.active = Some(Active {
                    card,
                    source: Source::Discard,
                    owner: x,
                    worst,
                });
                self.events.push(Event::Discard {
                    seat: x,
                    card,
                    worst: Some(worst),
                });
                self.claim_window();
            }
            (Phase::TurnOption(t) | Phase::Claim(t), Action::Meld(meld)) => {
                self.take_active(t, meld, None)
            }
            (Phase::TurnOption(t), Action::Upgrade) => self.upgrade(t, None),
            (Phase::Claim(x), Action::Pass) => {
                let a = self.active.expect("active card");
                let at = self.claim_order(a).iter().position(|&s| s == x);
                self.offer_from(a, at.expect("the asked seat is in the claim order") + 1);
            }
            (Phase::TurnOption(t), Action::Draw) => {
                let a = self.active.take().expect("active card");
                self.dead[a.card.index()] += 1;
                self.visible[a.card.index()] += 1;
                self.draw_step(t, Some(a.card));
            }
            (Phase::TurnOption(t), Action::PassDrawn) => {
                let a = self.active.as_mut().expect("active card");
                a.source = Source::PassedDraw;
                let card = a.card;
                self.events.push(Event::PassDrawn { seat: t, card });
                self.phase = Phase::TurnOption(self.next(t));
            }
            (phase, action) => panic!("{action} is not an action of {phase:?}"),
        }
    }

    fn last_events(&self) -> &[Event] {
        self.events.as_slice()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// 100: a typical classic win pays 40–60 per loser and rarely more than 100 in all.
    fn payout_scale(&self) -> f64 {
        100.0
    }
    fn seats(&self) -> usize {
        self.players()
    }

    type View<'a> = OnePackView<'a>;
    fn view(&self, seat: Seat) -> OnePackView<'_> {
        OnePackView::new(self, seat)
    }
}
