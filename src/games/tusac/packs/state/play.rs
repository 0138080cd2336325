//! The multi-pack game loop of [`PacksState`]: its legal actions and how an action is applied,
//! through the steps of the state machine in [`super`].

use super::*;
use crate::games::tusac::packs::view::PacksView;

impl GameState for PacksState {
    type Action = Action;
    type Actions = crate::games::tusac::actions::ActionList;
    type Event = Event;

    fn to_move(&self) -> Option<Seat> {
        match self.phase {
            Phase::MustDiscard(x) | Phase::TurnOption(x) | Phase::Claim(x) => Some(x),
            Phase::Over => None,
        }
    }

    fn legal_actions(&self, out: &mut Self::Actions) {
        out.clear();
        let mut melds = Melds::new();
        match self.phase {
            Phase::MustDiscard(x) => {
                let hand = &self.hands[x as usize];
                let types = (4..CARD_TYPES).filter(|&t| hand[t] > 0);
                out.extend(types.map(|t| Action::Discard(Card::from_index(t))));
            }
            Phase::TurnOption(_) => {
                let a = self.active.expect("a turn option has an active card");
                let cross = self.rules.cross_colour;
                shapes_in(self.window.turn_shapes, a.card, cross, &mut melds);
                out.extend(melds.iter().map(|&m| Action::Meld(m)));
                out.push(if a.source == Source::OwnDraw {
                    Action::PassDrawn
                } else {
                    Action::Draw
                });
            }
            Phase::Claim(x) => {
                let a = self.active.expect("a claim has an active card");
                if self.window.kind == WindowKind::KingQuad {
                    if self.hands[x as usize][a.card.index()] >= 3 {
                        melds.push(Meld::new(SetKind::Quad, &[a.card; 3]));
                    }
                } else {
                    identical_claims(&self.hands[x as usize], a.card, &mut melds);
                }
                out.extend(melds.iter().map(|&m| Action::Meld(m)));
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
                self.hands[x as usize][card.index()] -= 1;
                self.discarded[x as usize][card.index()] += 1;
                self.refresh_facts(x);
                self.turns += 1;
                self.active = Some(Active {
                    card,
                    source: Source::Discard,
                    owner: x,
                    worst: true,
                });
                self.events.push(Event::Discard {
                    seat: x,
                    card,
                    worst: None,
                });
                self.claim_window();
            }
            (Phase::TurnOption(_) | Phase::Claim(_), Action::Meld(m)) => self.answer(Some(m)),
            (Phase::TurnOption(_), Action::Draw | Action::PassDrawn)
            | (Phase::Claim(_), Action::Pass) => self.answer(None),
            (phase, action) => panic!("{action} is not an action of {phase:?}"),
        }
    }

    fn last_events(&self) -> &[Event] {
        self.events.as_slice()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// 100: a sisepai21 win is worth 10–30 points per loser, a dirtyking26 win 22–50.
    fn payout_scale(&self) -> f64 {
        100.0
    }
    fn seats(&self) -> usize {
        self.players()
    }

    type View<'a> = PacksView<'a>;
    fn view(&self, seat: Seat) -> PacksView<'_> {
        PacksView::new(self, seat)
    }
}
